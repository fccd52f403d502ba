"""A camera leaning from straight overhead (a phone held at the table's edge, a webcam on a shelf):
the view of a synthetic scene it sees, and the scene's labels carried along."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np


def tilt_homography(rng: np.random.Generator, w: int, h: int, max_deg: float) -> np.ndarray:
    """The 3x3 map from an overhead `w` x `h` view to what a camera tilted up to `max_deg` from
    straight overhead sees (a phone held at an angle): the far side of the table shrinks. The view
    is zoomed about its centre until no corner of the frame looks past the table."""
    theta = np.deg2rad(rng.uniform(0.4, 1.0) * max_deg)
    psi = rng.uniform(0, 2 * np.pi)
    f = rng.uniform(0.8, 1.3) * max(w, h)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    rot, _ = cv2.Rodrigues(np.array([np.cos(psi), np.sin(psi), 0.0]) * theta)
    hom = k @ rot @ np.linalg.inv(k)
    c = hom @ [w / 2, h / 2, 1]
    hom = np.array([[1, 0, w / 2 - c[0] / c[2]], [0, 1, h / 2 - c[1] / c[2]], [0, 0, 1]]) @ hom
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])[:, None]
    for zoom in np.arange(1.0, 3.0, 0.05):
        z = np.array([[zoom, 0, w / 2 * (1 - zoom)], [0, zoom, h / 2 * (1 - zoom)], [0, 0, 1]]) @ hom
        back = cv2.perspectiveTransform(corners, np.linalg.inv(z)).reshape(-1, 2)
        if (back >= -1).all() and (back[:, 0] <= w + 1).all() and (back[:, 1] <= h + 1).all():
            break
    return z


def camera_tilt(img: np.ndarray, labels: list, rng: np.random.Generator, max_deg: float) -> tuple:
    """The scene as a camera tilted up to `max_deg` from straight overhead sees it
    (`tilt_homography`), and its labels carried along (`tilt_view`)."""
    h, w = img.shape[:2]
    return tilt_view(img, labels, tilt_homography(rng, w, h, max_deg))


def tilt_view(img: np.ndarray, labels: list, z: np.ndarray) -> tuple:
    """`img` seen through the tilt `z`, and its labels' boxes carried along (the upright box of
    each moved box, cut to the frame, its visible share lowered by what the cut took); a label
    whose centre leaves the frame is dropped."""
    h, w = img.shape[:2]
    out = cv2.warpPerspective(img, z, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    moved = []
    for lab in labels:
        x1, y1, x2, y2 = lab.box
        q = cv2.perspectiveTransform(np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])[:, None], z).reshape(-1, 2)
        cx, cy = q.mean(0)
        if not (0 <= cx < w and 0 <= cy < h):
            continue
        box = (float(max(0, q[:, 0].min())), float(max(0, q[:, 1].min())),
               float(min(w, q[:, 0].max())), float(min(h, q[:, 1].max())))
        # the share of it the zoom pushed past the frame's edge is no longer seen
        whole = (q[:, 0].max() - q[:, 0].min()) * (q[:, 1].max() - q[:, 1].min())
        kept = (box[2] - box[0]) * (box[3] - box[1]) / whole if whole > 0 else 0.0
        moved.append(replace(lab, box=box, visible=round(lab.visible * kept, 3)))
    return out, moved
