"""Training recipe for the card detector (Ultralytics YOLO, offline, CPU-friendly).

    python models/recipe train-detector --data /work/data/det1/data.yaml --epochs 30 --imgsz 320 \
        --model yolo11n.yaml --name det320

Starts from a .yaml definition (never a hub download) or from this project's own weights
(``--model models/detector.pt``). No left-right or up-down flips (they mirror symbols);
full rotation. Writes runs/<name>/weights/{best,last}.pt; export with `python models/recipe export`.

The outline finder (oriented boxes of every face-up card, `dataset.py outlines`) is trained the
same way from the oriented-box definition, its backbone and neck taken from the detector::

    python models/recipe train-detector --data /work/data/ol1/data.yaml --epochs 12 --imgsz 320 \
        --model yolo11n-obb.yaml --transfer models/detector.pt --name outlines
"""
from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("YOLO_OFFLINE", "1")
# never pip-install at run time (Ultralytics fetches a package a step lacks: onnxslim for an
# export's simplify, say)
os.environ.setdefault("YOLO_AUTOINSTALL", "false")
os.environ.setdefault("YOLO_VERBOSE", "True")


def offline_ultralytics():
    """Import Ultralytics with every network feature switched off."""
    from ultralytics import settings

    settings.update({k: False for k in ("sync", "hub", "clearml", "comet", "dvc", "mlflow", "neptune",
                                        "raytune", "tensorboard", "wandb", "platform") if k in settings})
    from ultralytics import YOLO
    return YOLO


def use_threads(n: int) -> None:
    """Train on `n` CPU threads: Ultralytics sets torch's to one fewer than the machine's cores
    (one, on a 2-core machine) when it picks the CPU."""
    from ultralytics.utils import torch_utils
    torch_utils.NUM_THREADS = n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="dataset yaml (absolute paths)")
    ap.add_argument("--model", default="yolo11n.yaml", help="a .yaml definition or a local .pt")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--imgsz", type=int, default=320)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fraction", type=float, default=1.0)
    ap.add_argument("--project", default="runs")
    ap.add_argument("--name", default="detector")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--transfer", default=None, metavar="PT",
                    help="start a .yaml model from this local .pt's weights where their shapes match "
                         "(another task's model: the backbone and neck)")
    ap.add_argument("--lr0", type=float, default=None,
                    help="fine-tune with AdamW at this learning rate, no warm-up (default: Ultralytics' choice)")
    ap.add_argument("--close-mosaic", type=int, default=3, help="the last N epochs without mosaic")
    ap.add_argument("--freeze", type=int, default=0, metavar="N",
                    help="train only the layers from the Nth on (23: the oriented-box head alone; a class "
                         "added by grow-classes learnt on the features the others were found with)")
    ap.add_argument("--scale", type=float, default=0.5,
                    help="each training image scaled by a factor drawn from 1 - SCALE to 1 + SCALE (0.5: a small "
                         "card halved, too few pixels to find)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="CPU threads to train on (default: every core)")
    a = ap.parse_args(argv)
    if not (a.model.endswith(".yaml") or os.path.exists(a.model)):
        sys.exit(f"model {a.model!r}: give a .yaml definition or an existing local .pt (no downloads)")
    if a.transfer and not (a.model.endswith(".yaml") and os.path.exists(a.transfer)):
        sys.exit(f"--transfer {a.transfer!r}: give an existing local .pt, and a .yaml --model to start")
    YOLO = offline_ultralytics()
    use_threads(max(1, a.threads))
    model = YOLO(a.model if not a.resume else os.path.join(a.project, a.name, "weights", "last.pt"))
    if a.transfer and not a.resume:
        model.load(a.transfer)
    tune = {} if a.lr0 is None else dict(optimizer="AdamW", lr0=a.lr0, warmup_epochs=0.0)
    model.train(
        data=a.data, epochs=a.epochs, imgsz=a.imgsz, batch=a.batch, workers=a.workers, device="cpu",
        project=os.path.abspath(a.project), name=a.name, exist_ok=True, resume=a.resume,
        # from a .pt: start from its weights (pretrained=False would silently start from scratch)
        pretrained=a.model.endswith(".pt") or bool(a.transfer), amp=False, plots=False, fraction=a.fraction,
        fliplr=0.0, flipud=0.0, degrees=180.0, perspective=0.0005, scale=a.scale, translate=0.1,
        mosaic=1.0, close_mosaic=a.close_mosaic, hsv_h=0.02, hsv_s=0.5, hsv_v=0.4,
        save_period=1, patience=100, cos_lr=False, val=True, **{"warmup_epochs": 1.0, **tune},
        **({"freeze": a.freeze} if a.freeze else {}),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
