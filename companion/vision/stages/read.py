"""Read: each upright face named by the face reader, each symbol found (a corner index, a centre) by the classifier.
An index's colour: the classifier's own where it has a colour head (taught indices under hard
shadows and every lamp), else the palette matcher's; a face's colour: the deck's palette on its
middle's pixels, the room light's cast undone (`Crops.light`) and then white-balanced."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..classes import COLOURS, SYMBOLS
from ..colour import balance, colour_shares, saturated_hues
from ..runtime import session, turned_logits
from .warp import INDEX_CROP, Crop, Crops, IndexCrop

WILDS = frozenset(s for s in SYMBOLS if s.startswith("wild"))
NONE = SYMBOLS.index("none")
NO_COLOUR = WILDS | {"none"}


@dataclass(frozen=True)
class Reading:
    part: object             # the Face or Index read
    probs: np.ndarray        # over SYMBOLS ("none": no card's face or index), the deck's symbols only
    shares: dict             # each of the deck's colours: its share of the inked pixels ({} where no ink shows)

    @property
    def color(self) -> str | None:
        """The colour most of the ink has (None where no ink shows)."""
        return max(self.shares, key=self.shares.get) if self.shares else None

    @property
    def symbol(self) -> str:
        return SYMBOLS[int(self.probs.argmax())]

    @property
    def p(self) -> float:
        return float(self.probs.max())


@dataclass(frozen=True)
class Readings:
    faces: list
    indices: list


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


class Reader:
    """The face reader (64x96 upright faces, each read both ways up: which short side is the top is
    not known) and the symbol classifier (square index crops, each read at `turns` quarter turns),
    logits averaged. `allowed`: the symbols the deck prints (the others are never named);
    `colors`: the deck's palette. A network with a colour head (its logits: the symbols, then
    `COLOURS`) names its parts' colours, in the deck's palette only; one without leaves them to
    the palette matcher (`colour`)."""

    def __init__(self, face_path: Path, index_path: Path, colors: tuple, allowed=None, *, turns: int = 1,
                 threads: int = 1):
        self.face_net = session(Path(face_path), threads)
        self.index_net = session(Path(index_path), threads)
        side = self.index_net.get_inputs()[0].shape[-1]
        self.index_size = side if isinstance(side, int) else INDEX_CROP     # the square crop it reads
        self.colors, self.turns = tuple(colors), int(turns)
        self.mask = np.array([allowed is None or s in allowed or s == "none" for s in SYMBOLS])
        self.face_colours, self.index_colours = (
            net.get_outputs()[0].shape[-1] == len(SYMBOLS) + len(COLOURS) for net in (self.face_net, self.index_net))
        named = [c for c in self.colors if c in COLOURS]
        self.palette = (tuple(named), [len(SYMBOLS) + COLOURS.index(c) for c in named])

    def _masked(self, logits: np.ndarray) -> np.ndarray:
        return softmax(np.where(self.mask, logits[..., :len(SYMBOLS)], -np.inf))

    def face_logits(self, crops: list[Crop]) -> np.ndarray:
        """The face reader's logits, both ways up averaged: symbols, then (a colour head's) colours."""
        if not crops:
            return np.zeros((0, len(SYMBOLS)), np.float32)
        x = np.stack([c.pixels for c in crops])
        views = np.concatenate([x, x[:, ::-1, ::-1]])
        t = np.ascontiguousarray(views.transpose(0, 3, 1, 2)).astype(np.float32) / 255
        logits = self.face_net.run(None, {self.face_net.get_inputs()[0].name: t})[0]
        return logits.reshape(2, len(crops), -1).mean(0)

    def face_probs(self, crops: list[Crop]) -> np.ndarray:
        return self._masked(self.face_logits(crops))

    def index_logits(self, crops: list[IndexCrop]) -> np.ndarray:
        """The classifier's logits: symbols, then (a colour head's) colours."""
        if not crops:
            return np.zeros((0, len(SYMBOLS)), np.float32)
        return turned_logits(self.index_net, np.stack([c.pixels for c in crops]), self.turns)

    def colour(self, patch: np.ndarray, light: np.ndarray) -> dict:
        """The palette matcher: each of the deck's colours' share of the inked pixels of `patch`
        ({} where none is inked)."""
        hues = saturated_hues(balance(patch, light), skin=False)
        if hues is None:
            return {}
        return {c: float(v) for c, v in zip(self.colors, colour_shares(hues, self.colors)) if v > 0}

    def _shares(self, logits: np.ndarray, learned: bool, patch: np.ndarray, light: np.ndarray) -> dict:
        """A part's colour shares: its network's colour head's, or the matcher's on `patch`."""
        if learned:
            names, cols = self.palette
            return dict(zip(names, softmax(logits[cols]).tolist()))
        return self.colour(patch, light)

    def __call__(self, crops: Crops) -> Readings:
        faces = []
        for c, row in zip(crops.faces, self.face_logits(crops.faces)):
            h, w = c.pixels.shape[:2]        # the face's middle: its big symbol or oval
            middle = c.pixels[h // 5: h - h // 5, w // 5: w - w // 5]
            faces.append(Reading(c.face, self._masked(row), self._shares(row, self.face_colours, middle, crops.light)))
        # an index read as no card's, or as a wild's, names no colour (the matcher costs a
        # millisecond an index)
        indices = []
        for c, row in zip(crops.indices, self.index_logits(crops.indices)):
            p = self._masked(row)
            coloured = SYMBOLS[int(p.argmax())] not in NO_COLOUR
            indices.append(Reading(c.index, p, self._shares(row, self.index_colours, c.pixels, crops.light) if coloured else {}))
        return Readings(faces, indices)
