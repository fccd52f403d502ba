"""Pick the hard scenes of a detector dataset: those where a detector misses a labelled part.

    python models/mine_hard.py /work/data/det10h --easy 1000 --out /work/data/det10h_hard.txt [--model-dir DIR]

Each training image of the dataset (written by `python -m companion.vision.dataset detector`) is
run through the detector (the shipped one, or `--model-dir`'s) at its run-time thresholds. An
image is hard when one of its labelled corner indices or uncovered faces has no detection of its
class overlapping it by `--iou` (centre symbols are not counted: they are found far more surely).
The list file written holds every hard image and `--easy` of the others (drawn with a fixed
seed), one path a line: Ultralytics takes such a file as a `train` entry of a data yaml, with the
labels beside the images as usual. Used for detector stage 10 (models/README.md).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from companion.vision.classes import DETECTOR_CLASSES  # noqa: E402
from companion.vision.dataset import read_labels  # noqa: E402
from companion.vision.recognizer import Recognizer, _iou  # noqa: E402

COUNTED = ("index", "card")


def missed(parts, rows, iou: float) -> int:
    """How many labelled indices and faces no detection of their class overlaps by `iou`."""
    return sum(1 for name, box in rows if name in COUNTED
               and not any(p.cls == name and _iou(p.box, box) >= iou for p in parts))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", help="a detector dataset folder (images/train, labels/train)")
    ap.add_argument("--out", required=True, help="the list file to write")
    ap.add_argument("--easy", type=int, default=0, help="also keep this many of the other images")
    ap.add_argument("--iou", type=float, default=0.4)
    ap.add_argument("--model-dir", default=None)
    a = ap.parse_args(argv)
    images = sorted(p for p in (Path(a.dataset) / "images" / "train").iterdir() if p.suffix in (".jpg", ".png"))
    if not images:
        ap.error(f"no training images in {Path(a.dataset) / 'images' / 'train'}")
    rec = Recognizer("classic", model_dir=a.model_dir, threads=2)
    hard, easy = [], []
    for k, path in enumerate(images):
        img = cv2.imread(str(path))
        label = path.parent.parent.parent / "labels" / "train" / (path.stem + ".txt")
        rows = [(DETECTOR_CLASSES[c], box) for c, box in read_labels(label, img.shape[1], img.shape[0])] \
            if label.is_file() else []
        (hard if missed(rec.detect(img), rows, a.iou) else easy).append(str(path))
        if k % 1000 == 999:
            print(f"  {k + 1}/{len(images)} images, {len(hard)} hard", flush=True)
    keep = hard + random.Random(10).sample(easy, min(a.easy, len(easy)))
    Path(a.out).write_text("\n".join(keep) + "\n")
    print(f"{len(hard)} hard of {len(images)}; wrote {len(keep)} paths to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
