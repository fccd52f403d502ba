"""A detector's weights taught more classes: its classes' rows of the head kept, the new ones' fresh.

    python models/recipe grow-classes models/finder.pt --names card index hand --out /work/runs/finder3.pt

The finder learnt `card` and `index` over many rounds; a class added later (`hand`) should not
cost it them. Ultralytics, asked to train a model on data of more classes, builds the head again
and drops every class's last layer; this step keeps the old classes' rows of those layers (their
weights and biases) and leaves only the new class's rows as a fresh model draws them. Train the
result with `train-detector --model OUT` on data naming the classes in the same order.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_detector import offline_ultralytics  # noqa: E402


def grow(model, names: list[str]):
    """A copy of the Ultralytics network `model` with the classes `names` (its own first, in order):
    every weight of the same shape copied, the class rows of the head's last layers too.
    Returns (the network, how many tensors' rows were carried over)."""
    old_names = list(model.names.values())
    if names[:len(old_names)] != old_names or len(names) <= len(old_names):
        raise ValueError(f"the model's classes are {old_names}: name them first, then at least one more")
    cfg = {**model.yaml, "nc": len(names)}
    new = type(model)(cfg, nc=len(names), verbose=False)
    old_sd, new_sd = model.state_dict(), new.state_dict()
    grown = 0
    for key, value in new_sd.items():
        old = old_sd.get(key)
        if old is None:
            continue
        if old.shape == value.shape:
            new_sd[key] = old.clone()
        elif old.shape[0] == len(old_names) and value.shape[0] == len(names) and old.shape[1:] == value.shape[1:]:
            value[:len(old_names)] = old
            grown += 1
    new.load_state_dict(new_sd)
    new.names = dict(enumerate(names))
    new.args = getattr(model, "args", {})
    return new, grown


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="this project's Ultralytics weights (.pt)")
    ap.add_argument("--names", nargs="+", required=True, help="every class, the model's own first")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    import torch
    YOLO = offline_ultralytics()
    model = YOLO(a.model).model
    try:
        new, grown = grow(model.float(), a.names)
    except ValueError as exc:
        sys.exit(f"{a.model}: {exc}")
    ckpt = torch.load(a.model, map_location="cpu", weights_only=False)
    ckpt.update(model=new, ema=None, optimizer=None, updates=None, epoch=-1, best_fitness=None)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    torch.save(ckpt, a.out)
    print(f"{a.out}: classes {a.names}, {grown} head layers grown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
