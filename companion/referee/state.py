"""The referee's state: seats, pile, turn, and what it waits for. Plain data plus small helpers.

The Pi never sees a hand, so a `Seat` holds a card *count*; the discard pile is known card by
card (every card on it was seen), the draw pile is a count. Cards are conserved:
``sum(seat.cards) + len(pile) + draw_pile == len(deck)`` at every moment of a round.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, DeckProfile, deck as deck_profile
from ..rules import Rules

CLOCKWISE, COUNTERCLOCKWISE = 1, -1


@dataclass
class Seat:
    """One player at the table: a name, how many cards they hold, their score."""

    name: str
    cards: int = 0
    score: int = 0
    eliminated: bool = False


@dataclass
class Step:
    """Something the referee waits for (``kind`` names the input) or does next on its own.

    Input kinds: color, target, challenge_or_accept, stack_or_accept, verdict, reveal.
    Automatic kinds: advance (end the turn of ``player``), effect (a named effect hook).
    """

    kind: str
    player: int | None = None
    purpose: str = ""
    data: dict = field(default_factory=dict)


INPUT_STEPS = ("color", "target", "challenge_or_accept", "stack_or_accept", "verdict", "reveal")


@dataclass
class State:
    """The whole game; `Referee` owns one and the rule modules change it in place."""

    phase: str = "setup"          # setup | start | turn | scoring | between | over
    seats: list[Seat] = field(default_factory=list)
    dealer: int = 0
    deck: DeckProfile | None = None
    rules: Rules = field(default_factory=Rules)
    round: int = 0
    current: int | None = None
    direction: int = CLOCKWISE
    top: Card | None = None
    color: str | None = None
    pile: list[Card] = field(default_factory=list)
    draw_pile: int = 0
    steps: list[Step] = field(default_factory=list)
    drew: int = 0                  # cards the current player drew by choice this turn
    pending_draw: int = 0
    pending_cards: list[str] = field(default_factory=list)   # the draw cards stacked so far
    precalled: int | None = None   # called UNO while holding two cards, before playing
    must_call: int | None = None
    can_be_caught: int | None = None
    uno_sayer: int | None = None   # who last called UNO (UNO Seinfeld "No UNO For You!")
    last_attack: dict | None = None  # the last action card against a player ("It's Not You, It's Me")
    third_person: bool = False
    interrupted: int | None = None   # whose turn goes on after an out-of-turn card
    round_winner: int | None = None
    game_winner: int | None = None
    rounds: list[dict] = field(default_factory=list)
    round_penalties: dict[str, int] = field(default_factory=dict)
    scoring_hands: dict[str, int] = field(default_factory=dict)
    scoring_needed: list[int] = field(default_factory=list)
    out: list[dict] = field(default_factory=list)   # announcements of the input being applied
    log: list[dict] = field(default_factory=list)   # announcements of every effective input

    # --- seats and turns -------------------------------------------------------------------
    def index(self, name: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.name == name:
                return i
        return None

    def name(self, i: int | None) -> str | None:
        return None if i is None else self.seats[i].name

    def active(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.eliminated]

    def next_seat(self, i: int, steps: int = 1, direction: int | None = None) -> int:
        """The active seat ``steps`` places after seat ``i`` in ``direction`` (default: play's)."""
        d = self.direction if direction is None else direction
        n = len(self.seats)
        for _ in range(steps):
            i = (i + d) % n
            while self.seats[i].eliminated:
                i = (i + d) % n
        return i

    def two_players(self) -> bool:
        return len(self.active()) == 2

    def partner(self, i: int) -> int | None:
        return (i + 2) % 4 if self.rules.partners else None

    # --- announcements ---------------------------------------------------------------------
    def say(self, type_: str, text: str, **fields: Any) -> dict:
        a = {"type": type_, "text": text, **fields}
        self.out.append(a)
        return a

    # --- the physical cards ----------------------------------------------------------------
    def take_cards(self, i: int, n: int, *, reason: str | None = None) -> int:
        """Seat ``i`` takes ``n`` cards from the draw pile (reshuffling the discards if needed).

        With a ``reason`` it is a penalty and announced as one. Returns the cards actually taken.
        """
        if self.draw_pile < n and len(self.pile) > 1:
            moved = len(self.pile) - 1
            self.draw_pile += moved
            self.pile = self.pile[-1:]
            self.say("reshuffled", f"Draw pile empty: shuffle the {moved} discards under the top card "
                     "into a new draw pile", cards=moved)
        k = min(n, self.draw_pile)
        self.draw_pile -= k
        self.seats[i].cards += k
        if reason is not None:
            name = self.seats[i].name
            self.round_penalties[name] = self.round_penalties.get(name, 0) + k
            self.say("penalty", f"{name} draws {k} ({reason})", player=name, cards=k, reason=reason)
        if k < n:
            self.say("deck_exhausted", f"Only {k} of {n} cards were left to draw", missing=n - k)
        if self.seats[i].cards > 1 and self.must_call == i:
            self.must_call = self.can_be_caught = None
        return k

    def copies_on_pile(self, card: Card) -> int:
        return sum(1 for c in self.pile if c == card)

    def copies_in_deck(self, card: Card) -> int:
        assert self.deck is not None
        if card.is_wild:
            n = self.deck.wilds.get(card.symbol)
            if n is None:   # the alternative printing of a wild (Shuffle Hands for Swap Hands)
                n = sum(self.deck.wilds.get(a, 0) for a, b in self.deck.alternatives.items() if b == card.symbol)
            return n
        return self.deck.per_color.get(card.symbol, 0) if card.color in self.deck.colors else 0

    def reset_for_deck(self, deck_name: str) -> None:
        self.deck = deck_profile(deck_name)
