"""The find and read stages alone, on real photos (figures for the model card; not a test).

    python models/recipe bench-stages --roboflow ../shared/datasets/roboflow-uno [--split valid] [--limit 700]

Each Roboflow photo labels the corner index of every card in it (symbol only). A stage weak by
itself shows here, before the decide stage that joins them can hide it:

- **find**: the finder's corner indices. A labelled card is found where a found index's box holds
  its labelled index's centre (a label two found boxes hold is the nearer's). `find_recall`:
  labelled cards found; `indices_unlabelled`: found indices that hold no labelled one of their own
  (a false index, the front card's other corner or a card's centre symbol, which the labels leave
  out); `faces`: the uncovered faces found;
- **fit**: where the model folder has a fitter, the faces' outlines drawn again (only timed here);
- **read**: the read stage as the recogniser runs it (`stages.read.Reader`), against the label:
  `read_indices`, the symbol classifier on each found index that holds a labelled one;
  `read_faces`, the face reader on each uncovered face that holds a labelled index near one of
  its corners (a fan's front card: the cards beneath show their indices inside it too, but far
  from its corners).

``--condition WORDS`` first puts each photo under the `bench-conditions` condition whose name starts
with WORDS (its labels moved with the pixels where it moves them: "far away", "turned a quarter"),
so that the stage a condition weakens shows (camera shake: the finder, or the readers?).

The stages run as the recogniser runs them (its `Settings`; `--set NAME=VALUE` changes one);
`--model-dir` and `--reader` measure other weights. The median time of each stage a photo (one
thread, photos scaled to at most 640 pixels as a camera frame is) is printed too.
"""
from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))      # bench_conditions, beside this script
from companion.vision.outline import upright  # noqa: E402
from companion.vision.recognizer import Recognizer, Settings, parse_settings  # noqa: E402
from companion.vision.stages import warp  # noqa: E402
from bench_conditions import CONDITIONS, FOLLOWS_NOT, MOVES, chosen  # noqa: E402

CORNER = 0.6     # a face holds the labelled index that lies within this many short sides of a corner

# the Roboflow export's class ids (its data.yaml), as the project's symbols
ROBOFLOW_NAMES = ("0", "1", "wild_draw_four", "draw_two", "reverse", "skip", "wild", "2", "3", "4", "5", "6",
                  "7", "8", "9")


def labels_of(label_file: Path, w: int, h: int) -> list[tuple[str, np.ndarray]]:
    """The photo's labelled corner indices: (symbol, centre in pixels)."""
    out = []
    if not label_file.is_file():
        return out
    for line in label_file.read_text().split("\n"):
        f = line.split()
        if len(f) >= 5:
            out.append((ROBOFLOW_NAMES[int(f[0])], np.float32([float(f[1]) * w, float(f[2]) * h])))
    return out


def own_label(quad: np.ndarray, labels: list, corner: float) -> int | None:
    """The label whose index sits in `quad`, nearest one of its corners and within `corner` of its
    short side of it; None where none does."""
    q = upright(quad)
    short = float(np.hypot(*(q[1] - q[0])))
    poly = q.reshape(-1, 1, 2)
    best, best_d = None, corner * short
    for i, (_, c) in enumerate(labels):
        if cv2.pointPolygonTest(poly, (float(c[0]), float(c[1])), False) < 0:
            continue
        d = float(np.min(np.hypot(*(q - c).T)))
        if d <= best_d:
            best, best_d = i, d
    return best


def frame(image: np.ndarray, longest: int = 640) -> np.ndarray:
    s = longest / max(image.shape[:2])
    return image if s >= 1 else cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)


def labelled_frame(path: Path, condition=None, rng=None) -> tuple:
    """A Roboflow photo scaled as a camera frame (`frame`) and its labels in that frame's pixels;
    (None, []) where the photo cannot be read. `condition`: (the function that changes the photo,
    the one that moves its points or None) of `bench_conditions`, applied first, with `rng`."""
    image = cv2.imread(str(path))
    if image is None:
        return None, []
    h0, w0 = image.shape[:2]
    labels = labels_of(path.parent.parent / "labels" / (path.stem + ".txt"), w0, h0)
    if condition:
        change, move = condition
        image = change(image, rng)
        if move:
            labels = [(sym, move(np.float32([c]), w0, h0)[0]) for sym, c in labels]
        h0, w0 = image.shape[:2]
    image = frame(image)
    s = image.shape[1] / w0
    return image, [(sym, c * s) for sym, c in labels]


