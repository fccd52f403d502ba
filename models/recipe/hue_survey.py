"""Which hues a camera really sees on UNO cards: the evidence behind companion.vision.colour.HUES.

    python models/recipe hues "../shared/datasets/roboflow-uno/valid/images/*.jpg" --limit 400

For every coloured corner index the shipped recogniser's finder finds (read by its symbol
classifier with certainty >= 0.7, wilds left out), the patch around it is white-balanced as the
recogniser does and the mode of its saturated pixels' OpenCV hue (0..180) is taken; a histogram
of those modes is printed (3 hue steps a row), followed by the count of each colour the
recogniser reports for the same photos. The peaks are the deck's printed colours as this camera
and light render them; the hue table in colour.py puts its boundaries in the valleys between
them. Last, the yellow / olive green check: the indices whose tight patch's median hue is 15-25
(yellow) or 28-46 (the classic deck's olive green: every such index looked at is an olive card),
and the colour the recogniser reads for each in the classic palette, from the index's crop as
its reader reads it (yellow and olive share hues 26-36; brightness decides).
"""
from __future__ import annotations

import argparse
import collections
import glob
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.cards import deck as deck_profile  # noqa: E402
from companion.vision.colour import colour_of_hues, saturated_hues, white_balance  # noqa: E402
from companion.vision.recognizer import Recognizer  # noqa: E402
from companion.vision.stages import Found, warp  # noqa: E402


def _hues(image: np.ndarray, box, half: float) -> np.ndarray | None:
    """Hues of the saturated, white-balanced pixels of `box` grown to `half` x its size each side
    of its centre (None if fewer than 12)."""
    x1, y1, x2, y2 = box
    cx, cy, hw, hh = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) * half, (y2 - y1) * half
    patch = image[int(max(0, cy - hh)):int(cy + hh), int(max(0, cx - hw)):int(cx + hw)]
    if patch.size == 0:
        return None
    hsv = cv2.cvtColor(white_balance(patch), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    keep = (hsv[:, 1] > 90) & (hsv[:, 2] > 50)
    return hsv[keep, 0] if keep.sum() >= 12 else None


def index_hue(image: np.ndarray, box) -> int | None:
    """The mode hue round an index (a patch 1.8 x its box)."""
    h = _hues(image, box, 0.9)
    if h is None:
        return None
    counts = np.bincount(h.astype(int), minlength=180)
    smooth = np.convolve(np.r_[counts[-3:], counts, counts[:3]], np.ones(7), "valid")
    return int(smooth.argmax())


def tight_hue(image: np.ndarray, box) -> float | None:
    """The median hue in the recogniser's tight patch round an index (1.1 x its box)."""
    h = _hues(image, box, 0.55)
    return None if h is None else float(np.median(h))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("images", help="a glob of photos")
    ap.add_argument("--limit", type=int, default=400)
    ap.add_argument("--deck", default="auto")
    a = ap.parse_args(argv)
    rec = Recognizer(a.deck)
    classic = deck_profile("classic").colors
    hues, colours, check = [], collections.Counter(), collections.Counter()
    for path in sorted(glob.glob(a.images))[:a.limit]:
        image = cv2.imread(path)
        if image is None:
            continue
        crops = warp(image, Found([], rec.find(image).indices))       # the corner indices alone
        for crop, r in zip(crops.indices, rec.read(crops).indices):
            if r.symbol != "none" and not r.symbol.startswith("wild") and r.p >= 0.7:
                h = index_hue(image, r.part.box)
                if h is not None:
                    hues.append(h)
                    t = tight_hue(image, r.part.box)
                    kind = None if t is None else "yellow" if 15 <= t <= 25 else "olive" if 28 <= t <= 46 else None
                    if kind:      # read as the reader reads an index's colour, in the classic palette
                        check[(kind, colour_of_hues(saturated_hues(crop.pixels, skin=False), classic)[0])] += 1
        colours.update(str(d.color) for d in rec.recognize(image).cards)
    hist = np.bincount(hues, minlength=180)
    for i in range(0, 180, 3):
        n = int(hist[i:i + 3].sum())
        print(f"{i:3d} {n:5d} {'#' * min(100, n // 2)}")
    print("colours reported:", dict(colours.most_common()))
    print("yellow / olive check (mode kind, colour read):", {f"{k} -> {c}": n for (k, c), n in sorted(check.items(), key=str)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
