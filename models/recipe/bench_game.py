"""Games replayed through the motion gate: what the referee is told, play by play.

The pile benchmarks read one still photo each; a game is a pile built one card at a time under a
fixed camera, and what reaches the referee is the motion gate's events (`MotionGate`), not a
reading. Each replayed game lays `--plays` cards, each one playable on the last (its colour, its
symbol, or a wild), on one table, under one light, seen by one camera (leaning up to `--tilt`
degrees), each card landing near the pile's middle at any turn. A hand brings each card in (a few
frames), then the pile is still for a second at 15 frames a second. After a `--nudges` share of
the plays a hand straightens the top card (moves it a little and turns it a few degrees), which
is no play: the referee must be told nothing. After a `--resting` share of the plays the hand
that brought the card rests over the pile for most of a second (long enough for the gate to read
the pile under it) before it leaves. Every play ends as one of (the first thing the referee is told):

- right: a ``card`` event naming the card played;
- asked right: a ``question`` whose first guess is the card played (the host confirms with a tap);
- asked: a question that does not name it first (the host picks or types the card);
- wrong: a ``card`` event naming another card (the referee judges a play that was not made);
- lost: no event (the play is not seen; the referee still waits for it).

After a play that is not right, the host's answer is applied as the product applies it
(`MotionGate.set_top`), so each play is judged on its own. Every nudge ends as quiet (no event),
a false question or a false play. The first seed is 9,990,000 (held out of every training set)::

    python models/recipe bench-game --games 40 --plays 12
"""
from __future__ import annotations

import argparse
import collections
import functools
import json
import sys
from typing import NamedTuple
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.camera.gate import MotionGate  # noqa: E402
from companion.cards import Card, deck  # noqa: E402
from companion.vision.camera_look import camera_effects  # noqa: E402
from companion.vision.dataset import SEEDS  # noqa: E402
from companion.vision.recognizer import Recognizer, parse_settings  # noqa: E402
from companion.vision.render import Style  # noqa: E402
from companion.vision.hands import add_hand  # noqa: E402
from companion.vision.synth import PILE_SPREAD, Canvas, _add_clutter, card_quad, render_card  # noqa: E402
from companion.vision.tables import table_surface  # noqa: E402
from companion.vision.tilt import tilt_homography  # noqa: E402

FIRST = SEEDS["bench"] + 990_000
FPS = 15
HAND_FRAMES = 4        # frames a hand is over the pile, bringing the card in
STILL_FRAMES = 15      # frames the pile is still after it (a second)
REST_FRAMES = 13       # frames a resting hand stays still over the pile (more than the gate's settling)
OUTCOMES = ("right", "asked right", "asked", "wrong", "lost")
NUDGED = ("quiet", "false question", "false play")


class Game(NamedTuple):
    """One replayed game: the cards played in order, and the camera's frames of the pile."""

    deck: str
    plays: list            # Card, in the order played
    frames: list           # frames[k]: the pile after k plays (frames[0]: the empty table)
    hands: list            # hands[k]: the frames of a hand bringing in play k (k from 1)
    nudges: dict           # k: (a hand's frames, the pile after) where the top card is nudged after play k
    resting: dict          # k: the pile after play k with the hand resting over it, where it rests


def _playable(rng, deck_name: str, top: Card | None, colour: str | None) -> tuple[Card, str | None]:
    """A card playable on `top` (the colour in force `colour`), and the colour in force after it."""
    cards = deck(deck_name).cards()
    while True:
        card = cards[rng.integers(len(cards))]
        if card.is_wild:
            return card, deck(deck_name).colors[rng.integers(4)]
        if top is None or card.color == colour or card.symbol == top.symbol:
            return card, card.color


