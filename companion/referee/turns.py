"""Whose turn it is: a seat becomes the current player, or the turn passes on.

Both a card's effects (`effects.py`) and the end of a round (`scoring.py`) start turns; this
module is what they share, so neither has to import the other's internals.
"""
from __future__ import annotations

from .state import State


def begin_turn(s: State, i: int, *, again: bool = False) -> None:
    """Seat ``i`` is now the current player."""
    s.current = i
    s.drew = 0
    if s.precalled != i:
        s.precalled = None
    name = s.seats[i].name
    s.say("turn", f"{name} plays again" if again else f"{name}'s turn", player=name, **({"again": True} if again else {}))


def advance(s: State, frm: int, skip: int = 0) -> None:
    """End the turn of seat ``frm``: the next player plays, after ``skip`` players are skipped."""
    nxt = s.next_seat(frm)
    for _ in range(skip):
        s.say("skipped", f"{s.seats[nxt].name} is skipped", player=s.seats[nxt].name)
        nxt = s.next_seat(nxt)
    begin_turn(s, nxt, again=nxt == frm)
