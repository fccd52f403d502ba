"""The game replay benchmark (models/recipe/bench_game.py): games made as the camera sees them, and
what it counts, on stand-in recognisers through the real motion gate."""

from companion.camera.gate import SAME_CARD, PileEvent
from companion.cards import Card
from companion.vision.detection import Detection, Recognition


def test_a_game_is_playable_cards_on_one_pile_the_same_for_the_same_seed(models_script):
    bg = models_script("bench_game")
    g = bg.make_game(5, 6, size=(320, 240), nudges=0.5)
    assert len(g.plays) == 6 and len(g.frames) == 7 and len(g.hands) == 7 and g.hands[0] == []
    assert all(f.shape == (240, 320, 3) for f in g.frames) and all(len(h) == bg.HAND_FRAMES for h in g.hands[1:])
    for last, card in zip(g.plays, g.plays[1:]):
        assert card.is_wild or last.is_wild or card.color == last.color or card.symbol == last.symbol
    assert g.nudges and all(1 <= k <= 6 for k in g.nudges)
    again = bg.make_game(5, 6, size=(320, 240), nudges=0.5)
    assert all((a == b).all() for a, b in zip(g.frames, again.frames)) and g.plays == again.plays
    # each play changes the pile; the nudges do not change the plays
    assert all((a != b).any() for a, b in zip(g.frames, g.frames[1:]))
    assert bg.make_game(5, 6, size=(320, 240)).plays == g.plays
    rested = bg.make_game(5, 6, size=(320, 240), resting=1.0)       # a hand rests after every play
    assert sorted(rested.resting) == list(range(1, 7)) and rested.plays == g.plays
    assert all((rested.resting[k] == rested.hands[k][-1]).all() for k in rested.resting)   # still, as it came


def test_outcomes_are_what_the_referee_was_told(models_script):
    bg = models_script("bench_game")
    red7, blue7 = Card.parse("red 7"), Card.parse("blue 7")
    assert bg.outcome([], red7) == "lost"
    assert bg.outcome([PileEvent("card", 1.0, card=red7)], red7) == "right"
    assert bg.outcome([PileEvent("card", 1.0, card=blue7)], red7) == "wrong"
    assert bg.outcome([PileEvent("question", 1.0, card=red7, candidates=("red 7",), reason=SAME_CARD)], red7) == "asked right"
    assert bg.outcome([PileEvent("question", 1.0, candidates=("blue 7", "red 7"))], red7) == "asked"
    assert bg.outcome([PileEvent("cleared", 1.0)], red7) == "lost"


class _Knows:
    """Reads each settled frame of a game as the card played last, at a box of its own (a hand's
    frames as nothing): a perfect recogniser."""

    def __init__(self, game, wrong_at=()):
        self.tops = {g.tobytes(): (k, card) for k, (g, card) in enumerate(zip(game.frames[1:], game.plays), start=1)}
        for k, (_, after) in game.nudges.items():
            self.tops[after.tobytes()] = (k, game.plays[k - 1])
        self.wrong_at = set(wrong_at)

    def recognize(self, image, roi=None):
        k, card = self.tops.get(image.tobytes(), (0, None))
        if card is None:
            return Recognition()
        if k in self.wrong_at:
            card = Card.parse("red 1" if card != Card.parse("red 1") else "blue 1")
        box = (10.0 * k, 0.0, 10.0 * k + 100, 150.0)
        d = Detection(card.color, card.symbol, 0.95, box)
        return Recognition([d], d)


def test_a_perfect_recogniser_gets_every_play_right_or_asked_for_a_twin(models_script):
    bg = models_script("bench_game")
    game = bg.make_game(9, 8, size=(320, 240), nudges=0.0)
    twins = sum(a == b for a, b in zip(game.plays, game.plays[1:]))
    res = bg.games(lambda deck: _Knows(bg.make_game(9, 8, size=(320, 240))), 1, 8, first=9, size=(320, 240))
    assert res["plays"] == 8
    assert res["right"] == round((8 - twins) / 8, 4) and res["asked right"] == round(twins / 8, 4)
    assert res["lost"] == res["wrong"] == 0 and res["recognizer_calls"] >= 16


def test_a_misread_play_is_counted_wrong_and_the_hosts_answer_is_applied(models_script):
    bg = models_script("bench_game")
    game = bg.make_game(9, 8, size=(320, 240))
    misses = []
    counts = bg.replay(bg.MotionGate(_Knows(game, wrong_at={3})), game, misses, label="9")
    assert counts["wrong"] == 1 and misses[0].startswith("9 play 3:")
    assert counts["right"] + counts["asked right"] == 7       # the next plays are judged on their own
