"""Warp: each face cut out of the frame and turned upright, as the reader learnt to read it, and
a covered face's two index corners drawn at the same size (what a fan leaves in view of it).

A face the frame's edge cuts is still a face: the pixels beyond the edge repeat the edge's, and
the reader reads what is visible."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..outline import CARD_CROP, card_crop, corner_quads, quad_crop
from .find import Face


@dataclass(frozen=True)
class Crop:
    face: Face
    pixels: np.ndarray       # CARD_CROP[1] x CARD_CROP[0] x 3, BGR
    corners: np.ndarray | None   # a covered face's two index corners (`outline.corner_quads`),
                                 # 2 x CARD_CROP[1] x CARD_CROP[0] x 3; None for an uncovered face


def warp(image: np.ndarray, faces: list[Face], size: tuple = CARD_CROP) -> list[Crop]:
    return [Crop(f, card_crop(image, f.quad, size),
                 np.stack([quad_crop(image, q, size) for q in corner_quads(f.quad)]) if f.covered else None)
            for f in faces]
