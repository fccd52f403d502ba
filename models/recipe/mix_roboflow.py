"""Add the Roboflow training photos to the detector's data, with the labels they lack filled in.

    python models/recipe mix-roboflow --roboflow ../shared/datasets/roboflow-uno --synthetic /work/data/det1 \
        --out /work/data/det2 [--model-dir models]

The Roboflow photos label only the top-left corner index of each card. Mixed in as they are,
they would teach the detector that the front card's other index, its centre symbol and its
uncovered face are background. So the shipped detector labels those (confidence >= --conf) and
the ground-truth index boxes are kept as they are (pseudo-labelling). The photos are linked, not
copied, and only the training split is used (the validation split stays for measuring).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.vision.classes import DETECTOR_CLASSES  # noqa: E402
from companion.vision.dataset import read_labels  # noqa: E402
from companion.vision.recognizer import Recognizer  # noqa: E402

# the Roboflow class ids (see the dataset's data.yaml) as this project's symbols
ROBOFLOW_SYMBOLS = ["0", "1", "wild_draw_four", "draw_two", "reverse", "skip", "wild",
                    "2", "3", "4", "5", "6", "7", "8", "9"]


def iou(a, b) -> float:
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def inside(box, outer) -> bool:
    """The centre of `box` lies within `outer`."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roboflow", required=True)
    ap.add_argument("--synthetic", required=True, help="a dataset written by companion.vision.dataset detector")
    ap.add_argument("--out", required=True)
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--conf", type=float, default=0.5)
    a = ap.parse_args(argv)
    rf, out = Path(a.roboflow).resolve(), Path(a.out).resolve()
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    rec = Recognizer("auto", model_dir=a.model_dir, conf=a.conf)
    added = dropped = 0
    for lab in sorted((rf / "train" / "labels").glob("*.txt")):
        src = rf / "train" / "images" / (lab.stem + ".jpg")
        img = cv2.imread(str(src))
        if img is None:
            continue
        h, w = img.shape[:2]
        gt = [(ROBOFLOW_SYMBOLS[c], box) for c, box in read_labels(lab, w, h)]
        rows = [(0, b) for _, b in gt]
        parts = [p for p in rec.detect(img) if p.score >= a.conf]
        rec.classify(img, parts)
        # keep only pseudo-labels the ground truth vouches for (a shiny stud on the table read as a
        # card face must not become a training label): an uncovered face holds a labelled index;
        # a centre symbol or another corner index shows the symbol of a labelled index near it
        faces = [p for p in parts if p.cls == "card" and any(inside(g, p.box) for _, g in gt)]
        for p in parts:
            if p.cls == "card":
                ok = p in faces
            elif p.cls == "index" and any(iou(p.box, g) > 0.2 for _, g in gt):
                ok = False
            else:
                ok = p.p >= 0.7 and any(inside(p.box, f.box) and any(s == p.symbol and inside(g, f.box) for s, g in gt)
                                        for f in faces)
            if ok:
                rows.append((DETECTOR_CLASSES.index(p.cls), p.box))
                added += 1
            else:
                dropped += 1
        dst = out / "images" / src.name
        if not dst.exists():
            os.symlink(src, dst)
        (out / "labels" / (lab.stem + ".txt")).write_text("".join(
            f"{c} {(b[0] + b[2]) / 2 / w:.6f} {(b[1] + b[3]) / 2 / h:.6f} {(b[2] - b[0]) / w:.6f} {(b[3] - b[1]) / h:.6f}\n"
            for c, b in rows))
    syn = Path(a.synthetic).resolve()
    names = "\n".join(f"  {i}: {c}" for i, c in enumerate(DETECTOR_CLASSES))
    (out / "data.yaml").write_text(
        f"path: {out}\ntrain:\n  - {syn / 'images' / 'train'}\n  - {out / 'images'}\nval: {syn / 'images' / 'val'}\nnames:\n{names}\n")
    print(f"{out / 'data.yaml'}: {added} pseudo-labels added to the Roboflow training photos, {dropped} unconfirmed ones left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
