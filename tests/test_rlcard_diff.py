"""Differential test against RLCard's UNO engine (``rlcard==1.2.0``), step by step.

For the rules both engines share we compare, before and after every action: the current player,
the direction, the colour in force, every hand size, and the legal plays of the player to move.
RLCard deviates from the official rules in known places; each is excluded explicitly:

- no voluntary draw: RLCard only draws when nothing is playable (we compare the set of legal
  cards, not the option to draw);
- auto-played draws: a playable drawn card is played by RLCard at once (we send the referee the
  draw and then that play, or the draw and a pass); a drawn Wild Draw Four is played by RLCard
  as a plain Wild (the game's comparison stops there);
- Wild Draw Four: RLCard offers it only when no other card is playable and has no challenge (we
  leave it out of the legal-play comparison and referee with ``wd4_challenge = off``);
- two-player Reverse: RLCard only turns the direction (we referee with ``two_player_reverse =
  reverse``);
- first card: RLCard does not skip the player after a first Draw Two, colours a first Wild at
  random and keeps a first Wild Draw Four (such deals are skipped);
- reshuffling: RLCard shuffles its top card back into the deck too (the comparison stops before
  RLCard's deck runs out).
"""
from __future__ import annotations

import random

import pytest

rlcard = pytest.importorskip("rlcard")
np = pytest.importorskip("numpy")
from rlcard.games.uno.game import UnoGame  # noqa: E402

from companion.referee import Referee  # noqa: E402

COLORS = {"r": "red", "g": "green", "b": "blue", "y": "yellow"}
TRAITS = {"draw_2": "draw two", "wild_draw_4": "wild draw four"}


def ours(action: str) -> tuple[str, str | None]:
    """RLCard's "r-draw_2" / "g-wild" as our card text and the colour named (for wilds)."""
    color, trait = action.split("-", 1)
    words = TRAITS.get(trait, trait)
    if trait in ("wild", "wild_draw_4"):
        return words, COLORS[color]
    return f"{COLORS[color]} {words}", None


def compare(game: UnoGame, ref: Referee, names: list[str], where: str) -> None:
    snap = ref.snapshot()
    r = game.round
    assert snap["current"] == names[r.current_player], where
    assert snap["direction"] == ("clockwise" if r.direction == 1 else "counterclockwise"), where
    assert snap["color"] == COLORS[r.target.color], where
    assert [snap["hand_counts"][n] for n in names] == [len(p.hand) for p in game.players], where


def legal_sets(game: UnoGame, ref: Referee) -> tuple[set, set]:
    pid = game.round.current_player
    theirs = {ours(a)[0] for a in game.get_legal_actions() if a != "draw" and "wild_draw_4" not in a}
    hand = {ours(c.str if c.type != "wild" else "r-" + c.trait)[0] for c in game.players[pid].hand}
    mine = {c for c in hand if c != "wild draw four" and ref.why_illegal(c) is None}
    return theirs, mine


def play_one(seed: int) -> int:
    """Play one seeded game in both engines; return the number of actions compared."""
    rng = random.Random(seed)
    n = rng.choice([2, 3, 4, 5])
    game = UnoGame(num_players=n)
    game.np_random = np.random.RandomState(seed)
    game.init_game()
    first = game.round.played_cards[0]
    if first.trait in ("draw_2", "wild", "wild_draw_4"):
        return 0
    names = [f"P{i}" for i in range(n)]
    ref = Referee()
    rules = {"wd4_challenge": False, "two_player_reverse": "reverse", "illegal_play_penalty": 0}
    ref.apply({"setup": {"players": names, "dealer": names[-1], "rules": rules}})
    ref.apply({"start": ours(first.str)[0]})
    compare(game, ref, names, f"seed {seed} start")
    steps = 0
    while not game.is_over() and len(game.dealer.deck) >= 6:
        theirs, mine = legal_sets(game, ref)
        assert theirs == mine, f"seed {seed} step {steps}: legal plays differ"
        pid = game.round.current_player
        action = rng.choice(game.get_legal_actions())
        if action == "draw":
            size = len(game.players[pid].hand)
            game.step(action)
            ref.apply({"draw": 1})
            if len(game.players[pid].hand) > size:
                ref.apply({"pass": True})
            else:
                drawn = game.round.played_cards[-1]
                if drawn.trait == "wild_draw_4":
                    break       # RLCard plays a drawn Wild Draw Four as a plain Wild: excluded
                card, color = ours(f"{drawn.color}-{drawn.trait}")   # .str is stale for wilds
                ref.apply({"play": card, **({"color": color} if color else {})})
        else:
            card, color = ours(action)
            game.step(action)
            ref.apply({"play": card, **({"color": color} if color else {})})
        steps += 1
        if game.is_over():
            snap = ref.snapshot()
            assert snap["round_winner"] == names[game.round.winner[0]]
            assert [snap["hand_counts"][x] for x in names] == [len(p.hand) for p in game.players]
            break
        compare(game, ref, names, f"seed {seed} step {steps} ({action})")
    return steps


def test_referee_agrees_with_rlcard_over_200_seeded_games():
    total = sum(play_one(seed) for seed in range(200))
    assert total > 2000     # the comparison really ran
