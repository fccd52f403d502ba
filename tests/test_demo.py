"""`companion demo` end to end: rendered frames -> motion gate -> recogniser -> referee, bots on
mock-pin buttons, checked against the real (simulated) cards.

The test with the trained recogniser skips only when its model files are absent; the others use
the simulation's own truth as the "recogniser" (said so in every report) to test everything
around it, including misreads the host has to fix.
"""
from __future__ import annotations

import io
from collections import Counter

import pytest

from companion.cards import Card
from companion.demo import main, player_names, print_summary
from companion.demo.camera import Eyes, _oracle
from companion.demo.game import DemoGame
from companion.table import Table

SEED = 5


def _play(eyes, *, players=("Ann", "Ben", "Cat"), rounds=1, target=500, seed=SEED):
    table = Table(None)
    game = DemoGame(table, eyes, players=list(players), seed=seed, target=target, rounds=rounds)
    try:
        report = game.play()
        history = table.history()
        snap = table.snapshot()
    finally:
        game.close()
        table.close()
    return report, history, snap


def _assert_agrees(report, history, snap):
    """The referee's view matches the real cards, and every channel was really used."""
    assert report.disagreements == []
    assert report.rounds and all(r["ok"] for r in report.rounds)
    r = report.rounds[0]
    assert r["winner"] is not None and r["referee_winner"] == r["winner"]
    assert r["referee_points"] == r["points"] > 0
    assert report.scores == report.truth_scores == snap["scores"]
    assert snap["scores"][r["winner"]] == r["points"]
    sources = Counter(e["source"] for e in history)
    events = Counter(next(iter(e["event"])) for e in history if e["source"] == "button")
    assert sources["camera"] >= report.plays_right > 20          # the cards came through the gate
    assert {"uno", "catch", "challenge", "draw", "verdict"} <= set(events)   # and the buttons through the panel
    kinds = {m["kind"]: m["ok"] for m in report.mistakes}
    assert kinds == {"illegal": True, "forgot_uno": True, "bluff": True}


class Misreader:
    """Answers like the simulation, except that it misreads the cards of the plays in ``wrong``
    (by play number) as another card: the host must fix them and the game must go on."""

    def __init__(self, wrong: set[int], broken: set[int] = frozenset(), wrong_hands: int = 0):
        self.eyes: Eyes | None = None
        self.wrong, self.broken = wrong, broken
        self.wrong_hands = wrong_hands    # so many spread hands are read with one card wrong
        self.bad_hands: list = []
        self.plays: dict[int, int] = {}
        self.kept: list = []              # the shots numbered, kept alive so their ids stay unique

    def recognize(self, image, roi=None):
        shot = self.eyes.truth(image)
        rec = _oracle(shot)
        bad = shot is not None and any(k is shot for k in self.bad_hands)
        if shot is not None and shot.hand and (self.wrong_hands or bad):
            if not bad:                         # every read of this spread goes wrong
                self.wrong_hands -= 1
                self.bad_hands.append(shot)
            first = rec.cards[0]
            rec.cards[0] = type(first)("green" if first.color != "green" else "blue", "5", 0.9, first.box)
            return rec
        if shot is None or shot.truth is None:
            return rec
        if id(shot) not in self.plays:
            self.kept.append(shot)
            self.plays[id(shot)] = len(self.plays) + 1
        n = self.plays[id(shot)]
        if n in self.broken:
            raise RuntimeError("model exploded")
        if n in self.wrong:
            c = shot.truth
            other = Card("green" if c.color != "green" else "blue", "5")
            return _oracle(type(shot)(shot.image, other, shot.box))
        return rec


def test_demo_round_with_misreads_the_host_fixes():
    liar = Misreader({4}, broken={9})
    eyes = Eyes(liar)
    liar.eyes = eyes
    report, history, snap = _play(eyes)
    _assert_agrees(report, history, snap)
    assert len([f for f in report.camera_fixes if not f["twin"]]) == 2
    assert report.plays_right == report.plays_seen - len(report.camera_fixes)
    assert eyes.right < eyes.frames and len(eyes.mistakes) >= 4       # two reads per misread card
    assert {m["seen"] for m in eyes.mistakes} <= {"green 5", "blue 5", "error: model exploded"}
    assert any(m["seen"].startswith("error") for m in eyes.mistakes)
    hosts = [e["event"] for e in history if e["source"] == "host"]
    assert hosts.count({"undo": True}) == 1               # the misread play is taken back ...
    assert any("recogniser error" in f["got"] for f in report.camera_fixes)   # ... the failed read was a question
    out = io.StringIO()
    print_summary(report, out=out)
    assert "fixed by the host" in out.getvalue() and "frames read" in out.getvalue()


def test_demo_scores_from_spread_hands_and_the_host_fixes_a_misread_hand():
    liar = Misreader(set(), wrong_hands=1)
    eyes = Eyes(liar)
    liar.eyes = eyes
    report, history, snap = _play(eyes)
    _assert_agrees(report, history, snap)            # the scores match the real cards
    hands = [e for e in history if "hand" in e["event"]]
    assert report.hands_seen >= 2 and report.hands_right == report.hands_seen - 1
    assert [e["source"] for e in hands].count("host") == 1 and [e["source"] for e in hands].count("camera") >= 2
    assert any(f["card"].endswith("'s hand") for f in report.camera_fixes)
    assert any(m["seen"].startswith("hand ") for m in eyes.mistakes)
    out = io.StringIO()
    print_summary(report, out=out)
    assert f"hands spread for scoring: {report.hands_right}/{report.hands_seen}" in out.getvalue()


