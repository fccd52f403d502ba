"""The synthetic generator: deterministic per seed, and its labels match what was drawn."""
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card
from companion.vision.dataset import crop_square
from companion.vision.render import CARD_H, CARD_W, DESIGNS, SHAPES, Style, render_card, render_playing_card
from companion.vision.synth import Canvas, Label, card_quad, make_scene
from companion.vision.tilt import camera_tilt

ROOT = Path(__file__).resolve().parents[1]


def test_same_seed_same_scene_and_different_seeds_differ():
    a, b, c = make_scene(11, size=(256, 256)), make_scene(11, size=(256, 256)), make_scene(12, size=(256, 256))
    assert a == b
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("design", DESIGNS)
def test_faces_have_two_indices_and_a_centre_inside_the_card(design):
    style = Style.random(np.random.default_rng(3), design)
    for text in ("red 7", "blue skip", "yellow draw two", "wild", "wild draw four", "purple 9", "wild seinfeld"):
        face = render_card(Card.parse(text), style)
        assert face.image.shape == (CARD_H, CARD_W, 3)
        assert len(face.indices) == 2 and face.centre is not None
        for x1, y1, x2, y2 in face.indices + [face.centre]:
            assert 0 <= x1 < x2 <= CARD_W and 0 <= y1 < y2 <= CARD_H


def test_index_boxes_cover_printed_ink():
    """The index box lies where the face differs from its plain body colour."""
    style = Style.random(np.random.default_rng(5), "modern")
    face = render_card(Card.parse("green 4"), style)
    x1, y1, x2, y2 = (int(v) for v in face.indices[0])
    patch = face.image[y1:y2, x1:x2].astype(int)
    assert (np.abs(patch - np.array(style.inks["green"])).sum(-1) > 150).mean() > 0.1


def test_covered_card_loses_its_labels_and_top_card_keeps_them():
    rng = np.random.default_rng(0)
    style = Style.random(rng, "classic")
    canvas = Canvas(np.full((400, 400, 3), 90, np.float32))
    low = canvas.place(render_card(Card.parse("red 3"), style), card_quad(200, 200, 200, 0, rng, 0))
    top = canvas.place(render_card(Card.parse("blue 5"), style), card_quad(200, 200, 200, 0, rng, 0))
    assert canvas.visible(low, low.face.indices[0])[0] == 0.0
    v, box = canvas.visible(top, top.face.indices[0])
    assert v > 0.9 and box is not None
    assert canvas.covered_by_cards(low)[0] > 0.9 and canvas.covered_by_cards(top)[0] == 0.0


def test_scene_labels_name_the_top_card():
    found = 0
    for seed in range(40):
        sc = make_scene(seed, size=(320, 320), kind="pile")
        if sc.top is not None:
            found += 1
            assert any(l.cls == "card" and l.card == sc.top for l in sc.labels)
        for l in sc.labels:
            x1, y1, x2, y2 = l.box
            assert 0 <= x1 < x2 <= 320 and 0 <= y1 < y2 <= 320
    assert found > 25


def test_negative_scenes_have_no_face_labels():
    for seed in range(15):
        sc = make_scene(seed, size=(256, 256), kind="negative")
        assert sc.labels == [] and sc.top is None and sc.cards == []


@pytest.mark.parametrize("tilt", [0, 30])
def test_lookalike_scenes_are_negatives_with_their_printed_ranks_boxed(tilt):
    # ordinary playing cards (a white card, a red or black rank in two corners) and score sheets:
    # no UNO label, and the boxes of their ranks and numbers lie on ink (for "none" crops)
    seen = 0
    for seed in range(8):
        sc = make_scene(300 + seed, size=(320, 240), kind="lookalike", tilt=tilt)
        assert sc.labels == [] and sc.top is None and sc.cards == []
        assert sc == make_scene(300 + seed, size=(320, 240), kind="lookalike", tilt=tilt)
        for x1, y1, x2, y2 in sc.lookalikes:
            assert 0 <= x1 < x2 <= 320 and 0 <= y1 < y2 <= 240
        seen += len(sc.lookalikes)
    assert seen >= 8
    face = render_playing_card(np.random.default_rng(0))
    x1, y1, x2, y2 = face.indices[0]
    patch = face.image[y1:y2, x1:x2].astype(int)
    assert (patch.min(-1) < 120).mean() > 0.05          # the rank's ink is in its box
    assert face.card is None


def test_crops_of_lookalikes_are_none(tmp_path):
    import json
    from companion.vision.dataset import write_crops
    rows = json.loads(write_crops(tmp_path, count=3, first_seed=700, procs=1, kinds=("lookalike",)).read_text())
    look = [r for r in rows if r["cls"] == "lookalike"]
    assert look and all(r["symbol"] == "none" for r in rows)
    assert all((tmp_path / r["file"]).is_file() for r in look)


@pytest.mark.parametrize("seed", range(6))
def test_a_tilted_camera_carries_the_labels_with_what_was_drawn(seed):
    # a white card on a dark table: after the tilt its label box is still the card's white pixels
    img = np.full((480, 640, 3), 40, np.float32)
    img[150:330, 260:380] = 255
    card = Card.parse("red 7")
    out, labels = camera_tilt(img, [Label("card", (260, 150, 380, 330), card)], np.random.default_rng(seed), 45)
    assert out.shape == img.shape and not np.array_equal(out, img)
    ys, xs = np.nonzero(out[..., 0] > 150)
    (lab,) = labels
    assert lab.card == card
    assert np.allclose(lab.box, (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1), atol=3)
    assert lab.visible == 1.0       # the card is whole in the frame


def test_a_card_the_tilted_view_cuts_at_the_frame_edge_is_less_visible():
    cut_seen = 0
    for seed in range(12):
        img = np.full((480, 640, 3), 40, np.float32)
        img[10:210, 20:170] = 255           # a card near the frame's corner: the tilt's zoom may cut it
        img[220:260, 300:340] = 255         # a small card in the middle: never cut
        corner, middle = Card.parse("red 7"), Card.parse("blue 2")
        out, labels = camera_tilt(img, [Label("card", (20, 10, 170, 210), corner),
                                        Label("card", (300, 220, 340, 260), middle)], np.random.default_rng(seed), 45)
        seen = {lab.card: lab for lab in labels}
        assert seen[middle].visible == 1.0
        if corner in seen:                  # (else its centre left the frame)
            ys, xs = np.nonzero(out[:200, :200, 0] > 150)
            if xs.min() == 0 or ys.min() == 0:
                cut_seen += 1
                assert seen[corner].visible < 1.0
    assert cut_seen


