"""One handler per kind of table input. Each judges the input against the state and changes it;
a well-formed input that does not fit the moment is announced (``rejected``, ``illegal_play``)."""
from __future__ import annotations

from typing import Callable

from ..cards import Card
from . import effects as fx
from .turns import advance, begin_turn
from .inputs import Input
from .legality import can_stack, mismatch, wd4_guilty
from .scoring import deal, first_player, record_hand, hand_points, start_first_turn
from .state import State, Step, Seat
from ..cards import deck as deck_profile

Handler = Callable[[State, Input], None]
HANDLERS: dict[str, Handler] = {}
# Variants may claim a play before the ordinary rules see it (UNO Seinfeld's out-of-turn wilds).
PLAY_INTERCEPTORS: list[Callable[[State, Input, int | None], bool]] = []


def handles(kind: str):
    def deco(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn
    return deco


def reject(s: State, text: str, inp: Input) -> None:
    s.say("rejected", text, input=inp.kind)


def _seat(s: State, name: str | None, inp: Input) -> int | None | bool:
    """The seat of ``name``; False (after announcing) when no such player is in the game."""
    if name is None:
        return None
    i = s.index(name)
    if i is None or s.seats[i].eliminated:
        reject(s, f"{name} is not playing", inp)
        return False
    return i


# --- setup and the first card ------------------------------------------------------------------
@handles("setup")
def on_setup(s: State, inp: Input) -> None:
    cfg = inp.setup
    fresh = State()
    s.__dict__.update(fresh.__dict__)
    s.out = []
    s.seats = [Seat(n) for n in cfg["players"]]
    s.dealer = cfg["players"].index(cfg["dealer"])
    s.deck = deck_profile(cfg["deck"])
    s.rules = cfg["rules"]
    s.round = 1
    changed = s.rules.changed()
    s.say("setup", f"New game: {', '.join(cfg['players'])} (clockwise), {s.deck.title}"
          + (f", house rules: {', '.join(f'{k}={v}' for k, v in changed.items())}" if changed else ", official rules"),
          players=cfg["players"], dealer=cfg["dealer"], deck=cfg["deck"], rules=s.rules.to_dict())
    deal(s, first=True)


@handles("new_round")
def on_new_round(s: State, inp: Input) -> None:
    if s.phase != "between":
        return reject(s, "A new round starts only after a round is over and scored", inp)
    deal(s)


@handles("start")
def on_start(s: State, inp: Input) -> None:
    if s.phase == "between":
        deal(s)
    if s.phase != "start":
        return reject(s, "The first card is turned up only at the start of a round", inp)
    card = inp.card
    if not _in_deck(s, card, inp):
        return
    s.pile.append(card)
    s.draw_pile -= 1
    s.top = card
    s.say("start", f"First card: {card}", card=str(card))
    f = first_player(s)
    action = not card.is_number
    if s.rules.first_card_action == "ignore" and action:
        s.say("redraw", f"{card} is ignored: turn up another card on it", card=str(card), returned=False)
        return
    if card.symbol == "wild_draw_four" or (card.is_wild and s.rules.first_card_wild == "redraw") or (
            action and not card.is_wild and s.rules.first_card_action == "redraw"):
        s.pile.pop()
        s.draw_pile += 1
        s.top = s.pile[-1] if s.pile else None
        s.say("redraw", f"{card} goes back into the deck: shuffle and turn up another", card=str(card),
              returned=True)
        return
    s.color = card.color
    s.phase = "turn"
    effect = card.kind.effect
    if card.is_wild:
        start_first_turn(s, f)
        s.steps = [Step("color", f, data={"prompt": f"{s.seats[f].name}: name the colour to begin"})]
        if effect == "swap_hands":
            s.steps.append(Step("target", f, "swap", data={"choices": _others(s, f)}))
    elif effect == "skip":
        advance(s, s.dealer, 1)
    elif effect == "reverse":
        if s.two_players() and s.rules.two_player_reverse == "skip":
            advance(s, s.dealer, 1)
        else:
            s.direction = -1
            s.say("reversed", f"Reverse turned up: {s.seats[s.dealer].name} (the dealer) plays first, "
                  "then play goes counterclockwise", direction="counterclockwise")
            begin_turn(s, s.dealer)
    elif effect == "draw_two":
        s.steps = [Step("attack", s.dealer, data={"symbol": "draw_two"})]
        fx.run(s)
    else:
        start_first_turn(s, f)


def _others(s: State, i: int) -> list[int]:
    return [j for j in s.active() if j != i]


def _in_deck(s: State, card: Card, inp: Input) -> bool:
    if not s.deck.has(card):
        reject(s, f"There is no {card} in the {s.deck.name} deck", inp)
        return False
    if s.copies_on_pile(card) >= s.copies_in_deck(card):
        reject(s, f"All {s.copies_in_deck(card)} {card} cards are already on the pile: "
               "the card was misread", inp)
        return False
    return True


# --- playing, drawing, passing -------------------------------------------------------------------
@handles("play")
def on_play(s: State, inp: Input) -> None:
    if s.phase != "turn":
        return reject(s, "No card can be played now" + _waiting(s), inp)
    card = inp.card
    player = _seat(s, inp.player, inp)
    if player is False or not _in_deck(s, card, inp):
        return
    target = None
    if inp.target is not None:
        target = _seat(s, inp.target, inp)
        if target is False:
            return
    for hook in PLAY_INTERCEPTORS:
        if hook(s, inp, player):
            return
    front = s.steps[0] if s.steps else None
    if front is not None and front.kind in ("challenge_or_accept", "stack_or_accept"):
        victim = front.player
        if player in (None, victim) and can_stack(card, s.pending_cards, s.rules):
            s.steps.pop(0)
            s.say("stacked", f"{s.seats[victim].name} answers with {card}: {s.pending_draw + (2 if card.symbol == 'draw_two' else 4)} cards pending",
                  player=s.seats[victim].name, card=str(card))
            return _do_play(s, victim, card, inp, target)
        if player == victim:
            s.say("illegal_play", f"{s.seats[victim].name} cannot play {card}: {s.pending_draw} cards are "
                  "owed first (accept, or answer with a draw card)", player=s.seats[victim].name,
                  card=str(card), reason="draw pending")
            return
        _accept(s)
        front = s.steps[0] if s.steps else None
    if front is not None:
        return reject(s, f"{card} cannot be played yet" + _waiting(s), inp)
    cur = s.current
    if player is None or player == cur:
        why = mismatch(card, top=s.top, color=s.color)
        if why:
            return illegal(s, cur, card, why, in_turn=True)
        return _do_play(s, cur, card, inp, target)
    if s.rules.jump_in and not card.is_wild and card == s.top:
        s.say("jump_in", f"{s.seats[player].name} jumps in with {card}", player=s.seats[player].name, card=str(card))
        s.current = player
        return _do_play(s, player, card, inp, target)
    illegal(s, player, card, f"it is {s.seats[cur].name}'s turn", in_turn=False)


def _waiting(s: State) -> str:
    from .snapshot import awaiting
    a = awaiting(s)
    return f" (waiting for: {a['prompt']})" if a else ""


def _do_play(s: State, i: int, card: Card, inp: Input, target: int | None) -> None:
    if s.seats[i].cards == 0:
        return reject(s, f"{s.seats[i].name} holds no cards", inp)
    fx.close_uno_window(s, i)
    s.say("played", f"{s.seats[i].name} plays {card}", player=s.seats[i].name, card=str(card))
    fx.play_card(s, i, card, color=inp.color if card.is_wild else None, target=target)
    front = s.steps[0] if s.steps else None
    if target is not None and front is not None and front.kind == "target" and front.player == i \
            and target in front.data.get("choices", s.active()):
        s.steps.pop(0)
        fx.INPUT_HOOKS[("target", front.purpose)](s, front, target)
        fx.run(s)


def illegal(s: State, i: int, card: Card, reason: str, *, in_turn: bool) -> None:
    """A card that may not be played: back to the hand, penalty cards, the turn passes (official)."""
    name = s.seats[i].name
    n = s.rules.illegal_play_penalty
    fx.close_uno_window(s, i)
    tail = f"take it back and draw {n}" if n else ("take it back and play again" if in_turn else "take it back")
    s.say("illegal_play", f"{name} cannot play {card}: {reason}; {tail}", player=name, card=str(card), reason=reason)
    if n:
        s.take_cards(i, n, reason="illegal play")
        if in_turn:
            advance(s, i)


def _accept(s: State) -> None:
    """The player owing a pending draw takes it (by ``accept``, or by the next player acting)."""
    step = s.steps.pop(0)
    s.say("accepted", f"{s.seats[step.player].name} takes {s.pending_draw} cards", player=s.seats[step.player].name)
    fx.take_pending(s, step.player, step.data["by"])
    fx.run(s)


@handles("accept")
def on_accept(s: State, inp: Input) -> None:
    if not (s.steps and s.steps[0].kind in ("challenge_or_accept", "stack_or_accept")):
        return reject(s, "No draw is pending" + _waiting(s), inp)
    _accept(s)


@handles("draw")
def on_draw(s: State, inp: Input) -> None:
    if s.phase != "turn":
        return reject(s, "Nobody draws now" + _waiting(s), inp)
    if s.steps and s.steps[0].kind in ("challenge_or_accept", "stack_or_accept"):
        _accept(s)
    if s.steps:
        return reject(s, "Not yet" + _waiting(s), inp)
    cur = s.current
    name = s.seats[cur].name
    if s.rules.draw == "one":
        if s.drew:
            return reject(s, f"{name} has drawn already: play the card drawn or pass", inp)
        if inp.number != 1:
            return reject(s, f"Draw one card at a time (the rules say one card), not {inp.number}", inp)
    fx.close_uno_window(s, cur, draw=True)
    k = s.take_cards(cur, inp.number)
    s.drew += k
    s.say("drew", f"{name} draws {k}", player=name, cards=k)
    if s.rules.after_draw == "pass":
        s.say("passed", f"{name}'s turn ends after drawing", player=name)
        advance(s, cur)


@handles("pass")
def on_pass(s: State, inp: Input) -> None:
    if s.phase != "turn" or s.steps:
        return reject(s, "Nobody can pass now" + _waiting(s), inp)
    name = s.seats[s.current].name
    if not s.drew:
        return reject(s, f"{name} must play or draw a card before passing", inp)
    s.say("passed", f"{name} passes", player=name)
    advance(s, s.current)


# --- colour, target, challenge, verdict, reveal ------------------------------------------------------
def _front(s: State, kind: str, inp: Input) -> Step | None:
    if s.phase == "turn" and s.steps and s.steps[0].kind == kind:
        return s.steps[0]
    reject(s, f"Not waiting for {kind.replace('_', ' ')}" + _waiting(s), inp)
    return None


@handles("color")
def on_color(s: State, inp: Input) -> None:
    step = _front(s, "color", inp)
    if step is None:
        return
    if inp.color not in s.deck.colors:
        return reject(s, f"{inp.color} is not a colour of this deck ({', '.join(s.deck.colors)})", inp)
    s.steps.pop(0)
    fx.name_color(s, step.player, inp.color)
    fx.run(s)


@handles("target")
def on_target(s: State, inp: Input) -> None:
    step = _front(s, "target", inp)
    if step is None:
        return
    j = _seat(s, inp.player, inp)
    if j is False:
        return
    if j not in step.data.get("choices", s.active()):
        return reject(s, f"{inp.player} cannot be chosen here", inp)
    s.steps.pop(0)
    fx.INPUT_HOOKS[("target", step.purpose)](s, step, j)
    fx.run(s)


@handles("challenge")
def on_challenge(s: State, inp: Input) -> None:
    step = _front(s, "challenge_or_accept", inp)
    if step is None:
        return
    by, victim = step.data["by"], step.player
    s.steps[0] = Step("verdict", by, "challenge", data={"by": by, "victim": victim,
                                                         "color_before": step.data.get("color_before")})
    s.say("question", f"{s.seats[victim].name} challenges: {s.seats[by].name}, show your hand to "
          f"{s.seats[victim].name} (or to the camera); did {s.seats[by].name} hold a "
          f"{step.data.get('color_before')} card?", input="verdict", player=s.seats[by].name)


@handles("verdict")
def on_verdict(s: State, inp: Input) -> None:
    step = _front(s, "verdict", inp)
    if step is None:
        return
    s.steps.pop(0)
    fx.INPUT_HOOKS[("verdict", step.purpose)](s, step, inp.flag)
    fx.run(s)


@handles("reveal")
def on_reveal(s: State, inp: Input) -> None:
    if s.phase == "turn" and s.steps and s.steps[0].kind == "verdict" and s.steps[0].purpose == "challenge":
        step = s.steps[0]
        by = step.data["by"]
        if len(inp.cards) != s.seats[by].cards:
            return reject(s, f"{s.seats[by].name} holds {s.seats[by].cards} cards; {len(inp.cards)} were shown", inp)
        guilty = wd4_guilty(list(inp.cards), step.data.get("color_before"), wilds_match=s.rules.wd4_wilds_match)
        s.steps.pop(0)
        fx.challenge_verdict(s, step, guilty)
        return fx.run(s)
    step = _front(s, "reveal", inp)
    if step is None:
        return
    s.steps.pop(0)
    if fx.INPUT_HOOKS[("reveal", step.purpose)](s, step, list(inp.cards)) is False:
        s.steps.insert(0, step)
        return reject(s, f"Show exactly {step.data.get('cards')} cards of this deck", inp)
    fx.run(s)


# --- the end of a round ----------------------------------------------------------------------------
def _scoring_seat(s: State, inp: Input) -> int | None:
    if s.phase != "scoring":
        reject(s, "Hands are counted only when a round is over" + _waiting(s), inp)
        return None
    j = s.index(inp.player)
    if j is None or j not in s.scoring_needed:
        reject(s, f"{inp.player}'s hand is not needed (waiting for: "
               f"{', '.join(s.seats[k].name for k in s.scoring_needed)})", inp)
        return None
    return j


@handles("hand")
def on_hand(s: State, inp: Input) -> None:
    j = _scoring_seat(s, inp)
    if j is None:
        return
    cards = list(inp.cards)
    if len(cards) != s.seats[j].cards:
        return reject(s, f"{inp.player} holds {s.seats[j].cards} cards; {len(cards)} were shown", inp)
    bad = [c for c in cards if not s.deck.has(c)]
    if bad:
        return reject(s, f"There is no {bad[0]} in the {s.deck.name} deck", inp)
    pts = hand_points(cards)
    s.say("hand_counted", f"{inp.player} holds {pts} points", player=inp.player, points=pts,
          cards=[str(c) for c in cards])
    record_hand(s, j, pts)


@handles("points")
def on_points(s: State, inp: Input) -> None:
    j = _scoring_seat(s, inp)
    if j is None:
        return
    s.say("hand_counted", f"{inp.player} holds {inp.number} points", player=inp.player, points=inp.number)
    record_hand(s, j, inp.number)