def measure(photos: list[Path], rec: Recognizer, condition=None, seed: int = 0) -> dict:
    found = labelled = n_indices = unlabelled = faces_n = 0
    read = collections.Counter()
    seen = collections.Counter()
    confusions = collections.Counter()
    t_find, t_fit, t_read = [], [], []
    for k, path in enumerate(photos):
        if k and k % max(1, len(photos) // 10) == 0:
            print(f"  photos: {k}/{len(photos)}", file=sys.stderr, flush=True)
        image, labels = labelled_frame(path, condition, np.random.default_rng([seed, k]))
        if image is None:
            continue
        t = time.perf_counter()
        got = rec.find(image)
        t_find.append(time.perf_counter() - t)
        t = time.perf_counter()
        if rec.fit:                      # the fit stage (where the model folder has a fitter)
            got = rec.fit(image, got)
        t_fit.append(time.perf_counter() - t)
        t = time.perf_counter()
        readings = rec.read(warp(image, got))
        t_read.append(time.perf_counter() - t)
        labelled += len(labels)
        n_indices += len(got.indices)
        faces_n += len(got.faces)
        owners = owned([r.part.box for r in readings.indices], labels)
        found += len({i for i in owners if i is not None})
        unlabelled += sum(i is None for i in owners)
        pairs = [("index", r, i) for r, i in zip(readings.indices, owners) if i is not None]
        pairs += [("face", r, own_label(r.part.quad, labels, CORNER)) for r in readings.faces]
        for kind, r, i in pairs:
            if i is None:
                continue
            truth, name = labels[i][0], r.symbol
            seen[kind] += 1
            read[kind] += name == truth
            if name != truth:
                confusions[f"{truth} -> {name}"] += 1
    share = lambda a, b: round(a / b, 4) if b else None   # noqa: E731
    return {"photos": len(photos), "labelled_cards": labelled, "find_recall": share(found, labelled),
            "indices": n_indices, "indices_unlabelled": unlabelled, "faces": faces_n,
            "read_indices": share(read["index"], seen["index"]), "indices_read": seen["index"],
            "read_faces": share(read["face"], seen["face"]), "faces_read": seen["face"],
            "confusions": dict(confusions.most_common(12)),
            "find_ms": round(1000 * statistics.median(t_find), 1) if t_find else None,
            "fit_ms": round(1000 * statistics.median(t_fit), 2) if t_fit else None,
            "read_ms": round(1000 * statistics.median(t_read), 1) if t_read else None}


def owned(boxes: list, labels: list) -> list:
    """The label each found index's box holds (`holder`), a label held by one box only: the box
    whose middle is nearest it (a card's centre symbol, found as an index, is a big box that may
    also hold the corner index of the card beside it, which the labels name; the labels leave
    centre symbols out). None for a box that holds no label of its own."""
    owners = [holder(b, labels) for b in boxes]
    mid = lambda b: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)      # noqa: E731
    for i in set(owners) - {None}:
        held = [k for k, o in enumerate(owners) if o == i]
        keep = min(held, key=lambda k: float(np.hypot(*(np.float32(mid(boxes[k])) - labels[i][1]))))
        for k in held:
            if k != keep:
                owners[k] = None
    return owners


def holder(box, labels: list) -> int | None:
    """The label whose index centre lies in `box` (the nearest to its middle, where several do)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    inside = [(float(np.hypot(c[0] - cx, c[1] - cy)), i) for i, (_, c) in enumerate(labels)
              if box[0] <= c[0] <= box[2] and box[1] <= c[1] <= box[3]]
    return min(inside)[1] if inside else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roboflow", required=True, help="the Roboflow UNO folder (its split's images/ and labels/)")
    ap.add_argument("--split", default="valid", choices=["valid", "train"])
    ap.add_argument("--limit", type=int, default=0, help="the first N photos (0: all)")
    ap.add_argument("--model-dir", default=None, help="a models folder to measure (default: the shipped one)")
    ap.add_argument("--reader", default=None, help="a face reader's ONNX file (default: the shipped one)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="measure with one of the recogniser's Settings changed (repeatable)")
    ap.add_argument("--condition", default=None, metavar="WORDS",
                    help="put each photo under the bench-conditions condition whose name starts with WORDS first")
    a = ap.parse_args(argv)
    try:
        settings = parse_settings(a.set)
    except ValueError as exc:
        ap.error(f"--set {exc}")
    condition = name = None
    if a.condition:
        names = chosen([a.condition])
        if len(names) != 1 or names[0].startswith(FOLLOWS_NOT):
            ap.error(f"--condition {a.condition!r}: name one of " + "; ".join(n for n in CONDITIONS if not n.startswith(FOLLOWS_NOT)))
        name = names[0]
        condition = (CONDITIONS[name], MOVES.get(name))
    folder = Path(a.roboflow) / a.split / "images"
    photos = sorted(p for p in folder.glob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if a.limit:
        photos = photos[:a.limit]
    if not photos:
        ap.error(f"no photos in {folder}")
    rec = Recognizer("classic", model_dir=a.model_dir, reader=a.reader, settings=settings)
    res = measure(photos, rec, condition)
    print(json.dumps({"split": a.split, "condition": name or "as taken", "models": str(a.model_dir or "shipped"),
                      "reader": str(a.reader or "shipped"),
                      "settings": {k: v for k, v in vars(settings).items() if v != getattr(Settings(), k)}, **res}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
