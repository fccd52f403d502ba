"""The recogniser's networks in 8-bit integers: the files it runs, made from the float exports.

    python models/recipe quantize --roboflow ../shared/datasets/roboflow-uno
    python models/recipe quantize --out /work/md/q8 --roboflow ...     # a model folder to measure first

The finder's convolutions and the classifier's are most of the recogniser's time (models/ablation.md).
ONNX Runtime's static quantizer rewrites each network named in `NETWORKS` (QDQ: weights int8 per
output channel, activations uint8), its ranges calibrated (MinMax) on what that network is given
while the recogniser, with the float networks, reads calibration frames: synthetic 640x480 scenes
(piles, lone cards, fans; then piles and lone cards of small cards, whose faint scores the ranges
must keep) and, with `--roboflow`, its training photos drawn to 640x480.

- The finder: its convolutions, but the head's last (no activation after them: box bins, scores,
  angles; the DFL), which stay float, as do the other nodes between convolutions (measured: 8-bit
  activations and sums as well cost a few cards for 0.6 ms). The head's output holds box sizes in
  pixels beside scores under 1 in one tensor: quantized as one, every score reads 0.
- The classifier and the face reader: their convolutions and dense layers.

The float networks are the files models/recognizer.json names with `-int8` taken out (what the
export and training steps write: finder.onnx, classifier.onnx, facereader.onnx). Writes
OUT/NAME-int8.onnx for each (its metadata `quantized_from`: the float file's name and SHA-256, so
that a float network trained again and not quantized again shows: tests/test_quantize.py) and names
them in OUT/recognizer.json; where OUT is another folder, the other networks are copied there too,
so that every bench measures it with `--model-dir OUT`. Run it again after any of the three is
trained or exported again.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from companion.vision.synth import make_scene  # noqa: E402

NETWORKS = ("finder", "classifier", "face_reader")      # recognizer.json's keys of the networks quantized
SUFFIX = "-int8"
SOURCE_KEY = "quantized_from"      # the 8-bit file's metadata: its float file's name and SHA-256


def source_of(name: str, data: bytes) -> str:
    return f"{name} sha256:{hashlib.sha256(data).hexdigest()}"


def float_name(name: str) -> str:
    """The float network's file for `name` (a file recognizer.json names)."""
    return name.replace(SUFFIX + ".onnx", ".onnx")


def quantized_name(name: str) -> str:
    return float_name(name)[:-len(".onnx")] + SUFFIX + ".onnx"


def calibration_images(scenes: int, small: int, first_seed: int, photos: list[Path]) -> list[np.ndarray]:
    """`scenes` synthetic 640x480 frames, `small` more of cards 7-18% of the frame's height (seeds
    after them), and `photos` drawn to 640x480."""
    images = [make_scene(first_seed + i, size=(640, 480), kind=("pile", "single", "fan")[i % 3]).image
              for i in range(scenes)]
    images += [make_scene(first_seed + scenes + 10 + i, size=(640, 480), kind=("pile", "single")[i % 2],
                          heights=(0.07, 0.18)).image for i in range(small)]
    images += [cv2.resize(img, (640, 480)) for img in (cv2.imread(str(p)) for p in photos) if img is not None]
    return images


def float_folder(folder: Path, meta: dict, tmp: Path) -> Path:
    """`tmp` made a model folder naming `folder`'s float networks (links to them), as `meta` but
    for `NETWORKS`' files."""
    floats = dict(meta, **{k: float_name(meta[k]) for k in NETWORKS})
    for name in {v for v in floats.values() if isinstance(v, str) and v.endswith(".onnx")}:
        (tmp / name).symlink_to((folder / name).resolve())
    (tmp / "recognizer.json").write_text(json.dumps(floats))
    return tmp


def seen_inputs(folder: Path, meta: dict, images: list[np.ndarray]) -> dict[str, list[np.ndarray]]:
    """What each network of `NETWORKS` is given, one input of a batch at a time, while a recogniser
    with the float networks of `folder` reads `images`."""
    from companion.vision.recognizer import Recognizer

    with tempfile.TemporaryDirectory() as tmp:         # the sessions hold the networks: the folder may go
        rec = Recognizer("any", model_dir=float_folder(folder, meta, Path(tmp)))
    seen = {k: [] for k in NETWORKS}
    nets = {"finder": rec.find.net.net, "classifier": rec.read.index_net, "face_reader": rec.read.face_net}

    def recording(key, run):
        def run_and_keep(outputs, feed):
            seen[key] += list(next(iter(feed.values()))[:, None])
            return run(outputs, feed)
        return run_and_keep
    for key, net in nets.items():
        net.run = recording(key, net.run)
    for image in images:
        rec.recognize(image)
    return seen


