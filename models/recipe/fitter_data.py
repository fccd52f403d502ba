"""Data for the fitter (`companion/vision/stages/fit.py`): fitting squares round card faces, each with
the corners of the card's outline in it.

    python models/recipe fitter-data OUT --count 3000 --first-seed 720000 --small 0.3 --close 0.15

The scenes are the finder's (`finder_data.finder_scene`, the same options); a face's outline is
what the finder is taught for it (its whole outline, or the part in view of a card the frame cuts).
Each face gives squares round the boxes the shipped finder finds for it (overlapping it by
`MATCH` or more: the errors the fitter must undo) and round `--jitters` boxes drawn about it (its
box moved, grown or shrunk, stretched and turned). Writes OUT/fit.npz: `x` (N x S x S x 3 BGR
uint8), `y` (N x 8: the outline's corners, in order round it, in the square's units), `seed` (each
square's scene), `finder` (1 where the finder's own box made it) and `box` (that box's corners).
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from companion.vision.dataset import SEEDS, _check_kinds, _run  # noqa: E402
from companion.vision.outline import quad_iou  # noqa: E402
from companion.vision.stages.fit import FIT_SIDE, fit_crop, to_square  # noqa: E402
from companion.vision.synth import ALL_KINDS  # noqa: E402

# a box the finder finds is a face's where it overlaps the face's outline this much
MATCH = 0.25


def _finder_data():
    spec = importlib.util.spec_from_file_location("finder_data", HERE / "finder_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_STATE: dict = {}


def jittered(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A turned box about `quad`'s: moved up to about a fifth of its size, grown or shrunk,
    stretched one way, turned (now and then by a quarter: the finder's long and short sides
    swapped on a squarish blur)."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.float32(quad).reshape(-1, 1, 2))
    size = max(w, h)
    cx, cy = cx + rng.normal(0, 0.08) * size, cy + rng.normal(0, 0.08) * size
    grow = np.exp(rng.normal(0, 0.12))
    stretch = np.exp(rng.normal(0, 0.12))
    angle += rng.normal(0, 10) + (90 if rng.random() < 0.1 else 0)
    return cv2.boxPoints(((cx, cy), (w * grow * stretch, h * grow / stretch), angle))


def _fit_scene(args):
    seed, options, jitters, side = args
    if "finder" not in _STATE:              # once a process: the shipped recogniser's find stage
        from companion.vision.recognizer import Recognizer
        _STATE["finder"] = Recognizer("any").find
        _STATE["fd"] = _finder_data()
    fd = _STATE["fd"]
    sc, image = fd.finder_scene(seed, *options)
    h, w = image.shape[:2]
    outlines = [q for c, q in fd.scene_rows(sc) if c == fd.CARD]
    rng = np.random.default_rng([seed, 41])
    boxes = []
    for f in _STATE["finder"](image).faces:
        ious = [quad_iou(f.quad, q) for q in outlines]
        if ious and max(ious) >= MATCH:
            boxes.append((f.quad, outlines[int(np.argmax(ious))], 1))
    for q in outlines:
        boxes += [(jittered(q, rng), q, 0) for _ in range(jitters)]
    rows = []
    for box, q, own in boxes:
        pixels, m = fit_crop(image, box, side)
        rows.append((pixels, to_square(m, q, side).reshape(-1), seed, own, to_square(m, box, side).reshape(-1)))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=3000, help="synthetic scenes")
    ap.add_argument("--first-seed", type=int, default=720_000)
    ap.add_argument("--jitters", type=int, default=2, help="boxes drawn about each face besides the finder's")
    ap.add_argument("--kinds", nargs="*", default=["pile", "pile", "pile", "pile", "single", "fan", "stack", "spread"],
                    choices=ALL_KINDS)
    ap.add_argument("--hands", type=float, default=0.6)
    ap.add_argument("--tilt", type=float, default=30.0)
    ap.add_argument("--steep", type=float, default=0.15)
    ap.add_argument("--close", type=float, default=0.15)
    ap.add_argument("--small", type=float, default=0.3)
    ap.add_argument("--lamp", type=float, default=0.25)
    ap.add_argument("--sunburst", type=float, default=0.3)
    ap.add_argument("--procs", type=int, default=2)
    a = ap.parse_args(argv)
    if not (SEEDS["train"] <= a.first_seed and a.first_seed + a.count <= SEEDS["val"]):
        ap.error(f"training seeds {a.first_seed}..{a.first_seed + a.count - 1} leave the training range")
    options = (a.tilt, _check_kinds(tuple(a.kinds)), a.hands, a.close, a.lamp, a.small, a.sunburst, a.steep)
    jobs = [(a.first_seed + i, options, a.jitters, FIT_SIDE) for i in range(a.count)]
    rows = []
    for k, r in enumerate(_run(_fit_scene, jobs, a.procs)):
        rows += r
        if k % 500 == 0:
            print(f"  {k}/{len(jobs)} scenes, {len(rows)} squares", flush=True)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "fit.npz", x=np.stack([r[0] for r in rows]), y=np.float32([r[1] for r in rows]),
                        seed=np.int64([r[2] for r in rows]), finder=np.uint8([r[3] for r in rows]),
                        box=np.float32([r[4] for r in rows]))
    print(f"{out / 'fit.npz'}: {len(rows)} squares from {a.count} scenes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
