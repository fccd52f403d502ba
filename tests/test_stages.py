"""The recogniser's stages (companion.vision.stages): find, warp, read, decide (fit: test_fit.py), each by its
contract, and the pipeline that calls them once each."""
import numpy as np
import pytest

from companion.cards import Card
from companion.vision.outline import quad_iou
from companion.vision.recognizer import Recognizer
from companion.vision.render import Style
from companion.vision.classes import SYMBOLS
from companion.vision.outline import FoundOutline
from companion.vision.stages import Crop, Face, Finder, Found, Index, Reading, Readings, decide, warp
from companion.vision.synth import make_scene

from card_frames import needs_model, on_table

SQUARE = np.float32([[100, 50], [200, 50], [200, 200], [100, 200]])


def face(quad=SQUARE, score=0.9):
    return Face(np.float32(quad), score)


def probs(symbol: str, p: float) -> np.ndarray:
    """A reading's probabilities: `p` on `symbol`, the rest spread over the others."""
    out = np.full(len(SYMBOLS), (1 - p) / (len(SYMBOLS) - 1))
    out[SYMBOLS.index(symbol)] = p
    return out


def on_face(symbol="7", p=0.9, color="red", quad=SQUARE, score=0.9):
    return Reading(face(quad, score), probs(symbol, p), {color: 0.9} if color else {})


def at_index(symbol="7", p=0.9, color="red", box=(100, 50, 120, 75)):
    return Reading(Index(tuple(float(v) for v in box), 0.8), probs(symbol, p), {color: 0.9} if color else {})


def decision(faces=(), indices=(), face_least=0.5, index_least=0.5, stray=0.1):
    return decide(Readings(list(faces), list(indices)), face_least=face_least, index_least=index_least,
                  stray=stray)


def decided(*args, **kw):
    """The cards and the top card (`decision` without the unsure candidate)."""
    cards, top, _ = decision(*args, **kw)
    return cards, top


# ------------------------------------------------------------------ find

class _Net:
    """An outline network's stand-in: what it finds, surest first."""

    def __init__(self, found):
        self.found = found

    def find(self, image):
        return self.found


def test_the_finder_gives_faces_upright_and_indices_upright_boxes():
    finder = Finder.__new__(Finder)
    turned = np.float32([[10, 0], [20, 10], [10, 20], [0, 10]])        # an index seen turned 45 degrees
    finder.net = _Net([FoundOutline("card", SQUARE, 0.9), FoundOutline("card", SQUARE + 4, 0.8),
                       FoundOutline("index", turned, 0.7), FoundOutline("card", SQUARE + [300, 0], 0.6),
                       FoundOutline("hand", turned * 10, 0.5)])
    found = finder(np.zeros((300, 600, 3), np.uint8))
    assert isinstance(found, Found)
    assert [f.score for f in found.faces] == [0.9, 0.8, 0.6]   # the network's own overlap test is the only one
    assert found.indices == [Index((0.0, 0.0, 20.0, 20.0), 0.7)]
    assert found.indices[0].centre == (10.0, 10.0)
    assert len(found.hands) == 1 and np.array_equal(found.hands[0], turned * 10)     # a hand is no face


def test_an_index_the_frame_cuts_is_its_part_in_view():
    finder = Finder.__new__(Finder)
    big = np.float32([[-60, 200], [100, 40], [260, 200], [100, 360]])   # a centre symbol held close, turned
    sliver = np.float32([[-9, 10], [1, 10], [1, 30], [-9, 30]])          # barely in view
    finder.net = _Net([FoundOutline("index", big, 0.8), FoundOutline("index", sliver, 0.7)])
    assert finder(np.zeros((300, 600, 3), np.uint8)).indices == [Index((0.0, 40.0, 260.0, 300.0), 0.8)]


def test_a_finder_file_of_other_classes_is_refused_naming_it():
    from pathlib import Path
    from companion.vision.runtime import ModelError
    outlines = Path(__file__).resolve().parents[1] / "models" / "outlines.onnx"     # card, under
    with pytest.raises(ModelError, match="outlines.onnx"):
        Finder(outlines)


@needs_model
def test_the_finder_finds_a_lone_cards_face_and_its_indices():
    sc = make_scene(9_870_001, size=(640, 480), kind="single")
    from companion.vision.dataset import labelled_outlines
    found = Recognizer("any").find(sc.image)
    # the face as the finder learnt it: a card the frame cuts, by the turned rectangle round its visible part
    truth = next(q for _, cls, q in labelled_outlines(sc.outlines, 640, 480) if cls == "card")
    best = max(found.faces, key=lambda f: quad_iou(f.quad, truth))
    assert quad_iou(best.quad, truth) >= 0.7
    labelled = [lab.box for lab in sc.labels if lab.cls == "index"]
    assert labelled
    for x1, y1, x2, y2 in labelled:            # each index in view found where it is
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        assert any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in (i.box for i in found.indices))


