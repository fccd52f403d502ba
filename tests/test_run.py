"""The referee thread of `companion run`: camera events and buttons in, table inputs and sounds out."""
import argparse
import logging
import queue
import socket
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.camera.gate import PileEvent
from companion.camera.pipeline import CameraStatus
from companion.camera.sources import SimulatedSource
from companion.camera.testing import FakeRecognizer
from companion.cards import Card
from companion.config import parse_config
from companion.panel import Buzzer, ButtonDecoder, ColorLeds, Press, RawEdge
from companion.run import Companion, Notifier, Preview, build_watcher, main
from companion.table import Table

from card_frames import needs_model, on_table


class FakeWatcher:
    def __init__(self):
        self.scans = 0
        self.calls = []
        self.status = {"state": "ok"}
        self.tops = []

    def set_top(self, card):
        self.tops.append(card)

    def scan_hand(self):
        self.scans += 1
        self.calls.append("scan")
        return self.scans

    def cancel_scan(self):
        self.calls.append("cancel")

    def latest_jpeg(self):
        return b"\xff\xd8jpeg"

    def latest_detections(self):
        return [{"card": "red 7", "confidence": 0.9, "box": [0, 0, 1, 1]}]


@pytest.fixture
def rig():
    factory = MockFactory(pin_class=MockPWMPin)
    buzzer = Buzzer(18, pin_factory=factory, background=False, sleep=lambda s: None)
    leds = ColorLeds(pin_factory=factory)
    table = Table(None, setup={"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"})
    comp = Companion(table, queue.Queue(), watcher=FakeWatcher(), decoder=ButtonDecoder(), buzzer=buzzer, leds=leds)
    yield comp
    buzzer.close()
    leds.close()
    factory.reset()


def card(name, **kw):
    return PileEvent("card", 0.0, card=Card.parse(name), confidence=0.9, **kw)


def types(out):
    return [a["type"] for a in out]


def test_first_card_starts_then_cards_are_plays(rig):
    assert "start" in types(rig.handle(card("green 5")))
    assert rig.table.snapshot()["current"] == "Ann"
    assert types(rig.handle(card("green 7")))[:1] == ["played"]
    assert rig.table.snapshot()["current"] == "Ben"
    assert rig.leds.showing == ("green", False)
    assert rig.buzzer.played[-1] == "turn"


def test_a_card_taken_back_is_not_a_play(rig):
    rig.handle(card("green 5"))
    rig.handle(card("green 7"))
    assert rig.handle(card("green 7")) == []          # the camera sees the old top again


def test_illegal_play_buzzes(rig):
    rig.handle(card("green 5"))
    out = rig.handle(card("blue 3"))
    assert "illegal_play" in types(out)
    assert rig.buzzer.played[-1] == "illegal_play"


def test_long_pass_undoes(rig):
    rig.handle(card("green 5"))
    rig.handle(card("green 7"))
    out = rig.handle(RawEdge("pass", True, 0.0)) + rig.handle(RawEdge("pass", False, 1.5))
    assert types(out) == ["undone"]
    assert rig.table.snapshot()["top"] == "green 5"


def test_wild_colour_from_a_button_and_leds_blink_meanwhile(rig):
    rig.handle(card("green 5"))
    rig.handle(card("wild"))
    assert rig.table.snapshot()["awaiting"]["input"] == "color"
    assert rig.leds.showing == (None, True) or rig.leds.showing[1] is True
    out = rig.handle(RawEdge("blue", True, 3.0))
    assert "color_named" in types(out)
    assert rig.table.snapshot()["color"] == "blue"
    assert rig.leds.showing == ("blue", False)


def test_wild_draw_four_draw_button_accepts(rig):
    rig.handle(card("green 5"))
    rig.handle(card("wild draw four"))
    rig.handle(Press("red", False, 1.0))
    assert rig.table.snapshot()["awaiting"]["input"] == "challenge_or_accept"
    out = rig.handle(Press("draw", False, 2.0))
    assert "accepted" in types(out) or rig.table.snapshot()["hand_counts"]["Ben"] == 11


