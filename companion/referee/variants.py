"""Variant cards and house rules as small hooks: Seven-O, the newer wilds (Swap Hands, Shuffle
Hands, Customizable) and the Wild Seinfeld Episode card with its eight episode rules.

Each hook returns the steps its card adds; inputs it needs (a target, a verdict, a reveal) are
asked for as questions, never guessed.
"""
from __future__ import annotations

from ..cards import Card
from . import effects as fx
from .effects import auto_step, card_effect, input_hook
from .inputs import Input
from .scoring import going_out
from .state import CLOCKWISE, State, Step
from .table_inputs import PLAY_INTERCEPTORS


def _others(s: State, i: int) -> list[int]:
    return [j for j in s.active() if j != i]


def _swap(s: State, i: int, j: int) -> None:
    a, b = s.seats[i], s.seats[j]
    a.cards, b.cards = b.cards, a.cards
    s.say("hands_swapped", f"{a.name} and {b.name} swap hands", players=[a.name, b.name])
    fx.hands_moved(s)


# --- Seven-O ------------------------------------------------------------------------------------
def _seven(s: State, i: int, card: Card) -> list[Step]:
    if not s.rules.seven_o:
        return []
    return [Step("target", i, "swap", data={"choices": _others(s, i),
                                             "prompt": f"{s.seats[i].name}: choose a player to swap hands with"})]


def _zero(s: State, i: int, card: Card) -> list[Step]:
    return [Step("rotate", i)] if s.rules.seven_o else []


fx.NUMBER_HOOKS["7"] = _seven
fx.NUMBER_HOOKS["0"] = _zero


@auto_step("rotate")
def _rotate(s: State, step: Step) -> None:
    counts = {j: s.seats[j].cards for j in s.active()}
    for j, n in counts.items():
        s.seats[s.next_seat(j)].cards = n
    s.say("hands_passed", f"Every hand passes on, {fx.direction_name(s)}", direction=fx.direction_name(s))
    fx.hands_moved(s)


@input_hook("target", "swap")
def _swap_target(s: State, step: Step, j: int) -> None:
    _swap(s, step.player, j)


# --- the newer wilds ----------------------------------------------------------------------------
@card_effect("swap_hands")
def _swap_hands(s: State, i: int, card: Card) -> list[Step]:
    return [Step("target", i, "swap", data={"choices": _others(s, i),
                                             "prompt": f"{s.seats[i].name}: choose a player to swap hands with"}),
            Step("advance", i)]


@card_effect("shuffle_hands")
def _shuffle_hands(s: State, i: int, card: Card) -> list[Step]:
    return [Step("shuffle", i), Step("advance", i)]


@auto_step("shuffle")
def _shuffle(s: State, step: Step) -> None:
    """Collect every hand and deal them out one by one, clockwise from the player's left."""
    i = step.player
    act = s.active()
    total = sum(s.seats[j].cards for j in act)
    order = [s.next_seat(i, k, direction=CLOCKWISE) for k in range(1, len(act) + 1)]
    base, extra = divmod(total, len(act))
    for k, j in enumerate(order):
        s.seats[j].cards = base + (1 if k < extra else 0)
    counts = {s.seats[j].name: s.seats[j].cards for j in order}
    s.say("hands_shuffled", f"{s.seats[i].name} shuffles all {total} cards and deals them: "
          + ", ".join(f"{n} {c}" for n, c in counts.items()), hand_counts=counts)
    fx.hands_moved(s)


@card_effect("customizable")
def _customizable(s: State, i: int, card: Card) -> list[Step]:
    rule = s.rules.customizable
    if rule == "others_draw_two":
        return [Step("everyone_draws", i, data={"cards": 2}), Step("advance", i)]
    if rule == "extra_turn":
        return [Step("again", i)]
    if rule == "next_dare_draw_three":
        return [_dare(s, s.next_seat(i), 3, "do 3 sit-ups"), Step("advance", i)]
    return [Step("advance", i)]


@auto_step("everyone_draws")
def _everyone_draws(s: State, step: Step) -> None:
    for j in _others(s, step.player):
        s.take_cards(j, step.data["cards"], reason="Wild Customizable: everyone else draws")


def _dare(s: State, j: int, cards: int, task: str) -> Step:
    name = s.seats[j].name
    return Step("verdict", j, "dare", data={"cards": cards, "options": ["done", "failed"],
                                            "prompt": f"Did {name} {task}? (verdict done / failed: draws {cards})"})


@input_hook("verdict", "dare")
def _dare_verdict(s: State, step: Step, failed: bool) -> None:
    name = s.seats[step.player].name
    if failed:
        s.take_cards(step.player, step.data["cards"], reason="dare not done")
    else:
        s.say("dare_done", f"{name} did it: no cards", player=name)


