"""Decide: every card seen, and the top card: the surest face no card covers."""
from __future__ import annotations

from ..outline import quad_iou
from .read import Reading


def decide(readings: list[Reading], *, least: float, same: float) -> tuple[list[Reading], Reading | None]:
    """The readings that name a card at `least` or more (a face found twice, overlapping another
    by `same` IoU or more, counts once, the surer), and the surest uncovered one among them."""
    kept: list[Reading] = []
    for r in sorted(readings, key=lambda r: -r.p):
        if r.symbol == "none" or r.p < least:
            continue
        if not r.symbol.startswith("wild") and r.color is None:
            continue                 # a coloured card whose colour shows nowhere: no card's face
        if any(quad_iou(r.face.quad, k.face.quad) >= same for k in kept):
            continue
        kept.append(r)
    uncovered = [r for r in kept if not r.face.covered]
    return kept, (max(uncovered, key=lambda r: r.p * r.face.score) if uncovered else None)
