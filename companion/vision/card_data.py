"""The face reader's data: every face-up card of a synthetic scene cut out upright as the finder
would find it (`jittered_rect`), named by its symbol, and rectangles holding no face-up card
("none"); `python -m companion.vision.dataset cards` writes it. A card the frame cuts is cut out
as much of it as is in view, turned as the warp stage turns it (`outline.card_crop`: the part in
view's own long side up, which is the card's short side where the middle of a card held close to
the lens fills the frame), so that the reader learns the crops it will be given."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .dataset import _check_kinds, _scene_size, _write_rows, labelled_outlines
from .outline import OutlineFinder, card_crop, quad_iou, quad_overlap
from .synth import make_scene


def jittered_rect(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The turned rectangle round `quad` as the outline finder might find it: its middle moved by
    about 4% of the card's width, each side 7% shorter to 8% longer, turned by about 3 degrees."""
    (cx, cy), (a, b), ang = cv2.minAreaRect(np.float32(quad))
    s = min(a, b)
    cx, cy = cx + rng.normal(0, 0.04) * s, cy + rng.normal(0, 0.04) * s
    a, b = a * rng.uniform(0.93, 1.08), b * rng.uniform(0.93, 1.08)
    return cv2.boxPoints(((cx, cy), (a, b), ang + rng.normal(0, 3))).astype(np.float32)


# a card reader's crop counts the card's corner indices seen this much (`make_scene`'s min_index;
# its row's "parts": the most of any one seen, a centre symbol counting from 0.7)
CARD_PART = 0.3


# a finder's outline names the labelled card it overlaps this much; one overlapping every card less
# than FINDER_NONE is a "none" crop (it holds no face-up card), and one between is left out
FINDER_MATCH, FINDER_NONE = 0.5, 0.15
_finders: dict = {}


def _faces(path: str, image: np.ndarray) -> list:
    """The outlines of faces found in `image` by `path`: an outline network's .onnx (its index
    boxes left out), or a model folder, whose find and fit stages outline them as the recogniser
    does before it cuts them out."""
    if path not in _finders:
        if Path(path).is_dir():
            from .recognizer import Recognizer
            rec = Recognizer("any", model_dir=path)
            _finders[path] = lambda im: [f.quad for f in rec.outline(im).faces]
        else:
            net = OutlineFinder(Path(path))
            _finders[path] = lambda im: [o.quad for o in net.find(im) if o.cls != "index"]
    return _finders[path](image)


def _card_row(name: str, sc, o, cls: str, seed: int, src: str) -> dict:
    return {"file": name, "symbol": o.card.symbol, "color": o.card.color, "cls": cls, "seed": seed,
            "seen": o.seen, "covered": o.covered, "deck": sc.deck, "src": src,
            "parts": max([lab.visible for lab in sc.labels if lab.card is o.card and lab.cls != "card"],
                         default=0.0)}


def _write_cards(args):
    seed, out, kinds, fonts, shapes, themed, hands, favour, finder, heights, tilt, sunburst, cut_labels = args
    kind = kinds[seed % len(kinds)] if kinds else None
    sc = make_scene(seed, size=_scene_size(seed), kind=kind, fonts=fonts, shapes=shapes, themed=themed, hands=hands,
                    min_index=CARD_PART, favour=favour, heights=heights, tilt=tilt, sunburst=sunburst,
                    cut_labels=cut_labels)
    h, w = sc.image.shape[:2]
    rng = np.random.default_rng(seed + 31)
    rows = []
    labelled = labelled_outlines(sc.outlines, w, h)
    for k, (o, cls, quad) in enumerate(labelled):
        name = f"s{seed:08d}_{k}.png"
        cv2.imwrite(str(out / name), card_crop(sc.image, jittered_rect(quad, rng)))
        rows.append(_card_row(name, sc, o, cls, seed, "truth"))
    if finder:
        # the finder's own outlines, rough as they come: each names the card it overlaps most
        for k, f in enumerate(_faces(finder, sc.image)):
            ious = [quad_iou(f, quad) for _, _, quad in labelled]
            best = int(np.argmax(ious)) if ious else -1
            name = f"s{seed:08d}_f{k}.png"
            if best >= 0 and ious[best] >= FINDER_MATCH:
                o, cls, _ = labelled[best]
                rows.append(_card_row(name, sc, o, cls, seed, "finder"))
            elif all(quad_iou(f, np.float32(o.quad)) < FINDER_NONE for o in sc.outlines):
                rows.append({"file": name, "symbol": "none", "color": None, "cls": "none", "seed": seed,
                             "deck": sc.deck, "src": "finder"})
            else:
                continue
            cv2.imwrite(str(out / name), card_crop(sc.image, f))
    # a turned rectangle of a card's size that holds no face-up card: the table, a back, a hand
    side = min(w, h) * rng.uniform(0.18, 0.75)
    box = ((rng.uniform(0, w), rng.uniform(0, h)), (side * 0.64, side), rng.uniform(0, 180))
    neg = cv2.boxPoints(box).astype(np.float32)
    area = side * side * 0.64
    if all(quad_overlap(neg, o.quad) < 0.1 * area
           for o in sc.outlines):
        name = f"s{seed:08d}_n.png"
        cv2.imwrite(str(out / name), card_crop(sc.image, neg))
        rows.append({"file": name, "symbol": "none", "color": None, "cls": "none", "seed": seed, "deck": sc.deck,
                     "src": "random"})
    return rows


def write_cards(out: Path, count: int, first_seed: int, procs: int = 2, kinds: tuple = (), fonts: tuple = (),
                shapes: tuple = (), themed: float = 0.0, hands: float | None = None, favour: tuple = (),
                finder: str | None = None, heights: tuple = (0.18, 0.75), tilt: float = 0.0,
                sunburst: float = 0.0, cut_labels: bool = False) -> Path:
    """The card reader's crops (`outline.card_crop`) of `count` scenes: every face-up card's outline
    the finder is taught (`labelled_outlines`), as the finder might find it (`jittered_rect`), with
    its symbol, and one rectangle holding no face-up card ("none"); ``kinds``, ``fonts``,
    ``shapes``, ``themed``, ``hands`` and ``favour`` as for `write_crops`. With ``finder`` (an
    outline network's .onnx, or a model folder: its find and fit stages) also every face outline
    found, named by the card it overlaps (`FINDER_MATCH`) or "none". ``heights``: a card's height as a share of the frame's (above 1: a
    card held close to the lens, cut by the frame, its crop the part in view); ``tilt``: the camera leans up to
    this many degrees (a face seen at a slant, cut out by the turned rectangle round it as the finder
    finds it); ``sunburst``: the share of decks in the sunburst print; ``cut_labels``: a centre symbol the
    frame's edge cuts names its card from 45% in view (`synth.CUT_CENTRE`), as the benchmark counts
    it, where otherwise such a face, its indices out of the frame, is left out. Returns cards.json."""
    kinds = _check_kinds(kinds)
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    finder = str(Path(finder).resolve()) if finder else None
    jobs = [(first_seed + i, out, kinds, tuple(fonts), tuple(shapes), themed, hands, tuple(favour), finder,
             tuple(heights), float(tilt), float(sunburst), bool(cut_labels)) for i in range(count)]
    return _write_rows(_write_cards, jobs, procs, out / "cards.json")
