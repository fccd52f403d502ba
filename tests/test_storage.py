"""Storage faults made for real: a log that fills up mid-game (SQLite's max_page_count), damaged
and foreign files, a read-only folder; and `companion repair` on a log cut short."""
from __future__ import annotations

import argparse
import os
import queue
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.panel import Buzzer
from companion.repair import main as repair_main
from companion.run import Companion
from companion.store import STORAGE_EXIT, LogDamaged, LogForeign, StorageError
from companion.table import STORAGE_FULL, Table

ROOT = Path(__file__).resolve().parents[1]
SETUP = {"players": ["Ann", "Ben"], "dealer": "Ben"}


def _fill(table: Table) -> None:
    """From now on the log file cannot grow: the next writes find it full."""
    db = table._log._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")


def _room(table: Table) -> None:
    table._log._db.execute("PRAGMA max_page_count = 1073741823")


def _turns(table: Table):
    """Inputs the referee always takes: the player to move draws, then passes."""
    while True:
        yield {"draw": 1}
        yield {"pass": True}


def _until_full(table: Table, moves) -> tuple[dict, list[dict]]:
    for _ in range(10_000):
        before = table.snapshot()
        out = table.submit(next(moves), source="button")
        if out[0]["type"] == "storage":
            return before, out
    raise AssertionError("the log never filled up")


def test_a_full_log_refuses_the_input_pauses_and_goes_on_when_there_is_room(tmp_path):
    table = Table(tmp_path / "game.db", setup=SETUP)
    heard = []
    table.subscribe(heard.append)
    table.submit({"start": "green 5"}, source="camera")
    moves = _turns(table)
    _fill(table)
    before, out = _until_full(table, moves)
    written = table.history()
    # refused, not applied: the state and the log are what they were before it
    assert STORAGE_FULL in out[0]["text"] and "was not taken" in out[0]["text"]
    after = table.snapshot()
    assert {k: v for k, v in after.items() if k != "paused"} == {k: v for k, v in before.items() if k != "paused"}
    assert after["paused"] == {"reason": STORAGE_FULL, "seq": before["seq"], "storage": True}
    assert heard[-1]["source"] == "storage" and heard[-1]["state"]["paused"]["storage"] is True
    # every input is refused with that message while the log cannot be written, the host's too
    for source, event in (("camera", {"play": "green 7"}), ("page", {"draw": 1}), ("page", {"pause": True})):
        refused = table.submit(event, source=source)
        assert refused[0]["type"] == "rejected" and STORAGE_FULL in refused[0]["text"]
    assert table.check_storage() is False and table.resume()[0]["type"] == "rejected"
    assert table.history() == written and table.snapshot()["seq"] == before["seq"]
    # room again: the check finds it, the table says so and the game goes on from the last input
    _room(table)
    assert table.check_storage() is True
    assert heard[-1]["announcements"][0]["type"] == "storage_ok" and table.paused is None
    assert table.submit(next(moves), source="button")[0]["type"] != "storage"
    live = table.snapshot()
    table.close()
    again = Table(tmp_path / "game.db")                 # nothing written before the fault is lost
    try:
        assert again.snapshot() == live
    finally:
        again.close()


def test_the_hosts_resume_looks_for_room_and_a_new_game_needs_room(tmp_path):
    table = Table(tmp_path / "game.db", setup=SETUP)
    table.submit({"start": "red 3"}, source="camera")
    _fill(table)
    _until_full(table, _turns(table))
    assert table.new_game(SETUP)[0]["type"] == "rejected"       # no room: the game in play stays
    assert table.snapshot()["top"] == "red 3"
    _room(table)
    assert [a["type"] for a in table.resume()] == ["storage_ok"]
    assert table.snapshot()["paused"] is None
    table.close()


