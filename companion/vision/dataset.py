"""Write synthetic scenes as an Ultralytics detection dataset and as classifier crops.

    python -m companion.vision.dataset detector OUT --count 4000 --first-seed 0
    python -m companion.vision.dataset crops OUT --count 3000 --first-seed 500000
    python -m companion.vision.dataset outlines OUT --count 5000 --first-seed 600000
    python -m companion.vision.dataset cards OUT --count 20000 --first-seed 7000000 [--rare] [--finder models/outlines.onnx]

Seeds name the scenes: training, validation and the held-out benchmark use disjoint ranges
(see ``SEEDS``), so a benchmark scene is never seen in training.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
from pathlib import Path

import cv2
import numpy as np

from .classes import DETECTOR_CLASSES as CLASSES, OUTLINE_CLASSES
from .outline import convex
from .glyphs import font_folders, truetype_fonts
from .render import SHAPES
from .synth import ALL_KINDS, CUT_CENTRE, CUT_FACE, MIN_INDEX, make_scene

# disjoint seed ranges
SEEDS = {"train": 0, "val": 1_000_000, "crops": 2_000_000, "bench": 9_000_000}
SIZES = ((416, 416), (416, 416), (480, 360), (320, 320))
SQUASH = (0.75, 4 / 3)     # how far a dataset export (a square one, say) stretches a photo one way


def _run(fn, jobs: list, procs: int):
    """fn over jobs, in this process or in `procs` fresh ones. Workers are spawned, not forked:
    a fork taken while another thread holds a lock (a web server, ONNX Runtime) can hang forever."""
    if procs <= 1:
        yield from map(fn, jobs)
        return
    with mp.get_context("spawn").Pool(procs) as pool:
        yield from pool.imap_unordered(fn, jobs, chunksize=16)


def _scene_size(seed: int):
    return SIZES[seed % len(SIZES)]


def soft_scene(seed: int, size, share: float, **kw):
    """`make_scene` at `size`, or, for `share` of the seeds, made at 20-50% of that size (its
    light, blur, noise and JPEG at that size) and scaled up to it: what the recogniser's close-up
    of a small card shows (`Recognizer.detect_zoomed`: a card 50-90 pixels tall in a 640x480
    frame, cut out and brought up to the detector's input). Returns (image, labels' boxes as
    (label, box) in the image's pixels)."""
    w, h = size
    rng = np.random.default_rng(seed + 29)
    f = rng.uniform(0.2, 0.5) if rng.random() < share else 1.0
    made = (max(48, round(w * f)), max(48, round(h * f)))
    sc = make_scene(seed, size=made, **kw)
    if made == (w, h):
        return sc.image, [(lab, lab.box) for lab in sc.labels]
    sx, sy = w / made[0], h / made[1]
    image = cv2.resize(sc.image, (w, h), interpolation=cv2.INTER_LINEAR)
    return image, [(lab, (lab.box[0] * sx, lab.box[1] * sy, lab.box[2] * sx, lab.box[3] * sy)) for lab in sc.labels]


def read_labels(path: Path, w: int, h: int) -> list[tuple[int, tuple]]:
    """A YOLO label file's rows as (class id, (x1, y1, x2, y2) in pixels of a `w` x `h` image):
    the inverse of the lines `_write_detector` writes (and of the Roboflow photos' labels)."""
    rows = []
    for line in Path(path).read_text().splitlines():
        v = line.split()
        if len(v) >= 5:
            x, y, bw, bh = (float(t) for t in v[1:5])
            rows.append((int(float(v[0])), ((x - bw / 2) * w, (y - bh / 2) * h, (x + bw / 2) * w, (y + bh / 2) * h)))
    return rows


def squashed(image: np.ndarray, seed: int, share: float) -> np.ndarray:
    """For ``share`` of the seeds, ``image`` stretched one way by 0.75-1.33 (log-uniform), as a
    dataset export that changes a photo's aspect ratio leaves it; the rest as they are. Labels in
    normalised coordinates stay right: they stretch with the image."""
    if share <= 0:
        return image
    rng = np.random.default_rng(seed + 31)
    if rng.random() >= share:
        return image
    a = float(np.exp(rng.uniform(np.log(SQUASH[0]), np.log(SQUASH[1]))))
    h, w = image.shape[:2]
    size = (max(32, round(w * a)), h) if rng.random() < 0.5 else (w, max(32, round(h / a)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA if size[0] * size[1] < w * h else cv2.INTER_LINEAR)


def _write_detector(args):
    seed, out, split, heights, tilt, kinds, hands, cut_labels, soft, squash = args
    kind = kinds[seed % len(kinds)] if kinds else None
    image, labels = soft_scene(seed, _scene_size(seed), soft, heights=heights, tilt=tilt, kind=kind, hands=hands,
                               cut_labels=cut_labels)
    h, w = image.shape[:2]
    name = f"s{seed:08d}"
    image = squashed(image, seed, squash if split == "train" else 0.0)
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    lines = []
    for lab, (x1, y1, x2, y2) in labels:
        if x2 - x1 < 3 or y2 - y1 < 3:
            continue
        lines.append(f"{CLASSES.index(lab.cls)} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    (out / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    return 1


def write_detector_dataset(out: Path, count: int, val: int, procs: int = 2, first_seed: int | None = None,
                           heights: tuple = (0.18, 0.75), tilt: float = 0.0, kinds: tuple = (),
                           hands: float | None = None, cut_labels: bool = False, soft: float = 0.0,
                           squash: float = 0.0) -> Path:
    """Images + YOLO labels + data.yaml; returns the data.yaml path. ``heights``: the range of
    a card's height as a share of the frame's shorter side; ``tilt``: the camera leans up to this
    many degrees from overhead; ``hands``: the chance of hands over the cards; ``cut_labels``:
    label centres and faces the frame cuts (all four: ``make_scene``); ``soft``: the share of
    scenes made small and scaled up, as a close-up of a small card shows them (`soft_scene`);
    ``squash``: the share of training scenes stretched one way (`squashed`); ``kinds``: only scenes of these kinds (``ALL_KINDS``, taken in turn by seed; empty: each seed
    draws its own kind).

    Training scenes use seeds ``first_seed..`` (default ``SEEDS["train"]``), which must stay below
    the validation range so that a later batch of scenes adds new ones instead of repeating."""
    return _write_yolo(out, count, val, procs, first_seed, CLASSES, _write_detector,
                       (heights, tilt, _check_kinds(kinds), hands, cut_labels, soft, squash))


def _write_yolo(out: Path, count: int, val: int, procs: int, first_seed: int | None, names: tuple, fn,
                extra: tuple) -> Path:
    """An Ultralytics dataset: `fn((seed, out, split) + extra)` writes each scene's image and
    labels; `count` training scenes from `first_seed`, `val` validation ones; returns data.yaml."""
    first = SEEDS["train"] if first_seed is None else first_seed
    if not (SEEDS["train"] <= first and first + count <= SEEDS["val"]):
        raise ValueError(f"training seeds {first}..{first + count - 1} leave the training range")
    out = Path(out).resolve()
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    jobs = [(first + i, out, "train") + extra for i in range(count)]
    jobs += [(SEEDS["val"] + i, out, "val") + extra for i in range(val)]
    for k, _ in enumerate(_run(fn, jobs, procs)):
        if k % 500 == 0:
            print(f"  {k}/{len(jobs)} scenes", flush=True)
    listed = "\n".join(f"  {i}: {c}" for i, c in enumerate(names))
    yaml = out / "data.yaml"
    yaml.write_text(f"path: {out}\ntrain: images/train\nval: images/val\nnames:\n{listed}\n")
    return yaml


def crop_square(img: np.ndarray, box, size: int, pad: float = 0.15, jitter: np.random.Generator | None = None) -> np.ndarray:
    """A square crop around `box`, padded, resized to size x size (the classifier's input)."""
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    s = max(x2 - x1, y2 - y1) * (1 + 2 * pad)
    if jitter is not None:
        cx += jitter.normal(0, 0.06) * s
        cy += jitter.normal(0, 0.06) * s
        s *= jitter.uniform(0.9, 1.2)
    if s > 2 * size:
        # a big print (a close photo): shrink its neighbourhood first by averaging; warpAffine
        # samples pixels, and the print's fine detail, the paper and the JPEG noise would alias
        h, w = img.shape[:2]
        x0, y0 = int(max(0, cx - s)), int(max(0, cy - s))
        x1, y1 = int(min(w, cx + s)) + 1, int(min(h, cy + s)) + 1
        if x1 > x0 + 1 and y1 > y0 + 1:
            f = 2 * size / s
            img = cv2.resize(img[y0:y1, x0:x1], None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            cx, cy, s = (cx - x0) * f, (cy - y0) * f, s * f
    m = np.float32([[size / s, 0, size / 2 - cx * size / s], [0, size / s, size / 2 - cy * size / s]])
    return cv2.warpAffine(img, m, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def frame_cut(img: np.ndarray, box, rng: np.random.Generator, keep=(CUT_CENTRE, 0.75)) -> tuple:
    """(the image as a frame whose edge cuts `box`, the box's part inside it): the edge runs
    across the box on a random side, leaving a share of it drawn from `keep` in view (the share
    the detector's cut labels start at, to what a finger or corner off the frame leaves); the
    classifier then sees what the camera's edge leaves of the symbol, padded as at run time
    (`crop_square` repeats the edge's pixels)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    k = rng.uniform(*keep)
    side = int(rng.integers(4))
    if side == 0:       # the frame's left edge
        e = int(round(x2 - k * (x2 - x1)))
        return img[:, e:], (0.0, y1, x2 - e, y2)
    if side == 1:       # right
        e = int(round(x1 + k * (x2 - x1)))
        return img[:, :e], (x1, y1, float(e), y2)
    if side == 2:       # top
        e = int(round(y2 - k * (y2 - y1)))
        return img[e:], (x1, 0.0, x2, y2 - e)
    e = int(round(y1 + k * (y2 - y1)))
    return img[:e], (x1, y1, x2, float(e))


# an outline is labelled when this much of its face is seen: a card no other card covers (under
# a hand, maybe: the top card the referee needs), or one other cards partly cover
OUTLINE_SEEN = {"card": 0.08, "under": 0.12}
# the share of a face other cards may hide and still count as uncovered (as `synth._collect`)
OUTLINE_COVERED = 0.04


def outline_rows(outlines: list, w: int, h: int) -> list[tuple[int, np.ndarray]]:
    """(class id, 4x2 corners as shares of the frame) of each outline worth labelling, as an
    Ultralytics oriented box. A card the frame cuts is labelled by the smallest turned rectangle
    round its part inside the frame (Ultralytics takes no corner outside the frame); one with less
    than a fifth of its area inside it, not at all."""
    return [(OUTLINE_CLASSES.index(cls), np.clip(quad / [w, h], 0, 1).astype(np.float32))
            for _, cls, quad in labelled_outlines(outlines, w, h)]


def labelled_outlines(outlines: list, w: int, h: int) -> list[tuple]:
    """(outline, class, 4x2 corners in pixels) of each outline worth labelling (`outline_rows`)."""
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    rows = []
    for o in outlines:
        cls = "card" if o.covered < OUTLINE_COVERED else "under"
        if o.seen < OUTLINE_SEEN[cls]:
            continue
        quad = np.float32(o.quad)
        area = abs(cv2.contourArea(quad))
        if area < 16:
            continue
        if not ((quad >= -1).all() and (quad[:, 0] <= w + 1).all() and (quad[:, 1] <= h + 1).all()):
            inter, poly = cv2.intersectConvexConvex(convex(quad), frame)
            if poly is None or inter < 0.2 * area:
                continue
            quad = cv2.boxPoints(cv2.minAreaRect(poly.reshape(-1, 2)))
        rows.append((o, cls, quad))
    return rows


def _write_rows(fn, jobs: list, procs: int, path: Path) -> Path:
    """Runs `fn` over `jobs` (each a scene's, giving its rows) and writes every row to `path` (JSON)."""
    rows = []
    for k, r in enumerate(_run(fn, jobs, procs)):
        rows += r
        if k % 500 == 0:
            print(f"  {k}/{len(jobs)} scenes", flush=True)
    path.write_text(json.dumps(rows))
    return path


def _write_outlines(args):
    seed, out, split, heights, tilt, kinds, hands, squash = args
    kind = kinds[seed % len(kinds)] if kinds else None
    sc = make_scene(seed, size=_scene_size(seed), heights=heights, tilt=tilt, kind=kind, hands=hands)
    h, w = sc.image.shape[:2]
    name = f"s{seed:08d}"
    image = squashed(sc.image, seed, squash if split == "train" else 0.0)
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    lines = [f"{c} " + " ".join(f"{v:.6f}" for v in q.reshape(-1)) for c, q in outline_rows(sc.outlines, w, h)]
    (out / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    return 1


def write_outline_dataset(out: Path, count: int, val: int, procs: int = 2, first_seed: int | None = None,
                          heights: tuple = (0.18, 0.75), tilt: float = 0.0, kinds: tuple = (),
                          hands: float | None = None, squash: float = 0.0) -> Path:
    """Images + Ultralytics oriented-box labels of every face-up card's outline (`outline_rows`)
    + data.yaml; returns the data.yaml path. The arguments are `write_detector_dataset`'s."""
    return _write_yolo(out, count, val, procs, first_seed, OUTLINE_CLASSES, _write_outlines,
                       (heights, tilt, _check_kinds(kinds), hands, squash))


RARE = ("wild", "wild_draw_four", "wild_swap_hands", "wild_shuffle_hands", "wild_customizable", "wild_seinfeld",
        "6", "9", "skip", "reverse", "draw_two")


def pick_fonts(names) -> tuple:
    """The TrueType fonts whose file names start with one of `names`, each file name once; a
    ValueError when names are given and none is found."""
    chosen = {}
    for path in truetype_fonts():
        name = Path(path).name
        if name.startswith(tuple(names)):
            chosen.setdefault(name, path)
    if names and not chosen:
        raise ValueError(f"no TrueType font named {' or '.join(names)}* in {', '.join(map(str, font_folders()))}")
    return tuple(chosen[k] for k in sorted(chosen))


def _check_kinds(kinds) -> tuple:
    bad = set(kinds) - set(ALL_KINDS)
    if bad:
        raise ValueError(f"unknown scene kinds {sorted(bad)}: choose from {sorted(set(ALL_KINDS))}")
    return tuple(kinds)


def _write_crops(args):
    (seed, out, size, favour, kinds, fonts, shapes, themed, tilt, hands, cut_labels, frame_cuts, min_index, heights,
     sunburst) = args
    kind = kinds[seed % len(kinds)] if kinds else None
    sc = make_scene(seed, size=_scene_size(seed), favour=favour, kind=kind, fonts=fonts, shapes=shapes,
                    themed=themed, tilt=tilt, hands=hands, cut_labels=cut_labels, min_index=min_index,
                    heights=heights, sunburst=sunburst)
    rng = np.random.default_rng(seed + 17)
    rows = []
    # printed ranks and numbers that are no UNO card (playing cards, a score sheet) and parts of
    # themed decks' pictures: "none"
    for k, box in enumerate(sc.lookalikes):
        crop = crop_square(sc.image, box, size, jitter=rng)
        name = f"s{seed:08d}_l{k}.png"
        cv2.imwrite(str(out / name), crop)
        rows.append({"file": name, "symbol": "none", "color": None, "cls": "lookalike", "seed": seed})
    for k, lab in enumerate(sc.labels):
        if lab.cls == "card":
            continue
        crop = crop_square(sc.image, lab.box, size, jitter=rng)
        name = f"s{seed:08d}_{k}.png"
        cv2.imwrite(str(out / name), crop)
        rows.append({"file": name, "symbol": lab.card.symbol, "color": lab.card.color, "cls": lab.cls, "seed": seed,
                     "visible": lab.visible})
        if frame_cuts and lab.cls == "centre" and lab.visible >= 0.9 and rng.random() < frame_cuts:
            view, box = frame_cut(sc.image, lab.box, rng)
            name = f"s{seed:08d}_{k}c.png"
            cv2.imwrite(str(out / name), crop_square(view, box, size, jitter=rng))
            rows.append({"file": name, "symbol": lab.card.symbol, "color": lab.card.color, "cls": "cut",
                         "seed": seed})
    # negatives: random patches that hold no index or centre symbol
    h, w = sc.image.shape[:2]
    boxes = [l.box for l in sc.labels if l.cls != "card"]
    for j in range(2):
        s = rng.uniform(12, 70)
        x, y = rng.uniform(0, w - s), rng.uniform(0, h - s)
        if any(x < b[2] and x + s > b[0] and y < b[3] and y + s > b[1] for b in boxes):
            continue
        crop = crop_square(sc.image, (x, y, x + s, y + s), size, pad=0)
        name = f"s{seed:08d}_n{j}.png"
        cv2.imwrite(str(out / name), crop)
        rows.append({"file": name, "symbol": "none", "color": None, "cls": "none", "seed": seed})
    return rows


def write_crops(out: Path, count: int, first_seed: int, size: int = 48, procs: int = 2, favour: tuple = (),
                kinds: tuple = (), fonts: tuple = (), shapes: tuple = (), themed: float = 0.0,
                tilt: float = 0.0, hands: float | None = None, cut_labels: bool = False,
                frame_cuts: float = 0.0, min_index: float = MIN_INDEX, heights: tuple = (0.18, 0.75),
                sunburst: float = 0.0) -> Path:
    """Classifier crops of `count` scenes (``kinds``: only scenes of these kinds, in turn): every
    index and centre symbol, two background patches, and printed look-alikes, as "none".
    ``fonts``: TrueType font files half the decks print their numbers with; ``shapes``: the ways
    (`render.SHAPES`) half the decks draw their action symbols; ``themed``: the share of decks with
    a picture in their cards' middles (its parts are "none" crops); ``tilt``, ``hands`` and
    ``cut_labels`` as for the detector's scenes (`make_scene`): with ``cut_labels`` a centre symbol
    half cut by the frame's edge is a crop of its symbol, as a person would read it;
    ``frame_cuts``: the share of wholly seen centre symbols also written as the frame's edge would
    cut them (`frame_cut`), kind "cut"; ``min_index``: the least share of a corner index in view for
    its crop to be written (`make_scene`; each crop's row holds its share, ``visible``);
    ``heights`` and ``sunburst`` as for `make_scene` (a card held close to the lens: its centre
    symbol cut by the frame, as the finder finds it, `finder-data --centres`)."""
    kinds = _check_kinds(kinds)
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(first_seed + i, out, size, favour, kinds, tuple(fonts), tuple(shapes), themed, tilt, hands, cut_labels,
             frame_cuts, min_index, tuple(heights), sunburst) for i in range(count)]
    return _write_rows(_write_crops, jobs, procs, out / "crops.json")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["detector", "crops", "outlines", "cards"])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--val", type=int, default=400)
    ap.add_argument("--first-seed", type=int, default=None)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--rare", action="store_true", help="draw the rare symbols far more often (crops, cards)")
    ap.add_argument("--finder", default=None, metavar="ONNX_OR_FOLDER",
                    help="also crop every face outline this outline network finds, or this model folder's find "
                         "and fit stages (cards; e.g. models/outlines.onnx, models)")
    ap.add_argument("--heights", type=float, nargs=2, default=(0.18, 0.75), metavar=("MIN", "MAX"),
                    help="card height range, as a share of the frame's shorter side (detector, outlines, crops, cards; over 1: held close to the lens)")
    ap.add_argument("--tilt", type=float, default=0.0, metavar="DEG",
                    help="the camera leans up to DEG degrees from overhead")
    ap.add_argument("--hands", type=float, default=None, metavar="SHARE",
                    help="this share of the scenes have one or two hands over the cards ("
                         "default: 45%%, 70%% of fans, each with up to two)")
    ap.add_argument("--cut-labels", action="store_true",
                    help=f"also label a centre symbol the frame's edge cuts when {CUT_CENTRE * 100:.0f}%% of it is "
                         f"in view, and an uncovered face when {CUT_FACE * 100:.0f}%% of it is (crops: the centre; cards: the "
                         f"face, named by that centre)")
    ap.add_argument("--frame-cuts", type=float, default=0.0, metavar="SHARE",
                    help="this share of the wholly seen centre symbols are also written cut by the frame's "
                         "edge, 45-75%% of them in view (crops)")
    ap.add_argument("--soft", type=float, default=0.0, metavar="SHARE",
                    help="this share of the scenes are made at 20-50%% of their size and scaled up, as the "
                         "recogniser's close-up of a small card shows it (detector)")
    ap.add_argument("--squash", type=float, default=0.0, metavar="SHARE",
                    help="this share of the training scenes are stretched one way by 0.75-1.33, as a dataset "
                         "export that changes a photo's aspect ratio leaves them (detector, outlines)")
    ap.add_argument("--kinds", nargs="+", default=(), choices=sorted(set(ALL_KINDS)),
                    help="only scenes of these kinds, taken in turn (default: any but lookalike)")
    ap.add_argument("--fonts", nargs="+", default=(), metavar="NAME",
                    help="half the decks print their numbers in a TrueType font whose file name starts "
                         "with one of these (crops; e.g. DejaVu STIX cm: the fonts matplotlib ships)")
    ap.add_argument("--shapes", type=int, nargs="+", default=(), choices=SHAPES[1:], metavar="N",
                    help="half the decks draw their action symbols and wild centres in one of these other "
                         "ways (crops; render.SHAPES: 1 and 2 for training, 3 is held out for the benchmark)")
    ap.add_argument("--themed", type=float, default=0.0, metavar="SHARE",
                    help="this share of the decks print a picture in every coloured card's middle (crops; "
                         "the picture's parts are \"none\" crops)")
    ap.add_argument("--sunburst", type=float, default=0.0, metavar="SHARE",
                    help="this share of the decks are printed in the sunburst design: a big number on a white "
                         "half-disc of rays (crops, cards)")
    ap.add_argument("--min-index", type=float, default=MIN_INDEX, metavar="SHARE",
                    help="label a corner index when this share of it is in view (crops; lower: corners half "
                         "under a finger)")
    a = ap.parse_args(argv)
    if not 0 < a.min_index <= 1:
        ap.error(f"--min-index is a share of a corner index, above 0 and at most 1 (got {a.min_index})")
    if not 0 <= a.themed <= 1:
        ap.error(f"--themed is a share of the decks, from 0 to 1 (got {a.themed})")
    if not 0 <= a.sunburst <= 1:
        ap.error(f"--sunburst is a share of the decks, from 0 to 1 (got {a.sunburst})")
    if not 0 <= a.frame_cuts <= 1:
        ap.error(f"--frame-cuts is a share of the centre symbols, from 0 to 1 (got {a.frame_cuts})")
    if not 0 <= a.soft <= 1:
        ap.error(f"--soft is a share of the scenes, from 0 to 1 (got {a.soft})")
    if not 0 <= a.squash <= 1:
        ap.error(f"--squash is a share of the scenes, from 0 to 1 (got {a.squash})")
    if a.hands is not None and not 0 <= a.hands <= 1:
        ap.error(f"--hands is a share of the scenes, from 0 to 1 (got {a.hands})")
    try:
        fonts = pick_fonts(a.fonts)
    except ValueError as exc:
        ap.error(str(exc))
    if a.what == "cards":
        seed = SEEDS["crops"] if a.first_seed is None else a.first_seed
        from .card_data import write_cards
        print(write_cards(Path(a.out), a.count, seed, a.procs, tuple(a.kinds), fonts, tuple(a.shapes), a.themed,
                          a.hands, RARE if a.rare else (), a.finder, tuple(a.heights), a.tilt, a.sunburst,
                          a.cut_labels))
    elif a.what == "outlines":
        print(write_outline_dataset(Path(a.out), a.count, a.val, a.procs, a.first_seed, tuple(a.heights),
                                    a.tilt, tuple(a.kinds), a.hands, a.squash))
    elif a.what == "detector":
        print(write_detector_dataset(Path(a.out), a.count, a.val, a.procs, a.first_seed, tuple(a.heights),
                                   a.tilt, tuple(a.kinds), a.hands, a.cut_labels, a.soft, a.squash))
    else:
        seed = SEEDS["crops"] if a.first_seed is None else a.first_seed
        print(write_crops(Path(a.out), a.count, seed, procs=a.procs, favour=RARE if a.rare else (),
                          kinds=tuple(a.kinds), fonts=fonts, shapes=tuple(a.shapes),
                          themed=a.themed, tilt=a.tilt, hands=a.hands, cut_labels=a.cut_labels,
                          frame_cuts=a.frame_cuts, min_index=a.min_index, heights=tuple(a.heights),
                          sunburst=a.sunburst))


if __name__ == "__main__":
    main()