def test_tilt_is_its_own_random_stream():
    assert make_scene(21, size=(320, 240)) == make_scene(21, size=(320, 240), tilt=0.0)
    tilted = make_scene(21, size=(320, 240), tilt=40)
    assert tilted == make_scene(21, size=(320, 240), tilt=40)
    assert not np.array_equal(tilted.image, make_scene(21, size=(320, 240)).image)


def _fonts():
    from companion.vision.dataset import pick_fonts
    try:
        return pick_fonts(["DejaVuSans-Bold", "STIXGeneralBol"])
    except ValueError:
        pytest.skip("no TrueType fonts on this machine (Debian's fonts-dejavu, or matplotlib's)")


def test_truetype_fonts_print_the_numbers_and_the_labels_still_box_them():
    font = _fonts()[0]
    hershey = Style.random(np.random.default_rng(5), "modern")
    truetype = Style.random(np.random.default_rng(5), "modern")
    truetype.font = font
    a, b = render_card(Card.parse("green 4"), hershey), render_card(Card.parse("green 4"), truetype)
    assert not np.array_equal(a.image, b.image)        # another shape of 4
    x1, y1, x2, y2 = (int(v) for v in b.indices[0])
    patch = b.image[y1:y2, x1:x2].astype(int)
    assert (np.abs(patch - np.array(truetype.inks["green"])).sum(-1) > 150).mean() > 0.1
    for text in ("red 6", "blue draw two", "wild draw four", "wild seinfeld"):     # 6 underlined, +2, +4, S
        face = render_card(Card.parse(text), truetype)
        assert len(face.indices) == 2 and face.centre is not None


def test_opentype_fonts_are_found_and_unfit_cuts_are_not(tmp_path):
    from companion.vision.glyphs import text_mask, truetype_fonts
    font = Path(_fonts()[0]).read_bytes()
    for name in ("Sans-Bold.ttf", "Rounded-Black.otf", "Lato-Hairline.ttf", "Inter-Thin.otf",
                 "D050000L.otf", "notes.txt"):
        (tmp_path / name).write_bytes(font)
    found = [Path(p).name for p in truetype_fonts([tmp_path, tmp_path / "missing"])]
    assert found == ["Rounded-Black.otf", "Sans-Bold.ttf"]
    style = Style.random(np.random.default_rng(5), "modern")
    style.font = str(tmp_path / "Rounded-Black.otf")
    assert text_mask("7", 48, style).max() == 255       # an OpenType file draws like a TrueType one


def test_fonts_change_a_scene_only_when_given():
    fonts = _fonts()
    plain = make_scene(33, size=(320, 240))
    assert make_scene(33, size=(320, 240), fonts=()) == plain
    printed = make_scene(33, size=(320, 240), fonts=fonts, font_share=1.0)
    assert printed == make_scene(33, size=(320, 240), fonts=fonts, font_share=1.0)
    assert not np.array_equal(printed.image, plain.image)


ACTIONS = ("red skip", "blue reverse", "green draw two", "wild", "wild draw four")


@pytest.mark.parametrize("design", DESIGNS)
@pytest.mark.parametrize("way", SHAPES[1:])
def test_each_way_of_drawing_the_action_symbols_is_its_own_and_its_boxes_hold_the_symbol(design, way):
    classic = Style.random(np.random.default_rng(4), design)
    other = Style.random(np.random.default_rng(4), design)
    other.shapes = way
    for text in ACTIONS:
        a, b = render_card(Card.parse(text), classic), render_card(Card.parse(text), other)
        x1, y1, x2, y2 = (int(v) for v in b.centre)
        assert (np.abs(a.image[y1:y2, x1:x2].astype(int) - b.image[y1:y2, x1:x2]).sum(-1) > 60).mean() > 0.02, text
        assert len(b.indices) == 2
        for box in b.indices + [b.centre]:       # inside the card, and ink (not the plain white) in it
            x1, y1, x2, y2 = (int(v) for v in box)
            assert 0 <= x1 < x2 <= CARD_W and 0 <= y1 < y2 <= CARD_H
            patch = b.image[y1:y2, x1:x2].astype(int)
            assert (np.abs(patch - np.array(other.white)).sum(-1) > 150).mean() > 0.1, text
        if text.split()[-1] in ("skip", "reverse"):      # the corner index is drawn the same new way
            x1, y1, x2, y2 = (int(v) for v in b.indices[0])
            assert not np.array_equal(a.image[y1:y2, x1:x2], b.image[y1:y2, x1:x2]), text


def test_the_ways_of_drawing_change_a_scene_only_when_given():
    favour = ("skip", "reverse", "draw_two", "wild", "wild_draw_four")
    plain = make_scene(35, size=(320, 240), favour=favour)
    assert make_scene(35, size=(320, 240), favour=favour, shapes=()) == plain
    drawn = make_scene(35, size=(320, 240), favour=favour, shapes=(3,), shape_share=1.0)
    assert drawn == make_scene(35, size=(320, 240), favour=favour, shapes=(3,), shape_share=1.0)
    classic = make_scene(35, size=(320, 240), favour=favour, shapes=(0,), shape_share=1.0)
    assert [l.card for l in drawn.labels] == [l.card for l in classic.labels]     # the same cards, drawn otherwise
    assert not np.array_equal(drawn.image, classic.image)


