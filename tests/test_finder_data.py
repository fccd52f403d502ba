"""The one-network finder's data (models/recipe/finder_data.py): which faces and indices are labelled."""
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.vision.stages import Face, Found, Index, Readings
from companion.vision.synth import make_scene


def dataset_folders(folder):
    """A finder dataset's empty images/ and labels/ folders, train and val."""
    for split in ("train", "val"):
        (folder / "images" / split).mkdir(parents=True)
        (folder / "labels" / split).mkdir(parents=True)


# `_write_scene`'s options after seed, folder and split: the camera's lean, kinds, then each share
OPTIONS = ("tilt", "kinds", "hands", "squash", "close", "lamp", "small", "sunburst", "steep", "prints", "loose",
           "wilds", "hand_class", "centres")


def write_scene(fd, seed, folder, split="val", **options):
    """`_write_scene` of `seed` into `folder`'s `split` with `options` (by `OPTIONS`' names; the
    rest 0 or off, any kind)."""
    values = {name: 0.0 for name in OPTIONS} | {"kinds": (), "hand_class": False, "centres": False} | options
    fd._write_scene((seed, folder, split) + tuple(values[name] for name in OPTIONS))


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


def test_a_scene_labels_every_hand_in_view_as_a_third_class_where_asked(models_script):
    fd = models_script("finder_data")
    sc = make_scene(640_011, size=(416, 416), kind="pile", hands=1.0)
    plain, labelled = fd.scene_rows(sc), fd.scene_rows(sc, hands=True)
    hands = [q for c, q in labelled if c == fd.HAND]
    assert len(hands) == len(sc.hands) >= 1 and fd.HAND == 2
    assert len(labelled) == len(plain) + len(hands) and fd.HAND not in [c for c, _ in plain]     # unless asked
    assert not [c for c, _ in fd.scene_rows(make_scene(640_011, size=(416, 416), kind="pile", hands=0.0), hands=True)
                if c == fd.HAND]


def test_a_scene_labels_centre_symbols_in_view_as_indices_where_asked(models_script):
    fd = models_script("finder_data")
    sc = make_scene(640_003, size=(416, 416), kind="pile")
    plain, labelled = fd.scene_rows(sc), fd.scene_rows(sc, centres=True)
    centres = [lab for lab in sc.labels if lab.cls == "centre"]
    assert centres and len(labelled) == len(plain) + len(centres)
    assert {c for c, _ in labelled} == {fd.CARD, fd.INDEX}
    extra = labelled[len(plain):]
    assert all(np.allclose(q[0], lab.box[:2]) and np.allclose(q[2], lab.box[2:]) for (_, q), lab in zip(extra, centres))


def test_finder_data_writes_centre_symbols_as_index_rows_where_asked(models_script, tmp_path):
    fd = models_script("finder_data")
    seeds = range(640_000, 640_004)
    rows = {asked: [[line.split()[0] for line in text.splitlines()]
                    for text in written(fd, tmp_path / str(asked), seeds, kinds=("pile",), centres=asked)]
            for asked in (False, True)}
    for plain, labelled in zip(rows[False], rows[True]):
        assert plain.count("0") == labelled.count("0") and labelled.count("1") >= plain.count("1")
    assert sum(map(len, rows[True])) > sum(map(len, rows[False]))


def test_a_face_centre_symbol_lies_in_its_middle_whichever_way_it_lies(models_script):
    fd = models_script("finder_data")
    x1, y1, x2, y2 = fd.centre_box(np.float32([[100, 100], [200, 100], [200, 250], [100, 250]]))
    assert (x1, y1, x2, y2) == pytest.approx((119, 140.5, 181, 209.5), abs=0.01)
    turned = fd.centre_box(np.float32([[250, 100], [250, 200], [100, 200], [100, 100]]))    # lying on its side
    assert turned == pytest.approx((140.5, 119, 209.5, 181), abs=0.01)


class _Recognizer:
    """The recogniser's stand-in: its finder finds the faces and indices given, its reader reads
    each index as given (by its box) and is asked to read no face."""

    def __init__(self, faces, indices):
        self.found = Found(faces, [i for i, _, _ in indices])
        self.reads = {i.box: (symbol, p) for i, symbol, p in indices}

    def find(self, image):
        return self.found

    def read(self, crops):
        assert not crops.faces
        return Readings([], [SimpleNamespace(part=c.index, symbol=self.reads[c.index.box][0],
                                             p=self.reads[c.index.box][1]) for c in crops.indices])


def face(quad, score=0.9):
    return Face(np.float32(quad), score)


def index(box, symbol, p=0.9, score=0.8):
    return Index(box, score), symbol, p


