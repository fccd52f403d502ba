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


NONE = SYMBOLS.index("none")
CORNER_TURNS = 1     # a corner view is read as it is: its index is in its first corner (both ways up: no better)


class Reader:
    """The card reader network (64x96 upright crops -> symbol logits), each crop read both ways
    up (which short side is the top is not known), logits averaged. `allowed`: the symbols the
    deck prints (the others are never named); `colors`: the deck's palette.

    `corners`: the corner reader, a network of the same shape taught the index corners of real
    fanned cards (`recipe real-faces --corners`). A covered face is read by both: the face
    reader's log-probabilities plus the corner's, for the corner that shows an index most surely
    ("none" least), weighted by how surely it does."""

    def __init__(self, path: Path, colors: tuple, allowed=None, *, corners: Path | None = None, threads: int = 1):
        self.path = Path(path)
        self.net = session(self.path, threads)
        self.corner_net = session(Path(corners), threads) if corners else None
        self.colors = tuple(colors)
        self.mask = np.array([allowed is None or s in allowed or s == "none" for s in SYMBOLS])

    @staticmethod
    def _probs(net, x: np.ndarray, turns: int = 2) -> np.ndarray:
        """Each 96x64 crop of `x` read as it is (and half a turn round: `turns` 2), logits
        averaged: N x len(SYMBOLS) probabilities."""
        views = np.concatenate([x, x[:, ::-1, ::-1]]) if turns == 2 else x
        t = np.ascontiguousarray(views.transpose(0, 3, 1, 2)).astype(np.float32) / 255
        logits = net.run(None, {net.get_inputs()[0].name: t})[0].reshape(turns, len(x), -1).mean(0)
        e = np.exp(logits - logits.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    def symbols(self, crops: list[Crop]) -> np.ndarray:
        """N x len(SYMBOLS) probabilities."""
        if not crops:
            return np.zeros((0, len(SYMBOLS)), np.float32)
        logp = np.log(self._probs(self.net, np.stack([c.pixels for c in crops])) + 1e-6)
        covered = [i for i, c in enumerate(crops) if c.face.covered]
        if self.corner_net is not None and covered:
            pc = self._probs(self.corner_net, np.concatenate([crops[i].corners for i in covered]), CORNER_TURNS)
            pc = pc.reshape(len(covered), 2, -1)
            best = pc[np.arange(len(covered)), pc[:, :, NONE].argmin(1)]
            shown = 1 - best[:, NONE:NONE + 1]
            best[:, NONE] = 0
            best /= np.maximum(best.sum(1, keepdims=True), 1e-6)
            logp[covered] += shown * np.log(best + 1e-6)
        logp = np.where(self.mask, logp, -np.inf)
        e = np.exp(logp - logp.max(1, keepdims=True))
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