def test_the_referee_thread_buzzes_and_looks_for_room_every_few_seconds(tmp_path):
    factory = MockFactory(pin_class=MockPWMPin)
    buzzer = Buzzer(18, pin_factory=factory, background=False, sleep=lambda s: None)
    table = Table(tmp_path / "game.db", setup=SETUP)
    now = [0.0]
    comp = Companion(table, queue.Queue(), buzzer=buzzer, clock=lambda: now[0])
    comp.submit({"start": "blue 1"}, source="camera")
    _fill(table)
    moves = _turns(table)
    while comp.submit(next(moves), source="button")[0]["type"] != "storage":
        pass
    assert buzzer.played[-1] == "storage"
    _room(table)
    import threading
    th = threading.Thread(target=comp.run)
    th.start()
    try:
        now[0] = 10.0                       # the next turn of the loop is 5 s later or more
        for _ in range(50):
            if table.storage_fault is None:
                break
            threading.Event().wait(0.1)
        assert table.storage_fault is None
    finally:
        comp.stop()
        th.join(5)
        buzzer.close()
        factory.reset()
        table.close()


def _damaged(tmp_path: Path) -> dict[str, Path]:
    files = {}
    files["random"] = tmp_path / "random.db"
    files["random"].write_bytes(random.Random(1).randbytes(20_000))
    real = tmp_path / "real.db"
    t = Table(real, setup=SETUP)
    t.submit({"start": "red 3"})
    for e in [{"draw": 1}, {"pass": True}] * 200:
        t.submit(e)
    t.close()
    files["truncated"] = tmp_path / "truncated.db"
    data = real.read_bytes()
    files["truncated"].write_bytes(data[:len(data) * 2 // 3])
    files["foreign"] = tmp_path / "photos.db"
    c = sqlite3.connect(files["foreign"])
    c.execute("CREATE TABLE photos (name TEXT)")
    c.commit()
    c.close()
    return files


def test_a_damaged_or_foreign_log_is_named_with_what_to_do(tmp_path):
    files = _damaged(tmp_path)
    for kind, path in files.items():
        with pytest.raises(LogDamaged) as err:
            Table(path)
        text = str(err.value)
        assert str(path) in text and "--db" in text, text
        if kind == "foreign":
            assert isinstance(err.value, LogForeign) and "photos" in text
        else:
            assert f"companion repair --db {path}" in text


@pytest.mark.parametrize("command", ["serve", "run", "demo"])
def test_the_commands_stop_with_one_line_and_the_storage_status(tmp_path, command):
    bad = _damaged(tmp_path)["random"]
    config = tmp_path / "table.toml"
    config.write_text("[table]\nplayers = ['Ann', 'Ben']\n")
    argv = {"serve": ["serve", "--db", str(bad), "--port", "0", "--no-qr"],
            "run": ["run", "--config", str(config), "--db", str(bad), "--no-camera", "--no-web", "--run-for", "1"],
            "demo": ["demo", "--db", str(bad), "--oracle", "--no-web", "--fast"]}[command]
    done = subprocess.run([sys.executable, "-m", "companion.cli", *argv], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert done.returncode == STORAGE_EXIT, done.stderr
    assert "Traceback" not in done.stderr and str(bad) in done.stderr and "companion repair" in done.stderr


def test_the_service_does_not_restart_into_the_same_wall():
    unit = (ROOT / "systemd" / "companion.service").read_text()
    assert f"RestartPreventExitStatus={STORAGE_EXIT}" in unit.split()


def _open_as(user: str | None, path: Path) -> str:
    """Open a table at ``path`` in a child process, as ``user`` (None: as this user); what it raised."""
    import pwd
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                        # the child: drop to the user, try, report, leave
        try:
            os.close(read)
            if user is not None:
                entry = pwd.getpwnam(user)
                os.setgid(entry.pw_gid)
                os.setuid(entry.pw_uid)
            try:
                Table(path).close()
                text = "opened"
            except StorageError as exc:
                text = f"{type(exc).__name__} {exc}"
            os.write(write, text.encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        text = f.read()
    os.waitpid(pid, 0)
    return text


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_read_only_folder_is_named_with_the_user(tmp_path):
    """Made for real: a folder without write permission (as root, the check runs as the user
    nobody, for whom root's folder is read-only)."""
    import pwd
    user = "nobody" if os.geteuid() == 0 else None
    name = user or pwd.getpwuid(os.geteuid()).pw_name
    base = Path(tempfile.mkdtemp(prefix="companion-ro-"))
    try:
        base.chmod(0o755)
        ro = base / "state"
        ro.mkdir()
        ro.chmod(0o555)
        for target, found in ((ro / "game.db", "is read-only"), (ro / "sub" / "game.db", "cannot be created")):
            out = _open_as(user, target)
            assert out.startswith("LogUnwritable") and str(target) in out and found in out, out
            assert f"user {name}" in out and "StateDirectory" in out
    finally:
        ro.chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)


# -- companion repair ----------------------------------------------------------------------------

def _demo_game(path: Path) -> list[dict]:
    """A whole demo game (two bots, the simulation's own reading, a small target) logged at ``path``."""
    from companion.demo.camera import Eyes
    from companion.demo.game import DemoGame
    table = Table(path)
    game = DemoGame(table, Eyes(oracle=True), players=["Ann", "Ben"], seed=4, target=100)
    try:
        report = game.play()
        history = table.history()
        assert table.snapshot()["phase"] == "over" and not report.disagreements
    finally:
        game.close()
        table.close()
    return history


def _state_after(history: list[dict], seq: int) -> dict:
    table = Table(None)
    try:
        for e in history:
            if e["seq"] <= seq:
                table.submit(e["event"], source=e["source"])
        return table.snapshot()
    finally:
        table.close()


def test_repair_recovers_a_log_cut_short_and_the_table_resumes_at_the_last_event(tmp_path, capsys):
    whole = tmp_path / "whole.db"
    history = _demo_game(whole)
    data = whole.read_bytes()
    rng = random.Random(7)
    kept_any = 0
    for k in range(4):
        db = tmp_path / f"cut{k}.db"
        cut = rng.randrange(len(data) * 11 // 20, len(data) - 1)        # into the pages of events
        db.write_bytes(data[:cut])
        with pytest.raises(LogDamaged):
            Table(db)
        assert repair_main(argparse.Namespace(db=str(db), force=False)) == 0
        out = capsys.readouterr().out
        kept = [p for p in tmp_path.iterdir() if p.name.startswith(f"cut{k}.db.damaged-")]
        assert len(kept) == 1 and kept[0].read_bytes() == data[:cut]        # the damaged file, untouched
        table = Table(db)
        try:
            recovered = table.history()
            snap = table.snapshot()
        finally:
            table.close()
        last = recovered[-1]["seq"] if recovered else 0
        assert [e["seq"] for e in recovered] == list(range(1, last + 1))
        assert [(e["event"], e["source"], e["at"]) for e in recovered] == \
               [(e["event"], e["source"], e["at"]) for e in history[:last]]
        assert f"wrote the {last} events" in out
        if last:
            assert snap == _state_after(history, last)
            assert f"round {snap['round']}" in out
        kept_any += last
    assert 0 < kept_any


def test_repair_of_random_bytes_starts_afresh_and_a_sound_log_is_left_alone(tmp_path, capsys):
    files = _damaged(tmp_path)
    assert repair_main(argparse.Namespace(db=str(files["random"]), force=False)) == 0
    out = capsys.readouterr().out
    assert "no event could be read" in out and "starts a new game" in out
    t = Table(files["random"], setup=SETUP)
    assert t.snapshot()["players"] == ["Ann", "Ben"]
    t.close()
    sound = tmp_path / "real.db"
    before = sound.read_bytes()
    assert repair_main(argparse.Namespace(db=str(sound), force=False)) == 0
    assert "nothing to repair" in capsys.readouterr().out and sound.read_bytes() == before
    assert repair_main(argparse.Namespace(db=str(tmp_path / "none.db"), force=False)) == 2


def test_the_page_shows_why_the_table_is_paused(tmp_path):
    from companion.web import create_app
    table = Table(tmp_path / "game.db", setup=SETUP)
    table.submit({"start": "red 3"}, source="camera")
    _fill(table)
    _until_full(table, _turns(table))
    client = create_app(table, config={"HOST_PIN": "123456"}).test_client()
    state = client.get("/api/state").get_json()
    assert state["paused"]["reason"] == STORAGE_FULL and state["paused"]["storage"] is True
    assert STORAGE_FULL in client.get("/").get_data(as_text=True)
    table.close()
