"""Going out, counting the hands left, scores, the next round and the end of the game.

The Pi cannot see the hands left at the end of a round: it asks for each one (``hand`` shown to
the camera, or ``points`` typed in) and waits. Three scorings (``rules.scoring``):

- ``winner_takes`` (official): the player who went out scores the others' cards; first to the
  target wins. With partners, the team scores the two opponents' hands.
- ``lowest_total``: everyone adds the cards they are caught with; when one reaches the target,
  the lowest total wins.
- ``elimination`` (Challenge UNO): as lowest_total, but reaching the target eliminates; the last
  two play head to head and the winner of the final hand wins the game.
"""
from __future__ import annotations

from ..cards import Card
from .legality import DRAW_CARDS, REASONS
from .state import CLOCKWISE, State
from .turns import begin_turn


def going_out(s: State, i: int, card: Card) -> None:
    """Seat ``i`` played its last card: a final draw card is still drawn, then the round ends."""
    name = s.seats[i].name
    s.say("went_out", f"{name} goes out!", player=name)
    if card.symbol in DRAW_CARDS and s.rules.finish_on_draw_card == "next_draws":
        n = s.pending_draw + DRAW_CARDS[card.symbol]
        reason = REASONS[card.symbol] if not s.pending_draw else "stacked draw cards"
        s.pending_draw, s.pending_cards = 0, []
        s.take_cards(s.next_seat(i), n, reason=reason)
    s.pending_draw, s.pending_cards = 0, []
    s.steps = []
    s.current = None
    s.must_call = s.can_be_caught = s.precalled = s.uno_sayer = None
    s.round_winner = i
    s.phase = "scoring"
    s.scoring_hands = {}
    s.scoring_needed = [j for j in s.active() if j != i and s.seats[j].cards > 0
                        and not (s.rules.scoring == "winner_takes" and s.partner(i) == j)]
    if s.scoring_needed:
        names = ", ".join(s.seats[j].name for j in s.scoring_needed)
        s.say("question", f"Show the cards left in the hands of {names} (or type their points)",
              input="hand", players=[s.seats[j].name for j in s.scoring_needed])
    else:
        finish_round(s)


def hand_points(cards: list[Card]) -> int:
    return sum(c.points for c in cards)


def record_hand(s: State, j: int, points: int) -> None:
    """The points left in seat ``j``'s hand are known; when all are, the round is scored."""
    s.scoring_hands[s.seats[j].name] = points
    s.scoring_needed.remove(j)
    if not s.scoring_needed:
        finish_round(s)


def finish_round(s: State) -> None:
    w = s.round_winner
    assert w is not None
    wname = s.seats[w].name
    hands = dict(s.scoring_hands)
    total = sum(hands.values())
    if s.rules.scoring == "winner_takes":
        team = [w] + ([s.partner(w)] if s.rules.partners else [])
        for j in team:
            s.seats[j].score += total
        gained = {s.seats[j].name: total for j in team}
    else:
        gained = hands
        for name, pts in hands.items():
            s.seats[s.index(name)].score += pts
    s.rounds.append({"round": s.round, "winner": wname, "points": total, "hands": hands,
                     "scored": gained, "penalties": dict(s.round_penalties),
                     "totals": {x.name: x.score for x in s.seats}})
    if s.rules.scoring == "winner_takes":
        text = f"{wname} wins the round and scores {total} points"
    else:
        text = f"{wname} wins the round; {total} points are added to the others' totals"
    s.say("round_over", text, winner=wname, points=total, hands=hands)
    s.phase = "between"
    _check_game_over(s, w)


def _check_game_over(s: State, w: int) -> None:
    target = s.rules.target_score
    winner: int | None = None
    if s.rules.scoring == "winner_takes":
        if s.seats[w].score >= target:
            winner = w
    elif s.rules.scoring == "lowest_total":
        if any(s.seats[j].score >= target for j in s.active()):
            low = min(s.seats[j].score for j in s.active())
            tied = [j for j in s.active() if s.seats[j].score == low]
            winner = w if w in tied else tied[0]
    else:
        out = [j for j in s.active() if s.seats[j].score >= target]
        for j in out:
            s.seats[j].eliminated = True
            s.say("eliminated", f"{s.seats[j].name} reaches {s.seats[j].score} and is out of the game",
                  player=s.seats[j].name, score=s.seats[j].score)
        left = s.active()
        if len(left) <= 1:
            winner = w
        elif len(left) == 2 and out:
            s.say("head_to_head", f"{s.seats[left[0]].name} and {s.seats[left[1]].name} play head to head",
                  players=[s.seats[j].name for j in left])
    if winner is not None:
        s.game_winner = winner
        s.phase = "over"
        fields = {"winner": s.seats[winner].name, "scores": {x.name: x.score for x in s.seats}}
        if s.rules.partners:
            fields["team"] = [s.seats[winner].name, s.seats[s.partner(winner)].name]
        s.say("game_over", f"{s.seats[winner].name} wins the game!", **fields)


def deal(s: State, *, first: bool = False) -> None:
    """Deal a round: hand_size cards to every player still in; await the first card turned up."""
    assert s.deck is not None
    if not first:
        s.dealer = s.next_seat(s.dealer, direction=CLOCKWISE)
        s.round += 1
    s.phase = "start"
    s.direction = CLOCKWISE
    s.current, s.top, s.color = None, None, None
    s.pile, s.steps = [], []
    s.pending_draw, s.pending_cards, s.drew = 0, [], 0
    s.precalled = s.must_call = s.can_be_caught = s.uno_sayer = None
    s.last_attack, s.third_person = None, False
    s.round_winner = None
    s.round_penalties, s.scoring_hands, s.scoring_needed = {}, {}, []
    for x in s.seats:
        x.cards = 0 if x.eliminated else s.rules.hand_size
    s.draw_pile = len(s.deck) - sum(x.cards for x in s.seats)
    dealer = s.seats[s.dealer].name
    s.say("deal", f"Round {s.round}: {dealer} deals {s.rules.hand_size} cards each and turns up the first card",
          round=s.round, dealer=dealer)


def first_player(s: State) -> int:
    return s.next_seat(s.dealer, direction=CLOCKWISE)


def start_first_turn(s: State, i: int) -> None:
    s.phase = "turn"
    begin_turn(s, i)
