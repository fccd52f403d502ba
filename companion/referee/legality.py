"""Which card may go on the pile: matching, stacking, and the Wild Draw Four test.

Legality is separate from applying (as in python-chess)::

    >>> from companion.cards import Card
    >>> mismatch(Card.parse("red 3"), top=Card.parse("green 7"), color="green")
    'red 3 does not match green 7'
    >>> mismatch(Card.parse("green 3"), top=Card.parse("green 7"), color="green") is None
    True
"""
from __future__ import annotations

from ..cards import Card
from ..rules import Rules

DRAW_CARDS = {"draw_two": 2, "wild_draw_four": 4}
REASONS = {"draw_two": "Draw Two", "wild_draw_four": "Wild Draw Four"}   # the penalty's name


def mismatch(card: Card, *, top: Card | None, color: str | None) -> str | None:
    """Why ``card`` cannot be played on ``top`` with ``color`` in force, or None if it can."""
    if card.is_wild or top is None:
        return None
    if card.color == color:
        return None
    if not top.is_wild and card.symbol == top.symbol:
        return None
    shown = f"{top} ({color})" if top.is_wild else str(top)
    if top.is_wild:
        return f"{card} does not match the colour named, {color}"
    return f"{card} does not match {shown}"


def can_stack(card: Card, pending_cards: list[str], rules: Rules) -> bool:
    """May ``card`` answer the pending draw (the symbols stacked so far) under ``rules.stacking``?"""
    if rules.stacking == "off" or not pending_cards or card.symbol not in DRAW_CARDS:
        return False
    if rules.stacking == "cross":
        return True
    return card.symbol == pending_cards[-1]


def wd4_guilty(hand: list[Card], color_before: str | None, *, wilds_match: bool = False) -> bool:
    """Was a Wild Draw Four played while holding a card of the colour in force before it?

    >>> wd4_guilty([Card.parse("red 1"), Card.parse("blue 7")], "blue")
    True
    >>> wd4_guilty([Card.parse("wild")], "blue"), wd4_guilty([Card.parse("wild")], "blue", wilds_match=True)
    (False, True)
    """
    for c in hand:
        if c.is_wild:
            if wilds_match:
                return True
        elif c.color == color_before:
            return True
    return False
