"""The event log: every table input, appended to SQLite (WAL) before it takes effect.

The state of a game is a replay of its log, so a restart (or a ``kill -9``) resumes the very same
game. Nothing is ever updated or deleted; a new game starts a new ``game`` number and the old
games stay in the file::

    >>> log = EventLog(None)            # in memory, for tests
    >>> log.append({"start": "red 7"}, "camera")
    1
    >>> [e["event"] for e in log.events()]
    [{'start': 'red 7'}]
"""
from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq    INTEGER PRIMARY KEY AUTOINCREMENT,
    game   INTEGER NOT NULL,
    json   TEXT    NOT NULL,
    source TEXT    NOT NULL,
    at     TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    game   INTEGER PRIMARY KEY,
    at     TEXT    NOT NULL
);
"""


class EventLog:
    """Append-only log of table inputs in a SQLite file (``None``: in memory)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:" if path is None else str(path), check_same_thread=False,
                                   isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")   # a power cut on the Pi loses nothing committed
        self._db.executescript(SCHEMA)
        row = self._db.execute("SELECT MAX(game) FROM games").fetchone()
        self.game = row[0] if row[0] is not None else self._new_game_row()

    def _new_game_row(self) -> int:
        cur = self._db.execute("INSERT INTO games (at) VALUES (?)", (_now(),))
        return int(cur.lastrowid)

    def append(self, event: dict, source: str = "api") -> int:
        """Write one input (committed when this returns); return its sequence number."""
        text = json.dumps(event, sort_keys=True, separators=(",", ":"))
        with self._lock:
            cur = self._db.execute("INSERT INTO events (game, json, source, at) VALUES (?, ?, ?, ?)",
                                   (self.game, text, source, _now()))
            return int(cur.lastrowid)

    def events(self, game: int | None = None) -> list[dict]:
        """The inputs of ``game`` (default: the current one), oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT seq, json, source, at, game FROM events WHERE game = ? ORDER BY seq",
                                    (self.game if game is None else game,)).fetchall()
        return [{"seq": r[0], "event": json.loads(r[1]), "source": r[2], "at": r[3], "game": r[4]} for r in rows]

    def last_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT MAX(seq) FROM events").fetchone()
        return int(row[0] or 0)

    def new_game(self) -> int:
        """Start a new game number; earlier games stay in the file."""
        with self._lock:
            self.game = self._new_game_row()
            return self.game

    def games(self) -> list[int]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT game FROM games ORDER BY game")]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
