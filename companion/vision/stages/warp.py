"""Warp: each face cut out of the frame and turned upright, as the face reader learnt to read it,
and each corner index cut out square, as the symbol classifier learnt to read it; and the colour
of the room's light, from the found cards' white print, for the read stage to undo before it
names a colour (a warm bulb turns the white orange and a blue ink purple).

A face the frame's edge cuts is still a face: the reader reads what is in view, cut out both ways
round (the part of a card held close to the lens may be wider than tall), and the pixels beyond
the edge repeat the edge's."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..colour import illuminant_gains
from ..dataset import crop_square
from ..outline import CARD_CROP, card_crop, quad_crop, upright
from .find import Face, Found, Index


@dataclass(frozen=True)
class Crop:
    face: Face
    pixels: np.ndarray       # CARD_CROP[1] x CARD_CROP[0] x 3, BGR
    # a face the frame cuts: the part in view a quarter turn round as well (its longer side may be
    # the card's shorter one: which is the card's long side is not known)
    turned: np.ndarray | None = None


@dataclass(frozen=True)
class IndexCrop:
    index: Index
    pixels: np.ndarray       # S x S x 3, BGR: the index's box, padded, drawn square


@dataclass(frozen=True)
class Crops:
    faces: list
    indices: list
    light: np.ndarray = field(default_factory=lambda: np.ones(3, np.float32))    # gains making the light grey


# a face reaching this near the frame's edge (pixels) is one the frame may cut
EDGE = 2.0
# the side of a corner index's square crop, where the classifier does not fix it (its input size)
INDEX_CROP = 48


def warp(image: np.ndarray, found: Found, size: tuple = CARD_CROP, index_size: int = INDEX_CROP) -> Crops:
    light = illuminant_gains(image, [f.box for f in found.faces] + [i.box for i in found.indices])
    h, w = image.shape[:2]
    faces = []
    for f in found.faces:
        cut = (f.quad.min() < EDGE) or (f.quad[:, 0].max() > w - EDGE) or (f.quad[:, 1].max() > h - EDGE)
        faces.append(Crop(f, card_crop(image, f.quad, size),
                          quad_crop(image, np.roll(upright(f.quad), -1, axis=0), size) if cut else None))
    return Crops(faces, [IndexCrop(i, crop_square(image, i.box, index_size)) for i in found.indices], light)
