"""The recogniser's recipe as one command: make data, train, export, measure.

    python models/recipe                      # this list
    python models/recipe STEP --help          # one step's options
    python models/recipe STEP [OPTIONS]       # run it

Every step is a script in this folder (or the generator, `companion.vision.dataset`), run as
if called by itself: its options, its output and its exit status are its own. The order in
which the shipped models were made, with each step's time on a 2-core machine, is in the model
card (models/README.md, "Training procedure"). Training steps need the `train` extra
(`pip install -e '.[train]'`); nothing is downloaded (`YOLO_OFFLINE=1` is set for them).
"""
from __future__ import annotations

import importlib
import os
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent

# step: (script in this folder, or "module:function" of the package; what it does), in recipe order
STEPS = {
    "data": ("companion.vision.dataset:main", "draw synthetic training data: detector, outline, crop or card sets"),
    "finder-data": ("finder_data.py", "scenes and Roboflow photos for the one-network finder: uncovered faces and every corner index"),
    "grow-classes": ("grow_classes.py", "a detector's weights with more classes, its own classes' head rows kept"),
    "train-detector": ("train_detector.py", "train the corner-index detector or the outline finder (Ultralytics, offline)"),
    "train-classifier": ("train_classifier.py", "train the symbol classifier on 48x48 crops (plain torch)"),
    "fitter-data": ("fitter_data.py", "squares round card faces, each with its outline's corners, for the fitter"),
    "train-fitter": ("train_fitter.py", "train the fitter: a face's outline drawn again at the frame's resolution (plain torch)"),
    "quantize": ("quantize.py", "the finder, classifier and face reader in 8 bits, as they ship (ONNX Runtime's static quantizer)"),
    "real-faces": ("roboflow_faces.py", "cut the Roboflow training photos' cards out upright, named by their index"),
    "train-reader": ("train_cardreader.py", "train the card reader on upright whole-card crops (plain torch)"),
    "export": ("export.py", "export detector / outline finder weights to ONNX and write recognizer.json"),
    "bench": ("bench_recognizer.py", "the recogniser's benchmarks: piles, negatives, look-alikes, singles, latency"),
    "bench-piles": ("bench_piles.py", "the held-out and tuning pile sets, miss by miss"),
    "bench-game": ("bench_game.py", "games replayed through the motion gate: each play seen, asked, wrong or lost"),
    "bench-stages": ("bench_stages.py", "the find and read stages alone on real photos: cards found, faces read"),
    "bench-outlines": ("bench_outlines.py", "the outline finder alone on the held-out piles"),
    "bench-classifier": ("eval_classifier.py", "the symbol classifier alone on real and synthetic crops"),
    "bench-conditions": ("bench_conditions.py", "the Roboflow photos under 16 cameras' conditions"),
    "bench-backgrounds": ("bench_backgrounds.py", "real photos of tables with no card (the Roboflow backgrounds)"),
    "hues": ("hue_survey.py", "which hues a camera sees on real cards (the evidence for the colour table)"),
}


def usage() -> str:
    width = max(map(len, STEPS))
    lines = [__doc__.strip(), "", "steps:"]
    lines += [f"  {name:<{width}}  {what}" for name, (_, what) in STEPS.items()]
    return "\n".join(lines)


def run_script(path: Path) -> None:
    """Runs the script at `path` as the program's __main__ (as runpy does, but keeping argv[0],
    so that its usage names the step; multiprocessing finds its functions in __main__)."""
    module = types.ModuleType("__main__")
    module.__file__ = str(path)
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = module
    sys.path.insert(0, str(path.parent))
    try:
        exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    finally:
        sys.modules["__main__"] = saved


def run(step: str, argv: list[str]) -> int:
    """Runs `step` with `argv` as its command line; returns its exit status."""
    target, _ = STEPS[step]
    os.environ.setdefault("YOLO_OFFLINE", "1")
    saved = sys.argv[:]
    sys.argv = [f"recipe {step}", *argv]
    try:
        if ":" in target:                                   # a function of the package
            module, function = target.split(":")
            return getattr(importlib.import_module(module), function)() or 0
        else:
            run_script(HERE / target)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    finally:
        sys.argv = saved
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    step, rest = argv[0], argv[1:]
    if step not in STEPS:
        print(f"recipe: unknown step {step!r}; the steps are: {', '.join(STEPS)}", file=sys.stderr)
        return 2
    return run(step, rest)


if __name__ == "__main__":
    sys.exit(main())
