"""The card recogniser: a YOLO detector finds corner indices, centre symbols and uncovered card
faces; a small classifier reads each symbol from a square crop; the colour comes from the card's
own pixels. Runs on ONNX Runtime and OpenCV only (no torch on the Pi)::

    r = Recognizer(deck="classic")
    result = r.recognize(cv2.imread("pile.jpg"))
    result.top        # Detection(color='red', symbol='7', confidence=0.93, box=(...)) or None
    result.cards      # every face-up card seen
"""
from __future__ import annotations

import functools
import json
import os
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from ..cards import deck as deck_profile, deck_names
from ..paths import models_dir
from .classes import DETECTOR_CLASSES, SYMBOLS
from .colour import (SKIN_MAX_SAT, balance, colour_shares, illuminant_gains, saturated_hues, skin_most)
from .dataset import crop_square
from .detection import Detection, Recognition
from .outline import CardReader, OutlineFinder, upright
from .runtime import ModelError, letterbox, session, turned_logits
from . import pile_tuning as tuning
from .pile_image import (_at_most, _clipped_share, _sharpness, _sharpened, _reddish, _skin_share, _grown, _patch)
from .pile_parts import (Part, _clusters, _within, _inside, _overlap, _in_quad, _add_unseen)
from .recognizer_grouping import Grouping
from .recognizer_reading import Reading

__all__ = ["Recognizer", "Detection", "Recognition", "Part", "ModelError", "SYMBOLS"]