def make_game(seed: int, plays: int, *, size=(640, 480), deck_name: str | None = None, tilt: float = 30.0,
              nudges: float = 0.0, resting: float = 0.0) -> Game:
    """A game of `plays` cards on one pile, its frames as one camera sees them, the top card
    nudged after a `nudges` share of the plays, the hand resting over the pile after a `resting`
    share; the same seed always gives the same game."""
    rng = np.random.default_rng(seed)
    deck_name = deck_name or str(rng.choice(["classic", "classic", "classic112", "seinfeld"]))
    style = Style.random(rng)
    w, h = size
    height = float(np.exp(rng.uniform(np.log(0.2), np.log(0.6)))) * min(w, h)
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    canvas = Canvas(table_surface(rng, h, w))
    if rng.random() < 0.3:
        _add_clutter(canvas, rng, style)
    view = tilt_homography(rng, w, h, tilt) if tilt else None
    look = int(rng.integers(2 ** 31))          # one camera, one room: every frame the same light

    def photo(img: np.ndarray) -> np.ndarray:
        if view is not None:
            img = cv2.warpPerspective(img, view, (w, h), borderMode=cv2.BORDER_REPLICATE)
        return camera_effects(np.clip(img, 0, 255).astype(np.uint8), np.random.default_rng(look))

    def with_hand(img: np.ndarray, k: int, j: int) -> np.ndarray:
        c = Canvas(img)
        add_hand(c, np.random.default_rng([seed, k, j]), (cx, cy))
        return photo(c.img)

    played, frames, hands, nudged, rests = [], [photo(canvas.img)], [[]], {}, {}
    top, colour = None, None
    aside = np.random.default_rng([seed, 31])      # its own streams: the plays are the same whatever
    still = np.random.default_rng([seed, 37])      # `nudges` and `resting` are
    for k in range(1, plays + 1):
        top, colour = _playable(rng, deck_name, top, colour)
        before = canvas.img.copy()
        off = rng.normal(0, PILE_SPREAD * height, 2)
        face, turn, shadow = render_card(top, style), rng.uniform(0, 360), float(rng.uniform(0.1, 0.45))
        canvas.place(face, card_quad(cx + off[0], cy + off[1], height, turn, np.random.default_rng([seed, k])),
                     shadow=shadow)
        played.append(top)
        hands.append([with_hand(before if j < HAND_FRAMES // 2 else canvas.img, k, j) for j in range(HAND_FRAMES)])
        frames.append(photo(canvas.img))
        if resting and still.random() < resting:
            rests[k] = with_hand(canvas.img, k, HAND_FRAMES - 1)     # the last frame of the hand bringing it in
        if nudges and aside.random() < nudges:       # the top card straightened: moved a little, turned a little
            moved = Canvas(before)
            off = off + aside.normal(0, 0.03 * height, 2)
            moved.place(face, card_quad(cx + off[0], cy + off[1], height, turn + aside.normal(0, 4),
                                        np.random.default_rng([seed, k])), shadow=shadow)
            nudged[k] = ([with_hand(moved.img, k, HAND_FRAMES + j) for j in range(HAND_FRAMES)], photo(moved.img))
            canvas = moved
    return Game(deck_name, played, frames, hands, nudged, rests)


def outcome(events: list, card: Card) -> str:
    """What the referee was told of `card`'s play (the module's doc lists the outcomes)."""
    said = [e for e in events if e.kind in ("card", "question", "cleared")]
    if not said:
        return "lost"
    e = said[0]
    if e.kind == "card":
        return "right" if e.card == card else "wrong"
    if e.kind == "question":
        first = e.card if e.card is not None else (Card.parse(e.candidates[0]) if e.candidates else None)
        return "asked right" if first == card else "asked"
    return "lost"


def replay(gate: MotionGate, game: Game, misses: list | None = None, label: str = "") -> collections.Counter:
    """Feeds `game`'s frames to `gate`; the outcome of each play."""
    t, counts = 0.0, collections.Counter()
    for _ in range(FPS // 2):
        gate.feed(game.frames[0], t)
        t += 1 / FPS
    for k, card in enumerate(game.plays, start=1):
        events = []
        rest = [game.resting[k]] * REST_FRAMES if k in game.resting else []
        for img in game.hands[k] + rest + [game.frames[k]] * STILL_FRAMES:
            events += gate.feed(img, t)
            t += 1 / FPS
        got = outcome(events, card)
        counts[got] += 1
        if got != "right":
            if misses is not None:
                misses.append(f"{label} play {k}: {card} (on {game.plays[k - 2] if k > 1 else 'nothing'}) -> {_said(events)}")
            gate.set_top(card)            # the host's answer
        if k in game.nudges:
            hand, after = game.nudges[k]
            events = []
            for img in hand + [after] * STILL_FRAMES:
                events += gate.feed(img, t)
                t += 1 / FPS
            said = [e for e in events if e.kind in ("card", "question", "cleared")]
            got = "quiet" if not said else "false play" if any(e.kind in ("card", "cleared") for e in said) else "false question"
            counts[got] += 1
            if got != "quiet":
                if misses is not None:
                    misses.append(f"{label} nudge after play {k}: {card} -> {_said(events)}")
                gate.set_top(card)
    return counts


def _said(events: list) -> str:
    return "; ".join(f"{e.kind} {e.card or ''} {list(e.candidates) if e.candidates else ''} {e.reason}".strip()
                     for e in events) or "nothing"


def games(rec, n: int, plays: int, *, first: int = FIRST, size=(640, 480), tilt: float = 30.0, nudges: float = 0.0,
          resting: float = 0.0, misses: list | None = None) -> dict:
    """`n` games of `plays` cards (seeds `first`..), each through a fresh gate over `rec(deck)`;
    the top card nudged after a `nudges` share of the plays, a hand resting over the pile after a
    `resting` share."""
    counts = collections.Counter()
    calls = 0
    for i in range(n):
        if i and i % max(1, n // 10) == 0:
            print(f"  games: {i}/{n}", file=sys.stderr, flush=True)
        game = make_game(first + i, plays, size=size, tilt=tilt, nudges=nudges, resting=resting)
        gate = MotionGate(rec(game.deck))
        counts += replay(gate, game, misses, label=str(first + i))
        calls += gate.detector_calls
    total = sum(counts[k] for k in OUTCOMES)
    out = {k: round(counts[k] / max(total, 1), 4) for k in OUTCOMES}
    touched = sum(counts[k] for k in NUDGED)
    res = {"plays": total, **out, "recognizer_calls": calls}
    if touched:
        res.update({"nudges": touched, **{k: round(counts[k] / touched, 4) for k in NUDGED}})
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--plays", type=int, default=12, help="cards played in each game")
    ap.add_argument("--nudges", type=float, default=0.25, metavar="SHARE",
                    help="the share of plays after which the top card is nudged (no play)")
    ap.add_argument("--resting", type=float, default=0.0, metavar="SHARE",
                    help="the share of plays after which the hand rests over the pile before it leaves")
    ap.add_argument("--tilt", type=float, default=30.0, metavar="DEG", help="the camera leans up to this (0: overhead)")
    ap.add_argument("--first-seed", type=int, default=FIRST)
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a recogniser setting changed (a field of recognizer.Settings)")
    ap.add_argument("--misses", action="store_true", help="print each play not right, with the gate's events")
    a = ap.parse_args(argv)
    if a.games < 1 or a.plays < 1:
        ap.error("--games and --plays must be at least 1")
    if not (0.0 <= a.nudges <= 1.0 and 0.0 <= a.resting <= 1.0):
        ap.error("--nudges and --resting must be from 0 to 1")
    if not 0.0 <= a.tilt < 90.0:
        ap.error("--tilt must be at least 0 and under 90 degrees")
    try:
        settings = parse_settings(a.set)
    except ValueError as exc:
        ap.error(f"--set {exc}")
    rec = functools.lru_cache(None)(lambda d: Recognizer(d, model_dir=a.model_dir, threads=1, settings=settings))
    misses = [] if a.misses else None
    res = games(rec, a.games, a.plays, first=a.first_seed, tilt=a.tilt, nudges=a.nudges, resting=a.resting,
                misses=misses)
    for line in misses or ():
        print(line)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