def test_challenge_asks_for_a_hand_scan(rig):
    rig.handle(card("green 5"))
    rig.handle(card("wild draw four"))
    rig.handle(Press("red", False, 1.0))
    rig.handle(Press("challenge", False, 2.0))
    need = rig.table.snapshot()["awaiting"]["input"]
    assert need in ("verdict", "reveal")
    assert rig.watcher.scans == 1
    out = rig.handle(Press("green", False, 3.0))          # manual fallback: green = innocent
    assert out and rig.table.snapshot()["awaiting"]["input"] != need


def test_question_buzzes_and_is_kept_for_the_page(rig):
    out = rig.handle(PileEvent("question", 1.0, candidates=("red 3", "red 8"), reason="the readings disagree"))
    assert types(out) == ["question"] and rig.buzzer.played[-1] == "question"
    assert rig.question["candidates"] == ["red 3", "red 8"]
    assert Preview(rig.watcher, rig).status()["question"]["reason"] == "the readings disagree"
    rig.handle(card("green 5"))
    assert rig.question is None


def test_status_changes_reach_the_page_and_a_host_answer_closes_the_question(rig):
    pings = []
    preview = Preview(rig.watcher, rig)
    unsubscribe = preview.subscribe(lambda: pings.append(preview.status()))
    rig.handle(CameraStatus("failed", "unplugged", 4.0))
    rig.handle(PileEvent("question", 1.0, candidates=("red 7", "red 1"), reason="the readings disagree"))
    assert len(pings) == 2 and pings[-1]["question"]["candidates"] == ["red 7", "red 1"]
    rig.table.submit({"start": "red 7"}, source="page")      # the host answers on the Fix page
    assert preview.status()["question"] is None and pings[-1]["question"] is None
    assert rig.watcher.tops == ["red 7"]                       # and the gate learns the top card
    unsubscribe()
    rig.handle(CameraStatus("ok"))
    assert len(pings) == 3


def test_host_dismisses_a_question(rig):
    preview = Preview(rig.watcher, rig)
    assert preview.dismiss_question() is False
    rig.handle(PileEvent("question", 1.0, candidates=(), reason="nothing readable"))
    assert preview.dismiss_question() is True and preview.status()["question"] is None
    assert Preview(None).status() == {"state": "off"} and Preview(None).dismiss_question() is False


def test_the_gate_hears_of_host_changes_to_the_top_card_only(rig):
    rig.handle(card("green 5"))
    rig.handle(card("green 7"))
    assert rig.watcher.tops == []                               # the camera's own cards: it knows
    rig.table.submit({"undo": True}, source="page")
    assert rig.watcher.tops == ["green 5"]
    rig.table.submit({"draw": 1}, source="page")                # the top card did not change
    assert rig.watcher.tops == ["green 5"]


def test_paused_table_refuses_buttons_and_camera_with_a_buzz(rig):
    rig.handle(card("green 5"))
    rig.table.pause("pizza")
    out = rig.handle(card("green 7"))
    assert types(out) == ["rejected"] and "pizza" in out[0]["text"]
    assert rig.buzzer.played[-1] == "question"
    assert rig.handle(Press("draw", False, 1.0))[0]["paused"] is True
    assert rig.table.snapshot()["top"] == "green 5"
    rig.table.resume()
    assert "played" in types(rig.handle(card("green 7")))


def test_button_that_means_nothing_now_beeps(rig):
    assert rig.handle(Press("yellow", False, 0.0)) == []
    assert rig.buzzer.played[-1] == "question"


def test_camera_failure_buzzes_once_per_outage(rig):
    for s in ["failed", "failed", "failed", "ok", "failed"]:
        rig.handle(CameraStatus(s, "unplugged"))
    assert rig.buzzer.played.count("camera") == 2


