"""Hands drawn over a scene: a hand (or arm) reaching in from the frame's edge, in one of a few
skin tones, and the turned box round its part in view (a finder taught hands learns them from it)."""
from __future__ import annotations

import cv2
import numpy as np

from .tables import noise

SKIN = ((60, 95, 160), (90, 130, 200), (110, 160, 225), (45, 70, 120), (130, 175, 235), (70, 105, 175))


def _hand_mask(rng, h, w, target) -> np.ndarray:
    """A hand with fingers reaching from an image edge toward `target`."""
    m = np.zeros((h, w), np.uint8)
    side = rng.integers(4)
    edge = [(rng.uniform(0, w), -20), (w + 20, rng.uniform(0, h)), (rng.uniform(0, w), h + 20), (-20, rng.uniform(0, h))][side]
    tx, ty = target
    reach = rng.uniform(0.3, 0.95)
    px, py = edge[0] + (tx - edge[0]) * reach, edge[1] + (ty - edge[1]) * reach
    ang = np.arctan2(ty - edge[1], tx - edge[0])
    size = rng.uniform(0.12, 0.3) * min(h, w)
    cv2.line(m, (int(edge[0]), int(edge[1])), (int(px), int(py)), 255, int(size * 0.9))
    cv2.ellipse(m, (int(px), int(py)), (int(size * 0.6), int(size * 0.5)), np.rad2deg(ang), 0, 360, 255, -1, cv2.LINE_AA)
    nf = rng.integers(2, 6)
    for k in range(nf):
        fa = ang + (k - (nf - 1) / 2) * rng.uniform(0.2, 0.35)
        ln = size * rng.uniform(0.7, 1.3)
        fx, fy = px + np.cos(fa) * ln, py + np.sin(fa) * ln
        cv2.line(m, (int(px), int(py)), (int(fx), int(fy)), 255, max(3, int(size * 0.2)), cv2.LINE_AA)
    return cv2.GaussianBlur(m, (0, 0), 1.2)


# a hand whose box is less than this many pixels across in view is no hand to label (a fingertip at the edge)
HAND_LEAST = 6


def _hand_box(points) -> np.ndarray | None:
    """The turned box (4x2 corners) round `points` (a hand's, in view), None where too little shows."""
    if points is None or len(points) == 0:
        return None
    rect = cv2.minAreaRect(np.float32(points).reshape(-1, 2))
    return np.float32(cv2.boxPoints(rect)) if min(rect[1]) >= HAND_LEAST else None


def hand_in_frame(quad: np.ndarray, w: int, h: int) -> np.ndarray | None:
    """`_hand_box` round the part of a convex `quad` inside a w x h frame."""
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    area, part = cv2.intersectConvexConvex(cv2.convexHull(np.float32(quad)).reshape(-1, 2), frame)
    return _hand_box(part) if area > 0 else None


def add_hand(canvas, rng, target):
    """A hand reaching from the frame's edge toward `target` over what the canvas holds; its box
    joins `canvas.hands`."""
    h, w = canvas.owner.shape
    mask = _hand_mask(rng, h, w, target)
    box = _hand_box(cv2.findNonZero(np.uint8(mask > 127)))
    if box is not None:
        canvas.hands.append(box)
    tone = np.float32(SKIN[rng.integers(len(SKIN))]) * rng.uniform(0.8, 1.15)
    shade = (0.8 + 0.3 * noise(rng, h, w, 20))[..., None]
    canvas.occlude(mask, np.clip(tone * shade, 0, 255))
