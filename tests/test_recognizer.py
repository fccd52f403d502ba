"""The recogniser (companion.vision.Recognizer): its result values, its model files, its decks and
settings, and the shipped models on fixed generated piles and photos."""
import dataclasses
import inspect
import json
import shutil

import cv2
import numpy as np
import pytest

from companion.cards import Card
from companion.paths import models_dir
from companion.vision import Detection, ModelError, Recognition, Recognizer
from companion.vision.recognizer import Settings, parse_settings
from companion.vision.render import DESIGNS, Style, render_card
from companion.vision.stages import Face, Found
from companion.vision.synth import make_scene

from card_frames import needs_model, on_table


def test_detection_values():
    d = Detection("red", "7", 0.91234, (1, 2, 3, 4))
    assert d.card == Card.parse("red 7")
    assert Detection("red", "wild", 0.5, (0, 0, 1, 1)).card == Card.parse("wild")
    assert Detection(None, "7", 0.5, (0, 0, 1, 1)).card is None
    assert Recognition([d], d).to_json("x.jpg") == {
        "image": "x.jpg", "cards": [{"color": "red", "symbol": "7", "confidence": 0.9123, "box": [1.0, 2.0, 3.0, 4.0]}],
        "top": {"color": "red", "symbol": "7", "confidence": 0.9123, "box": [1.0, 2.0, 3.0, 4.0]}}
    # no face read surely: no top card, and the likeliest face as "unsure", for a person to confirm
    unsure = Detection("blue", "3", 0.41, (5, 6, 7, 8))
    assert Recognition([], None, unsure).to_json() == {
        "cards": [], "top": None, "unsure": {"color": "blue", "symbol": "3", "confidence": 0.41, "box": [5.0, 6.0, 7.0, 8.0]}}


# ------------------------------------------------------------------ model files, decks, settings

def test_a_folder_without_the_model_description_is_named(tmp_path):
    with pytest.raises(ModelError, match=f"model description missing: {tmp_path}"):
        Recognizer("classic", model_dir=tmp_path)


@needs_model
def test_a_missing_or_damaged_model_file_names_its_path(tmp_path):
    meta = json.loads((models_dir() / "recognizer.json").read_text())
    for name in ["recognizer.json"] + [v for v in meta.values() if str(v).endswith(".onnx")]:
        shutil.copy(models_dir() / name, tmp_path / name)
    (tmp_path / meta["face_reader"]).write_bytes(b"not a model")
    with pytest.raises(ModelError, match=str(tmp_path / meta["face_reader"])):
        Recognizer("classic", model_dir=tmp_path)
    (tmp_path / meta["finder"]).unlink()
    with pytest.raises(ModelError, match=f"model file missing: .*{meta['finder']}"):
        Recognizer("classic", model_dir=tmp_path)
    (tmp_path / "recognizer.json").write_text(json.dumps({"finder": "finder.onnx"}))
    with pytest.raises(ModelError, match="names no finder, face_reader or classifier"):
        Recognizer("classic", model_dir=tmp_path)
    (tmp_path / "recognizer.json").write_text("{not json")
    with pytest.raises(ModelError, match="cannot read"):
        Recognizer("classic", model_dir=tmp_path)


def test_an_unknown_deck_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown deck 'clasic'; choose any, auto or one of"):
        Recognizer("clasic")


@needs_model
def test_each_deck_choice_reads_in_its_own_colours():
    assert Recognizer("classic").colors == ("red", "yellow", "green", "blue")
    assert set(Recognizer("any").colors) == {"red", "yellow", "green", "blue"}     # the scorer's four
    assert {"orange", "purple"} <= set(Recognizer("auto").colors)
    orange = on_table(Card("orange", "7"), Style(), 200)
    assert str(Recognizer("auto").recognize(orange).top.card) == "orange 7"
    assert str(Recognizer("any").recognize(orange).top.card) == "red 7"        # the nearest of the four
    assert str(Recognizer("seinfeld").recognize(on_table(Card("purple", "3"), Style(), 200)).top.card) == "purple 3"


def test_the_classifiers_colour_head_knows_every_decks_colours():
    from companion.cards import deck, deck_names
    from companion.vision.classes import COLOURS
    for name in deck_names():
        assert set(deck(name).colors) <= set(COLOURS), name      # else the head could never name one


