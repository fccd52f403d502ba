"""Cards and deck profiles.

A `Card` is a small immutable value with a parser and a printable form::

    >>> Card.parse("yellow draw two")
    Card(color='yellow', symbol='draw_two')
    >>> str(Card.parse("Wild Draw 4"))
    'wild draw four'

Deck profiles (colours, kinds, counts, points) are data, read from ``data/decks.toml``.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

NUMBERS = tuple(str(n) for n in range(10))


class CardError(ValueError):
    """A card name that no deck profile knows."""


@lru_cache(maxsize=None)
def _data() -> dict:
    return tomllib.loads(resources.files("companion").joinpath("data/decks.toml").read_text())


@dataclass(frozen=True)
class Kind:
    symbol: str
    words: str
    points: int
    wild: bool
    effect: str | None


@lru_cache(maxsize=None)
def kinds() -> dict[str, Kind]:
    """Every card kind of every profile, by symbol ("7", "skip", "wild_draw_four", ...)."""
    out = {n: Kind(n, n, int(n), False, None) for n in NUMBERS}
    for sym, k in _data()["kinds"].items():
        if sym == "number":
            continue
        out[sym] = Kind(sym, k["words"], k["points"], k.get("wild", False), k.get("effect"))
    return out


ALIASES = {"draw 2": "draw two", "+2": "draw two", "draw 4": "draw four", "+4": "draw four",
           "wild +4": "wild draw four", "wild draw 4": "wild draw four", "wild four": "wild draw four",
           "wild draw4": "wild draw four"}


@dataclass(frozen=True, order=True)
class Card:
    """One UNO card: ``color`` is None for wilds (the colour named is not part of the card)."""

    color: str | None
    symbol: str

    def __post_init__(self):
        k = kinds().get(self.symbol)
        if k is None:
            raise CardError(f"unknown card symbol {self.symbol!r}")
        if k.wild and self.color is not None:
            raise CardError(f"{k.words} has no colour of its own (got {self.color!r})")
        if not k.wild and not self.color:
            raise CardError(f"{k.words} needs a colour")

    @property
    def kind(self) -> Kind:
        return kinds()[self.symbol]

    @property
    def is_wild(self) -> bool:
        return self.kind.wild

    @property
    def is_number(self) -> bool:
        return self.symbol in NUMBERS

    @property
    def points(self) -> int:
        return self.kind.points

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse "red 7", "blue skip", "yellow draw two", "wild", "wild draw four", "red_draw_two"."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"a card is written as text like 'red 7', got {text!r}")
        t = " ".join(text.lower().replace("_", " ").replace("-", " ").split())
        for a, b in ALIASES.items():
            if t.endswith(a):
                t = t[: len(t) - len(a)] + b
        by_words = {k.words: k.symbol for k in kinds().values()}
        if t in by_words and kinds()[by_words[t]].wild:
            return cls(None, by_words[t])
        color, _, rest = t.partition(" ")
        if rest in by_words and not kinds()[by_words[rest]].wild and color in all_colors():
            return cls(color, by_words[rest])
        raise CardError(f"cannot read card {text!r}: write it like 'red 7', 'blue skip', "
                        f"'yellow draw two', 'wild' or 'wild draw four'")

    def __str__(self) -> str:
        return self.kind.words if self.color is None else f"{self.color} {self.kind.words}"


@lru_cache(maxsize=None)
def all_colors() -> tuple[str, ...]:
    seen: list[str] = []
    for d in _data()["decks"].values():
        for c in d["colors"]:
            if c not in seen:
                seen.append(c)
    return tuple(seen)


@dataclass(frozen=True)
class DeckProfile:
    """A deck as data: its colours and how many of each card it holds."""

    name: str
    title: str
    colors: tuple[str, ...]
    per_color: dict = field(hash=False)
    wilds: dict = field(hash=False)
    alternatives: dict = field(hash=False, default_factory=dict)

    def cards(self, *, alternative: bool = False) -> list[Card]:
        """The full deck, one entry per physical card (``alternative`` swaps e.g. Swap for Shuffle Hands)."""
        out = [Card(c, s) for c in self.colors for s, n in self.per_color.items() for _ in range(n)]
        for s, n in self.wilds.items():
            sym = self.alternatives.get(s, s) if alternative else s
            out += [Card(None, sym)] * n
        return out

    def symbols(self) -> list[str]:
        """Every symbol this deck can show (both alternatives included)."""
        return list(self.per_color) + list(self.wilds) + list(self.alternatives.values())

    def has(self, card: Card) -> bool:
        if card.is_wild:
            return card.symbol in self.symbols()
        return card.color in self.colors and card.symbol in self.per_color

    def __len__(self) -> int:
        return len(self.cards())


@lru_cache(maxsize=None)
def deck(name: str) -> DeckProfile:
    """The deck profile called ``name`` ("classic", "classic112", "seinfeld")."""
    decks = _data()["decks"]
    if name not in decks:
        raise CardError(f"unknown deck {name!r}; choose one of {', '.join(decks)}")
    d = decks[name]
    return DeckProfile(name, d["title"], tuple(d["colors"]), dict(d["per_color"]), dict(d["wilds"]),
                       dict(d.get("alternatives", {})))


def deck_names() -> list[str]:
    return list(_data()["decks"])