# ------------------------------------------------------------------ warp

def test_warp_turns_a_face_upright_at_the_readers_size():
    img = np.zeros((300, 400, 3), np.uint8)
    img[50:200, 100:200] = (0, 0, 255)                       # a red card, 100 wide and 150 tall
    crops = warp(img, Found([face()], []))
    assert len(crops.faces) == 1 and isinstance(crops.faces[0], Crop) and crops.indices == []
    px = crops.faces[0].pixels
    assert px.shape == (96, 64, 3)
    assert (px[5:-5, 5:-5] == (0, 0, 255)).all()              # nothing but the face inside it


def test_warp_reads_a_face_the_frame_cuts_from_what_is_visible():
    img = np.zeros((120, 400, 3), np.uint8)
    img[50:, 100:200] = (255, 0, 0)                           # the face's lower part is out of the frame
    px = warp(img, Found([face()], [])).faces[0].pixels
    assert px.shape == (96, 64, 3) and (px[30:-5, 5:-5] == (255, 0, 0)).all()


def test_warp_cuts_each_index_square_at_the_classifiers_size():
    img = np.zeros((300, 400, 3), np.uint8)
    img[100:140, 200:230] = (0, 255, 0)                      # an index 30 wide, 40 tall
    crops = warp(img, Found([], [Index((200.0, 100.0, 230.0, 140.0), 0.9)]))
    px = crops.indices[0].pixels
    assert px.shape == (48, 48, 3) and crops.indices[0].index.score == 0.9
    assert (px[20:28, 20:28] == (0, 255, 0)).all() and (px[:3, :3] == 0).all()   # the index, padded


def test_warp_measures_the_rooms_light_on_the_found_cards_white():
    img = np.full((300, 400, 3), 60, np.uint8)               # a dark table
    img[50:200, 100:200] = 240                               # a white card ...
    img[100:150, 130:170] = (200, 60, 20)                    # ... with a blue ink
    assert np.allclose(warp(img, Found([face()], [])).light, 1, atol=0.03)
    warm = (img * np.float32([0.56, 0.76, 1.0])).astype(np.uint8)
    light = warp(warm, Found([face()], [])).light
    assert light[0] == pytest.approx(1 / 0.56, rel=0.03) and light[1] == pytest.approx(1 / 0.76, rel=0.03)
    assert light[2] == 1.0                                   # the strongest channel stays


# ------------------------------------------------------------------ read

@needs_model
def test_the_reader_names_a_face_and_an_index_in_the_decks_symbols_and_colours():
    p = Recognizer("classic")
    img = on_table(Card("blue", "7"), Style(), 240)
    found = p.find(img)
    readings = p.read(warp(img, found))
    assert len(readings.faces) == 1 and readings.indices
    for r in readings.faces + readings.indices:
        assert np.isclose(r.probs.sum(), 1) and r.probs[SYMBOLS.index("wild_seinfeld")] == 0   # not this deck's
    assert readings.faces[0].symbol == "7" and readings.faces[0].color == "blue"
    assert any(r.symbol == "7" and r.color == "blue" for r in readings.indices)


@needs_model
def test_an_index_half_in_a_hard_shadow_keeps_its_cards_colour():
    # a yellow card under a shadow's straight edge (a third of the light, a little bluer, as
    # `bench-conditions`' hard shadow): the palette matcher read a shaded yellow index green
    p = Recognizer("classic")
    img = on_table(Card("yellow", "7"), Style(), 300)
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for ang in np.linspace(0, np.pi, 6, endpoint=False):
        edge = np.clip(((xx - w / 2) * np.cos(ang) + (yy - h / 2) * np.sin(ang)) / 3 + 0.5, 0, 1)[..., None]
        shaded = (img * (1 - edge + edge * np.float32([0.40, 0.35, 0.30]))).astype(np.uint8)
        readings = p.read(warp(shaded, p.find(shaded), index_size=p.read.index_size))
        assert [r.color for r in readings.indices if r.symbol == "7"] and all(
            r.color == "yellow" for r in readings.indices if r.symbol == "7"), ang
        assert p.recognize(shaded).top.color == "yellow"


# ------------------------------------------------------------------ decide

def test_the_top_card_is_the_surest_face_and_an_index_on_no_face_is_a_covered_card():
    far = SQUARE + [300, 0]
    cards, top = decided([on_face("7", 0.8, quad=far), on_face("2", 0.95)], [at_index("5", 0.99, box=(100, 400, 120, 425))])
    assert [(c.symbol, c.uncovered) for c in cards] == [("5", False), ("2", True), ("7", True)]
    assert top.symbol == "2"


