"""Export trained weights to the shipped files in models/.

    python models/recipe export --detector runs/det320/weights/best.pt --imgsz 320
    python models/recipe export --outlines runs/ol1/weights/last.pt --imgsz 320
    python models/recipe export --finder runs/fd1/weights/last.pt --imgsz 320

Copies the PyTorch weights to models/detector.pt (the outline finder's to models/outlines.pt, the
face pipeline's finder's to models/finder.pt), exports ONNX at the deployed input size to
models/detector.onnx (models/outlines.onnx, models/finder.onnx), and
writes models/recognizer.json (what the run-time Recognizer reads). The classifier is exported by
train_classifier.py itself. The finder ships in 8 bits: after `--finder`, run `quantize`
(models/recognizer.json names the float finder.onnx until then).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from train_detector import offline_ultralytics  # noqa: E402

sys.path.insert(0, str(HERE.parents[1]))
from companion.vision.classes import FINDER_CLASSES, FINDER_NAMINGS, HAND  # noqa: E402


TASKS = {"detect": "a detector", "obb": "an oriented-box model (the outline finder or the finder)"}


def export_onnx(YOLO, weights: str, imgsz: int, out: Path, name: str, task: str, dynamic: bool = False):
    """`weights` (a model for Ultralytics' `task`) as `out`/`name`.onnx at `imgsz` (and copied to
    `out`/`name`.pt); returns the model. `dynamic`: no fixed input size (the run time then reads
    a 4:3 frame at `imgsz` x three quarters of it, not at a square)."""
    with tempfile.TemporaryDirectory() as tmp:
        # Ultralytics writes the .onnx beside the weights: export a copy, so that exporting the
        # shipped models/detector.pt elsewhere leaves models/detector.onnx as it was
        copy = Path(tmp) / f"{name}.pt"
        shutil.copy(weights, copy)
        model = YOLO(str(copy))
        if model.task != task:
            sys.exit(f"{weights} is not {TASKS[task]}: Ultralytics calls it a {model.task!r} model")
        onnx = Path(model.export(format="onnx", imgsz=imgsz, opset=17, simplify=False, dynamic=dynamic, half=False))
        if Path(weights).resolve() != (out / f"{name}.pt").resolve():
            shutil.copy(weights, out / f"{name}.pt")
        shutil.move(str(onnx), out / f"{name}.onnx")
    return model


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--detector", help="trained Ultralytics .pt")
    ap.add_argument("--outlines", help="trained Ultralytics oriented-box .pt: the outline finder")
    ap.add_argument("--finder", help="trained Ultralytics oriented-box .pt: the face pipeline's finder (faces and indices)")
    ap.add_argument("--imgsz", type=int, default=320)
    ap.add_argument("--out", default=str(HERE.parent), help="folder for the .pt, .onnx and recognizer.json (default: models/)")
    ap.add_argument("--conf", type=float, default=0.25)
    ap.add_argument("--card-conf", type=float, default=0.4)
    ap.add_argument("--symbol-conf", type=float, default=0.7)
    a = ap.parse_args(argv)
    if not (a.detector or a.outlines or a.finder):
        ap.error("give --detector, --outlines, --finder or several")
    out = Path(a.out)
    # settings the export does not set (classifier_turns, ...) are kept from the folder's file
    meta_path = out / "recognizer.json"
    try:
        kept = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    except ValueError as exc:
        sys.exit(f"{meta_path} is not JSON ({exc}): mend or remove it, then export again")
    if not isinstance(kept, dict):
        sys.exit(f"{meta_path} is not a JSON object of settings: mend or remove it, then export again")
    YOLO = offline_ultralytics()
    meta = {"classifier": "classifier.onnx", **kept}
    if a.detector:
        model = export_onnx(YOLO, a.detector, a.imgsz, out, "detector", "detect")
        meta.update({"detector": "detector.onnx", "imgsz": a.imgsz, "conf": a.conf, "card_conf": a.card_conf,
                     "symbol_conf": a.symbol_conf, "detector_classes": list(model.names.values())})
    if a.outlines:
        export_onnx(YOLO, a.outlines, a.imgsz, out, "outlines", "obb")
        meta.update({"outlines": "outlines.onnx", "outlines_imgsz": a.imgsz})
    if a.finder:
        model = export_onnx(YOLO, a.finder, a.imgsz, out, "finder", "obb", dynamic=True)
        names = tuple(model.names.values())
        if names not in FINDER_NAMINGS:
            sys.exit(f"{a.finder} finds {list(names)}, not the finder's {list(FINDER_CLASSES)} (and {HAND!r})")
        meta.update({"finder": "finder.onnx", "finder_imgsz": a.imgsz})
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    made = (("detector", a.detector), ("outlines", a.outlines), ("finder", a.finder))
    print(f"wrote {', '.join(f'{out / n}.onnx' for n, w in made if w)}"
          f" and {meta_path}")
    if a.finder:
        print("the finder ships in 8 bits: python models/recipe quantize --roboflow ../shared/datasets/roboflow-uno")
    return 0


if __name__ == "__main__":
    sys.exit(main())
