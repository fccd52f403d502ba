"""Training recipe for the card reader: a small CNN that reads a whole card's symbol from the
pixels inside its outline (the outline finder's turned rectangle, turned upright: 64x96,
`companion.vision.outline.card_crop`), what a hand or another card leaves of it included.

    python models/recipe data cards /work/data/cards1 --count 24000 --first-seed 7000000 \
        --hands 0.6 --fonts DejaVu STIX cm --shapes 1 2 --themed 0.1
    python models/recipe data cards /work/data/cards2 --count 24000 --first-seed 7100000 \
        --rare --finder models/outlines.onnx --hands 0.6 --fonts DejaVu STIX cm --shapes 1 2 --themed 0.1
    python models/recipe train-reader --cards /work/data/cards1 --cards /work/data/cards2 --epochs 6 \
        --threads 2 --out models/cardreader

The second set draws the rare symbols far more often and also crops the outline finder's own
outlines, as rough as the recogniser will ask the reader to read them.

With `--colours`, a second head names the card's colour (`classes.COLOURS`), taught on the crops
whose channels were not permuted, some under a hard shadow or overexposed (`train_classifier`'s
`shade`, `expose`); a real photo's face (`recipe real-faces`) is labelled with the palette
matcher's colour of its middle where the matcher is sure (`train_classifier.matcher_colour`).

A crop is read upright or upside down (which short side of an outline is the top is not known), so
every batch is turned half a turn at random, besides a few degrees, a shift and a scale (the finder's
outline is rough); colours are jittered and channels permuted (the colour is read from the card's
pixels, not by this network), and some crops blurred, sampled down or smeared. A card whose symbol
no corner or middle shows (the generator's "parts" under 0.3 and less than half the card in view)
is left out. Writes OUT.pt (state dict) and OUT.onnx (input "crops": N x 3 x 96 x 64, BGR, 0..1).

A wider reader can start from a narrower one's weights: `--width 24 --init models/cardreader.pt`
first widens them (`widen`: each new channel a copy of an old one, so the wider net reads what the
narrow one read) and trains on from there.
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
from companion.vision.outline import CARD_CROP  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_classifier import colour_label, degrade, export, expose, jitter_colours, matcher_colour, shade, shake  # noqa: E402

W, H = CARD_CROP


class CardNet(nn.Module):
    """A small CNN: a 64x96 BGR card crop -> symbol logits (last class: no card's symbol). Its first
    layer halves the crop (a CPU trains on full-size thin layers slowly), its last takes the
    strongest response anywhere (a symbol may show in any corner or the middle)."""

    def __init__(self, n_classes: int = len(SYMBOLS), width: int = 16, n_colours: int = 0):
        super().__init__()
        w = width

        def block(i, o, stride=1):
            return nn.Sequential(nn.Conv2d(i, o, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(o),
                                 nn.ReLU(inplace=True))

        self.features = nn.Sequential(block(3, w, 2), block(w, 2 * w), nn.MaxPool2d(2),
                                      block(2 * w, 4 * w), nn.MaxPool2d(2),
                                      block(4 * w, 6 * w), block(6 * w, 6 * w), nn.MaxPool2d(2),
                                      block(6 * w, 8 * w), nn.AdaptiveMaxPool2d(1))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(8 * w, n_classes))
        self.colour_head = nn.Sequential(nn.Flatten(), nn.Linear(8 * w, n_colours)) if n_colours else None

    def forward(self, x):
        f = self.features(x)
        if self.colour_head is None:
            return self.head(f)
        return torch.cat([self.head(f), self.colour_head(f)], 1)


def width_of(state: dict) -> int:
    """The `width` a CardNet's (or a FitNet's) state dict was made with (its first layer's channels)."""
    return int(state["features.0.0.weight"].shape[0])


def widen(state: dict, width: int, noise: float = 0.01, seed: int = 0) -> dict:
    """A CardNet state dict at `width` that computes what `state` (a narrower one) computes
    (Net2WiderNet): each new channel of a layer copies one of its old channels, conv weights and
    batch norm alike, and the next layer's weights on a copied channel are shared out among its
    copies. A little noise (`noise` of each weight tensor's spread) on the shared-out weights lets
    the copies learn apart."""
    old = width_of(state)
    if width < old:
        raise ValueError(f"cannot widen a width-{old} CardNet to {width}")
    gen = torch.Generator().manual_seed(seed)
    out = dict(state)
    layers = sorted({k.split(".")[1] for k in state if k.startswith("features.") and k.endswith(".0.weight")}, key=int)
    g = copies = None    # the last layer's new channels -> its old ones, and how many copies each has

    def shared_out(w: torch.Tensor) -> torch.Tensor:
        if g is None:
            return w
        w = w[:, g] / copies[g].view(1, -1, *([1] * (w.dim() - 2)))
        return w + torch.randn(w.shape, generator=gen) * w.std() * noise

    for layer in layers:
        conv = f"features.{layer}.0.weight"
        w = shared_out(state[conv])
        n_old = w.shape[0]             # each layer's channels are a multiple of the width
        g = torch.cat([torch.arange(n_old), torch.randint(0, n_old, (n_old * width // old - n_old,), generator=gen)])
        copies = torch.bincount(g, minlength=n_old).float()
        out[conv] = w[g].clone()
        for part in ("weight", "bias", "running_mean", "running_var"):
            out[f"features.{layer}.1.{part}"] = state[f"features.{layer}.1.{part}"][g].clone()
    out["head.2.weight"] = shared_out(state["head.2.weight"])
    if "colour_head.1.weight" in state:
        out["colour_head.1.weight"] = shared_out(state["colour_head.1.weight"])
    return out


def readable(row: dict) -> bool:
    """Is the card's symbol shown in its crop: a corner index 30% in view, a middle 70%, or half the card?"""
    return row["symbol"] == "none" or row.get("parts", 0) >= 0.3 or row.get("seen", 0) >= 0.5


def face_colour(img: np.ndarray, row: dict) -> int:
    """A face crop's colour label: the generator's, or for a real photo's face the palette
    matcher's on its middle (as the run time reads a face's colour, white-balanced on the crop's
    own white), -1 where it is not sure; -1 for a wild and for no card."""
    if row["symbol"] == "none" or row["symbol"].startswith("wild"):
        return -1
    if not str(row.get("src", "")).startswith("roboflow"):
        return colour_label(row.get("color"))
    from companion.vision.colour import illuminant_gains
    h, w = img.shape[:2]
    return matcher_colour(img[h // 5: h - h // 5, w // 5: w - w // 5], illuminant_gains(img, [(0, 0, w, h)]))


def load_cards(folder: Path):
    """(crops, symbols, colours, rows) of a card crop set."""
    rows = [r for r in json.loads((folder / "cards.json").read_text()) if r["symbol"] in SYMBOLS and readable(r)]
    xs, ys, cs, kept = [], [], [], []
    for r in rows:
        img = cv2.imread(str(folder / r["file"]))
        if img is None:
            continue
        if img.shape[:2] != (H, W):
            img = cv2.resize(img, (W, H), interpolation=cv2.INTER_AREA)
        xs.append(img)
        ys.append(SYMBOLS.index(r["symbol"]))
        cs.append(face_colour(img, r))
        kept.append(r)
    return xs, ys, cs, kept


def augment(x: torch.Tensor, gen: torch.Generator, degrade_share: float = 0.2, shake_share: float = 0.1,
            shade_share: float = 0.0, expose_share: float = 0.0, recoloured: torch.Tensor | None = None) -> torch.Tensor:
    """Half a turn at random, a few degrees, shift and scale; colour, channel order, blur, noise
    (and, if asked, `shade` and `expose`; `recoloured`: see `jitter_colours`)."""
    n = x.shape[0]
    flip = torch.rand(n, generator=gen) < 0.5
    x[flip] = torch.flip(x[flip], dims=(2, 3))
    ang = (torch.rand(n, generator=gen) - 0.5) * math.radians(10)
    sc = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.16
    tx, ty = [(torch.rand(n, generator=gen) - 0.5) * 0.12 for _ in range(2)]
    aspect = H / W    # turn in pixels, not in the grid's stretched units
    cos, sin = torch.cos(ang) * sc, torch.sin(ang) * sc
    lin = torch.stack([torch.stack([cos, -sin * aspect], 1), torch.stack([sin / aspect, cos], 1)], 1)
    theta = torch.cat([lin, torch.stack([tx, ty], 1)[:, :, None]], 2)
    x = F.grid_sample(x, F.affine_grid(theta, x.shape, align_corners=False), padding_mode="border", align_corners=False)
    x = jitter_colours(x, gen, 0.1, 0.2, recoloured)
    if shade_share:        # (off: the random draws of the recipe before it are unchanged)
        x = shade(x, gen, shade_share)
    if expose_share:
        x = expose(x, gen, expose_share)
    if degrade_share:
        x = degrade(x, gen, degrade_share)
    if shake_share:
        x = shake(x, gen, shake_share)
    x = x + torch.randn(x.shape, generator=gen) * torch.rand(n, 1, 1, 1, generator=gen) * 0.04
    return x.clamp(0, 1)


def evaluate(model: nn.Module, X: torch.Tensor, Y: torch.Tensor, val: np.ndarray, hidden: np.ndarray,
             device: str = "cpu", C: torch.Tensor | None = None) -> tuple:
    """(accuracy on the crops `val`, read both ways up as the recogniser reads them; a line saying
    it, the accuracy on the top cards half hidden among them, which `hidden` marks over all crops,
    and with `C` (colour labels, -1: none) the colour head's accuracy)."""
    model.eval()
    right, colour_right = [], []
    n_sym = len(SYMBOLS)
    with torch.no_grad():
        for i in range(0, len(val), 512):
            b = torch.from_numpy(val[i: i + 512])
            x = (X[b].float() / 255).to(device)
            logits = (model(x) + model(torch.flip(x, dims=(2, 3)))).cpu()
            right.append((logits[:, :n_sym].argmax(1) == Y[b]).numpy())
            if C is not None and logits.shape[1] > n_sym:
                has = C[b] >= 0
                colour_right.append((logits[has, n_sym:].argmax(1) == C[b][has]).numpy())
    right = np.concatenate(right) if right else np.zeros(0, bool)
    mine = hidden[val]
    acc, acc_hidden = right.mean(), right[mine].mean() if mine.any() else float("nan")
    line = f"val_acc {acc:.4f} top cards half hidden {acc_hidden:.4f} ({mine.sum()})"
    if colour_right:
        colour_right = np.concatenate(colour_right)
        line += f" colour {colour_right.mean():.4f} ({len(colour_right)})"
    return acc, line


def to_tensor(xs) -> torch.Tensor:
    return torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).contiguous()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", action="append", default=[], help="folder(s) written by companion.vision.dataset cards")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=None,
                    help="the network's first layer's channels (16 without --init; default: the --init weights' own)")
    ap.add_argument("--init", default=None, help="continue from these weights (.pt)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="use only this many crops (a smoke run)")
    ap.add_argument("--device", default="cpu", help="where the network trains: cpu, cuda (augmentation stays on the CPU)")
    ap.add_argument("--copies", action="append", default=[], metavar="FOLDER=N",
                    help="draw a --cards folder N times as often (real photos' faces among many synthetic ones)")
    ap.add_argument("--colours", action="store_true",
                    help="a second head names the card's colour (a real photo's face: the palette matcher's, where sure)")
    ap.add_argument("--shade", type=float, default=0.0, help="this share of crops partly under a hard shadow")
    ap.add_argument("--expose", type=float, default=0.0, help="this share of crops overexposed, clipped")
    ap.add_argument("--out", default="models/cardreader")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    copies = {}
    for pair in a.copies:
        folder, _, n = pair.rpartition("=")
        if not folder or not n.isdigit() or int(n) < 1:
            ap.error(f"--copies takes FOLDER=N with N 1 or more, not {pair!r}")
        copies[str(Path(folder))] = int(n)
    xs, ys, cs, rows, repeat = [], [], [], [], []
    for folder in a.cards:
        x, y, c, r = load_cards(Path(folder))
        print(f"{folder}: {len(x)} crops", flush=True)
        xs += x; ys += y; cs += c; rows += r
        repeat += [copies.get(str(Path(folder)), 1)] * len(x)
    if a.limit:
        xs, ys, cs, rows, repeat = xs[:a.limit], ys[:a.limit], cs[:a.limit], rows[:a.limit], repeat[:a.limit]
    if not xs:
        ap.error("no card crops found: write them with `python models/recipe data cards OUT`")
    print(f"{len(xs)} card crops; classes {np.bincount(ys, minlength=len(SYMBOLS)).tolist()}", flush=True)
    if a.colours:
        print(f"colours {np.bincount(np.array(cs) + 1, minlength=len(COLOURS) + 1).tolist()} (first: none)", flush=True)
    X, Y, C = to_tensor(xs), torch.tensor(ys), (torch.tensor(cs) if a.colours else None)
    # validation by scene, so that a scene's crops are never on both sides
    seeds = np.array([r["seed"] for r in rows])
    val_mask = (seeds % 20) == 7
    tr_all = np.nonzero(~val_mask)[0]
    val, tr = np.nonzero(val_mask)[0], np.repeat(tr_all, np.array(repeat)[tr_all])
    print(f"{len(tr)} training crops an epoch, {len(val)} for validation", flush=True)
    hidden = np.array([r.get("cls") == "card" and r.get("parts", 1) < 0.75 for r in rows])
    real = np.array([str(r.get("src", "")).startswith("roboflow") for r in rows])     # `recipe real-faces`
    rng = np.random.default_rng(1)
    state = torch.load(a.init, map_location="cpu") if a.init else None
    a.width = a.width or (width_of(state) if state else 16)
    model = CardNet(width=a.width, n_colours=len(COLOURS) if a.colours else 0)
    if state:
        if width_of(state) != a.width:
            print(f"widening {a.init} from width {width_of(state)} to {a.width}", flush=True)
            state = widen(state, a.width)
        missing, unexpected = model.load_state_dict(state, strict=False)     # a colour head may be new
        if unexpected or any(not k.startswith("colour_head") for k in missing):
            raise SystemExit(f"{a.init} is not this network: missing {missing}, unexpected {unexpected}")
    model.to(a.device)
    if a.init:
        print(f"before training ({a.init}): {evaluate(model, X, Y, val, hidden, a.device, C)[1]}", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    steps = a.epochs * math.ceil(len(tr) / a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps)
    gen = torch.Generator().manual_seed(0)
    best = -1.0
    for ep in range(a.epochs):
        model.train()
        t0, order = time.time(), torch.from_numpy(rng.permutation(tr))
        tot = 0.0
        for i in range(0, len(order), a.batch):
            b = order[i: i + a.batch]
            recoloured = torch.zeros(len(b), dtype=torch.bool)
            x = augment(X[b].float() / 255, gen, shade_share=a.shade, expose_share=a.expose,
                        recoloured=recoloured if a.colours else None)
            out = model(x.to(a.device))
            if i // a.batch % 100 == 0:
                print(f"  step {i // a.batch} {time.time() - t0:.0f}s", flush=True)
            loss = F.cross_entropy(out[:, :len(SYMBOLS)], Y[b].to(a.device), label_smoothing=0.05)
            if a.colours:
                cols = torch.where(recoloured, -1, C[b]).to(a.device)
                if (cols >= 0).any():
                    loss = loss + F.cross_entropy(out[:, len(SYMBOLS):], cols, ignore_index=-1, label_smoothing=0.02)
            opt.zero_grad(); loss.backward(); opt.step(); sched.step()
            tot += loss.item() * len(b)
        acc, scores = evaluate(model, X, Y, val, hidden, a.device, C)
        real_val = val[real[val]]
        if len(real_val):
            scores += f" real photos' faces {evaluate(model, X, Y, real_val, hidden, a.device)[0]:.4f} ({len(real_val)})"
        print(f"epoch {ep + 1}/{a.epochs} loss {tot / len(tr):.4f} {scores} {time.time() - t0:.0f}s", flush=True)
        state = {k: v.cpu() for k, v in model.state_dict().items()}
        torch.save(state, a.out + f".ep{ep + 1}.pt")
        if acc >= best:
            best = acc
            torch.save(state, a.out + ".pt")
    model.cpu().load_state_dict(torch.load(a.out + ".pt"))
    export(model, a.out + ".onnx", (H, W))
    print(f"best val_acc {best:.4f}; wrote {a.out}.pt and {a.out}.onnx")
    return 0


if __name__ == "__main__":
    sys.exit(main())
