"""Decide: every card seen, and the top card: the surest face no card covers.

A face is named by its own reading and by the symbols found on it (its corner indices and centre
symbol), together (an index on a face may also be a card's beneath it, showing at the face's edge:
`stray`); a symbol found on no such face is a covered card, named by it alone. Where no face is
read surely, the surest face read below the bar is the top card's candidate, unsure: the host is
asked about it (a card that landed is never taken for an empty pile because it reads unsure)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from ..classes import SYMBOLS
from .read import NONE, WILDS, Readings, softmax


@dataclass(frozen=True)
class Seen:
    symbol: str
    color: str | None        # None for a wild
    p: float
    box: tuple
    uncovered: bool          # a face no card covers (else a covered card's index)
    score: float             # the finder's


class Decision(NamedTuple):
    cards: list              # every card read surely: `Seen`s, surest first
    top: Seen | None         # the surest face among them
    unsure: Seen | None      # where no face is read surely: the surest face read below the bar


def on_face(quad: np.ndarray, point) -> bool:
    """`point` lies on the face `quad` (its edge included)."""
    poly = quad.reshape(-1, 1, 2).astype(np.float32)
    return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0


def colour_of(parts: list) -> str | None:
    """The colour of a card from its parts' readings (its face's middle, its corner indices): each
    part's shares of its ink, summed, so that a part a hand or a shadow spoils (a hand's skin
    over the middle read as red) is outvoted by the parts that agree. None where no part shows ink."""
    total: dict = {}
    for q in parts:
        for c, v in q.shares.items():
            total[c] = total.get(c, 0.0) + v
    return max(total, key=total.get) if total else None


def decide(readings: Readings, *, face_least: float, index_least: float, stray: float) -> Decision:
    """The cards read at `face_least` (a face) or `index_least` (a covered card's index) or more,
    surest first, and the surest face among them (None where no face is read); where there is no
    such face, the surest face read as a card below `face_least` (unsure). `stray`: the chance
    that an index on a face is another card's, whatever it reads (so one such index cannot outvote
    the face and its own indices)."""
    seen, used, below = [], set(), []
    for r in readings.faces:
        members = [i for i, q in enumerate(readings.indices) if on_face(r.part.quad, q.part.centre)]
        used.update(members)
        logp = np.log(r.probs + 1e-6)
        shown = [readings.indices[i] for i in members if readings.indices[i].symbol != "none"]
        anyone = (r.probs > 0) / max(int((r.probs > 0).sum()), 1)      # an index of some other card
        for q in shown:
            logp = logp + np.log((1 - stray) * q.probs + stray * anyone + 1e-6)
        if shown:
            logp[NONE] = -np.inf             # an index on it: it is a card
        probs = softmax(np.where(r.probs > 0, logp, -np.inf))
        k = int(probs.argmax())
        symbol = SYMBOLS[k]
        if symbol == "none":
            continue
        color = colour_of([r] + [q for q in shown if q.symbol == symbol])
        if symbol not in WILDS and color is None:
            continue                 # a coloured card whose colour shows nowhere: no card's face
        face = Seen(symbol, None if symbol in WILDS else color, float(probs[k]), r.part.box, True, r.part.score)
        (seen if probs[k] >= face_least else below).append(face)
    for i, q in enumerate(readings.indices):
        if i in used or q.symbol == "none" or q.p < index_least:
            continue
        if q.symbol not in WILDS and q.color is None:
            continue
        seen.append(Seen(q.symbol, None if q.symbol in WILDS else q.color, q.p, q.part.box, False, q.part.score))
    seen.sort(key=lambda s: -s.p)
    faces = [s for s in seen if s.uncovered]
    top = max(faces, key=lambda s: s.p * s.score) if faces else None
    return Decision(seen, top, None if top or not below else max(below, key=lambda s: s.p * s.score))
