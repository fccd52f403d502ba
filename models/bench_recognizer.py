"""Benchmarks of the shipped recogniser (figures for the model card; not a test).

    python models/bench_recognizer.py --piles 500 --negatives 300 --latency 100 [--stock]

- held-out synthetic piles (seeds never used in training: companion.vision.dataset.SEEDS["bench"]),
  640x480 overhead frames: top card right (colour and symbol);
- held-out synthetic negatives (empty tables, card backs, hands, phones): no card reported;
- latency per image, one thread, ONNX Runtime at the deployed size, median of N images;
  with --stock, the same for a stock YOLO11n built from its yaml at 640 (exported in this run).
"""
from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from companion.vision.dataset import SEEDS  # noqa: E402
from companion.vision.recognizer import Recognizer  # noqa: E402
from companion.vision.synth import make_scene  # noqa: E402


def key(card):
    return None if card is None else (None if card.is_wild else card.color, card.symbol)


def det_key(det):
    if det is None:
        return None
    c = det.card
    return key(c) if c else (det.color, det.symbol)


def piles(rec: Recognizer, n: int, deck_name: str | None) -> dict:
    """Top card right, over every scene with a top card and over the readable ones: those where
    the top card shows at least one symbol (a corner index or the centre; in the others a hand or
    the frame edge hides it, and the right answer is "no top card" or a guess)."""
    ok = ok_readable = readable = 0
    conf = collections.Counter()
    unreadable = collections.Counter()
    for i in range(n):
        sc = make_scene(SEEDS["bench"] + i, size=(640, 480), kind=("pile", "single")[i % 4 == 3], deck_name=deck_name)
        if sc.top is None:
            continue
        shows = any(lab.card is sc.top and lab.cls in ("index", "centre") for lab in sc.labels)
        got = det_key(rec.recognize(sc.image).top)
        right = got == key(sc.top)
        ok += right
        readable += shows
        ok_readable += right and shows
        if not right and shows:
            conf[(str(sc.top), str(got))] += 1
        if not shows:
            unreadable["right" if right else "none" if got is None else "wrong"] += 1
    total = readable + sum(unreadable.values())
    return {"top_card_accuracy_readable": round(ok_readable / max(readable, 1), 4), "readable": readable,
            "top_card_accuracy_all": round(ok / max(total, 1), 4), "n": total,
            "unreadable_top": dict(unreadable),
            "worst_readable": [f"{t} -> {g}: {c}" for (t, g), c in conf.most_common(10)]}


def negatives(rec: Recognizer, n: int) -> dict:
    clean = 0
    for i in range(n):
        sc = make_scene(SEEDS["bench"] + 500_000 + i, size=(640, 480), kind="negative")
        r = rec.recognize(sc.image)
        clean += (not r.cards and r.top is None)
    return {"background_clean": round(clean / max(n, 1), 4), "n": n}


def latency(fn, images) -> float:
    fn(images[0])
    times = []
    for im in images:
        t0 = time.perf_counter()
        fn(im)
        times.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(times), 2)


def stock_yolo_latency(images, imgsz=640) -> float:
    import onnxruntime as ort
    from train_detector import offline_ultralytics
    YOLO = offline_ultralytics()
    with tempfile.TemporaryDirectory() as d:
        m = YOLO("yolo11n.yaml")
        pt = Path(d) / "stock.pt"
        m.save(str(pt))
        onnx = YOLO(str(pt)).export(format="onnx", imgsz=imgsz, opset=17, simplify=True)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        sess = ort.InferenceSession(onnx, opts, providers=["CPUExecutionProvider"])
        name = sess.get_inputs()[0].name
        import cv2

        def run(im):
            x = cv2.resize(im, (imgsz, imgsz))[..., ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255
            sess.run(None, {name: x})
        return latency(run, images)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--piles", type=int, default=500)
    ap.add_argument("--negatives", type=int, default=300)
    ap.add_argument("--latency", type=int, default=100)
    ap.add_argument("--deck", default="auto")
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--stock", action="store_true", help="also time a stock YOLO11n at 640 (needs ultralytics)")
    a = ap.parse_args(argv)
    rec = Recognizer(a.deck, model_dir=a.model_dir, threads=1)
    res = {"deck": a.deck}
    if a.piles:
        res["piles"] = piles(rec, a.piles, None if a.deck == "auto" else a.deck)
    if a.negatives:
        res["negatives"] = negatives(rec, a.negatives)
    if a.latency:
        imgs = [make_scene(SEEDS["bench"] + 800_000 + i, size=(640, 480)).image for i in range(a.latency)]
        res["latency_ms_median"] = {"recognizer_full_pipeline": latency(rec.recognize, imgs),
                                    "detector_only": latency(rec.detect, imgs), "imgsz": rec.imgsz}
        if a.stock:
            res["latency_ms_median"]["stock_yolo11n_640"] = stock_yolo_latency(imgs)
    print(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
