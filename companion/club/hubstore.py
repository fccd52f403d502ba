"""The hub's own SQLite: every table's events as received, each once.

    >>> s = HubStore(None)
    >>> m = {"table": "t1", "log": "ab12ab12", "seq": 1, "prev": 0, "game": 1, "event": {"start": "red 5"},
    ...      "source": "camera", "at": "2026-01-01T20:00:00+00:00"}
    >>> s.add(m), s.add(m), s.count()
    (True, False, 1)
"""
from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS club_events (
    tbl      TEXT    NOT NULL,
    log      TEXT    NOT NULL,
    seq      INTEGER NOT NULL,
    prev     INTEGER NOT NULL,
    game     INTEGER NOT NULL,
    json     TEXT    NOT NULL,
    source   TEXT    NOT NULL,
    at       TEXT    NOT NULL,
    received TEXT    NOT NULL,
    PRIMARY KEY (tbl, log, seq)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id      TEXT PRIMARY KEY,
    json    TEXT NOT NULL,
    updated TEXT NOT NULL
);
"""


class HubStore:
    """Events keyed by (table, log, seq): a duplicate is refused by the key itself."""

    def __init__(self, path: str | Path | None):
        self.path = None if path is None else Path(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:" if path is None else str(path), check_same_thread=False,
                                   isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")   # a lost last event is asked for again, not lost
        self._db.executescript(SCHEMA)

    def add(self, m: dict) -> bool:
        """Keep one event message; False if (table, log, seq) is there already."""
        with self._lock:
            cur = self._db.execute(
                "INSERT OR IGNORE INTO club_events (tbl, log, seq, prev, game, json, source, at, received) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (m["table"], m["log"], m["seq"], m["prev"], m["game"], json.dumps(m["event"], sort_keys=True),
                 m["source"], m["at"], _now()))
            return cur.rowcount == 1

    def events(self) -> list[dict]:
        """Every event kept, by table, log and sequence."""
        with self._lock:
            rows = self._db.execute("SELECT tbl, log, seq, prev, game, json, source, at FROM club_events "
                                    "ORDER BY tbl, log, seq").fetchall()
        return [{"table": r[0], "log": r[1], "seq": r[2], "prev": r[3], "game": r[4], "event": json.loads(r[5]),
                 "source": r[6], "at": r[7]} for r in rows]

    def latest_logs(self) -> dict[str, str]:
        """Each table's log file heard from last."""
        with self._lock:
            rows = self._db.execute("SELECT tbl, log, MAX(received) FROM club_events GROUP BY tbl, log "
                                    "ORDER BY 3").fetchall()
        return {r[0]: r[1] for r in rows}

    def count(self, table: str | None = None) -> int:
        with self._lock:
            if table is None:
                return self._db.execute("SELECT COUNT(*) FROM club_events").fetchone()[0]
            return self._db.execute("SELECT COUNT(*) FROM club_events WHERE tbl = ?", (table,)).fetchone()[0]

    def save_tournament(self, t: dict) -> None:
        with self._lock:
            self._db.execute("INSERT INTO tournaments (id, json, updated) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE "
                             "SET json = excluded.json, updated = excluded.updated",
                             (t["id"], json.dumps(t, separators=(",", ":")), _now()))

    def tournament(self) -> dict | None:
        """The tournament saved last, or None."""
        with self._lock:
            row = self._db.execute("SELECT json FROM tournaments ORDER BY updated DESC LIMIT 1").fetchone()
        return json.loads(row[0]) if row else None

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")
