"""The demo's game loop: bots at a simulated table, refereed by the real thing.

Every move goes the way it would at a real table: a card put on the pile is a clip of rendered
camera frames pushed into a `SimulatedSource` and read by the real `CardWatcher` (motion gate and
recogniser, in its own thread); a button is a mock GPIO pin of the real `Panel` driven low and
high; the cards left at the end of a round are spread under the camera and read by a hand scan;
what the host would type on the page (a new round, a fix, "It was red 7" to the camera's question
about a card put on its twin) goes to the table as a host input. One queue, read here by the
real `Companion` (as in `companion run`), turns camera events and button edges into referee
inputs.

After each move the loop checks that the referee got exactly the input the move meant. When the
camera misread a card (or was unsure), the host fixes it as on the page (undo, then the right
card) and the mistake is counted; the game goes on. The real cards (`TableCards`) are the truth
the referee's hand counts, round winners and scores are checked against.
"""
from __future__ import annotations

import logging
import queue
import random
import time
from dataclasses import dataclass, field
from typing import Callable

from companion.config import Config, PileConfig, TableConfig
from companion.panel import ButtonDecoder, Buzzer, ColorLeds, Panel
from companion.rules import Rules
from companion.camera.gate import SAME_CARD
from companion.run import Companion, Preview, build_watcher

from .bots import BUTTON, CAMERA, HOST, Bots, Move, Script, TableCards
from .camera import FPS, DemoCamera, Eyes, SimClock
from .scene import MAX_SPREAD, ROI, Clip, Shot, TableScene

log = logging.getLogger(__name__)
QUIET = {"turn"}            # announcements left out of the running commentary


@dataclass
class Report:
    """What the demo saw: rounds, scores, recognition, scripted mistakes, disagreements."""

    players: list
    rounds: list = field(default_factory=list)          # per round: truth vs referee
    truth_scores: dict = field(default_factory=dict)
    scores: dict = field(default_factory=dict)
    game_winner: str | None = None
    plays_seen: int = 0             # cards put down (the camera had to report each)
    plays_right: int = 0            # ... and reported exactly, with no question or fix needed
    hands_seen: int = 0             # hands spread under the camera for scoring
    hands_right: int = 0            # ... and read exactly, with no fix needed
    hands_entered: int = 0          # hands too big to spread: the host entered them
    twins: list = field(default_factory=list)          # cards put on their twin, and how they got in
    camera_fixes: list = field(default_factory=list)   # each play the host had to fix
    mistakes: list = field(default_factory=list)       # the scripted mistakes and how they were judged
    disagreements: list = field(default_factory=list)  # referee vs the real cards
    frames: int = 0
    moves: int = 0
    seconds: float = 0.0
    eyes: object = None             # the scored recogniser (`Eyes`)

    @property
    def ok(self) -> bool:
        return not self.disagreements and all(r["ok"] for r in self.rounds) and all(m["ok"] for m in self.mistakes)


