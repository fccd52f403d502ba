"""What a card does once it lands on the pile, and how a turn ends.

A card's effect is a list of `Step`s: some wait for an input (the colour named, a target, a
verdict), the others run on their own (`run`). Effects are looked up by the card kind's
``effect`` name in `CARD_EFFECTS`; variants (`variants.py`) add their own hooks there, so a new
card or house rule does not touch this file.
"""
from __future__ import annotations

from typing import Callable

from ..cards import Card
from .legality import DRAW_CARDS, REASONS
from .scoring import going_out
from .state import INPUT_STEPS, State, Step
from .turns import advance, begin_turn

CardEffect = Callable[[State, int, Card], list[Step]]
AutoStep = Callable[[State, Step], None]

CARD_EFFECTS: dict[str | None, CardEffect] = {}
AUTO_STEPS: dict[str, AutoStep] = {}


def card_effect(name: str | None):
    def deco(fn: CardEffect) -> CardEffect:
        CARD_EFFECTS[name] = fn
        return fn
    return deco


def auto_step(name: str):
    def deco(fn: AutoStep) -> AutoStep:
        AUTO_STEPS[name] = fn
        return fn
    return deco


def run(s: State) -> None:
    """Carry out the automatic steps until one needs an input (or none is left)."""
    while s.steps and s.steps[0].kind not in INPUT_STEPS:
        step = s.steps.pop(0)
        AUTO_STEPS[step.kind](s, step)


@auto_step("advance")
def _advance(s: State, step: Step) -> None:
    advance(s, step.player, step.data.get("skip", 0))


@auto_step("again")
def _again(s: State, step: Step) -> None:
    begin_turn(s, step.player, again=True)


# --- the UNO call ----------------------------------------------------------------------------
def close_uno_window(s: State, by: int | None, *, draw: bool = False) -> None:
    """A play (or, under ``next_begins``, a draw) by someone else ends the time to catch."""
    if draw and s.rules.uno_window == "next_card":
        return
    if s.can_be_caught is not None and s.can_be_caught != by:
        s.can_be_caught = None
    if s.uno_sayer is not None and s.uno_sayer != by:
        s.uno_sayer = None


def after_discard(s: State, i: int) -> None:
    """Seat ``i`` has discarded: down to one card, they must call UNO (again, if need be)."""
    if s.seats[i].cards == 1:
        name = s.seats[i].name
        if s.precalled == i:
            s.precalled = None
            s.must_call = s.can_be_caught = None
            s.uno_sayer = i
        else:
            s.must_call = s.can_be_caught = i
            s.say("uno_needed", f"{name} has one card: call UNO!", player=name)
    elif s.must_call == i:
        s.must_call = s.can_be_caught = None


def hands_moved(s: State) -> None:
    """After hands change owners nobody owes an UNO call for a card they did not play."""
    s.must_call = s.can_be_caught = s.precalled = None


# --- playing a card ----------------------------------------------------------------------------
def play_card(s: State, i: int, card: Card, *, color: str | None = None, target: int | None = None) -> None:  # noqa: ARG001
    """Seat ``i`` puts ``card`` on the pile (already judged legal); queue and run its effect."""
    color_before = s.color
    seat = s.seats[i]
    seat.cards -= 1
    s.pile.append(card)
    s.top = card
    s.color = None if card.is_wild else card.color
    s.last_attack = None
    if card.is_wild and s.third_person:
        s.third_person = False
        s.say("rule_ended", "Third-person rule over: a wild was played", rule="third_person")
    after_discard(s, i)
    if seat.cards == 0:
        if card.is_wild and color is not None:
            s.color = color
        going_out(s, i, card)
        return
    steps: list[Step] = []
    if card.is_wild:
        if color is not None:
            name_color(s, i, color)
        else:
            steps.append(Step("color", i))
    steps += CARD_EFFECTS[card.kind.effect](s, i, card) if card.kind.effect in CARD_EFFECTS else []
    for st in steps:
        st.data.setdefault("color_before", color_before)
    s.steps = steps + s.steps
    run(s)


def name_color(s: State, i: int, color: str) -> None:
    s.color = color
    s.say("color_named", f"{s.seats[i].name} names {color}", player=s.seats[i].name, color=color)


@card_effect(None)
def _number(s: State, i: int, card: Card) -> list[Step]:
    hook = NUMBER_HOOKS.get(card.symbol)
    extra = hook(s, i, card) if hook else []
    return extra + [Step("advance", i)]


NUMBER_HOOKS: dict[str, CardEffect] = {}


