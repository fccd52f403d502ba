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

An input that cannot be written (the SD card is full) is refused, not applied: the log stays the
truth. The table then pauses itself with the reason (``paused["storage"]`` is true; nothing of
this pause is written, there is no room) and refuses every input until `check_storage` (every few
seconds in `companion run`, and the host's resume) finds room again; the game goes on from the
last input written.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable

from .referee import InputError, Referee, parse
from .store import EventLog, StorageError, StorageFull

log = logging.getLogger(__name__)
Listener = Callable[[dict], None]

TABLE_KINDS = ("pause", "resume")        # the table's own inputs; the referee never sees them
PAUSE_REFUSES = ("camera", "button")     # sources refused while paused (the host's still count)
MAX_REASON = 80
STORAGE_FULL = "Storage full: free space on the SD card; the game will go on"


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
        self._fault: dict | None = None      # a storage fault: {"reason", "seq"} (never logged)
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
        """Log then apply one input; return its announcements. Malformed: `InputError`, nothing logged.
        One that cannot be written is refused (and the table pauses for storage), not applied."""
        with self._lock:
            own = parse_table_input(event)
            if own is None:
                parse(event)
            if self._fault is not None:
                if own is not None and own[0] == "resume" and self.check_storage():
                    return [self._storage_back()]
                return [self._refusal(event, source)]
            if own is None and self._paused is not None and source in PAUSE_REFUSES:
                return [self._refusal(event, source)]
            try:
                seq = self._log.append(event, source)
            except StorageError as exc:
                return [self._storage_fault(exc, event, source)]
            self._seq = seq
            out = self._apply_own(*own, seq=seq) if own is not None else self._ref.apply(event)
            self._tell({"seq": seq, "event": event, "source": source, "announcements": out})
            return out

    def _tell(self, update: dict) -> None:
        update["state"] = self._snapshot()
        for fn in list(self._listeners):
            try:
                fn(update)
            except Exception:
                log.exception("table listener %r failed", fn)

    # -- storage faults ------------------------------------------------------------------------------
    def _storage_fault(self, exc: StorageError, event: dict, source: str) -> dict:
        reason = STORAGE_FULL if isinstance(exc, StorageFull) else \
            f"Storage fault ({exc.found}): check the SD card; the game will go on"
        self._fault = {"reason": reason, "seq": self._seq}
        log.error("%s; %r from the %s was not taken; paused until the log can be written", exc, event, source)
        what = _describe(event)
        a = {"type": "storage", "paused": True, "input": next(iter(event), ""),
             "text": f"{reason}. {what} from the {source} was not taken: enter it again when the game goes on."}
        self._tell({"seq": self._seq, "event": {}, "source": "storage", "announcements": [a]})
        return a

    def _storage_back(self) -> dict:
        return {"type": "storage_ok", "text": "The event log can be written again: the game goes on "
                                              "from the last input written."}

    def check_storage(self) -> bool:
        """After a storage fault: is there room again? If so the table goes on (and says so).
        True when nothing is wrong (any more)."""
        with self._lock:
            if self._fault is None:
                return True
            if not self._log.probe():
                return False
            self._fault = None
            log.warning("the event log can be written again: the game goes on")
            self._tell({"seq": self._seq, "event": {}, "source": "storage", "announcements": [self._storage_back()]})
            return True

    @property
    def storage_fault(self) -> dict | None:
        """``{"reason", "seq"}`` while inputs cannot be written, else None."""
        with self._lock:
            return dict(self._fault) if self._fault else None

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
        pause = self._fault or self._paused or {}
        reason = pause.get("reason", "")
        what = _describe(event)
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
        """``{"reason", "seq"}`` while paused (``"storage": True`` too when paused for a storage
        fault), else None."""
        with self._lock:
            return self._pause()

    def _pause(self) -> dict | None:
        if self._fault is not None:
            return {**self._fault, "storage": True}
        return dict(self._paused) if self._paused else None

    def _snapshot(self) -> dict:
        snap = self._ref.snapshot()
        snap["seq"] = self._seq
        snap["paused"] = self._pause()
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
            if self._fault is not None and not self.check_storage():
                return [self._refusal({"setup": True}, "page")]
            if not self._log.probe():        # room for the new game and its setup, or no new game
                return [self._storage_fault(StorageFull(self._log.path, "the disk or the log file is full"),
                                            {"setup": True}, "page")]
            try:
                self._log.new_game()
            except StorageError as exc:
                return [self._storage_fault(exc, {"setup": True}, "page")]
            self._ref = Referee()
            self._paused = None
            return self.submit({"setup": setup}, source="setup")

    @property
    def lock(self) -> threading.RLock:
        """Hold it (``with table.lock:``) to read the snapshot and act on it with no other input in
        between: the club's seating pauses a set's game only if it is still between hands."""
        return self._lock

    @property
    def log(self) -> EventLog:
        """The event log itself (the club publisher reads it as its outbox)."""
        return self._log

    @property
    def referee(self) -> Referee:
        return self._ref

    def close(self) -> None:
        self._log.close()


def _describe(event: dict) -> str:
    return ", ".join(f"{k} {v}" if v is not True else k for k, v in event.items())


__all__ = ["Table", "InputError", "TABLE_KINDS", "parse_table_input"]
