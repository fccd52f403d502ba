"""The event log and the table hub: inputs logged before they act, restarts resume, kill -9 loses nothing."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from companion.referee import InputError, Referee
from companion.store import EventLog
from companion.table import Table

SETUP = {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"}
MOVES = [{"start": "red 7"}, {"play": "red 3"}, {"play": "red skip"}, {"play": "blue 3"},
         {"draw": 1}, {"pass": True}, {"play": "red 5"}, {"play": "wild", "color": "green"}]


def test_log_is_wal_and_append_only(tmp_path):
    db = tmp_path / "g.sqlite"
    log = EventLog(db)
    assert log.append({"start": "red 7"}, "camera") == 1
    assert log.append({"play": "red 3"}, "camera") == 2
    mode = sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    other = sqlite3.connect(db)   # committed: another connection sees it at once
    assert other.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
    assert [e["event"] for e in log.events()] == [{"start": "red 7"}, {"play": "red 3"}]
    assert log.events()[0]["source"] == "camera"


def test_table_logs_before_applying_and_restart_resumes(tmp_path):
    db = tmp_path / "g.sqlite"
    t = Table(db, setup=SETUP)
    for m in MOVES:
        t.submit(m, source="test")
    before = t.snapshot()
    t.close()
    t2 = Table(db, setup={"players": ["X", "Y"]})    # the log wins over a setup
    assert t2.snapshot() == before
    assert [h["event"] for h in t2.history()] == [{"setup": SETUP}] + MOVES


def test_malformed_is_not_logged_and_illegal_is(tmp_path):
    t = Table(None, setup=SETUP)
    t.submit({"start": "red 7"})
    n = len(t.history())
    with pytest.raises(InputError):
        t.submit({"play": "red 77"})
    assert len(t.history()) == n
    out = t.submit({"play": "blue 2"})
    assert out[0]["type"] == "illegal_play" and len(t.history()) == n + 1


def test_undo_survives_restart(tmp_path):
    db = tmp_path / "g.sqlite"
    t = Table(db, setup=SETUP)
    for m in MOVES[:4]:
        t.submit(m)
    mid = t.snapshot()
    t.submit(MOVES[4])
    t.submit({"undo": True})
    assert {k: v for k, v in t.snapshot().items() if k != "seq"} == {k: v for k, v in mid.items() if k != "seq"}
    t.close()
    assert {k: v for k, v in Table(db).snapshot().items() if k != "seq"} == {k: v for k, v in mid.items() if k != "seq"}


def test_listeners_hear_every_accepted_input_and_cannot_break_the_table():
    t = Table(None, setup=SETUP)
    seen = []

    def bad(update):
        raise RuntimeError("listener bug")
    t.subscribe(bad)
    stop = t.subscribe(seen.append)
    t.submit({"start": "red 7"}, source="camera")
    assert seen[-1]["seq"] == 2 and seen[-1]["source"] == "camera"
    assert seen[-1]["state"]["current"] == "Ann" and seen[-1]["announcements"][0]["type"] == "start"
    stop()
    t.submit({"play": "red 1"})
    assert len(seen) == 1


def test_new_game_keeps_the_old_log(tmp_path):
    db = tmp_path / "g.sqlite"
    t = Table(db, setup=SETUP)
    t.submit({"start": "red 7"})
    t.new_game({"players": ["Dan", "Eve"], "dealer": "Eve"})
    assert t.snapshot()["players"] == ["Dan", "Eve"]
    n_old = sqlite3.connect(db).execute("SELECT COUNT(*) FROM events WHERE game = 1").fetchone()[0]
    assert n_old == 2
    t.close()
    assert Table(db).snapshot()["players"] == ["Dan", "Eve"]


def test_concurrent_submits_are_serialised():
    t = Table(None, setup={"players": ["Ann", "Ben"], "dealer": "Ben"})
    t.submit({"start": "red 7"})
    errors = []

    def worker():
        try:
            for _ in range(20):
                t.submit({"uno": True})     # refused every time, but logged and ordered
        except Exception as exc:   # pragma: no cover
            errors.append(exc)
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    seqs = [h["seq"] for h in t.history()]
    assert seqs == sorted(seqs) and len(seqs) == 2 + 80


CHILD = textwrap.dedent("""
    import json, sys, time
    from companion.table import Table
    t = Table(sys.argv[1], setup={"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"})
    moves = json.loads(sys.argv[2])
    for m in moves:
        t.submit(m, source="child")
        print(t.snapshot()["seq"], flush=True)
    time.sleep(60)
""")


def test_kill_9_mid_game_loses_nothing(tmp_path):
    db = tmp_path / "g.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(db), json.dumps(MOVES)],
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines = [proc.stdout.readline() for _ in MOVES]
    assert lines[-1].strip() == str(len(MOVES) + 1)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    resumed = Table(db)
    ref = Referee()
    for e in [{"setup": SETUP}] + MOVES:
        ref.apply(e)
    snap = resumed.snapshot()
    assert snap["seq"] == len(MOVES) + 1
    assert {k: v for k, v in snap.items() if k not in ("seq", "paused")} == ref.snapshot()
    resumed.submit({"play": "green 1"})           # and the game goes on
    assert resumed.snapshot()["hand_counts"]["Ben"] == ref.snapshot()["hand_counts"]["Ben"] - 1
