"""`companion recognize --json IMAGE...`: one JSON line per image, in order (the contract of
../shared/eval/score_recognizer.py). An unreadable image gets a line with an ``error`` field.
Each photo is read once, as it is, drawn at most `PHOTO_SIDE` pixels on its longer side first (a
phone's 12-megapixel photo shows nothing more to the detector, which reads at 320 pixels, and
close-ups of small cards, but costs 15 times the pixels of a camera frame); boxes are in the
photo's own pixels."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

import cv2

# the longest side a photo is read at (halved until then: a 4032x3024 photo is read at 1008x756, where
# a card 7% of its height is 53 pixels tall)
PHOTO_SIDE = 1024


def read_photo(rec, img):
    """`rec.recognize` on `img` halved until its longer side is at most PHOTO_SIDE pixels (a
    bilinear halving averages each 2x2 pixels, as an area resize does, at a third of its cost on
    a 12-megapixel photo), its boxes back in `img`'s pixels."""
    small = img
    while max(small.shape[:2]) > PHOTO_SIDE:
        h, w = small.shape[:2]
        small = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_LINEAR)
    if small is img:
        return rec.recognize(img)
    s = small.shape[1] / img.shape[1]
    found = rec.recognize(small)

    def back(d):
        return replace(d, box=tuple(v / s for v in d.box))
    return replace(found, cards=[back(d) for d in found.cards], top=found.top and back(found.top),
                   unsure=found.unsure and back(found.unsure))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON object per image per line (the default output)")
    p.add_argument("--deck", default="any",
                   help="any (the default: any deck's symbols, in the four colours the JSON contract names), "
                        "auto (any deck's symbols and colours: orange and purple too) or a deck profile "
                        "(classic, classic112, seinfeld)")
    p.add_argument("--model-dir", default=None, help="folder with recognizer.json and the ONNX models")
    p.add_argument("--threads", type=int, default=1)


def main(args) -> int:
    from .recognizer import ModelError, Recognizer
    try:
        rec = Recognizer(args.deck, model_dir=args.model_dir, threads=args.threads)
    except (ModelError, ValueError) as exc:
        print(f"companion recognize: {exc}", file=sys.stderr)
        return 2
    for path in args.images:
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None:
            line = {"image": path, "error": "cannot read image", "cards": [], "top": None}
        else:
            try:
                line = read_photo(rec, img).to_json(path)
            except Exception as exc:  # one bad image must not stop the batch
                line = {"image": path, "error": f"recognition failed: {exc}", "cards": [], "top": None}
        print(json.dumps(line), flush=True)
    return 0
