"""The totals chart: sums per round, escaped names, readable without colours."""
import xml.etree.ElementTree as ET

from companion.web.chart import totals, totals_chart


def test_totals_accumulate():
    rounds = [{"winner": "Ann", "points": 40}, {"winner": "Ben", "points": 25, "penalties": {"Ann": 10}},
              {"winner": "Ann", "points": 5, "penalties": [{"player": "Cat", "points": 3}]}]
    t = totals(["Ann", "Ben", "Cat"], rounds)
    assert t[0] == {"Ann": 0, "Ben": 0, "Cat": 0}
    assert t[-1] == {"Ann": 55, "Ben": 25, "Cat": 3}


def test_totals_given_by_the_round_win():
    t = totals(["Ann", "Ben"], [{"winner": "Ann", "points": 9, "totals": {"Ann": 100, "Ben": 7}}])
    assert t[-1] == {"Ann": 100, "Ben": 7}


def test_chart_is_valid_svg_with_escaped_names():
    svg = totals_chart(["<b>&", "Ben"], [{"winner": "Ben", "points": 120}], target=500)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "&lt;b&gt;&amp;" in svg
    assert "goal 500" in svg and "Ben 120" in svg
    assert 'stroke-dasharray="6 3"' in svg       # lines differ by dash too


def test_chart_of_no_game_and_many_rounds():
    ET.fromstring(totals_chart([], []))
    many = [{"winner": "A", "points": 7}] * 80
    ET.fromstring(totals_chart(["A", "B"], many, target=None))