def test_run_loop_with_watchdog(tmp_path):
    path = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(5)
    table = Table(None, setup={"players": ["Ann", "Ben"], "dealer": "Ben"})
    q = queue.Queue()
    comp = Companion(table, q, notifier=Notifier(env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}))
    th = threading.Thread(target=comp.run)
    th.start()
    messages = [server.recv(256).decode() for _ in range(2)]
    assert messages[0].startswith("READY=1") and messages[1] == "WATCHDOG=1"
    q.put(card("red 4"))
    q.put({"play": "red 9"})
    q.put("garbage")                         # ignored, never fatal
    comp.stop()
    th.join(5)
    assert server.recv(256) == b"STOPPING=1"
    assert table.snapshot()["top"] == "red 9"
    server.close()


def test_notifier_without_systemd_and_abstract_sockets():
    assert Notifier(env={}).watchdog() is False
    n = Notifier(env={"NOTIFY_SOCKET": "@/org/example/notify", "WATCHDOG_USEC": "30000000"})
    assert n.address == "\0/org/example/notify" and n.interval == 15.0


def test_resume_tells_the_gate_the_top_card(tmp_path):
    db = tmp_path / "game.db"
    t = Table(db, setup={"players": ["Ann", "Ben"], "dealer": "Ben"})
    t.submit({"start": "yellow 2"})
    t.submit({"play": "yellow 6"})
    t.close()
    t2 = Table(db, setup={"players": ["X", "Y"]})       # a restart: the log wins over the config
    snap = t2.snapshot()
    assert snap["top"] == "yellow 6" and snap["players"] == ["Ann", "Ben"]
    cfg = parse_config("")
    watcher = build_watcher(cfg, snap["top"], recognizer=FakeRecognizer(), source=SimulatedSource())
    assert str(watcher.gate.top) == "yellow 6"
    t2.close()


def test_main_rejects_a_bad_config(tmp_path, caplog):
    p = tmp_path / "t.toml"
    p.write_text("[camera]\nfsp = 3\n")
    with caplog.at_level(logging.ERROR):
        assert main(argparse.Namespace(config=str(p), no_camera=True, no_web=True, run_for=0.1)) == 2
    assert "camera.fsp" in caplog.text


def test_main_runs_and_resumes(tmp_path, caplog, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    import companion.panel
    monkeypatch.setattr(companion.panel, "_factory", None)
    p = tmp_path / "t.toml"
    p.write_text("[table]\nplayers = ['Ann', 'Ben']\ndb = 'game.db'\n")
    args = argparse.Namespace(config=str(p), no_camera=True, no_web=True, run_for=0.2)
    assert main(args) == 0
    t = Table(tmp_path / "game.db")
    t.submit({"start": "red 1"})
    t.close()
    monkeypatch.setattr(companion.panel, "_factory", None)
    with caplog.at_level(logging.INFO, logger="companion.run"):   # `companion demo` may have quietened it
        assert main(args) == 0
    assert "resumed the game" in caplog.text


# -- companion calibrate ---------------------------------------------------------------------------

def test_focus_and_exposure_checks():
    import cv2
    from companion.calibrate import SHARP, SOFT, check_frame, focus_score
    from companion.camera.testing import PILE_ROI, card_frame
    sharp = card_frame("red 7")
    assert focus_score(sharp, PILE_ROI) > SHARP
    assert focus_score(cv2.GaussianBlur(sharp, (21, 21), 8), PILE_ROI) < SOFT
    assert [c.ok for c in check_frame(sharp, PILE_ROI)] == [True, True]
    dark = check_frame(card_frame("red 7", light=0.2), PILE_ROI)[0]
    assert not dark.ok and "too dark" in dark.message


@needs_model
def test_calibrate_checks_framing_and_that_each_colour_reads_right(tmp_path, capsys):
    import cv2
    from companion.calibrate import main as calibrate
    from companion.camera.testing import card_frame
    from companion.vision.render import Style
    frames, photos = tmp_path / "frames", tmp_path / "photos"
    frames.mkdir(), photos.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i}.png"), on_table(Card("green", "2"), Style(), 120))
    for c in ["red", "yellow", "green", "blue"]:
        cv2.imwrite(str(photos / f"{c}.png"), on_table(Card(c, "9"), Style(), 200))
    cfg = tmp_path / "t.toml"
    cfg.write_text(f"[camera]\nsource = 'replay'\npath = '{frames}'\n\n[pile]\nroi = [200, 120, 440, 360]\n")
    args = argparse.Namespace(config=str(cfg), snapshot=str(tmp_path / "shot.jpg"), colors=False,
                              from_dir=None, frames=3)
    assert calibrate(args) == 0                      # framing, exposure, focus and a card's size from the camera
    out = capsys.readouterr().out
    assert "focus: sharp" in out and "card size: good" in out and (tmp_path / "shot.jpg").exists()
    args.from_dir = str(photos)
    assert calibrate(args) == 0                      # each colour's card read in its colour
    out = capsys.readouterr().out
    assert all(f"ok  {c}: read as {c} 9" in out for c in ["red", "yellow", "green", "blue"]), out
    cv2.imwrite(str(photos / "yellow.png"), on_table(Card("green", "9"), Style(), 200))
    assert calibrate(args) == 1                      # a card that reads in another colour is named
    out = capsys.readouterr().out
    assert "FIX yellow: read as green 9" in out and "ok  red" in out
    cv2.imwrite(str(photos / "blue.png"), card_frame(None))
    assert calibrate(args) == 1
    assert "FIX blue: no card read" in capsys.readouterr().out


