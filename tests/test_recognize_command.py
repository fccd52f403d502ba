"""`companion recognize --json`: the contract of ../shared/eval/score_recognizer.py, and its errors."""
import argparse
import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from companion.paths import models_dir
from companion.vision.synth import make_scene

HAVE_MODEL = (models_dir() / "recognizer.json").is_file()


def run(*args):
    return subprocess.run([sys.executable, "-m", "companion.cli", "recognize", *args],
                          capture_output=True, text=True, timeout=300)


def test_missing_model_is_a_clear_error_naming_the_path(tmp_path):
    img = tmp_path / "a.jpg"
    cv2.imwrite(str(img), make_scene(1, size=(160, 160)).image)
    out = run("--json", "--model-dir", str(tmp_path / "nowhere"), str(img))
    assert out.returncode == 2
    assert str(tmp_path / "nowhere") in out.stderr and out.stdout == ""


def test_corrupt_model_is_a_clear_error(tmp_path):
    (tmp_path / "recognizer.json").write_text(json.dumps({"finder": "finder.onnx", "face_reader": "facereader.onnx",
                                                          "classifier": "classifier.onnx"}))
    for name in ("finder.onnx", "facereader.onnx", "classifier.onnx"):
        (tmp_path / name).write_bytes(b"not a model")
    img = tmp_path / "a.jpg"
    cv2.imwrite(str(img), make_scene(1, size=(160, 160)).image)
    out = run("--json", "--model-dir", str(tmp_path), str(img))
    assert out.returncode == 2 and "finder.onnx" in out.stderr


@pytest.mark.skipif(not HAVE_MODEL, reason="no trained model in models/")
def test_one_json_line_per_image_in_order_and_errors_inline(tmp_path):
    paths = []
    for seed in range(3):
        p = tmp_path / f"img{seed}.jpg"
        cv2.imwrite(str(p), make_scene(100 + seed, size=(320, 240)).image)
        paths.append(str(p))
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    paths.insert(1, str(bad))
    paths.append(str(tmp_path / "missing.png"))
    out = run("--json", *paths)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(l) for l in out.stdout.splitlines()]
    assert [l["image"] for l in lines] == paths
    assert "error" in lines[1] and "error" in lines[-1]
    for l in lines[:1] + lines[2:-1]:
        assert "error" not in l
        assert isinstance(l["cards"], list)
        for c in l["cards"] + ([l["top"]] if l["top"] else []):
            assert set(c) >= {"color", "symbol", "confidence", "box"} and len(c["box"]) == 4


@pytest.mark.skipif(not HAVE_MODEL, reason="no trained model in models/")
def test_the_json_names_only_the_four_colours_the_contract_knows(tmp_path):
    # a Seinfeld purple reverse, and a classic red 9 photographed by a leaning phone whose red the
    # guessed palette ("--deck auto") takes for the Seinfeld orange
    purple, red = tmp_path / "purple.png", tmp_path / "red.png"
    cv2.imwrite(str(purple), make_scene(9_870_021, size=(640, 480), kind="single").image)
    cv2.imwrite(str(red), make_scene(9_880_209, size=(1280, 960), kind="single", tilt=30.0).image)
    out = run("--json", str(purple), str(red))
    assert out.returncode == 0, out.stderr
    tops = [json.loads(line)["top"] for line in out.stdout.splitlines()]
    assert [(t["color"], t["symbol"]) for t in tops] == [("blue", "reverse"), ("red", "9")]
    # the deck's own colours when asked for
    guessed = run("--json", "--deck", "auto", str(purple))
    assert json.loads(guessed.stdout)["top"]["color"] == "purple"


def test_an_unknown_deck_is_a_clear_error_naming_the_choices(tmp_path):
    img = tmp_path / "a.jpg"
    cv2.imwrite(str(img), make_scene(1, size=(160, 160)).image)
    out = run("--json", "--deck", "seinfield", str(img))
    assert out.returncode == 2 and out.stdout == ""
    assert "unknown deck 'seinfield'; choose any, auto or one of classic, classic112, seinfeld" in out.stderr


@pytest.mark.skipif(not HAVE_MODEL, reason="no trained model in models/")
def test_each_photo_is_read_once_as_it_is(tmp_path, monkeypatch, capsys):
    # a phone's photo costs one reading, not one for each proportion a dataset export might have
    # squashed it to; --as-is is gone with the other readings
    from companion.vision import command, recognizer
    calls = []
    real = recognizer.Recognizer.recognize
    monkeypatch.setattr(recognizer.Recognizer, "recognize",
                        lambda self, image, roi=None: calls.append(image.shape) or real(self, image, roi))
    paths = []
    for i, size in enumerate(((640, 480), (480, 640))):
        paths.append(str(tmp_path / f"p{i}.png"))
        cv2.imwrite(paths[-1], make_scene(9_870_259 + i, size=size, kind="single").image)
    args = argparse.Namespace(images=paths, json=True, deck="any", model_dir=None, threads=1)
    assert command.main(args) == 0
    assert calls == [(480, 640, 3), (640, 480, 3)]
    assert [json.loads(line)["image"] for line in capsys.readouterr().out.splitlines()] == paths
    out = run("--json", "--as-is", paths[0])
    assert out.returncode == 2 and "unrecognized arguments: --as-is" in out.stderr



def test_a_large_photo_is_halved_to_photo_side_pixels_at_most_and_its_boxes_come_back_in_its_own():
    from companion.vision.command import PHOTO_SIDE, read_photo
    from companion.vision.recognizer import Detection, Recognition

    class Seen:
        def __init__(self):
            self.shapes = []

        def recognize(self, image):
            self.shapes.append(image.shape)
            d = Detection("red", "7", 0.9, (10.0, 20.0, 110.0, 170.0))
            return Recognition([d], d)

    rec = Seen()
    found = read_photo(rec, np.zeros((3 * PHOTO_SIDE // 2, 2 * PHOTO_SIDE, 3), np.uint8))
    assert rec.shapes == [(3 * PHOTO_SIDE // 4, PHOTO_SIDE, 3)]
    assert found.top.box == (20.0, 40.0, 220.0, 340.0) and found.cards[0].box == found.top.box
    read_photo(rec, np.zeros((3024, 4032, 3), np.uint8))                 # a phone's photo: a quarter
    assert rec.shapes[-1] == (756, 1008, 3)
    small = read_photo(rec, np.zeros((480, 640, 3), np.uint8))         # a frame's size: as it is
    assert rec.shapes[-1] == (480, 640, 3) and small.top.box == (10.0, 20.0, 110.0, 170.0)
    # a face read unsure comes back in the photo's pixels too
    rec.recognize = lambda image: Recognition([], None, Detection("red", "7", 0.4, (10.0, 20.0, 110.0, 170.0)))
    found = read_photo(rec, np.zeros((3 * PHOTO_SIDE // 2, 2 * PHOTO_SIDE, 3), np.uint8))
    assert found.top is None and found.unsure.box == (20.0, 40.0, 220.0, 340.0)
