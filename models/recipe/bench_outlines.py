"""Benchmark of an outline finder (figures for the model card; not a test).

    python models/recipe bench-outlines --model models/outlines.onnx --piles 500 [--first-seed 9000000] [--misses]

On the game bench's held-out piles (640x480, the same scenes as ``recipe bench --piles``,
seeds 9,000,000..): the top card's outline found as ``card`` (turned-rectangle IoU 0.5 or more),
by how much of the top card is in view; the share of ``card`` outlines found that are some
uncovered card's; the ``under`` cards' outlines found (as either class); the median IoU of the top
card's outline where found, and the median time a frame on one thread.
"""
from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from companion.vision.classes import OUTLINE_CLASSES  # noqa: E402
from companion.vision.dataset import SEEDS, outline_rows  # noqa: E402
from companion.vision.outline import OutlineFinder, quad_iou  # noqa: E402
from companion.vision.synth import make_scene  # noqa: E402

MATCH = 0.5


def _bin(seen: float) -> str:
    return "clear (75%+ seen)" if seen >= 0.75 else "covered (30-75%)" if seen >= 0.3 else "mostly hidden (<30%)"


def bench(finder: OutlineFinder, n: int, first: int, misses: list | None = None) -> dict:
    top_found, top_all = collections.Counter(), collections.Counter()
    cards_found = cards_right = under_all = under_found = 0
    ious, times = [], []
    for i in range(n):
        sc = make_scene(first + i, size=(640, 480), kind=("pile", "single")[i % 4 == 3])
        h, w = sc.image.shape[:2]
        t = time.perf_counter()
        found = finder.find(sc.image)
        times.append(time.perf_counter() - t)
        truth = [(OUTLINE_CLASSES[c], q * [w, h]) for c, q in outline_rows(sc.outlines, w, h)]
        # every card the finder calls uncovered should be one (a top card under a hand is)
        for o in found:
            if o.cls == "card":
                cards_found += 1
                cards_right += any(c == "card" and quad_iou(o.quad, q) >= MATCH for c, q in truth)
        for c, q in truth:
            if c == "under":
                under_all += 1
                under_found += any(quad_iou(o.quad, q) >= MATCH for o in found)
        if sc.top is None or not sc.outlines or sc.outlines[-1].card is not sc.top:
            continue
        top = sc.outlines[-1]
        rows = outline_rows([top], w, h)
        if not rows:
            continue
        quad = rows[0][1] * [w, h]
        b = _bin(top.seen)
        top_all[b] += 1
        best = max((quad_iou(o.quad, quad) for o in found if o.cls == "card"), default=0.0)
        if best >= MATCH:
            top_found[b] += 1
            ious.append(best)
        elif misses is not None:
            misses.append(f"{first + i} ({top.seen:.2f} seen): {sc.top}, best IoU {best:.2f}; found "
                          + ", ".join(f"{o.cls} {o.score:.2f}" for o in found))
    total = sum(top_all.values())
    return {
        "top_card_outline_found": round(sum(top_found.values()) / max(total, 1), 4), "top_cards": total,
        "by_view": {k: f"{top_found[k]} of {top_all[k]}" for k in sorted(top_all)},
        "card_outlines_uncovered_cards": round(cards_right / max(cards_found, 1), 4), "card_outlines": cards_found,
        "under_outlines_found": round(under_found / max(under_all, 1), 4), "under_cards": under_all,
        "top_iou_median": round(float(np.median(ious)), 3) if ious else None,
        "ms_median": round(1000 * float(np.median(times)), 1),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True, help="an exported outline network (.onnx)")
    ap.add_argument("--imgsz", type=int, default=320)
    ap.add_argument("--conf", type=float, default=0.3)
    ap.add_argument("--piles", type=int, default=500)
    ap.add_argument("--first-seed", type=int, default=SEEDS["bench"])
    ap.add_argument("--misses", action="store_true", help="list each top card whose outline was not found")
    a = ap.parse_args(argv)
    finder = OutlineFinder(Path(a.model), a.imgsz, conf=a.conf)
    misses = [] if a.misses else None
    out = bench(finder, a.piles, a.first_seed, misses)
    for line in misses or ():
        print("  miss", line)
    for k, v in out.items():
        print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
