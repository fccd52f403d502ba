"""The outline finder's run-time side: the oriented-box network's output read back into the
image's pixels (a stand-in network here; the trained one is measured by models/bench_outlines.py)."""
import cv2
import numpy as np
import pytest

from companion.vision.outline import OutlineFinder
from companion.vision.runtime import ModelError, letterbox


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
    return f


def test_a_candidate_comes_back_as_its_turned_rectangle_in_the_images_pixels():
    # a 640x480 frame letterboxed into 320: scale 0.5, 40 grey rows above
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
