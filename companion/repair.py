"""`companion repair --db FILE`: recover a damaged event log into a fresh one.

The damaged file is kept untouched beside it (``FILE.damaged-<time>``, with its ``-wal`` if any).
Every event row that can still be read is recovered, page by page (`salvage`: SQLite's own
reading stops at the first broken page; the ``.recover`` command of Debian 12's ``sqlite3`` tool
is built without the page reader it needs). The log is a game's inputs in order
(sequence numbers 1, 2, 3, ... across its games), so only the unbroken run from the first event
is written to the fresh log: an input after a gap would be applied to a state it was never meant
for. The fresh log is then replayed through the referee, as the table will on start, and the
command reports how many events it recovered, where the replay stopped and why.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .salvage import salvage
from .store import EventLog, StorageError

Row = tuple  # (seq, game, json, source, at)


@dataclass
class Repair:
    """What `repair` did: the file kept, the rows found and kept, where and why it stopped."""

    damaged: Path
    found: int = 0                      # event rows read from the damaged file
    kept: int = 0                       # the unbroken run written to the fresh log
    stopped: str | None = None          # why the events after the run were not kept
    game: int | None = None             # the game the table resumes
    snapshot: dict = field(default_factory=dict)

    def lines(self, db: Path) -> list[str]:
        out = [f"kept the damaged file untouched as {self.damaged}",
               f"read {self.found} event rows from its pages",
               f"wrote the {self.kept} events that follow one another from the first to a fresh {db}"]
        if self.stopped:
            out.append(f"stopped: {self.stopped}")
        snap = self.snapshot
        if self.kept and snap:
            where = (f"{snap['current']} to play" if snap.get("current")
                     else (snap.get("awaiting") or {}).get("prompt") or snap.get("phase"))
            out.append(f"the table resumes game {self.game}: round {snap.get('round')}, {where}")
        else:
            out.append("nothing to resume: the table starts a new game")
        return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", required=True, metavar="FILE", help="the damaged event log")
    parser.add_argument("--force", action="store_true", help="rebuild the log even if it opens without a fault")


def main(args: argparse.Namespace) -> int:
    db = Path(args.db)
    if not db.is_file():
        print(f"companion repair: {db} does not exist (or is not a file)", file=sys.stderr)
        return 2
    if not args.force:
        try:
            EventLog(db).close()
        except StorageError:
            pass
        else:
            print(f"{db} opens as a sound event log: nothing to repair (--force rebuilds it anyway)")
            return 0
    try:
        result = repair(db)
    except (OSError, StorageError) as exc:
        print(f"companion repair: {exc}", file=sys.stderr)
        return 1
    for line in result.lines(db):
        print(line)
    return 0


def repair(db: Path) -> Repair:
    """Move ``db`` aside, recover its events into a fresh ``db``, replay them; say what happened."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    damaged = db.with_name(f"{db.name}.damaged-{stamp}")
    db.rename(damaged)
    for suffix in ("-wal", "-shm"):
        side = db.with_name(db.name + suffix)
        if side.exists():
            side.rename(damaged.with_name(damaged.name + suffix))
    result = Repair(damaged)
    rows, games = salvage(damaged)
    result.found = len(rows)
    run, result.stopped = _unbroken(rows)
    run, bad = _replayable(run)
    if bad:
        result.stopped = bad
    result.kept = len(run)
    fresh = EventLog(db)
    try:
        fresh.restore(run, {g: at for g, at in games.items() if any(r[1] == g for r in run)})
    finally:
        fresh.close()
    from .table import Table
    table = Table(db)
    try:
        result.snapshot, result.game = table.snapshot(), (run[-1][1] if run else None)
    finally:
        table.close()
    return result


def _unbroken(rows: list[Row]) -> tuple[list[Row], str | None]:
    """The rows numbered 1, 2, 3, ... without a gap, and why the rest are left out."""
    by_seq = {}
    for r in rows:
        if isinstance(r[0], int) and r[0] not in by_seq:
            by_seq[r[0]] = r
    run, seq = [], 1
    while seq in by_seq:
        run.append(by_seq[seq])
        seq += 1
    later = [s for s in by_seq if s > seq]
    if not by_seq:
        return [], "no event could be read"
    if later:
        return run, (f"event {seq} could not be read; the {len(later)} events read after it (up to {max(later)}) "
                     f"are left in the damaged file")
    return run, None


def _replayable(run: list[Row]) -> tuple[list[Row], str | None]:
    """The run up to the first row that is not a well-formed input the table can apply."""
    from .referee import Referee
    from .table import parse_table_input
    refs: dict = {}
    for i, (seq, game, text, source, at) in enumerate(run):
        try:
            event = json.loads(text)
            if not isinstance(event, dict) or not isinstance(source, str) or not isinstance(at, str):
                raise ValueError("not an input")
            if parse_table_input(event) is None:
                refs.setdefault(game, Referee()).apply(event)
        except Exception as exc:        # a damaged row: what follows it cannot be trusted either
            return run[:i], f"event {seq} could not be replayed ({exc}); it and the {len(run) - i - 1} after it are left out"
    return run, None
