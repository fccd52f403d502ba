"""The one-network finder's data (models/recipe/finder_data.py): which faces and indices are labelled."""
import numpy as np

from companion.vision.outline import FoundOutline
from companion.vision.recognizer import Part
from companion.vision.synth import make_scene


def test_a_scene_labels_its_uncovered_faces_and_every_index_in_view(models_script):
    fd = models_script("finder_data")
    sc = make_scene(640_003, size=(416, 416), kind="pile")
    rows = fd.scene_rows(sc)
    faces = [q for c, q in rows if c == fd.CARD]
    indices = [q for c, q in rows if c == fd.INDEX]
    assert len(faces) == 1                                   # a pile's top card, no card over it
    assert len(indices) == sum(lab.cls == "index" for lab in sc.labels) > 0
    for q in indices:                                        # upright boxes: the training turns them
        assert q[0][1] == q[1][1] and q[0][0] == q[3][0]
    lines = fd.label_lines(rows, 416, 416).splitlines()
    assert len(lines) == len(rows)
    values = np.float32([line.split()[1:] for line in lines])
    assert values.shape[1] == 8 and values.min() >= 0 and values.max() <= 1


class _Finder:
    def __init__(self, found):
        self.found = found

    def find(self, image):
        return self.found


class _Recognizer:
    """The detector and classifier's stand-in: indices, each read as given."""

    def __init__(self, parts):
        self.parts = parts

    def detect(self, image):
        return list(self.parts)

    def classify(self, image, parts):
        pass


def part(box, symbol, p=0.9):
    q = Part("index", box, 0.8)
    q.symbol, q.p = symbol, p
    return q


def test_a_roboflow_photo_gains_only_the_faces_and_indices_its_labels_vouch_for(models_script):
    fd = models_script("finder_data")
    labels = [("7", (100, 100, 120, 125)), ("2", (60, 100, 80, 125))]    # the front 7, a 2 beneath it
    front = FoundOutline("card", np.float32([[95, 95], [195, 95], [195, 245], [95, 245]]), 0.9)
    stud = FoundOutline("card", np.float32([[300, 300], [350, 300], [350, 380], [300, 380]]), 0.8)   # holds no label
    under = FoundOutline("under", np.float32([[55, 95], [155, 95], [155, 245], [55, 245]]), 0.8)
    parts = [part((170, 215, 190, 240), "7"),           # the front card's other corner: vouched for
             part((170, 180, 190, 200), "3"),           # a symbol no label on that face shows
             part((101, 101, 121, 126), "7"),           # a labelled index found again
             part((320, 320, 340, 345), "7")]           # on no vouched face
    rows = fd.roboflow_rows(np.zeros((400, 400, 3), np.uint8), labels, _Finder([front, stud, under]), _Recognizer(parts))
    assert [c for c, _ in rows].count(fd.CARD) == 1
    indices = [q for c, q in rows if c == fd.INDEX]
    assert len(indices) == 3 and any(np.allclose(q[0], [170, 215]) for q in indices)
