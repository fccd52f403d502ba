"""A table's side of a tournament: each set's game starts with the hub's seating, and the table
pauses itself once the set's hands are played, until the hub seats the next set.

The seating comes retained on ``uno/<club>/tables/<table>/seating`` (see `director.Director`).
A new seating is taken between rounds (or before the first card), never in the middle of a hand
but where the table waits for it, paused with the set before played;
the set taken is written beside the event log, so a restarted table does not take it twice.
"""
from __future__ import annotations

import logging

log = logging.getLogger(__name__)

MARK = "club.seating"
SET_DONE = "Set played: waiting for the club's next seating"
BETWEEN = (None, "setup", "start", "between", "over")    # phases where a new game may begin (setup: none yet)


class SeatingFollower:
    """Follows the seatings offered (any thread); ``step()`` acts on them (the publisher's thread)."""

    def __init__(self, table):
        self.table = table
        self.offered: dict | None = None
        self.cleared = False
        self.taken = table.log.mark(MARK) or ""

    def offer(self, seating: dict | None) -> None:
        if seating is None:
            self.offered, self.cleared = None, True
        else:
            self.offered, self.cleared = seating, False

    @staticmethod
    def key(seating: dict) -> str:
        return f"{seating['tournament']}:{seating['set']}"

    def step(self) -> None:
        with self.table.lock:       # no input between what the snapshot says and what is done on it
            self._step()

    def _step(self) -> None:
        snap = self.table.snapshot()
        paused = snap.get("paused") or {}
        s = self.offered
        if self.cleared:
            if paused.get("reason") == SET_DONE:
                self.table.resume(source="club")
            self.cleared = False
            return
        if s is None:
            return
        if self.key(s) != self.taken:
            # between hands, or paused because the set before is played (a hand begun after it
            # counts for nothing: the hub counts a set's first hands)
            if snap.get("phase") in BETWEEN or paused.get("reason") == SET_DONE:
                log.info("club: tournament set %d of %d: %s (partners across)", s["set"], s["sets"], ", ".join(s["seats"]))
                out = self.table.new_game(s["setup"])
                if out and out[0].get("type") == "setup":
                    self.taken = self.key(s)
                    self.table.log.set_mark(MARK, self.taken)
                else:
                    log.warning("club: the set's seating was not taken: %s", out[0].get("text") if out else "?")
            return
        rounds = snap.get("rounds") or []
        if (snap.get("players") == s["seats"] and len(rounds) >= s["hands"] and snap.get("phase") == "between"
                and not paused):
            self.table.pause(SET_DONE, source="club")
