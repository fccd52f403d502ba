"""Checking what the page and the API send before the referee sees it.

Every value is type-checked and length-bounded here, so a malformed request is a clear 400 and
never reaches the table as something it did not expect.
"""
from __future__ import annotations

import re
from typing import Any

from companion import cards

from .errors import BadInput

MAX_NAME = 24
MAX_PLAYERS = 10
MAX_POINTS = 100_000
MAX_DRAW = 50
_KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


def name(value: Any, what: str = "name") -> str:
    """A player's name: 1 to 24 printable characters."""
    if not isinstance(value, str):
        raise BadInput(f"{what}: write a name as text")
    v = " ".join(value.split())
    if not v:
        raise BadInput(f"{what}: a name cannot be empty")
    if len(v) > MAX_NAME:
        raise BadInput(f"{what}: at most {MAX_NAME} characters")
    if not v.isprintable():
        raise BadInput(f"{what}: only printable characters, please")
    return v


def card(value: Any, what: str = "card") -> str:
    if not isinstance(value, str) or len(value) > 40 or not value.isprintable():
        raise BadInput(f"{what}: write a card like 'red 7', 'blue skip' or 'wild draw four'")
    try:
        return str(cards.Card.parse(value))
    except ValueError as exc:
        raise BadInput(f"{what}: {exc}") from None


def color(value: Any, what: str = "color") -> str:
    ok = cards.all_colors()
    if not isinstance(value, str) or value.strip().lower() not in ok:
        raise BadInput(f"{what}: one of {', '.join(ok)}")
    return value.strip().lower()


def integer(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool):
        raise BadInput(f"{what}: a whole number from {lo} to {hi}")
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", value):
        value = int(value)
    if not isinstance(value, int) or not lo <= value <= hi:
        raise BadInput(f"{what}: a whole number from {lo} to {hi}")
    return value


def flag(value: Any, what: str) -> bool:
    if value is True or value in ("true", "on", "1", 1):
        return True
    raise BadInput(f"{what}: send true")


def _verdict(value: Any, what: str) -> str:
    if isinstance(value, str) and value.strip().lower() in VERDICTS:
        return value.strip().lower()
    raise BadInput(f"{what}: one of {', '.join(VERDICTS)}")


def _points(value: Any, what: str) -> dict:
    if not isinstance(value, dict) or set(value) != {"player", "points"}:
        raise BadInput(f"{what}: send {{\"player\": name, \"points\": number}}")
    return {"player": name(value.get("player"), f"{what}.player"),
            "points": integer(value.get("points"), f"{what}.points", 0, MAX_POINTS)}


def _draw(value: Any, what: str) -> int:
    if value is True:
        return 1
    return integer(value, what, 1, MAX_DRAW)


def _name_or_true(value: Any, what: str):
    return True if value is True else name(value, what)


