"""Reading table inputs: plain dicts in, a checked `Input` out, or `InputError`.

This is the only place that judges the *form* of an input; whether it is legal at this moment
is the referee's business (and an announcement, never an exception)::

    >>> parse({"play": "red 7", "player": "Ben"}).card
    Card(color='red', symbol='7')
    >>> parse({"play": "purple 12"})
    Traceback (most recent call last):
    ...
    companion.referee.inputs.InputError: play: cannot read card 'purple 12': ...
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, CardError, all_colors, deck_names
from ..rules import Rules, RulesError

KINDS = ("setup", "start", "play", "color", "draw", "pass", "uno", "catch", "challenge", "accept",
         "verdict", "reveal", "hand", "points", "target", "undo", "new_round")
EXTRAS = {"play": {"color", "player", "target"}}
VERDICTS = {"guilty": True, "innocent": False, "failed": True, "done": False}


class InputError(ValueError):
    """An input the referee cannot read (bad shape, unknown key, unknown card or colour)."""


@dataclass(frozen=True)
class Input:
    """One checked table input. ``raw`` is the dict as given (what the event log stores)."""

    kind: str
    raw: dict = field(compare=False)
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    color: str | None = None
    player: str | None = None
    target: str | None = None
    number: int | None = None
    flag: bool | None = None
    setup: dict | None = None


def _name(key: str, v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise InputError(f"{key}: expected a player's name, got {v!r}")
    return v.strip()


def _card(key: str, v: Any) -> Card:
    try:
        return Card.parse(v)
    except CardError as exc:
        raise InputError(f"{key}: {exc}") from None


def _color(key: str, v: Any) -> str:
    if not isinstance(v, str) or v.strip().lower() not in all_colors():
        raise InputError(f"{key}: {v!r} is not a colour (one of {', '.join(all_colors())})")
    return v.strip().lower()


def _true(key: str, v: Any) -> None:
    if v is not True:
        raise InputError(f"{key}: expected true, got {v!r}")


def _cards(key: str, v: Any) -> tuple[Card, ...]:
    if not isinstance(v, list):
        raise InputError(f"{key}: expected a list of cards, got {v!r}")
    return tuple(_card(key, c) for c in v)


def parse_setup(v: Any) -> dict:
    """Check a setup table; return it normalised (players, dealer, deck, rules as a dict)."""
    if not isinstance(v, dict):
        raise InputError(f"setup: expected an object, got {v!r}")
    unknown = set(v) - {"players", "dealer", "deck", "rules"}
    if unknown:
        raise InputError(f"setup.{sorted(unknown)[0]}: unknown key (known: players, dealer, deck, rules)")
    players = v.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 10:
        raise InputError("setup.players: expected a list of 2 to 10 names, listed clockwise")
    players = [_name("setup.players", p) for p in players]
    if len(set(players)) != len(players):
        raise InputError("setup.players: two players have the same name")
    dealer = v.get("dealer", players[-1])
    dealer = _name("setup.dealer", dealer)
    if dealer not in players:
        raise InputError(f"setup.dealer: {dealer!r} is not one of the players")
    deck = v.get("deck", "classic")
    if deck not in deck_names():
        raise InputError(f"setup.deck: unknown deck {deck!r}; choose one of {', '.join(deck_names())}")
    try:
        rules = Rules.from_dict(v.get("rules") or {}, deck=deck)
    except RulesError as exc:
        raise InputError(f"setup.{exc}") from None
    if rules.partners and len(players) != 4:
        raise InputError("setup.rules.partners: partners need exactly four players")
    return {"players": players, "dealer": dealer, "deck": deck, "rules": rules}


def parse(event: Any) -> Input:
    """Check one input dict; raise `InputError` naming the problem."""
    if not isinstance(event, dict):
        raise InputError(f"an input is a JSON object like {{\"play\": \"red 7\"}}, got {event!r}")
    kinds = ["play"] if "play" in event else [k for k in event if k in KINDS]
    if len(kinds) != 1:
        what = "no" if not kinds else "more than one"
        raise InputError(f"{what} input key in {event!r}; expected one of {', '.join(KINDS)}")
    kind = kinds[0]
    extra = set(event) - {kind} - EXTRAS.get(kind, set())
    if extra:
        raise InputError(f"{kind}: unexpected key {sorted(extra)[0]!r}")
    v = event[kind]
    raw = dict(event)
    if kind == "setup":
        return Input(kind, raw, setup=parse_setup(v))
    if kind == "start":
        return Input(kind, raw, card=_card(kind, v))
    if kind == "play":
        return Input(kind, raw, card=_card(kind, v),
                     color=_color("color", event["color"]) if event.get("color") is not None else None,
                     player=_name("player", event["player"]) if event.get("player") is not None else None,
                     target=_name("target", event["target"]) if event.get("target") is not None else None)
    if kind == "color":
        return Input(kind, raw, color=_color(kind, v))
    if kind == "draw":
        if v is True:
            v = 1
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 200:
            raise InputError(f"draw: expected a number of cards (1 or more), got {v!r}")
        return Input(kind, raw, number=v)
    if kind in ("pass", "challenge", "accept", "undo", "new_round"):
        _true(kind, v)
        return Input(kind, raw)
    if kind in ("uno", "catch"):
        if v is True:
            return Input(kind, raw)
        return Input(kind, raw, player=_name(kind, v))
    if kind == "verdict":
        if v not in VERDICTS:
            raise InputError(f"verdict: expected one of {', '.join(VERDICTS)}, got {v!r}")
        return Input(kind, raw, flag=VERDICTS[v])
    if kind == "reveal":
        return Input(kind, raw, cards=_cards(kind, v))
    if kind == "hand":
        if not isinstance(v, dict) or set(v) != {"player", "cards"}:
            raise InputError("hand: expected {\"player\": NAME, \"cards\": [CARD, ...]}")
        return Input(kind, raw, player=_name("hand.player", v["player"]), cards=_cards("hand.cards", v["cards"]))
    if kind == "points":
        if not isinstance(v, dict) or set(v) != {"player", "points"}:
            raise InputError("points: expected {\"player\": NAME, \"points\": N}")
        n = v["points"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InputError(f"points.points: expected a whole number of points, got {n!r}")
        return Input(kind, raw, player=_name("points.player", v["player"]), number=n)
    if kind == "target":
        return Input(kind, raw, player=_name(kind, v))
    raise AssertionError(kind)  # pragma: no cover