@pytest.mark.parametrize("design", DESIGNS)
def test_a_themed_deck_has_a_picture_in_the_middle_and_its_symbol_small_and_boxed(design):
    plain = Style.random(np.random.default_rng(6), design)
    themed = Style.random(np.random.default_rng(6), design)
    themed.theme = 11
    for text in ("red 7", "blue skip", "green draw two"):
        a, b = render_card(Card.parse(text), plain), render_card(Card.parse(text), themed)
        assert b.indices == a.indices and np.array_equal(b.image[:40, :40], a.image[:40, :40])    # corners as ever
        middle = (slice(CARD_H // 2 - 30, CARD_H // 2 + 10), slice(CARD_W // 2 - 40, CARD_W // 2))
        assert (np.abs(a.image[middle].astype(int) - b.image[middle]).sum(-1) > 60).mean() > 0.3, text
        x1, y1, x2, y2 = b.centre
        assert (x2 - x1) < 0.6 * (a.centre[2] - a.centre[0]) and x1 > CARD_W * 0.4 and y1 > CARD_H * 0.4
        assert np.array_equal(b.image, render_card(Card.parse(text), themed).image)       # the same picture
    other = render_card(Card.parse("red 8"), themed).image
    assert not np.array_equal(other[middle], render_card(Card.parse("red 7"), themed).image[middle])
    assert np.array_equal(render_card(Card.parse("wild"), themed).image, render_card(Card.parse("wild"), plain).image)


def test_themed_decks_only_when_asked_for():
    # themed=1.0 draws a picture on every coloured card (the same each time); without it, none
    kind = dict(size=(320, 240), kind="single")
    plain = make_scene(38, **kind)
    themed = make_scene(38, **kind, themed=1.0)
    assert themed == make_scene(38, **kind, themed=1.0)
    assert not np.array_equal(themed.image, plain.image)
    assert themed.lookalikes and not plain.lookalikes       # the picture's parts, boxed as "none"


@pytest.mark.parametrize("design", DESIGNS)
def test_a_themed_pictures_parts_are_boxed_clear_of_every_symbol(design):
    # the blobs of a themed picture are "none" crops for the classifier: they lie in the picture
    # (where the card differs from the plain deck's) and hold no part of an index or the centre
    plain = Style.random(np.random.default_rng(8), design)
    themed = Style.random(np.random.default_rng(8), design)
    themed.theme = 5
    found = 0
    for text in ("red 7", "blue skip", "green draw two", "yellow 9", "red reverse", "blue 0"):
        a, b = render_card(Card.parse(text), plain), render_card(Card.parse(text), themed)
        assert a.decoys == []
        for d in b.decoys:
            found += 1
            x1, y1, x2, y2 = (int(v) for v in d)
            changed = np.abs(a.image[y1:y2, x1:x2].astype(int) - b.image[y1:y2, x1:x2]).sum(-1) > 60
            assert changed.mean() > 0.1, (text, d)
            for box in b.indices + [b.centre]:
                assert min(x2, box[2]) <= max(x1, box[0]) or min(y2, box[3]) <= max(y1, box[1]), (text, d, box)
    assert found >= 4
    assert render_card(Card.parse("wild"), themed).decoys == []


def test_crops_of_a_themed_pictures_parts_are_none(tmp_path):
    import json
    from companion.vision.dataset import write_crops
    plain = json.loads(write_crops(tmp_path / "p", count=4, first_seed=40, procs=1, kinds=("single",)).read_text())
    rows = json.loads(write_crops(tmp_path / "t", count=4, first_seed=40, procs=1, kinds=("single",),
                                  themed=1.0).read_text())
    assert not [r for r in plain if r["cls"] == "lookalike"]
    look = [r for r in rows if r["cls"] == "lookalike"]
    assert look and all(r["symbol"] == "none" for r in look)
    assert {r["symbol"] for r in rows if r["cls"] == "centre"} <= {r["symbol"] for r in rows if r["cls"] == "index"} | {"wild"}


def test_a_big_print_is_shrunk_by_averaging_not_sampled():
    # a fine checkerboard (paper grain, JPEG noise on a close photo) shrunk to a 48 px crop is an
    # even grey, not an aliased pattern
    img = np.zeros((1200, 1200, 3), np.uint8)
    img[::2, ::2] = 255
    img[1::2, 1::2] = 255
    crop = crop_square(img, (100, 100, 900, 900), 48)
    assert crop.shape == (48, 48, 3) and crop.std() < 5 and abs(crop.mean() - 127.5) < 3


def test_detector_dataset_of_tilted_small_scenes_has_labels_inside_the_frame(tmp_path):
    from companion.vision.dataset import write_detector_dataset
    write_detector_dataset(tmp_path, count=4, val=0, procs=1, first_seed=500, heights=(0.1, 0.3), tilt=40)
    rows = [line.split() for f in (tmp_path / "labels" / "train").glob("*.txt") for line in f.read_text().splitlines()]
    assert rows and len(list((tmp_path / "images" / "train").glob("*.jpg"))) == 4
    for cls, *xywh in rows:
        x, y, w, h = map(float, xywh)
        assert cls in ("0", "1", "2") and 0 <= x - w / 2 + 1e-6 and x + w / 2 <= 1 + 1e-6 and 0 < h <= 0.5


def test_detector_dataset_can_hold_only_chosen_kinds(tmp_path):
    from companion.vision.dataset import write_detector_dataset
    write_detector_dataset(tmp_path / "neg", count=3, val=0, procs=1, first_seed=600, kinds=("negative",))
    assert [f.read_text() for f in (tmp_path / "neg" / "labels" / "train").glob("*.txt")] == ["", "", ""]
    write_detector_dataset(tmp_path / "pile", count=3, val=0, procs=1, first_seed=600, kinds=("pile",))
    assert all("2 " in f.read_text() for f in (tmp_path / "pile" / "labels" / "train").glob("*.txt"))
    with pytest.raises(ValueError, match="unknown scene kinds"):
        write_detector_dataset(tmp_path / "bad", count=1, val=0, procs=1, first_seed=600, kinds=("piles",))


def test_crops_with_a_font_that_is_not_there_is_a_clear_error(tmp_path, capsys):
    from companion.vision.dataset import main
    with pytest.raises(SystemExit):
        main(["crops", str(tmp_path / "c"), "--count", "1", "--fonts", "NoSuchFontAnywhere"])
    assert "no TrueType font named NoSuchFontAnywhere" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


def test_a_faded_deck_is_the_same_scene_printed_paler():
    import cv2

    plain = make_scene(9_000_150, size=(320, 240), kind="pile")
    faded = make_scene(9_000_150, size=(320, 240), kind="pile", faded=0.35)
    assert [(lb.cls, lb.box) for lb in faded.labels] == [(lb.cls, lb.box) for lb in plain.labels]
    assert [str(c) for c in faded.cards] == [str(c) for c in plain.cards]
    x1, y1, x2, y2 = (int(v) for v in next(lb.box for lb in plain.labels if lb.cls == "card"))
    sat = [float(cv2.cvtColor(sc.image[y1:y2, x1:x2], cv2.COLOR_BGR2HSV)[..., 1].mean()) for sc in (plain, faded)]
    assert sat[1] < 0.8 * sat[0]


def _cut_and_covered_canvas():
    """A blue 5 half past the frame's right edge, and a red 3 whose centre a blue 8 half covers."""
    rng = np.random.default_rng(0)
    style = Style.random(rng, "classic")
    canvas = Canvas(np.full((400, 600, 3), 90, np.float32))
    cut = canvas.place(render_card(Card.parse("blue 5"), style), card_quad(600, 200, 240, 0, rng, 0))
    low = canvas.place(render_card(Card.parse("red 3"), style), card_quad(150, 200, 240, 0, rng, 0))
    canvas.place(render_card(Card.parse("blue 8"), style), card_quad(150, 200 + 240 * 0.55, 240, 0, rng, 0))
    return canvas, cut, low


def test_cut_labels_box_a_centre_and_a_face_only_the_frame_cuts():
    from companion.vision.synth import CUT_CENTRE, _collect
    canvas, cut, low = _cut_and_covered_canvas()
    v_cut, _, framed_cut = canvas.seen(cut, cut.face.centre)
    v_low, _, framed_low = canvas.seen(low, low.face.centre)
    assert CUT_CENTRE <= v_cut < 0.7 and CUT_CENTRE <= v_low < 0.7     # both half seen
    assert framed_cut < 0.7 and framed_low > 0.97       # the one past the frame's edge, the other covered
    plain = {(lb.cls, str(lb.card)) for lb in _collect(canvas)[0]}
    cut_labels = {(lb.cls, str(lb.card)) for lb in _collect(canvas, cut=True)[0]}
    assert ("centre", "blue 5") not in plain and ("card", "blue 5") not in plain
    # the frame's edge cut the blue 5: its centre and face are boxed; the covered red 3's centre is not
    assert cut_labels - plain == {("centre", "blue 5"), ("card", "blue 5")}


def test_hands_and_cut_labels_change_a_scene_only_when_given():
    # cut labels add labels only: the picture and every label without them stay as they were
    for seed in range(700, 720):
        plain = make_scene(seed, size=(320, 240), kind="single")
        cut = make_scene(seed, size=(320, 240), kind="single", cut_labels=True)
        assert np.array_equal(cut.image, plain.image)
        assert {(lb.cls, lb.box) for lb in plain.labels} <= {(lb.cls, lb.box) for lb in cut.labels}
    seen = {}
    for hands in (0.0, 1.0):
        seen[hands] = [{(lb.cls, str(lb.card)): lb.visible for lb in make_scene(s, size=(320, 240), kind="pile",
                                                                               hands=hands).labels}
                       for s in range(700, 706)]
    # the same cards laid the same way; a hand over the pile hides some of what shows without it
    changed = 0
    for bare, covered in zip(seen[0.0], seen[1.0]):
        assert set(covered) <= set(bare) and all(v <= bare[k] for k, v in covered.items())
        changed += covered != bare
    assert changed >= 3


def test_a_loose_pile_is_the_same_cards_further_apart_and_labels_its_cards_beneath_covered():
    spread, same = [], 0
    for seed in range(720, 740):
        tight = make_scene(seed, size=(480, 360), kind="pile")
        loose = make_scene(seed, size=(480, 360), kind="pile", loose=1.0)
        same += np.array_equal(make_scene(seed, size=(480, 360), kind="pile", loose=0.0).image, tight.image)
        # the same cards, the same top card, laid further from it
        assert [o.card for o in loose.outlines] == [o.card for o in tight.outlines] and loose.top == tight.top
        for t, lo in zip(tight.outlines[:-1], loose.outlines[:-1]):
            top_t, top_l = tight.outlines[-1].quad.mean(0), loose.outlines[-1].quad.mean(0)
            spread.append((np.linalg.norm(lo.quad.mean(0) - top_l), np.linalg.norm(t.quad.mean(0) - top_t)))
        # a card beneath that any card covers, however little, is no uncovered face
        faces = {str(lb.card) for lb in loose.labels if lb.cls == "card"}
        assert all(str(o.card) not in faces for o in loose.outlines if o.covered >= 0.04
                   and all(o.card != p.card for p in loose.outlines if p is not o))
    assert same == 20
    assert np.median([a for a, _ in spread]) > 1.3 * np.median([b for _, b in spread])


def test_detector_dataset_command_checks_the_share_of_hands(tmp_path, capsys):
    from companion.vision.dataset import main
    with pytest.raises(SystemExit):
        main(["detector", str(tmp_path / "d"), "--count", "1", "--hands", "1.5"])
    assert "--hands is a share of the scenes" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("side", range(4))
def test_a_frame_cut_ends_the_picture_across_the_symbol_on_the_side_drawn(side):
    from companion.vision.dataset import frame_cut
    img = np.random.default_rng(5).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    box = (150.0, 100.0, 210.0, 180.0)

    class Side:       # a generator whose first integer is the side
        def __init__(self):
            self.rng = np.random.default_rng(side)

        def uniform(self, *a):
            return self.rng.uniform(*a)

        def integers(self, n):
            return side

    view, (x1, y1, x2, y2) = frame_cut(img, box, Side())
    # the view is the image up to an edge that runs through the box, on the side asked for
    ox, oy = {0: (img.shape[1] - view.shape[1], 0), 2: (0, img.shape[0] - view.shape[0])}.get(side, (0, 0))
    assert np.array_equal(view, img[oy:oy + view.shape[0], ox:ox + view.shape[1]])
    assert [(x1, y1, x2, y2)[k] in (0.0, view.shape[1 - k % 2]) for k in range(4)].count(True) == 1
    # ... and the box's part in view is the same pixels, 45-75% of the symbol
    assert 0 <= x1 < x2 <= view.shape[1] and 0 <= y1 < y2 <= view.shape[0]
    kept = (x2 - x1) * (y2 - y1) / ((box[2] - box[0]) * (box[3] - box[1]))
    assert 0.44 <= kept <= 0.76
    assert np.array_equal(view[int(y1):int(y2), int(x1):int(x2)],
                          img[int(y1) + oy:int(y2) + oy, int(x1) + ox:int(x2) + ox])


def test_crops_can_add_centre_symbols_cut_by_the_frame(tmp_path):
    import json
    from companion.vision.dataset import main, write_crops
    plain = json.loads(write_crops(tmp_path / "p", count=6, first_seed=40, procs=1, kinds=("single",)).read_text())
    rows = json.loads(write_crops(tmp_path / "c", count=6, first_seed=40, procs=1, kinds=("single",),
                                  frame_cuts=1.0).read_text())
    cut = [r for r in rows if r["cls"] == "cut"]
    # the same symbols' crops as without, and a cut twin of some
    assert cut and [r for r in rows if r["cls"] in ("index", "centre")] == [r for r in plain if r["cls"] in ("index", "centre")]
    by_file = {r["file"]: r for r in rows}
    for r in cut:       # each is the cut twin of a whole centre crop, of the same card
        whole = by_file[r["file"].replace("c.png", ".png")]
        assert whole["cls"] == "centre" and (whole["symbol"], whole["color"]) == (r["symbol"], r["color"])
    assert not [r for r in plain if r["cls"] == "cut"]
    with pytest.raises(SystemExit):
        main(["crops", str(tmp_path / "bad"), "--count", "1", "--frame-cuts", "2"])
    assert not (tmp_path / "bad").exists()


def test_crops_of_cards_held_close_are_centre_symbols_the_frame_cuts(tmp_path):
    import json
    from companion.vision.dataset import _scene_size, write_crops
    close = dict(kinds=("single",), heights=(0.9, 2.2), cut_labels=True)
    rows = json.loads(write_crops(tmp_path / "c", count=8, first_seed=40, procs=1, **close).read_text())
    centres = [r for r in rows if r["cls"] == "centre"]
    assert len(centres) >= 4 and min(r["visible"] for r in centres) < 0.9      # the frame cuts some
    for r in centres:       # each: the middle of the one card held close
        sc = make_scene(r["seed"], size=_scene_size(r["seed"]), kind="single", heights=(0.9, 2.2), cut_labels=True)
        card = sc.outlines[-1].card
        assert (r["symbol"], r["color"]) == (card.symbol, card.color)
    sun = json.loads(write_crops(tmp_path / "s", count=8, first_seed=40, procs=1, sunburst=1.0, **close).read_text())
    plain = {r["seed"]: r for r in centres}
    printed = {r["seed"]: r for r in sun if r["cls"] == "centre" and r["seed"] in plain}
    assert len(printed) >= 4 and all(r["symbol"] == plain[k]["symbol"] for k, r in printed.items())   # the same cards
    changed = [np.abs(cv2.imread(str(tmp_path / "c" / plain[k]["file"])).astype(int)
                      - cv2.imread(str(tmp_path / "s" / r["file"]))).mean() for k, r in printed.items()]
    assert max(changed) > 20                                                    # printed otherwise


def test_a_soft_scene_is_the_same_cards_made_small_and_scaled_up():
    from companion.vision.dataset import soft_scene
    for seed in range(800, 806):
        plain = make_scene(seed, size=(416, 416), kind="single")
        image, labels = soft_scene(seed, (416, 416), 0.0, kind="single")
        assert np.array_equal(image, plain.image) and [b for _, b in labels] == [lb.box for lb in plain.labels]
        image, labels = soft_scene(seed, (416, 416), 1.0, kind="single")
        again, _ = soft_scene(seed, (416, 416), 1.0, kind="single")
        assert image.shape == (416, 416, 3) and np.array_equal(image, again)
        # the same card, its boxes scaled with the picture: the top card's face still boxes the same share
        face_label, face = next((lab, b) for lab, b in labels if lab.cls == "card")
        plain_face = next(lb for lb in plain.labels if lb.cls == "card")
        assert face_label.card == plain_face.card
        plain_face = plain_face.box
        assert abs((face[2] - face[0]) - (plain_face[2] - plain_face[0])) < 0.08 * 416
        # and softer: made at 20-50% of the size, its finest edges are gone
        sharp = lambda im: cv2.Laplacian(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()
        assert sharp(image) < 0.6 * sharp(plain.image)


def test_detector_dataset_command_checks_the_share_of_soft_scenes(tmp_path, capsys):
    from companion.vision.dataset import main
    with pytest.raises(SystemExit):
        main(["detector", str(tmp_path / "d"), "--count", "1", "--soft", "2"])
    assert "--soft is a share of the scenes" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_the_label_reader_gives_back_the_boxes_the_dataset_wrote(tmp_path):
    from companion.vision.dataset import read_labels, write_detector_dataset
    write_detector_dataset(tmp_path / "det", count=2, val=0, procs=1, kinds=("pile",))
    files = sorted((tmp_path / "det" / "labels" / "train").glob("*.txt"))
    assert files and any(f.read_text().strip() for f in files)
    for f in files:
        h, w = cv2.imread(str(tmp_path / "det" / "images" / "train" / (f.stem + ".jpg"))).shape[:2]
        lines = [f"{c} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
                 for c, (x1, y1, x2, y2) in read_labels(f, w, h)]
        assert "".join(line + "\n" for line in lines) == f.read_text()


def _upright(quad) -> tuple:
    q = np.float32(quad)
    return q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()


@pytest.mark.parametrize("tilt", [0, 30])
def test_every_face_up_card_placed_has_its_outline_and_the_top_cards_is_uncovered(tilt):
    checked = 0
    for seed in range(30):
        sc = make_scene(seed, size=(320, 320), kind="pile", hands=0.0, tilt=tilt)
        assert [o.card for o in sc.outlines] == sc.present
        covered = [o.covered for o in sc.outlines]
        assert covered[-1] == 0.0 and all(0 <= c <= 1 for c in covered)
        top = [lab for lab in sc.labels if lab.cls == "card" and lab.card == sc.outlines[-1].card]
        if top and top[0].visible > 0.95:
            # wholly in view (the rounded corners are not the face's): the face label's box is
            # the outline's upright box; tilted, the upright box of its tilted upright box
            x1, y1, x2, y2 = _upright(sc.outlines[-1].quad)
            if not tilt:
                assert np.allclose(top[0].box, (x1, y1, x2, y2), atol=2.5)
                assert sc.outlines[-1].seen == top[0].visible
            else:
                b = top[0].box
                assert b[0] - 2.5 <= x1 and b[1] - 2.5 <= y1 and x2 <= b[2] + 2.5 and y2 <= b[3] + 2.5
                assert (x2 - x1) * (y2 - y1) > 0.6 * (b[2] - b[0]) * (b[3] - b[1])
            checked += 1
    assert checked >= 10


def test_outlines_as_oriented_boxes_name_covered_cards_and_stay_inside_the_frame():
    from companion.vision.dataset import OUTLINE_CLASSES, outline_rows
    from companion.vision.synth import Outline
    red, blue = Card.parse("red 7"), Card.parse("blue 2")
    inside = np.float32([[100, 100], [160, 100], [160, 190], [100, 190]])
    cut = inside + [-120, 0]           # two thirds of it left of the frame
    gone = inside + [-150, 0]          # a sixth in view
    rows = outline_rows([Outline(red, inside, 0.0, 1.0), Outline(blue, inside + 5, 0.3, 0.6),
                         Outline(red, cut, 0.0, 0.3), Outline(blue, gone, 0.0, 0.2),
                         Outline(red, inside, 0.0, 0.05), Outline(blue, inside, 0.5, 0.1)], 320, 240)
    assert [OUTLINE_CLASSES[c] for c, _ in rows] == ["card", "under", "card"]
    assert np.allclose(rows[0][1] * [320, 240], inside, atol=1e-3)
    assert np.allclose(_upright(rows[2][1] * [320, 240]), (0, 100, 40, 190), atol=1e-3)
    for _, q in rows:
        assert q.min() >= 0 and q.max() <= 1


def test_outline_dataset_writes_oriented_boxes_of_the_scenes(tmp_path):
    from companion.vision.dataset import write_outline_dataset
    yaml = write_outline_dataset(tmp_path, count=4, val=1, procs=1, first_seed=700, kinds=("pile", "negative"))
    assert "0: card" in yaml.read_text() and "1: under" in yaml.read_text()
    files = sorted((tmp_path / "labels" / "train").glob("*.txt"))
    assert len(files) == 4 and len(list((tmp_path / "images" / "val").glob("*.jpg"))) == 1
    piles = [f.read_text().splitlines() for f in files if int(f.stem[1:]) % 2 == 0]
    negatives = [f.read_text() for f in files if int(f.stem[1:]) % 2 == 1]
    assert negatives == ["", ""] and all(piles)
    for rows in piles:
        assert sum(r.startswith("0 ") for r in rows) == 1      # one pile, one top card
        for r in rows:
            v = [float(t) for t in r.split()]
            assert len(v) == 9 and 0 <= min(v[1:]) and max(v[1:]) <= 1


def test_squashed_training_scenes_keep_their_labels_and_the_validation_scenes_stay_as_made(tmp_path):
    # a dataset export that changes a photo's aspect ratio, taught: the same scenes stretched one
    # way, labels unchanged (normalised, they stretch with the image); validation untouched
    from companion.vision.dataset import SQUASH, write_outline_dataset
    plain = write_outline_dataset(tmp_path / "plain", count=4, val=1, procs=1, first_seed=700, kinds=("pile",))
    squash = write_outline_dataset(tmp_path / "sq", count=4, val=1, procs=1, first_seed=700, kinds=("pile",),
                                   squash=1.0)
    for split, stretched in (("train", True), ("val", False)):
        for f in sorted((plain.parent / "images" / split).glob("*.jpg")):
            a = cv2.imread(str(f)).shape[:2]
            b = cv2.imread(str(squash.parent / "images" / split / f.name)).shape[:2]
            ratio = (b[1] / b[0]) / (a[1] / a[0])
            assert (SQUASH[0] - 0.02 <= ratio <= SQUASH[1] + 0.02 and ratio != 1.0) if stretched else b == a, f.name
            label = f"labels/{split}/{f.stem}.txt"
            assert (plain.parent / label).read_text() == (squash.parent / label).read_text()


def test_a_lower_least_share_in_view_adds_corners_half_hidden_and_nothing_else():
    # the same picture; every label made at the usual 0.75 is made again, and the added ones are
    # corner indices seen less than that but at least the new least share
    added = 0
    for seed in range(740, 752):
        usual = make_scene(seed, size=(320, 240), kind="pile", hands=1.0)
        half = make_scene(seed, size=(320, 240), kind="pile", hands=1.0, min_index=0.45)
        assert np.array_equal(half.image, usual.image)
        before = {(lb.cls, lb.box) for lb in usual.labels}
        assert before <= {(lb.cls, lb.box) for lb in half.labels}
        new = [lb for lb in half.labels if (lb.cls, lb.box) not in before]
        assert all(lb.cls == "index" and 0.45 <= lb.visible < 0.75 for lb in new)
        added += len(new)
    assert added >= 3


def test_crops_of_corners_half_hidden_carry_their_share_in_view(tmp_path):
    import json
    from companion.vision.dataset import main
    main(["crops", str(tmp_path / "c"), "--count", "6", "--first-seed", "740", "--procs", "1", "--kinds", "pile",
          "--hands", "1", "--min-index", "0.45"])
    rows = json.loads((tmp_path / "c" / "crops.json").read_text())
    seen = [r["visible"] for r in rows if r["cls"] == "index"]
    assert seen and min(seen) >= 0.45 and any(v < 0.75 for v in seen)
    with pytest.raises(SystemExit):
        main(["crops", str(tmp_path / "d"), "--count", "1", "--min-index", "0"])
    assert not (tmp_path / "d").exists()


def test_card_reader_crops_are_the_same_for_a_seed_and_name_each_outlines_card(tmp_path):
    import json
    from companion.vision.card_data import write_cards
    from companion.vision.dataset import labelled_outlines
    from companion.vision.outline import CARD_CROP
    a = json.loads(write_cards(tmp_path / "a", count=6, first_seed=7_000_000, procs=1, kinds=("pile",), hands=1.0).read_text())
    b = json.loads(write_cards(tmp_path / "b", count=6, first_seed=7_000_000, procs=1, kinds=("pile",), hands=1.0).read_text())
    assert a == b and a
    for r in a:
        ia, ib = cv2.imread(str(tmp_path / "a" / r["file"])), cv2.imread(str(tmp_path / "b" / r["file"]))
        assert ia.shape == (CARD_CROP[1], CARD_CROP[0], 3) and np.array_equal(ia, ib)
    for seed in range(7_000_000, 7_000_006):
        sc = make_scene(seed, size=((416, 416), (416, 416), (480, 360), (320, 320))[seed % 4], kind="pile", hands=1.0,
                        min_index=0.3)
        h, w = sc.image.shape[:2]
        rows = [r for r in a if r["seed"] == seed and r["cls"] != "none"]
        want = [(str(o.card.symbol), cls) for o, cls, _ in labelled_outlines(sc.outlines, w, h)]
        assert [(r["symbol"], r["cls"]) for r in rows] == want
        # the top card is the pile's uncovered one; its parts' share in view is kept
        assert [r for r in rows if r["cls"] == "card"][-1]["symbol"] == sc.top.symbol
        assert all(0 <= r["parts"] <= 1 for r in rows)
    assert all(r["symbol"] == "none" and r["color"] is None for r in a if r["cls"] == "none")


def test_card_reader_crops_with_cut_labels_name_a_close_card_by_its_centre_the_frame_cuts(tmp_path, models_script):
    import json
    from companion.vision.card_data import write_cards
    from companion.vision.synth import CUT_CENTRE
    readable = models_script("train_cardreader").readable
    kw = dict(count=12, first_seed=7_000_000, procs=1, kinds=("single",), heights=(0.9, 2.2), hands=0.0)
    plain = json.loads(write_cards(tmp_path / "p", **kw).read_text())
    cut = json.loads(write_cards(tmp_path / "c", cut_labels=True, **kw).read_text())
    # a face less than half in view, named by its centre symbol that the frame cuts (45-70% of it in
    # view): without cut labels such a face is left out, and fewer faces are taught
    named = [r for r in cut if r["symbol"] != "none" and CUT_CENTRE <= r["parts"] < 0.7 and r["seen"] < 0.5]
    assert named
    assert sum(map(readable, cut)) > sum(map(readable, plain))


def test_card_reader_crops_of_a_leaning_camera_are_cut_from_the_scene_it_sees(tmp_path):
    import json
    from companion.vision.card_data import write_cards
    from companion.vision.dataset import labelled_outlines
    level = json.loads(write_cards(tmp_path / "l", count=3, first_seed=7_000_000, procs=1, kinds=("pile",)).read_text())
    steep = json.loads(write_cards(tmp_path / "s", count=3, first_seed=7_000_000, procs=1, kinds=("pile",),
                                   tilt=60).read_text())
    for seed in range(7_000_000, 7_000_003):
        sc = make_scene(seed, size=((416, 416), (416, 416), (480, 360), (320, 320))[seed % 4], kind="pile",
                        min_index=0.3, tilt=60)
        h, w = sc.image.shape[:2]
        want = [(str(o.card.symbol), cls) for o, cls, _ in labelled_outlines(sc.outlines, w, h)]
        assert [(r["symbol"], r["cls"]) for r in steep if r["seed"] == seed and r["cls"] != "none"] == want
    same = [r["file"] for r in steep if r["file"] in {q["file"] for q in level}]
    assert same and not all(np.array_equal(cv2.imread(str(tmp_path / "l" / f)), cv2.imread(str(tmp_path / "s" / f)))
                            for f in same)


def test_card_reader_crops_of_the_finders_own_outlines_name_the_card_each_overlaps(tmp_path):
    import json
    from companion.vision.card_data import FINDER_MATCH, write_cards
    from companion.vision.dataset import labelled_outlines
    from companion.vision.outline import quad_iou
    from companion.vision.outline import OutlineFinder
    finder = ROOT / "models" / "outlines.onnx"
    rows = json.loads(write_cards(tmp_path / "f", count=8, first_seed=7_000_000, procs=1, kinds=("pile",),
                                  finder=str(finder)).read_text())
    found = [r for r in rows if r["src"] == "finder"]
    assert found and {r["src"] for r in rows} <= {"truth", "finder", "random"}
    net = OutlineFinder(finder)
    named = 0
    for seed in range(7_000_000, 7_000_008):
        sc = make_scene(seed, size=((416, 416), (416, 416), (480, 360), (320, 320))[seed % 4], kind="pile",
                        min_index=0.3)
        h, w = sc.image.shape[:2]
        labelled = labelled_outlines(sc.outlines, w, h)
        mine = {r["file"]: r for r in found if r["seed"] == seed}
        for k, f in enumerate(net.find(sc.image)):
            r = mine.get(f"s{seed:08d}_f{k}.png")
            if r is None:
                continue
            if r["symbol"] == "none":
                assert all(quad_iou(f.quad, q) < FINDER_MATCH for _, _, q in labelled)
                continue
            o, cls, q = max(labelled, key=lambda t: quad_iou(f.quad, t[2]))
            assert quad_iou(f.quad, q) >= FINDER_MATCH and (r["symbol"], r["cls"]) == (o.card.symbol, cls)
            assert cv2.imread(str(tmp_path / "f" / r["file"])).shape[:2] == (96, 64)
            named += 1
    assert named >= 8      # the finder finds at least each pile's top card


def test_card_reader_crops_of_a_model_folder_are_the_faces_the_recogniser_cuts(tmp_path):
    import json
    from companion.vision.card_data import write_cards
    from companion.vision.recognizer import Recognizer
    from companion.vision.stages import warp
    rows = json.loads(write_cards(tmp_path / "m", count=4, first_seed=7_000_000, procs=1, kinds=("pile",),
                                  finder=str(ROOT / "models")).read_text())
    rec = Recognizer("any")
    compared = 0
    for seed in range(7_000_000, 7_000_004):
        sc = make_scene(seed, size=((416, 416), (416, 416), (480, 360), (320, 320))[seed % 4], kind="pile",
                        min_index=0.3)
        faces = warp(sc.image, rec.fit(sc.image, rec.find(sc.image))).faces      # found, then fitted
        for r in (r for r in rows if r["src"] == "finder" and r["seed"] == seed):
            k = int(r["file"].split("_f")[1].split(".")[0])
            assert np.array_equal(cv2.imread(str(tmp_path / "m" / r["file"])), faces[k].pixels)
            compared += 1
    assert compared >= 4       # at least each pile's top card, cut as the fit stage outlines it


def test_card_reader_crops_can_favour_the_rare_symbols(tmp_path):
    import json
    from companion.vision.card_data import write_cards
    from companion.vision.dataset import RARE
    plain = json.loads(write_cards(tmp_path / "p", count=12, first_seed=7_000_000, procs=1).read_text())
    rare = json.loads(write_cards(tmp_path / "r", count=12, first_seed=7_000_000, procs=1, favour=RARE).read_text())
    share = lambda rows: np.mean([r["symbol"].startswith("wild") for r in rows if r["symbol"] != "none"])
    assert share(rare) > 2 * share(plain)


def test_a_scene_can_be_printed_in_one_design_and_stays_the_same_otherwise():
    from companion.vision.synth import make_scene
    a = make_scene(9_990_001, size=(160, 120), kind="single")
    assert a == make_scene(9_990_001, size=(160, 120), kind="single", design=None)
    flat = make_scene(9_990_001, size=(160, 120), kind="single", design="flat")
    classic = make_scene(9_990_001, size=(160, 120), kind="single", design="classic")
    assert flat == make_scene(9_990_001, size=(160, 120), kind="single", design="flat")
    assert not np.array_equal(flat.image, classic.image)


def test_the_sunburst_print_is_drawn_only_when_asked_for_and_leaves_other_draws_alone():
    # a seed's deck is what it was before the sunburst print existed unless a share asks for it
    assert Style.random(np.random.default_rng(9), "sunburst").design == "sunburst"
    kind = dict(size=(320, 240), kind="single")
    plain, sun = make_scene(41, **kind), make_scene(41, **kind, sunburst=1.0)
    assert make_scene(41, **kind, sunburst=0.0) == plain
    assert sun == make_scene(41, **kind, sunburst=1.0)
    assert [l.card for l in sun.labels] == [l.card for l in plain.labels]      # the same cards, printed otherwise
    assert not np.array_equal(sun.image, plain.image)


def test_a_printed_tablecloth_is_drawn_only_when_asked_for_under_the_same_cards():
    from companion.vision.tables import printed_cloth
    kind = dict(size=(320, 240), kind="pile")
    plain, cloth = make_scene(43, **kind), make_scene(43, **kind, prints=1.0)
    assert make_scene(43, **kind, prints=0.0) == plain
    assert cloth == make_scene(43, **kind, prints=1.0)
    assert cloth.top == plain.top and [o.card for o in cloth.outlines] == [o.card for o in plain.outlines]
    assert all(np.allclose(a.quad, b.quad) for a, b in zip(cloth.outlines, plain.outlines))
    assert not np.array_equal(cloth.image, plain.image)
    # a print: a ground and motifs in other inks, many small parts; the same draw, the same cloth
    table = printed_cloth(np.random.default_rng(5), 240, 320)
    assert table.shape == (240, 320, 3) and np.array_equal(table, printed_cloth(np.random.default_rng(5), 240, 320))
    edges = cv2.Canny(table.astype(np.uint8), 50, 150)
    n, _ = cv2.connectedComponents(edges)
    assert n > 20


def test_the_sunburst_print_has_a_big_number_on_a_white_half_disc_of_rays():
    style = Style.random(np.random.default_rng(10), "sunburst")
    modern = Style.random(np.random.default_rng(10), "modern")
    face = render_card(Card.parse("blue 7"), style)
    x1, y1, x2, y2 = face.centre
    m = render_card(Card.parse("blue 7"), modern).centre
    assert (x2 - x1) > 1.2 * (m[2] - m[0])                       # bigger than the recent circle's number
    img = face.image.astype(int)
    white = (np.abs(img - np.array(style.white)).sum(-1) < 40)
    rows = white[int(CARD_H * 0.45): int(CARD_H * 0.62)]          # the disc's straight side is wide and white
    assert rows[:, : CARD_W // 5].mean() > 0.2 or rows[:, -CARD_W // 5:].mean() > 0.2
    tint = (np.abs(img - np.array(style.white)).sum(-1) > 40) & (np.abs(img - np.array(style.inks["blue"])).sum(-1) > 60)
    assert tint[int(CARD_H * 0.35): int(CARD_H * 0.62)].mean() > 0.05     # rays: pale tints, neither white nor the ink



@pytest.mark.parametrize("tilt", [0.0, 40.0])
def test_each_hand_drawn_is_boxed_where_it_shows(tilt):
    import cv2
    kw = dict(size=(320, 240), kind="pile", effects=False, tilt=tilt)
    with_hands, bare = make_scene(7_100_004, hands=1.0, **kw), make_scene(7_100_004, hands=0.0, **kw)
    assert with_hands.hands and not bare.hands
    drawn = np.abs(with_hands.image.astype(int) - bare.image.astype(int)).max(axis=2) > 30     # the hands' pixels
    boxed = np.zeros((240, 320), np.uint8)
    for q in with_hands.hands:
        assert q.shape == (4, 2) and 0 <= q.mean(0)[0] <= 320 and 0 <= q.mean(0)[1] <= 240
        cv2.fillConvexPoly(boxed, np.int32(np.round(q)), 1)
    assert drawn.sum() > 200 and (drawn & (boxed > 0)).sum() >= 0.97 * drawn.sum()
    assert boxed.sum() <= 4 * drawn.sum()          # round the hand, not the frame
