"""The recogniser's benchmark scripts (models/recipe): what each counts, on stand-in recognisers."""
import json

import numpy as np
import pytest

from companion.vision.detection import Detection, Recognition
from companion.vision.synth import make_scene


def remembering():
    """A scene maker for a benchmark (`make_scene`) that keeps the last scene it made in
    ``shown["scene"]``, so that a stand-in recogniser can report what it holds: (shown, maker)."""
    shown = {}

    def scene(seed, **kw):
        shown["scene"] = sc = make_scene(seed, **kw)
        return sc
    return shown, scene


def test_every_bench_condition_gives_a_photo_and_the_dark_one_is_dark(models_script):
    bc = models_script("bench_conditions")
    img = np.random.default_rng(1).integers(0, 256, (90, 120, 3)).astype(np.uint8)
    img[30:60, 40:80] = 250
    for name, fn in bc.CONDITIONS.items():
        out = fn(img, np.random.default_rng(0))
        turned = name.startswith("turned")
        assert out.shape == ((120, 90, 3) if turned else img.shape) and out.dtype == np.uint8, name
    dark = bc.CONDITIONS["nearly dark (x0.2, noise sigma 3)"](img, np.random.default_rng(0))
    assert 40 <= np.median(dark[30:60, 40:80]) <= 60          # the white at about a fifth
    white = np.full((200, 200, 3), 250, np.uint8)
    shaded = bc.CONDITIONS["hard shadow (a third of the light over part of the photo)"](white, np.random.default_rng(3))
    lit, under = (shaded == 250).all(-1), (shaded[..., 0] == 100) & (shaded[..., 2] == 75)
    assert 0.2 < lit.mean() < 0.8 and 0.2 < under.mean() < 0.8 and (lit | under).mean() > 0.95   # a hard edge
    assert bc.PLAIN in bc.CONDITIONS
    assert bc.chosen(None) == list(bc.CONDITIONS)
    assert bc.chosen(["warm", "nearly"]) == ["warm bulb (B x0.56, G x0.76)", "nearly dark (x0.2, noise sigma 3)"]


def test_the_wide_angle_lens_keeps_the_photo_in_view_and_its_points_follow(models_script):
    bc = models_script("bench_conditions")
    name = "wide-angle lens (barrel distortion)"
    w, h = 320, 240
    img = np.zeros((h, w, 3), np.uint8)
    img[20:26, 30:36] = 255                      # a dot near a corner, centred on (32.5, 22.5)
    out = bc.CONDITIONS[name](img, np.random.default_rng(0))
    ys, xs = np.nonzero(out[..., 0] > 127)
    x, y = bc.MOVES[name](np.array([[32.5, 22.5]]), w, h)[0]
    assert abs(xs.mean() - x) < 1 and abs(ys.mean() - y) < 1
    assert x > 32.5 + 3 and y > 22.5 + 3           # squeezed toward the middle, as near a corner it is
    corners = bc.MOVES[name](np.array([[0.0, 0], [w - 1, h - 1], [(w - 1) / 2, 0]]), w, h)
    assert (corners >= -1e-6).all() and (corners[:, 0] <= w - 1 + 1e-6).all() and (corners[:, 1] <= h - 1 + 1e-6).all()


def test_a_background_strip_lies_clear_of_the_cards_or_there_is_none(tmp_path, models_script):
    bb = models_script("bench_backgrounds")
    # a fan's three corner indices (10 pixels) near the left of a 400x200 photo: the cards reach
    # about 6 index boxes from them, so the strip is on the right, clear of them all
    boxes = np.float32([[40, 80, 50, 90], [52, 82, 62, 92], [64, 84, 74, 94]])
    x1, y1, x2, y2 = bb.clear_strip((200, 400, 3), boxes)
    assert (y1, x2, y2) == (0, 400, 200) and x1 >= 74 + bb.CLEAR * 10
    # a card in the middle of a photo 10 of its index boxes wide leaves no strip; no box, no strip
    assert bb.clear_strip((200, 200, 3), np.float32([[90, 90, 110, 110]])) is None
    assert bb.clear_strip((200, 400, 3), np.zeros((0, 4), np.float32)) is None
    # a label file's normalised boxes in pixels
    (tmp_path / "a.txt").write_text("0 0.5 0.25 0.1 0.1\n3 0.25 0.5 0.05 0.2\n\n")
    assert bb.label_boxes(tmp_path / "a.txt", 200, 100).tolist() == [[90, 20, 110, 30], [45, 40, 55, 60]]


