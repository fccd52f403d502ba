"""Data for the one-network finder: every uncovered card face as an oriented box (`card`) and every
corner index in view, of any card, covered or not (`index`), in synthetic scenes and in the
Roboflow training photos.

    python models/recipe finder-data OUT --count 2500 --val 200 --first-seed 640000 \
        --roboflow ../shared/datasets/roboflow-uno [--roboflow-share 0.6]

With `--hand-class`, every hand in view is labelled too, as a third class (`HAND`: the turned box
round its part in view; train from weights of three classes, `grow-classes`). The Roboflow photos
show none.

With `--centres`, a card's big centre symbol in view is an `index` too (a symbol in view, read by
the symbol classifier as a corner index is): a card held close to the lens shows little more than
its centre symbol, cut by the frame and turned any way, which the face reader reads squashed into
its upright crop. In the Roboflow photos (whose labels box corner indices only) the centre of a
face kept below is labelled where the classifier reads it as one of that face's labelled symbols.

One network then does the work of the corner-index detector and the outline finder: a fan's
covered cards are found by the indices they leave in view (not by a guess at their hidden
outlines), the top card of a pile by its uncovered face. Class ids are `FINDER_CLASSES`.

- **Synthetic scenes** (`make_scene`, seeds from `--first-seed`): piles, lone cards (cut by the
  frame too), fans, staggered stacks, spread hands, empty and look-alike tables, hands over the
  cards, the camera leaning up to `--tilt` degrees (`--steep` of them up to `STEEP`), `--squash` of them stretched one way,
  `--close` of them one card held close to the lens (larger than the frame, cut by its edges: the
  part in view is its face's box), `--small` of them small cards (a camera far away), `--lamp` of them under a strong lamp (`camera_look.lamp`: a
  tungsten bulb's orange to a shade's blue), `--prints` of them on a printed tablecloth (`tables.printed_cloth`), `--loose` of the piles with their cards further apart (`make_scene(loose=...)`), `--wilds` of them with half their cards wilds (a black card on top of a pile, which a deck's share of wilds seldom shows the finder). An index is labelled by its upright box; the
  training's turns make turned boxes of it.
- **Roboflow training photos** (linked, not copied, but for the `--lamp` share of them, written
  under a drawn lamp; the validation split stays for measuring):
  their labelled index boxes as they are, and what the labels leave out (only the top-left index
  of each card is labelled) filled in by the shipped recogniser where the labels vouch for it: an
  uncovered face its finder finds round a labelled index (its own box: the fit stage's outlines
  as labels measured worse, `ablation.md`), and a corner index its finder finds inside such a
  face that its reader reads surely as one of that face's labelled symbols (the front card's
  other corner).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.vision.camera_look import lamp  # noqa: E402
from companion.vision.classes import FINDER_CLASSES, HAND as HAND_CLASS, SYMBOLS  # noqa: E402
from companion.vision.dataset import (SEEDS, _check_kinds, _run, _scene_size, labelled_outlines, read_labels,  # noqa: E402
                                      squashed)
from companion.vision.stages import Found, Index, warp  # noqa: E402
from companion.vision.stages.read import WILDS  # noqa: E402
from companion.vision.synth import ALL_KINDS, make_scene  # noqa: E402

CARD, INDEX = FINDER_CLASSES.index("card"), FINDER_CLASSES.index("index")
HAND = len(FINDER_CLASSES)          # `--hand-class`: the class after the finder's own
# the Roboflow class ids (see the dataset's data.yaml) as this project's symbols
ROBOFLOW_SYMBOLS = ["0", "1", "wild_draw_four", "draw_two", "reverse", "skip", "wild",
                    "2", "3", "4", "5", "6", "7", "8", "9"]
# a pseudo-label is kept from this finder score, and an index's symbol from this reader probability
FOUND_SURE, READ_SURE = 0.5, 0.7


def iou(a, b) -> float:
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def box_quad(box) -> np.ndarray:
    x1, y1, x2, y2 = box
    return np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])


def label_lines(rows: list[tuple[int, np.ndarray]], w: int, h: int) -> str:
    """Ultralytics oriented-box label lines: class, then 4 corners as shares of the frame."""
    lines = [f"{c} " + " ".join(f"{v:.6f}" for v in np.clip(q / [w, h], 0, 1).reshape(-1)) for c, q in rows]
    return "\n".join(lines) + ("\n" if lines else "")


def scene_rows(sc, hands: bool = False, centres: bool = False) -> list[tuple[int, np.ndarray]]:
    h, w = sc.image.shape[:2]
    symbols = ("index", "centre") if centres else ("index",)
    rows = [(CARD, q) for _, cls, q in labelled_outlines(sc.outlines, w, h) if cls == "card"]
    rows += [(INDEX, box_quad(lab.box)) for lab in sc.labels
             if lab.cls in symbols and lab.box[2] - lab.box[0] >= 3 and lab.box[3] - lab.box[1] >= 3]
    if hands:
        rows += [(HAND, q) for q in sc.hands]
    return rows


# a card held close to the lens: its height this many times the frame's shorter side (a hand scan,
# a phone photo of one card), cut by the frame on one side or more
CLOSE_HEIGHTS = (0.9, 2.2)
# a camera far from the table, a wide photo: every card this share of the frame's shorter side
SMALL_HEIGHTS = (0.05, 0.18)
# a steep camera (`--steep`): a phone or webcam at the table's edge leans up to this many degrees
STEEP = 60.0
# `--wilds`: the symbols favoured, every wild (a black face, which a finder taught on a deck's
# proportions, a wild in thirteen cards, rarely sees on top), in the classes' order
WILD_SYMBOLS = tuple(s for s in SYMBOLS if s in WILDS)


def finder_scene(seed, tilt, kinds, hands, close, lit, far, sunburst, steep, prints=0.0, loose=0.0, wilds=0.0):
    """The training scene of `seed` (the options as `main`'s), and its image (under a drawn lamp
    for `lit` of the seeds): the finder's and the fitter's (`fitter_data.py`) alike."""
    kind = kinds[seed % len(kinds)] if kinds else None
    if np.random.default_rng([seed, 23]).random() < steep:                # its own stream too
        tilt = STEEP
    near = np.random.default_rng([seed, 11]).random() < close      # its own stream: the other scenes stay as they were
    light = np.random.default_rng([seed, 13])                      # so is the lamp's
    small = not near and np.random.default_rng([seed, 17]).random() < far      # and the distance's
    heights = CLOSE_HEIGHTS if near else SMALL_HEIGHTS if small else None
    favour = WILD_SYMBOLS if np.random.default_rng([seed, 29]).random() < wilds else ()     # its own stream too
    sc = make_scene(seed, size=_scene_size(seed), tilt=tilt, kind="single" if near else kind, hands=hands,
                    cut_labels=True, sunburst=sunburst, prints=prints, loose=loose, favour=favour,
                    **({"heights": heights} if heights else {}))
    return sc, (lamp(sc.image, light) if light.random() < lit else sc.image)


def _write_scene(args):
    seed, out, split, tilt, kinds, hands, squash, close, lit, far, sunburst, steep, prints, loose, wilds, hand_class, centres = args
    sc, image = finder_scene(seed, tilt, kinds, hands, close, lit, far, sunburst, steep, prints, loose, wilds)
    h, w = image.shape[:2]
    name = f"s{seed:08d}"
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), squashed(image, seed, squash if split == "train" else 0.0),
                [cv2.IMWRITE_JPEG_QUALITY, 92])
    (out / "labels" / split / f"{name}.txt").write_text(label_lines(scene_rows(sc, hand_class, centres), w, h))
    return 1


# a face's centre symbol (a classic print's number), in shares of the upright face's width and
# height: where the generator draws it (`render.render_card`'s centre boxes, measured)
CENTRE_BOX = (0.19, 0.27, 0.81, 0.73)


def centre_box(quad: np.ndarray) -> tuple:
    """The upright box round a face's centre symbol, the face's corners `quad` (upright order)."""
    q = np.float32(quad)
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), q)
    u1, v1, u2, v2 = CENTRE_BOX
    pts = cv2.perspectiveTransform(np.float32([[[u1, v1], [u2, v1], [u2, v2], [u1, v2]]]), m)[0]
    (x1, y1), (x2, y2) = pts.min(0), pts.max(0)
    return float(x1), float(y1), float(x2), float(y2)


def roboflow_rows(image: np.ndarray, labels: list, rec, centres: bool = False) -> list[tuple[int, np.ndarray]]:
    """A Roboflow photo's rows: its labelled indices ((symbol, box) each), and what `rec` (the
    recogniser: its `find` and `read` stages) finds that the labels vouch for. A shiny stud on
    the table found as a face must not become a training label: a face is kept where it holds a
    labelled index; an index that is no labelled one where it lies in such a face and is read as
    a symbol that face's labelled indices name. With `centres`, the centre symbol of each face
    kept that the photo shows whole, where it is read so too."""
    rows = [(INDEX, box_quad(b)) for _, b in labels]
    middles = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for _, b in labels]
    found = rec.find(image)
    faces = []
    for f in found.faces:
        poly = f.quad.reshape(-1, 1, 2).astype(np.float32)
        held = {labels[i][0] for i, c in enumerate(middles)
                if cv2.pointPolygonTest(poly, (float(c[0]), float(c[1])), False) >= 0}
        if f.score >= FOUND_SURE and held:
            faces.append((poly, held))
            rows.append((CARD, f.quad))
    extra = [i for i in found.indices if i.score >= FOUND_SURE and all(iou(i.box, b) <= 0.2 for _, b in labels)]
    if centres:
        h, w = image.shape[:2]
        extra += [Index(centre_box(f.quad), f.score) for f in found.faces if f.score >= FOUND_SURE
                  and f.quad.min() >= 0 and f.quad[:, 0].max() < w and f.quad[:, 1].max() < h]
    for r in rec.read(warp(image, Found([], extra))).indices:
        if r.p < READ_SURE:
            continue
        if any(r.symbol in symbols and cv2.pointPolygonTest(poly, tuple(map(float, r.part.centre)), False) >= 0
               for poly, symbols in faces):
            rows.append((INDEX, box_quad(r.part.box)))
    return rows


def add_roboflow(rf: Path, out: Path, share: float, seed: int = 0, lit: float = 0.0, centres: bool = False) -> int:
    """Link `share` of the Roboflow training photos (drawn with a fixed seed) into `out`/images/rf
    with their rows (`centres`: `roboflow_rows`'), `lit` of them written under a drawn lamp
    instead; returns how many."""
    from companion.vision.recognizer import Recognizer
    rec = Recognizer("any")
    (out / "images" / "rf").mkdir(parents=True, exist_ok=True)
    (out / "labels" / "rf").mkdir(parents=True, exist_ok=True)
    files = sorted((rf / "train" / "labels").glob("*.txt"))
    keep = np.random.default_rng(seed).random(len(files)) < share
    light = np.random.default_rng([seed, 13])
    n = 0
    for lab, k in zip(files, keep):
        src = rf / "train" / "images" / (lab.stem + ".jpg")
        image = cv2.imread(str(src)) if k else None
        if image is None:
            continue
        h, w = image.shape[:2]
        labels = [(ROBOFLOW_SYMBOLS[c], b) for c, b in read_labels(lab, w, h)]
        dst = out / "images" / "rf" / src.name
        rows = roboflow_rows(image, labels, rec, centres)           # pseudo-labels read in the photo's own light
        if dst.is_symlink() or dst.exists():
            dst.unlink()
        if light.random() < lit:
            cv2.imwrite(str(dst), lamp(image, light), [cv2.IMWRITE_JPEG_QUALITY, 92])
        else:
            os.symlink(src, dst)
        (out / "labels" / "rf" / f"{lab.stem}.txt").write_text(label_lines(rows, w, h))
        n += 1
        if n % 500 == 0:
            print(f"  {n} Roboflow photos", flush=True)
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=2500, help="synthetic training scenes")
    ap.add_argument("--val", type=int, default=200, help="synthetic validation scenes")
    ap.add_argument("--first-seed", type=int, default=640_000)
    ap.add_argument("--kinds", nargs="*", default=["pile", "pile", "pile", "pile", "single", "fan", "stack", "spread",
                                                   "negative", "lookalike"], choices=ALL_KINDS)
    ap.add_argument("--hands", type=float, default=0.6)
    ap.add_argument("--tilt", type=float, default=30.0, help="the most the camera leans from overhead, in degrees")
    ap.add_argument("--steep", type=float, default=0.0,
                    help=f"the share of scenes whose camera leans up to {STEEP:.0f} degrees instead (a phone held at the table's edge)")
    ap.add_argument("--squash", type=float, default=0.3, help="the share of training scenes stretched one way")
    ap.add_argument("--close", type=float, default=0.0,
                    help="the share of scenes of one card held close to the lens, larger than the frame, cut by its edges")
    ap.add_argument("--small", type=float, default=0.0,
                    help="the share of scenes whose cards are small (5-18%% of the frame's height: a camera far away)")
    ap.add_argument("--lamp", type=float, default=0.0,
                    help="the share of scenes and Roboflow photos under a strong lamp (a bulb's orange to a shade's blue)")
    ap.add_argument("--sunburst", type=float, default=0.0,
                    help="the share of decks printed in the sunburst design (a big number on a white half-disc of rays)")
    ap.add_argument("--prints", type=float, default=0.0,
                    help="the share of scenes on a printed tablecloth (small motifs, some of an index's size and stroke)")
    ap.add_argument("--loose", type=float, default=0.0,
                    help="the share of piles whose cards lie further apart (cards beneath the top one that show "
                         "most of themselves, labelled covered)")
    ap.add_argument("--wilds", type=float, default=0.0,
                    help="the share of scenes whose cards are half of them wilds, every kind (a black card on top "
                         "of a pile covers the cards beneath it as any card does)")
    ap.add_argument("--hand-class", action="store_true",
                    help=f"label every hand in view as a third class, {HAND_CLASS!r} (train from grow-classes' weights)")
    ap.add_argument("--centres", action="store_true",
                    help="label each card's centre symbol in view as an index too (a symbol in view)")
    ap.add_argument("--roboflow", default=None, help="the Roboflow UNO folder: its training photos join the set")
    ap.add_argument("--roboflow-share", type=float, default=0.6)
    ap.add_argument("--procs", type=int, default=2)
    a = ap.parse_args(argv)
    if not (SEEDS["train"] <= a.first_seed and a.first_seed + a.count <= SEEDS["val"]):
        ap.error(f"training seeds {a.first_seed}..{a.first_seed + a.count - 1} leave the training range")
    out = Path(a.out).resolve()
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    extra = (a.tilt, _check_kinds(tuple(a.kinds)), a.hands, a.squash, a.close, a.lamp, a.small, a.sunburst, a.steep,
             a.prints, a.loose, a.wilds, a.hand_class, a.centres)
    jobs = [(a.first_seed + i, out, "train") + extra for i in range(a.count)]
    jobs += [(SEEDS["val"] + i, out, "val") + extra for i in range(a.val)]
    for k, _ in enumerate(_run(_write_scene, jobs, a.procs)):
        if k % 500 == 0:
            print(f"  {k}/{len(jobs)} scenes", flush=True)
    train = [str(out / "images" / "train")]
    if a.roboflow:
        n = add_roboflow(Path(a.roboflow).resolve(), out, a.roboflow_share, lit=a.lamp, centres=a.centres)
        train.append(str(out / "images" / "rf"))
        print(f"  {n} Roboflow photos", flush=True)
    classes = FINDER_CLASSES + ((HAND_CLASS,) if a.hand_class else ())
    names = "\n".join(f"  {i}: {c}" for i, c in enumerate(classes))
    listed = "\n".join(f"  - {t}" for t in train)
    (out / "data.yaml").write_text(f"path: {out}\ntrain:\n{listed}\nval: {out / 'images' / 'val'}\nnames:\n{names}\n")
    print(out / "data.yaml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
