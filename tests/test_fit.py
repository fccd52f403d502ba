"""The fit stage (companion.vision.stages.fit): a face's fitting square, and the shipped fitter
drawing a card's outline again where the box it was given is off."""
import json
import shutil

import cv2
import numpy as np
import pytest

from companion.cards import Card
from companion.paths import models_dir
from companion.vision import ModelError, Recognizer
from companion.vision.outline import quad_iou
from companion.vision.render import Style, render_card
from companion.vision.stages import Face, Fitter, Found, Index
from companion.vision.stages.fit import FIT_MARGIN, FIT_SIDE, fit_crop, from_square, to_square

from card_frames import needs_model, on_table

META = models_dir() / "recognizer.json"
needs_fitter = pytest.mark.skipif(not (META.is_file() and json.loads(META.read_text()).get("fitter")),
                                  reason="no fitter in models/recognizer.json")


@pytest.mark.parametrize("angle", [0, 20, 45, 80, 135])
def test_a_faces_square_is_centred_on_its_box_and_turned_with_it(angle):
    quad = cv2.boxPoints(((320, 240), (60, 90), angle))
    pixels, m = fit_crop(np.zeros((480, 640, 3), np.uint8), quad)
    assert pixels.shape == (FIT_SIDE, FIT_SIDE, 3)
    corners = to_square(m, quad)
    # the box's sides run along the square's, its long side 1 / FIT_MARGIN of the square's
    assert np.allclose(corners.mean(0), 0.5, atol=1e-4)
    span = corners.max(0) - corners.min(0)
    assert np.isclose(span.max(), 1 / FIT_MARGIN, atol=1e-3)
    assert np.isclose(span.min(), 60 / 90 / FIT_MARGIN, atol=1e-3)
    assert np.allclose(from_square(m, corners), quad, atol=1e-3)


def test_a_big_faces_square_is_shrunk_by_averaging_not_sampled():
    stripes = np.zeros((2000, 2000, 3), np.uint8)
    stripes[:, ::2] = 255                                  # one-pixel stripes: sampled, they alias
    pixels, _ = fit_crop(stripes, cv2.boxPoints(((1000, 1000), (800, 1200), 0)))
    assert abs(float(pixels.mean()) - 127.5) < 10 and pixels.std() < 20


@needs_model
@needs_fitter
@pytest.mark.parametrize("height, turn", [(60, 20), (150, -15), (300, 10)])
def test_the_fitter_draws_a_cards_outline_again_where_its_box_was_off(height, turn):
    card, style = Card("green", "4"), Style()
    face = render_card(card, style).image
    width = height * face.shape[1] / face.shape[0]
    image = on_table(card, style, height, centre=(300, 250))
    truth = cv2.boxPoints(((300, 250), (width, height), 0))
    off = cv2.boxPoints(((300 + 0.1 * height, 250 - 0.05 * height), (width * 1.15, height * 0.9), turn))   # moved, squashed, turned
    rec = Recognizer("classic")
    fitted = rec.fit(image, Found([Face(off, 0.8)], [Index((1, 2, 3, 4), 0.5)]))
    assert len(fitted.faces) == 1 and fitted.faces[0].score == 0.8
    assert fitted.indices[0].box == (1, 2, 3, 4)             # indices pass as found
    assert quad_iou(fitted.faces[0].quad, truth) > max(0.85, quad_iou(off, truth) + 0.1)


@needs_model
@needs_fitter
def test_no_face_is_no_fitting():
    rec = Recognizer("classic")
    assert rec.fit(np.zeros((480, 640, 3), np.uint8), Found([], [])).faces == []


@needs_model
@needs_fitter
def test_a_missing_fitter_is_named_and_a_folder_without_one_reads_the_finders_outlines(tmp_path):
    meta = json.loads(META.read_text())
    for name in ("recognizer.json", meta["finder"], meta["face_reader"], meta["classifier"]):
        shutil.copy(models_dir() / name, tmp_path / name)
    with pytest.raises(ModelError, match=f"model file missing: .*{meta['fitter']}"):
        Recognizer("classic", model_dir=tmp_path)
    (tmp_path / "recognizer.json").write_text(json.dumps({k: v for k, v in meta.items() if k != "fitter"}))
    assert Recognizer("classic", model_dir=tmp_path).fit is None
    assert isinstance(Recognizer("classic").fit, Fitter)


def test_the_wheel_ships_every_file_the_model_description_names():
    import tomllib
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    if not (root / "models" / "recognizer.json").is_file():
        pytest.skip("no models/ in this checkout")
    meta = json.loads((root / "models" / "recognizer.json").read_text())
    shipped = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    named = ["recognizer.json"] + [v for v in meta.values() if str(v).endswith(".onnx")]
    assert "fitter.onnx" in named
    for name in named:
        assert shipped.get(f"models/{name}") == f"companion/_models/{name}", f"the wheel leaves out models/{name}"
