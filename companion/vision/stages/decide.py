"""Decide: every card seen, and the top card: the surest face no card covers."""
from __future__ import annotations

from ..outline import quad_iou
from .read import Reading


def decide(readings: list[Reading], *, least: float, same: float) -> tuple[list[Reading], Reading | None]:
    """The readings that name a card at `least` or more, and the surest uncovered one among them.
    A face found twice (overlapping a surer reading by `same` IoU or more and read as the same
    card) counts once, as its uncovered finding where it has one (the top card is often found both
    whole and as a card under another); a fan's cards overlap as much, but read as other cards."""
    kept: list[Reading] = []
    for r in sorted(readings, key=lambda r: (r.face.covered, -r.p)):     # a face found twice: uncovered wins
        if r.symbol == "none" or r.p < least:
            continue
        if not r.symbol.startswith("wild") and r.color is None:
            continue                 # a coloured card whose colour shows nowhere: no card's face
        if any((k.symbol, k.color) == (r.symbol, r.color) and quad_iou(r.face.quad, k.face.quad) >= same
               for k in kept):
            continue
        kept.append(r)
    kept.sort(key=lambda r: -r.p)
    uncovered = [r for r in kept if not r.face.covered]
    return kept, (max(uncovered, key=lambda r: r.p * r.face.score) if uncovered else None)