class DemoGame:
    """One simulated game on ``table``. Build it, optionally serve the page for ``table`` and
    ``preview``, then ``play()``; ``close()`` stops the camera thread and frees the pins."""

    def __init__(self, table, recognizer, *, players: list[str], deck: str = "classic", seed: int = 1,
                 target: int = 500, rounds: int | None = None, pace: float = 0.0,
                 say: Callable[[str], None] = log.info, progress: Callable[[dict], None] | None = None):
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        self.table, self.players, self.deck = table, list(players), deck
        self.rounds_limit, self.pace = rounds, pace
        self.say, self.progress = say, progress
        self.rng = random.Random(seed)
        self.config = Config(table=TableConfig(players=tuple(players), deck=deck, db=""),
                             rules={"target_score": int(target)}, pile=PileConfig(ROI))
        self.rules = Rules.from_dict(self.config.rules, deck=deck)
        self.cards = TableCards(deck, self.rng)
        self.bots = Bots(self.cards, self.rules, self.rng, Script())
        self.scene = TableScene(deck, seed=seed)
        self.clock = SimClock()
        self.eyes = recognizer if isinstance(recognizer, Eyes) else Eyes(recognizer)
        self.events: queue.Queue = queue.Queue()
        # the demo's own mock pins, even on a Pi: the bots must never press real buttons
        self.pins = MockFactory(pin_class=MockPWMPin)
        self.panel = Panel(self.events, pin_factory=self.pins, clock=self.clock)
        self.buzzer = Buzzer(pin_factory=self.pins, sleep=lambda s: None)
        self.leds = ColorLeds(pin_factory=self.pins)
        self.camera = DemoCamera()
        self.watcher = build_watcher(self.config, None, recognizer=self.eyes, source=self.camera)
        p = self.config.panel
        # as in `companion run`: the companion tells the watcher the top card and when to scan a
        # hand (end-of-round scoring is read from the spread hands; verdicts come from buttons,
        # which cancels the scan the challenge started)
        self.companion = Companion(table, self.events, watcher=self.watcher,
                                   decoder=ButtonDecoder(bounce=p.bounce, long_press=p.long_press),
                                   buzzer=self.buzzer, leds=self.leds, clock=self.clock)
        self.preview = Preview(self.watcher, self.companion)
        self.report = Report(list(players), truth_scores={p: 0 for p in players}, eyes=self.eyes)
        self._updates: list[dict] = []
        self._unsubscribe = table.subscribe(self._updates.append)

    # -- the channels -------------------------------------------------------------------------------
    def _drain(self) -> None:
        while True:
            try:
                item = self.events.get_nowait()
            except queue.Empty:
                break
            self.companion.handle(item)
        for press in self.companion.decoder.poll(self.clock()):
            self.companion.press(press)

    def _push(self, shot: Shot, dt: float) -> None:
        self.eyes.remember(shot)
        self.camera.push(shot.image, self.clock.advance(dt))
        self.report.frames += 1

    def _film(self, clip: Clip) -> None:
        """Push a clip, then still frames until the gate has settled and decided."""
        for shot in clip.motion:
            self._push(shot, 1 / FPS)
        self._push(clip.still, 1 / FPS)
        self._push(clip.still, self.config.gate.settle + 0.05)
        for _ in range(8):
            if not self.camera.wait():
                raise RuntimeError("the camera thread stopped taking frames")
            if self.watcher.gate.state == "still":
                break
            self._push(clip.still, 1 / FPS)
        self._drain()

    def _press(self, button: str) -> None:
        pin = self.panel.buttons[button].pin
        pin.drive_low()
        self.clock.advance(0.12)
        pin.drive_high()
        self.clock.advance(0.1)
        self._drain()

    # -- one move, checked ----------------------------------------------------------------------------
    def perform(self, move: Move) -> list[dict]:
        """Carry out ``move``; return the announcements of the input it meant (after any fix)."""
        if move.kind == "hand":
            return self._scan_hand(move)
        self._updates.clear()
        twin = False
        if move.channel == CAMERA:
            twin = move.kind == "play" and move.card == self.scene.top
            self._film(self.scene.drop(move.card))
        elif move.channel == BUTTON:
            self._press(move.button)
        else:
            self.companion.submit(move.expect, source="host")
        got = [u["event"] for u in self._mine()]
        if move.channel == CAMERA:
            self.report.plays_seen += 1
        if twin and not got:
            out = self._answer_twin(move)
            if out is not None:
                return out
        if got == [move.expect]:
            if move.channel == CAMERA:
                self.report.plays_right += 1
            return list(self._mine()[0]["announcements"])
        return self._fix(move, got, twin=twin)

    def _answer_twin(self, move: Move) -> list[dict] | None:
        """A card put on its twin: the camera asks "Was another red 7 played?" and the host
        answers on the page ("It was red 7": the same input that button sends). None when the
        camera did not ask (the card lay exactly where its twin lay)."""
        q = self.companion.question
        card = str(move.card)
        if not q or q.get("reason") != SAME_CARD or card not in q["candidates"]:
            return None
        self.say(f"  [camera] {q.get('text')} The host answers: It was {card}")
        self.companion.submit({move.kind: card}, source="host")
        self.report.twins.append({"card": card, "how": "asked"})
        mine = self._mine()
        return list(mine[-1]["announcements"]) if mine else []

    def _scan_hand(self, move: Move) -> list[dict]:
        """End of round: the player spreads the cards left under the camera (the pile gathered
        first); the Companion's hand scan reads them. A hand too big to spread readably, or
        read wrong, is entered by the host as on the page."""
        cards = list(self.cards.hands[move.player])
        if not 0 < len(cards) <= MAX_SPREAD:
            self.report.hands_entered += 1
            self._updates.clear()
            self.companion.submit(move.expect, source="host")
            mine = self._mine()
            return list(mine[-1]["announcements"]) if mine else []
        if not self.scene.empty:
            self._quiet_film(self.scene.clear(), "(pile gathered)")
        self._updates.clear()
        self._film(self.scene.spread(cards))
        got = [u["event"] for u in self._mine()]
        self.report.hands_seen += 1
        if len(got) == 1 and _as_multiset(got[0]) == _as_multiset(move.expect):
            self.report.hands_right += 1
            out = list(self._mine()[0]["announcements"])
        else:
            out = self._fix(move, got)
        self._quiet_film(self.scene.pick_up(), "(cards picked up)")
        return out

    def _quiet_film(self, clip: Clip, what: str) -> None:
        """Film a change that is no referee input (gathering the pile, picking cards up); undo
        whatever the camera made of it."""
        self._updates.clear()
        self._film(clip)
        for u in self._mine()[::-1]:
            self.report.camera_fixes.append({"card": what, "got": _describe(u["event"]), "twin": False})
            self.table.submit({"undo": True}, source="host")
        self._updates.clear()

    def _mine(self) -> list[dict]:
        """The referee inputs of this move (not the page's pause/resume or the host's own)."""
        return [u for u in self._updates if u["source"] in ("camera", "button", "host")
                and not ({"pause", "resume"} & set(u["event"]))]

    def _fix(self, move: Move, got: list[dict], *, twin: bool = False) -> list[dict]:
        """The host puts right what the camera (or a button) got wrong: undo what it caused, then
        enter what really happened, as the page's "fix misread card" does."""
        what = ", ".join(_describe(e) for e in got) or "nothing"
        if move.channel == CAMERA or move.kind == "hand":
            question = self.companion.question
            if not got and question:
                what = f"a question ({question['reason']}; {', '.join(question['candidates']) or 'no guess'})"
            name = f"{move.player}'s hand" if move.kind == "hand" else str(move.card)
            self.report.camera_fixes.append({"card": name, "got": what, "twin": twin})
            if twin:
                self.report.twins.append({"card": name, "how": "entered"})
            why = " (on its twin, exactly where the twin lay: the gate takes it for the pile nudged)" if twin else ""
            self.say(f"  [camera] {name} {'spread' if move.kind == 'hand' else 'landed'}; the referee got "
                     f"{what}{why}: the host enters it")
        else:
            self.report.disagreements.append(f"{move.text}: expected {move.expect}, the referee got {what}")
            log.error("%s: expected %s, got %s", move.text, move.expect, what)
        for _ in got:
            self.table.submit({"undo": True}, source="host")
        self._updates.clear()
        self.companion.submit(move.expect, source="host")
        if move.channel == CAMERA and move.kind != "hand":
            self.watcher.set_top(self.scene.top)
        mine = self._mine()
        return list(mine[-1]["announcements"]) if mine else []

    def take_back(self) -> None:
        """A card goes back off the pile; the referee must not hear of it as a play."""
        self._updates.clear()
        self._film(self.scene.take_back())
        for u in self._mine()[::-1]:
            self.report.camera_fixes.append({"card": "(card taken back)", "got": _describe(u["event"]), "twin": False})
            self.table.submit({"undo": True}, source="host")
        self.watcher.set_top(self.scene.top)

    # -- the game ---------------------------------------------------------------------------------------
    def play(self) -> Report:
        """Play until the game is over (or the rounds asked for are done)."""
        t0 = time.monotonic()
        self.watcher.start(self.events.put)
        self._push(self.scene.still(), 0)          # the empty table: the gate's first look
        self._push(self.scene.still(), 1 / FPS)
        self.camera.wait()
        setup = self.config.setup()
        self._updates.clear()
        if self.table.history():
            self.table.new_game(setup)
        else:
            self.companion.submit({"setup": setup}, source="host")
        self._after(Move("setup", None, "host"), [a for u in self._updates for a in u["announcements"]])
        stuck, last = 0, None
        while True:
            snap = self.table.snapshot()
            if snap["phase"] == "over":
                break
            if self.rounds_limit and len(self.report.rounds) >= self.rounds_limit:
                break
            if self.table.paused:            # the host paused the game on the page: the bots wait
                self._wait_for_resume()
                continue
            key = (snap["seq"], str(snap["awaiting"]))
            stuck = stuck + 1 if key == last else 0
            last = key
            if stuck > 5:
                raise RuntimeError(f"the demo is stuck: the referee waits for {snap['awaiting']}")
            move = self.bots.decide(snap)
            self._step(move)
            if move.kind == "play":
                follow = self.bots.after_play(move.player)
                if follow is not None:
                    self._step(follow)
                elif self.bots.script.forgot == move.player and len(self.cards.hands[move.player]) == 1:
                    self.say(f"  ({move.player} forgets to call UNO)")
        snap = self.table.snapshot()
        self.report.scores = dict(snap["scores"])
        self.report.game_winner = snap["game_winner"]
        self.report.seconds = time.monotonic() - t0
        return self.report

    def _wait_for_resume(self) -> None:
        self.say("(paused on the page: the bots wait until the host resumes)")
        while self.table.paused:
            time.sleep(0.2)
        self.say("(resumed)")

    def _step(self, move: Move) -> None:
        self.report.moves += 1
        if move.mistake in ("illegal", "bluff"):
            self.say(f"  ({move.text})")
        out = self.perform(move)
        self._after(move, out)
        if self.pace:
            time.sleep(self.pace if move.channel == CAMERA else self.pace / 3)

    def _after(self, move: Move, out: list[dict]) -> None:
        """Follow the referee's announcements with the real cards; check the scripted mistakes
        and the counts; end of round bookkeeping."""
        types = [a["type"] for a in out]
        for a in out:
            if a["type"] == "deal":
                self._deal()
                continue
            self.cards.follow(a)
            if a["type"] not in QUIET:
                self.say(a.get("text", a["type"]))
        if move.kind == "play" and "illegal_play" in types:
            self.take_back()
        if move.kind == "start" and any(a["type"] == "redraw" and a.get("returned") for a in out):
            self.take_back()
        self._judge(move, out)
        if "round_over" in types:
            self._round_over(next(a for a in out if a["type"] == "round_over"))
        self._check_counts(move)
        if self.progress:
            self.progress(self.status())

    def _deal(self) -> None:
        snap = self.table.snapshot()
        if snap["round"] > 1 and not self.scene.empty:
            self._film(self.scene.clear())
        players = [p for p in snap["players"] if p not in snap["eliminated"]]
        self.cards.deal(players, self.rules.hand_size)
        self.say(f"Round {snap['round']}: {snap['dealer']} deals {self.rules.hand_size} cards each")

    def _judge(self, move: Move, out: list[dict]) -> None:
        types = [a["type"] for a in out]
        kind = move.mistake
        if kind == "illegal":
            self._mistake(kind, move, "illegal_play" in types, "the referee calls the illegal card")
        elif kind == "forgot_uno":
            self._mistake(kind, move, "caught" in types, "the referee gives the UNO penalty")
        elif move.kind == "verdict" and self.bots.script.bluffed and not self.bots.script.bluffed.get("judged"):
            self.bots.script.bluffed["judged"] = True
            guilty = any(a["type"] == "challenge" and a.get("result") == "guilty" for a in out)
            bluff = Move("play", self.bots.script.bluffed["player"], CAMERA, text=self.bots.script.bluffed["text"])
            self._mistake("bluff", bluff, guilty, "the challenge is won, the bluffer draws 4")

    def _mistake(self, kind: str, move: Move, ok: bool, expected: str) -> None:
        self.report.mistakes.append({"kind": kind, "player": move.player, "text": move.text,
                                     "expected": expected, "ok": ok})
        if not ok:
            log.error("scripted mistake %s: expected %s", kind, expected)

    def _round_over(self, a: dict) -> None:
        snap = self.table.snapshot()
        winner = self.cards.went_out
        points = sum(self.cards.points(p) for p in self.cards.hands if p != winner)
        if winner:
            self.report.truth_scores[winner] += points
        r = {"round": len(self.report.rounds) + 1, "winner": winner, "referee_winner": a.get("winner"),
             "points": points, "referee_points": a.get("points"), "scores": dict(snap["scores"]),
             "truth_scores": dict(self.report.truth_scores)}
        r["ok"] = (winner == r["referee_winner"] and points == r["referee_points"]
                   and r["scores"] == r["truth_scores"])
        self.report.rounds.append(r)
        if not r["ok"]:
            self.report.disagreements.append(f"round {r['round']}: cards say {winner} +{points}, "
                                             f"referee says {r['referee_winner']} +{r['referee_points']}")

    def _check_counts(self, move: Move) -> None:
        snap = self.table.snapshot()
        if snap["phase"] not in ("turn", "scoring"):
            return
        real = self.cards.counts()
        ref = {p: n for p, n in snap["hand_counts"].items() if p in real}
        if ref != real:
            self.report.disagreements.append(f"after '{move.text}': referee counts {ref}, real hands {real}")
            log.error("hand counts differ after %r: referee %s, real %s", move.text, ref, real)
        if snap["pile"] != [str(c) for c in self.cards.pile]:
            self.report.disagreements.append(f"after '{move.text}': referee's pile ends "
                                             f"{snap['pile'][-3:]}, the real pile {[str(c) for c in self.cards.pile[-3:]]}")
        if snap["draw_pile"] != len(self.cards.draw):
            self.report.disagreements.append(f"after '{move.text}': referee's draw pile {snap['draw_pile']}, "
                                             f"real {len(self.cards.draw)}")

    def status(self) -> dict:
        snap = self.table.snapshot()
        return {"round": snap["round"], "moves": self.report.moves, "frames": self.report.frames,
                "plays": self.report.plays_seen, "right": self.report.plays_right,
                "scores": snap["scores"], "counts": snap["hand_counts"]}

    def close(self) -> None:
        self._unsubscribe()
        self.camera.end()
        self.watcher.stop()
        self.watcher.join(5)
        for dev in (self.panel, self.leds, self.buzzer):
            try:
                dev.close()
            except Exception:
                log.debug("closing %r failed", dev, exc_info=True)


def _describe(event: dict) -> str:
    return ", ".join(f"{k} {v}" if v is not True else k for k, v in event.items())


def _as_multiset(event: dict) -> dict:
    """A hand event with its cards sorted: a spread hand has no order (the camera reads it by
    position, the bots hold it in the order dealt)."""
    hand = event.get("hand")
    if not isinstance(hand, dict):
        return event
    return {**event, "hand": {**hand, "cards": sorted(hand.get("cards", []))}}