def test_the_single_card_benchmark_counts_each_view_and_names_the_misses(models_script):
    br = models_script("bench_recognizer")

    class Blind:        # sees no card
        def recognize(self, image):
            return Recognition()
    res = br.singles(lambda deck: Blind(), 8, None, first=9_870_000, size=(320, 240))
    assert 0 < res["whole"] + res["most"] + res["cut"] <= 8
    assert res["accuracy_whole"] == res["accuracy_most"] == res["accuracy_cut"] == res["asked_right"] == 0
    assert all(m.split(" -> ")[1].startswith("None") for m in res["wrong_in_view"])
    # a recogniser unsure of every card, its candidate right: no card read, every one asked right
    shown, scene = remembering()

    class Doubting:
        def recognize(self, image):
            top = shown["scene"].top
            return Recognition([], None, Detection(top.color, top.symbol, 0.4, (0, 0, 1, 1)))
    doubted = br.singles(lambda deck: Doubting(), 8, None, first=9_870_000, size=(320, 240), scenes=scene)
    assert doubted["accuracy"] == 0 and doubted["asked_right"] == 1.0


def test_the_hands_benchmark_counts_the_hands_found(models_script):
    from companion.vision.stages import Found
    br = models_script("bench_recognizer")
    shown, scene = remembering()

    class Seeing:       # finds every hand drawn, where it lies
        def outline(self, image):
            return Found([], [], tuple(shown["scene"].hands))

    class Blind:        # finds none
        def outline(self, image):
            return Found([], [])
    seen = br.hands(lambda deck: Seeing(), 24, None, first=9_980_000, size=(320, 240), scenes=scene)
    assert seen["hand_over_top"] > 0 and seen["no_hand"] > 0 and seen["hands_drawn"] >= seen["hand_over_top"]
    assert seen["over_top_found"] == 1.0 and seen["no_hand_found"] == 0.0
    assert seen["hands_found"] == 1.0 and seen["false_hands"] == 0.0
    blind = br.hands(lambda deck: Blind(), 24, None, first=9_980_000, size=(320, 240), scenes=scene)
    assert blind["over_top_found"] == blind["hands_found"] == 0.0
    assert {k: blind[k] for k in ("hand_over_top", "no_hand", "hands_drawn")} == \
        {k: seen[k] for k in ("hand_over_top", "no_hand", "hands_drawn")}


@pytest.mark.parametrize("args,first", [([], 9_560_000), (["--lookalike-seed", "9570000"], 9_570_000)])
def test_the_lookalike_benchmark_starts_at_the_seed_asked(monkeypatch, capsys, args, first, models_script):
    br = models_script("bench_recognizer")
    asked = []
    monkeypatch.setattr(br, "Recognizer", lambda *a, **k: object())     # (never asked to read)
    monkeypatch.setattr(br, "negatives", lambda rec, n, kind="negative", start=0, misses=None, scenes=None:
                        asked.append((n, kind, start)) or {"background_clean": 1.0, "n": n})
    assert br.main(["--piles", "0", "--negatives", "0", "--latency", "0", "--lookalikes", "3", *args]) == 0
    assert asked == [(3, "lookalike", first)]
    assert json.loads(capsys.readouterr().out)["lookalikes"]["n"] == 3


@pytest.mark.parametrize("args,tilt", [([], 45.0), (["--tilt-max", "60"], 60.0)])
def test_the_tilted_piles_lean_as_far_as_asked(monkeypatch, capsys, args, tilt, models_script):
    br = models_script("bench_recognizer")
    asked = []
    monkeypatch.setattr(br, "Recognizer", lambda *a, **k: object())     # (never asked to read)
    monkeypatch.setattr(br, "piles", lambda rec, n, deck, first=0, tilt=0.0, misses=None, **k:
                        asked.append((n, first, tilt)) or {"n": n})
    assert br.main(["--piles", "0", "--negatives", "0", "--latency", "0", "--tilted", "4", *args]) == 0
    assert asked == [(4, 9_750_000, tilt)]
    with pytest.raises(SystemExit):
        br.main(["--piles", "0", "--negatives", "0", "--latency", "0", "--tilted", "4", "--tilt-max", "90"])
    assert "--tilt-max must be" in capsys.readouterr().err



