"""Hypothesis invariants over whole simulated games (real shuffled deck, real hands):

- card conservation: the referee's hand counts, pile and draw pile always equal the real cards;
- turn order: after a plain number card the next player in the direction plays;
- replay == live: rebuilding from the inputs gives the same snapshot;
- undo inverts: undoing any input restores the snapshot before it.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.referee import Referee
from referee_sim import play_game

RULESETS = st.fixed_dictionaries({}, optional={
    "stacking": st.sampled_from(["off", "same", "cross"]),
    "draw": st.sampled_from(["one", "until_playable"]),
    "after_draw": st.sampled_from(["drawn_only", "pass"]),
    "illegal_play_penalty": st.sampled_from([0, 2]),
    "wd4_challenge": st.booleans(),
    "guilty_then": st.sampled_from(["challenger_plays", "challenger_skipped"]),
    "first_card_action": st.sampled_from(["apply", "redraw", "ignore"]),
    "first_card_wild": st.sampled_from(["choose", "redraw"]),
    "scoring": st.sampled_from(["winner_takes", "lowest_total", "elimination"]),
    "hand_size": st.integers(1, 7),
})
PLAYERS = st.sampled_from([("Ann", "Ben"), ("Ann", "Ben", "Cat"), ("Ann", "Ben", "Cat", "Dan", "Eve")])
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=st.integers(0, 10**6), players=PLAYERS, rules=RULESETS)
def test_cards_are_conserved_and_games_end(seed, players, rules):
    t = play_game(seed, players, {"target_score": 60, **rules}, max_steps=1500)   # checks every step
    snap = t.ref.snapshot()
    assert snap["game_winner"] is not None or len(t.inputs) >= 1500
    assert sum(snap["hand_counts"].values()) + len(snap["pile"]) + snap["draw_pile"] == 108


@FAST
@given(seed=st.integers(0, 10**6), players=PLAYERS)
def test_turn_order_after_number_cards(seed, players):
    t = play_game(seed, players, {"target_score": 60}, max_steps=600, check=False)
    seen = 0
    prev = None
    for event, out, snap in t.history:
        played = [a for a in out if a["type"] == "played"]
        if (prev and prev["awaiting"] and prev["awaiting"]["input"] == "play" and len(played) == 1
                and played[0]["card"].split()[-1].isdigit() and snap["phase"] == "turn"
                and not any(a["type"] in ("accepted", "went_out") for a in out)):
            seats = snap["players"]
            i = seats.index(played[0]["player"])
            step = 1 if snap["direction"] == "clockwise" else -1
            assert snap["current"] == seats[(i + step) % len(seats)]
            seen += 1
        prev = snap
    assert seen > 0


@FAST
@given(seed=st.integers(0, 10**6), players=PLAYERS, rules=RULESETS)
def test_replay_equals_live_state(seed, players, rules):
    t = play_game(seed, players, {"target_score": 60, **rules}, max_steps=400, check=False)
    again = Referee()
    for e in t.ref.inputs:
        again.apply(e)
    assert again.snapshot() == t.ref.snapshot()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=PLAYERS, rules=RULESETS, data=st.data())
def test_undo_inverts_any_input(seed, players, rules, data):
    t = play_game(seed, players, {"target_score": 60, **rules}, max_steps=200, check=False)
    inputs = t.ref.inputs
    k = data.draw(st.integers(1, len(inputs)))
    ref = Referee()
    for e in inputs[:k - 1]:
        ref.apply(e)
    before = ref.snapshot()
    ref.apply(inputs[k - 1])
    ref.apply({"undo": True})
    assert ref.snapshot() == before
