"""Training recipe for the symbol classifier that reads each detected corner index / centre symbol.

    python models/recipe train-classifier --crops /work/data/crops1 --roboflow ../shared/datasets/roboflow-uno \
        --epochs 10 --out models/classifier

Inputs are 48x48 BGR crops around a detection (``companion.vision.dataset.crop_square``); every
batch is turned by a random angle (a card lies any way round on the table), its colours are
jittered and its channels sometimes permuted (decks differ in colour). With `--colours`, a
second head names the index's colour (`classes.COLOURS`), taught on the crops whose channels
were not permuted, and a share of the crops is put partly under a hard shadow (`shade`): the
colour of an index half in an arm's shadow. Real photos: the corner-index boxes of the Roboflow
training split (never its validation split); their colour, where asked, is the palette
matcher's (`colour.py`) on the untouched photo, kept only where it is sure. Writes OUT.pt
(state dict) and OUT.onnx.
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
from companion.vision.classes import COLOURS, SYMBOLS  # noqa: E402
from companion.vision.dataset import crop_square  # noqa: E402

SIZE = 48


class SymbolNet(nn.Module):
    """A small CNN: 48x48 BGR crop -> symbol logits (last class: no symbol), followed, with
    `n_colours`, by that many colour logits (one output: the run time splits it)."""

    def __init__(self, n_classes: int = len(SYMBOLS), width: int = 32, n_colours: int = 0):
        super().__init__()
        w = width

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

        self.features = nn.Sequential(block(3, w), nn.MaxPool2d(2),
                                      block(w, 2 * w), nn.MaxPool2d(2),
                                      block(2 * w, 4 * w), block(4 * w, 4 * w), nn.MaxPool2d(2),
                                      block(4 * w, 8 * w), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(8 * w, n_classes))
        self.colour_head = nn.Sequential(nn.Flatten(), nn.Linear(8 * w, n_colours)) if n_colours else None

    def forward(self, x):
        f = self.features(x)
        if self.colour_head is None:
            return self.head(f)
        return torch.cat([self.head(f), self.colour_head(f)], 1)


def colour_label(name) -> int:
    """A colour's index in `COLOURS`; -1 for none (a wild, no card, a colour not known)."""
    return COLOURS.index(name) if name in COLOURS else -1


def load_synthetic(folder: Path):
    """(crops, symbols, colours) of a crop set."""
    rows = json.loads((folder / "crops.json").read_text())
    xs, ys, cs = [], [], []
    for r in rows:
        img = cv2.imread(str(folder / r["file"]))
        if img is None or r["symbol"] not in SYMBOLS:
            continue
        xs.append(cv2.resize(img, (SIZE, SIZE)))
        ys.append(SYMBOLS.index(r["symbol"]))
        cs.append(colour_label(r.get("color")))
    return xs, ys, cs


def matcher_colour(patch: np.ndarray, light: np.ndarray, sure: float = 0.8) -> int:
    """The palette matcher's colour (classic palette) of `patch`, the room's `light` undone, as the
    run time reads it on an untouched photo; -1 where the top colour's share of the ink is under `sure`."""
    from companion.vision.colour import balance, colour_shares, saturated_hues
    palette = COLOURS[:4]
    hues = saturated_hues(balance(patch, light), skin=False)
    if hues is None:
        return -1
    shares = colour_shares(hues, palette)
    k = int(np.argmax(shares))
    return k if shares[k] >= sure else -1


def load_roboflow(root: Path, split: str, copies: int, seed: int = 0, colours: bool = False):
    """(crops, symbols, colours) of the labelled corner indices (with jitter) and of empty
    background; the colours the matcher's (`matcher_colour`) where `colours`, else -1."""
    import yaml  # ultralytics brings PyYAML
    from companion.vision.colour import illuminant_gains
    names = yaml.safe_load((root / "data.yaml").read_text())["names"]
    rng = np.random.default_rng(seed)
    xs, ys, cs = [], [], []
    for lab in sorted((root / split / "labels").glob("*.txt")):
        img = cv2.imread(str(root / split / "images" / (lab.stem + ".jpg")))
        if img is None:
            continue
        h, w = img.shape[:2]
        boxes, classes = [], []
        for line in lab.read_text().split("\n"):
            if not line.strip():
                continue
            c, cx, cy, bw, bh = line.split()
            cx, cy, bw, bh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
            boxes.append((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2))
            classes.append(str(names[int(c)]))
        light = illuminant_gains(img, boxes) if colours else None
        for box, sym in zip(boxes, classes):
            coloured = colours and sym != "none" and not sym.startswith("wild")
            col = matcher_colour(crop_square(img, box, SIZE), light) if coloured else -1
            for _ in range(copies):
                xs.append(crop_square(img, box, SIZE, jitter=rng))
                ys.append(SYMBOLS.index(sym))
                cs.append(col)
        # background far from every card
        for _ in range(1):
            s = rng.uniform(15, 40)
            x, y = rng.uniform(0, w - s), rng.uniform(0, h - s)
            if all(x > b[2] + 120 or x + s < b[0] - 120 or y > b[3] + 160 or y + s < b[1] - 160 for b in boxes):
                xs.append(crop_square(img, (x, y, x + s, y + s), SIZE, pad=0))
                ys.append(SYMBOLS.index("none"))
                cs.append(-1)
    return xs, ys, cs


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