def test_a_roboflow_photo_gains_only_the_faces_and_indices_its_labels_vouch_for(models_script):
    fd = models_script("finder_data")
    labels = [("7", (100, 100, 120, 125)), ("2", (60, 100, 80, 125))]    # the front 7, a 2 beneath it
    front = face([[95, 95], [195, 95], [195, 245], [95, 245]])
    stud = face([[300, 300], [350, 300], [350, 380], [300, 380]])        # holds no label
    faint = face([[55, 95], [155, 95], [155, 245], [55, 245]], 0.4)     # holds the 2, but found unsurely
    indices = [index((170, 215, 190, 240), "7"),            # the front card's other corner: vouched for
               index((170, 180, 190, 200), "3"),            # a symbol no label on that face shows
               index((101, 101, 121, 126), "7"),            # a labelled index found again
               index((320, 320, 340, 345), "7"),            # on no vouched face
               index((150, 215, 170, 240), "7", p=0.6),     # read unsurely
               index((130, 215, 150, 240), "7", score=0.4)]     # found unsurely
    rows = fd.roboflow_rows(np.zeros((400, 400, 3), np.uint8), labels, _Recognizer([front, stud, faint], indices))
    faces = [q for c, q in rows if c == fd.CARD]
    assert len(faces) == 1 and np.allclose(faces[0], front.quad)
    extra = [q for c, q in rows if c == fd.INDEX][len(labels):]
    assert len(extra) == 1 and np.allclose(extra[0][0], [170, 215])


@pytest.mark.parametrize("read, kept", [("7", True), ("3", False)])
def test_a_roboflow_face_centre_symbol_is_labelled_where_it_reads_as_the_face_labels_say(models_script, read, kept):
    fd = models_script("finder_data")
    labels = [("7", (100, 100, 120, 125)), ("2", (10, 100, 30, 125))]
    front = face([[95, 95], [195, 95], [195, 245], [95, 245]])
    cut = face([[-40, 95], [60, 95], [60, 245], [-40, 245]])            # the photo's edge cuts it: no centre
    middle = index(fd.centre_box(front.quad), read)
    rec = _Recognizer([front, cut], [middle])
    rec.found = Found([front, cut], [])                                  # found by no index: the face's middle
    rows = fd.roboflow_rows(np.zeros((400, 400, 3), np.uint8), labels, rec, centres=True)
    extra = [q for c, q in rows if c == fd.INDEX][len(labels):]
    assert len(extra) == kept
    assert len(rows) == 4 + kept and [c for c, _ in rows[2:4]] == [fd.CARD, fd.CARD]
    assert len(fd.roboflow_rows(np.zeros((400, 400, 3), np.uint8), labels, rec)) == 4     # unless asked


