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

The table also takes two inputs of its own, never seen by the referee: ``{"pause": REASON}``
(or ``true``) and ``{"resume": true}``. They are logged like every other input (a restart stays
paused); while paused the camera and the buttons are refused and only the host changes the game::

    >>> [a["type"] for a in t.pause("a phone call")]
    ['paused']
    >>> t.submit({"play": "green 7"}, source="button")[0]["type"], t.snapshot()["paused"]["reason"]
    ('rejected', 'a phone call')
    >>> [a["type"] for a in t.resume()], t.snapshot()["paused"]
    (['resumed'], None)
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

TABLE_KINDS = ("pause", "resume")        # the table's own inputs; the referee never sees them
PAUSE_REFUSES = ("camera", "button")     # sources refused while paused (the host's still count)
MAX_REASON = 80


def parse_table_input(event: object) -> tuple[str, str] | None:
    """``("pause", reason)`` or ``("resume", "")`` for the table's own inputs, None for a
    referee input; `InputError` for a malformed pause or resume."""
    if not isinstance(event, dict) or not any(k in event for k in TABLE_KINDS):
        return None
    kind = next(k for k in TABLE_KINDS if k in event)
    if len(event) != 1:
        raise InputError(f"{kind}: unexpected key {sorted(set(event) - {kind})[0]!r}")
    v = event[kind]
    if v is True:
        return kind, ""
    if kind == "pause" and isinstance(v, str) and 0 < len(v.strip()) <= MAX_REASON and v.isprintable():
        return kind, " ".join(v.split())
    if kind == "pause":
        raise InputError(f"pause: expected true or a reason of 1 to {MAX_REASON} characters, got {v!r}")
    raise InputError(f"resume: expected true, got {v!r}")


class Table:
    """A game kept in ``db_path`` (``None``: in memory). An existing log is replayed on start."""

    def __init__(self, db_path: str | Path | None, *, setup: dict | None = None) -> None:
        self._lock = threading.RLock()
        self._log = EventLog(db_path)
        self._listeners: list[Listener] = []
        self._ref = Referee()
        self._seq = 0
        self._paused: dict | None = None
        self._replay()
        if self._seq == 0 and setup is not None:
            self.submit({"setup": setup}, source="setup")

    def _replay(self) -> None:
        self._ref = Referee()
        self._seq = 0
        self._paused = None
        for entry in self._log.events():
            try:
                own = parse_table_input(entry["event"])
                if own is not None:
                    self._apply_own(*own, seq=entry["seq"])
                else:
                    self._ref.apply(entry["event"])
            except Exception:       # a log written by an older version: keep going, say so
                log.exception("event %s could not be replayed: %r", entry["seq"], entry["event"])
            self._seq = entry["seq"]

    def submit(self, event: dict, *, source: str = "api") -> list[dict]:
        """Log then apply one input; return its announcements. Malformed: `InputError`, nothing logged."""
        with self._lock:
            own = parse_table_input(event)
            if own is None:
                parse(event)
                if self._paused is not None and source in PAUSE_REFUSES:
                    return [self._refusal(event, source)]
            seq = self._log.append(event, source)
            self._seq = seq
            out = self._apply_own(*own, seq=seq) if own is not None else self._ref.apply(event)
            update = {"seq": seq, "event": event, "source": source, "announcements": out,
                      "state": self._snapshot()}
            for fn in list(self._listeners):
                try:
                    fn(update)
                except Exception:
                    log.exception("table listener %r failed", fn)
            return out

    def _apply_own(self, kind: str, reason: str, *, seq: int) -> list[dict]:
        if kind == "pause":
            if self._paused is not None:
                return [{"type": "rejected", "text": "The game is paused already", "input": "pause"}]
            self._paused = {"reason": reason, "seq": seq}
            return [{"type": "paused", "reason": reason,
                     "text": f"Game paused{': ' + reason if reason else ''}. Camera and buttons are ignored "
                             "until the host resumes."}]
        if self._paused is None:
            return [{"type": "rejected", "text": "The game is not paused", "input": "resume"}]
        self._paused = None
        return [{"type": "resumed", "text": "Game resumed: camera and buttons count again."}]

    def _refusal(self, event: dict, source: str) -> dict:
        reason = self._paused.get("reason") if self._paused else ""
        what = ", ".join(f"{k} {v}" if v is not True else k for k, v in event.items())
        log.info("paused: %s input %r refused", source, event)
        return {"type": "rejected", "paused": True, "input": next(iter(event), ""),
                "text": f"Paused{' (' + reason + ')' if reason else ''}: {what} from the {source} "
                        "was not taken. The host resumes the game (and enters it if it counts)."}

    def pause(self, reason: str = "", *, source: str = "page") -> list[dict]:
        """Pause the game: camera and button inputs are refused until `resume`."""
        return self.submit({"pause": reason or True}, source=source)

    def resume(self, *, source: str = "page") -> list[dict]:
        """End a pause."""
        return self.submit({"resume": True}, source=source)

    @property
    def paused(self) -> dict | None:
        """``{"reason", "seq"}`` while paused, else None."""
        with self._lock:
            return dict(self._paused) if self._paused else None

    def _snapshot(self) -> dict:
        snap = self._ref.snapshot()
        snap["seq"] = self._seq
        snap["paused"] = dict(self._paused) if self._paused else None
        return snap

    def snapshot(self) -> dict:
        """The referee's snapshot plus ``seq`` (the last input logged) and ``paused``."""
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
            self._paused = None
            return self.submit({"setup": setup}, source="setup")

    @property
    def referee(self) -> Referee:
        return self._ref

    def close(self) -> None:
        self._log.close()


__all__ = ["Table", "InputError", "TABLE_KINDS", "parse_table_input"]