def jitter_colours(x: torch.Tensor, gen: torch.Generator, grey_share: float, blur_share: float,
                   recoloured: torch.Tensor | None = None) -> torch.Tensor:
    """Channels permuted (40% of the crops), `grey_share` made grey, every channel's gain and the
    brightness jittered, `blur_share` softened by a 3x3 blur: decks and lamps differ in colour.
    `recoloured` (N booleans), where given, is set where a crop's colour is no longer its card's
    (its channels permuted, or made grey)."""
    n = x.shape[0]
    perm = torch.rand(n, generator=gen) < 0.4
    if perm.any():
        order = torch.randperm(3, generator=gen)
        x[perm] = x[perm][:, order]
        if recoloured is not None and not torch.equal(order, torch.arange(3)):
            recoloured |= perm
    grey = torch.rand(n, generator=gen) < grey_share
    if grey.any():
        x[grey] = x[grey].mean(1, keepdim=True).expand(-1, 3, -1, -1)
        if recoloured is not None:
            recoloured |= grey
    gain = 0.5 + torch.rand(n, 3, 1, 1, generator=gen) * 0.3 + torch.rand(n, 1, 1, 1, generator=gen) * 0.6
    x = x * gain + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.2
    blur = torch.rand(n, generator=gen) < blur_share
    if blur.any():
        k = torch.tensor([1., 2., 1.])
        k = (k[:, None] * k[None]) / 16
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), k.expand(3, 1, 3, 3).contiguous(), groups=3)
    return x


def shade(x: torch.Tensor, gen: torch.Generator, share: float) -> torch.Tensor:
    """A hard shadow (an arm's, a lampshade's) over part of `share` of the crops: a straight edge
    at any angle within a third of the crop's side of its middle, 0.5-3 crop pixels soft; under it
    20-60% of the light, bluer by up to a quarter (the room's light, not the lamp's)."""
    n, _, h, w = x.shape
    pick = torch.nonzero(torch.rand(n, generator=gen) < share).flatten()
    if not len(pick):
        return x
    k = len(pick)
    ang = torch.rand(k, generator=gen) * 2 * math.pi
    off = (torch.rand(k, generator=gen) - 0.5) * (2 / 3) * w
    soft = 0.5 + torch.rand(k, generator=gen) * 2.5
    light = 0.2 + torch.rand(k, generator=gen) * 0.4
    blue = torch.rand(k, generator=gen) * 0.25
    tint = torch.stack([1 + blue, 1 + blue / 2, 1 - blue / 2], 1)           # B, G, R
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32) - (h - 1) / 2,
                            torch.arange(w, dtype=torch.float32) - (w - 1) / 2, indexing="ij")
    d = (xx[None] * torch.cos(ang)[:, None, None] + yy[None] * torch.sin(ang)[:, None, None] - off[:, None, None])
    a = (d / soft[:, None, None] + 0.5).clamp(0, 1)[:, None]               # 1: in the shadow
    under = (light[:, None] * tint)[:, :, None, None]
    out = x.clone()
    out[pick] = x[pick] * (1 - a + a * under)
    return out


def expose(x: torch.Tensor, gen: torch.Generator, share: float) -> torch.Tensor:
    """A camera exposing too long: `share` of the crops 1.2-2 times as bright, clipped (a yellow's
    red and green clip together, an olive green's green alone)."""
    n = x.shape[0]
    gain = torch.where(torch.rand(n, generator=gen) < share, 1.2 + torch.rand(n, generator=gen) * 0.8, torch.ones(n))
    return (x * gain[:, None, None, None]).clamp(0, 1)