@pytest.mark.parametrize("args,share", [([], None), (["--sunburst", "1"], 1.0)])
def test_the_sunburst_option_prints_every_benchmarks_decks_in_the_sunburst_design(monkeypatch, args, share,
                                                                                   models_script):
    br = models_script("bench_recognizer")
    asked = []
    monkeypatch.setattr(br, "Recognizer", lambda *a, **k: object())     # (never asked to read)
    monkeypatch.setattr(br, "piles", lambda *a, **k: asked.append(getattr(k["scenes"], "keywords", {}).get("sunburst"))
                        or {"n": 0})
    assert br.main(["--piles", "2", "--negatives", "0", "--latency", "0", *args]) == 0
    assert asked == [share]


def test_the_stretch_benchmark_stretches_only_the_photo(models_script):
    # a 4:3 photo exported square (--stretch 4/3) and a portrait one (0.75): the same scene, only
    # its picture's height changed
    plain = make_scene(9_870_001, size=(320, 240), kind="single")
    for f, height in ((4 / 3, 320), (0.75, 180)):
        sc = models_script("bench_scenes").stretching(make_scene, f)(9_870_001, size=(320, 240), kind="single")
        assert sc.image.shape == (height, 320, 3)
        assert sc.top == plain.top and sc.labels == plain.labels and sc.deck == plain.deck
        assert abs(float(sc.image.mean()) - float(plain.image.mean())) < 3


def test_the_fan_benchmark_scores_the_cards_in_view(models_script):
    br = models_script("bench_recognizer")
    shown, scene = remembering()

    class Oracle:       # reports every card in view, and one more card of the photo (a hidden one)
        def recognize(self, image):
            sc = shown["scene"]
            cards = [Detection(c.color, c.symbol, 0.9, (0, 0, 1, 1)) for c in sc.cards]
            hidden = [c for c in sc.present if c not in sc.cards][:1]
            return type("R", (), {"cards": cards + [Detection(c.color, c.symbol, 0.9, (0, 0, 1, 1)) for c in hidden]})()

    class Blind:
        def recognize(self, image):
            return type("R", (), {"cards": []})()
    right = br.multi(lambda deck: Oracle(), 6, None, first=9_920_000, kind="fan", size=(320, 240), scenes=scene)
    misses = []
    blind = br.multi(lambda deck: Blind(), 6, None, first=9_920_000, kind="fan", size=(320, 240), misses=misses,
                     scenes=scene)
    assert right["multi_recall"] == right["multi_precision"] == right["photos_all_right"] == 1.0
    assert right["cards"] > 6 and right["multi_precision_strict"] < 1.0
    # every photo with a card in view is listed
    assert blind["multi_recall"] == 0 and len(misses) == round(6 * (1 - blind["photos_all_right"])) > 0


def test_small_piles_read_within_the_piles_area_hold_the_pile_in_a_window_of_that_share(models_script):
    bs = models_script("bench_scenes")
    areas = []

    class Seeing:       # records the pile's area it is asked to read within
        def recognize(self, image, roi=None):
            areas.append((image.shape, roi))
            return Recognition()
    bs.piles(lambda deck: Seeing(), 6, None, first=9_650_000, heights=(0.07, 0.18), area=0.5)
    assert areas and all(roi[2] - roi[0] == 320 and roi[3] - roi[1] == 240 for _, roi in areas)
    assert all(0 <= roi[0] and roi[2] <= 640 and 0 <= roi[1] and roi[3] <= 480 for _, roi in areas)
    for i in range(6):
        sc = make_scene(9_650_000 + i, size=(640, 480), kind=("pile", "single")[i % 4 == 3], heights=(0.07, 0.18))
        x1, y1, x2, y2 = bs.pile_area(sc, 0.5, 9_650_000 + i)
        cx, cy = sc.outlines[-1].quad.mean(0)
        assert x1 <= cx <= x2 and y1 <= cy <= y2           # the pile is in its area
    areas.clear()
    bs.piles(lambda deck: Seeing(), 3, None, first=9_650_000, heights=(0.07, 0.18))
    assert areas and all(roi is None for _, roi in areas)   # the whole frame unless asked
