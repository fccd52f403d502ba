"""Warp: each face cut out of the frame and turned upright, as the face reader learnt to read it,
and each corner index cut out square, as the symbol classifier learnt to read it; and the colour
of the room's light, from the found cards' white print, for the read stage to undo before it
names a colour (a warm bulb turns the white orange and a blue ink purple).

A face the frame's edge cuts is still a face: the pixels beyond the edge repeat the edge's, and
the reader reads what is visible (`ablation.md`: reading it a quarter turn round as well did not pay)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..colour import illuminant_gains
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
    light: np.ndarray = field(default_factory=lambda: np.ones(3, np.float32))    # gains making the light grey


# the side of a corner index's square crop, where the classifier does not fix it (its input size)
INDEX_CROP = 48


def warp(image: np.ndarray, found: Found, size: tuple = CARD_CROP, index_size: int = INDEX_CROP) -> Crops:
    light = illuminant_gains(image, [f.box for f in found.faces] + [i.box for i in found.indices])
    return Crops([Crop(f, card_crop(image, f.quad, size)) for f in found.faces],
                 [IndexCrop(i, crop_square(image, i.box, index_size)) for i in found.indices], light)
