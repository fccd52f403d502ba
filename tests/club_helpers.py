"""A real Mosquitto for the club tests (`companion.club.broker.LocalBroker`: a free port, a
generated config), and the inputs of simulated games for the tables to play."""
from __future__ import annotations

import time

from companion.club.broker import MOSQUITTO, MOSQUITTO_PASSWD, LocalBroker  # noqa: F401

Broker = LocalBroker


def game_inputs(seed: int, players: list[str], target: int = 150) -> list[dict]:
    """The inputs of one whole simulated game to ``target`` points (setup first)."""
    from referee_sim import play_game
    t = play_game(seed, players, {"target_score": target}, check=False, mistakes=0.02)
    return list(t.inputs)


def wait_for(cond, timeout: float = 30.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        time.sleep(0.05)
