"""The table's own inputs: pause and resume, logged like every other input, never seen by the referee."""
from __future__ import annotations

import pytest

from companion.referee import InputError
from companion.replay import replay_lines
from companion.table import Table, parse_table_input

SETUP = {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"}


def types(out):
    return [a["type"] for a in out]


@pytest.fixture
def table():
    t = Table(None, setup=SETUP)
    t.submit({"start": "red 7"}, source="camera")
    return t


def test_pause_refuses_camera_and_buttons_but_not_the_host(table):
    assert types(table.pause("a phone call")) == ["paused"]
    before = table.snapshot()
    assert before["paused"]["reason"] == "a phone call"
    for source in ("camera", "button"):
        out = table.submit({"play": "red 3"}, source=source)
        assert types(out) == ["rejected"] and out[0]["paused"] is True
        assert "Paused (a phone call)" in out[0]["text"] and f"from the {source}" in out[0]["text"]
    assert table.snapshot() == before                       # nothing happened, nothing logged
    assert [h["event"] for h in table.history()][-1] == {"pause": "a phone call"}
    assert "played" in types(table.submit({"play": "red 3"}, source="page"))
    assert types(table.resume()) == ["resumed"]
    assert table.snapshot()["paused"] is None
    assert "played" in types(table.submit({"play": "red 5"}, source="camera"))


def test_malformed_inputs_are_still_errors_while_paused(table):
    table.pause()
    with pytest.raises(InputError):
        table.submit({"play": "purple 12"}, source="camera")


def test_pause_twice_and_resume_unpaused_are_refused(table):
    assert types(table.resume()) == ["rejected"]
    table.pause()
    assert table.snapshot()["paused"] == {"reason": "", "seq": table.snapshot()["seq"]}
    assert types(table.pause("again")) == ["rejected"]
    assert table.paused["reason"] == ""


@pytest.mark.parametrize("bad", [{"pause": False}, {"pause": ""}, {"pause": "x" * 81}, {"pause": 3},
                                 {"resume": "yes"}, {"pause": True, "play": "red 3"},
                                 {"resume": True, "color": "red"}])
def test_malformed_pause_or_resume_is_an_input_error_and_not_logged(table, bad):
    n = len(table.history())
    with pytest.raises(InputError):
        table.submit(bad)
    assert len(table.history()) == n


def test_listeners_hear_pause_and_resume(table):
    updates = []
    table.subscribe(updates.append)
    table.pause("snacks")
    table.submit({"play": "red 3"}, source="camera")        # refused: no update
    table.resume()
    assert [u["event"] for u in updates] == [{"pause": "snacks"}, {"resume": True}]
    assert updates[0]["state"]["paused"]["reason"] == "snacks"
    assert updates[1]["state"]["paused"] is None


def test_a_restart_stays_paused(tmp_path):
    db = tmp_path / "g.db"
    t = Table(db, setup=SETUP)
    t.submit({"start": "red 7"}, source="camera")
    t.pause("dinner")
    snap = t.snapshot()
    t.close()
    t2 = Table(db, setup=SETUP)
    assert t2.snapshot() == snap and t2.paused["reason"] == "dinner"
    assert types(t2.submit({"play": "red 3"}, source="camera")) == ["rejected"]
    t2.resume()
    t2.close()
    t3 = Table(db)
    assert t3.paused is None
    t3.close()


def test_undo_skips_a_pause_and_takes_back_the_last_game_input(table):
    table.submit({"play": "red 3"}, source="camera")
    table.pause()
    assert types(table.submit({"undo": True}, source="page")) == ["undone"]
    snap = table.snapshot()
    assert snap["top"] == "red 7" and snap["paused"] is not None


def test_a_new_game_is_not_paused(table):
    table.pause()
    table.new_game(SETUP)
    assert table.paused is None and table.snapshot()["paused"] is None


def test_parse_table_input():
    assert parse_table_input({"play": "red 3"}) is None
    assert parse_table_input({"pause": True}) == ("pause", "")
    assert parse_table_input({"pause": "  power   cut "}) == ("pause", "power cut")
    assert parse_table_input({"resume": True}) == ("resume", "")


def test_replay_command_skips_the_tables_own_inputs():
    lines = ['{"setup": {"players": ["Ann", "Ben"], "dealer": "Ben"}}', '{"pause": true}',
             '{"start": "red 7"}', '{"resume": true}']
    assert replay_lines(lines).snapshot()["top"] == "red 7"
