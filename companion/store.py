"""The event log: every table input, appended to SQLite (WAL) before it takes effect.

The state of a game is a replay of its log, so a restart (or a ``kill -9``) resumes the very same
game. Nothing is ever updated or deleted; a new game starts a new ``game`` number and the old
games stay in the file::

    >>> log = EventLog(None)            # in memory, for tests
    >>> log.append({"start": "red 7"}, "camera")
    1
    >>> [e["event"] for e in log.events()]
    [{'start': 'red 7'}]

Storage faults are named, never a bare `sqlite3` traceback: a file that is not our log, or is
damaged, raises `LogDamaged` at open; a folder or file that cannot be written, `LogUnwritable`;
a write that finds the disk (or the file's page limit) full, `StorageFull`, and nothing of that
input is written. `probe()` says whether a write would fit again.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

STORAGE_EXIT = 74        # `companion run`'s exit status when the log cannot be used (sysexits EX_IOERR)
PROBE_BYTES = 64 * 1024  # room a write must find before a paused table goes on
COLUMNS = {"events": ["seq", "game", "json", "source", "at"], "games": ["game", "at"]}

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


class StorageError(Exception):
    """The event log cannot be used: ``path``, what was found, and what to do (``hint``)."""

    what = "storage fault"

    def __init__(self, path: Path | str | None, found: str, hint: str = "") -> None:
        self.path, self.found, self.hint = path, found, hint
        where = f" {path}" if path is not None else ""
        super().__init__(f"{self.what}{where}: {found}" + (f". {hint}" if hint else ""))


class LogDamaged(StorageError):
    what = "the event log"

    def __init__(self, path, found: str) -> None:
        super().__init__(path, found, f"Start with another file (--db), or recover what can be read: "
                                      f"companion repair --db {path}")


class LogForeign(LogDamaged):
    def __init__(self, path, found: str) -> None:
        StorageError.__init__(self, path, found, "Start with another file (--db): this one is not an event log")


class LogUnwritable(StorageError):
    what = "cannot write the event log"

    def __init__(self, path, found: str) -> None:
        super().__init__(path, found, f"The folder must exist (or be creatable) and be writable by user "
                                      f"{_user()}; under systemd that is the unit's StateDirectory "
                                      "(/var/lib/companion)")


class StorageFull(StorageError):
    what = "storage full"

    def __init__(self, path, found: str) -> None:
        super().__init__(path, found, "Free space on the SD card; the game goes on from the last input written")


class EventLog:
    """Append-only log of table inputs in a SQLite file (``None``: in memory)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        if self.path is not None:
            _check_writable(self.path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(":memory:" if path is None else str(path), check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")   # a power cut on the Pi loses nothing committed
            self._check_schema()
            self._db.executescript(SCHEMA)
            row = self._db.execute("SELECT MAX(game) FROM games").fetchone()
            self.game = row[0] if row[0] is not None else self._new_game_row()
        except (sqlite3.Error, StorageError) as exc:
            if hasattr(self, "_db"):
                self._db.close()
            raise _named(exc, self.path) from None

    def _check_schema(self) -> None:
        """A damaged file, or a database of something else, is refused before anything is written."""
        check = self._db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise LogDamaged(self.path, f"the file is damaged (SQLite's check: {check})")
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        tables.discard("sqlite_sequence")
        ours = tables & set(COLUMNS)
        if tables and not ours:
            raise LogForeign(self.path, f"a SQLite database of something else (tables: {', '.join(sorted(tables))})")
        for name in ours:
            cols = [r[1] for r in self._db.execute(f"PRAGMA table_info({name})")]
            if cols != COLUMNS[name]:
                raise LogDamaged(self.path, f"its {name} table is not an event log's ({', '.join(cols)})")

    def _new_game_row(self) -> int:
        cur = self._db.execute("INSERT INTO games (at) VALUES (?)", (_now(),))
        return int(cur.lastrowid)

    def append(self, event: dict, source: str = "api") -> int:
        """Write one input (committed when this returns); return its sequence number.
        `StorageFull` (or another `StorageError`) when it could not be written: nothing was."""
        text = json.dumps(event, sort_keys=True, separators=(",", ":"))
        with self._lock:
            try:
                cur = self._db.execute("INSERT INTO events (game, json, source, at) VALUES (?, ?, ?, ?)",
                                       (self.game, text, source, _now()))
            except sqlite3.Error as exc:
                raise _named(exc, self.path) from None
            return int(cur.lastrowid)

    def probe(self) -> bool:
        """Would a write fit again? Writes (and frees) `PROBE_BYTES` in one committed transaction;
        the pages it leaves free are what the next inputs use."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.execute("CREATE TABLE IF NOT EXISTS probe (pad BLOB)")
                    self._db.execute("INSERT INTO probe VALUES (zeroblob(?))", (PROBE_BYTES,))
                    self._db.execute("DELETE FROM probe")
                    self._db.execute("COMMIT")
                except sqlite3.Error:
                    self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error:
                return False
            return True

    def restore(self, rows: list[tuple], games: dict[int, str]) -> None:
        """Write recovered ``(seq, game, json, source, at)`` rows and ``{game: at}`` as they were
        (`companion repair`), in one transaction; the current game is the last one."""
        with self._lock:
            try:
                self._db.execute("BEGIN")
                self._db.execute("DELETE FROM games")
                for g in sorted({r[1] for r in rows} | set(games)):
                    at = games.get(g) or min(r[4] for r in rows if r[1] == g)
                    self._db.execute("INSERT INTO games (game, at) VALUES (?, ?)", (g, at))
                self._db.executemany("INSERT INTO events (seq, game, json, source, at) VALUES (?, ?, ?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._db.execute("ROLLBACK")
                raise _named(exc, self.path) from None
            row = self._db.execute("SELECT MAX(game) FROM games").fetchone()
            self.game = row[0] if row[0] is not None else self._new_game_row()

    def events(self, game: int | None = None) -> list[dict]:
        """The inputs of ``game`` (default: the current one), oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT seq, json, source, at, game FROM events WHERE game = ? ORDER BY seq",
                                    (self.game if game is None else game,)).fetchall()
        return [{"seq": r[0], "event": json.loads(r[1]), "source": r[2], "at": r[3], "game": r[4]} for r in rows]

    def since(self, seq: int, limit: int = 100) -> list[dict]:
        """Up to ``limit`` inputs after ``seq``, of every game, oldest first; each with ``prev``,
        the input before it in the file (0 for the first), so a reader can tell a gap."""
        with self._lock:
            rows = self._db.execute("SELECT seq, json, source, at, game FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                                    (seq, limit)).fetchall()
            before = self._db.execute("SELECT MAX(seq) FROM events WHERE seq <= ?", (seq,)).fetchone()[0] if rows else 0
        out, prev = [], int(before or 0)
        for r in rows:
            out.append({"seq": r[0], "event": json.loads(r[1]), "source": r[2], "at": r[3], "game": r[4], "prev": prev})
            prev = r[0]
        return out

    def mark(self, key: str) -> str | None:
        """A value kept beside the log (the club outbox's last acknowledged input), or None."""
        with self._lock:
            try:
                row = self._db.execute("SELECT value FROM marks WHERE key = ?", (key,)).fetchone()
            except sqlite3.OperationalError:        # no marks yet
                return None
        return row[0] if row else None

    def set_mark(self, key: str, value: str) -> None:
        with self._lock:
            try:
                self._db.execute("CREATE TABLE IF NOT EXISTS marks (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                self._db.execute("INSERT INTO marks (key, value) VALUES (?, ?) "
                                 "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))
            except sqlite3.Error as exc:
                raise _named(exc, self.path) from None

    def last_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT MAX(seq) FROM events").fetchone()
        return int(row[0] or 0)

    def new_game(self) -> int:
        """Start a new game number; earlier games stay in the file."""
        with self._lock:
            try:
                self.game = self._new_game_row()
            except sqlite3.Error as exc:
                raise _named(exc, self.path) from None
            return self.game

    def games(self) -> list[int]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT game FROM games ORDER BY game")]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _named(exc: Exception, path: Path | None) -> StorageError:
    """The `StorageError` a SQLite error means, by its result code."""
    if isinstance(exc, StorageError):
        return exc
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code == sqlite3.SQLITE_FULL:
        return StorageFull(path, "the disk or the log file is full")
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM):
        return LogUnwritable(path, str(exc))
    if code in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT):
        return LogDamaged(path, "not a SQLite database (damaged, or some other file)" if code == sqlite3.SQLITE_NOTADB
                          else f"the file is damaged ({exc})")
    return StorageError(path, f"{exc} (SQLite code {code})", "Check the SD card")


def _check_writable(path: Path) -> None:
    """The log's folder exists or can be made, and it (and the file, if there) can be written:
    SQLite needs the folder for its write-ahead log."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LogUnwritable(path, f"its folder {folder} cannot be created ({exc.strerror})") from None
    if not folder.is_dir():
        raise LogUnwritable(path, f"{folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise LogUnwritable(path, f"its folder {folder} is read-only")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise LogUnwritable(path, "the file is read-only")


def _user() -> str:
    try:
        import pwd
        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return str(os.getuid()) if hasattr(os, "getuid") else "this user"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
