"""Fit: each face's outline drawn again, at the frame's own resolution, by a small network.

The finder sees the frame at 288 pixels on its long side: a card 40 pixels tall in a 640x480
frame is 18 pixels there, and its turned box is often off in turn and size (on piles of small
cards the faces it finds overlap their card's outline by 0.68 on average, and the face reader,
given the true outline, read all 93 of them right). The fitter is shown a square around each
face the finder found, cut from the frame itself and turned as the finder's box is, and draws the
card's four corners in it; the face is then warped from the turned box round those corners (the
corners themselves, a quad, measured no better: models/ablation.md).

    fitter = Fitter(Path("models/fitter.onnx"))
    found = fitter(image, finder(image))     # the same faces, each outline fitted; indices as found
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from ..outline import upright
from ..runtime import session
from .find import Found

# the fitter's input: a square of this many pixels a side ...
FIT_SIDE = 64
# ... round a face, this many times its found box's long side (room for a box that is off)
FIT_MARGIN = 1.6


def fit_frame(quad: np.ndarray, side: int = FIT_SIDE) -> np.ndarray:
    """The 2x3 affine map from the image to a face's fitting square: centred on the quad's turned
    box, turned so that the box's sides run along the square's, `FIT_MARGIN` times its long side."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.float32(quad).reshape(-1, 1, 2))
    span = FIT_MARGIN * max(w, h, 2.0)
    m = cv2.getRotationMatrix2D((cx, cy), angle, side / span)
    m[:, 2] += (side / 2 - cx, side / 2 - cy)
    return m


def fit_crop(image: np.ndarray, quad: np.ndarray, side: int = FIT_SIDE,
             levels: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A face's fitting square (side x side, BGR; pixels beyond the frame repeat its edge's) and the
    affine map from the image to it. A big face is drawn from the frame halved as often as it takes
    (each halving averages 2x2 pixels), sampled at twice the square's side and averaged down, so
    that nothing aliases. `levels`: the frame and its halvings so far, shared by a frame's faces
    (each made once, when a face first needs it)."""
    m = fit_frame(quad, side)
    scale = float(np.hypot(m[0, 0], m[0, 1]))          # square pixels an image pixel
    levels = levels if levels is not None else []
    if not levels:
        levels.append(image)
    level = 0
    while scale * 2 ** level < 0.5 and min(levels[level].shape[:2]) >= 2 * side:
        level += 1
        if level == len(levels):
            prev = levels[-1]
            levels.append(cv2.resize(prev, (prev.shape[1] // 2, prev.shape[0] // 2), interpolation=cv2.INTER_AREA))
    k = 2 if scale * 2 ** level < 1 else 1              # sampled twice as densely, then averaged down
    mm = m.copy()
    mm[:, :2] *= 2 ** level                            # a halved level's pixel (u, v) is the image's 2^level (u, v)
    mm *= k
    big = cv2.warpAffine(levels[level], mm, (side * k, side * k), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    return (cv2.resize(big, (side, side), interpolation=cv2.INTER_AREA) if k > 1 else big), m


def turned_box(corners: np.ndarray) -> np.ndarray:
    """The turned rectangle (4x2 corners) that most closely holds `corners`: the outline the stage passes on."""
    return cv2.boxPoints(cv2.minAreaRect(np.float32(corners).reshape(-1, 1, 2)))


def to_square(m: np.ndarray, points: np.ndarray, side: int = FIT_SIDE) -> np.ndarray:
    """Image points (N x 2) in the square's units (0..1 across it)."""
    p = np.float64(points).reshape(-1, 2)
    return ((p @ m[:, :2].T + m[:, 2]) / side).astype(np.float32)


def from_square(m: np.ndarray, points: np.ndarray, side: int = FIT_SIDE) -> np.ndarray:
    """Points in the square's units (N x 2) back in the image's pixels."""
    inv = cv2.invertAffineTransform(m)
    p = np.float64(points).reshape(-1, 2) * side
    return (p @ inv[:, :2].T + inv[:, 2]).astype(np.float32)


class Fitter:
    """The fitter network (`train-fitter`): N x 3 x S x S fitting squares (BGR, 0..1) in, N x 8 out:
    four corners of the card in the square's units, in order round it."""

    def __init__(self, path: Path, *, threads: int = 1):
        self.net = session(Path(path), threads)
        side = self.net.get_inputs()[0].shape[-1]
        self.side = side if isinstance(side, int) else FIT_SIDE

    def corners(self, image: np.ndarray, quads: list) -> list[np.ndarray]:
        """Each quad's card outline, fitted: 4x2 corners in the image's pixels."""
        if not quads:
            return []
        levels: list = []
        cut = [fit_crop(image, q, self.side, levels) for q in quads]
        x = np.stack([c for c, _ in cut]).transpose(0, 3, 1, 2).astype(np.float32) / 255
        out = self.net.run(None, {self.net.get_inputs()[0].name: np.ascontiguousarray(x)})[0]
        return [from_square(m, row.reshape(4, 2), self.side) for (_, m), row in zip(cut, out)]

    def __call__(self, image: np.ndarray, found: Found) -> Found:
        fitted = self.corners(image, [f.quad for f in found.faces])
        faces = [replace(f, quad=upright(turned_box(q))) for f, q in zip(found.faces, fitted)]
        return Found(faces, found.indices, found.hands)
