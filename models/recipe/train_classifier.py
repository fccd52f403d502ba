"""Training recipe for the symbol classifier that reads each detected corner index / centre symbol.

    python models/recipe train-classifier --crops /work/data/crops1 --roboflow ../shared/datasets/roboflow-uno \
        --epochs 10 --out models/classifier

Inputs are 48x48 BGR crops around a detection (``companion.vision.dataset.crop_square``); every
batch is turned by a random angle (a card lies any way round on the table), its colours are
jittered and its channels sometimes permuted (decks differ in colour; the colour is read from
the card's pixels, not by this network). Real photos: the corner-index boxes of the Roboflow
training split (never its validation split). Writes OUT.pt (state dict) and OUT.onnx.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.vision.classes import SYMBOLS  # noqa: E402
from companion.vision.dataset import crop_square  # noqa: E402

SIZE = 48


class SymbolNet(nn.Module):
    """A small CNN: 48x48 BGR crop -> symbol logits (last class: no symbol)."""

    def __init__(self, n_classes: int = len(SYMBOLS), width: int = 32):
        super().__init__()
        w = width

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

        self.features = nn.Sequential(block(3, w), nn.MaxPool2d(2),
                                      block(w, 2 * w), nn.MaxPool2d(2),
                                      block(2 * w, 4 * w), block(4 * w, 4 * w), nn.MaxPool2d(2),
                                      block(4 * w, 8 * w), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(8 * w, n_classes))

    def forward(self, x):
        return self.head(self.features(x))


def load_synthetic(folder: Path):
    rows = json.loads((folder / "crops.json").read_text())
    xs, ys = [], []
    for r in rows:
        img = cv2.imread(str(folder / r["file"]))
        if img is None or r["symbol"] not in SYMBOLS:
            continue
        xs.append(cv2.resize(img, (SIZE, SIZE)))
        ys.append(SYMBOLS.index(r["symbol"]))
    return xs, ys


def load_roboflow(root: Path, split: str, copies: int, seed: int = 0):
    """Crops of the labelled corner indices (with jitter) and of empty background."""
    import yaml  # ultralytics brings PyYAML
    names = yaml.safe_load((root / "data.yaml").read_text())["names"]
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for lab in sorted((root / split / "labels").glob("*.txt")):
        img = cv2.imread(str(root / split / "images" / (lab.stem + ".jpg")))
        if img is None:
            continue
        h, w = img.shape[:2]
        boxes = []
        for line in lab.read_text().split("\n"):
            if not line.strip():
                continue
            c, cx, cy, bw, bh = line.split()
            cx, cy, bw, bh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
            box = (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)
            boxes.append(box)
            for _ in range(copies):
                xs.append(crop_square(img, box, SIZE, jitter=rng))
                ys.append(SYMBOLS.index(str(names[int(c)])))
        # background far from every card
        for _ in range(1):
            s = rng.uniform(15, 40)
            x, y = rng.uniform(0, w - s), rng.uniform(0, h - s)
            if all(x > b[2] + 120 or x + s < b[0] - 120 or y > b[3] + 160 or y + s < b[1] - 160 for b in boxes):
                xs.append(crop_square(img, (x, y, x + s, y + s), SIZE, pad=0))
                ys.append(SYMBOLS.index("none"))
    return xs, ys


def degrade(x: torch.Tensor, gen: torch.Generator, share: float) -> torch.Tensor:
    """A camera out of focus or too far away: `share` of the crops get either a Gaussian blur
    (sigma 0.6-3 crop pixels) or are sampled down to 12-28 pixels and back up."""
    n, _, h, w = x.shape
    pick = torch.rand(n, generator=gen) < share
    sigma = 0.6 + torch.rand(n, generator=gen) * 2.4
    low = 12 + (torch.rand(n, generator=gen) * 16).long()
    how = torch.rand(n, generator=gen) < 0.5
    r = torch.arange(-7, 8, dtype=torch.float32)
    out = x.clone()
    for i in torch.nonzero(pick).flatten().tolist():
        if how[i]:
            k = torch.exp(-0.5 * (r / sigma[i]) ** 2)
            k = (k / k.sum()).expand(3, 1, 1, -1).contiguous()
            y = F.conv2d(F.pad(x[i:i + 1], (7, 7, 0, 0), mode="replicate"), k, groups=3)
            out[i] = F.conv2d(F.pad(y, (0, 0, 7, 7), mode="replicate"), k.transpose(2, 3).contiguous(), groups=3)[0]
        else:
            s = int(low[i])
            y = F.interpolate(x[i:i + 1], size=(s, s), mode="area")
            out[i] = F.interpolate(y, size=(h, w), mode="bilinear", align_corners=False)[0]
    return out


def shake(x: torch.Tensor, gen: torch.Generator, share: float) -> torch.Tensor:
    """A camera moving during the exposure: `share` of the crops smeared along a straight streak
    of 3-15 crop pixels at a random angle."""
    n = x.shape[0]
    pick = torch.rand(n, generator=gen) < share
    length = 3 + torch.rand(n, generator=gen) * 12
    ang = torch.rand(n, generator=gen) * math.pi
    r = torch.arange(-7, 8, dtype=torch.float32)
    yy, xx = torch.meshgrid(r, r, indexing="ij")
    out = x.clone()
    for i in torch.nonzero(pick).flatten().tolist():
        c, s = math.cos(ang[i]), math.sin(ang[i])
        along = (xx * c + yy * s).clamp(-length[i] / 2, length[i] / 2)
        dist = torch.hypot(xx - along * c, yy - along * s)      # to the streak through the middle
        k = (1 - dist).clamp(min=0)
        k = (k / k.sum()).expand(3, 1, 15, 15).contiguous()
        out[i] = F.conv2d(F.pad(x[i:i + 1], (7, 7, 7, 7), mode="replicate"), k, groups=3)[0]
    return out


def jitter_colours(x: torch.Tensor, gen: torch.Generator, grey_share: float, blur_share: float) -> torch.Tensor:
    """Channels permuted (40% of the crops), `grey_share` made grey, every channel's gain and the
    brightness jittered, `blur_share` softened by a 3x3 blur: decks and lamps differ in colour."""
    n = x.shape[0]
    perm = torch.rand(n, generator=gen) < 0.4
    if perm.any():
        order = torch.randperm(3, generator=gen)
        x[perm] = x[perm][:, order]
    grey = torch.rand(n, generator=gen) < grey_share
    if grey.any():
        x[grey] = x[grey].mean(1, keepdim=True).expand(-1, 3, -1, -1)
    gain = 0.5 + torch.rand(n, 3, 1, 1, generator=gen) * 0.3 + torch.rand(n, 1, 1, 1, generator=gen) * 0.6
    x = x * gain + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.2
    blur = torch.rand(n, generator=gen) < blur_share
    if blur.any():
        k = torch.tensor([1., 2., 1.])
        k = (k[:, None] * k[None]) / 16
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), k.expand(3, 1, 3, 3).contiguous(), groups=3)
    return x


def augment(x: torch.Tensor, gen: torch.Generator, foreshorten: float = 0.0, degrade_share: float = 0.0,
            shake_share: float = 0.0) -> torch.Tensor:
    """Random turn, scale, shift, colour and channel order, blur (and, if asked, foreshortening,
    `degrade` and `shake`) for a batch (N,3,H,W in 0..1)."""
    n = x.shape[0]
    ang = torch.rand(n, generator=gen) * 2 * math.pi
    sc = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.25
    tx, ty = [(torch.rand(n, generator=gen) - 0.5) * 0.15 for _ in range(2)]
    cos, sin = torch.cos(ang) * sc, torch.sin(ang) * sc
    lin = torch.stack([torch.stack([cos, -sin], 1), torch.stack([sin, cos], 1)], 1)
    if foreshorten:
        # a camera at an angle to the table foreshortens a symbol along one direction: squash most
        # crops by up to `foreshorten` along a random direction (off: the random draws of the
        # shipped classifier's recipe are unchanged)
        phi = torch.rand(n, generator=gen) * math.pi
        f = torch.where(torch.rand(n, generator=gen) < 0.6, 1 - torch.rand(n, generator=gen) * foreshorten,
                        torch.ones(n))
        c, s = torch.cos(phi), torch.sin(phi)
        rot = torch.stack([torch.stack([c, -s], 1), torch.stack([s, c], 1)], 1)
        stretch = torch.diag_embed(torch.stack([1 / f, torch.ones(n)], 1))
        lin = lin @ rot @ stretch @ rot.transpose(1, 2)
    theta = torch.cat([lin, torch.stack([tx, ty], 1)[:, :, None]], 2)
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    x = F.grid_sample(x, grid, padding_mode="border", align_corners=False)
    x = jitter_colours(x, gen, 0.15, 0.25)
    if degrade_share:      # (off: the random draws of the shipped classifier's recipe are unchanged)
        x = degrade(x, gen, degrade_share)
    if shake_share:
        x = shake(x, gen, shake_share)
    x = x + torch.randn(x.shape, generator=gen) * torch.rand(n, 1, 1, 1, generator=gen) * 0.04
    return x.clamp(0, 1)


def to_tensor(xs) -> torch.Tensor:
    return torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).float() / 255


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crops", action="append", default=[], help="folder(s) written by companion.vision.dataset crops")
    ap.add_argument("--roboflow", default=None, help="../shared/datasets/roboflow-uno (train split only is used)")
    ap.add_argument("--rf-copies", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--init", default=None, help="continue from these weights (.pt)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--width", type=int, default=32, help="channels of the first layer (the shipped net: 32)")
    ap.add_argument("--foreshorten", type=float, default=0.0,
                    help="squash most crops by up to this share along a random direction (cls7: 0.45)")
    ap.add_argument("--degrade", type=float, default=0.0,
                    help="this share of crops blurred or sampled down and up (a camera out of focus or far away; cls8: 0.3)")
    ap.add_argument("--shake", type=float, default=0.0,
                    help="this share of crops smeared by a streak (a camera moving during the exposure)")
    ap.add_argument("--out", default="models/classifier")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    xs, ys = [], []
    for folder in a.crops:
        x, y = load_synthetic(Path(folder))
        xs += x; ys += y
    n_syn = len(xs)
    if a.roboflow:
        x, y = load_roboflow(Path(a.roboflow), "train", a.rf_copies)
        xs += x; ys += y
    print(f"{n_syn} synthetic + {len(xs) - n_syn} real crops; classes {np.bincount(ys, minlength=len(SYMBOLS)).tolist()}", flush=True)
    X, Y = to_tensor(xs), torch.tensor(ys)
    rng = np.random.default_rng(1)
    idx = rng.permutation(len(X))
    n_val = max(1, len(X) // 20)
    val, tr = idx[:n_val], idx[n_val:]
    model = SymbolNet(width=a.width)
    if a.init:
        model.load_state_dict(torch.load(a.init))
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    steps = a.epochs * math.ceil(len(tr) / a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps)
    gen = torch.Generator().manual_seed(0)
    best = 0.0
    for ep in range(a.epochs):
        model.train()
        t0, order = time.time(), torch.from_numpy(rng.permutation(tr))
        tot = 0.0
        for i in range(0, len(order), a.batch):
            b = order[i: i + a.batch]
            out = model(augment(X[b].clone(), gen, a.foreshorten, a.degrade, a.shake))
            loss = F.cross_entropy(out, Y[b], label_smoothing=0.05)
            opt.zero_grad(); loss.backward(); opt.step(); sched.step()
            tot += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            vb = torch.from_numpy(val)
            acc = (model(augment(X[vb].clone(), gen, a.foreshorten, a.degrade, a.shake)).argmax(1) == Y[vb]).float().mean().item()
        print(f"epoch {ep + 1}/{a.epochs} loss {tot / len(tr):.4f} val_acc(rotated) {acc:.4f} {time.time() - t0:.0f}s", flush=True)
        if acc >= best:
            best = acc
            torch.save(model.state_dict(), a.out + ".pt")
    model.load_state_dict(torch.load(a.out + ".pt"))
    export(model, a.out + ".onnx")
    print(f"best val_acc {best:.4f}; wrote {a.out}.pt and {a.out}.onnx")
    return 0


def export(model: nn.Module, path: str, size: tuple = (SIZE, SIZE)):
    """The model as ONNX: input "crops" (N x 3 x height x width, BGR in 0..1), output "logits"."""
    model.eval()
    dummy = torch.zeros(1, 3, *size)
    torch.onnx.export(model, dummy, path, input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)


if __name__ == "__main__":
    sys.exit(main())
