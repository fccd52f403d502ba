"""The rule options of a game: the official rules by default, every common dispute an option.

One frozen `Rules` value holds them all. Load it from a dict, TOML or JSON; an unknown key or a
bad value is an error that names the key::

    >>> Rules.from_dict({"stacking": "same", "uno_penalty": 4}).stacking
    'same'
    >>> Rules.from_dict({"stacking": "yes"})
    Traceback (most recent call last):
    ...
    companion.rules.RulesError: rules.stacking: 'yes' is not one of off, same, cross

Some editions change an official default (UNO Seinfeld turns action cards up as "ignored" and
counts wilds as matches when a Wild Draw Four is challenged); `Rules.from_dict(d, deck="seinfeld")`
starts from those edition defaults, and the keys given still win.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any


class RulesError(ValueError):
    """A rule option that does not exist or has a value it cannot take."""


@dataclass(frozen=True)
class Option:
    """One option: its allowed values (``None`` for a number), default, and a one-line meaning."""

    name: str
    values: tuple | None
    default: Any
    help: str
    value_help: dict | None = None


SEINFELD_EPISODES = ("serenity_now", "festivus", "elaine_dance", "third_person", "yada_yada",
                     "no_uno_for_you", "not_you_its_me", "spare_a_square")
CUSTOMIZABLE_EFFECTS = ("plain", "others_draw_two", "extra_turn", "next_dare_draw_three")

OPTIONS: tuple[Option, ...] = (
    Option("stacking", ("off", "same", "cross"), "off",
           "answer a draw card with a draw card and pass the total on: same = Draw Two on Draw Two and "
           "Wild Draw Four on Wild Draw Four, cross = mixed; the last victim draws the total"),
    Option("draw", ("one", "until_playable"), "one",
           "a player who does not play draws one card, or keeps drawing until a card can be played"),
    Option("after_draw", ("drawn_only", "any", "pass"), "drawn_only",
           "after drawing: only the drawn card may be played, any card may be, or the turn ends"),
    Option("uno_penalty", None, 2, "cards drawn by a player caught not calling UNO (the printed sheet says 4)"),
    Option("uno_window", ("next_begins", "next_card"), "next_begins",
           "a catch counts until the next player begins (next card on the pile or next draw), "
           "or until the next card lands on the pile"),
    Option("false_uno_penalty", None, 0, "cards drawn for calling UNO while holding more than one card"),
    Option("illegal_play_penalty", None, 2,
           "cards drawn for a card that does not match (it goes back to the hand and the turn passes); "
           "0 = a warning and the player plays again"),
    Option("wd4_challenge", (True, False), True, "the victim of a Wild Draw Four may challenge it"),
    Option("wd4_wilds_match", (False, True), False,
           "when judging a challenge, a wild in the hand counts as a card of the colour (UNO Seinfeld)"),
    Option("guilty_then", ("challenger_plays", "challenger_skipped"), "challenger_plays",
           "after a successful challenge the challenger plays, or still loses the turn"),
    Option("first_card_wild", ("choose", "redraw"), "choose",
           "a Wild turned up first: the first player names the colour, or it goes back and another is turned"),
    Option("first_card_action", ("apply", "redraw", "ignore"), "apply",
           "a Skip, Reverse or Draw Two turned up first acts on the first player, goes back, or stays "
           "on the pile without effect and another is turned on it (UNO Seinfeld: any action card)"),
    Option("finish_on_draw_card", ("next_draws", "not_drawn"), "next_draws",
           "a Draw Two or Wild Draw Four played to go out is still drawn (and scored) by the next player"),
    Option("two_player_reverse", ("skip", "reverse"), "skip",
           "with two players a Reverse acts as a Skip, or only turns the direction"),
    Option("jump_in", (False, True), False,
           "a player holding the very card on top (colour and number or symbol) may play it out of turn"),
    Option("seven_o", (False, True), False,
           "a 7 swaps hands with a player of your choice; a 0 passes every hand on in the direction of play"),
    Option("target_score", None, 500, "points that end the game"),
    Option("scoring", ("winner_takes", "lowest_total", "elimination"), "winner_takes",
           "winner scores the others' cards; or each scores their own cards and the lowest total wins "
           "when one reaches the target; or Challenge UNO: reaching the target eliminates"),
    Option("partners", (False, True), False, "four players, partners sit opposite and score together"),
    Option("hand_size", None, 7, "cards dealt to each player"),
    Option("customizable", CUSTOMIZABLE_EFFECTS, "plain",
           "the house rule written on Wild Customizable cards (classic112)",
           {"plain": "a plain Wild", "others_draw_two": "everyone else draws 2",
            "extra_turn": "the player plays again", "next_dare_draw_three":
            "the next player does 3 sit-ups or draws 3 (the table says which)"}),
    Option("seinfeld_episode", SEINFELD_EPISODES, "serenity_now",
           "the episode rule of the Wild Seinfeld Episode card (UNO Seinfeld), chosen at setup"),
)

_BY_NAME = {o.name: o for o in OPTIONS}
_BOOL_WORDS = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}

EDITION_DEFAULTS: dict[str, dict[str, Any]] = {
    "seinfeld": {"first_card_action": "ignore", "wd4_wilds_match": True},
}


@dataclass(frozen=True)
class Rules:
    """Every rule option of a game; the defaults are the official rules."""

    stacking: str = "off"
    draw: str = "one"
    after_draw: str = "drawn_only"
    uno_penalty: int = 2
    uno_window: str = "next_begins"
    false_uno_penalty: int = 0
    illegal_play_penalty: int = 2
    wd4_challenge: bool = True
    wd4_wilds_match: bool = False
    guilty_then: str = "challenger_plays"
    first_card_wild: str = "choose"
    first_card_action: str = "apply"
    finish_on_draw_card: str = "next_draws"
    two_player_reverse: str = "skip"
    jump_in: bool = False
    seven_o: bool = False
    target_score: int = 500
    scoring: str = "winner_takes"
    partners: bool = False
    hand_size: int = 7
    customizable: str = "plain"
    seinfeld_episode: str = "serenity_now"

    @classmethod
    def from_dict(cls, data: dict | None, *, deck: str | None = None) -> "Rules":
        """Validate ``data`` (option name -> value) over the defaults of ``deck``'s edition."""
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a table of options, got {type(data).__name__}")
        values: dict[str, Any] = dict(EDITION_DEFAULTS.get(deck or "", {}))
        for key, raw in data.items():
            opt = _BY_NAME.get(key)
            if opt is None:
                raise RulesError(f"rules.{key}: unknown option; known: {', '.join(_BY_NAME)}")
            values[key] = _check(opt, raw)
        return replace(cls(), **values)

    @classmethod
    def load(cls, path: str | Path, *, deck: str | None = None) -> "Rules":
        """Read rules from a ``.toml`` or ``.json`` file (a ``[rules]`` table is also accepted)."""
        p = Path(path)
        text = p.read_text()
        try:
            data = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
        except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
            raise RulesError(f"{p}: {exc}") from exc
        if set(data) == {"rules"}:
            data = data["rules"]
        return cls.from_dict(data, deck=deck)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the official defaults."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}


def _check(opt: Option, raw: Any) -> Any:
    if opt.values is None:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise RulesError(f"rules.{opt.name}: expected a whole number, got {raw!r}")
        low = 1 if opt.name in ("target_score", "hand_size") else 0
        if raw < low:
            raise RulesError(f"rules.{opt.name}: must be at least {low}, got {raw}")
        return raw
    if isinstance(opt.default, bool):
        if isinstance(raw, str) and raw.lower() in _BOOL_WORDS:
            return _BOOL_WORDS[raw.lower()]
        if isinstance(raw, bool):
            return raw
        raise RulesError(f"rules.{opt.name}: expected true/false (or on/off), got {raw!r}")
    if raw not in opt.values:
        raise RulesError(f"rules.{opt.name}: {raw!r} is not one of {', '.join(map(str, opt.values))}")
    return raw


def option(name: str) -> Option:
    return _BY_NAME[name]
