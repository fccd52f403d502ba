"""The outline finder's run-time side: the oriented-box network's output read back into the
image's pixels (a stand-in network here; the trained one is measured by `python models/recipe bench-outlines`)."""
import cv2
import numpy as np
import pytest

from companion.vision.outline import OutlineFinder
from companion.vision.runtime import ModelError, fitted, letterbox, shrink


class _Net:
    """Stands in for an ONNX Runtime session: gives back `rows` (centre x, y, width, height,
    score of each class, turn in radians: the network's candidates, in its input's pixels)."""

    def __init__(self, rows):
        self.rows = np.float32(rows).T[None]
        self.seen = None

    def get_inputs(self):
        class _In:
            name = "images"
        return [_In()]

    def run(self, _, feed):
        self.seen = feed["images"]
        return [self.rows]


def _finder(rows, **kw):
    f = OutlineFinder.__new__(OutlineFinder)
    f.net, f.imgsz, f.conf, f.iou = _Net(rows), 320, kw.get("conf", 0.3), kw.get("iou", 0.6)
    f.stride = kw.get("stride", 0)
    return f


def test_a_candidate_comes_back_as_its_turned_rectangle_in_the_images_pixels():
    # a 640x480 frame letterboxed into a fixed 320 x 320: scale 0.5, 40 grey rows above
    f = _finder([[160, 140, 40, 60, 0.9, 0.05, np.pi / 6]])
    (o,) = f.find(np.zeros((480, 640, 3), np.uint8))
    assert f.net.seen.shape == (1, 3, 320, 320)
    assert o.cls == "card" and o.score == pytest.approx(0.9)
    assert np.allclose(o.centre, (320, 200), atol=1e-3)
    sides = sorted(np.hypot(*(o.quad[k] - o.quad[k - 1])) for k in range(4))
    assert np.allclose(sides, (80, 80, 120, 120), atol=1e-3)
    # turned by 30 degrees: a side runs at 30 (or 120) degrees
    angle = np.rad2deg(np.arctan2(*(o.quad[1] - o.quad[0])[::-1])) % 90
    assert angle == pytest.approx(30, abs=0.1) or angle == pytest.approx(60, abs=0.1)


def test_a_network_of_no_fixed_size_reads_a_frame_drawn_to_fill_its_input():
    # 640x480 into 320 x 224: across scale 0.5, down 224 / 480, no grey rows
    f = _finder([[160, 140, 40, 56, 0.9, 0.05, 0.0]], stride=32)
    (o,) = f.find(np.zeros((480, 640, 3), np.uint8))
    assert f.net.seen.shape == (1, 3, 224, 320)
    assert np.allclose(o.centre, (320, 300), atol=1e-3)
    sides = sorted(np.hypot(*(o.quad[k] - o.quad[k - 1])) for k in range(4))
    assert np.allclose(sides, (80, 80, 120, 120), atol=1e-3)


def test_weak_and_overlapped_candidates_are_dropped_each_class_on_its_own():
    f = _finder([[100, 100, 40, 60, 0.9, 0.0, 0.0],     # a card
                 [102, 101, 40, 60, 0.8, 0.0, 0.05],    # the same card again, less surely
                 [102, 101, 40, 60, 0.0, 0.7, 0.05],    # ... called covered: the other class keeps it
                 [250, 250, 40, 60, 0.2, 0.1, 0.0]])    # too weak
    found = f.find(np.zeros((320, 320, 3), np.uint8))
    assert [(o.cls, round(o.score, 2)) for o in found] == [("card", 0.9), ("under", 0.7)]


def test_a_network_of_another_shape_is_a_clear_error_and_a_missing_file_names_its_path(tmp_path):
    with pytest.raises(ValueError, match="oriented-box"):
        _finder([[100, 100, 40, 60, 0.9, 0.0]]).find(np.zeros((320, 320, 3), np.uint8))
    with pytest.raises(ModelError, match="outlines.onnx"):
        OutlineFinder(tmp_path / "outlines.onnx")
    assert _finder([[1, 1, 1, 1, 0.9, 0, 0]]).find(np.zeros((0, 5, 3), np.uint8)) == []


def test_letterboxing_keeps_the_proportions_and_centres_the_picture():
    img = np.full((100, 200, 3), 255, np.uint8)
    x, s, left, top = letterbox(img, 64)
    assert x.shape == (1, 3, 64, 64) and s == pytest.approx(0.32) and (left, top) == (0, 16)
    assert x[0, :, 16:48].min() == 1.0 and x[0, :, :16].max() < 0.5


def test_fitted_the_picture_fills_the_input_each_side_the_nearest_multiple_of_the_stride():
    x, sx, sy = fitted(np.full((480, 640, 3), 255, np.uint8), 320, 32)      # 240 rows: a half, down
    assert x.shape == (1, 3, 224, 320) and (sx, sy) == (0.5, 224 / 480) and x.min() == 1.0
    x, sx, sy = fitted(np.full((480, 640, 3), 255, np.uint8), 288, 32)      # 216 rows: up to 224
    assert x.shape == (1, 3, 224, 288) and (sx, sy) == (0.45, 224 / 480)
    x, sx, sy = fitted(np.full((4032, 3024, 3), 255, np.uint8), 288, 32)    # a phone held upright
    assert x.shape == (1, 3, 288, 224) and sx == pytest.approx(224 / 3024)
    x, sx, sy = fitted(np.full((20, 900, 3), 255, np.uint8), 288, 32)       # a sliver: one stride high
    assert x.shape == (1, 3, 32, 288)


