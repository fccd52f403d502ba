"""Read: each upright face named: its symbol by the card reader, its colour by the deck's palette
on the face's white-balanced pixels."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..classes import SYMBOLS
from ..colour import colour_shares, saturated_hues
from ..runtime import session
from .find import Face
from .warp import Crop

WILDS = frozenset(s for s in SYMBOLS if s.startswith("wild"))


@dataclass(frozen=True)
class Reading:
    face: Face
    symbol: str              # one of SYMBOLS; "none": no card's face
    p: float                 # the reader's probability of `symbol`
    color: str | None        # None for a wild, or where no ink shows
    color_share: float       # the share of the face's inked pixels that have `color`


class Reader:
    """The card reader network (64x96 upright crops -> symbol logits), each crop read both ways
    up (which short side is the top is not known), logits averaged. `allowed`: the symbols the
    deck prints (the others are never named); `colors`: the deck's palette."""

    def __init__(self, path: Path, colors: tuple, allowed=None, *, threads: int = 1):
        self.net = session(Path(path), threads)
        self.colors = tuple(colors)
        self.mask = np.array([allowed is None or s in allowed or s == "none" for s in SYMBOLS])

    def symbols(self, crops: list[Crop]) -> np.ndarray:
        """N x len(SYMBOLS) probabilities."""
        if not crops:
            return np.zeros((0, len(SYMBOLS)), np.float32)
        x = np.stack([c.pixels for c in crops])
        views = np.concatenate([x, x[:, ::-1, ::-1]])
        t = np.ascontiguousarray(views.transpose(0, 3, 1, 2)).astype(np.float32) / 255
        logits = self.net.run(None, {self.net.get_inputs()[0].name: t})[0]
        logits = logits.reshape(2, len(crops), -1).mean(0)
        logits = np.where(self.mask, logits, -np.inf)
        e = np.exp(logits - logits.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    def colour(self, crop: Crop) -> tuple[str | None, float]:
        """An uncovered face's colour from its middle; a covered one's from its two index corners
        (what a card over it leaves in view)."""
        px = crop.pixels
        h, w = px.shape[:2]
        if crop.face.covered:
            patches = [px[: int(h * 0.3), : int(w * 0.4)], px[h - int(h * 0.3):, w - int(w * 0.4):]]
        else:
            patches = [px[int(h * 0.2): h - int(h * 0.2), int(w * 0.2): w - int(w * 0.2)]]
        hues = [hh for hh in (saturated_hues(p, skin=False) for p in patches) if hh is not None]
        if not hues:
            return None, 0.0
        shares = colour_shares(np.concatenate(hues), self.colors)
        k = int(shares.argmax())
        return (self.colors[k], float(shares[k])) if shares[k] > 0 else (None, 0.0)

    def __call__(self, crops: list[Crop]) -> list[Reading]:
        out = []
        for crop, p in zip(crops, self.symbols(crops)):
            k = int(p.argmax())
            symbol = SYMBOLS[k]
            color, share = (None, 0.0) if symbol in WILDS or symbol == "none" else self.colour(crop)
            out.append(Reading(crop.face, symbol, float(p[k]), color, share))
        return out
