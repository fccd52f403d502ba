"""Accuracy of a symbol classifier (ONNX) on crops it never saw in training.

    python models/eval_classifier.py models/classifier.onnx --roboflow ../shared/datasets/roboflow-uno --scenes 300

- real: the corner-index boxes of the Roboflow *validation* split (training used only its train split);
- synthetic: index and centre crops of held-out benchmark scenes (seeds of SEEDS["bench"]);
- synthetic cut: those scenes' wholly seen centre symbols as the frame's edge would cut them
  (`dataset.frame_cut`: 45-75% of each in view), as a person reads half a big 7.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from companion.vision.classes import SYMBOLS  # noqa: E402
from companion.vision.dataset import SEEDS, crop_square, frame_cut  # noqa: E402
from companion.vision.synth import make_scene  # noqa: E402


def classify(sess, crops):
    x = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) / 255
    out = []
    for i in range(0, len(x), 256):
        out.append(sess.run(None, {"crops": x[i: i + 256]})[0].argmax(1))
    return np.concatenate(out)


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
    res["synthetic_heldout_crops"] = score(classify(sess, crops), truth)
    res["synthetic_heldout_cut_centres"] = score(classify(sess, cut), cut_truth)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