def test_shrinking_averages_fine_print_instead_of_aliasing_it():
    # one-pixel stripes of black and white: any pixel picked (nearest, or bilinear at a non-integer
    # scale without first averaging) would be near black or white; averaged, every pixel is grey
    stripes = np.zeros((480, 640, 3), np.uint8)
    stripes[:, ::2] = 255
    small = shrink(stripes, 288, 216)
    assert small.shape == (216, 288, 3)
    assert 110 <= small.min() and small.max() <= 145
    assert shrink(stripes, 640, 480) is stripes
    assert shrink(np.zeros((10, 20, 3), np.uint8), 40, 20).shape == (20, 40, 3)     # enlarged too


@pytest.mark.parametrize("start", range(4))
@pytest.mark.parametrize("backwards", [False, True])
def test_an_outline_stands_upright_whatever_corner_it_starts_at_and_whichever_way_round(start, backwards):
    from companion.vision.outline import upright
    # a card 60 wide and 90 tall, turned 30 degrees
    rect = cv2.boxPoints(((200.0, 150.0), (60.0, 90.0), 30.0))
    q = np.roll(rect[::-1] if backwards else rect, start, axis=0)
    u = upright(q)
    assert sorted(map(tuple, u.round(3))) == sorted(map(tuple, np.float32(rect).round(3)))
    side = [np.hypot(*(u[(k + 1) % 4] - u[k])) for k in range(4)]
    assert side[0] == pytest.approx(60, abs=0.01) and side[1] == pytest.approx(90, abs=0.01)
    x, y = u[:, 0], u[:, 1]
    assert np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) > 0        # clockwise with y down


def test_a_card_crop_shows_the_card_upright_and_unmirrored():
    from companion.vision.outline import CARD_CROP, card_crop
    w, h = CARD_CROP
    face = np.zeros((90, 60, 3), np.uint8)
    face[:, :] = (255, 255, 255)
    face[:20, :20] = (0, 0, 255)        # a red square in its top left corner
    face[:20, 40:] = (255, 0, 0)        # a blue one in its top right
    image = np.zeros((400, 500, 3), np.uint8)
    # drawn at 3x its size, turned a quarter turn clockwise in the image
    quad = np.float32([[420, 100], [420, 280], [150, 280], [150, 100]])      # tl, tr, br, bl of the card
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [60, 0], [60, 90], [0, 90]]), quad)
    cv2.warpPerspective(face, m, (500, 400), dst=image, borderMode=cv2.BORDER_TRANSPARENT)
    crop = card_crop(image, quad[[2, 0, 3, 1]][[0, 2, 1, 3]])     # its corners in another order
    assert crop.shape == (h, w, 3)
    # upright, or upside down (which short side is the top is not known), but never mirrored
    want = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
    diff = min(np.abs(crop.astype(int) - want).mean(), np.abs(crop[::-1, ::-1].astype(int) - want).mean())
    assert diff < 12
    mirrored = np.abs(crop.astype(int) - want[:, ::-1]).mean()
    assert mirrored > 3 * diff


def test_the_face_reader_reads_each_face_both_ways_up(tmp_path):
    from companion.vision.classes import SYMBOLS
    from companion.vision.stages import Crop, Face, Reader

    class _Net:
        def __init__(self):
            self.seen = None

        def get_inputs(self):
            class _In:
                name = "crops"
            return [_In()]

        def run(self, _, feed):
            self.seen = feed["crops"]
            n = len(self.seen)
            logits = np.zeros((n, len(SYMBOLS)), np.float32)
            logits[: n // 2, 3] = 4.0        # upright: a 3
            logits[n // 2:, 3] = 0.0         # upside down: nothing sure
            return [logits]

    reader = Reader.__new__(Reader)
    reader.face_net, reader.mask = _Net(), np.ones(len(SYMBOLS), bool)
    rng = np.random.default_rng(0)
    crops = [Crop(Face(np.zeros((4, 2), np.float32), 0.9), rng.integers(0, 256, (96, 64, 3)).astype(np.uint8))
             for _ in range(2)]
    probs = reader.face_probs(crops)
    assert probs.shape == (2, len(SYMBOLS)) and np.allclose(probs.sum(1), 1)
    assert (probs.argmax(1) == 3).all()
    assert reader.face_net.seen.shape == (4, 3, 96, 64)         # two faces, each both ways up
    # the second half is the first turned half a turn
    assert np.array_equal(reader.face_net.seen[2:], reader.face_net.seen[:2, :, ::-1, ::-1])
    assert reader.face_probs([]).shape == (0, len(SYMBOLS))
    with pytest.raises(ModelError, match="missing.onnx"):
        Reader(tmp_path / "missing.onnx", tmp_path / "missing.onnx", ("red",))


def test_quad_overlap_and_iou_take_either_winding():
    from companion.vision.outline import quad_iou, quad_overlap
    sq = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    assert quad_overlap(sq, sq[::-1] + [5, 5]) == pytest.approx(25)
    assert quad_iou(sq, sq + [5, 0]) == pytest.approx(50 / 150)


def test_a_finder_takes_its_class_names_from_the_model_unless_given():
    from pathlib import Path
    from companion.vision.classes import FINDER_CLASSES, OUTLINE_CLASSES
    models = Path(__file__).resolve().parents[1] / "models"
    assert OutlineFinder(models / "finder.onnx").classes == FINDER_CLASSES
    assert OutlineFinder(models / "outlines.onnx").classes == OUTLINE_CLASSES
    assert OutlineFinder(models / "finder.onnx", classes=("a", "b")).classes == ("a", "b")