@card_effect("skip")
def _skip(s: State, i: int, card: Card) -> list[Step]:
    s.last_attack = {"by": i, "victim": s.next_seat(i), "drew": 0}
    return [Step("advance", i, data={"skip": 1})]


@card_effect("reverse")
def _reverse(s: State, i: int, card: Card) -> list[Step]:
    if s.two_players() and s.rules.two_player_reverse == "skip":
        s.say("reversed", "Reverse acts as a Skip with two players", direction=direction_name(s))
        return [Step("advance", i, data={"skip": 1})]
    s.direction = -s.direction
    s.say("reversed", f"Play now goes {direction_name(s)}", direction=direction_name(s))
    return [Step("advance", i)]


@card_effect("draw_two")
def _draw_two(s: State, i: int, card: Card) -> list[Step]:
    return [Step("attack", i, data={"symbol": "draw_two"})]


@card_effect("wild")
def _wild(s: State, i: int, card: Card) -> list[Step]:
    return [Step("advance", i)]


@card_effect("wild_draw_four")
def _wd4(s: State, i: int, card: Card) -> list[Step]:
    return [Step("attack", i, data={"symbol": "wild_draw_four"})]


def direction_name(s: State) -> str:
    return "clockwise" if s.direction == 1 else "counterclockwise"


# --- draw cards: the attack, the challenge, the stack --------------------------------------------
@auto_step("attack")
def _attack(s: State, step: Step) -> None:
    by, symbol = step.player, step.data["symbol"]
    victim = s.next_seat(by)
    s.pending_draw += DRAW_CARDS[symbol]
    s.pending_cards.append(symbol)
    vname = s.seats[victim].name
    s.current = victim
    if symbol == "wild_draw_four" and s.rules.wd4_challenge and len(s.pending_cards) == 1:
        s.steps.insert(0, Step("challenge_or_accept", victim,
                               data={"by": by, "color_before": step.data.get("color_before")}))
        s.say("draw_pending", f"{vname}: take {s.pending_draw} cards or challenge the Wild Draw Four",
              player=vname, cards=s.pending_draw)
    elif s.rules.stacking != "off":
        s.steps.insert(0, Step("stack_or_accept", victim, data={"by": by}))
        s.say("draw_pending", f"{vname}: take {s.pending_draw} cards or answer with a draw card",
              player=vname, cards=s.pending_draw)
    else:
        take_pending(s, victim, by)


def take_pending(s: State, victim: int, by: int, *, extra: int = 0, reason: str | None = None) -> None:
    """``victim`` draws the pending cards (plus ``extra``) and loses the turn."""
    n = s.pending_draw + extra
    if reason is None:
        reason = REASONS[s.pending_cards[0]] if len(s.pending_cards) == 1 else "stacked draw cards"
    s.pending_draw, s.pending_cards = 0, []
    s.take_cards(victim, n, reason=reason)
    s.last_attack = {"by": by, "victim": victim, "drew": n}
    skip_victim(s, victim, by)


def skip_victim(s: State, victim: int, by: int) -> None:
    """``victim`` loses the turn; the player after them plays (in two-player, ``by`` again)."""
    s.say("skipped", f"{s.seats[victim].name} is skipped", player=s.seats[victim].name)
    nxt = s.next_seat(victim)
    begin_turn(s, nxt, again=nxt == by)


# --- inputs that answer a step: (input kind, step purpose) -> hook ----------------------------------
InputHook = Callable[..., None]
INPUT_HOOKS: dict[tuple[str, str], InputHook] = {}


def input_hook(kind: str, purpose: str):
    def deco(fn: InputHook) -> InputHook:
        INPUT_HOOKS[(kind, purpose)] = fn
        return fn
    return deco


@input_hook("verdict", "challenge")
def challenge_verdict(s: State, step: Step, guilty: bool) -> None:
    """Guilty: the player of the Wild Draw Four draws instead. Innocent: the challenger draws 2 more."""
    by, victim = step.data["by"], step.data["victim"]
    bname, vname = s.seats[by].name, s.seats[victim].name
    if guilty:
        s.say("challenge", f"Challenge won: {bname} held a {step.data.get('color_before')} card",
              result="guilty", player=bname, challenger=vname)
        n = s.pending_draw
        s.pending_draw, s.pending_cards = 0, []
        s.take_cards(by, n, reason="Wild Draw Four challenged: guilty")
        if s.rules.guilty_then == "challenger_skipped":
            skip_victim(s, victim, by)
        else:
            begin_turn(s, victim)
    else:
        s.say("challenge", f"Challenge lost: {bname} played the Wild Draw Four legally",
              result="innocent", player=bname, challenger=vname)
        take_pending(s, victim, by, extra=2, reason="Wild Draw Four challenge lost")
