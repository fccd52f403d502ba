"""The table: the one hub the camera loop, the GPIO thread and the web page all talk to.

It validates an input, writes it to the event log, then lets the referee apply it, all under one
lock; listeners hear about every accepted input::

    >>> t = Table(None, setup={"players": ["Ann", "Ben"], "dealer": "Ben"})
    >>> updates = []
    >>> stop = t.subscribe(updates.append)
    >>> [a["type"] for a in t.submit({"start": "green 5"}, source="camera")]
    ['start', 'turn']
    >>> updates[-1]["seq"], t.snapshot()["current"]
    (2, 'Ann')
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable

from .referee import InputError, Referee, parse
from .store import EventLog

log = logging.getLogger(__name__)
Listener = Callable[[dict], None]


class Table:
    """A game kept in ``db_path`` (``None``: in memory). An existing log is replayed on start."""

    def __init__(self, db_path: str | Path | None, *, setup: dict | None = None) -> None:
        self._lock = threading.RLock()
        self._log = EventLog(db_path)
        self._listeners: list[Listener] = []
        self._ref = Referee()
        self._seq = 0
        self._replay()
        if self._seq == 0 and setup is not None:
            self.submit({"setup": setup}, source="setup")

    def _replay(self) -> None:
        self._ref = Referee()
        self._seq = 0
        for entry in self._log.events():
            try:
                self._ref.apply(entry["event"])
            except Exception:       # a log written by an older version: keep going, say so
                log.exception("event %s could not be replayed: %r", entry["seq"], entry["event"])
            self._seq = entry["seq"]

    def submit(self, event: dict, *, source: str = "api") -> list[dict]:
        """Log then apply one input; return its announcements. Malformed: `InputError`, nothing logged."""
        with self._lock:
            parse(event)
            seq = self._log.append(event, source)
            self._seq = seq
            out = self._ref.apply(event)
            update = {"seq": seq, "event": event, "source": source, "announcements": out,
                      "state": self._snapshot()}
            for fn in list(self._listeners):
                try:
                    fn(update)
                except Exception:
                    log.exception("table listener %r failed", fn)
            return out

    def _snapshot(self) -> dict:
        snap = self._ref.snapshot()
        snap["seq"] = self._seq
        return snap

    def snapshot(self) -> dict:
        """The referee's snapshot plus ``seq``, the last input logged."""
        with self._lock:
            return self._snapshot()

    def subscribe(self, fn: Listener) -> Callable[[], None]:
        """Call ``fn(update)`` after every accepted input; returns a function that unsubscribes."""
        with self._lock:
            self._listeners.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._listeners:
                    self._listeners.remove(fn)
        return unsubscribe

    def history(self) -> list[dict]:
        """The log entries of this game: ``{"seq", "event", "source", "at", "game"}``."""
        with self._lock:
            return self._log.events()

    def new_game(self, setup: dict) -> list[dict]:
        """Start a fresh game (the old one stays in the log file under its own game number)."""
        with self._lock:
            parse({"setup": setup})
            self._log.new_game()
            self._ref = Referee()
            return self.submit({"setup": setup}, source="setup")

    @property
    def referee(self) -> Referee:
        return self._ref

    def close(self) -> None:
        self._log.close()


__all__ = ["Table", "InputError"]
