"""Real photos without a card: the Roboflow photos' backgrounds (figures for the model card; not a test).

The synthetic negatives (`recipe bench --negatives`) are tables the generator draws. The
Roboflow UNO photos are cards laid on some 4,000 real photographs of surfaces: wood, stone,
cloth, knitting, straw, food, patterned fabric. Cut clear of the cards, those are real photos
of tables and textures with no card in them. From each photo the largest strip beside its fan
of cards is kept (left, right, above or below), clear of every corner-index box grown by
`CLEAR` times the largest box's side (a card is about 6 of its index boxes tall), and at least
`MIN_AREA` of the photo and `MIN_SIDE` of its shorter side. Each strip is scored with the shared
scorer as a photo that shows no card (`background_clean`: the share with no card reported), as
taken and under the conditions of `recipe bench-conditions` (`--conditions`).

    python models/recipe bench-backgrounds --roboflow ../shared/datasets/roboflow-uno
    python models/recipe bench-backgrounds --roboflow ../shared/datasets/roboflow-uno --split train --conditions warm dim overexposed

The validation split's photos are never trained on; the detector was trained on the training
split's photos (cards and background alike), so its figure is the kinder one.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import bench_conditions  # noqa: E402
from companion.vision.dataset import read_labels  # noqa: E402

CLEAR, MIN_AREA, MIN_SIDE = 6.0, 0.1, 0.2


def label_boxes(path: Path, w: int, h: int) -> np.ndarray:
    """A YOLO label file's boxes in pixels (x1, y1, x2, y2), one row each."""
    return np.float32([box for _, box in read_labels(path, w, h)]).reshape(-1, 4)


def clear_strip(shape: tuple, boxes: np.ndarray) -> tuple | None:
    """The largest strip (x1, y1, x2, y2) of a frame of `shape` beside the cards whose corner
    indices are `boxes`: outside their hull grown by CLEAR box sides, or None when no strip is
    large enough (or there is no box: where the cards are is then unknown)."""
    h, w = shape[:2]
    if len(boxes) == 0:
        return None
    side = float(max((boxes[:, 2] - boxes[:, 0]).max(), (boxes[:, 3] - boxes[:, 1]).max()))
    pts = np.concatenate([boxes[:, [0, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]], boxes[:, [2, 1]]])
    outside = np.full((h, w), 255, np.uint8)
    cv2.fillConvexPoly(outside, cv2.convexHull(np.round(pts).astype(np.int32)), 0)
    # within CLEAR box sides of the hull (a distance transform: quick however large the boxes)
    near = cv2.distanceTransform(outside, cv2.DIST_L2, 5) <= CLEAR * side
    ys, xs = np.nonzero(near)
    if len(xs) == 0:
        return None
    x1, y1, x2, y2 = int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
    strips = [(0, 0, x1, h), (x2, 0, w, h), (0, 0, w, y1), (0, y2, w, h)]
    best = max(strips, key=lambda s: (s[2] - s[0]) * (s[3] - s[1]))
    bw, bh = best[2] - best[0], best[3] - best[1]
    if bw * bh < MIN_AREA * w * h or min(bw, bh) < MIN_SIDE * min(w, h):
        return None
    return best


def backgrounds(split: Path, limit: int = 0) -> list[tuple[str, np.ndarray]]:
    """(name, strip) for each photo of a Roboflow split that leaves a strip clear of its cards."""
    out = []
    for img_path in sorted((split / "images").glob("*.jpg")):
        lab = split / "labels" / (img_path.stem + ".txt")
        if not lab.is_file():
            continue
        img = cv2.imread(str(img_path))
        if img is None:
            continue
        strip = clear_strip(img.shape, label_boxes(lab, img.shape[1], img.shape[0]))
        if strip is not None:
            x1, y1, x2, y2 = strip
            out.append((img_path.name, img[y1:y2, x1:x2].copy()))
            if limit and len(out) >= limit:
                break
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roboflow", required=True, help="../shared/datasets/roboflow-uno")
    ap.add_argument("--split", default="valid", choices=("valid", "train"))
    ap.add_argument("--limit", type=int, default=0, help="at most this many strips (0: all)")
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--scorer", default=None, help="score_recognizer.py (default: ../shared/eval beside the project)")
    ap.add_argument("--conditions", nargs="*", default=None,
                    help="also under these conditions of bench_conditions.py (the first words of their names)")
    a = ap.parse_args(argv)
    src = Path(a.roboflow) / a.split
    scorer = Path(a.scorer) if a.scorer else bench_conditions.SCORER
    if not (src / "images").is_dir() or not scorer.is_file():
        raise SystemExit(f"need {src / 'images'} and {scorer}")
    strips = backgrounds(src, a.limit)
    if not strips:
        raise SystemExit(f"no photo in {src} leaves a strip clear of its cards")
    names = [bench_conditions.PLAIN] + (bench_conditions.chosen(a.conditions) if a.conditions else [])
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in dict.fromkeys(names):
            k = list(bench_conditions.CONDITIONS).index(name)
            fn, rng = bench_conditions.CONDITIONS[name], np.random.default_rng(k)
            folder = Path(tmp) / f"c{k}"
            (folder / "images").mkdir(parents=True)
            labels = {}
            for stem, img in strips:
                rel = f"images/{stem}"
                cv2.imwrite(str(folder / rel), fn(img, rng), [cv2.IMWRITE_JPEG_QUALITY, 92])
                labels[rel] = {"cards": [], "single": True}
            (folder / "labels.json").write_text(json.dumps({"images": labels, "has_color": True}))
            s = bench_conditions.score(folder, a.model_dir, scorer, show_errors=len(strips))
            results[name] = {"background_clean": s["background_clean"], "photos": s["background_n"],
                             "false_cards": s["errors"]}
            print(f"{name}: {results[name]}", file=sys.stderr, flush=True)
    print(json.dumps({"split": a.split, "strips": len(strips), "conditions": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
