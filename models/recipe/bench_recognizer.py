"""Benchmarks of the shipped recogniser (figures for the model card; not a test).

    python models/recipe bench --piles 500 --negatives 300 --latency 100 [--stock] [--small 300] [--tilted 300]
    python models/recipe bench --deck game --piles 600 --first-seed 9200000 --negatives 0 --latency 0 --misses

(``--misses`` lists every misread pile (also tilted and small), single card, negative and
look-alike by seed; ``--first-seed`` moves the piles to another seed range, such as the first of
`bench-piles`' tuning sets at 9,200,000.. or its held-out ones at 9,530,000..). ``--set NAME=VALUE``
(repeatable) reads with one of the recogniser's `Settings` changed, to sweep it (models/ablation.md);
``--reader`` reads the faces with another face reader's ONNX file. Beside each accuracy,
``asked_right``: the share read as no top card whose unsure candidate (`Recognition.unsure`, what
the host is asked to confirm in a game) names it; beside each share of clean tables, ``asked``: the
share that gives an unsure candidate (a question to the host, in a game).

- held-out synthetic piles (seeds never used in training: companion.vision.dataset.SEEDS["bench"]),
  640x480 overhead frames of every deck profile: top card right (colour and symbol), read with
  the deck unknown (``--deck auto``, the default: every deck's symbols and colours) and, as in a
  game, with the scene's own deck (``--deck game``: each scene read by a recogniser for its deck),
  or as ``companion recognize`` reads them (``--deck any``: any deck's symbols, the classic four
  colours, which are all the shared scorer knows; only the scenes of decks printed in them);
- with --small N, the same on N piles of small cards (7-18% of the frame's height: a camera far
  from the table, a wide photo) at 640x480 and at 1600x1200 (seeds 9,650,000..); with --pile-area
  SHARE too, the same piles read within the pile's area as the config sets it (`pile.roi`: a window
  SHARE of the frame's width and height round the pile); with --tilted N,
  on N piles seen by a camera leaning up to 45 degrees (--tilt-max) from overhead (seeds 9,750,000..);
- with --singles N, N photos of one card each, as the shared scorer judges the top card (seeds
  9,870,000..: overhead at 640x480; 9,880,000..: a phone at 1280x960 leaning up to 30 degrees):
  the card read right, by how much of it is in view (whole, three quarters or more, less); with
  --unseen-fonts N, the same on N photos of decks printed in TrueType fonts that no training
  data used (seeds 9,890,000.. overhead, 9,895,000.. by the leaning phone; the classifier learnt the Hershey fonts and DejaVu,
  STIX and Computer Modern: ``--font-names`` picks others, Liberation by default); with
  --shapes N, the same on N photos of decks that draw their action symbols and wild centres
  another way (``--shape-ways``, ``render.SHAPES``; by default 3, the way no training data drew;
  half the cards are skips, reverses, draw twos and wilds; seeds 9,900,000.. overhead,
  9,905,000.. by the leaning phone), and, to compare, the same scenes drawn the classic deck's way;
  with --themed N, the same on N photos of themed decks (a picture in every coloured card's
  middle, its symbol small beside it, as licensed decks print them; seeds 9,910,000.. and
  9,915,000..);
- with --multi N, N photos each of a fan of cards held up, of cards spread side by side and of a
  discard pile, overhead and by the leaning phone, scored as the shared scorer scores photos of
  several cards: the multiset of reported cards (colour and symbol) against every card whose
  corner index is in view (seeds 9,920,000.., 9,930,000.. and 9,940,000..; +5,000 by the phone);
- with --close N, N photos of one card held close to the lens, 0.9-2.2 times the frame's height
  and cut by it (a hand scan, a phone photo of one card; seeds 9,970,000..): the card read right
  where a symbol of it shows (45% of its centre symbol or a corner index in view);
- with --hands N, N piles, lone cards and empty tables (a camera leaning up to 30 degrees), half
  with a hand or two reaching over the cards (seeds 9,980,000..): the hands a finder taught them
  finds (`finder-data --hand-class`): over the top card where one lies there, where none is in view;
- with --per-face N, N photos of one card for every face of every deck in every print design
  (`render.DESIGNS`), the card three quarters or more in view: a table of faces read right by
  design, and the worst faces (seeds 9,960,000..);
- held-out synthetic negatives (empty tables, card backs, hands, phones): no card reported; with
  --lookalikes N, the same on N tables with printed look-alikes (ordinary playing cards, score
  sheets of numbers; seeds 9,560,000.., or from --lookalike-seed);
- with --sunburst SHARE, that share of every benchmark's decks printed in the sunburst design;
- with --prints SHARE, that share of every benchmark's tables a printed tablecloth (small motifs,
  some of a corner index's size and stroke: `tables.printed_cloth`; 1 with --negatives: no card
  on such a cloth);
- with --faded SHARE, all of these with every deck's inks printed that share of the way to white
  (a faded deck, a washed-out print: the same scenes otherwise); with --stretch F, every photo's
  height stretched F times against its width (4/3: a 4:3 photo exported square, as datasets
  often resize; 0.75: a 3:4 portrait one), the same scenes otherwise (``companion recognize``
  reads a photo once, as it is, as the camera's frames are read);
- latency per image, one thread, ONNX Runtime at the deployed size, median of N images: the whole
  recogniser, its finder alone (the one network call) and the whole on small cards at 1600x1200;
  with --photo-latency N, reading N phone photos at 4032x3024 as ``companion recognize`` does;
  with --stock, a stock YOLO11n built from its yaml at 640 (exported in this run), and last the
  line ``ratio=<value>``: the whole recogniser's latency over the stock YOLO11n's.

The benchmarks on scenes are `bench_scenes.py`'s functions; this script chooses them, their seeds
and the recogniser, and times it.
"""
from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from companion.cards import deck as deck_profile  # noqa: E402
from companion.vision.command import read_photo  # noqa: E402
from companion.vision.dataset import SEEDS, pick_fonts  # noqa: E402
from companion.vision.render import SHAPES  # noqa: E402
from companion.vision.recognizer import Recognizer, parse_settings  # noqa: E402
sys.path.insert(0, str(HERE))
from bench_scenes import drawn, hands, multi, negatives, per_face, piles, singles  # noqa: E402
from finder_data import CLOSE_HEIGHTS  # noqa: E402