# --- UNO Seinfeld: the Wild Seinfeld Episode card ------------------------------------------------------
@card_effect("seinfeld")
def _seinfeld(s: State, i: int, card: Card) -> list[Step]:
    ep = s.rules.seinfeld_episode
    name = s.seats[i].name
    nxt = s.next_seat(i)
    if ep == "serenity_now":
        s.say("question", "Everyone yells 'Serenity Now!': who was last?", input="target")
        return [Step("target", None, "penalty4", data={"choices": s.active(), "reason": "last to yell Serenity Now",
                                                       "prompt": "Who was last to yell 'Serenity Now!'?"}),
                Step("advance", i)]
    if ep == "festivus":
        return [_dare(s, nxt, 4, "do 10 push-ups (Feats of Strength)"), Step("advance", i)]
    if ep == "elaine_dance":
        return [Step("target", i, "elaine", data={"choices": _others(s, i),
                                                  "prompt": f"{name}: choose who does the Elaine dance"}),
                Step("advance", i)]
    if ep == "third_person":
        s.third_person = True
        s.say("rule_started", "Third-person rule: everyone speaks of themselves in the third person until "
              "the next wild (a slip: catch them, 2 cards)", rule="third_person")
        return [Step("advance", i)]
    if ep == "yada_yada":
        return [Step("verdict", i, "yada", data={"options": ["done", "failed"],
                                                 "prompt": f"Did {name} end the story with 'yada yada'? (done / failed)"}),
                Step("advance", i)]
    if ep == "spare_a_square":
        return [Step("target", i, "square", data={"choices": _others(s, i),
                                                  "prompt": f"{name}: choose who gets a card from your hand"}),
                Step("advance", i)]
    if s.interrupted is not None:
        return [Step("resume", s.interrupted)]
    return [Step("advance", i)]


@input_hook("target", "penalty4")
def _penalty4(s: State, step: Step, j: int) -> None:
    s.take_cards(j, 4, reason=step.data["reason"])


@input_hook("target", "elaine")
def _elaine(s: State, step: Step, j: int) -> None:
    s.steps.insert(0, _dare(s, j, 4, "do the Elaine dance"))


@input_hook("verdict", "yada")
def _yada(s: State, step: Step, failed: bool) -> None:
    i = step.player
    n = min(2, s.seats[i].cards)
    if failed or n == 0:
        s.say("dare_done", f"{s.seats[i].name} keeps all cards", player=s.seats[i].name)
        return
    s.steps.insert(0, Step("reveal", i, "yada", data={"cards": n,
                                                     "prompt": f"{s.seats[i].name}: show the {n} cards you discard"}))


@input_hook("reveal", "yada")
def _yada_discard(s: State, step: Step, cards: list[Card]) -> bool:
    i, n = step.player, step.data["cards"]
    if len(cards) != n or not all(s.deck.has(c) for c in cards):
        return False
    s.pile[-1:-1] = cards
    s.seats[i].cards -= n
    s.say("discarded", f"{s.seats[i].name} discards {', '.join(map(str, cards))} (yada yada)",
          player=s.seats[i].name, cards=[str(c) for c in cards])
    _after_losing_cards(s, i)
    return True


@input_hook("target", "square")
def _square(s: State, step: Step, j: int) -> None:
    i = step.player
    s.seats[i].cards -= 1
    s.seats[j].cards += 1
    s.say("card_given", f"{s.seats[i].name} gives a card to {s.seats[j].name}",
          player=s.seats[i].name, to=s.seats[j].name)
    if s.must_call == j:
        s.must_call = s.can_be_caught = None
    _after_losing_cards(s, i)


def _after_losing_cards(s: State, i: int) -> None:
    if s.seats[i].cards == 0:
        going_out(s, i, s.top)
    else:
        fx.after_discard(s, i)


@auto_step("resume")
def _resume(s: State, step: Step) -> None:
    s.interrupted = None
    s.current = step.player
    s.say("turn", f"{s.seats[step.player].name}'s turn goes on", player=s.seats[step.player].name)


def _seinfeld_interceptor(s: State, inp: Input, player: int | None) -> bool:
    """'No UNO For You!' and 'It's Not You, It's Me': a Wild Seinfeld played out of the usual turn."""
    if inp.card is None or inp.card.symbol != "wild_seinfeld" or s.deck.name != "seinfeld":
        return False
    ep = s.rules.seinfeld_episode
    front = s.steps[0] if s.steps else None
    if ep == "no_uno_for_you":
        i = s.current if player is None else player
        sayer = s.uno_sayer
        if sayer is None or sayer == i or (front is not None and i != s.current) or s.seats[i].cards == 0:
            return False
        fx.close_uno_window(s, i)
        s.say("played", f"{s.seats[i].name} plays wild seinfeld: No UNO For You!", player=s.seats[i].name,
              card=str(inp.card))
        s.take_cards(sayer, 4, reason="No UNO For You!")
        if i != s.current:
            if front is not None:
                return False
            s.interrupted = s.current
        fx.play_card(s, i, inp.card, color=inp.color)
        return True
    if ep == "not_you_its_me":
        if front is not None and front.kind in ("challenge_or_accept", "stack_or_accept") \
                and player in (None, front.player):
            v, by = front.player, front.data["by"]
            s.steps.pop(0)
            s.say("played", f"{s.seats[v].name} plays wild seinfeld: It's Not You, It's Me!",
                  player=s.seats[v].name, card=str(inp.card))
            n = s.pending_draw
            s.pending_draw, s.pending_cards = 0, []
            s.take_cards(by, n, reason="It's Not You, It's Me")
            s.current = v
            fx.play_card(s, v, inp.card, color=inp.color)
            return True
        att = s.last_attack
        v = player if player is not None else (att or {}).get("victim")
        if front is None and att is not None and v == att["victim"] and s.seats[v].cards > att["drew"]:
            by, n = att["by"], att["drew"]
            s.say("played", f"{s.seats[v].name} plays wild seinfeld: It's Not You, It's Me!",
                  player=s.seats[v].name, card=str(inp.card))
            s.seats[v].cards -= n
            s.draw_pile += n
            if n:
                s.take_cards(by, n, reason="It's Not You, It's Me")
            s.current = v
            fx.play_card(s, v, inp.card, color=inp.color)
            return True
    return False


PLAY_INTERCEPTORS.append(_seinfeld_interceptor)
