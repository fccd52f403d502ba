from collections import Counter

import pytest

from companion.cards import Card, CardError, deck, deck_names, kinds


@pytest.mark.parametrize("text, color, symbol", [
    ("red 7", "red", "7"), ("blue skip", "blue", "skip"), ("green reverse", "green", "reverse"),
    ("yellow draw two", "yellow", "draw_two"), ("Yellow Draw 2", "yellow", "draw_two"),
    ("wild", None, "wild"), ("wild draw four", None, "wild_draw_four"), ("wild +4", None, "wild_draw_four"),
    ("wild swap hands", None, "wild_swap_hands"), ("wild shuffle hands", None, "wild_shuffle_hands"),
    ("wild customizable", None, "wild_customizable"), ("wild seinfeld", None, "wild_seinfeld"),
    ("purple 0", "purple", "0"), ("orange_draw_two", "orange", "draw_two"),
])
def test_parse_and_print_round_trip(text, color, symbol):
    c = Card.parse(text)
    assert (c.color, c.symbol) == (color, symbol)
    assert Card.parse(str(c)) == c


@pytest.mark.parametrize("bad", ["red 10", "pink 3", "red wild", "wild red", "", "skip", 7, None])
def test_parse_rejects(bad):
    with pytest.raises(CardError):
        Card.parse(bad)


def test_classic_deck_is_108_with_official_counts_and_points():
    cards = deck("classic").cards()
    assert len(cards) == 108
    n = Counter(cards)
    assert n[Card.parse("red 0")] == 1 and n[Card.parse("red 9")] == 2 and n[Card.parse("blue skip")] == 2
    assert n[Card.parse("wild")] == 4 and n[Card.parse("wild draw four")] == 4
    assert sum(c.points for c in cards) == 4 * (45 * 2 + 6 * 20) + 8 * 50


def test_classic112_and_seinfeld_profiles():
    d = deck("classic112")
    assert len(d) == 112
    assert Counter(d.cards())[Card.parse("wild customizable")] == 3
    assert Card.parse("wild shuffle hands") in d.cards(alternative=True)
    assert Card.parse("wild swap hands").points == 40 == Card.parse("wild customizable").points
    s = deck("seinfeld")
    assert s.colors == ("blue", "green", "orange", "purple") and len(s) == 112
    assert s.has(Card.parse("wild seinfeld")) and not s.has(Card.parse("red 7"))
    assert Card.parse("wild seinfeld").points == 50
    assert set(deck_names()) >= {"classic", "classic112", "seinfeld"}
    assert kinds()["skip"].points == 20