def _cards(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or len(value) > 120:
        raise BadInput(f"{what}: a list of cards")
    return [card(c, what) for c in value]


def _hand(value: Any, what: str) -> dict:
    if not isinstance(value, dict) or set(value) != {"player", "cards"}:
        raise BadInput(f"{what}: send {{\"player\": name, \"cards\": [card, ...]}}")
    return {"player": name(value["player"], f"{what}.player"), "cards": _cards(value["cards"], what)}


VERDICTS = ("guilty", "innocent", "failed", "done")
MAX_REASON = 80


def _reason(value: Any, what: str):
    """Why the game is paused: true or a short text."""
    if value is True:
        return True
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{what}: true or a short reason")
    v = " ".join(value.split())
    if len(v) > MAX_REASON or not v.isprintable():
        raise BadInput(f"{what}: at most {MAX_REASON} printable characters")
    return v

# One checker per input the table takes (companion.referee.inputs.KINDS but setup, which has
# its own page, and pause/resume), and which extra keys may come with it.
INPUTS = {
    "start": (card, ()),
    "play": (card, ("color", "player", "target")),
    "color": (color, ()),
    "draw": (_draw, ()),
    "pass": (flag, ()),
    "uno": (_name_or_true, ()),
    "catch": (_name_or_true, ()),
    "challenge": (flag, ()),
    "accept": (flag, ()),
    "verdict": (_verdict, ()),
    "reveal": (_cards, ()),
    "hand": (_hand, ()),
    "points": (_points, ()),
    "target": (name, ()),
    "undo": (flag, ()),
    "new_round": (flag, ()),
    "pause": (_reason, ()),         # the table's own inputs (companion.table.TABLE_KINDS)
    "resume": (flag, ()),
}
EXTRAS = {"color": color, "player": name, "target": name}


def table_input(data: Any) -> dict:
    """A referee input ({"play": "red 7"}, {"draw": 1}, ...) checked and normalised."""
    if not isinstance(data, dict) or not data:
        raise BadInput("send a JSON object such as {\"play\": \"red 7\"}")
    main = ["play"] if "play" in data else [k for k in data if k in INPUTS]
    if len(main) != 1:
        raise BadInput(f"send exactly one input, one of: {', '.join(INPUTS)}")
    key = main[0]
    check, extras = INPUTS[key]
    out = {key: check(data[key], key)}
    for k in data:
        if k == key:
            continue
        if k not in extras:
            raise BadInput(f"{key!r} does not take {str(k)[:40]!r}")
        out[k] = EXTRAS[k](data[k], k)
    return out


def rule_options() -> list[dict]:
    """The rule options the setup page offers, with the official default of each."""
    from companion.rules import OPTIONS
    out = []
    for o in OPTIONS:
        kind = "int" if o.values is None else "bool" if isinstance(o.default, bool) else "choice"
        out.append({"name": o.name, "label": o.name.replace("_", " "), "help": o.help,
                    "default": o.default, "kind": kind,
                    "values": list(o.values or ()), "value_help": dict(o.value_help or {})})
    return out


def rules(value: Any, *, deck: str | None = None) -> dict:
    """Rule options: known names, each value of the right type (checked by ``companion.rules``)."""
    from companion.rules import Rules
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > 60:
        raise BadInput("rules: an object of rule options")
    out: dict[str, Any] = {}
    for k, v in value.items():
        if not isinstance(k, str) or not _KEY.match(k):
            raise BadInput("rules: option names are short lower-case words")
        if isinstance(v, int) and not isinstance(v, bool):
            v = integer(v, f"rules.{k}", 0, MAX_POINTS)
        elif isinstance(v, str):
            if len(v) > 40 or not v.isprintable():
                raise BadInput(f"rules.{k}: a short word")
        elif not isinstance(v, bool):
            raise BadInput(f"rules.{k}: a word, a number, true or false")
        out[k] = v
    try:
        Rules.from_dict(out, deck=deck)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    return out


def setup(data: Any) -> dict:
    """A new game's setup: players in seat order, dealer, deck, rule options."""
    if not isinstance(data, dict):
        raise BadInput("setup: send {\"players\": [...], \"dealer\": name, \"deck\": name}")
    unknown = set(data) - {"players", "dealer", "deck", "rules", "target_score", "episode"}
    if unknown:
        raise BadInput(f"setup: unknown field {str(sorted(map(str, unknown))[0])[:40]!r}")
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise BadInput(f"players: from 2 to {MAX_PLAYERS} names, in seat order")
    players = [name(p, f"player {i + 1}") for i, p in enumerate(players)]
    if len({p.casefold() for p in players}) != len(players):
        raise BadInput("players: every name must be different")
    out: dict[str, Any] = {"players": players}
    dealer = data.get("dealer")
    if dealer in (None, ""):
        dealer = players[-1]
    dealer = name(dealer, "dealer")
    match = [p for p in players if p.casefold() == dealer.casefold()]
    if not match:
        raise BadInput("dealer: one of the players")
    out["dealer"] = match[0]
    deck = data.get("deck", "classic")
    if not isinstance(deck, str) or deck not in cards.deck_names():
        raise BadInput(f"deck: one of {', '.join(cards.deck_names())}")
    out["deck"] = deck
    r = rules(data.get("rules"), deck=deck)
    if data.get("target_score") not in (None, ""):
        r["target_score"] = integer(data["target_score"], "target_score", 1, MAX_POINTS)
    if data.get("episode") not in (None, ""):
        r.update(rules({"seinfeld_episode": data["episode"]}))
    if r:
        out["rules"] = r
    return out
