"""Find: with one network, every card face no other card covers (an oriented box) and every symbol
in view, of any card, as an `Index`: a corner index (a covered card is found by the index it leaves
in view) or a centre symbol (a card held close to the lens shows little more, cut by the frame);
where the finder was taught hands too, every hand in view, apart."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..classes import FINDER_CLASSES, FINDER_NAMINGS, HAND
from ..outline import OutlineFinder, class_names, upright
from ..runtime import ModelError


@dataclass(frozen=True)
class Face:
    """A card face no other card covers (a hand may): its corners (4x2, upright order: a short
    side first) and how sure the finder is that it is one."""

    quad: np.ndarray
    score: float

    @property
    def box(self) -> tuple:
        (x1, y1), (x2, y2) = self.quad.min(0), self.quad.max(0)
        return float(x1), float(y1), float(x2), float(y2)


@dataclass(frozen=True)
class Index:
    """A symbol in view (a corner index or a centre symbol): its upright box (x1, y1, x2, y2) round
    the finder's turned one, within the frame."""

    box: tuple
    score: float

    @property
    def centre(self) -> tuple:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2


@dataclass(frozen=True)
class Found:
    faces: list
    indices: list
    hands: tuple = ()        # the turned box (4x2 corners) round each hand found (a finder taught `HAND`)


class Finder:
    """The finder network (a YOLO11n with oriented boxes of `FINDER_CLASSES`) at `imgsz`: what
    scores `conf` or more, of two of a class overlapping by `iou` or more only the surer."""

    def __init__(self, path: Path, imgsz: int = 320, *, threads: int = 1, conf: float = 0.3,
                 iou: float = 0.5):
        self.net = OutlineFinder(path, imgsz, threads=threads, conf=conf, iou=iou, classes=FINDER_CLASSES)
        # the classes the file names (its export writes them): `FINDER_CLASSES`, and `HAND` where it
        # was taught hands
        names = class_names(self.net.net) or FINDER_CLASSES
        if names not in FINDER_NAMINGS:
            raise ModelError(f"{path} finds {list(names)}, not the finder's {list(FINDER_CLASSES)} (and {HAND!r})")
        self.net.classes = names

    def __call__(self, image: np.ndarray) -> Found:
        faces, indices, hands = [], [], []
        h, w = image.shape[:2]
        for o in self.net.find(image):          # surest first
            if o.cls == "index":        # the part in view, as its label was (a big centre symbol the frame cuts)
                (x1, y1), (x2, y2) = np.clip(o.quad.min(0), 0, (w, h)), np.clip(o.quad.max(0), 0, (w, h))
                if x2 - x1 >= 2 and y2 - y1 >= 2:
                    indices.append(Index((float(x1), float(y1), float(x2), float(y2)), o.score))
            elif o.cls == HAND:
                hands.append(o.quad)
            else:
                faces.append(Face(upright(o.quad), o.score))
        return Found(faces, indices, tuple(hands))
