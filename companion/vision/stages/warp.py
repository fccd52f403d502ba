"""Warp: each face cut out of the frame and turned upright, as the face reader learnt to read it,
and each corner index cut out square, as the symbol classifier learnt to read it.

A face the frame's edge cuts is still a face: the pixels beyond the edge repeat the edge's, and
the reader reads what is visible."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..dataset import crop_square
from ..outline import CARD_CROP, card_crop
from .find import Face, Found, Index


@dataclass(frozen=True)
class Crop:
    face: Face
    pixels: np.ndarray       # CARD_CROP[1] x CARD_CROP[0] x 3, BGR


@dataclass(frozen=True)
class IndexCrop:
    index: Index
    pixels: np.ndarray       # S x S x 3, BGR: the index's box, padded, drawn square


@dataclass(frozen=True)
class Crops:
    faces: list
    indices: list


def warp(image: np.ndarray, found: Found, size: tuple = CARD_CROP, index_size: int = 48) -> Crops:
    return Crops([Crop(f, card_crop(image, f.quad, size)) for f in found.faces],
                 [IndexCrop(i, crop_square(image, i.box, index_size)) for i in found.indices])