def test_card_size_check_names_small_and_large_cards_and_suggests_a_pile_area_the_config_takes():
    from companion.calibrate import check_card_size, suggest_roi
    from companion.vision.detection import Detection, Recognition

    def seen(box, top=True):
        d = Detection("red", "7", 0.9, box)
        return Recognition([d], d if top else None, None if top else d)
    good = check_card_size(seen((250, 150, 350, 310)), (640, 480))             # a third of the frame's height
    assert good.ok and "33%" in good.message
    small = check_card_size(seen((500, 400, 530, 445), top=False), (640, 480))   # unsure, 45 px: still measured
    assert not small.ok and "9% of the frame's height" in small.message
    roi = suggest_roi((500, 400, 530, 445), (640, 480))
    assert f"roi = [{roi[0]}, {roi[1]}, {roi[2]}, {roi[3]}]" in small.message
    cfg = parse_config(f"[pile]\nroi = [{roi[0]}, {roi[1]}, {roi[2]}, {roi[3]}]\n")     # the config takes it as printed
    assert cfg.pile.roi == roi and roi[0] < 500 < 530 < roi[2] and roi[3] == 480   # round the card, in the frame
    assert check_card_size(seen((500, 400, 530, 445)), (640, 480), roi).ok      # and the card reads well in it
    assert suggest_roi((0, 0, 4, 4), (640, 480)) == (0, 0, 43, 32)             # never under the config's 32 px
    large = check_card_size(seen((0, 0, 300, 470)), (640, 480))
    assert not large.ok and "raise the camera" in large.message
    assert "widen pile.roi" in check_card_size(seen((0, 0, 300, 470)), (640, 480), (0, 0, 640, 400)).message
    empty = check_card_size(Recognition(), (640, 480))
    assert not empty.ok and "no card read" in empty.message


@needs_model
def test_calibrate_finds_cards_too_small_and_the_pile_area_it_suggests_reads_them_well(tmp_path, capsys):
    import re

    import cv2
    from companion.calibrate import main as calibrate
    from companion.vision.render import Style
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):      # a camera far above the table: a card 60 px tall of 480
        cv2.imwrite(str(frames / f"{i}.png"), on_table(Card("blue", "5"), Style(), 60, centre=(420, 300)))
    cfg = tmp_path / "t.toml"
    cfg.write_text(f"[camera]\nsource = 'replay'\npath = '{frames}'\n")
    args = argparse.Namespace(config=str(cfg), snapshot=str(tmp_path / "shot.jpg"), colors=False,
                              from_dir=None, frames=3)
    assert calibrate(args) == 1
    out = capsys.readouterr().out
    assert "FIX card size: small" in out, out
    roi = re.search(r"roi = \[[0-9, ]+\]", out).group(0)
    cfg.write_text(cfg.read_text() + f"\n[pile]\n{roi}\n")
    assert calibrate(args) == 0, capsys.readouterr().out        # set as suggested: the card reads well
    assert "ok  card size: good" in capsys.readouterr().out


