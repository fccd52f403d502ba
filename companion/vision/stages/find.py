"""Find: every card face in a frame, as an oriented box, and whether another card covers it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..outline import OutlineFinder, upright


@dataclass(frozen=True)
class Face:
    """One card face seen: its corners (4x2, upright order: a short side first), whether a card
    covers part of it, and how sure the finder is that it is a card."""

    quad: np.ndarray
    covered: bool
    score: float

    @property
    def box(self) -> tuple:
        (x1, y1), (x2, y2) = self.quad.min(0), self.quad.max(0)
        return float(x1), float(y1), float(x2), float(y2)


class Finder:
    """The outline finder (a YOLO11n with oriented boxes) at `imgsz`, keeping faces from `conf`
    that no surer one overlaps by `iou`."""

    def __init__(self, path: Path, imgsz: int = 320, *, threads: int = 1, conf: float = 0.3, iou: float = 0.6):
        self.net = OutlineFinder(path, imgsz, threads=threads, conf=conf, iou=iou)

    def __call__(self, image: np.ndarray) -> list[Face]:
        return [Face(upright(o.quad), o.cls != "card", o.score) for o in self.net.find(image)]
