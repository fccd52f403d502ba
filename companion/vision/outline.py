"""The outline finder: an oriented-box YOLO network that finds every face-up card's outline, as a
turned rectangle, and tells a card no other card covers (``card``: the top of the pile, a hand
maybe over it) from one that other cards partly cover (``under``)::

    finder = OutlineFinder(Path("models/outlines.onnx"))
    for o in finder.find(cv2.imread("pile.jpg")):
        o.cls, o.score, o.quad          # "card", 0.91, 4x2 corners in the image's pixels

Trained on the generator's outlines (`dataset.py outlines`, `Scene.outlines`); runs on ONNX
Runtime and OpenCV only.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .classes import OUTLINE_CLASSES
from .runtime import letterbox, session


@dataclass(frozen=True)
class FoundOutline:
    cls: str                 # "card" (no card over it) or "under"
    quad: np.ndarray         # 4x2 corners in the image, in order round the rectangle
    score: float

    @property
    def centre(self) -> np.ndarray:
        return self.quad.mean(0)


class OutlineFinder:
    """Runs the exported outline network (its output: centre, size, class scores and turn of
    each candidate) at `imgsz`, letterboxed as it was trained, and keeps the candidates scoring
    `conf` or more that no surer one of its class overlaps by `iou` (turned boxes)."""

    def __init__(self, path: Path, imgsz: int = 320, *, threads: int = 1, conf: float = 0.3, iou: float = 0.6):
        self.net = session(Path(path), threads)
        self.imgsz, self.conf, self.iou = imgsz, conf, iou

    def find(self, image: np.ndarray) -> list[FoundOutline]:
        h, w = image.shape[:2]
        if h == 0 or w == 0:
            return []
        x, s, left, top = letterbox(image, self.imgsz)
        out = self.net.run(None, {self.net.get_inputs()[0].name: x})[0][0]    # (4 + nc + 1, N)
        nc = len(OUTLINE_CLASSES)
        if out.shape[0] != 5 + nc:
            raise ValueError(f"the outline network gives {out.shape[0]} numbers a box, not {5 + nc}: "
                             f"is it an oriented-box model of {nc} classes?")
        xywh, scores, turn = out[:4].T, out[4:4 + nc].T, out[4 + nc]
        cls, conf = scores.argmax(1), scores.max(1)
        found = []
        for c, name in enumerate(OUTLINE_CLASSES):
            sel = np.nonzero((conf >= self.conf) & (cls == c))[0]
            if len(sel) == 0:
                continue
            boxes = [((float(xywh[i, 0]), float(xywh[i, 1])), (float(xywh[i, 2]), float(xywh[i, 3])),
                      float(np.rad2deg(turn[i]))) for i in sel]
            keep = cv2.dnn.NMSBoxesRotated(boxes, conf[sel].tolist(), self.conf, self.iou)
            for k in np.array(keep).reshape(-1):
                quad = (cv2.boxPoints(boxes[k]) - [left, top]) / s
                found.append(FoundOutline(name, quad.astype(np.float32), float(conf[sel[k]])))
        return sorted(found, key=lambda o: -o.score)