def test_hand_scan_answers_a_challenge(rig):
    rig.handle(card("green 5"))
    rig.handle(card("wild draw four"))
    rig.handle(Press("red", False, 1.0))
    rig.handle(Press("challenge", False, 2.0))
    assert rig.table.snapshot()["awaiting"]["input"] in ("verdict", "reveal")
    hand = PileEvent("hand", 3.0, cards=(Card.parse("green 1"), Card.parse("blue 2")))
    out = rig.handle(hand)
    assert out, "the revealed hand must be submitted"
    assert rig.table.history()[-1]["event"] == {"reveal": ["green 1", "blue 2"]}


def test_frames_to_referee_end_to_end():
    """Rendered frames -> SimulatedSource -> CardWatcher -> Companion -> Table, in one thread."""
    from companion.camera.gate import MotionGate
    from companion.camera.pipeline import CardWatcher
    from companion.camera.testing import PILE_ROI, card_frame
    table = Table(None, setup={"players": ["Ann", "Ben"], "dealer": "Ben"})
    src = SimulatedSource()
    watcher = CardWatcher(src, MotionGate(FakeRecognizer(), roi=PILE_ROI, settle=0.4))
    comp = Companion(table, queue.Queue(), watcher=watcher)
    script, prev = [], None
    for k, name in enumerate(["yellow 4", "yellow 9", "red 9", "red 2"]):
        script += [card_frame(prev, hand=(60 + 50 * i, 400 - 30 * i)) for i in range(6)]
        script += [card_frame(name, under=(prev,) if prev else (), offset=(5 * k, -4 * k))] * 12
        prev = name
    for i, image in enumerate(script):
        src.push(image, t=i / 15)
    src.end()
    for event in watcher.events():
        comp.handle(event)
    snap = table.snapshot()
    assert snap["top"] == "red 2" and snap["current"] == "Ben"
    assert [h["event"] for h in table.history()[1:]] == [
        {"start": "yellow 4"}, {"play": "yellow 9"}, {"play": "red 9"}, {"play": "red 2"}]
    assert [h["source"] for h in table.history()[1:]] == ["camera"] * 4


def scoring_rig(rig, players=("Ann", "Ben", "Cat")):
    """Ann goes out (one card each), so the referee waits for the hands of Ben and Cat."""
    table = Table(None, setup={"players": list(players), "dealer": players[-1], "rules": {"hand_size": 1}})
    comp = Companion(table, queue.Queue(), watcher=FakeWatcher(), buzzer=rig.buzzer)
    comp.handle(card("green 5"))
    comp.handle(card("green 7"))
    assert table.snapshot()["awaiting"]["input"] == "hand"
    return comp


def hand(*names, scan=0):
    return PileEvent("hand", 5.0, cards=tuple(Card.parse(n) for n in names), scan=scan)


def test_every_hand_at_the_end_of_a_round_is_scanned(rig):
    comp = scoring_rig(rig)
    assert comp.watcher.calls == ["scan"]
    out = comp.handle(hand("red 2", "blue skip", scan=1))           # a misreading: Ben holds one card
    assert types(out) == ["rejected"] and comp.watcher.scans == 2     # ... so Ben's hand is scanned again
    comp.handle(hand("blue skip", scan=2))                           # Ben's cards
    assert comp.table.snapshot()["awaiting"]["player"] == "Cat"
    assert comp.watcher.calls[-1] == "scan" and comp.watcher.scans == 3
    comp.handle(hand("wild", scan=3))                                # Cat's cards
    assert (comp.table.snapshot()["awaiting"] or {}).get("input") != "hand"
    assert [h["event"] for h in comp.table.history()[-2:]] == [
        {"hand": {"player": "Ben", "cards": ["blue skip"]}}, {"hand": {"player": "Cat", "cards": ["wild"]}}]
    assert comp.table.snapshot()["scores"]["Ann"] == 20 + 50
    assert comp.watcher.scans == 3 and comp.watcher.calls[-1] == "scan"   # nothing more to scan