def test_every_knob_is_documented_in_one_place():
    src = inspect.getsource(Settings)
    for f in dataclasses.fields(Settings):
        line = next(line for line in src.splitlines() if line.strip().startswith(f"{f.name}:"))
        assert "#" in line, f"{f.name} says nothing of what it trades"
    assert len(dataclasses.fields(Settings)) < 15


def test_settings_are_changed_by_name_and_a_bad_one_is_named():
    s = parse_settings(["index_turns=2", "face_least=0.7"])
    assert s.index_turns == 2 and isinstance(s.index_turns, int) and s.face_least == 0.7
    assert s.stray == Settings().stray
    with pytest.raises(ValueError, match="the settings are"):
        parse_settings(["turns=2"])
    with pytest.raises(ValueError, match="is not a number"):
        parse_settings(["stray=big"])


# ------------------------------------------------------------------ one photo, one look

class _Counting:
    def __init__(self, found):
        self.found, self.calls = found, 0

    def __call__(self, image):
        self.calls += 1
        return self.found


@needs_model
def test_the_recogniser_runs_its_one_network_once_a_photo():
    rec = Recognizer("classic")
    counting = _Counting(Found([Face(np.float32([[100, 50], [200, 50], [200, 200], [100, 200]]), 0.9)], []))
    rec.find = counting
    rec.recognize(on_table(Card("blue", "7"), Style(), 150))
    assert counting.calls == 1


@needs_model
def test_a_face_under_the_bar_is_no_top_card_but_the_unsure_candidate():
    from companion.vision.recognizer import Settings
    image = on_table(Card("green", "4"), Style(), 220)
    sure = Recognizer("classic").recognize(image)
    assert str(sure.top.card) == "green 4" and sure.unsure is None
    # a bar no reading reaches: the same face, with the same confidence, as the candidate to confirm
    doubting = Recognizer("classic", settings=Settings(face_least=1.01)).recognize(image)
    assert doubting.top is None and doubting.cards == []
    assert doubting.unsure == sure.top


@needs_model
@pytest.mark.parametrize("shape", [(1, 1), (1, 500), (500, 1), (0, 5)])
def test_a_photo_a_pixel_high_or_empty_shows_no_card(shape):
    result = Recognizer("auto").recognize(np.zeros(shape + (3,), np.uint8))
    assert result.cards == [] and result.top is None


def test_a_grey_or_missing_image_is_a_clear_error():
    rec = Recognizer.__new__(Recognizer)
    for bad in (None, np.zeros((40, 40), np.uint8), np.zeros((40, 40, 4), np.uint8)):
        with pytest.raises(ValueError, match="needs a BGR colour image"):
            rec.recognize(bad)


@needs_model
def test_the_piles_area_is_read_alone_and_its_boxes_are_in_the_frames_pixels():
    frame = np.full((480, 1280, 3), (90, 120, 80), np.uint8)
    frame[:, 640:] = on_table(Card("green", "4"), Style(), 200)
    frame[:, :640] = on_table(Card("red", "9"), Style(), 200)
    rec = Recognizer("classic")
    got = rec.recognize(frame, roi=(640, 0, 1280, 480))
    assert [str(d.card) for d in got.cards] == ["green 4"]
    x1, _, x2, _ = got.top.box
    assert 640 + 200 < x1 < x2 < 640 + 440
    assert {str(d.card) for d in rec.recognize(frame).cards} == {"green 4", "red 9"}


# ------------------------------------------------------------------ the shipped models

SPECIAL = ["draw_two", "wild_draw_four", "wild", "wild_swap_hands", "wild_shuffle_hands", "wild_customizable"]


@needs_model
@pytest.mark.parametrize("design", DESIGNS)
def test_each_special_card_and_plus_two_and_four_are_read_as_themselves(design):
    rec = Recognizer("any")
    for symbol in SPECIAL:
        card = Card(None if symbol.startswith("wild") else "red", symbol)
        top = rec.recognize(on_table(card, Style(design=design))).top
        assert top is not None and top.symbol == symbol, (design, symbol, top)
        assert top.color == (None if card.is_wild else "red")