def test_a_box_overlaps_by_its_shared_area_over_both(models_script):
    fd = models_script("finder_data")
    assert fd.iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert fd.iou((0, 0, 10, 10), (5, 0, 15, 10)) == 50 / 150
    assert fd.iou((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0


def test_close_scenes_show_one_card_larger_than_the_frame_its_face_the_part_in_view(models_script, tmp_path):
    fd = models_script("finder_data")
    dataset_folders(tmp_path)
    seeds = range(640_000, 640_012)
    for seed in seeds:
        write_scene(fd, seed, tmp_path, "train", close=1.0)
    cut = 0
    for seed in seeds:
        text = (tmp_path / "labels" / "train" / f"s{seed:08d}.txt").read_text()
        rows = np.float32([line.split() for line in text.splitlines()]).reshape(-1, 9)
        faces = rows[rows[:, 0] == fd.CARD][:, 1:].reshape(-1, 4, 2)
        assert len(faces) <= 1 and (faces >= 0).all() and (faces <= 1).all()
        cut += sum(1 for q in faces if q.max(0)[1] - q.min(0)[1] > 0.95 or q.max(0)[0] - q.min(0)[0] > 0.95)
    assert cut >= 3          # most such cards reach from edge to edge of the frame one way


def test_small_scenes_show_cards_a_camera_far_away_sees(models_script, tmp_path):
    fd = models_script("finder_data")
    heights = {}
    for small in (0.0, 1.0):
        folder = tmp_path / str(small)
        faces = []
        for text in written(fd, folder, range(640_000, 640_012), kinds=("pile",), small=small):
            rows = np.float32([line.split() for line in text.splitlines()]).reshape(-1, 9)
            quads = rows[rows[:, 0] == fd.CARD][:, 1:].reshape(-1, 4, 2)
            faces += [float(np.ptp(q[:, 1])) for q in quads]       # the face's height, a share of the frame's
        heights[small] = np.median(faces)
    assert heights[1.0] < 0.25 < heights[0.0]


def test_lamp_scenes_are_the_same_scenes_under_a_strong_cast(models_script, tmp_path):
    fd = models_script("finder_data")
    for lit, folder in ((0.0, tmp_path / "plain"), (1.0, tmp_path / "lit")):
        dataset_folders(folder)
        for seed in range(640_000, 640_004):
            write_scene(fd, seed, folder, lamp=lit)
    cuts = []
    for seed in range(640_000, 640_004):
        name = f"s{seed:08d}"
        assert (tmp_path / "plain" / "labels" / "val" / f"{name}.txt").read_text() == \
            (tmp_path / "lit" / "labels" / "val" / f"{name}.txt").read_text()
        plain, lit = (cv2.imread(str(tmp_path / f / "images" / "val" / f"{name}.jpg")).reshape(-1, 3).mean(0)
                      for f in ("plain", "lit"))
        ratio = lit / plain
        cuts.append(ratio.min() / ratio.max())       # one end of the spectrum is cut
    assert max(cuts) < 0.99 and min(cuts) < 0.8


def written(fd, folder, seeds, **options) -> list[str]:
    """The label files' text of the validation scenes of `seeds` written into `folder` with
    `options` (by `OPTIONS`' names; the rest 0, any kind)."""
    dataset_folders(folder)
    for seed in seeds:
        write_scene(fd, seed, folder, **options)
    return [(folder / "labels" / "val" / f"s{seed:08d}.txt").read_text() for seed in seeds]


@pytest.mark.parametrize("option, changed", [("sunburst", 0.002),     # the cards printed otherwise
                                             ("prints", 0.2)])        # the table a printed cloth
def test_a_shares_scenes_are_the_same_labelled_scenes_drawn_otherwise(models_script, tmp_path, option, changed):
    fd = models_script("finder_data")
    for share, folder in ((0.0, tmp_path / "plain"), (1.0, tmp_path / option)):
        dataset_folders(folder)
        for seed in range(640_000, 640_003):
            write_scene(fd, seed, folder, kinds=("pile",), **{option: share})
    for seed in range(640_000, 640_003):
        name = f"s{seed:08d}"
        assert (tmp_path / "plain" / "labels" / "val" / f"{name}.txt").read_text() == \
            (tmp_path / option / "labels" / "val" / f"{name}.txt").read_text()
        plain, other = (cv2.imread(str(tmp_path / f / "images" / "val" / f"{name}.jpg")).astype(int)
                        for f in ("plain", option))
        assert (np.abs(plain - other).sum(-1) > 60).mean() > changed


def test_loose_piles_lay_the_same_cards_elsewhere(models_script, tmp_path):
    fd = models_script("finder_data")
    labels = {share: written(fd, tmp_path / str(share), range(640_000, 640_004), kinds=("pile",), loose=share)
              for share in (0.0, 1.0)}
    assert sum(a != b for a, b in zip(labels[0.0], labels[1.0])) >= 2


def test_steep_scenes_are_the_same_scenes_seen_by_a_camera_leaning_further(models_script, tmp_path):
    fd = models_script("finder_data")
    seeds = range(640_100, 640_108)
    written = {}
    for steep in (0.0, 0.5, 1.0):
        folder = tmp_path / str(steep)
        dataset_folders(folder)
        for seed in seeds:
            write_scene(fd, seed, folder, kinds=("pile",), steep=steep)
        written[steep] = [(folder / "images" / "val" / f"s{seed:08d}.jpg").read_bytes() for seed in seeds]
    assert all(a != b for a, b in zip(written[0.0], written[1.0]))         # every one leans at 1.0
    half = [b == written[1.0][k] for k, b in enumerate(written[0.5])]
    assert 0 < sum(half) < len(seeds)                                      # some at 0.5 ...
    assert all(b == written[0.0][k] for k, b in enumerate(written[0.5]) if not half[k])   # the others as before


def test_wilds_draw_half_the_cards_as_wilds_and_leave_other_scenes_as_they_were(models_script):
    fd = models_script("finder_data")
    seeds = range(880_000, 880_016)
    scenes = {w: [fd.finder_scene(s, 30.0, ("pile",), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, wilds=w)[0] for s in seeds]
              for w in (0.0, 0.5, 1.0)}

    def share(some):                                                           # of the cards in view, the wilds
        return np.mean([c.symbol in fd.WILD_SYMBOLS for sc in some for c in sc.present])
    assert share(scenes[0.0]) < 0.2 < 0.35 < share(scenes[1.0]) < 0.7
    half = [sc == scenes[1.0][k] for k, sc in enumerate(scenes[0.5])]
    assert 0 < sum(half) < len(seeds)                                          # some drawn with wilds at 0.5 ...
    assert all(sc == scenes[0.0][k] for k, sc in enumerate(scenes[0.5]) if not half[k])   # the others as before
    assert set(fd.WILD_SYMBOLS) >= {"wild", "wild_draw_four", "wild_seinfeld"} and "draw_two" not in fd.WILD_SYMBOLS