def timings(fn, images) -> list[float]:
    """The time (ms) `fn` takes on each image, after one run to warm up."""
    fn(images[0])
    times = []
    for im in images:
        t0 = time.perf_counter()
        fn(im)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def latency(fn, images) -> float:
    return round(statistics.median(timings(fn, images)), 2)


def stock_yolo_latency(images, imgsz=640) -> float:
    import onnxruntime as ort
    from train_detector import offline_ultralytics
    YOLO = offline_ultralytics()
    with tempfile.TemporaryDirectory() as d:
        m = YOLO("yolo11n.yaml")
        pt = Path(d) / "stock.pt"
        m.save(str(pt))
        onnx = YOLO(str(pt)).export(format="onnx", imgsz=imgsz, opset=17, simplify=False)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        sess = ort.InferenceSession(onnx, opts, providers=["CPUExecutionProvider"])
        name = sess.get_inputs()[0].name
        import cv2

        def run(im):
            x = cv2.resize(im, (imgsz, imgsz))[..., ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255
            sess.run(None, {name: x})
        return latency(run, images)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--piles", type=int, default=500)
    ap.add_argument("--negatives", type=int, default=300)
    ap.add_argument("--latency", type=int, default=100)
    ap.add_argument("--photo-latency", type=int, default=0, metavar="N",
                    help="also the latency of reading N phone photos of one card at 4032x3024 (`companion recognize`)")
    ap.add_argument("--per-face", type=int, default=0, metavar="N",
                    help="also N photos of every face of every deck in every print design: a table by face")
    ap.add_argument("--hands", type=int, default=0, metavar="N",
                    help="also N scenes (half with a hand or two over the cards): hands found (a finder taught them)")
    ap.add_argument("--close", type=int, default=0, metavar="N",
                    help="also N photos of one card held close to the lens (%g-%g times the frame's height, cut by it)"
                    % CLOSE_HEIGHTS)
    ap.add_argument("--small", type=int, default=0,
                    help="also N piles of small cards (7-18%% of the frame's height) at 640x480 and 1600x1200")
    ap.add_argument("--pile-area", type=float, default=1.0, metavar="SHARE",
                    help="with --small, also read each pile within the pile's area (pile.roi): a window this "
                         "share of the frame's width and height round it (0.5: a quarter of the frame)")
    ap.add_argument("--tilted", type=int, default=0,
                    help="also N piles seen by a camera leaning up to --tilt-max degrees from overhead (a phone at an angle)")
    ap.add_argument("--tilt-max", type=float, default=45.0, metavar="DEG",
                    help="the most the --tilted camera leans (the same seeds: 60 sees the same piles more steeply)")
    ap.add_argument("--singles", type=int, default=0,
                    help="also N photos of one card, overhead at 640x480 and by a leaning phone at 1280x960")
    ap.add_argument("--unseen-fonts", type=int, default=0, metavar="N",
                    help="also N photos of one card (overhead and by a phone) printed in TrueType fonts no training used")
    ap.add_argument("--font-names", nargs="+", default=["Liberation"], metavar="NAME",
                    help="the unseen fonts: file names starting with these (default: Liberation, Debian's fonts-liberation)")
    ap.add_argument("--shapes", type=int, default=0, metavar="N",
                    help="also N photos of one card (overhead and by a phone) of decks that draw their action "
                         "symbols another way (--shape-ways), and the same scenes drawn the classic way")
    ap.add_argument("--shape-ways", type=int, nargs="+", default=[SHAPES[-1]], choices=SHAPES[1:], metavar="WAY",
                    help=f"the ways (render.SHAPES) --shapes measures (default: {SHAPES[-1]}, which no training drew)")
    ap.add_argument("--themed", type=int, default=0, metavar="N",
                    help="also N photos of one card (overhead and by a phone) of themed decks: a picture in "
                         "every coloured card's middle, its symbol small beside it (no training drew these)")
    ap.add_argument("--multi", type=int, default=0, metavar="N",
                    help="also N photos each of a fan of cards, of cards spread side by side and of a pile, overhead "
                         "at 640x480 and by a leaning phone at 1280x960: every card in view (multi recall and precision)")
    ap.add_argument("--lookalikes", type=int, default=0,
                    help="also N negatives with printed look-alikes (playing cards, score sheets of numbers)")
    ap.add_argument("--lookalike-seed", type=int, default=SEEDS["bench"] + 560_000,
                    help="the look-alikes' first seed (default 9,560,000; 9,570,000.. is a fresh set)")
    ap.add_argument("--deck", default="auto",
                    help="auto (deck unknown), game (each scene's own deck), any (the decks in the four classic "
                         "colours, read as `companion recognize` reads them: any deck's symbols in those colours) "
                         "or a profile")
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--reader", default=None, help="a face reader's ONNX file to read the faces with")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="read with one of the recogniser's Settings changed (repeatable)")
    ap.add_argument("--first-seed", type=int, default=SEEDS["bench"],
                    help="the piles' first seed (default: the benchmark's; 9,200,000.. is a tuning set)")
    ap.add_argument("--misses", action="store_true",
                    help="also list each pile, negative and look-alike read wrong, by seed (to look at with make_scene)")
    ap.add_argument("--stock", action="store_true", help="also time a stock YOLO11n at 640 (needs ultralytics)")
    ap.add_argument("--sunburst", type=float, default=0.0, metavar="SHARE",
                    help="this share of the scenes' decks printed in the sunburst design (1: every card; "
                         "e.g. with --close: the recent print held close to the lens)")
    ap.add_argument("--prints", type=float, default=0.0, metavar="SHARE",
                    help="this share of the scenes' tables printed tablecloths (1: every table)")
    ap.add_argument("--faded", type=float, default=0.0, metavar="SHARE",
                    help="every deck's inks printed this share of the way to white (a faded deck, a washed-out "
                         "print; 0.35: the model card's faded decks); the same scenes otherwise")
    ap.add_argument("--stretch", type=float, default=1.0, metavar="F",
                    help="every photo's height stretched F times against its width (4/3: a 4:3 photo resized "
                         "to a square; 0.75: a portrait one), the same scenes otherwise")
    a = ap.parse_args(argv)
    try:
        settings = parse_settings(a.set)
    except ValueError as exc:
        ap.error(f"--set {exc}")
    if not 0.5 <= a.stretch <= 2.0:
        ap.error("--stretch must be from 0.5 to 2")
    if not 0.0 <= a.faded < 1.0:
        ap.error("--faded must be at least 0 and under 1")
    if not 0.0 <= a.sunburst <= 1.0:
        ap.error("--sunburst must be from 0 to 1")
    if not 0.0 <= a.prints <= 1.0:
        ap.error("--prints must be from 0 to 1")
    if not 0.1 <= a.pile_area <= 1.0:
        ap.error("--pile-area must be from 0.1 to 1")
    if not 0.0 <= a.tilt_max < 90.0:
        ap.error("--tilt-max must be at least 0 and under 90 degrees")
    scenes = drawn(faded=a.faded, sunburst=a.sunburst, prints=a.prints, stretch=a.stretch)
    def build(deck: str):
        return Recognizer(deck, model_dir=a.model_dir, threads=1, reader=a.reader, settings=settings)

    rec = build("auto" if a.deck == "game" else a.deck)
    res = {"deck": a.deck}
    misses = [] if a.misses else None
    if a.deck == "game":      # each scene read with its own deck, as the game does
        per_deck = functools.lru_cache(None)(build)
        which, deck_name = per_deck, None
    elif a.deck == "any":      # the shared scorer's four colours: only the decks printed in them
        which, deck_name = (lambda d: rec if set(deck_profile(d).colors) == set(rec.colors) else None), None
    else:
        which, deck_name = (lambda _d: rec), (None if a.deck == "auto" else a.deck)
    if a.piles:
        res["piles"] = piles(which, a.piles, deck_name, first=a.first_seed, misses=misses, scenes=scenes)
    if a.tilted:      # seeds 9,750,000..
        res["tilted_camera"] = piles(which, a.tilted, deck_name, first=SEEDS["bench"] + 750_000, tilt=a.tilt_max,
                                     misses=misses, scenes=scenes)
    for size in ((640, 480), (1600, 1200)) if a.small else ():
        # small cards: a camera far from the table, a wide photo (seeds 9,650,000..)
        mine = None if misses is None else []
        res[f"small_cards_{size[0]}x{size[1]}"] = piles(which, a.small, deck_name, first=SEEDS["bench"] + 650_000,
                                                        size=size, heights=(0.07, 0.18), misses=mine, scenes=scenes)
        if a.pile_area < 1:       # the same piles read within the pile's area
            res[f"small_cards_{size[0]}x{size[1]}_pile_area"] = piles(
                which, a.small, deck_name, first=SEEDS["bench"] + 650_000, size=size, heights=(0.07, 0.18),
                scenes=scenes, area=a.pile_area)
        if mine:        # the same seeds at both sizes
            misses += [f"{line} at {size[0]}x{size[1]}" for line in mine]
    if a.singles:      # seeds 9,870,000.. and 9,880,000..
        res["singles_640x480"] = singles(which, a.singles, deck_name, first=SEEDS["bench"] + 870_000, misses=misses,
                                         scenes=scenes)
        res["singles_phone_1280x960"] = singles(which, a.singles, deck_name, first=SEEDS["bench"] + 880_000,
                                                size=(1280, 960), tilt=30.0, misses=misses, scenes=scenes)
    if a.close:      # seeds 9,970,000..
        res["close_to_the_lens_640x480"] = singles(which, a.close, deck_name, first=SEEDS["bench"] + 970_000,
                                                   heights=CLOSE_HEIGHTS, misses=misses, scenes=scenes)
    if a.hands:      # seeds 9,980,000..
        res["hands_640x480"] = hands(which, a.hands, deck_name, first=SEEDS["bench"] + 980_000, scenes=scenes)
    if a.per_face:      # seeds 9,960,000..
        res["per_face"] = per_face(which, a.per_face, first=SEEDS["bench"] + 960_000, scenes=scenes)
    if a.unseen_fonts:      # seeds 9,890,000.. and 9,895,000..
        try:
            fonts = pick_fonts(a.font_names)
        except ValueError as exc:
            ap.error(str(exc))
        res["singles_unseen_fonts_640x480"] = singles(which, a.unseen_fonts, deck_name, first=SEEDS["bench"] + 890_000,
                                                      fonts=fonts, scenes=scenes)
        res["singles_unseen_fonts_phone_1280x960"] = singles(which, a.unseen_fonts, deck_name,
                                                             first=SEEDS["bench"] + 895_000, size=(1280, 960),
                                                             tilt=30.0, fonts=fonts, scenes=scenes)
        res["unseen_fonts"] = len(fonts)
    if a.shapes:      # seeds 9,900,000.. and 9,905,000..
        actions = ("skip", "reverse", "draw_two", "wild", "wild_draw_four")
        for way in [0] + a.shape_ways:
            res[f"singles_shapes{way}_640x480"] = singles(which, a.shapes, deck_name, first=SEEDS["bench"] + 900_000,
                                                         shapes=(way,), favour=actions, scenes=scenes)
            res[f"singles_shapes{way}_phone_1280x960"] = singles(which, a.shapes, deck_name,
                                                                first=SEEDS["bench"] + 905_000, size=(1280, 960),
                                                                tilt=30.0, shapes=(way,), favour=actions,
                                                                scenes=scenes)
    if a.themed:      # seeds 9,910,000.. and 9,915,000..
        res["singles_themed_640x480"] = singles(which, a.themed, deck_name, first=SEEDS["bench"] + 910_000, themed=1.0,
                                                scenes=scenes)
        res["singles_themed_phone_1280x960"] = singles(which, a.themed, deck_name, first=SEEDS["bench"] + 915_000,
                                                       size=(1280, 960), tilt=30.0, themed=1.0, scenes=scenes)
    if a.multi:      # seeds 9,920,000.. (fans), 9,930,000.. (spread hands), 9,940,000.. (piles); +5,000 by the phone
        for kind, first in (("fan", 920_000), ("spread", 930_000), ("pile", 940_000)):
            res[f"{kind}_640x480"] = multi(which, a.multi, deck_name, first=SEEDS["bench"] + first, kind=kind,
                                           misses=misses, scenes=scenes)
            res[f"{kind}_phone_1280x960"] = multi(which, a.multi, deck_name, first=SEEDS["bench"] + first + 5000,
                                                  kind=kind, size=(1280, 960), tilt=30.0, misses=misses, scenes=scenes)
    if a.negatives:
        res["negatives"] = negatives(rec, a.negatives, misses=misses, scenes=scenes)
    if a.lookalikes:      # seeds 9,560,000.. (the negatives take 9,500,000..); --lookalike-seed
        res["lookalikes"] = negatives(rec, a.lookalikes, "lookalike", a.lookalike_seed, misses, scenes=scenes)
    if a.latency:
        imgs = [scenes(SEEDS["bench"] + 800_000 + i, size=(640, 480)).image for i in range(a.latency)]
        small = [scenes(SEEDS["bench"] + 850_000 + i, size=(1600, 1200), heights=(0.07, 0.18)).image
                 for i in range(a.latency)]
        res["latency_ms_median"] = {"recognizer_full_pipeline": latency(rec.recognize, imgs),
                                    "finder_only": latency(rec.find, imgs),
                                    "small_cards_1600x1200_full_pipeline": latency(rec.recognize, small)}
        if a.stock:
            res["latency_ms_median"]["stock_yolo11n_640"] = stock_yolo_latency(imgs)
    if a.photo_latency:
        # a phone's 12-megapixel photo, read as `companion recognize` reads one
        photos = [scenes(SEEDS["bench"] + 930_000 + i, size=(4032, 3024), kind="single").image
                  for i in range(a.photo_latency)]
        times = timings(lambda im: read_photo(rec, im), photos)
        res.setdefault("latency_ms_median", {})["photo_4032x3024"] = round(statistics.median(times), 2)
        res["latency_ms_median"]["photo_4032x3024_slowest"] = round(max(times), 2)
    if misses is not None:
        res["misses"] = misses
    print(json.dumps(res, indent=1))
    stock = res.get("latency_ms_median", {}).get("stock_yolo11n_640")
    if stock:       # the cost budget: the whole recogniser against a stock YOLO11n at 640, same run
        print(f"ratio={res['latency_ms_median']['recognizer_full_pipeline'] / stock:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
