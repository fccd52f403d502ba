"""A table's side of a tournament (`companion.club.seating.SeatingFollower`), without a broker:
a set's game starts between hands, the table pauses once the set's hands are played, and no
input slips in between what the follower reads and what it does."""
from __future__ import annotations

import random
import threading

from companion.club import tournament as tour
from companion.club.seating import SET_DONE, SeatingFollower
from companion.demo.blind import next_input
from companion.table import Table

SEATS = ["Ann", "Ben", "Cat", "Dan"]


def _seating(n: int = 1) -> dict:
    return {"tournament": "t0", "set": n, "sets": 3, "seats": SEATS, "hands": tour.HANDS,
            "setup": tour.setup_for(SEATS)}


def _play(table: Table, rng: random.Random, until, follower: SeatingFollower | None = None, limit: int = 5000):
    """Button inputs as the demo's blind player makes them, until ``until(snapshot)``; the follower
    steps after each, as the publisher's thread does when the table wakes it."""
    for _ in range(limit):
        snap = table.snapshot()
        if until(snap):
            return snap
        ev = None if snap.get("paused") else next_input(snap, rng)
        if ev is not None:
            try:
                table.submit(ev, source="button")
            except ValueError:
                pass
        if follower is not None:
            follower.step()
    raise AssertionError(f"not reached in {limit} inputs: {table.snapshot().get('phase')}")


def test_a_set_starts_between_hands_and_pauses_after_its_hands_until_the_hub_clears_it(tmp_path):
    table, rng = Table(tmp_path / "t.db", setup={"players": ["Zoe", "Yan"]}), random.Random(3)
    follower = SeatingFollower(table)
    _play(table, rng, lambda s: s.get("phase") == "turn")
    follower.offer(_seating())
    follower.step()
    assert table.snapshot()["players"] == ["Zoe", "Yan"]          # never in the middle of a hand
    snap = _play(table, rng, lambda s: s.get("players") == SEATS, follower)
    assert (snap["rules"] or {}).get("partners") and table.log.mark("club.seating") == "t0:1"
    snap = _play(table, rng, lambda s: s.get("paused"), follower)
    assert snap["paused"]["reason"] == SET_DONE and len(snap["rounds"]) == tour.HANDS
    assert snap["phase"] == "between"
    assert SeatingFollower(table).taken == "t0:1"                 # a restarted table does not take it again
    follower.offer(None)
    follower.step()
    assert table.snapshot()["paused"] is None


def test_no_input_slips_between_what_the_follower_reads_and_the_pause(tmp_path):
    table, rng = Table(tmp_path / "t.db"), random.Random(5)
    follower = SeatingFollower(table)
    follower.offer(_seating())
    follower.step()
    assert table.snapshot()["players"] == SEATS                   # a table with no game yet takes it at once
    _play(table, rng, lambda s: len(s.get("rounds") or []) >= tour.HANDS and s.get("phase") == "between")
    read, player = table.snapshot, None

    def snapshot_then_a_player_moves():
        nonlocal player
        snap = read()
        if player is None:           # another thread plays on right after the follower has read
            player = threading.Thread(target=_play, args=(table, random.Random(6),
                                                          lambda s: s.get("paused") or s.get("phase") == "turn"))
            player.start()
            player.join(0.5)
        return snap
    table.snapshot = snapshot_then_a_player_moves
    follower.step()
    player.join(10)
    del table.snapshot
    snap = table.snapshot()
    assert snap["paused"]["reason"] == SET_DONE
    assert snap["phase"] == "between"          # paused between hands, so the next seating can be taken
    follower.offer(_seating(2))
    follower.step()
    assert table.log.mark("club.seating") == "t0:2" and table.snapshot()["paused"] is None


def test_a_table_waiting_for_the_next_set_takes_it_even_in_the_middle_of_a_hand(tmp_path):
    table, rng = Table(tmp_path / "t.db"), random.Random(7)
    follower = SeatingFollower(table)
    follower.offer(_seating())
    follower.step()
    _play(table, rng, lambda s: len(s.get("rounds") or []) > tour.HANDS and s.get("phase") == "turn")
    table.pause(SET_DONE, source="club")        # as a table that paused one input too late did
    follower.offer(_seating(2))
    follower.step()
    snap = table.snapshot()
    assert table.log.mark("club.seating") == "t0:2" and snap["paused"] is None and snap["rounds"] == []
    follower.offer(_seating(3))                  # a hand of a set in play is never cut short
    _play(table, rng, lambda s: s.get("phase") == "turn")
    follower.step()
    assert table.log.mark("club.seating") == "t0:2"
