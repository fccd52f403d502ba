"""Oriented-box YOLO networks on ONNX Runtime and OpenCV only, and the upright crops of what they
outline. The recogniser's finder is one (`stages.find`: classes `FINDER_CLASSES`); the outline
finder it was trained from another (classes `OUTLINE_CLASSES`: ``card``, a face no other card
covers, and ``under``, one other cards partly cover)::

    finder = OutlineFinder(Path("models/finder.onnx"), classes=FINDER_CLASSES)
    for o in finder.find(cv2.imread("pile.jpg")):
        o.cls, o.score, o.quad          # "card", 0.91, 4x2 corners in the image's pixels
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .classes import OUTLINE_CLASSES
from .runtime import fitted, letterbox, session


@dataclass(frozen=True)
class FoundOutline:
    cls: str                 # "card" (no card over it) or "under"
    quad: np.ndarray         # 4x2 corners in the image, in order round the rectangle
    score: float

    @property
    def centre(self) -> np.ndarray:
        return self.quad.mean(0)


def class_names(net) -> tuple:
    """The class names an Ultralytics export writes into the model's metadata ("{0: 'card', ...}"),
    in order; () where it wrote none."""
    import ast
    try:
        names = ast.literal_eval(net.get_modelmeta().custom_metadata_map.get("names", "{}"))
        return tuple(names[k] for k in sorted(names))
    except (ValueError, SyntaxError, TypeError, AttributeError):
        return ()


class OutlineFinder:
    """Runs the exported outline network (its output: centre, size, class scores and turn of
    each candidate) at `imgsz` on the frame's long side, and keeps the candidates scoring
    `conf` or more that no surer one of its class overlaps by `iou` (turned boxes). `classes`: the
    network's class names (the face pipeline's finder has its own, `FINDER_CLASSES`)."""

    classes: tuple = OUTLINE_CLASSES

    def __init__(self, path: Path, imgsz: int = 320, *, threads: int = 1, conf: float = 0.3, iou: float = 0.6,
                 classes: tuple | None = None):
        self.net = session(Path(path), threads)
        self.imgsz, self.conf, self.iou = imgsz, conf, iou
        self.classes = tuple(classes) if classes else class_names(self.net) or OUTLINE_CLASSES
        # a network exported with no fixed input size reads a frame drawn to fill its input, each
        # side a multiple of its largest stride (32), not letterboxed to a square
        self.stride = 0 if all(isinstance(d, int) for d in self.net.get_inputs()[0].shape[2:]) else 32

    def find(self, image: np.ndarray) -> list[FoundOutline]:
        h, w = image.shape[:2]
        if h == 0 or w == 0:
            return []
        if self.stride:
            x, sx, sy = fitted(image, self.imgsz, self.stride)
            scale, offset = np.float32([sx, sy]), np.float32([0, 0])
        else:
            x, s, left, top = letterbox(image, self.imgsz)
            scale, offset = np.float32([s, s]), np.float32([left, top])
        out = self.net.run(None, {self.net.get_inputs()[0].name: x})[0][0]    # (4 + nc + 1, N)
        nc = len(self.classes)
        if out.shape[0] != 5 + nc:
            raise ValueError(f"the outline network gives {out.shape[0]} numbers a box, not {5 + nc}: "
                             f"is it an oriented-box model of {nc} classes?")
        xywh, scores, turn = out[:4].T, out[4:4 + nc].T, out[4 + nc]
        cls, conf = scores.argmax(1), scores.max(1)
        found = []
        for c, name in enumerate(self.classes):
            sel = np.nonzero((conf >= self.conf) & (cls == c))[0]
            if len(sel) == 0:
                continue
            boxes = [((float(xywh[i, 0]), float(xywh[i, 1])), (float(xywh[i, 2]), float(xywh[i, 3])),
                      float(np.rad2deg(turn[i]))) for i in sel]
            keep = cv2.dnn.NMSBoxesRotated(boxes, conf[sel].tolist(), self.conf, self.iou)
            for k in np.array(keep).reshape(-1):
                quad = (cv2.boxPoints(boxes[k]) - offset) / scale
                found.append(FoundOutline(name, quad.astype(np.float32), float(conf[sel[k]])))
        return sorted(found, key=lambda o: -o.score)


def convex(quad: np.ndarray) -> np.ndarray:
    """The quad's corners as a convex polygon, counter-clockwise as OpenCV's intersection wants."""
    return cv2.convexHull(np.float32(quad)).reshape(-1, 2)


def quad_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex quads (4x2 corners) share."""
    return float(cv2.intersectConvexConvex(convex(a), convex(b))[0])


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (4x2 corners)."""
    inter = quad_overlap(a, b)
    union = abs(cv2.contourArea(np.float32(a))) + abs(cv2.contourArea(np.float32(b))) - inter
    return float(inter / union) if union > 0 else 0.0


# the card reader's input: a card's outline turned upright, its long side up (width, height)
CARD_CROP = (64, 96)


def upright(quad: np.ndarray) -> np.ndarray:
    """A turned rectangle's corners in the order (tl, tr, br, bl) of a card standing upright: clockwise
    in the image (y down), its first side a short one. Which short side is the top is not known (a card
    read upside down is the same card, but for its picture; the reader is asked both ways round)."""
    q = np.float32(quad).reshape(4, 2)
    x, y = q[:, 0], q[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
        q = q[::-1].copy()
    if np.hypot(*(q[1] - q[0])) > np.hypot(*(q[3] - q[0])):
        q = np.roll(q, -1, axis=0)
    return q


def card_crop(image: np.ndarray, quad: np.ndarray, size: tuple = CARD_CROP) -> np.ndarray:
    """The pixels inside a card's outline `quad`, turned upright and drawn at `size` (width, height).
    A big card is first shrunk by averaging, so that its print does not alias."""
    return quad_crop(image, upright(quad), size)


def quad_crop(image: np.ndarray, q: np.ndarray, size: tuple = CARD_CROP) -> np.ndarray:
    """The pixels inside the quad `q` (corners clockwise from the one drawn top-left) at `size`."""
    q = np.float32(q)
    w, h = size
    long_side = max(np.hypot(*(q[3] - q[0])), 1.0)
    f = min(1.0, 1.5 * h / long_side)
    if f < 1.0:
        x0, y0 = np.floor(q.min(0)).astype(int)
        x1, y1 = np.ceil(q.max(0)).astype(int) + 1
        ih, iw = image.shape[:2]
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(iw, x1), min(ih, y1)
        if x1 - x0 > 1 and y1 - y0 > 1:
            image = cv2.resize(image[y0:y1, x0:x1], None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            q = (q - [x0, y0]) * f
    m = cv2.getPerspectiveTransform(np.float32(q), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
