"""Calling UNO and catching a player who did not.

A player who gets down to one card must call UNO; until the next player begins (the next card
on the pile or, under ``uno_window = "next_begins"``, the next draw) anyone may catch them, and
they draw ``uno_penalty`` cards. Calling before being caught (even late) is safe. A player may
also call while still holding two cards, just before playing the next-to-last one.
"""
from __future__ import annotations

from .inputs import Input
from .state import State
from .table_inputs import _seat, handles, reject


@handles("uno")
def call_uno(s: State, inp: Input) -> None:
    if s.phase != "turn":
        return reject(s, "Nobody can call UNO now", inp)
    i = _seat(s, inp.player, inp)
    if i is False:
        return
    if i is None:
        i = s.must_call if s.must_call is not None else s.current
    seat = s.seats[i]
    if s.must_call == i:
        s.must_call = s.can_be_caught = None
        s.uno_sayer = i
        s.say("uno_called", f"{seat.name} calls UNO", player=seat.name)
    elif seat.cards == 2 and i == s.current and not s.steps:
        s.precalled = i
        s.say("uno_called", f"{seat.name} calls UNO before playing the next-to-last card", player=seat.name)
    elif seat.cards == 1:
        s.uno_sayer = i
        s.say("uno_called", f"{seat.name} calls UNO again", player=seat.name)
    elif s.rules.false_uno_penalty:
        s.say("false_uno", f"{seat.name} called UNO holding {seat.cards} cards", player=seat.name)
        s.take_cards(i, s.rules.false_uno_penalty, reason="false UNO call")
    else:
        reject(s, f"{seat.name} holds {seat.cards} cards: there is no UNO to call", inp)


@handles("catch")
def catch(s: State, inp: Input) -> None:
    if s.phase != "turn":
        return reject(s, "Nobody can be caught now", inp)
    i = _seat(s, inp.player, inp)
    if i is False:
        return
    if i is None:
        i = s.can_be_caught
    if i is not None and i == s.can_be_caught:
        name = s.seats[i].name
        s.must_call = s.can_be_caught = None
        s.say("caught", f"{name} is caught without calling UNO", player=name)
        s.take_cards(i, s.rules.uno_penalty, reason="caught without calling UNO")
        return
    if i is not None and s.third_person:
        name = s.seats[i].name
        s.say("caught", f"{name} did not speak in the third person", player=name, rule="third_person")
        s.take_cards(i, 2, reason="third-person rule")
        return
    who = s.seats[i].name if i is not None else "Nobody"
    reject(s, f"{who} cannot be caught now", inp)
