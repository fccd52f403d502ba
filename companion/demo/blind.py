"""A bot that plays from the referee's snapshot alone: a plausible next input, as a table's
camera and buttons would send it, with no real cards behind it (the load benchmarks and the
club's tournament tests; the demo's bots hold real cards instead)."""
from __future__ import annotations

import random

NUMBERS = [str(n) for n in range(10)] + ["skip", "reverse", "draw two"]


def next_input(snap: dict, rng: random.Random) -> dict | None:
    """A plausible next input for the referee's state (as the camera and buttons would send)."""
    aw = snap.get("awaiting")
    uno = snap.get("uno") or {}
    if uno.get("must_call") and rng.random() < 0.8:
        return {"uno": uno["must_call"]}
    if aw is None:
        return None                                   # game over: the caller starts a new one
    kind, opts = aw["input"], aw.get("options") or []
    color = snap.get("color") or "red"
    if kind == "start":
        return {"start": f"{rng.choice(['red', 'yellow', 'green', 'blue'])} {rng.randint(0, 9)}"}
    if kind == "new_round":
        return {"new_round": True}
    if kind == "hand":
        return {"points": {"player": aw["player"], "points": rng.randint(0, 60)}}
    if kind == "color":
        return {"color": rng.choice(opts or ["red", "blue"])}
    if kind == "target":
        return {"target": rng.choice(opts)}
    if kind == "verdict":
        return {"verdict": rng.choice(opts or ["innocent"])}
    if kind in ("challenge_or_accept", "stack_or_accept"):
        return {"accept": True}
    if kind == "play":
        if "pass" in opts and rng.random() < 0.5:
            return {"pass": True}
        r = rng.random()
        if r < 0.06:
            return {"play": "wild", "color": rng.choice(["red", "yellow", "green", "blue"])}
        if r < 0.2:
            return {"draw": 1}
        return {"play": f"{color} {rng.choice(NUMBERS)}"}
    return {"undo": True}