def head_outputs(model) -> list[str]:
    """The names of the head's last convolutions in an exported YOLO finder (an ONNX graph): the
    last module's `Conv` nodes with no activation (SiLU: a Sigmoid) after them."""
    module = lambda name: int(name.split("/")[1].split(".")[1]) if name.startswith("/model.") else -1
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    head = max(module(n.name) for n in convs)
    activated = {i for n in model.graph.node if n.op_type == "Sigmoid" for i in n.input}
    return [n.name for n in convs if module(n.name) == head and n.output[0] not in activated]


def quantize(src: Path, dst: Path, inputs: list[np.ndarray], finder: bool) -> None:
    """`src` (an ONNX network) in 8 bits, calibrated on `inputs`, as `dst`: a finder's convolutions
    but its head's last, another network's convolutions and dense layers."""
    import onnx
    from onnxruntime import InferenceSession
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    name = InferenceSession(str(src), providers=["CPUExecutionProvider"]).get_inputs()[0].name

    class Inputs(CalibrationDataReader):
        def __init__(self):
            self.left = iter(inputs)

        def get_next(self):
            x = next(self.left, None)
            return None if x is None else {name: x}

    kept = head_outputs(onnx.load(str(src))) if finder else []
    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(ready), skip_symbolic_shape=True)
        quantize_static(str(ready), str(dst), Inputs(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax,
                        op_types_to_quantize=["Conv"] if finder else ["Conv", "Gemm", "MatMul"], nodes_to_exclude=kept)
    model = onnx.load(str(dst))          # which float file it was made from: a stale 8-bit file shows
    onnx.helper.set_model_props(model, {**{p.key: p.value for p in model.metadata_props},
                                        SOURCE_KEY: source_of(src.name, src.read_bytes())})
    onnx.save(model, str(dst))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=str(ROOT / "models"), help="the folder of the float networks and recognizer.json")
    ap.add_argument("--out", default=None, help="the model folder that gets the 8-bit networks (default: --models)")
    ap.add_argument("--scenes", type=int, default=90, help="synthetic calibration frames")
    ap.add_argument("--small", type=int, default=40, help="synthetic calibration frames of small cards")
    ap.add_argument("--first-seed", type=int, default=7_430_000)
    ap.add_argument("--roboflow", default=None, help="../shared/datasets/roboflow-uno: its training photos calibrate too")
    ap.add_argument("--photos", type=int, default=60)
    a = ap.parse_args(argv)
    models = Path(a.models)
    out = Path(a.out) if a.out else models
    if not (models / "recognizer.json").is_file():
        ap.error(f"no {models / 'recognizer.json'}: --models is a model folder")
    meta = json.loads((models / "recognizer.json").read_text())
    missing = [f"{k}: {float_name(meta[k])}" if k in meta else k for k in NETWORKS
               if k not in meta or not (models / float_name(meta[k])).is_file()]
    if missing:
        ap.error(f"{models / 'recognizer.json'} names no float network for {', '.join(missing)}")
    photos = sorted((Path(a.roboflow) / "train" / "images").glob("*"))[:a.photos] if a.roboflow else []
    images = calibration_images(a.scenes, a.small, a.first_seed, photos)
    if not images:
        ap.error("no calibration frames: ask for --scenes, --small or --roboflow photos")
    seen = seen_inputs(models, meta, images)
    out.mkdir(parents=True, exist_ok=True)
    if out.resolve() != models.resolve():
        for v in meta.values():
            if isinstance(v, str) and v.endswith(".onnx") and (models / v).is_file():
                shutil.copy(models / v, out / v)
    for key in NETWORKS:
        name = quantized_name(meta[key])
        quantize(models / float_name(meta[key]), out / name, seen[key], finder=key == "finder")
        meta[key] = name
        print(f"{key}: {len(seen[key])} calibration inputs; wrote {out / name} "
              f"({(out / name).stat().st_size / 1e6:.1f} MB)")
    (out / "recognizer.json").write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
