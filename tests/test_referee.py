"""The Referee's public interface: inputs, announcements, snapshot shape, undo, purity."""
import json

import pytest

from companion.referee import InputError, Referee

SETUP = {"setup": {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"}}
SNAPSHOT_KEYS = {"current", "direction", "top", "color", "hand_counts", "scores", "round_winner", "game_winner",
                 "awaiting", "announcements", "players", "dealer", "deck", "rules", "round", "rounds", "uno",
                 "pending_draw", "target_score"}


def test_snapshot_shape_before_and_during_a_game():
    ref = Referee()
    snap = ref.snapshot()
    assert SNAPSHOT_KEYS <= set(snap) and snap["awaiting"]["input"] == "setup"
    ref.apply(SETUP)
    ref.apply({"start": "red 7"})
    snap = ref.snapshot()
    json.dumps(snap)
    assert set(snap["awaiting"]) == {"input", "player", "options", "prompt"}
    assert snap["uno"] == {"must_call": None, "can_be_caught": None}
    assert all({"type", "text"} <= set(a) for a in snap["announcements"])


def test_malformed_input_changes_nothing_and_names_the_problem():
    ref = Referee()
    ref.apply(SETUP)
    before = ref.snapshot()
    with pytest.raises(InputError, match="red 99"):
        ref.apply({"play": "red 99"})
    with pytest.raises(ValueError):
        ref.apply({"draw": -1})
    assert ref.snapshot() == before and len(ref.inputs) == 1


def test_every_announcement_of_apply_is_in_the_snapshot_in_order():
    ref = Referee()
    seen = []
    for e in [SETUP, {"start": "red 7"}, {"play": "red skip"}, {"play": "blue 1"}, {"draw": 1}, {"pass": True}]:
        seen += ref.apply(e)
    assert ref.snapshot()["announcements"] == seen


def test_why_illegal_follows_the_colour_in_force():
    ref = Referee()
    ref.apply(SETUP)
    ref.apply({"start": "red 7"})
    assert ref.why_illegal("blue 7") is None and ref.why_illegal("wild") is None
    assert "does not match" in ref.why_illegal("blue 3")
    ref.apply({"play": "wild", "color": "green"})
    assert ref.why_illegal("red 7") and ref.why_illegal("green 1") is None


def test_undo_restores_exactly_and_replays_equal():
    ref = Referee()
    events = [SETUP, {"start": "red 7"}, {"play": "red draw two"}, {"play": "green draw two"}]
    snaps = []
    for e in events:
        ref.apply(e)
        snaps.append(ref.snapshot())
    for k in range(len(events) - 1, 0, -1):
        ref.apply({"undo": True})
        assert ref.snapshot() == snaps[k - 1]


def test_referees_are_independent_and_deterministic():
    a, b = Referee(), Referee()
    for e in [SETUP, {"start": "red 7"}, {"play": "red 3"}]:
        a.apply(e)
        b.apply(e)
    assert a.snapshot() == b.snapshot()
    b.apply({"play": "red 4"})
    assert a.snapshot() != b.snapshot()