@needs_model
def test_shipped_model_reads_fixed_generated_piles():
    rec = Recognizer("auto")
    right, wrong = 0, []
    for seed in range(7_000_000, 7_000_024):
        sc = make_scene(seed, size=(640, 480), kind="pile", effects=False)
        got = rec.recognize(sc.image).top
        if got is not None and got.card == sc.top:
            right += 1
        else:
            wrong.append((str(sc.top), got and str(got.card)))
    assert right >= 21, wrong     # 22 of 24 with the shipped models; the goal is all of them


@needs_model
def test_shipped_model_reads_piles_under_a_warm_bulb():
    # a strong warm cast (blue halved, green at 72%), undone by the light measured on the cards'
    # white: 28 of 30 read with the shipped models (27 of the same piles in white light)
    recs = {}
    right, wrong = 0, []
    for seed in range(7_300_000, 7_300_030):
        sc = make_scene(seed, size=(640, 480), kind="pile")
        warm = (sc.image * np.float32([0.5, 0.72, 1.0])).astype(np.uint8)
        rec = recs.setdefault(sc.deck, Recognizer(sc.deck))
        got = rec.recognize(warm).top
        if got is not None and got.card == sc.top:
            right += 1
        else:
            wrong.append((str(sc.top), got and str(got.card)))
    assert right >= 27, wrong


@needs_model
def test_shipped_model_reports_nothing_on_empty_tables():
    rec = Recognizer("auto")
    clean = sum(not rec.recognize(make_scene(s, size=(640, 480), kind="negative").image).cards
                for s in range(7_100_000, 7_100_020))
    assert clean >= 19


@needs_model
def test_shipped_model_reads_a_faded_decks_top_card_by_its_pale_ink():
    # faded decks (inks 35% of the way to white): a greyish olive under a glare, a lavender over a
    # blue card beneath
    got = []
    for seed in (9_000_150, 9_000_306):
        sc = make_scene(seed, size=(640, 480), kind="pile", faded=0.35)
        top = Recognizer(sc.deck).recognize(sc.image).top
        got.append(top and str(top.card))
    assert got == ["green draw two", "purple 3"]


def held_close(card: Card, style: Style, height: int = 900, size=(640, 480), turn: int = 0) -> np.ndarray:
    """A card face `height` pixels tall (larger than the frame) held over the frame's middle, a
    quarter turn `turn` times: the frame shows its middle, its corners cut off."""
    image = render_card(card, style).image
    s = height / image.shape[0]
    face = np.rot90(image, turn)
    pic = cv2.resize(np.ascontiguousarray(face), None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    w, h = size
    ph, pw = pic.shape[:2]
    out = np.full((h, w, 3), (90, 120, 80), np.uint8)
    x, y = (w - pw) // 2, (h - ph) // 2
    src = pic[max(0, -y): max(0, -y) + h, max(0, -x): max(0, -x) + w]
    out[max(0, y): max(0, y) + src.shape[0], max(0, x): max(0, x) + src.shape[1]] = src
    return out


@needs_model
def test_cards_of_the_sunburst_print_held_close_to_the_lens_are_read():
    # the recent print (a big number on a white half-disc of rays), larger than the frame, its
    # corner indices cut off: the finder and the face reader were taught it (`--sunburst`)
    rec = Recognizer("classic")
    wrong = []
    for seed in (12, 13, 14):
        style = Style.random(np.random.default_rng(seed), "sunburst")
        for text, turn in (("blue 7", 0), ("red 4", 1), ("green 2", 0), ("yellow 5", 1), ("red 8", 0), ("blue 3", 1)):
            card = Card.parse(text)
            top = rec.recognize(held_close(card, style, turn=turn)).top
            if top is None or top.card != card:
                wrong.append((seed, text, top and str(top.card)))
    assert len(wrong) <= 2, wrong       # 18 of 18 with the shipped models; 7 before they were taught the print


def test_the_vision_docstring_examples_run():
    import doctest

    import companion.vision.colour
    import companion.vision.render
    import companion.vision.synth
    for mod in (companion.vision.colour, companion.vision.render, companion.vision.synth):
        result = doctest.testmod(mod)
        assert result.failed == 0 and result.attempted > 0, mod.__name__