def test_an_empty_hand_scan_is_ignored_and_scanned_again(rig):
    comp = scoring_rig(rig)
    seq = comp.table.snapshot()["seq"]
    assert comp.handle(hand(scan=1)) == []                          # the cards were picked up
    assert comp.table.snapshot()["seq"] == seq and comp.watcher.scans == 2


def test_a_hand_entered_on_the_page_cancels_the_scan_and_the_next_hand_is_scanned(rig):
    comp = scoring_rig(rig)
    comp.table.submit({"hand": {"player": "Ben", "cards": ["red 2"]}}, source="page")
    assert comp.table.snapshot()["awaiting"]["player"] == "Cat"
    assert comp.watcher.calls == ["scan", "cancel", "scan"]          # a fresh scan for Cat
    comp.handle(hand("blue 3", scan=1))                              # late: Ben's scan, cancelled
    assert comp.table.snapshot()["awaiting"]["player"] == "Cat"
    comp.handle(hand("blue 4", scan=2))
    assert comp.table.history()[-1]["event"] == {"hand": {"player": "Cat", "cards": ["blue 4"]}}
    comp.table.submit({"undo": True}, source="page")                 # the host takes it back: scan again
    assert comp.watcher.calls[-1] == "scan" and comp.watcher.scans == 3


def test_a_verdict_from_a_button_cancels_the_scan_so_the_next_play_counts(rig):
    rig.handle(card("green 5"))
    rig.handle(card("wild draw four"))
    rig.handle(Press("red", False, 1.0))
    rig.handle(Press("challenge", False, 2.0))
    assert rig.watcher.calls == ["scan"]
    rig.handle(Press("green", False, 3.0))                           # innocent, from the button
    assert rig.watcher.calls == ["scan", "cancel"]
    need = rig.table.snapshot()["awaiting"]["input"]
    assert need == "play"
    assert rig.handle(hand("red 1", scan=1)) == []                   # a stale scan changes nothing
    player = rig.table.snapshot()["current"]
    out = rig.handle(card("red 4"))
    assert "played" in types(out) and rig.table.history()[-1]["event"] == {"play": "red 4"}
    assert rig.table.snapshot()["current"] != player


def test_the_scan_and_its_cancel_reach_the_gate():
    from companion.camera.gate import MotionGate
    from companion.camera.pipeline import CardWatcher
    from companion.camera.testing import PILE_ROI, card_frame
    src = SimulatedSource()
    gate = MotionGate(FakeRecognizer(), roi=PILE_ROI, settle=0.4)
    watcher = CardWatcher(src, gate)
    assert watcher.scan_hand() == 1 and watcher.scan_hand() == 2
    watcher.cancel_scan()
    frames = [card_frame("red 7")] * 5 + [card_frame("red 7", hand=(300, 300))] * 3 + [card_frame("green 2")] * 20
    for i, image in enumerate(frames):
        src.push(image, t=i / 15)
    src.end()
    events = [e for e in watcher.events() if isinstance(e, PileEvent)]
    assert [(e.kind, str(e.card)) for e in events] == [("card", "green 2")]   # a play, not a hand
    assert not gate.scanning


def test_same_card_question_asks_whether_another_was_played(rig):
    from companion.camera.gate import SAME_CARD
    rig.handle(card("green 5"))
    out = rig.handle(PileEvent("question", 2.0, card=Card.parse("green 5"), candidates=("green 5",),
                               reason=SAME_CARD))
    assert out[0]["text"] == "Was another green 5 played?"
    assert Preview(rig.watcher, rig).status()["question"]["text"] == "Was another green 5 played?"
    rig.table.submit({"play": "green 5"}, source="page")             # the page's "It was green 5"
    assert rig.question is None and rig.table.snapshot()["pile"][-2:] == ["green 5", "green 5"]
