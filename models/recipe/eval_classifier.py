"""Accuracy of a symbol classifier (ONNX) on crops it never saw in training.

    python models/recipe bench-classifier models/classifier.onnx --roboflow ../shared/datasets/roboflow-uno --scenes 300

- real: the corner-index boxes of the Roboflow *validation* split (training used only its train split);
- synthetic: index and centre crops of held-out benchmark scenes (seeds of SEEDS["bench"]);
- synthetic cut: those scenes' wholly seen centre symbols as the frame's edge would cut them
  (`dataset.frame_cut`: 45-75% of each in view), as a person reads half a big 7;
- with ``--partial N``: the corner indices of N held-out piles with hands over them (seeds
  PARTIAL_SEED..), in bands of the share of each index in view, read as the recogniser reads a
  crop (four quarter turns, logits averaged): right, right at 0.9 or more, wrong at 0.6 or more.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.vision.classes import SYMBOLS  # noqa: E402
from companion.vision.dataset import SEEDS, crop_square, frame_cut  # noqa: E402
from companion.vision.runtime import turned_logits  # noqa: E402
from companion.vision.synth import MIN_INDEX, make_scene  # noqa: E402


def classify(sess, crops):
    x = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) / 255
    out = []
    for i in range(0, len(x), 256):
        out.append(sess.run(None, {"crops": x[i: i + 256]})[0][:, :len(SYMBOLS)].argmax(1))     # (a colour head follows)
    return np.concatenate(out)


# held out: no accuracy benchmark reads these (the latency benchmark draws its frames from them)
PARTIAL_SEED = SEEDS["bench"] + 800_000
BANDS = ((0.45, 0.6), (0.6, MIN_INDEX), (MIN_INDEX, 1.01))    # 1.01: a corner wholly in view


def read_turned(sess, crops):
    """(symbol index, probability) per crop, read as the recogniser reads it (`turned_logits`)."""
    x = np.stack(crops)
    logits = np.concatenate([turned_logits(sess, x[i: i + 64], 4) for i in range(0, len(x), 64)])[:, :len(SYMBOLS)]
    e = np.exp(logits - logits.max(1, keepdims=True))
    prob = e / e.sum(1, keepdims=True)
    return prob.argmax(1), prob.max(1)


def partial(sess, scenes: int) -> dict:
    """Corner indices of piles with hands over them, by the share of each in view."""
    crops, truth, seen = [], [], []
    for i in range(scenes):
        sc = make_scene(PARTIAL_SEED + i, size=(640, 480), kind="pile", hands=1.0, min_index=BANDS[0][0])
        for l in sc.labels:
            if l.cls == "index":
                crops.append(crop_square(sc.image, l.box, 48))
                truth.append(l.card.symbol)
                seen.append(l.visible)
    k, p = read_turned(sess, crops)
    right = np.array([SYMBOLS[j] == t for j, t in zip(k, truth)])
    seen = np.array(seen)
    out = {}
    for lo, hi in BANDS:
        m = (seen >= lo) & (seen < hi)
        n = int(m.sum())
        out[f"seen {lo:.2f}-{min(hi, 1):.2f}"] = {
            "n": n, "right": round(float(right[m].mean()), 4) if n else None,
            "right_sure_0.9": round(float((right & (p >= 0.9))[m].mean()), 4) if n else None,
            "wrong_sure_0.6": round(float((~right & (p >= 0.6))[m].mean()), 4) if n else None}
    return out


def score(pred, truth):
    conf = collections.Counter((t, SYMBOLS[p]) for p, t in zip(pred, truth) if SYMBOLS[p] != t)
    return {"accuracy": round(float(np.mean([SYMBOLS[p] == t for p, t in zip(pred, truth)])), 4), "n": len(truth),
            "worst": [f"{t} -> {g}: {n}" for (t, g), n in conf.most_common(6)]}


def main(argv=None):
    import onnxruntime as ort
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("--roboflow", default=None)
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--partial", type=int, default=0, metavar="N",
                    help="also read the corner indices of N piles with hands over them, by share in view")
    a = ap.parse_args(argv)
    sess = ort.InferenceSession(a.model, providers=["CPUExecutionProvider"])
    res = {}
    if a.roboflow:
        import yaml
        root = Path(a.roboflow)
        names = yaml.safe_load((root / "data.yaml").read_text())["names"]
        crops, truth = [], []
        for lab in sorted((root / "valid" / "labels").glob("*.txt")):
            img = cv2.imread(str(root / "valid" / "images" / (lab.stem + ".jpg")))
            h, w = img.shape[:2]
            for line in lab.read_text().split("\n"):
                if line.strip():
                    c, cx, cy, bw, bh = (float(v) for v in line.split())
                    crops.append(crop_square(img, ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h), 48))
                    truth.append(str(names[int(c)]))
        res["roboflow_valid_index_crops"] = score(classify(sess, crops), truth)
    crops, truth, cut, cut_truth = [], [], [], []
    for i in range(a.scenes):
        sc = make_scene(SEEDS["bench"] + i, size=(640, 480))
        rng = np.random.default_rng(SEEDS["bench"] + i)
        for l in sc.labels:
            if l.cls != "card":
                crops.append(crop_square(sc.image, l.box, 48))
                truth.append(l.card.symbol)
            if l.cls == "centre" and l.visible >= 0.9:
                cut.append(crop_square(*frame_cut(sc.image, l.box, rng), 48))
                cut_truth.append(l.card.symbol)
    if a.scenes:
        res["synthetic_heldout_crops"] = score(classify(sess, crops), truth)
        res["synthetic_heldout_cut_centres"] = score(classify(sess, cut), cut_truth)
    if a.partial:
        res["partial_corners"] = partial(sess, a.partial)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