class Recognizer(Reading, Grouping):
    """Finds every face-up card in a BGR image, and the top card of the pile."""

    outliner: OutlineFinder | None = None       # the outline finder, where models/ ships one
    reader: CardReader | None = None            # the card reader, where models/ ships one

    def __init__(self, deck: str = "classic", *, model_dir: str | os.PathLike | None = None,
                 threads: int = 1, conf: float | None = None):
        if deck not in ("auto", "any", *deck_names()):
            raise ValueError(f"unknown deck {deck!r}; choose any, auto or one of {', '.join(deck_names())}")
        if deck in ("auto", "any"):
            # any deck: every symbol of every profile. "auto": the palette is chosen per image;
            # "any": the classic four colours (the shared scorer's), a themed deck's read as the nearest
            self.palettes = [deck_profile("classic").colors] if deck == "any" else \
                list(dict.fromkeys(deck_profile(name).colors for name in deck_names()))
            allowed = {s for name in deck_names() for s in deck_profile(name).symbols()}
        else:
            prof = deck_profile(deck)
            self.palettes, allowed = [prof.colors], set(prof.symbols())
        # a hand's skin is told from ink by its saturation; a known deck without an orange ink
        # lets it be more saturated (`skin_most`); any deck might print an orange
        self.skin_sat = SKIN_MAX_SAT if deck in ("auto", "any") else skin_most(self.palettes[0])
        self.colors = tuple(dict.fromkeys(c for pal in self.palettes for c in pal))
        folder = Path(model_dir) if model_dir else models_dir()
        meta_path = folder / "recognizer.json"
        if not meta_path.is_file():
            raise ModelError(f"model description missing: {meta_path}")
        try:
            self.meta = json.loads(meta_path.read_text())
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot read {meta_path}: {exc}") from exc
        self.imgsz = int(self.meta.get("imgsz", 320))
        self.conf = conf if conf is not None else float(self.meta.get("conf", 0.3))
        self.card_conf = float(self.meta.get("card_conf", 0.4))
        self.sym_conf = float(self.meta.get("symbol_conf", 0.5))
        self.weak_conf = float(self.meta.get("weak_symbol_conf", 0.4))
        self.turns = self.meta.get("classifier_turns", 1)
        if self.turns not in (1, 2, 3, 4):
            raise ModelError(f"{meta_path}: classifier_turns must be 1, 2, 3 or 4, not {self.turns!r}")
        self.det = session(folder / self.meta.get("detector", "detector.onnx"), threads)
        self.cls = session(folder / self.meta.get("classifier", "classifier.onnx"), threads)
        self.crop = int(self.meta.get("crop", 48))
        # the outline finder (optional): which card no other card covers, by its outline
        name = self.meta.get("outlines")
        self.outliner = None if not name else OutlineFinder(
            folder / name, int(self.meta.get("outlines_imgsz", self.imgsz)), threads=threads,
            conf=float(self.meta.get("outline_conf", 0.3)))
        # the card reader (optional, with the outline finder): a whole card's symbol from its outline
        name = self.meta.get("cardreader")
        self.reader = None if not name or self.outliner is None else CardReader(folder / name, threads=threads)
        self._allowed = np.array([s in allowed for s in SYMBOLS])

    # ------------------------------------------------------------ stages
    def detect(self, image: np.ndarray, fill: float = 1.0) -> list[Part]:
        """The detector's parts in `image`, drawn into its square input (`fill`: the share of the
        input's side the image's longer side takes, the rest grey around it)."""
        h, w = image.shape[:2]
        if h == 0 or w == 0:        # an empty region (a corner of a frame a pixel high)
            return []
        x, s, left, top = letterbox(image, self.imgsz, fill)
        out = self.det.run(None, {self.det.get_inputs()[0].name: x})[0][0]   # (4+nc, N)
        boxes, scores = out[:4].T, out[4:].T
        cls = scores.argmax(1)
        conf = scores.max(1)
        keep = conf >= min(self.conf, self.card_conf)
        parts = []
        for c in range(len(DETECTOR_CLASSES)):
            sel = np.nonzero(keep & (cls == c))[0]
            if len(sel) == 0:
                continue
            b = boxes[sel]
            xywh = np.stack([b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2, b[:, 2], b[:, 3]], 1)
            idx = cv2.dnn.NMSBoxes(xywh.tolist(), conf[sel].tolist(), min(self.conf, self.card_conf), 0.5)
            for i in np.array(idx).reshape(-1):
                bx = b[i]
                x1 = (bx[0] - bx[2] / 2 - left) / s
                y1 = (bx[1] - bx[3] / 2 - top) / s
                x2 = (bx[0] + bx[2] / 2 - left) / s
                y2 = (bx[1] + bx[3] / 2 - top) / s
                box = (max(0.0, x1), max(0.0, y1), min(float(w), x2), min(float(h), y2))
                name = DETECTOR_CLASSES[c]
                if conf[sel[i]] >= (self.card_conf if name == "card" else self.conf):
                    parts.append(Part(name, box, float(conf[sel[i]])))
        return parts

    def detect_zoomed(self, image: np.ndarray, first: list[Part] | None = None) -> list[Part]:
        """`detect`, then again on a close-up of each cluster of small cards: the detector sees
        the whole frame at `imgsz` pixels, where a card far from the camera (or in a wide photo)
        is too small for its indices to show. A close-up brings such a card to the size the
        detector reads best; its parts replace the first look's parts inside the close-up. When
        the whole frame shows nothing, its four corners are looked at first (a card too small
        to be seen at all). `first`: the whole frame's detections, when already made."""
        parts = list(first) if first is not None else self.detect(image)
        h, w = image.shape[:2]
        if not parts:       # nothing at all: maybe cards too small to see; look at each quarter
            th, tw = int(h * tuning.TILE), int(w * tuning.TILE)
            for y1, x1 in ((0, 0), (0, w - tw), (h - th, 0), (h - th, w - tw)):
                _add_unseen(parts, self._detect_in(image, (x1, y1, x1 + tw, y1 + th)))
        side = max(h, w)
        zooms = []
        for region, card in _clusters(parts):
            crop = max(region[2] - region[0], region[3] - region[1], card / tuning.ZOOM_CARD)
            if crop > tuning.ZOOM_MAX * side:       # a close-up would hardly be closer
                continue
            cx, cy = (region[0] + region[2]) / 2, (region[1] + region[3]) / 2
            x1 = int(max(0, min(w - crop, cx - crop / 2)))
            y1 = int(max(0, min(h - crop, cy - crop / 2)))
            zooms.append((x1, y1, int(min(w, x1 + crop)), int(min(h, y1 + crop))))
        for region in zooms[:tuning.MAX_ZOOMS]:
            near = [p for p in self._detect_in(image, region) if _inside(p.centre, region, -0.05)]
            # the close-up's parts replace the first look's inside it; parts cut by its edge stay.
            # A first-look part the close-up did not find again stays too, when the close-up found
            # something (a small card's centre symbol or face, seen at 320 pixels and lost in the
            # close-up's blur); a close-up that finds nothing at all shows no card (a playing
            # card's rank, a pattern on the table)
            old = [p for p in parts if _inside(p.centre, region, -0.05)]
            parts = [p for p in parts if not _inside(p.centre, region, -0.05)] + near
            if near:
                _add_unseen(parts, [p for p in old if not any(
                    q.cls == p.cls and _overlap(q.box, p.box) >= tuning.FOUND_AGAIN for q in near)])
        return parts

    def _detect_in(self, image: np.ndarray, region) -> list[Part]:
        """`detect` on the (x1, y1, x2, y2) part of `image`; boxes in the whole image's pixels."""
        x1, y1, x2, y2 = region
        return [Part(p.cls, (p.box[0] + x1, p.box[1] + y1, p.box[2] + x1, p.box[3] + y1), p.score)
                for p in self.detect(image[y1:y2, x1:x2])]

    def classify(self, image: np.ndarray, parts: list[Part]) -> None:
        sym_parts = [p for p in parts if p.cls != "card"]
        if not sym_parts:
            return
        crops = np.stack([crop_square(image, p.box, self.crop) for p in sym_parts])
        # each crop is read at `turns` quarter turns (one batch), their logits averaged: the
        # classifier learnt symbols at every angle, and a streak or a blur that makes one view of a
        # symbol look like another's (a 0 smeared into a skip's slashed ring) rarely does so in all
        # four. (Averaged probabilities would lower the sure readings the thresholds were set on.)
        logits = np.where(self._allowed[None], turned_logits(self.cls, crops, self.turns), -1e9)
        e = np.exp(logits - logits.max(1, keepdims=True))
        prob = e / e.sum(1, keepdims=True)
        for p, pr in zip(sym_parts, prob):
            k = int(pr.argmax())
            p.symbol, p.p = SYMBOLS[k], float(pr[k])

    @staticmethod
    def face_colour(image: np.ndarray, box, colors, skin: int = SKIN_MAX_SAT) -> tuple[str | None, float, bool]:
        """The colour of an uncovered face, from its middle (a hand's skin left out), and the
        share of the middle's coloured pixels that have it (cards beneath lower it); and whether
        the middle shows three or more of the deck's colours in even shares, as a wild's oval does."""
        shares = colour_shares(saturated_hues(_patch(image, box, 0.6), skin=False, skin_sat=skin),
                               colors)
        k = int(shares.argmax())
        many = bool((shares >= tuning.WILD_SHARE).sum() >= 3 and shares[k] < 0.55)
        return (colors[k], float(shares[k]), many) if shares[k] > 0 else (None, 0.0, False)

    def _middle_readings(self, image: np.ndarray, parts: list[Part]) -> list[Part]:
        """A face in which the detector found no centre symbol has its middle read as one. The
        reading counts only where it names a symbol that one of the face's corner indices shows: it
        decides between the face's own corners and those of a card beneath, inside the upright box
        of a tilted face, when they are as many and as sure. A face found at `ALONE_FACE` with no
        part found inside it (fingers across its centre symbol, a hand over its corners) is read by
        its middle alone, where that reads a symbol at `ALONE_READ`."""
        middles, asks = [], []        # asks: per face, (the symbols its middle may read, how surely)
        for f in (p for p in parts if p.cls == "card"):
            if any(q.cls == "centre" and _inside(q.centre, f.box) for q in parts):
                continue
            symbols = {q.symbol for q in parts
                       if q.cls == "index" and q.symbol != "none" and _within(q, f.box, image.shape)}
            if symbols:
                asks.append((symbols, 0.0))
            elif f.score >= tuning.ALONE_FACE and not any(q.cls != "card" and _within(q, f.box, image.shape) for q in parts):
                asks.append((tuning.ALONE, tuning.ALONE_READ))
            else:
                continue
            cx, cy = f.centre
            for k in tuning.MIDDLE_OF_BOX:
                r = k / 2 * f.size
                middles.append(Part("centre", (cx - r, cy - r, cx + r, cy + r), f.score))
        self.classify(image, middles)
        n = len(tuning.MIDDLE_OF_BOX)
        best = [max(middles[i:i + n], key=lambda m: m.p) for i in range(0, len(middles), n)]
        return [m for m, (symbols, least) in zip(best, asks) if m.symbol in symbols and m.p >= least]

    @staticmethod
    def light_gains(image: np.ndarray, parts: list[Part]) -> np.ndarray:
        """The gains that turn the lamp's light grey (`illuminant_gains`), from the white print
        in the boxes of the detected parts (an index's or a centre's grown to take in its card's
        white). A face's box is taken only where no index or centre is found: a turned card's
        upright box holds the table at its corners, and a lamp's glare there is no white print
        (a yellow 2 beside a glare on green felt, pile 9,811,098: the glare's green-white taken
        for the light turned the card's cool white blue, and the card was read blue). Colours
        are read from the image balanced with them."""
        symbols = [p for p in parts if p.cls != "card"]
        return illuminant_gains(image, [_grown(p.box, 1.0 if p.cls == "card" else 1.5) for p in symbols or parts])

    @staticmethod
    def part_hues(image: np.ndarray, p: Part, skin: int = SKIN_MAX_SAT) -> np.ndarray | None:
        """The saturated hues around a symbol: from a tight patch (a wider one takes in a hand,
        the table or the card beneath), else from a wider one (an index on the thin strip that a
        fanned card leaves uncovered). Where a hand's skin fills `PART_SKIN` or more of an index's
        tight patch (a finger beside the corner), the skin is left out where that leaves fewer red
        and orange hues (`_reddish`): a dark hand's shaded skin passes for a red ink (a shaded
        yellow has skin's hues too: left out, it would leave a red). `skin`: the saturation skin
        stays under (`Recognizer.skin_sat`)."""
        tight, wide = tuning._GROW[p.cls]
        patch = _patch(image, p.box, tight)
        h = saturated_hues(patch)
        if h is not None and p.cls == "index" and _skin_share(patch, skin) >= tuning.PART_SKIN:
            bare = saturated_hues(patch, skin=False, skin_sat=skin)
            h = bare if bare is not None and _reddish(bare) < _reddish(h) else h
        return h if h is not None else saturated_hues(_patch(image, p.box, wide))

    # ------------------------------------------------------------ whole pipeline
    def recognize(self, image: np.ndarray, roi: tuple | None = None) -> Recognition:
        """Every face-up card in `image` (BGR), and the top card; `roi` = (x1, y1, x2, y2) pile area."""
        if image is None or image.ndim != 3:
            raise ValueError("recognize() needs a BGR colour image")
        ox = oy = 0
        if roi is not None:
            x1, y1, x2, y2 = (int(v) for v in roi)
            image, ox, oy = image[y1:y2, x1:x2], x1, y1
        first = self.detect(image)
        gains = self.light_gains(image, first)
        if gains.max() >= tuning.RELOOK_GAIN:
            # a strongly coloured lamp (a warm bulb): the detector learnt under whiter light, so
            # the frame is looked at again as under grey light, and close up only so
            image = balance(image, gains)
            first = None
        if first is None:
            first = self.detect(image)
        dark = None
        if _clipped_share(image) >= tuning.BRIGHT_SHARE:
            # an overexposed frame: a pale card's white index on its washed-out ink shows too little
            # contrast; the frame is looked at again darkened (a gamma curve: contrast moved into
            # the highlights) and the symbols are read from it (their colours from the frame)
            dark = cv2.LUT(image, tuning.DARKEN)
            _add_unseen(first, self.detect(dark))
        small, s = _at_most(image, tuning.SOFT_SIDE)
        if _sharpness(small) < tuning.SOFT:
            # an out-of-focus (or shaken) frame: a faint index's edges are too soft for the
            # detector; the frame is looked at again sharpened (an unsharp mask, at the
            # detector's scale)
            _add_unseen(first, [replace(p, box=tuple(v / s for v in p.box)) for p in self.detect(_sharpened(small))])
        parts = self.detect_zoomed(image, first)
        # the outline finder runs only where a reading asks for it (`_read`), once a frame: not on
        # a lone card read surely
        outlines = None if self.outliner is None else functools.cache(functools.partial(self.outliner.find, image))
        found = self._read(image, parts, ox, oy, dark, outlines)
        uncovered = [] if found.top is not None or outlines is None else [
            upright(o.quad) for o in outlines() if o.cls == "card" and o.score >= tuning.TURNED_LOOK]
        if uncovered:
            # no top card read where the outline finder sees an uncovered card (one under hands, a
            # few of its parts found): the frame is looked at again turned half a turn, where the
            # detector's grid falls elsewhere on the card and finds parts the first look missed;
            # they join the first look's, and the frame is read again. Its top card counts only
            # inside such an outline (a table's dots, a playing card's ranks, found again turned,
            # lie in none)
            h, w = image.shape[:2]
            more = list(parts)
            _add_unseen(more, [replace(p, box=(w - p.box[2], h - p.box[3], w - p.box[0], h - p.box[1]))
                               for p in self.detect_zoomed(cv2.rotate(image, cv2.ROTATE_180))])
            if len(more) > len(parts):
                again = self._read(image, more, ox, oy, dark, outlines)
                if again.top is not None and any(_in_quad(again.top, q, ox, oy) for q in uncovered):
                    found = again
        if not found.cards:
            # nothing read: maybe a card too close to the camera, larger than the detector saw
            # cards in training (a phone held over it); the frame is looked at again shrunk. A
            # card so close shows its centre symbol large: a card read so counts only when its
            # centre symbol is read as its symbol (a playing card's rank, a pattern on a table
            # shrunk to an index's size is read as one alone)
            far = self._zoomed_out(image)
            if far:
                again = self._read(image, far, ox, oy)
                sure = [d for d in again.cards if any(
                    p.cls == "centre" and p.symbol == d.symbol and p.p >= self.weak_conf
                    and _inside((p.centre[0] + ox, p.centre[1] + oy), d.box) for p in again.parts)]
                if sure:
                    top = again.top if again.top in sure else max(sure, key=lambda d: d.confidence)
                    return Recognition(sure, top, again.parts)
        return found

    def _zoomed_out(self, image: np.ndarray) -> list[Part]:
        """The parts found in `image` drawn smaller inside the detector's input, at each of
        `ZOOM_OUT` (a part found at two sizes counts once, the surer)."""
        parts: list[Part] = []
        _add_unseen(parts, sorted((p for fill in tuning.ZOOM_OUT for p in self.detect(image, fill)), key=lambda p: -p.score))
        return parts
