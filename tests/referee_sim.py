"""A whole simulated table for the property and differential tests: a real shuffled deck, real
hands, and random (seeded) players who send the referee only what a table can observe.

The simulator follows the referee's announcements for the cards the referee makes people draw
(penalties, reshuffles), and checks that the referee's counts match the real cards.
"""
from __future__ import annotations

import random

from companion.cards import Card, deck
from companion.referee import Referee
from companion.referee.legality import wd4_guilty


class Table:
    def __init__(self, seed: int, players: list[str], rules: dict | None = None, *, deck_name: str = "classic",
                 bluff: float = 0.2, mistakes: float = 0.03, forget_uno: float = 0.3):
        self.rng = random.Random(seed)
        self.players = players
        self.rules = rules or {}
        self.deck_name = deck_name
        self.bluff, self.mistakes, self.forget_uno = bluff, mistakes, forget_uno
        self.ref = Referee()
        self.inputs: list[dict] = []
        self.hands: dict[str, list[Card]] = {}
        self.draw: list[Card] = []
        self.pile: list[Card] = []
        self.history: list[tuple[dict, list[dict], dict]] = []   # (input, announcements, snapshot after)

    # --- sending inputs -------------------------------------------------------------------------
    def send(self, event: dict) -> list[dict]:
        out = self.ref.apply(event)
        self.inputs.append(event)
        for a in out:
            self._follow(a)
        self.history.append((event, out, self.ref.snapshot()))
        return out

    def _take(self, name: str, n: int) -> None:
        for _ in range(n):
            self.hands[name].append(self.draw.pop())

    def _follow(self, a: dict) -> None:
        t = a["type"]
        if t == "reshuffled":
            moved, self.pile = self.pile[:-1], self.pile[-1:]
            self.rng.shuffle(moved)
            self.draw = moved + self.draw
        elif t == "penalty" or t == "drew":
            self._take(a["player"], a["cards"])
        elif t == "played":
            card = Card.parse(a["card"])
            self.hands[a["player"]].remove(card)
            self.pile.append(card)
        elif t == "redraw" and a["returned"]:
            c = self.pile.pop()
            self.draw.insert(self.rng.randrange(len(self.draw) + 1), c)

    # --- the game ---------------------------------------------------------------------------------
    def deal(self) -> None:
        cards = deck(self.deck_name).cards()
        self.rng.shuffle(cards)
        self.draw, self.pile = cards, []
        snap = self.ref.snapshot()
        self.hands = {p: [] for p in self.players}
        for p in self.players:
            if p not in snap["eliminated"]:
                self._take(p, snap["rules"]["hand_size"])

    def setup(self, dealer: str | None = None) -> None:
        self.send({"setup": {"players": self.players, "dealer": dealer or self.players[-1],
                             "deck": self.deck_name, "rules": self.rules}})
        self.deal()

    def check_counts(self) -> None:
        snap = self.ref.snapshot()
        real = {p: len(h) for p, h in self.hands.items()}
        assert snap["hand_counts"] == {p: real.get(p, 0) for p in self.players}, (snap["hand_counts"], real)
        assert snap["draw_pile"] == len(self.draw)
        assert snap["pile"] == [str(c) for c in self.pile]
        assert sum(snap["hand_counts"].values()) + len(snap["pile"]) + snap["draw_pile"] == len(deck(self.deck_name))

    def legal(self, name: str) -> list[Card]:
        return [c for c in self.hands[name] if self.ref.why_illegal(c) is None]

    def play(self, name: str, card: Card, *, out_of_turn: bool = False) -> list[dict]:
        ev: dict = {"play": str(card)}
        if out_of_turn:
            ev["player"] = name
        if card.is_wild:
            ev["color"] = self.rng.choice(deck(self.deck_name).colors)
        return self.send(ev)

    def step(self) -> bool:
        """Take one action; False when the game is over."""
        snap = self.ref.snapshot()
        aw = snap["awaiting"]
        rng = self.rng
        if aw is None:
            return False
        kind, who = aw["input"], aw["player"]
        if kind == "start":
            card = self.draw.pop()
            self.pile.append(card)
            self.send({"start": str(card)})
        elif kind == "new_round":
            self.send({"new_round": True})
            self.deal()
        elif kind == "color":
            self.send({"color": rng.choice(aw["options"])})
        elif kind == "hand":
            self.send({"hand": {"player": who, "cards": [str(c) for c in self.hands[who]]}})
        elif kind == "challenge_or_accept":
            stack = self.legal(who)
            if stack and rng.random() < 0.5:
                self.play(who, rng.choice(stack))
            else:
                self.send({"challenge": True} if rng.random() < 0.4 else {"accept": True})
        elif kind == "stack_or_accept":
            stack = self.legal(who)
            if stack and rng.random() < 0.7:
                self.play(who, rng.choice(stack))
            else:
                self.send({"accept": True})
        elif kind == "verdict":
            self.send({"reveal": [str(c) for c in self.hands[who]]})
        elif kind == "target":
            self.send({"target": rng.choice(aw["options"])})
        elif kind == "play":
            self._turn(who, snap)
        else:
            raise AssertionError(f"simulator cannot answer {aw}")
        return True

    def _turn(self, who: str, snap: dict) -> None:
        rng = self.rng
        hand = self.hands[who]
        if snap["uno"]["can_be_caught"] and rng.random() < 0.5:
            self.send({"catch": True})
            return
        if snap["uno"]["must_call"] and rng.random() < 0.3:
            self.send({"uno": snap["uno"]["must_call"]})
            return
        legal = self.legal(who)
        honest = [c for c in legal if c.symbol != "wild_draw_four"
                  or not wd4_guilty([x for x in hand if x is not c], snap["color"])]
        if "pass" in (snap["awaiting"]["options"] or []):
            if legal and rng.random() < 0.8:
                self._play_turn(who, rng.choice(legal))
            elif snap["rules"]["draw"] != "one" and not legal and snap["draw_pile"] + len(snap["pile"]) > 1:
                self.send({"draw": 1})
            else:
                self.send({"pass": True})
            return
        if rng.random() < self.mistakes and len(hand) > len(legal):
            bad = [c for c in hand if c not in legal]
            self.play(who, rng.choice(bad))
            return
        choices = legal if rng.random() < self.bluff else honest
        if choices and rng.random() < 0.9:
            self._play_turn(who, rng.choice(choices))
        elif snap["draw_pile"] + len(snap["pile"]) > 1:
            self.send({"draw": 1})
        elif choices:
            self._play_turn(who, rng.choice(choices))
        else:
            self.send({"draw": 1})

    def _play_turn(self, who: str, card: Card) -> None:
        if len(self.hands[who]) == 2 and self.rng.random() > self.forget_uno:
            self.send({"uno": who})
        self.play(who, card)


def play_game(seed: int, players=("Ann", "Ben", "Cat"), rules=None, *, max_steps: int = 3000,
              check=True, **kw) -> Table:
    t = Table(seed, list(players), dict(rules or {}), **kw)
    t.setup()
    for _ in range(max_steps):
        if check:
            t.check_counts()
        if not t.step():
            break
    return t