def test_demo_twin_goes_in_through_the_cameras_question():
    """A card put on its twin: the gate asks "Was another X played?", the host answers "It was X"."""
    from companion.demo.bots import CAMERA, Move
    table = Table(None)
    game = DemoGame(table, Eyes(oracle=True), players=["Ann", "Ben"], seed=SEED, rounds=1)
    try:
        game.watcher.start(game.events.put)
        game._push(game.scene.still(), 0)
        game._push(game.scene.still(), 1 / 15)
        game.camera.wait()
        game.companion.submit({"setup": game.config.setup()}, source="host")
        game._deal()
        first = next(c for c in game.cards.draw[::-1] if c.is_number)
        game.cards.draw.remove(first)
        game.cards.draw.append(first)
        start = Move("start", None, CAMERA, {"start": str(first)}, card=first)
        game._after(start, game.perform(start))
        who = table.snapshot()["current"]
        game.cards.hands[who][0] = first          # the deck's other copy of that number
        move = Move("play", who, CAMERA, {"play": str(first)}, card=first)
        out = game.perform(move)
        assert [a["type"] for a in out][:1] == ["played"], out
        game._after(move, out)
        assert table.snapshot()["pile"][-2:] == [str(first)] * 2
        assert game.report.disagreements == [] and game.report.camera_fixes == []
        assert game.report.twins == [{"card": str(first), "how": "asked"}]
        assert table.history()[-1]["event"] == {"play": str(first)} and table.history()[-1]["source"] == "host"
        assert game.companion.question is None
        out = io.StringIO()
        print_summary(game.report, out=out)
        assert f'"Was another {first} played?"' in out.getvalue()
    finally:
        game.close()
        table.close()


def test_demo_with_the_seinfeld_deck_names_colours_on_the_buttons():
    table = Table(None)
    game = DemoGame(table, Eyes(oracle=True), players=["Ann", "Ben"], deck="seinfeld", seed=SEED, rounds=1)
    try:
        report = game.play()
        colors = [e for e in table.history() if "color" in e["event"] and len(e["event"]) == 1]
    finally:
        game.close()
        table.close()
    assert report.disagreements == [] and all(r["ok"] for r in report.rounds)
    assert colors and all(e["source"] == "button" for e in colors)
    assert {e["event"]["color"] for e in colors} <= {"blue", "green", "orange", "purple"}


def _models_present() -> bool:
    from companion.paths import models_dir
    d = models_dir()
    return all((d / f).is_file() for f in ("recognizer.json", "detector.onnx", "classifier.onnx"))


@pytest.mark.skipif(not _models_present(), reason="the trained recogniser (models/recognizer.json, "
                    "detector.onnx, classifier.onnx) is not in the repository yet")
def test_demo_round_with_the_real_recogniser():
    from companion.vision.recognizer import Recognizer
    eyes = Eyes(Recognizer(deck="classic"))
    report, history, snap = _play(eyes)
    _assert_agrees(report, history, snap)          # whatever the camera read, the scores are right
    # every card put down is read right; the only plays a host may enter are twins put exactly on
    # their twin (the gate's policy)
    play_mistakes = [m for m in eyes.mistakes if not m["truth"].startswith("hand ")]
    assert play_mistakes == []
    assert eyes.frames > 40
    # no right reading so unsure that it became a question for the host
    unsure = [f for f in report.camera_fixes if not (f["twin"] or f["card"].endswith("'s hand"))]
    assert unsure == []
    # hands spread for scoring: every card of every hand read (a hand is a multiset: the camera
    # reads it in another order than the bots hold it)
    assert report.hands_seen > 0 and report.hands_right == report.hands_seen


def test_demo_command_plays_to_the_target(tmp_path, capsys):
    """The command itself: two bots, a small target so the game ends, the page on a free port."""
    import argparse

    from companion.demo import add_arguments
    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args(["--oracle", "--fast", "--players", "Ann,Ben", "--target", "60", "--seed", "3",
                         "--port", "0", "--db", str(tmp_path / "demo.db")])
    import logging
    before = logging.getLogger("companion.run").level
    assert main(args) == 0
    assert logging.getLogger("companion.run").level == before      # the demo leaves logging as it was
    out = capsys.readouterr().out
    assert "Score page: http://" in out
    assert "wins the game" in out and "NOT the recogniser" in out
    assert "The referee agreed with the real cards all game." in out
    table = Table(tmp_path / "demo.db")
    try:
        snap = table.snapshot()
        assert snap["phase"] == "over" and max(snap["scores"].values()) >= 60
    finally:
        table.close()


def test_demo_without_a_model_stops_with_a_clear_message(monkeypatch, capsys):
    import argparse

    import companion.vision.recognizer as rec
    from companion.demo import add_arguments

    def missing(*a, **kw):
        raise rec.ModelError("model description missing: models/recognizer.json")
    monkeypatch.setattr(rec, "Recognizer", missing)
    p = argparse.ArgumentParser()
    add_arguments(p)
    assert main(p.parse_args(["--fast", "--no-web"])) == 2
    err = capsys.readouterr().err
    assert "no card recogniser" in err and "--oracle" in err


def test_player_names():
    assert player_names(["3"]) == ["Ann", "Ben", "Cat"]
    assert player_names(["Zoe,Yan"]) == ["Zoe", "Yan"]
    assert player_names(["Zoe", "Yan", "Xi"]) == ["Zoe", "Yan", "Xi"]
    for bad in (["1"], ["11"], ["Zoe,Zoe"], ["Zoe"]):
        with pytest.raises(ValueError):
            player_names(bad)


def test_docstring_examples_run():
    import doctest

    import companion.demo.bots
    import companion.demo.scene
    for mod in (companion.demo.bots, companion.demo.scene):
        result = doctest.testmod(mod)
        assert result.failed == 0 and result.attempted > 0, mod.__name__
