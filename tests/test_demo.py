"""`companion demo` end to end: rendered frames -> motion gate -> recogniser -> referee, bots on
mock-pin buttons, checked against the real (simulated) cards.

The test with the trained recogniser skips only when its model files are absent; the others use
the simulation's own truth as the "recogniser" (said so in every report) to test everything
around it, including misreads the host has to fix.
"""
from __future__ import annotations

import io
import json
from collections import Counter

import pytest

from companion.cards import Card
from companion.demo import main, plan, player_names
from companion.demo.camera import Eyes, _oracle
from companion.demo.game import DemoGame
from companion.demo.summary import figures, print_summary
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
    asked = [t for t in report.twins if t["how"] == "asked"]
    assert report.plays_right == report.plays_seen - len(report.camera_fixes) - len(asked)
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
    try:
        meta = json.loads((d / "recognizer.json").read_text())
    except (OSError, ValueError):
        return False
    return all((d / str(meta.get(k))).is_file() for k in ("finder", "face_reader", "classifier"))


def _kept(history):
    """The inputs the referee holds at the end: each undo takes back the last one kept."""
    kept = []
    for e in history:
        if "undo" in e["event"]:
            kept.pop()
        elif not {"pause", "resume"} & set(e["event"]):
            kept.append(e)
    return kept


def _block(out: str) -> dict[str, str]:
    """The summary block's lines by their heading (continuation lines joined on)."""
    lines = out.split("=" * 72)[-2].strip().splitlines()
    block, head = {}, None
    for line in lines[1:]:
        if line[:12].strip():
            head = line[:12].strip()
            block[head] = line[12:]
        else:
            block[head] += "\n" + line[12:]
    block["title"] = lines[0]
    return block


@pytest.mark.skipif(not _models_present(), reason="the trained recogniser (models/recognizer.json and "
                    "the finder, face reader and classifier it names) is not in the repository")
def test_the_default_demo_plays_one_round_and_its_summary_matches_the_event_log(tmp_path, capsys):
    """`companion demo` as a newcomer runs it (one round, the real recogniser), headless and fast:
    the summary block's figures are what the game's event log holds."""
    import argparse
    import re

    from companion.demo import add_arguments
    from companion.referee import Referee
    p = argparse.ArgumentParser()
    add_arguments(p)
    db = tmp_path / "demo.db"
    assert main(p.parse_args(["--fast", "--no-web", "--seed", str(SEED), "--db", str(db)])) == 0
    out = capsys.readouterr().out
    assert "play one round" in out.split("\n", 3)[1]            # said before the game starts
    block = _block(out)
    table = Table(db)
    try:
        history, snap = table.history(), table.snapshot()
    finally:
        table.close()
    kept = _kept(history)
    assert snap["round"] == 1 and snap["phase"] != "over" and snap["round_winner"] is not None
    assert block["title"].startswith(f"DEMO OVER: one round, won by {snap['round_winner']}, in ")
    # the scores
    scores = dict(re.findall(r"(\w+) (\d+)", block["Scores"]))
    assert {k: int(v) for k, v in scores.items()} == snap["scores"] and len(scores) == 4
    # every card put down, and those the camera read right with no question and no fix
    cards = [e for e in kept if {"play", "start"} & set(e["event"])]
    n, right = map(int, re.match(r"(\d+) put down, (\d+) read right by the camera", block["Cards"]).groups())
    assert n == len(cards) > 20 and right == sum(e["source"] == "camera" for e in cards)
    # the hands spread for scoring, read by the camera
    hands = [e for e in kept if "hand" in e["event"]]
    seen, read = map(int, re.match(r"(\d+) hands spread for scoring, (\d+) read right", block["Hand scans"]).groups())
    entered = int((re.search(r"(\d+) too big to spread", block["Hand scans"]) or [0, 0])[1])
    assert seen + entered == len(hands) > 0 and read == sum(e["source"] == "camera" for e in hands)
    # the recogniser read every card put down right: only twins put exactly on their twin (the
    # gate's policy) and the camera's "Was another X played?" needed the host
    frames, read_frames, right_frames = map(int, re.match(r"(\d+) filmed, (\d+) read by the recogniser, (\d+) right",
                                                          block["Frames"]).groups())
    assert frames >= read_frames == right_frames > 40
    faces = [next(iter(e["event"].values())) for e in cards]
    assert all(faces[i] == faces[i - 1] for i, e in enumerate(cards) if e["source"] != "camera")
    # each scripted mistake, judged as the referee's own announcements say
    ref = Referee()
    said = [a for e in kept for a in ref.apply(e["event"])]
    types = {a["type"] for a in said}
    guilty = any(a["type"] == "challenge" and a.get("result") == "guilty" for a in said)
    mistakes = block["Mistakes"].split("\n")
    assert len(mistakes) == 3
    for line, caught in zip(mistakes, ("caught" in types, "illegal_play" in types, guilty)):
        assert line.endswith(": caught") == caught, (line, types)
    assert block["Referee"] == "agreed with the real cards all game"
    assert block["Event log"].split("\n")[0] == str(db) and f"companion serve --db {db}" in block["Event log"]


def test_plan_one_round_unless_a_game_is_asked_for():
    import argparse

    from companion.demo import add_arguments
    p = argparse.ArgumentParser()
    add_arguments(p)
    assert plan(p.parse_args([])) == (500, 1)
    assert plan(p.parse_args(["--rounds", "3"])) == (500, 3)
    assert plan(p.parse_args(["--full"])) == (500, None)
    assert plan(p.parse_args(["--target", "200"])) == (200, None)
    assert plan(p.parse_args(["--target", "200", "--rounds", "2"])) == (200, 2)
    for bad in (["--target", "0"], ["--rounds", "0"]):
        with pytest.raises(ValueError):
            plan(p.parse_args(bad))


def test_the_summary_says_which_mistakes_were_not_made(tmp_path):
    """A round that ends before a scripted mistake could be made says so; it is no failure."""
    table = Table(None)
    game = DemoGame(table, Eyes(oracle=True), players=["Ann", "Ben"], seed=SEED, rounds=1)
    try:
        report = game.play()
    finally:
        game.close()
        table.close()
    report.mistakes = [m for m in report.mistakes if m["kind"] != "bluff"]
    f = figures(report)
    assert f["mistakes"]["bluff"] is None and f["mistakes"]["illegal"] is True
    out = io.StringIO()
    print_summary(report, db=str(tmp_path / "x.db"), out=out)
    text = out.getvalue()
    assert "a bluffed Wild Draw Four: not made before the demo ended" in text
    assert f"companion serve --db {tmp_path / 'x.db'}" in text
    report.mistakes[0]["ok"] = False
    out = io.StringIO()
    print_summary(report, out=out)
    assert "NOT CAUGHT" in out.getvalue()


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
