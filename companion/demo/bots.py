"""The simulated players and the real cards they hold.

`TableCards` is the physical truth of the demo table: a shuffled deck profile, the draw pile,
the discard pile and every hand. It changes only as people at a real table would: a card put on
the pile, a card taken back, cards drawn when the referee says so (``follow``).

`Bots` decides what the player the referee waits for does next, by the same `Rules` and the
same legality tests as the referee (`companion.referee.legality`), with a few scripted mistakes
(`Script`): a forgotten UNO (caught by another player), a card that does not match, and a
bluffed Wild Draw Four (challenged). Each decision is a `Move`; the game loop carries it out
through the camera, a button or the host's page::

    >>> import random
    >>> cards = TableCards("classic", random.Random(1))
    >>> cards.deal(["Ann", "Ben"], 7)
    >>> len(cards.hands["Ann"]), len(cards.draw)
    (7, 94)
"""
from __future__ import annotations

import logging
import random
from collections import Counter
from dataclasses import dataclass

from companion.cards import Card, deck as deck_profile
from companion.panel import button_for_color
from companion.referee.legality import mismatch, wd4_guilty
from companion.rules import Rules

log = logging.getLogger(__name__)

# how each move reaches the referee
CAMERA, BUTTON, HOST = "camera", "button", "host"


@dataclass
class Move:
    """One thing a player (or the host) does. ``channel`` says how the referee learns of it;
    ``expect`` is the table input it must become; ``mistake`` names a scripted mistake."""

    kind: str
    player: str | None
    channel: str
    expect: dict | None = None
    card: Card | None = None
    button: str | None = None
    mistake: str | None = None
    text: str = ""


@dataclass
class Script:
    """The scripted mistakes still to make (each once, at its first chance)."""

    forget_uno: bool = True
    illegal: bool = True
    bluff: bool = True
    illegal_after: int = 6          # plays into the game before the illegal card
    forgot: str | None = None       # who forgot UNO and waits to be caught
    bluffed: dict | None = None     # the bluffed Wild Draw Four waiting for its challenge


class TableCards:
    """The real cards on the demo table (the referee never sees them, only the camera does)."""

    def __init__(self, deck_name: str, rng: random.Random):
        self.deck_name = deck_name
        self.profile = deck_profile(deck_name)
        self.rng = rng
        self.draw: list[Card] = []      # the top of the draw pile is the end of the list
        self.pile: list[Card] = []
        self.hands: dict[str, list[Card]] = {}
        self.color: str | None = None   # the colour in force, as the players know it
        self.color_before: str | None = None   # before the last wild draw four
        self.went_out: str | None = None

    def deal(self, players: list[str], hand_size: int) -> None:
        """Shuffle the whole deck and deal ``hand_size`` cards to each of ``players``."""
        cards = self.profile.cards()
        self.rng.shuffle(cards)
        self.draw, self.pile, self.color, self.went_out = cards, [], None, None
        self.hands = {p: [] for p in players}
        for _ in range(hand_size):
            for p in players:
                self.hands[p].append(self.draw.pop())

    def take(self, name: str, n: int) -> None:
        for _ in range(n):
            if not self.draw:
                log.error("the real draw pile is empty: %s cannot draw", name)
                return
            self.hands[name].append(self.draw.pop())

    def follow(self, a: dict) -> None:
        """Do what an announcement tells the table to do with the real cards."""
        t = a.get("type")
        if t == "reshuffled":
            moved, self.pile = self.pile[:-1], self.pile[-1:]
            self.rng.shuffle(moved)
            self.draw = moved + self.draw
        elif t in ("penalty", "drew"):
            self.take(a["player"], int(a["cards"]))
        elif t == "played":
            card = Card.parse(a["card"])
            hand = self.hands[a["player"]]
            if card in hand:
                hand.remove(card)
            else:
                log.error("%s does not hold %s", a["player"], card)
            self.pile.append(card)
            if card.symbol == "wild_draw_four":
                self.color_before = self.color
            self.color = None if card.is_wild else card.color
            if not hand:
                self.went_out = a["player"]
        elif t == "start":
            self.pile.append(self.draw.pop())
            top = self.pile[-1]
            self.color = None if top.is_wild else top.color
        elif t == "redraw" and a.get("returned"):
            c = self.pile.pop()
            self.draw.insert(self.rng.randrange(len(self.draw) + 1), c)
        elif t == "color_named":
            self.color = a["color"]

    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def counts(self) -> dict[str, int]:
        return {p: len(h) for p, h in self.hands.items()}

    def points(self, name: str) -> int:
        return sum(c.points for c in self.hands[name])


