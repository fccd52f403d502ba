"""Training recipe for the fitter (plain torch): a face's fitting square in, its card's four corners out.

    python models/recipe train-fitter --data /work/data/fit1 --epochs 30 --out models/fitter

`--data` folders are `fitter-data` sets (fit.npz each). A tenth of the scenes (by seed) are kept
for validation. Which corner comes first is not asked: the loss is the least over the outline's
eight orders (any corner first, either way round), so a square turned a quarter or mirrored
(augmentation: the outline's shape has no print to mirror) teaches the same. Colours, blur,
camera shake, hard shadows and noise are jittered as the readers' are. Writes OUT.pt (state dict)
and OUT.onnx (input "crops": N x 3 x S x S, BGR, 0..1; output "corners": N x 8, in the square's units);
where OUT's folder holds a recognizer.json (models/), it names the fitter from then on.
Validation prints how well the fitted outlines (turned boxes, as the fit stage makes them) and the
finder's own boxes overlap the true ones, over the squares the finder's boxes made.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.vision.outline import quad_iou  # noqa: E402
from companion.vision.stages.fit import FIT_MARGIN, turned_box  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_cardreader import width_of  # noqa: E402
from train_classifier import degrade, jitter_colours, shade, shake  # noqa: E402

# the first layer's channels of a fitter taught from scratch (16 underfitted: ablation.md)
WIDTH = 24

# every order of a quad's four corners: any first, either way round
ORDERS = [[(s + k) % 4 for k in range(4)] for s in range(4)] + [[(s - k) % 4 for k in range(4)] for s in range(4)]


class FitNet(nn.Module):
    """A small CNN: a fitting square (S x S, S a multiple of 16) -> 8 numbers, the corners.
    `width`: its first layer's channels (the others 2, 2, 4, 4 and 8 times as many)."""

    def __init__(self, side: int = 64, width: int = WIDTH):
        super().__init__()
        w = width

        def block(i, o, stride=1):
            return nn.Sequential(nn.Conv2d(i, o, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(o),
                                 nn.ReLU(inplace=True))

        self.features = nn.Sequential(block(3, w, 2), block(w, 2 * w, 2), block(2 * w, 2 * w), block(2 * w, 4 * w, 2),
                                      block(4 * w, 4 * w), block(4 * w, 8 * w, 2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(8 * w * (side // 16) ** 2, 128), nn.ReLU(inplace=True),
                                  nn.Linear(128, 8))

    def forward(self, x):
        return self.head(self.features(x)) + 0.5


def corner_loss(pred: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Smooth L1 between the predicted corners and the outline's, in its order nearest them."""
    p = pred.view(-1, 4, 2)
    t = y.view(-1, 4, 2)
    per = torch.stack([nn.functional.smooth_l1_loss(p, t[:, o], beta=0.02, reduction="none").sum((1, 2))
                       for o in ORDERS], 1)
    return per.min(1).values.mean()


def dihedral(x: torch.Tensor, y: torch.Tensor, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Each square turned a random number of quarter turns and mirrored half the time, its corners with it."""
    y = y.view(-1, 4, 2).clone()
    turns = torch.randint(0, 4, (x.shape[0],), generator=gen)
    mirror = torch.rand(x.shape[0], generator=gen) < 0.5
    out = x.clone()
    for k in range(4):
        pick = turns == k
        if k and pick.any():
            out[pick] = torch.rot90(x[pick], k, dims=(2, 3))
            for _ in range(k):       # (u, v) -> (v, 1 - u): a quarter turn as torch.rot90 makes it
                y[pick] = torch.stack([y[pick][..., 1], 1 - y[pick][..., 0]], -1)
    out[mirror] = torch.flip(out[mirror], dims=(3,))
    y[mirror, :, 0] = 1 - y[mirror, :, 0]
    return out, y.view(-1, 8)


def augment(x: torch.Tensor, y: torch.Tensor, gen: torch.Generator, degrade_share: float = 0.15,
            shake_share: float = 0.1) -> tuple[torch.Tensor, torch.Tensor]:
    x, y = dihedral(x, y, gen)
    x = jitter_colours(x, gen, 0.1, 0.2)
    x = shade(x, gen, 0.2)
    x = degrade(x, gen, degrade_share)
    x = shake(x, gen, shake_share)
    x = x + torch.randn(x.shape, generator=gen) * torch.rand(x.shape[0], 1, 1, 1, generator=gen) * 0.04
    return x.clamp(0, 1), y


def load(folders: list[str]):
    sets = [np.load(Path(f) / "fit.npz") for f in folders]
    return [np.concatenate([d[k] for d in sets]) for k in ("x", "y", "seed", "finder", "box")]


def to_tensor(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2))).float() / 255


def validate(model: nn.Module, x: np.ndarray, y: np.ndarray) -> float:
    """The fitted outlines' (turned boxes') mean overlap with the true ones (in the square's pixels:
    OpenCV's turned boxes are not precise at a unit's scale)."""
    model.eval()
    side = x.shape[1]
    with torch.no_grad():
        pred = torch.cat([model(to_tensor(x[i:i + 512])) for i in range(0, len(x), 512)]).numpy() * side
    return float(np.mean([quad_iou(turned_box(p.reshape(4, 2)), t.reshape(4, 2) * side) for p, t in zip(pred, y)]))


def export(model: nn.Module, path: str, side: int):
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, side, side), path, input_names=["crops"], output_names=["corners"],
                      dynamic_axes={"crops": {0: "n"}, "corners": {0: "n"}}, opset_version=17, dynamo=False)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True, help="a fitter-data folder (repeat for more)")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--degrade", type=float, default=0.15, help="the share of squares blurred or coarsened")
    ap.add_argument("--shake", type=float, default=0.1, help="the share of squares smeared by camera shake")
    ap.add_argument("--width", type=int, default=None,
                    help=f"the first layer's channels (default: the --init weights' own, else {WIDTH})")
    ap.add_argument("--init", default=None, help="start from these weights (.pt)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True, help="OUT.pt and OUT.onnx")
    a = ap.parse_args(argv)
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    x, y, seeds, own, boxes = load(a.data)
    side = x.shape[1]
    val = seeds % 10 == 0
    vx, vy, vown = x[val], y[val], own[val].astype(bool)
    tx, ty = torch.from_numpy(x[~val]), torch.from_numpy(y[~val])
    found = np.mean([quad_iou(b.reshape(4, 2) * side, t.reshape(4, 2) * side) for b, t in zip(boxes[val][vown], vy[vown])])
    print(f"{len(tx)} training squares, {len(vx)} validation ({int(vown.sum())} round the finder's boxes, "
          f"which overlap the true outlines {found:.3f}), side {side}, margin {FIT_MARGIN}", flush=True)
    init = torch.load(a.init, map_location="cpu") if a.init else None
    model = FitNet(side, a.width or (width_of(init) if init else WIDTH))
    if init:
        model.load_state_dict(init)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    steps = a.epochs * (len(tx) // a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=max(steps, 1), pct_start=0.1)
    gen = torch.Generator().manual_seed(a.seed)
    best = -1.0
    for epoch in range(a.epochs):
        model.train()
        t0, total = time.time(), 0.0
        order = torch.randperm(len(tx), generator=gen)
        for k in range(len(tx) // a.batch):
            idx = order[k * a.batch:(k + 1) * a.batch]
            xb, yb = augment(to_tensor(tx[idx].numpy()), ty[idx], gen, a.degrade, a.shake)
            loss = corner_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        fit = validate(model, vx[vown], vy[vown])
        every = validate(model, vx, vy)
        print(f"epoch {epoch + 1}: loss {total / max(1, len(tx) // a.batch):.4f}, fitted outlines overlap the true "
              f"ones {fit:.3f} round the finder's boxes, {every:.3f} round all ({time.time() - t0:.0f} s)", flush=True)
        if fit > best:
            best = fit
            torch.save(model.state_dict(), a.out + ".pt")
    model.load_state_dict(torch.load(a.out + ".pt", map_location="cpu"))
    export(model, a.out + ".onnx", side)
    print(f"best overlap {best:.3f}; wrote {a.out}.pt and {a.out}.onnx")
    meta_path = Path(a.out).parent / "recognizer.json"
    if meta_path.is_file():              # a model folder: its recogniser fits with this one from now on
        meta = json.loads(meta_path.read_text())
        meta["fitter"] = Path(a.out).name + ".onnx"
        meta_path.write_text(json.dumps(meta, indent=1) + "\n")
        print(f"{meta_path} names it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
