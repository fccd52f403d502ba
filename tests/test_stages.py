"""The recogniser's four stages (companion.vision.stages): find, warp, read, decide, each by its
contract, and the pipeline that calls them once each."""
import numpy as np
import pytest
import cv2

from companion.cards import Card
from companion.paths import models_dir
from companion.vision.outline import quad_iou
from companion.vision.render import DESIGNS, Style, render_card
from companion.vision.runtime import ModelError
from companion.vision.stages import Crop, Face, FacePipeline, Reading, decide, warp
from companion.vision.stages.pipeline import Settings
from companion.vision.synth import make_scene

HAVE_MODEL = (models_dir() / "recognizer.json").is_file()
needs_model = pytest.mark.skipif(not HAVE_MODEL, reason="no trained model in models/")

SQUARE = np.float32([[100, 50], [200, 50], [200, 200], [100, 200]])


def face(quad=SQUARE, covered=False, score=0.9):
    return Face(np.float32(quad), covered, score)


def reading(symbol="7", p=0.9, color="red", quad=SQUARE, covered=False):
    return Reading(face(quad, covered), symbol, p, color, 0.9 if color else 0.0)


def on_table(card: Card, style: Style, height: int = 300, size=(640, 480), centre=None) -> np.ndarray:
    """A rendered card face `height` pixels tall on a plain green table, its middle at `centre`."""
    f = render_card(card, style)
    s = height / f.image.shape[0]
    pic = cv2.resize(f.image.astype(np.uint8), None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(f.alpha.astype(np.float32), None, fx=s, fy=s) > 0.5
    w, h = size
    cx, cy = centre or (w // 2, h // 2)
    ph, pw = pic.shape[:2]
    big = np.full((h + 2 * ph, w + 2 * pw, 3), (90, 120, 80), np.uint8)
    y, x = ph + cy - ph // 2, pw + cx - pw // 2
    big[y:y + ph, x:x + pw][alpha] = pic[alpha]
    return np.ascontiguousarray(big[ph:ph + h, pw:pw + w])


# ------------------------------------------------------------------ warp

def test_warp_turns_a_face_upright_at_the_readers_size():
    img = np.zeros((300, 400, 3), np.uint8)
    img[50:200, 100:200] = (0, 0, 255)                       # a red card, 100 wide and 150 tall
    crops = warp(img, [face()])
    assert len(crops) == 1 and isinstance(crops[0], Crop)
    px = crops[0].pixels
    assert px.shape == (96, 64, 3)
    assert (px[5:-5, 5:-5] == (0, 0, 255)).all()              # nothing but the face inside it


def test_warp_reads_a_face_the_frame_cuts_from_what_is_visible():
    img = np.zeros((120, 400, 3), np.uint8)
    img[50:, 100:200] = (255, 0, 0)                           # the face's lower part is out of the frame
    px = warp(img, [face()])[0].pixels
    assert px.shape == (96, 64, 3) and (px[30:-5, 5:-5] == (255, 0, 0)).all()


def test_warp_cuts_both_index_corners_at_the_readers_size():
    from companion.vision.outline import CORNER_VIEW, corner_quads
    a, b = corner_quads(SQUARE)
    su, sv = CORNER_VIEW
    # the first view starts at the outline's first corner and runs along its short side ...
    assert np.allclose(a, [[100, 50], [100 + 100 * su, 50], [100 + 100 * su, 50 + 150 * sv], [100, 50 + 150 * sv]])
    # ... the second at the opposite corner, half a turn round (either may be a printed top-left)
    assert np.allclose(b, [[200, 200], [200 - 100 * su, 200], [200 - 100 * su, 200 - 150 * sv], [200, 200 - 150 * sv]])
    img = np.zeros((300, 400, 3), np.uint8)
    img[50:80, 100:130] = (0, 255, 0)                        # a mark in the card's first corner
    img[170:200, 170:200] = (255, 0, 0)                      # another in the opposite one
    assert warp(img, [face()])[0].corners is None            # an uncovered face is read whole
    corners = warp(img, [face(covered=True)])[0].corners
    assert corners.shape == (2, 96, 64, 3)
    assert (corners[0][3:20, 3:20] == (0, 255, 0)).all() and (corners[1][3:20, 3:20] == (255, 0, 0)).all()


@needs_model
def test_the_corner_reader_reads_covered_faces_only():
    """A covered face is read by its corners too; an uncovered one as the face reader reads it."""
    from pathlib import Path

    from companion.vision.stages.read import Reader
    p = FacePipeline("classic")
    assert p.read.corner_net is not None
    img = on_table(Card("blue", "7"), Style(), 240)
    faces = [f for f in p.find(img) if not f.covered][:1]
    assert faces
    covered = [Face(faces[0].quad, True, faces[0].score)]
    reader_path = models_dir() / p.read.path.name
    plain = Reader(Path(reader_path), p.colors)
    plain.mask = p.read.mask                                  # the deck's symbols, as the pipeline's
    for fs in (faces, covered):
        with_corners, alone = p.read.symbols(warp(img, fs)), plain.symbols(warp(img, fs))
        assert np.isclose(with_corners.sum(), 1) and with_corners.argmax() == alone.argmax()
        assert np.allclose(with_corners, alone) == (not fs[0].covered)


# ------------------------------------------------------------------ decide

def test_the_top_card_is_the_surest_uncovered_face():
    far = SQUARE + [300, 0]
    cards, top = decide([reading("5", 0.99, quad=SQUARE + [0, 250], covered=True), reading("7", 0.8, quad=far),
                         reading("2", 0.95)],
                        least=0.5, same=0.6)
    assert [c.symbol for c in cards] == ["5", "2", "7"]
    assert top.symbol == "2"


def test_decide_leaves_out_unsure_readings_no_cards_and_a_face_found_twice():
    twice = SQUARE + [5, 5]
    cards, top = decide([reading("7", 0.9), reading("7", 0.7, quad=twice), reading("none", 0.99, None, SQUARE + [300, 0]),
                         reading("3", 0.4, quad=SQUARE + [0, 250])], least=0.5, same=0.6)
    assert [c.symbol for c in cards] == ["7"] and top.p == 0.9
    # a coloured card whose colour shows nowhere is no card's face; a wild needs no colour
    cards, top = decide([reading("7", 0.9, None), reading("wild", 0.8, None, SQUARE + [300, 0])], least=0.5, same=0.6)
    assert [c.symbol for c in cards] == ["wild"] and top.symbol == "wild"


def test_a_top_card_found_both_whole_and_as_a_card_under_another_is_the_top_card():
    """The finder may outline the top card twice: whole, and as covered. However surely the covered
    finding reads, the card counts once, as the uncovered face, and it is the top card."""
    cards, top = decide([reading("7", 0.99, quad=SQUARE + [3, 3], covered=True), reading("7", 0.8)],
                        least=0.5, same=0.6)
    assert len(cards) == 1 and not cards[0].face.covered and top is cards[0]


def test_only_covered_faces_give_cards_and_no_top():
    cards, top = decide([reading("4", 0.9, covered=True)], least=0.5, same=0.6)
    assert len(cards) == 1 and top is None


# ------------------------------------------------------------------ the pipeline

class _Counting:
    def __init__(self, faces):
        self.faces, self.calls = faces, 0

    def __call__(self, image):
        self.calls += 1
        return self.faces


@needs_model
def test_the_pipeline_runs_each_stage_once_a_photo():
    p = FacePipeline("classic")
    counting = _Counting([face(SQUARE)])
    p.find = counting
    img = on_table(Card("blue", "7"), Style(), 150)
    p.recognize(img)
    assert counting.calls == 1


@needs_model
def test_a_missing_or_damaged_model_file_names_its_path(tmp_path):
    import json
    import shutil
    meta = json.loads((models_dir() / "recognizer.json").read_text())
    reader = meta.get("face_reader") or meta["cardreader"]
    for name in ("recognizer.json", "outlines.onnx", reader):
        shutil.copy(models_dir() / name, tmp_path / name)
    (tmp_path / reader).write_bytes(b"not a model")
    with pytest.raises(ModelError, match=str(tmp_path / reader)):
        FacePipeline("classic", model_dir=tmp_path)
    (tmp_path / "outlines.onnx").unlink()
    with pytest.raises(ModelError, match="model file missing: .*outlines.onnx"):
        FacePipeline("classic", model_dir=tmp_path)
    (tmp_path / "recognizer.json").write_text(json.dumps({"outlines": "outlines.onnx"}))
    with pytest.raises(ModelError, match="names no outline finder or card reader"):
        FacePipeline("classic", model_dir=tmp_path)
    with pytest.raises(ValueError, match="unknown deck"):
        FacePipeline("clasic", model_dir=tmp_path)


@needs_model
def test_the_finder_finds_a_lone_cards_outline_uncovered():
    sc = make_scene(9_870_001, size=(640, 480), kind="single")
    faces = FacePipeline("any").find(sc.image)
    truth = sc.outlines[-1].quad
    best = max(faces, key=lambda f: quad_iou(f.quad, truth))
    assert quad_iou(best.quad, truth) >= 0.7 and not best.covered


SPECIAL = ["draw_two", "wild_draw_four", "wild", "wild_swap_hands", "wild_shuffle_hands", "wild_customizable"]


@needs_model
@pytest.mark.parametrize("design", DESIGNS)
def test_each_special_card_and_plus_two_and_four_are_read_as_themselves(design):
    p = FacePipeline("any")
    for symbol in SPECIAL:
        card = Card(None if symbol.startswith("wild") else "red", symbol)
        top = p.recognize(on_table(card, Style(design=design))).top
        assert top is not None and top.symbol == symbol, (design, symbol, top)
        assert top.color == (None if card.is_wild else "red")


def test_every_knob_is_documented_in_one_place():
    import dataclasses
    import inspect
    src = inspect.getsource(Settings)
    for f in dataclasses.fields(Settings):
        line = next(line for line in src.splitlines() if line.strip().startswith(f"{f.name}:"))
        assert "#" in line, f"{f.name} says nothing of what it trades"
