"""The referee: a pure state machine from table inputs to announcements and a state snapshot.

No I/O, no clock, no threads. Inputs are plain dicts (see `inputs.py`); a malformed one raises
`InputError` and changes nothing; a well-formed but illegal one is announced::

    >>> ref = Referee()
    >>> _ = ref.apply({"setup": {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"}})
    >>> _ = ref.apply({"start": "red 7"})
    >>> [a["type"] for a in ref.apply({"play": "red skip"})]
    ['played', 'skipped', 'turn']
    >>> ref.snapshot()["current"]
    'Cat'
    >>> [a["type"] for a in ref.apply({"play": "blue 3"})]
    ['illegal_play', 'penalty', 'turn']
    >>> _ = ref.apply({"undo": True}); ref.snapshot()["hand_counts"]
    {'Ann': 6, 'Ben': 7, 'Cat': 7}

Undo is exact: the referee keeps the effective inputs and rebuilds the state from them (the
same replay a restart does from the event log).
"""
from __future__ import annotations

from typing import Any

from . import effects, scoring, table_inputs, uno, variants  # noqa: F401  (register the rules)
from ..cards import Card
from .inputs import Input, InputError, parse
from .legality import mismatch
from .snapshot import snapshot as _snapshot
from .state import Seat, State

__all__ = ["Referee", "InputError", "Seat", "State", "parse"]


class Referee:
    """Referee one game from what the table can observe.

    ``apply(event)`` returns that input's announcements; ``snapshot()`` the whole state.
    """

    def __init__(self) -> None:
        self._inputs: list[Input] = []
        self._state = State()

    # --- inputs ------------------------------------------------------------------------------
    def apply(self, event: dict) -> list[dict]:
        """Apply one table input; return its announcements (raise `InputError` if malformed)."""
        inp = parse(event)
        if inp.kind == "undo":
            return self.undo()
        try:
            out = self._step(self._state, inp)
        except Exception:
            self._state = self._rebuild(self._inputs)
            raise
        self._inputs.append(inp)
        return out

    def undo(self) -> list[dict]:
        """Take back the last input (a refused one too): the state is rebuilt without it."""
        if not self._inputs:
            return [{"type": "rejected", "text": "Nothing to undo", "input": "undo"}]
        gone = self._inputs.pop()
        self._state = self._rebuild(self._inputs)
        return [{"type": "undone", "text": f"Undone: {_describe(gone.raw)}", "input": gone.raw}]

    @staticmethod
    def _step(state: State, inp: Input) -> list[dict]:
        state.out = []
        table_inputs.HANDLERS[inp.kind](state, inp)
        state.log.extend(state.out)
        return list(state.out)

    @classmethod
    def _rebuild(cls, inputs: list[Input]) -> State:
        state = State()
        for inp in inputs:
            cls._step(state, inp)
        return state

    # --- reading the state ----------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The state as JSON-able data (see `snapshot.snapshot`)."""
        return _snapshot(self._state)

    @property
    def state(self) -> State:
        return self._state

    @property
    def inputs(self) -> list[dict]:
        """The effective inputs so far (what a replay of this game needs)."""
        return [dict(i.raw) for i in self._inputs]

    def why_illegal(self, card: Card | str) -> str | None:
        """Why the current player may not play ``card`` now, or None if they may."""
        s = self._state
        card = Card.parse(card)
        if s.phase != "turn":
            return "no card can be played now"
        if s.steps:
            st = s.steps[0]
            if st.kind in ("challenge_or_accept", "stack_or_accept"):
                from .legality import can_stack
                return None if can_stack(card, s.pending_cards, s.rules) else "a draw is pending"
            return f"waiting for {st.kind}"
        return mismatch(card, top=s.top, color=s.color)


def _describe(raw: dict) -> str:
    return ", ".join(f"{k} {v}" if v is not True else k for k, v in raw.items())