class Bots:
    """Decides the next `Move` from what the referee waits for and the real cards."""

    def __init__(self, cards: TableCards, rules: Rules, rng: random.Random, script: Script | None = None,
                 *, challenge_rate: float = 0.2):
        self.cards, self.rules, self.rng = cards, rules, rng
        self.script = script or Script()
        self.challenge_rate = challenge_rate
        self.plays = 0

    # -- helpers ---------------------------------------------------------------------------------
    def playable(self, name: str, snap: dict) -> list[Card]:
        top, color = self.cards.top, self.cards.color
        return [c for c in self.cards.hands[name] if mismatch(c, top=top, color=color) is None]

    def favourite_color(self, name: str) -> str:
        counts = Counter(c.color for c in self.cards.hands[name] if not c.is_wild)
        if counts:
            return counts.most_common(1)[0][0]
        return self.rng.choice(self.cards.profile.colors)

    def _bluffing(self, name: str, card: Card) -> bool:
        rest = list(self.cards.hands[name])
        rest.remove(card)
        return wd4_guilty(rest, self.cards.color, wilds_match=self.rules.wd4_wilds_match)

    # -- the decision ------------------------------------------------------------------------------
    def decide(self, snap: dict) -> Move:
        aw = snap.get("awaiting") or {}
        need, who = aw.get("input"), aw.get("player")
        if need == "start":
            card = self.cards.draw[-1]
            return Move("start", who, CAMERA, {"start": str(card)}, card=card,
                        text=f"{who} turns up the first card")
        if need == "new_round":
            return Move("new_round", None, HOST, {"new_round": True}, text="the host starts the next round")
        if need == "hand":
            cards = [str(c) for c in self.cards.hands[who]]
            return Move("hand", who, CAMERA, {"hand": {"player": who, "cards": cards}},
                        text=f"{who} spreads the cards left under the camera")
        if need == "color":
            color = self.favourite_color(who)
            button = button_for_color(color, self.cards.deck_name)     # by position: any deck
            return Move("color", who, BUTTON, {"color": color}, button=button, text=f"{who} presses {color}")
        if need == "challenge_or_accept":
            return self._answer_wd4(snap, who)
        if need == "stack_or_accept":
            return Move("accept", who, BUTTON, {"accept": True}, button="draw", text=f"{who} takes the cards")
        if need == "verdict":
            return self._verdict(who)
        if need == "target":
            target = self.rng.choice([o for o in aw.get("options") or [] if o != who] or aw["options"])
            return Move("target", who, HOST, {"target": target}, text=f"{who} chooses {target}")
        if need == "reveal":
            cards = [str(c) for c in self.cards.hands[who]]
            return Move("reveal", who, HOST, {"reveal": cards}, text=f"{who} shows the hand")
        if need == "play":
            return self._turn(snap, who, aw)
        raise ValueError(f"the bots cannot answer {aw!r}")

    def _answer_wd4(self, snap: dict, victim: str) -> Move:
        s = self.script
        if s.bluffed and s.bluffed.get("victim") is None:
            s.bluffed["victim"] = victim
            return Move("challenge", victim, BUTTON, {"challenge": True}, button="challenge",
                        text=f"{victim} challenges the Wild Draw Four")
        if self.rng.random() < self.challenge_rate:
            return Move("challenge", victim, BUTTON, {"challenge": True}, button="challenge",
                        text=f"{victim} challenges the Wild Draw Four")
        return Move("accept", victim, BUTTON, {"accept": True}, button="draw",
                    text=f"{victim} takes the four cards")

    def _verdict(self, player: str) -> Move:
        """The challenger looks at the hand of the Wild Draw Four's player and presses red
        (guilty: a card of the colour in force before it was held) or green (innocent)."""
        guilty = wd4_guilty(self.cards.hands[player], self.cards.color_before, wilds_match=self.rules.wd4_wilds_match)
        verdict = "guilty" if guilty else "innocent"
        return Move("verdict", player, BUTTON, {"verdict": verdict}, button="red" if guilty else "green",
                    text=f"{player} shows the hand: {verdict}")

    def _turn(self, snap: dict, who: str, aw: dict) -> Move:
        s = self.script
        caught = (snap.get("uno") or {}).get("can_be_caught")
        if s.forgot and caught != s.forgot:      # the chance to catch went by: forget again later
            s.forgot, s.forget_uno = None, True
        if caught and caught == s.forgot:
            catcher = who if who != caught else next(p for p in snap["players"] if p != caught)
            s.forgot = None
            return Move("catch", catcher, BUTTON, {"catch": True}, button="catch",
                        text=f"{catcher} spots that {caught} did not call UNO", mistake="forgot_uno")
        hand = self.cards.hands[who]
        legal = self.playable(who, snap)
        drew = "pass" in (aw.get("options") or [])
        if drew:
            if self.rules.after_draw == "drawn_only":
                legal = [c for c in legal if c is hand[-1] or c == hand[-1]][:1]
            if legal:
                return self._play(who, legal[0])
            if self.rules.draw == "until_playable" and self.cards.draw:
                return Move("draw", who, BUTTON, {"draw": 1}, button="draw", text=f"{who} draws again")
            return Move("pass", who, BUTTON, {"pass": True}, button="pass", text=f"{who} passes")
        if s.illegal and self.plays >= s.illegal_after and len(hand) > 2:
            wrong = [c for c in hand if not c.is_wild and mismatch(c, top=self.cards.top, color=self.cards.color)]
            if wrong:
                s.illegal = False
                card = self.rng.choice(wrong)
                return Move("play", who, CAMERA, {"play": str(card)}, card=card, mistake="illegal",
                            text=f"{who} puts down {card}, which does not match")
        if s.bluff and len(hand) > 2:
            wd4 = next((c for c in hand if c.symbol == "wild_draw_four"), None)
            if wd4 is not None and self._bluffing(who, wd4):
                s.bluff = False
                text = f"{who} bluffs a Wild Draw Four while holding {self.cards.color}"
                s.bluffed = {"player": who, "victim": None, "text": text}
                return Move("play", who, CAMERA, {"play": str(wd4)}, card=wd4, mistake="bluff", text=text)
        honest = [c for c in legal if c.symbol != "wild_draw_four" or not self._bluffing(who, c)]
        if not honest:
            return Move("draw", who, BUTTON, {"draw": 1}, button="draw", text=f"{who} draws")
        return self._play(who, self._choose(honest))

    def _choose(self, cards: list[Card]) -> Card:
        """Colour matches first (action cards before numbers), wilds last; a little chance."""
        plain = [c for c in cards if not c.is_wild]
        if plain:
            plain.sort(key=lambda c: (-c.points, str(c)))
            return plain[0] if self.rng.random() < 0.7 else self.rng.choice(plain)
        return self.rng.choice(cards)

    def _play(self, who: str, card: Card) -> Move:
        self.plays += 1
        return Move("play", who, CAMERA, {"play": str(card)}, card=card, text=f"{who} plays {card}")

    def after_play(self, who: str) -> Move | None:
        """Down to one card: call UNO (press the UNO button), unless this is the forgotten call."""
        if len(self.cards.hands.get(who, ())) != 1:
            return None
        s = self.script
        if s.forget_uno:
            s.forget_uno = False
            s.forgot = who
            return None
        return Move("uno", who, BUTTON, {"uno": True}, button="uno", text=f"{who} calls UNO")
