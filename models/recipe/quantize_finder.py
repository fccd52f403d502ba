"""The finder in 8-bit integers: its convolutions quantized (a candidate to measure; not shipped).

    python models/recipe quantize-finder --out /work/md/q8 --roboflow ../shared/datasets/roboflow-uno

The finder is most of the recogniser's time (models/ablation.md). ONNX Runtime's static quantizer
rewrites its convolutions to 8 bits (QDQ: weights int8 per output channel, activations uint8),
their ranges calibrated (MinMax) on frames drawn as the find stage draws them (`runtime.fitted`,
288 px on the long side): synthetic scenes (piles, lone cards, fans) and, with `--roboflow`, its
training photos. Only `Conv` nodes: the head's output holds box sizes in pixels beside scores under
1 in one tensor, and quantized as one it reads every score as 0. Writes OUT/ as a model folder:
the source folder's recognizer.json and the networks it names, the finder quantized, so that every bench
measures it with `--model-dir OUT`.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from companion.vision.runtime import fitted  # noqa: E402
from companion.vision.synth import make_scene  # noqa: E402


def calibration_frames(scenes: int, first_seed: int, photos: list[Path], imgsz: int) -> list:
    """The finder's inputs for `scenes` synthetic 640x480 frames and for `photos` (drawn to 640x480)."""
    images = [make_scene(first_seed + i, size=(640, 480), kind=("pile", "single", "fan")[i % 3]).image
              for i in range(scenes)]
    images += [cv2.resize(img, (640, 480)) for img in (cv2.imread(str(p)) for p in photos) if img is not None]
    return [fitted(img, imgsz, 32)[0] for img in images]


def quantize(src: Path, dst: Path, frames: list) -> None:
    """`src` (an ONNX finder) with its convolutions in 8 bits, calibrated on `frames`, as `dst`."""
    from onnxruntime import InferenceSession
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    name = InferenceSession(str(src), providers=["CPUExecutionProvider"]).get_inputs()[0].name

    class Frames(CalibrationDataReader):
        def __init__(self):
            self.left = iter(frames)

        def get_next(self):
            x = next(self.left, None)
            return None if x is None else {name: x}

    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(ready), skip_symbolic_shape=True)
        quantize_static(str(ready), str(dst), Frames(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax, op_types_to_quantize=["Conv"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=str(ROOT / "models"), help="the model folder whose finder is quantized")
    ap.add_argument("--out", required=True, help="the new model folder")
    ap.add_argument("--scenes", type=int, default=90, help="synthetic calibration frames")
    ap.add_argument("--first-seed", type=int, default=7_430_000)
    ap.add_argument("--roboflow", default=None, help="../shared/datasets/roboflow-uno: its training photos calibrate too")
    ap.add_argument("--photos", type=int, default=60)
    a = ap.parse_args(argv)
    src, out = Path(a.models), Path(a.out)
    meta = json.loads((src / "recognizer.json").read_text())
    photos = sorted((Path(a.roboflow) / "train" / "images").glob("*"))[:a.photos] if a.roboflow else []
    frames = calibration_frames(a.scenes, a.first_seed, photos, int(meta.get("finder_imgsz", 320)))
    if not frames:
        ap.error("no calibration frames: ask for --scenes or --roboflow photos")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(src / "recognizer.json", out / "recognizer.json")
    for key in ("face_reader", "classifier", "fitter"):      # the other networks it names, as they are
        if meta.get(key):
            shutil.copy(src / meta[key], out / meta[key])
    quantize(src / meta["finder"], out / meta["finder"], frames)
    print(f"{len(frames)} calibration frames; wrote {out / meta['finder']} ({(out / meta['finder']).stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
