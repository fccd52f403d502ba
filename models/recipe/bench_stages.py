"""The find and read stages alone, on real photos (figures for the model card; not a test).

    python models/recipe bench-stages --roboflow ../shared/datasets/roboflow-uno [--split valid] [--limit 700]

Each Roboflow photo labels the corner index of every card in it (symbol only). A stage weak by
itself shows here, before the rules that join the stages can hide it:

- **find**: the outline finder's outlines (`card` and `under`). A labelled card is found where an
  outline holds its index, near one of the outline's corners (within `--corner` of its short
  side: a fanned card's index lies inside the card over it too, but far from that one's
  corners). `find_recall`: labelled cards found; `outlines_unlabelled`: outlines that hold no
  labelled index near a corner (a false card, or a card the labels leave out);
- **read**: the read stage as the face pipeline runs it (`stages.read.Reader`: the face reader on
  each found card's outline warped upright, and for a covered card the corner reader on its two
  index corners too), against the label; `read_uncovered` counts only the outlines the finder
  calls `card` (a whole face), `read_covered` the `under` ones (a strip of face by its index).

The finder keeps outlines as the face pipeline does (`stages.pipeline.Settings`). `--reader`,
`--corner-reader` (`none`: without one) and `--finder` measure other weights (an ONNX file each); the median time of each stage
a photo (one thread, photos scaled to at most 640 pixels as a camera frame is) is printed too.
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
from companion.cards import deck as deck_profile  # noqa: E402
from companion.paths import models_dir  # noqa: E402
from companion.vision.classes import SYMBOLS  # noqa: E402
from companion.vision.outline import OutlineFinder, upright  # noqa: E402
from companion.vision.stages import Face, warp  # noqa: E402
from companion.vision.stages.pipeline import Settings, reader_file  # noqa: E402
from companion.vision.stages.read import Reader  # noqa: E402

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


def labelled_frame(path: Path) -> tuple:
    """A Roboflow photo scaled as a camera frame (`frame`) and its labels in that frame's pixels;
    (None, []) where the photo cannot be read."""
    image = cv2.imread(str(path))
    if image is None:
        return None, []
    h0, w0 = image.shape[:2]
    image = frame(image)
    s = image.shape[1] / w0
    return image, [(sym, c * s) for sym, c in labels_of(path.parent.parent / "labels" / (path.stem + ".txt"), w0, h0)]


def measure(photos: list[Path], finder: OutlineFinder, reader: Reader, corner: float) -> dict:
    found = labelled = unlabelled = outlines_n = 0
    read = collections.Counter()
    seen = collections.Counter()
    confusions = collections.Counter()
    t_find, t_read = [], []
    for k, path in enumerate(photos):
        if k and k % max(1, len(photos) // 10) == 0:
            print(f"  photos: {k}/{len(photos)}", file=sys.stderr, flush=True)
        image, labels = labelled_frame(path)
        if image is None:
            continue
        t = time.perf_counter()
        outs = finder.find(image)
        t_find.append(time.perf_counter() - t)
        labelled += len(labels)
        outlines_n += len(outs)
        owners = [own_label(o.quad, labels, corner) for o in outs]
        found += len({i for i in owners if i is not None})
        unlabelled += sum(i is None for i in owners)
        pairs = [(o, i) for o, i in zip(outs, owners) if i is not None]
        if not pairs:
            continue
        t = time.perf_counter()
        probs = reader.symbols(warp(image, [Face(upright(o.quad), o.cls != "card", o.score) for o, _ in pairs]))
        t_read.append(time.perf_counter() - t)
        for (o, i), p in zip(pairs, probs):
            truth, got = labels[i][0], SYMBOLS[int(p.argmax())]
            kind = "uncovered" if o.cls == "card" else "covered"
            seen[kind] += 1
            read[kind] += got == truth
            if got != truth:
                confusions[f"{truth} -> {got}"] += 1
    share = lambda a, b: round(a / b, 4) if b else None   # noqa: E731
    return {"photos": len(photos), "labelled_cards": labelled, "find_recall": share(found, labelled),
            "outlines": outlines_n, "outlines_unlabelled": unlabelled,
            "read_all": share(read["uncovered"] + read["covered"], seen["uncovered"] + seen["covered"]),
            "read_uncovered": share(read["uncovered"], seen["uncovered"]), "uncovered": seen["uncovered"],
            "read_covered": share(read["covered"], seen["covered"]), "covered": seen["covered"],
            "confusions": dict(confusions.most_common(12)),
            "find_ms": round(1000 * statistics.median(t_find), 1) if t_find else None,
            "read_ms": round(1000 * statistics.median(t_read), 1) if t_read else None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roboflow", required=True, help="the Roboflow UNO folder (its split's images/ and labels/)")
    ap.add_argument("--split", default="valid", choices=["valid", "train"])
    ap.add_argument("--limit", type=int, default=0, help="the first N photos (0: all)")
    ap.add_argument("--finder", default=None, help="an outline finder's ONNX file (default: the shipped one)")
    ap.add_argument("--finder-imgsz", type=int, default=320)
    ap.add_argument("--reader", default=None, help="a card reader's ONNX file (default: the face pipeline's)")
    ap.add_argument("--corner-reader", default=None,
                    help="a corner reader's ONNX file (default: the face pipeline's; none: without one)")
    ap.add_argument("--corner", type=float, default=0.6,
                    help="how near an outline's corner its card's index lies, in short sides")
    a = ap.parse_args(argv)
    folder = Path(a.roboflow) / a.split / "images"
    photos = sorted(p for p in folder.glob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if a.limit:
        photos = photos[:a.limit]
    if not photos:
        ap.error(f"no photos in {folder}")
    md = models_dir()
    settings = Settings()      # the face pipeline's: the find stage as the pipeline runs it
    finder = OutlineFinder(Path(a.finder or md / "outlines.onnx"), a.finder_imgsz, conf=settings.finder_conf,
                           iou=settings.finder_iou)
    meta = json.loads((md / "recognizer.json").read_text())
    corners = a.corner_reader or (md / meta["corner_reader"] if meta.get("corner_reader") else None)
    reader = Reader(Path(a.reader or md / reader_file(meta)), deck_profile("classic").colors,
                    corners=None if str(corners) == "none" else corners)
    res = measure(photos, finder, reader, a.corner)
    print(json.dumps({"split": a.split, "finder": str(a.finder or "shipped"), "reader": str(a.reader or "shipped"),
                      "corner_reader": str(a.corner_reader or "shipped"),
                      **res}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
