"""Real faces for the card reader: the Roboflow training photos' cards, cut out upright and named by
their labelled corner index.

    python models/recipe real-faces --roboflow ../shared/datasets/roboflow-uno --out /work/data/real1

The card reader learnt from synthetic faces only and reads real ones poorly (`recipe
bench-stages`). Each training photo (never the validation split) is scaled to at most 640
pixels as a camera frame is, the shipped outline finder finds its cards, and each outline that
holds a labelled index near one of its corners (`bench_stages.own_label`) is cut out as the
recogniser cuts it (`outline.card_crop`, 64x96) and named by that index. A covered card's crop
shows mostly the card over it: it is named by its own index all the same, which is what the
reader must learn to read. The folder is written as `recipe data cards` writes one (JPEG crops
and `cards.json`), so that `recipe train-reader --cards` takes it as it is.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_stages import labelled_frame, own_label  # noqa: E402
from companion.paths import models_dir  # noqa: E402
from companion.vision.outline import CARD_CROP, OutlineFinder, card_crop  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roboflow", required=True, help="the Roboflow UNO folder")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--finder", default=None, help="an outline finder's ONNX file (default: the shipped one)")
    ap.add_argument("--corner", type=float, default=0.6)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--quality", type=int, default=60, help="JPEG quality of the crops")
    ap.add_argument("--keep-covered", type=float, default=1.0, metavar="SHARE",
                    help="keep this share of the covered cards' faces (drawn with a fixed seed; 0.75 made the "
                         "shipped face reader's set, small enough to travel to a GPU machine)")
    a = ap.parse_args(argv)
    photos = sorted(p for p in (Path(a.roboflow) / "train" / "images").glob("*")
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if a.limit:
        photos = photos[:a.limit]
    if not photos:
        ap.error(f"no photos in {Path(a.roboflow) / 'train' / 'images'}")
    finder = OutlineFinder(Path(a.finder or models_dir() / "outlines.onnx"))
    a.out.mkdir(parents=True, exist_ok=True)
    rows = []
    drop = random.Random(3)
    for k, path in enumerate(photos):
        if k and k % max(1, len(photos) // 10) == 0:
            print(f"  photos: {k}/{len(photos)}, {len(rows)} faces", file=sys.stderr, flush=True)
        image, labels = labelled_frame(path)
        if image is None:
            continue
        for j, o in enumerate(finder.find(image)):
            i = own_label(o.quad, labels, a.corner)
            if i is None or (o.cls == "under" and drop.random() < 1 - a.keep_covered):
                continue
            name = f"r{k:05d}_{j}.jpg"
            cv2.imwrite(str(a.out / name), card_crop(image, o.quad, CARD_CROP), [cv2.IMWRITE_JPEG_QUALITY, a.quality])
            rows.append({"file": name, "symbol": labels[i][0], "color": None, "cls": o.cls, "seed": k,
                         "seen": 1.0, "parts": 1.0, "src": f"roboflow:{path.name}"})
    (a.out / "cards.json").write_text(json.dumps(rows))
    print(f"{len(rows)} faces from {len(photos)} photos in {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