def test_a_face_is_named_by_its_own_reading_and_its_indices_together():
    # the face alone leans to 1; both its indices read 7: it is a 7, and they are no cards of their own
    cards, top = decided([on_face("1", 0.6)], [at_index("7", 0.9), at_index("7", 0.9, box=(180, 175, 200, 200))])
    assert [c.symbol for c in cards] == ["7"] and top.symbol == "7" and top.p > 0.9
    # an index outside the face's outline is a card of its own
    cards, _ = decided([on_face("7", 0.9)], [at_index("7", 0.9, box=(205, 200, 225, 220))])
    assert len(cards) == 2


def spread(**shares) -> np.ndarray:
    """A reading's probabilities: the shares given by symbol, the rest spread over the others."""
    out = np.full(len(SYMBOLS), (1 - sum(shares.values())) / (len(SYMBOLS) - len(shares)))
    for symbol, p in shares.items():
        out[SYMBOLS.index(symbol)] = p
    return out


def test_a_cards_index_at_a_faces_edge_does_not_outvote_the_face_and_its_own_index():
    # a blue 1 read surely, its own corner read 1; a red 2 beneath shows its corner at the face's
    # edge, read 2 beyond doubt (a held-out pile's numbers): that corner may be another card's
    # (`stray`), and the face stays a 1; taken as the face's own, it would outvote the two
    face_ = Reading(face(), spread(**{"1": 0.83, "2": 0.015}), {"blue": 0.9})
    own = Reading(Index((100.0, 50.0, 120.0, 75.0), 0.8), spread(**{"1": 0.79, "2": 0.1}), {"blue": 0.9})
    beneath = Reading(Index((190.0, 185.0, 210.0, 205.0), 0.7), spread(**{"2": 0.94, "1": 0.0013}), {"red": 0.9})
    _, top = decided([face_], [own, beneath])
    assert top.symbol == "1" and top.color == "blue" and top.p >= 0.6
    _, top = decided([face_], [own, beneath], stray=0.0)
    assert top is None or top.symbol != "1"


def test_an_index_on_a_face_makes_it_a_card_and_lends_it_its_colour():
    cards, top = decided([on_face("none", 0.7, color=None)], [at_index("3", 0.9, color="green")])
    assert [(c.symbol, c.color) for c in cards] == [("3", "green")] and top.uncovered


def test_a_hand_over_a_faces_middle_is_outvoted_by_the_cards_own_indices():
    # a green 9 whose middle a hand covers: most of the middle's ink is the hand's skin, read red
    # (held-out pile 9,550,018); both its corner indices read green
    middle = Reading(face(), probs("9", 0.95), {"red": 0.7, "green": 0.2, "yellow": 0.1})
    corners = [at_index("9", 0.95, color="green", box=b) for b in ((100, 50, 120, 75), (180, 170, 200, 195))]
    _, top = decided([middle], corners)
    assert (top.symbol, top.color) == ("9", "green")
    # a card beneath with another symbol lends the face no colour
    _, top = decided([middle], [at_index("4", 0.95, color="green")])
    assert (top.symbol, top.color) == ("9", "red")


def test_decide_leaves_out_unsure_readings_no_cards_and_colourless_coloured_cards():
    cards, top = decided([on_face("none", 0.99, None), on_face("3", 0.4, quad=SQUARE + [300, 0])],
                         [at_index("4", 0.4, box=(0, 400, 20, 420)), at_index("none", 0.9, None, (300, 400, 320, 420))])
    assert cards == [] and top is None
    # a coloured card whose colour shows nowhere is no card; a wild needs no colour
    cards, top = decided([on_face("7", 0.9, None), on_face("wild", 0.8, None, SQUARE + [300, 0])])
    assert [c.symbol for c in cards] == ["wild"] and top.symbol == "wild" and top.color is None


def test_where_no_face_reads_surely_the_surest_unsure_face_is_the_candidate_for_the_host():
    unsure_3, unsure_8 = on_face("3", 0.4, quad=SQUARE + [300, 0]), on_face("8", 0.55, color="blue")
    cards, top, unsure = decision([on_face("none", 0.99, None), unsure_3, unsure_8], face_least=0.6)
    assert cards == [] and top is None and (unsure.symbol, unsure.color, unsure.uncovered) == ("8", "blue", True)
    assert unsure.p == pytest.approx(0.55, abs=0.01)
    # a face read surely leaves no candidate; nor do "no card" and a colourless coloured card
    assert decision([unsure_3, on_face("7", 0.9)], face_least=0.6).unsure is None
    assert decision([on_face("none", 0.45, None), on_face("5", 0.4, None)], face_least=0.6).unsure is None
    # a covered card's index never stands for the top card
    assert decision([], [at_index("4", 0.3)], face_least=0.6).unsure is None


def test_only_covered_cards_give_cards_and_no_top():
    cards, top = decided([], [at_index("4", 0.9)])
    assert len(cards) == 1 and top is None