def augment(x: torch.Tensor, gen: torch.Generator, foreshorten: float = 0.0, degrade_share: float = 0.0,
            shake_share: float = 0.0, shade_share: float = 0.0, expose_share: float = 0.0,
            recoloured: torch.Tensor | None = None) -> torch.Tensor:
    """Random turn, scale, shift, colour and channel order, blur (and, if asked, foreshortening,
    `degrade`, `shake`, `shade` and `expose`) for a batch (N,3,H,W in 0..1); `recoloured`: see
    `jitter_colours`."""
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
    x = jitter_colours(x, gen, 0.15, 0.25, recoloured)
    if shade_share:        # (off: the random draws of the recipe before it are unchanged)
        x = shade(x, gen, shade_share)
    if expose_share:
        x = expose(x, gen, expose_share)
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
    ap.add_argument("--colours", action="store_true",
                    help="a second head names each index's colour (the Roboflow crops' colours: the palette matcher's)")
    ap.add_argument("--shade", type=float, default=0.0,
                    help="this share of crops partly under a hard shadow (`shade`)")
    ap.add_argument("--expose", type=float, default=0.0,
                    help="this share of crops overexposed, clipped (`expose`)")
    ap.add_argument("--out", default="models/classifier")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    xs, ys, cs = [], [], []
    for folder in a.crops:
        x, y, c = load_synthetic(Path(folder))
        xs += x; ys += y; cs += c
    n_syn = len(xs)
    if a.roboflow:
        x, y, c = load_roboflow(Path(a.roboflow), "train", a.rf_copies, colours=a.colours)
        xs += x; ys += y; cs += c
    print(f"{n_syn} synthetic + {len(xs) - n_syn} real crops; classes {np.bincount(ys, minlength=len(SYMBOLS)).tolist()}", flush=True)
    if a.colours:
        print(f"colours {np.bincount(np.array(cs) + 1, minlength=len(COLOURS) + 1).tolist()} (first: none)", flush=True)
    X, Y, C = to_tensor(xs), torch.tensor(ys), torch.tensor(cs)
    del xs
    rng = np.random.default_rng(1)
    idx = rng.permutation(len(X))
    n_val = max(1, len(X) // 20)
    val, tr = idx[:n_val], idx[n_val:]
    n_sym = len(SYMBOLS)
    model = SymbolNet(width=a.width, n_colours=len(COLOURS) if a.colours else 0)
    if a.init:
        missing, unexpected = model.load_state_dict(torch.load(a.init), strict=False)
        if unexpected or any(not k.startswith("colour_head") for k in missing):
            raise SystemExit(f"{a.init} is not this network: missing {missing}, unexpected {unexpected}")
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    steps = a.epochs * math.ceil(len(tr) / a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps)
    gen = torch.Generator().manual_seed(0)

    def batch(b):
        recoloured = torch.zeros(len(b), dtype=torch.bool)
        x = augment(X[b].clone(), gen, a.foreshorten, a.degrade, a.shake, a.shade, a.expose,
                    recoloured if a.colours else None)
        cols = torch.where(recoloured, -1, C[b])
        return x, cols

    best = 0.0
    for ep in range(a.epochs):
        model.train()
        t0, order = time.time(), torch.from_numpy(rng.permutation(tr))
        tot = 0.0
        for i in range(0, len(order), a.batch):
            b = order[i: i + a.batch]
            x, cols = batch(b)
            out = model(x)
            loss = F.cross_entropy(out[:, :n_sym], Y[b], label_smoothing=0.05)
            if a.colours and (cols >= 0).any():
                loss = loss + F.cross_entropy(out[:, n_sym:], cols, ignore_index=-1, label_smoothing=0.02)
            opt.zero_grad(); loss.backward(); opt.step(); sched.step()
            tot += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            vb = torch.from_numpy(val)
            x, cols = batch(vb)
            out = model(x)
            acc = (out[:, :n_sym].argmax(1) == Y[vb]).float().mean().item()
            shown = f"val_acc(rotated) {acc:.4f}"
            if a.colours and (cols >= 0).any():
                has = cols >= 0
                col_acc = (out[has, n_sym:].argmax(1) == cols[has]).float().mean().item()
                shown += f" colour {col_acc:.4f}"
                acc = (acc + col_acc) / 2
        print(f"epoch {ep + 1}/{a.epochs} loss {tot / len(tr):.4f} {shown} {time.time() - t0:.0f}s", flush=True)
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
