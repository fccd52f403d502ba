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

With ``--corners`` it writes each found card's two index corners instead (`outline.corner_quads`,
warped to the same 64x96): a corner named by the labelled index inside it, or "none" where a
covered card's corner holds no labelled index (another card lies over it). That is the corner
reader's set (`recipe train-reader --cards`): it learns to read a fanned card by the one corner a
fan leaves in view, at four times the pixels the whole face gives its index.
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
from companion.vision.outline import CARD_CROP, OutlineFinder, card_crop, corner_quads, quad_crop  # noqa: E402


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
    ap.add_argument("--corners", action="store_true", help="write each card's two index corners, not its face")
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
            if a.corners:
                for side, cq in enumerate(corner_quads(o.quad)):
                    symbol = _inside(cq, labels)
                    if symbol is None and o.cls != "under":
                        continue          # a whole face's corner without a label: the labels missed it
                    name = f"r{k:05d}_{j}_{side}.jpg"
                    cv2.imwrite(str(a.out / name), quad_crop(image, cq, CARD_CROP), [cv2.IMWRITE_JPEG_QUALITY, a.quality])
                    rows.append({"file": name, "symbol": symbol or "none", "color": None, "cls": o.cls, "seed": k,
                                 "seen": 1.0, "parts": 1.0, "src": f"roboflow:{path.name}"})
                continue
            name = f"r{k:05d}_{j}.jpg"
            cv2.imwrite(str(a.out / name), card_crop(image, o.quad, CARD_CROP), [cv2.IMWRITE_JPEG_QUALITY, a.quality])
            rows.append({"file": name, "symbol": labels[i][0], "color": None, "cls": o.cls, "seed": k,
                         "seen": 1.0, "parts": 1.0, "src": f"roboflow:{path.name}"})
    (a.out / "cards.json").write_text(json.dumps(rows))
    print(f"{len(rows)} faces from {len(photos)} photos in {a.out}")
    return 0


INDEX_REACH = 0.25     # a card's own index lies this near its corner, in long sides (its middle: 0.15)


def _inside(quad, labels) -> str | None:
    """The symbol of the labelled index in the corner view `quad`, where the card's own index lies
    (near the corner: another card's index further in is not this card's); None where none is."""
    import numpy as np
    from companion.vision.outline import CORNER_VIEW
    poly = np.float32(quad).reshape(-1, 1, 2)
    reach = INDEX_REACH * float(np.hypot(*(quad[3] - quad[0]))) / CORNER_VIEW[1]
    inside = [(d, sym) for sym, c in labels
              if cv2.pointPolygonTest(poly, (float(c[0]), float(c[1])), False) >= 0
              and (d := float(np.hypot(*(c - quad[0])))) <= reach]
    return min(inside)[1] if inside else None


if __name__ == "__main__":
    sys.exit(main())
