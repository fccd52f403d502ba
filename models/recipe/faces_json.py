"""The four-stage FacePipeline as a recogniser command of the shared scorer's contract.

    python ../shared/eval/score_recognizer.py --data ../shared/datasets/roboflow-uno/valid -- python models/recipe faces

One JSON line per photo (`{"image", "cards", "top"}`), as `companion recognize --json` prints,
read by `companion.vision.stages.FacePipeline` (any deck's symbols in the classic four colours).
`--reader` reads with another card reader (an ONNX file), to measure it before it ships.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.vision.stages import FacePipeline  # noqa: E402
from companion.vision.stages.pipeline import parse_settings  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("images", nargs="*")
    ap.add_argument("--reader", default=None, help="a card reader's ONNX file (default: the shipped one)")
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="read with one of the pipeline's Settings changed (repeatable)")
    a = ap.parse_args(argv)
    try:
        settings = parse_settings(a.set)
    except ValueError as exc:
        ap.error(f"--set {exc}")
    pipe = FacePipeline("any", model_dir=a.model_dir, reader=a.reader, settings=settings)
    for path in a.images:
        image = cv2.imread(path)
        if image is None:
            print(json.dumps({"image": path, "cards": [], "top": None, "error": "not an image"}), flush=True)
            continue
        print(json.dumps(pipe.recognize(image).to_json(path)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
