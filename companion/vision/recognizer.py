"""The card recogniser: a YOLO detector finds corner indices, centre symbols and uncovered card
faces; a small classifier reads each symbol from a square crop; the colour comes from the card's
own pixels. Runs on ONNX Runtime and OpenCV only (no torch on the Pi)::

    r = Recognizer(deck="classic")
    result = r.recognize(cv2.imread("pile.jpg"))
    result.top        # Detection(color='red', symbol='7', confidence=0.93, box=(...)) or None
    result.cards      # every face-up card seen
"""
from __future__ import annotations

import collections
import functools
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from ..cards import deck as deck_profile, deck_names, kinds
from ..paths import models_dir
from .classes import DETECTOR_CLASSES, SYMBOLS
from .colour import (SKIN_MAX_SAT, balance, colour_of_hues, colour_shares, illuminant_gains, palette_misfit,
                     saturated_hues, skin_like, skin_most, white_balance)
from .dataset import crop_square
from .detection import Detection, Recognition
from .outline import CardReader, OutlineFinder, edge_across, quad_iou, quad_overlap, upright
from .runtime import ModelError, letterbox, session, turned_logits


@dataclass
class Part:
    cls: str
    box: tuple
    score: float
    symbol: str = "none"
    p: float = 0.0
    color: str | None = None  # a face: its middle's colour, or WILD_FACE for a wild's oval
    share: float = 0.0        # a face: the share of its middle's coloured pixels that have `color`

    @property
    def centre(self):
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    @property
    def size(self):
        return max(self.box[2] - self.box[0], self.box[3] - self.box[1])


class Recognizer:
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
            th, tw = int(h * TILE), int(w * TILE)
            for y1, x1 in ((0, 0), (0, w - tw), (h - th, 0), (h - th, w - tw)):
                _add_unseen(parts, self._detect_in(image, (x1, y1, x1 + tw, y1 + th)))
        side = max(h, w)
        zooms = []
        for region, card in _clusters(parts):
            crop = max(region[2] - region[0], region[3] - region[1], card / ZOOM_CARD)
            if crop > ZOOM_MAX * side:       # a close-up would hardly be closer
                continue
            cx, cy = (region[0] + region[2]) / 2, (region[1] + region[3]) / 2
            x1 = int(max(0, min(w - crop, cx - crop / 2)))
            y1 = int(max(0, min(h - crop, cy - crop / 2)))
            zooms.append((x1, y1, int(min(w, x1 + crop)), int(min(h, y1 + crop))))
        for region in zooms[:MAX_ZOOMS]:
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
                    q.cls == p.cls and _overlap(q.box, p.box) >= FOUND_AGAIN for q in near)])
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
        many = bool((shares >= WILD_SHARE).sum() >= 3 and shares[k] < 0.55)
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
            elif f.score >= ALONE_FACE and not any(q.cls != "card" and _within(q, f.box, image.shape) for q in parts):
                asks.append((ALONE, ALONE_READ))
            else:
                continue
            cx, cy = f.centre
            for k in MIDDLE_OF_BOX:
                r = k / 2 * f.size
                middles.append(Part("centre", (cx - r, cy - r, cx + r, cy + r), f.score))
        self.classify(image, middles)
        n = len(MIDDLE_OF_BOX)
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
        tight, wide = _GROW[p.cls]
        patch = _patch(image, p.box, tight)
        h = saturated_hues(patch)
        if h is not None and p.cls == "index" and _skin_share(patch, skin) >= PART_SKIN:
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
        if gains.max() >= RELOOK_GAIN:
            # a strongly coloured lamp (a warm bulb): the detector learnt under whiter light, so
            # the frame is looked at again as under grey light, and close up only so
            image = balance(image, gains)
            first = None
        if first is None:
            first = self.detect(image)
        dark = None
        if _clipped_share(image) >= BRIGHT_SHARE:
            # an overexposed frame: a pale card's white index on its washed-out ink shows too little
            # contrast; the frame is looked at again darkened (a gamma curve: contrast moved into
            # the highlights) and the symbols are read from it (their colours from the frame)
            dark = cv2.LUT(image, DARKEN)
            _add_unseen(first, self.detect(dark))
        small, s = _at_most(image, SOFT_SIDE)
        if _sharpness(small) < SOFT:
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
            upright(o.quad) for o in outlines() if o.cls == "card" and o.score >= TURNED_LOOK]
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
        _add_unseen(parts, sorted((p for fill in ZOOM_OUT for p in self.detect(image, fill)), key=lambda p: -p.score))
        return parts

    def _read(self, image: np.ndarray, parts: list[Part], ox: int, oy: int,
              dark: np.ndarray | None = None, outlines=None) -> Recognition:
        """The cards the detector's `parts` show (boxes moved by `ox`, `oy`: the region of interest);
        `dark`: the frame darkened, when overexposed, from which the classifier reads the symbols;
        `outlines`: finds the outline finder's outlines in `image`, called only where two or more
        cards are read (which is on top, `_top_by_outline`), the top card is read unsurely
        (`_reread`) or none is (`_read_outline`)."""
        parts = [p for p in parts if not (p.cls == "index" and _giant(p, image.shape))]
        grey = balance(image, self.light_gains(image, parts))
        source = image if dark is None else dark
        self.classify(source, parts)
        parts += self._middle_readings(image, parts)
        # a reading the classifier is sure of stands alone; a weaker one (an odd font, a small or
        # blurred print) only counts inside an uncovered face, where the face's other parts must
        # agree with it, or beside a sure index (a fan)
        syms = _dedupe([p for p in parts if p.cls != "card" and p.symbol != "none" and p.p >= self.weak_conf])
        image = grey                        # colours are read under grey light
        colors = self._read_colours(image, syms)
        faces = sorted((p for p in parts if p.cls == "card"), key=lambda p: -p.score)
        faint = [p for p in parts if p.cls == "centre" and p.symbol != "none" and FAINT_CENTRE <= p.p < self.weak_conf]
        faint_index = [p for p in parts if p.cls == "index" and p.symbol != "none" and FAINT_INDEX <= p.p < self.weak_conf]
        groups = self._group_faces(image, faces, syms, colors, faint, faint_index)
        self._group_rest(image, syms, groups, colors)
        cards, faced, loose = [], [], []
        for face, members in groups:
            det = self._decide(image, face, members, colors)
            if det is None:
                continue
            if face is not None and _fills_frame(face, image.shape) and not any(
                    p.cls == "index" and p.symbol == det.symbol and p.p >= self.sym_conf for p in members):
                continue    # a cloth of a card's colour, a shape on it read as a centre symbol
            det = Detection(det.color, det.symbol, det.confidence,
                            tuple(v + o for v, o in zip(det.box, (ox, oy, ox, oy))))
            if face is not None and any((d.color, d.symbol) == (det.color, det.symbol)
                                        and _overlap(d.box, det.box) >= ONE_FACE for _, _, d in faced):
                continue    # one card's face found twice (a hand across it splits it in two)
            cards.append(det)
            if face is None:
                loose.append((det, members))
            else:
                # its card's parts: those showing its symbol inside its box (another face's group
                # may have taken its centre symbol)
                faced.append((face, [p for p in syms if p.symbol == det.symbol and _within(p, face.box, image.shape)],
                              det))
        read = [(det, members) for _, members, det in faced] + loose      # every card read, with its parts
        if faced:
            top = _uppermost(image, faced, [p for p in parts if p.cls != "card"], colors, self.skin_sat, faceless=loose)
            if outlines is not None and len(read) > 1:
                top = _top_by_outline(top, read, outlines())
                top = _top_by_overlap(source, top, read, outlines())
        else:         # no uncovered face read: the surest card, one with a part inside a face's box first
            top = max(loose, key=lambda dm: (_in_a_face(dm[1], faces, image.shape), dm[0].confidence))[0] \
                if loose else None
            # hands over every face: the outline finder can still see which card lies uncovered
            # (pile 9,430,514: a blue 8's one corner under two hands, over a green 4 read surer)
            if top is not None and outlines is not None and len(read) > 1:
                top = _top_by_outline(top, read, outlines())
                top = _top_by_overlap(source, top, read, outlines())
        if top is not None and outlines is not None and top.confidence < REREAD_BELOW:
            again = self._reread(source, image, top, read, outlines(), colors, ox, oy)
            if again is not None:
                cards[cards.index(top)] = top = again
        if top is None and outlines is not None:
            top = self._read_outline(source, image, outlines(), colors, ox, oy)
            if top is not None:
                cards.append(top)
        if self.reader is not None and outlines is not None:
            again = self._read_card(source, image, top, read, outlines(), colors, ox, oy, parts)
            if again is not None:
                if top is not None and not any(d is again for d in cards):
                    cards[cards.index(top)] = again
                elif top is None:
                    cards.append(again)
                top = again
        return Recognition(cards, top, parts)

    def _read_card(self, source: np.ndarray, image: np.ndarray, top: Detection | None, cards: list, outlines: list,
                   colors, ox: int, oy: int, parts: list[Part]) -> Detection | None:
        """The top card as the card reader (`outline.CardReader`) reads the outlines the finder
        calls uncovered (`READER_OUTLINE`). The reading stands where the surest one holds a top card
        read at `READER_KEEP` or has one of its parts `SHOWN_DEPTH` inside (its corners, and a centre
        read at `symbol_conf`; the reader is not asked), and where the surest one does not read
        another symbol surely (`READER_SURE`). It stands too where another one holds the top card's
        parts (`_held`) and reads its symbol, unless the surest one lies on the pile and that one
        beside it (`_on_pile`). Otherwise a card read with
        the surest one's symbol whose parts it holds is on top; where none is, the outline's card,
        in the colour whose ink covers most of it (at least `OUTLINE_INK`; a wild: no colour). None
        where the reading stands. A reading under `READER_SURE` (from `READER_AGREE`), or where no
        card is read an outline found from `AGREE_OUTLINE`, counts where a centre symbol the
        detector found at the outline's middle (one of `parts`, read from `FAINT_CENTRE`) reads the
        same, unless a card read shows it as its own. A reading from `SPOT_AGREE_READER` on an
        outline found from `SPOT_AGREE_OUTLINE` counts, and an outline little of which is inked (a
        hand over most of it) is coloured, where one of its corner index spots reads the same
        (`_vouch`): where no card is read, and where the outline does not hold the top card read or
        holds one read under `REREAD_BELOW`, unless the reader reads the top card's symbol surely on
        another outline (`_read_elsewhere`). Where a top card is read and no outline is found from
        `READER_OUTLINE`, the surest one found from `HELD_OUTLINE` names only a card read with the
        symbol it reads at `READER_SURE` whose parts it holds, or one a spot vouches for."""
        least = READER_OUTLINE if top is not None else min(AGREE_OUTLINE, SPOT_AGREE_OUTLINE)
        found = [o for o in outlines if o.cls == "card" and o.score >= least]
        weak = not found and top is not None
        if weak:            # no outline found surely: the surest one found from HELD_OUTLINE may still
            #                 name a card read elsewhere in the frame (below)
            found = [o for o in outlines if o.cls == "card" and o.score >= HELD_OUTLINE]
        if not found:
            return None
        o = found[0]
        quad = upright(o.quad)
        mine = next((m for d, m in cards if d is top), [])
        if top is not None and top.confidence >= READER_KEEP:
            # (a centre symbol read weakly does not count: another card's centre misread as the top
            # card's symbol lies inside that card's outline, pile 9,910,226; a weak corner does, 9,580,834)
            kept = [p for p in mine if p.cls == "index" or p.p >= self.sym_conf]
            if _held(quad, kept) or any(_covers(p, quad, np.float32(p.centre), SHOWN_DEPTH) for p in kept):
                return None  # the surest outline holds a top card read surely (the reader misreads rough
                #              outlines), or a part of it lies inside: the top card lies over the outline's
        probs = self.reader.read(source, [f.quad for f in found]) * self._allowed
        symbols = [SYMBOLS[k] for k in probs.argmax(1)]
        symbol, q = symbols[0], float(probs[0].max())
        if symbol == "none" or (top is not None and top.symbol == symbol):
            return None
        sure = q >= READER_SURE and (weak or o.score >= READER_OUTLINE)
        # a corner index the classifier reads as the reader does vouches for it (its spots are read
        # once, and only where asked): where no card is read (not a wild: a card back's black face
        # and a playing card's picture are read as one), or where the outline does not hold the top
        # card read, or holds one read unsurely (`REREAD_BELOW`)
        wild = kinds()[symbol].wild
        agreeing = q >= SPOT_AGREE_READER and o.score >= SPOT_AGREE_OUTLINE and (
            not wild if top is None else top.confidence < REREAD_BELOW or not _held(quad, mine))
        spot_least = SPOT_AGREE if top is None else SPOT_OVER
        vouched = functools.cache(lambda: self._vouch(source, image, o, symbol, colors, spot_least)
                                  if agreeing else (False, None))
        by_spot = (not sure or weak) and vouched()[0] and (
            top is None or not self._read_elsewhere(source, o, top.symbol, outlines))
        sure = sure or by_spot
        if not sure and (weak or o.score < AGREE_OUTLINE
                         or not (q >= READER_AGREE and _held(quad, _unclaimed_centres(parts, cards, symbol)))):
            return None
        # (where a spot vouches, an outline the reader reads as the top card's only weakly does not
        # count: pile 9,921,072, found at 0.42 and read at 0.28)
        ours = next((f for f, sym, pr in zip(found, symbols, probs) if top is not None and sym == top.symbol
                     and _held(upright(f.quad), mine) and (not by_spot or pr.max() >= SPOT_AGREE_READER)), None)
        if ours is not None and not _on_pile(quad, upright(ours.quad), [
                upright(u.quad) for u in outlines if u.cls == "under" and u.score >= UNDER_SURE]):
            return None      # an uncovered outline holds the top card, and the reader reads it so
            #                  (unless the surest one lies on the pile and that one beside it)
        held = [d for d, m in cards if d.symbol == symbol and _held(quad, m)]
        if held:
            return max(held, key=lambda d: d.confidence)
        if weak and not by_spot:            # an outline found so unsurely names only a card read
            return None
        colour = vouched()[1] if by_spot else None
        if colour is None and not wild:
            inks = {c: _ink_share(image, quad, c, colors, self.skin_sat) for c in colors}
            colour = max(inks, key=inks.get)
            if inks[colour] < OUTLINE_INK:
                colour = vouched()[1]      # little of the outline shows (a hand over most of it)
                if colour is None:
                    return None
        (x1, y1), (x2, y2) = np.maximum(quad.min(0), 0), np.minimum(quad.max(0), image.shape[1::-1])
        return Detection(colour, symbol, float(o.score * q), (float(x1) + ox, float(y1) + oy, float(x2) + ox, float(y2) + oy))

    def _reread(self, source: np.ndarray, image: np.ndarray, top: Detection, cards: list, outlines: list,
                colors, ox: int, oy: int) -> Detection | None:
        """A top card read unsurely (`REREAD_BELOW`), read again where the outline finder sees it
        uncovered: where exactly one outline found surely as `card` (`OUTLINE_SURE`) holds its parts
        (`_held`), that outline's reading (`_outline_reading`) stands for it when it is another
        card read more surely, and of another symbol only when read more surely than the top card's
        parts read theirs (`_sureness`). None where the reading stands."""
        mine = next((m for d, m in cards if d is top), [])
        held = [o for o in outlines if o.cls == "card" and o.score >= OUTLINE_SURE and _held(upright(o.quad), mine)]
        if len(held) != 1:
            return None
        again = self._outline_reading(source, image, held[0], colors, ox, oy)
        if again is None or (again.color, again.symbol) == (top.color, top.symbol) or again.confidence <= top.confidence:
            return None
        if again.symbol != top.symbol and _sureness(mine, top.symbol) >= again.confidence:
            return None      # read unsurely for its colour alone: its symbol stands (pile 9,880,252, a
            #                  blue draw two whose corners, read at 0.97, showed red and blue, read again
            #                  as a 4 by one spot at 0.82)
        return again

    def _read_outline(self, source: np.ndarray, image: np.ndarray, outlines: list, colors, ox: int,
                      oy: int) -> Detection | None:
        """A card no part of which the detector found, read where the outline finder sees an
        uncovered card (`OUTLINE_READ`): the classifier reads the four spots where its corner
        indices are printed and its middle (from `source`), and the symbol read surely
        (`OUTLINE_READ_P`; an index spot `OUTLINE_READ_P_SURE` on an outline found at
        `READ_SURE_OUTLINE`) most often wins, in the colour its readings show (from `image`, under
        grey light). None where no spot reads a symbol so surely."""
        for o in outlines:
            if o.cls == "card" and o.score >= OUTLINE_READ:
                found = self._outline_reading(source, image, o, colors, ox, oy)
                if found is not None:
                    return found
        return None

    def _read_elsewhere(self, source: np.ndarray, o, symbol: str, outlines: list) -> bool:
        """Does the card reader read `symbol` at `READER_SURE` on an outline other than `o` the finder
        calls uncovered (found from `HELD_OUTLINE`)? Where the top card read shows so an outline of
        its own, a spot does not vouch for another card over it (fresh pile 8,071,145: a yellow 7
        read at 0.87, its own outline read 7 at 0.97; the blue 4 under it, its outline called
        uncovered and read 4 at 0.66, a corner spot 4 at 1.0, was read on top)."""
        others = [u for u in outlines if u.cls == "card" and u is not o and u.score >= HELD_OUTLINE]
        if not others:
            return False
        probs = self.reader.read(source, [u.quad for u in others]) * self._allowed
        return any(SYMBOLS[k] == symbol and float(p.max()) >= READER_SURE for k, p in zip(probs.argmax(1), probs))

    def _vouch(self, source: np.ndarray, image: np.ndarray, o, symbol: str, colors, least: float) -> tuple[bool, str | None]:
        """Does a corner index spot of outline `o` the classifier reads as `symbol` at `least`
        vouch for the card, and in what colour: a wild's, where one reads so (no colour); a coloured
        card's, where its colour's ink covers `SPOT_INK` of what no hand covers round the spot
        (under grey light; an UNO card prints its corner indices on its colour's ink, a playing card
        on white paper), in the colour most such spots show. (False, None) where none vouches."""
        votes = collections.Counter()
        for p in self._spot_readings(source, o):
            if p.cls != "index" or p.symbol != symbol or p.p < least:
                continue
            if kinds()[symbol].wild:
                return True, None
            colour, share = _bare_ink(_patch(image, p.box, 1.0), colors, self.skin_sat)
            if colour is not None and share >= SPOT_INK:
                votes[colour] += p.p
        return (True, max(votes, key=votes.get)) if votes else (False, None)

    def _spot_readings(self, source: np.ndarray, o) -> list[Part]:
        """What the classifier reads where the card of outline `o` prints its four corner indices
        and its middle (`INDEX_SIDE`, `CENTRE_SIDE` of its width), each spot's surest symbol of
        nine places round it (`SPOT_SHIFT`): the outline is a few hundredths of a width out."""
        quad = upright(o.quad)
        w = _width(quad)
        spots = [("index", pt, INDEX_SIDE * w) for pt in _index_spots(quad)] + [("centre", quad.mean(0), CENTRE_SIDE * w)]
        shifts = [np.float32([dx, dy]) * SPOT_SHIFT * w for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        tried = [Part(cls, (pt[0] + d[0] - r / 2, pt[1] + d[1] - r / 2, pt[0] + d[0] + r / 2, pt[1] + d[1] + r / 2), o.score)
                 for cls, pt, r in spots for d in shifts]
        self.classify(source, tried)
        return [max(tried[k:k + len(shifts)], key=lambda p: p.p if p.symbol != "none" else 0.0)
                for k in range(0, len(tried), len(shifts))]

    def _outline_reading(self, source: np.ndarray, image: np.ndarray, o, colors, ox: int,
                         oy: int) -> Detection | None:
        """The card outline `o` shows, read at its index spots and middle (`_read_outline`); None
        where no spot reads a symbol surely, a wild, or an outline not inked in the colour read."""
        quad = upright(o.quad)
        parts = self._spot_readings(source, o)
        index_least = OUTLINE_READ_P_SURE if o.score >= READ_SURE_OUTLINE else OUTLINE_READ_P
        sure = [p for p in parts if p.symbol != "none" and p.p >= (index_least if p.cls == "index" else OUTLINE_READ_P)]
        if not sure:
            return None
        votes = collections.Counter()
        for p in sure:
            votes[p.symbol] += p.p
        symbol = max(votes, key=votes.get)
        if kinds()[symbol].wild:
            return None      # a wild's black face shows no colour to vouch for it (`OUTLINE_INK`)
        mine = [p for p in sure if p.symbol == symbol]
        # a hand over the card is why its parts were not found: its skin is left out
        cvotes = collections.Counter(colour_of_hues(saturated_hues(_patch(image, p.box, 1.0), skin=False,
                                                                   skin_sat=self.skin_sat), colors)[0]
                                     for p in mine)
        cvotes.pop(None, None)
        if not cvotes:
            return None
        colour = max(cvotes, key=cvotes.get)
        if _ink_share(image, quad, colour, colors, self.skin_sat) < OUTLINE_INK:
            return None      # a card not inked in its colour: a playing card's rank
        (x1, y1), (x2, y2) = np.maximum(quad.min(0), 0), np.minimum(quad.max(0), image.shape[1::-1])
        box = (float(x1) + ox, float(y1) + oy, float(x2) + ox, float(y2) + oy)
        # as sure as its surest spot, times the share of the spots read in its colour (as `_decide`
        # weighs a card's colour votes: pile 9,870,468, a purple 5 read at 0.5, one corner by a
        # finger read orange, was read again as an orange 5 at 0.89 by a tie of one spot each)
        sure_of = o.score * max(p.p for p in mine) * cvotes[colour] / sum(cvotes.values())
        return Detection(colour, symbol, float(sure_of), box)

    def _read_colours(self, image, syms: list[Part]) -> tuple:
        """Read each coloured part's colour; returns the palette the image's deck uses."""
        coloured = [p for p in syms if not kinds()[p.symbol].wild]
        hues = [self.part_hues(image, p, self.skin_sat) for p in coloured]
        if len(self.palettes) == 1:          # the deck is known (a game)
            for p, h in zip(coloured, hues):
                p.color = colour_of_hues(h, self.colors)[0]
            return self.colors
        # any deck: one deck per table, so the palette the readings' hues fit best (a red at hue 4
        # fits the classic red better than the Seinfeld orange); the classic deck is the likelier
        # one, so another palette must fit clearly better. Each part's hues are taken once.
        misfit = np.zeros(len(self.palettes), np.float32)
        for h in hues:
            m = palette_misfit(h, self.palettes)
            if m is not None:
                misfit += m
        misfit[0] -= CLASSIC_PRIOR
        colors = self.palettes[int(np.argmin(misfit))]
        for p, h in zip(coloured, hues):
            p.color = colour_of_hues(h, colors)[0]
        return colors

    def _group_faces(self, image, faces: list[Part], syms: list[Part], colors, faint: list[Part] = (),
                     faint_index: list[Part] = ()) -> list:
        """(face, its parts) for each uncovered face that shows a readable symbol; a face whose
        symbol shows only in coloured corners none of which is printed on ink (`_uno_print`) is a
        playing card's, and so is one whose symbol shows only in corners of a playing card's red
        found under `RED_LONE_SCORE` and not ringed by their colour (`RED_RING_SURE`), unless the
        face is found at `RED_FACE_SURE`. A wild draw
        four needs its centre's four colours (`_four_coloured`) or a corner read surely: white
        papers overlapping are read as its four cards. `faint`: centre symbols read too unsurely to
        vote, which may still show that a card's two corners inside a face are a card's beneath
        (`_beneath`); `faint_index`: corner indices read too unsurely to vote (from `FAINT_INDEX`),
        one of which, showing the symbol of a face's one weak reading, vouches for it."""
        groups: list[tuple[Part | None, list[Part]]] = []
        used: set[int] = set()
        # each face's middle is read once (`face_colour`): by the face itself and by its neighbours
        reading = functools.lru_cache(None)(lambda k: self.face_colour(image, faces[k].box, colors, self.skin_sat))
        rings: dict[int, float | None] = {}

        def ring(p: Part) -> float | None:
            """`_red_ring` of part `p`, read once (by `_uno_print` and `_faint_red`)."""
            if id(p) not in rings:
                rings[id(p)] = _red_ring(image, p, colors)
            return rings[id(p)]

        def elsewhere(p: Part, k: int) -> bool:
            """Is part `p` inside face `k`'s upright box the part of another face (tilted cards side
            by side)? One it lies deeper inside, whose middle is the part's colour (a wild's: any)."""
            here = _depth(p.centre, faces[k].box)
            return any(j != k and _within(p, g.box, image.shape) and _depth(p.centre, g.box) > here
                       and (p.color is None or reading(j)[0] == p.color) for j, g in enumerate(faces))

        for k, f in enumerate(faces):
            inside = [i for i, p in enumerate(syms) if id(p) not in used and _within(p, f.box, image.shape)
                      and not elsewhere(p, k)]
            if not inside:
                continue
            # a face's box is upright, the card may be tilted: indices of the cards beneath can lie
            # inside it. The symbol is voted by the parts of the face's own colour; then the parts
            # showing that symbol belong to it (an index's colour is read from a patch around it,
            # which in a fan takes in the neighbouring cards, so it only decides the vote)
            f.color, f.share, many = reading(k)     # read once: _decide uses it
            if many and (f.share < WILD_EVEN or _wild_inside([syms[i] for i in inside])):
                f.color = WILD_FACE     # a wild's four-colour oval, not a face of one colour
            elif f.share < MIDDLE_SHARE:
                f.color = None          # a themed deck's picture: the face's middle tells no colour
            if f.color not in (None, WILD_FACE) and f.share < WEAK_MIDDLE:
                f.color = _colour_named(f, [syms[i] for i in inside], faint, self.sym_conf) or f.color
            colour = f.color

            def fits(i):
                p = syms[i]
                if colour == WILD_FACE:      # a wild's oval: its own symbols, not coloured corners beneath
                    return kinds()[p.symbol].wild
                if _under_coloured_face(p, f, syms, image.shape):
                    return False
                return p.cls == "centre" or colour is None or kinds()[p.symbol].wild or p.color in (None, colour)
            voters = [i for i in inside if fits(i)]
            if not voters:
                continue
            votes = _face_votes(f, [syms[i] for i in voters])
            symbol = max(votes, key=votes.get)
            # (a centre too faint to vote counts here where a corner index shows its symbol surely)
            sure = {syms[i].symbol for i in voters if syms[i].cls == "index" and syms[i].p >= self.sym_conf}
            shown = [syms[i] for i in voters] + [c for c in faint
                                                 if c.symbol in sure and _within(c, f.box, image.shape)]
            if len(votes) > 1 and _beneath(shown, symbol):
                # two corners of a card whose middle another card's centre symbol covers: a card
                # beneath, of the face's colour, whose corners the tilted face's box takes in
                voters = [i for i in voters if syms[i].symbol != symbol]
                votes = _symbol_votes([syms[i] for i in voters])
                symbol = max(votes, key=votes.get)
            # a card shows at most two corner indices, a card's diagonal apart: more indices of
            # the symbol, or two side by side, are the corners of other cards of the same face
            # (fanned twins)
            members: list[Part] = []
            for i in sorted(inside, key=lambda i: (not fits(i), -syms[i].score * syms[i].p)):
                p = syms[i]
                if p.cls == "centre" or (p.symbol == symbol and _fits_corner(p, members)):
                    members.append(p)
            agree = [p for p in members if p.symbol == symbol]
            surest = max(p.p for p in agree)
            if surest < self.sym_conf and len(agree) < 2 and not (
                    f.score >= LONE_FACE_SCORE and f.color not in (None, WILD_FACE)
                    and any(p.color == f.color for p in agree)
                    and (surest >= LONE_FACE_CONF or any(c.symbol == symbol and _within(c, f.box, image.shape)
                                                         for c in faint_index))):
                continue        # one weak reading alone is no card, unless a surely found face's middle
                #                 vouches for it, read surely or with a faint corner index of the face
                #                 showing its symbol too
            if not any(_uno_print(image, p, colors, ring(p)) for p in agree):
                continue        # only ranks printed on white paper: a playing card's face
            if f.score < RED_FACE_SURE and all(p.cls == "index" and _faint_red(p, ring(p)) for p in agree):
                # only indices in a playing card's red, found as faintly as its ranks and not ringed
                # by their card's colour: a playing card's face, its red pips for a red middle (the
                # indices are judged again as cards alone, `_group_rest`)
                continue
            if symbol == "wild_draw_four" and not any(
                    p.cls == "index" and p.p >= self.sym_conf or p.cls == "centre" and _four_coloured(image, p.box, colors)
                    for p in agree):
                continue        # a wild draw four's centre shows four cards in the deck's colours, white papers none
            used.update(id(p) for p in members)
            groups.append((f, members))
        return groups

    def _group_rest(self, image: np.ndarray, syms: list[Part], groups: list, colors) -> None:
        """The indices no face took are cards of their own (a centre symbol outside any uncovered
        face is too easily a pattern on the table), or the far corner of a face or of another
        index. An index the classifier is less sure of counts only beside a sure one: the
        corners of a fan, where the next card covers part of each index. At the frame's edge
        (of `image`), where its crop runs off the picture, an index alone must be
        surer still (`EDGE_CONF`: a row of a patterned table's dots there is read as 6s and 8s).
        An index no face took starts a card of its own only with a detector score of `LONE_SCORE`
        (an ordinary playing card's rank is found, faintly, as an index; in the colour a red rank
        is read as, `RED_LONE_SCORE` unless its card's colour rings it), and a coloured one only
        when it is printed on ink (`_uno_print`: a playing card's red rank is printed on white
        paper), nor when it is found under `ROW_SCORE` with its like beside it (`_in_a_row`: a
        score sheet's digit beside the next one). A special wild's index alone
        needs `SPECIAL_LONE_SCORE`. An index read surely beside a sure index of a card already
        made (a fan's next corner) needs only `FAN_SCORE` (a special wild's
        `SPECIAL_FAN_SCORE`), and not the ink test: a fanned
        card's index lies on a thin strip between white borders, whose ring is mostly white. It
        must not lie over another index (`FAN_OVERLAP`): a faint box across two corners is none.
        Two faint corners of one card (from `FAN_SCORE`), both read at `PAIRED_CONF` and printed
        on ink, vouch for each other."""
        used = {id(p) for _, members in groups for p in members}
        anchors = [p for _, members in groups for p in members if p.cls == "index" and p.p >= self.sym_conf]
        h, w = image.shape[:2]
        every = syms
        syms = [p for p in syms if id(p) in used or p.p >= EDGE_CONF or not _at_edge(p, w, h)]
        sure = [p for p in syms if p.cls == "index" and p.p >= self.sym_conf]
        rest = [p for p in syms if id(p) not in used and p.cls == "index"
                and (p.p >= self.sym_conf or any(q is not p and _beside(p, q) for q in sure))]
        # fanned twins are told from one card's two corners by what lies between them: the
        # corners of the cards fanned between (those no face took: a face's own corner there is
        # a card lying over the middle of a card beneath, in a pile) or another colour
        untaken = [p for p in every if id(p) not in used]
        faces = [face for face, _ in groups if face is not None]
        for p in sorted(rest, key=lambda p: -p.score * p.p):
            for face, members in groups:
                if face is None:
                    mine = _same_card(p, members, untaken) and not any(
                        self._middle_differs(image, p, q, colors, faces) for q in members)
                else:
                    mine = (_corner_of(p, face, members, untaken)
                            and not _under_coloured_face(p, face, every, image.shape))
                if mine:
                    members.append(p)
                    break
            else:
                special = kinds()[p.symbol].wild and p.symbol not in ("wild", "wild_draw_four")
                ring = _red_ring(image, p, colors)       # read once: for _faint_red and _uno_print
                alone = (p.score >= (SPECIAL_LONE_SCORE if special else LONE_SCORE) and not _faint_red(p, ring)
                         and _uno_print(image, p, colors, ring)
                         and not (p.score < ROW_SCORE and any(_in_a_row(p, q) for q in every if q is not p)))
                fanned = (p.p >= self.sym_conf and p.score >= (SPECIAL_FAN_SCORE if special else FAN_SCORE)
                          and any(_beside(p, q) for q in anchors)
                          and not any(_overlap(p.box, q.box) >= FAN_OVERLAP for q in every if q is not p))
                if alone or fanned or (not special and _paired(image, p, rest, untaken, colors)):
                    groups.append((None, [p]))
                    if alone and p.p >= self.sym_conf:
                        anchors.append(p)

    def _middle_differs(self, image: np.ndarray, p: Part, q: Part, colors, faces: list[Part]) -> bool:
        """Would two corner indices' card show another colour in its middle (halfway between
        them)? Then they are two cards (fanned twins, the cards between them another colour).
        Not where the middle lies well inside an uncovered face (`COVERED_DEPTH`): a card over
        the middle of a card beneath (a pile), whose colour says nothing of the card beneath;
        nor for a wild, whose middle, seen this small, can show one of its four colours alone
        (the "WILD" across a classic wild's oval is lettered in them)."""
        if p.color is None:
            return False
        (px, py), (qx, qy) = p.centre, q.centre
        r = 1.25 * (p.size + q.size) / 2
        mx, my = (px + qx) / 2, (py + qy) / 2
        if any(_depth((mx, my), f.box) >= COVERED_DEPTH for f in faces):
            return False
        colour, share, _ = self.face_colour(image, (mx - r, my - r, mx + r, my + r), colors, self.skin_sat)
        return colour is not None and colour != p.color and share >= MIDDLE_SHARE

    def _decide(self, image, face: Part | None, members: list[Part], colors) -> Detection | None:
        votes = _symbol_votes(members)
        symbol = max(votes, key=votes.get)
        agree = [p for p in members if p.symbol == symbol]
        conf = _sureness(members, symbol, votes)
        colour = None
        if not kinds()[symbol].wild:
            cvotes: dict[str, float] = {}
            for p in agree:
                if p.color:
                    cvotes[p.color] = cvotes.get(p.color, 0.0) + p.p
            if face is not None and face.color not in (None, WILD_FACE):   # the face's middle, unless a hand covers it
                cvotes[face.color] = cvotes.get(face.color, 0.0) + face.share
            if not cvotes:
                return None
            colour = max(cvotes, key=cvotes.get)
            if face is not None and face.color in cvotes and any(
                    p.cls == "centre" and p.color == face.color for p in agree) and not _pair_at_middle(face, agree):
                # the face's middle and its centre symbol agree: corners of another colour inside
                # its upright box are twins beneath (a yellow 7 dropped on red 7s)
                colour = face.color
            conf *= cvotes[colour] / sum(cvotes.values())
        box = face.box if face is not None else _union([p.box for p in members])
        return Detection(colour, symbol, float(conf), box)


# a face's middle symbol, as shares of its upright box's longer side, each read (the surer reading
# counts): a centre symbol is 0.31-0.47 of the card's height, a tilted card's box up to 1.2 times it
MIDDLE_OF_BOX = (0.36, 0.46)
# a face found this surely with no part found inside it has its middle read as a centre symbol
# (`Recognizer._middle_readings`), which counts when read this surely: fresh pile 9,501,145, a
# Seinfeld orange 9 under two hands' fingers, its face found at 0.67, its middle read a 9 at 0.94.
# On 2,400 look-alike tables (seeds 9,570,000.. to 9,600,000..) such middles read 0.74 at most
ALONE_FACE, ALONE_READ = 0.65, 0.9
ALONE = frozenset(SYMBOLS) - {"none"}      # what such a middle may read
# one weak reading (under `symbol_conf`) alone in a face is a card only when the face is found this
# surely, the reading is this sure and of the colour the face's middle shows (a card in a dim
# corner, or under a finger, whose centre symbol is not read: its one index read at 0.65; a small
# blurred card under a finger, its face found at 0.57, its centre 9 read at 0.67 and its index not)
LONE_FACE_SCORE, LONE_FACE_CONF = 0.55, 0.6
# an index no face took, whose crop runs off the frame, is a card only when read this surely (a
# card mostly off a leaning phone's frame: its one corner read at 0.86-0.88; 0.9 lost two of 152
# such photos, and 0.85 reports no more false cards on the real backgrounds). A fan running off
# the frame leaves its outer cards' corners there: two read at 0.82 and 0.83 (benchmark fans
# 9,920,014 and 9,920,095; their crops' padding runs off by a pixel or two). At 0.8 the look-alike
# tables (3,600, seeds 9,570,000.. to 9,600,000..) and the Roboflow photos' backgrounds (1,013
# strips as taken, warm, dim, overexposed) report the same false cards as at 0.85 (at 0.75 and
# 0.65, 1,200 of those tables too)
EDGE_CONF = 0.8
# an index no face took starts a card of its own only when the detector is this sure of it (a
# playing card's rank scores 0.26-0.45, a real UNO index in a fan 0.6-0.8)
LONE_SCORE = 0.4
# ... but an index in the colour a playing card's red rank is read as (`_rank_red`: the deck's
# colour nearest a red ink's hue) needs this score, unless RED_RING_SURE of the ring round it is
# inked in that colour (its card round it). A red rank on white paper by a saturated table passes
# the ink test: 7 of the 10 false cards of the fresh look-alike tables 9,580,000.. were red ranks
# found alone at 0.41-0.48, most of their rings under 0.15 red (every look-alike table's under
# 0.3). Of the red indices found alone in 1,200 piles (seeds 9,200,000.. and 9,300,000..), 20 of
# 560 score 0.4-0.5, their rings 0.02-0.62 red; pile 9,945,105 by the phone: a red draw two's
# corner found at 0.46, its ring 0.67 red. Playing cards print no green, yellow or blue ranks (a
# green 4 alone under a hand scores 0.49, pile 9,301,163). A face whose symbol shows only in such
# indices needs them too (`_group_faces`): a playing card's face is found as a face, its
# red pips read as a red middle, its ranks at 0.28-0.56 (look-alike tables 9,580,000.. and
# 9,590,000..); the red corners of 39 real faces showing no centre symbol (1,200 piles) score 0.54-0.78.
# Unless the face is found this surely: playing cards' faces so found scored 0.40-0.61 (18 on those
# tables), a small card's face 0.67 (pile 9,650,078 at 640x480: a red draw two, its corner 14
# pixels wide found at 0.46, the ring at that size mostly its white border)
RED_LONE_SCORE, RED_RING_SURE, RED_FACE_SURE = 0.5, 0.4, 0.65
# an index in that colour is a UNO card's print (`_uno_print`) only with this share of the ring
# round it (`_ring_share`) inked in it: a red rank's ring is its paper and the table beyond
# (look-alike tables 9,570,105 and 9,570,292: 0.02 and 0.01, found at 0.56 and 0.52); of the 560
# red indices alone in those piles, 3 have rings under it (0.02-0.1). Unless the detector found it
# this surely: in a real fan a card's index lies on a strip between its neighbours, whose colours
# take most of its ring (Roboflow photos valid_00072, valid_00431: red corners found at 0.70 and
# 0.74, their rings 0.08 and 0.10 red); no look-alike table's red rank scores as much (0.59 at most)
RED_RING, RED_SURE = 0.1, 0.6
# ... or this sure when read surely beside a sure index of a card already made (a fan's next corner:
# fanned cards' indices score 0.32-0.4 where the next card covers part of them, a wild draw four's
# "+4" between two cards 0.28 (benchmark fan 9,920,145): down to the detector's own floor, `conf`)
FAN_SCORE = 0.25
# ... and not over another index (this share of the smaller box): a fan's corners lie side by side
FAN_OVERLAP = 0.3
# ... and a special wild's (customizable, Seinfeld, swap or shuffle hands) only when this sure: its
# corner is a plain black card's with one small white mark, and a playing card's black rank ("J",
# "5") is read as one, scoring 0.43-0.51 (look-alike tables); real ones alone in piles: 14 of the tuning
# set's 15 score 0.58-0.75
SPECIAL_LONE_SCORE = 0.55
# ... but beside a fan's sure corner (the fanned rule above), from this score: fanned special wilds
# score 0.50-0.51 (benchmark fan 9,925,140, pile 9,945,019); the look-alike tables' black ranks
# have no sure UNO corner beside them
SPECIAL_FAN_SCORE = 0.45
# ... or, with no sure corner beside it, when another corner of the same card (same symbol and
# colour, a card's diagonal apart) is found from FAN_SCORE too, and both are read this surely
# (spread hand 9,935,077: a yellow 1's corners at 0.33 and 0.39, read at 0.99). Read at 0.7, a
# playing card's two ranks made a card (look-alike table 9,570,142: 0.74 and 0.86); at 0.9 none
# of 1,800 look-alike tables does
PAIRED_CONF = 0.9
# a UNO corner index is a white symbol on the card's ink, a playing card's rank an ink symbol on
# white paper: round an index's box (a ring out to RING_GROW times it) a UNO card is more saturated
# than inside it. The ring's mean saturation over the box's: real UNO indices 0.38-1.9 (Roboflow
# validation photos, 1st percentile 0.47), rendered ones 0.41-2.3; playing cards' ranks found as
# indices: median 0.27
RING_GROW, MIN_RING_SAT = 1.35, 0.3
# ... and inside its box, a UNO index's white symbol leaves the middle (the box less a fifth each
# side) no more inked than the edge, where a printed rank or number on paper inks the middle more.
# The middle's share of ink pixels less that of the edge's two most inked sides (a fifth of the
# box deep): Roboflow validation indices at most 0.25 (99th percentile 0.11); of the 15 look-alike
# ranks and numbers that pass the ring (tuning seeds 9,561,000..), five reach 0.3-0.63
MAX_INK_RISE = 0.28
# a frame whose light needs a gain this strong (a warm bulb) is detected again after balancing
RELOOK_GAIN = 1.3
# zoom: a cluster of cards whose card is under ZOOM_CARD of the close-up's side is looked at again
# through a close-up, unless the close-up would be over ZOOM_MAX of the frame; at most MAX_ZOOMS.
ZOOM_CARD, ZOOM_MAX, MAX_ZOOMS = 0.45, 0.6, 3
# a first-look part that no close-up part of its kind covers this much of (of the smaller box) was
# not found again (a fan's index found again a little off is found again)
FOUND_AGAIN = 0.3
# a part's size as a share of its card's (the rendered designs: an index box 0.13-0.17 of the
# card's height, a centre symbol 0.31-0.47)
PART_OF_CARD = {"card": 1.0, "index": 0.16, "centre": 0.4}
# when the whole frame shows nothing, each of its four corners (TILE of its width and height) is
# looked at
TILE = 0.6
# when nothing is read, the frame is looked at again drawn at these shares of the detector's input
# (a card close to the camera, larger than the frame)
ZOOM_OUT = (0.5, 0.33)
# a frame whose pixels are BRIGHT_SHARE or more clipped (brightest channel CLIPPED or more) is also
# looked at through DARKEN (brightness squared: contrast moved into the highlights)
CLIPPED, BRIGHT_SHARE = 250, 0.15
DARKEN = np.uint8([round(255 * (v / 255) ** 2) for v in range(256)])
# a frame whose sharpness (`_sharpness`) is under SOFT is also looked at sharpened (`_sharpened`):
# of the first 150 Roboflow validation photos, 95 in 100 are 0.194 or more as taken, 0.099 or
# less blurred (sigma 2), under 0.2 with a 9-pixel streak of camera shake (median 0.154); the
# synthetic frames of small cards at 1600x1200, 0.29 or more (both measured and sharpened with
# the frame shrunk to SOFT_SIDE pixels at most, the detector's scale)
SOFT, SOFT_SIDE = 0.17, 320
SHARPEN_SIGMA, SHARPEN_AMOUNT = 1.5, 1.0
# where no top card is read and the outline finder sees an uncovered card from TURNED_LOOK, the
# frame is looked at again turned half a turn (`recognize`; AGREE_OUTLINE's level, where an outline
# counts for the card reader when no card is read). Measured: held-out 18 -> 17 misses, the 18
# dev sets 9,910,000.. 59 -> 58, the fresh sets 8,090,000.. 9 -> 8, the game bench 4 -> 3, none
# lost; 0.3 mended one more dev pile (a yellow 3 10% in view, its outline found at 0.38) but read
# a playing card's king as a red 1 on a look-alike table (9,733,691, found at 0.48). A first
# version looked turned wherever the detector found anything and took any card read: a polka-dot
# table's dots read as a blue skip (negative 9,500,190), two playing cards read as UNO cards
TURNED_LOOK = 0.5


def _at_most(image: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """`image` shrunk so that its longer side is at most `side` pixels, and the scale."""
    h, w = image.shape[:2]
    s = side / max(h, w, 1)
    if s >= 1:
        return image, 1.0
    size = (max(1, round(w * s)), max(1, round(h * s)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), s


def _clipped_share(image: np.ndarray) -> float:
    """The share of `image`'s pixels with a channel at CLIPPED or more (cv2.inRange: a tenth of
    numpy's time on a large frame)::

        >>> im = np.zeros((2, 2, 3), np.uint8); im[0, 0, 1] = 255
        >>> _clipped_share(im)
        0.25
    """
    if image.size == 0:
        return 0.0
    below = cv2.inRange(image, (0, 0, 0), (CLIPPED - 1,) * 3)
    return 1.0 - cv2.countNonZero(below) / below.size


def _sharpness(image: np.ndarray) -> float:
    """How sharp the image's edges are, whatever their contrast (give it shrunk to `SOFT_SIDE`):
    at its strongest edges (the 2% of pixels with the steepest gradient) the Laplacian's size
    next to the gradient's. A step edge blurred by sigma has its gradient fall as 1/sigma and
    its Laplacian as 1/sigma squared, so the ratio falls as 1/sigma."""
    if image.size == 0:
        return float("inf")
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    steep = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    edges = steep >= np.percentile(steep, 98)
    bend = cv2.dilate(np.abs(cv2.Laplacian(grey, cv2.CV_32F)), np.ones((3, 3), np.uint8))
    return float(bend[edges].mean() / max(float(steep[edges].mean()), 1e-6))


def _sharpened(image: np.ndarray) -> np.ndarray:
    """`image` with an unsharp mask: its difference from a blur (`SHARPEN_SIGMA`) added again."""
    blur = cv2.GaussianBlur(image, (0, 0), SHARPEN_SIGMA)
    return cv2.addWeighted(image, 1 + SHARPEN_AMOUNT, blur, -SHARPEN_AMOUNT, 0)


def _clusters(parts: list[Part]) -> list[tuple[tuple, float]]:
    """Parts that lie near each other (within a card of each other), as (region, card size),
    largest card first: the region holds every part's card; the card size is the largest seen or
    implied by an index or a centre symbol (`PART_OF_CARD`)."""
    items = []
    for p in parts:
        card = p.size / PART_OF_CARD[p.cls]
        cx, cy = p.centre
        r = card / 2 if p.cls == "card" else card * 0.6
        items.append([(cx - r, cy - r, cx + r, cy + r), card])
    merged = True
    while merged:
        merged = False
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                a, b = items[i][0], items[j][0]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    items[i] = [(min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])),
                                max(items[i][1], items[j][1])]
                    del items[j]
                    merged = True
                    break
            if merged:
                break
    return [(tuple(r), c) for r, c in sorted(items, key=lambda it: -it[1])]


# the patches a symbol's colour is read from (`Recognizer.part_hues`), as multiples of its box:
# tight, and wider when the tight one shows too little colour
_GROW = {"index": (1.1, 1.8), "centre": (0.85, 1.3)}
# ... and an index's skin is left out where this share of its tight patch is skin-like, when that
# leaves fewer red and orange hues
PART_SKIN = 0.25


def _reddish(hues: np.ndarray) -> float:
    """The share of `hues` (OpenCV) nearest red of the classic deck's four colours: a red's and an
    orange's (red|yellow falls at 13.2; with orange among them, a shaded yellow's 13-17 would count)."""
    colours = deck_profile("classic").colors
    return float(colour_shares(hues, colours)[colours.index("red")])


def _skin_share(patch: np.ndarray, skin: int = SKIN_MAX_SAT) -> float:
    """The share of `patch` (under grey light) that may be a hand's skin (`skin_like`, above
    `SKIN_LEAST`, under `skin`)."""
    if patch.size == 0:
        return 0.0
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    return float(skin_like(hsv[..., 0], hsv[..., 1], SKIN_LEAST, skin).mean())


# a face whose middle shows three or more colours, each at least this share, and a wild symbol
# inside its box, is a wild
WILD_FACE, WILD_SHARE = "wild", 0.12
# a face whose middle's commonest colour holds less than this share of its coloured pixels tells
# no colour (a themed deck's picture: 0.45-0.58 on the misread themed cards); the corners decide.
# On the 1,200-scene tuning set (seeds 9,200,000..) this changes no card read right
MIDDLE_SHARE = 0.6
# ... and a middle whose commonest colour holds under WILD_EVEN of it (four colours in near even
# shares: 0.28 on a wild whose corners sit at its box's edge) is a wild's oval with no wild symbol
# seen inside; a themed deck's picture is less even (0.45-0.58 on the themed cards misread)
WILD_EVEN = 0.34
# a face whose middle's commonest colour holds at least this share of its coloured pixels is a
# coloured card's: a wild's corner index inside its box is a card's beneath (`_under_coloured_face`;
# the misread faces: 0.83 and 0.98; fresh piles 9,420,854 and 9,430,590: a yellow 5 and a purple 8
# over a wild, their middles 0.78 and 0.79 of their colour, a hand over each)
ONE_COLOUR = 0.7
# corner indices read at least this surely, two agreeing, outweigh a wild centre in a many-coloured
# middle (`_wild_inside`)
WILD_CORNERS_P = 0.8
# how much better (summed palette misfit) another deck's palette must fit than the classic one
CLASSIC_PRIOR = 0.6
# a card's two corner indices lie at least this many index sizes apart (their centres; a size is
# the longer side of the detected box). A tight box of an upright index: over 5; the upright box of
# a turned index is wider, and the stage-8 detector draws a fan's front corners looser still: 2.2-2.5
# on 9 Roboflow photos, whose front card is small. Two fanned twins' indices side by side: about 1-2
CORNERS_APART = 2.2


# where a card's corner index sits, from the card's centre, in card widths (the index's centre; a
# card is 1 x 1.5): the rendered designs 0.29-0.32 across and 0.55-0.58 down
INDEX_AT = np.float32([-0.305, -0.56])
# a card's outline from its face's box (`_box_quad`) is kept where its width is within this factor of
# the median width of the outlines that cards' own centre symbols or two corners draw
BOX_WIDTH_AGREE = 1.3
# two uncovered faces that overlap: the one whose look (`_look`) fills the overlap is on top, when
# its look is nearer by at least ABOVE_MARGIN (L1 distance of the histograms) and the overlap is at
# least ABOVE_MIN_OVERLAP of the smaller card
ABOVE_MARGIN, ABOVE_MIN_OVERLAP = 0.15, 0.04
# the least saturation of a skin pixel left out of a card's look (the image is under grey light:
# the white print sits below it)
SKIN_LEAST = 40


def _uppermost(image: np.ndarray, faced: list, symbols: list[Part], colors: tuple,
               skin: int = SKIN_MAX_SAT, faceless: list = ()) -> Detection:
    """The top card among the cards with an uncovered face, as (face, the parts showing its symbol,
    detection): the surest face, unless another face's card lies over it (`_above`; where the
    surer face's outline is not known, its box stands in for it against a card showing both
    corners). A face whose parts show one corner index and no centre symbol read (a hand or a card
    over its middle) has its card's middle placed at the surest of the detector's centre symbols
    (of `symbols`, every index and centre found) inside its box that no face's card took, whatever
    symbol that was read as, but not in another colour: its outline is then known, and which card
    lies over the other can be told. Without such a centre, its middle is its box's (`_box_quad`).
    A card's other corner, across its middle from the one seen, is under another face when it lies
    inside it (`_hidden_corner`); but where an index found there reads the card's symbol, however
    unsurely, that corner shows, and its card lies over the face it lies inside (`_seen_corner`).
    A face whose unseen corner no face covers but that shows another card (`_buried`: another
    colour of the deck, `colors`) lies under a card not found as a face, and beneath a face that
    shows both its corners (`_clear`). A card whose corner index shows well inside another's
    outline, drawn from that card's own centre symbol or two corners, lies over it
    (`SHOWN_DEPTH`), whatever their colours. An outline drawn from a face's box is dropped where
    its width disagrees with those drawn from cards' own parts (`BOX_WIDTH_AGREE`: a box round the
    part of a card that another card leaves). Last, a card no face was found for (`faceless`:
    (detection, its parts), a hand over its face) whose corner index, read surely (`OVER_SURE`),
    shows inside the top face's box and `SHOWN_DEPTH` inside every outline its parts draw
    (`_outlines`) lies over it, unless that index may be the face's own corner misread: where the
    face's own indices are printed (`OWN_SPOT`) or showing the face's symbol in another colour;
    where the face's outline is not known, such an index at its box's middle (`BOX_MIDDLE`) lies
    over it. Every outline is drawn from a card's parts of its own colour (`_own_parts`).
    `skin`: the saturation a hand's skin stays under (`Recognizer.skin_sat`), left out of the looks."""
    faced = sorted(faced, key=lambda g: -g[0].score)
    best = faced[0]
    centres = [p for p in symbols if p.cls == "centre"]
    # each card's outline is drawn from its own parts: its box can also hold other cards' parts
    # showing its symbol, twins in other colours (pile 9,460,248: a blue skip's corner by a purple skip's)
    owns = [_own_parts(members, det) for _, members, det in faced]
    if len(faced) > 1:
        quads = [_card_quad(own) for own in owns]
        drawn = [q is not None for q in quads]     # outlines from the card's own centre symbol or two corners
        width = float(np.median([_width(q) for q in quads if q is not None])) if any(drawn) else None
        taken = {id(p) for _, members, _ in faced for p in members}
        for k, (face, members, det) in enumerate(faced):
            corners = [p for p in owns[k] if p.cls == "index"]
            # a centre read in another colour is another card's (pile 9,460,173: a yellow skip's
            # centre, read as a 0, at the edge of a blue 3's box, a hand over the 3's middle)
            middles = [c for c in centres if id(c) not in taken and _inside(c.centre, face.box)
                       and (det.color is None or c.color in (None, det.color))]
            if quads[k] is None and corners and middles:
                quads[k] = _card_quad([max(middles, key=lambda c: c.score), corners[0]])
            if quads[k] is None and corners:
                quads[k] = _box_quad(face, corners[0])
                # a box round part of a card (another card over the rest) places its middle wrong:
                # the width it makes then disagrees with the outlines cards' own parts draw
                if quads[k] is not None and width and not 1 / BOX_WIDTH_AGREE <= _width(quads[k]) / width <= BOX_WIDTH_AGREE:
                    quads[k] = None
        loose = [p for p in symbols if id(p) not in taken]        # no face's card took them
        seen = [_seen_corner(members, q, det, loose) for (_, members, det), q in zip(faced, quads)]
        hidden = [None if s is not None else _hidden_corner(image, members, q, skin)
                  for (_, members, _), q, s in zip(faced, quads, seen)]
        under = [h is not None and _buried(image, det, members, h, colors, skin) and not any(
                 _covers(g[0], q, h) for j, (g, q) in enumerate(zip(faced, quads)) if j != k)
                 for k, ((_, members, det), h) in enumerate(zip(faced, hidden))]
        clear = [s is not None or _clear(members) for (_, members, _), s in zip(faced, seen)]
        shown = [[np.float32(p.centre) for p in own if p.cls == "index"] for own in owns]

        # where a face's outline is not known, its upright box stands in for it in comparing looks
        # with a card that shows both corners, its outline drawn from its own parts (fresh pile
        # 9,480,689: a blue 3 over a purple 9 whose corners are not found); a box round cards
        # beneath or a hand, compared with a card's outline drawn less surely, misleads
        looks = [q if q is not None else np.float32([(f.box[i], f.box[j]) for i, j in ((0, 1), (2, 1), (2, 3), (0, 3))])
                 for (f, _, _), q in zip(faced, quads)]

        def lies_over(j: int, k: int) -> bool:
            """Does card `j` lie over card `k`: over `k`'s corner that is not seen, with its own
            far corner seen inside `k`'s face, or with a corner index of its own seen well inside
            `k`'s outline drawn from `k`'s own parts (`SHOWN_DEPTH`)?"""
            return (hidden[k] is not None and _covers(faced[j][0], quads[j], hidden[k])) or \
                (seen[j] is not None and _covers(faced[k][0], quads[k], seen[j])) or \
                (under[k] and clear[j]) or \
                (drawn[k] and any(_covers(faced[k][0], quads[k], pt, SHOWN_DEPTH) for pt in shown[j]))

        for _ in range(len(faced)):
            k = faced.index(best)
            # where one card's unseen corner lies under another's face, or the other's far corner
            # shows inside it, and not the other way round, that card lies beneath (geometry,
            # whatever their colours); else two cards of one colour look alike where they
            # overlap: their looks cannot tell which lies over the other, and the surer face
            # stays on top
            over = [g for j, (g, q) in enumerate(zip(faced, quads)) if g is not best and not lies_over(k, j) and (
                lies_over(j, k) or (q is not None and (quads[k] is not None or clear[j] and drawn[j])
                                and g[2].color != best[2].color and _above(image, q, looks[k], skin)))]
            if not over:
                break
            best = over[0]
    if faceless:
        # a card no face was found for (a hand over its face) whose corner index, read surely,
        # shows inside the top face's box and well inside its outline lies over it; unless that
        # index may be the face's own corner misread: where its own indices are printed, or
        # showing its symbol in another colour (piles 9,430,806, 9,440,392: a green 6's and a red
        # 1's corner read blue and yellow). Inside the box too: an outline drawn from a centre
        # symbol that is another part misfound can reach far past the face (pile 9,000,362)
        outlines = _outlines(best[0], owns[faced.index(best)])
        if outlines:
            w = _width(outlines[0])
            spots = [q for quad in outlines for q in _index_spots(quad)]

            def shows_over(pt: np.ndarray) -> bool:
                return _inside(pt, best[0].box) and all(_covers(best[0], quad, pt, SHOWN_DEPTH) for quad in outlines) \
                    and min(np.hypot(*(pt - q)) for q in spots) > OWN_SPOT * w
        else:
            # the face's outline is not known: a corner index at its box's middle, where the
            # face's centre symbol is printed and never a corner of its own (fresh pile 9,440,790:
            # a purple 5's corner at 0.31 of the longer side inside a purple 9's box, a hand
            # over the 9's corners)
            def shows_over(pt: np.ndarray) -> bool:
                return _depth(pt, best[0].box) >= BOX_MIDDLE
        over = [det for det, members in faceless for p in members
                if p.cls == "index" and p.p >= OVER_SURE and det.symbol != best[2].symbol
                and shows_over(np.float32(p.centre))]
        if over:
            return max(over, key=lambda det: det.confidence)
    return best[2]


def _top_by_outline(top: Detection, cards: list, outlines: list) -> Detection:
    """The top card as the outline finder sees it: where the reading's top card sits in an
    outline the finder calls covered (`under`) and in none it calls uncovered, and exactly one
    other card (`cards`: (detection, its parts)) sits in an uncovered one, that card is on top.
    So is the one other card the surest uncovered outline holds, where that outline is found
    surely (`TOP_OUTLINE`), does not hold the top card, and is found clearly more surely
    (`OUTLINE_MARGIN`) than any that does: a hand over the top card's corners lets a card
    beneath read more surely. A card sits in an outline when one of its parts lies where the
    outline's card prints it (`_held`); the cards read as the top card (its two corners read as
    two cards) are one. Also where no face was found (`_read`)."""
    found = sorted((o for o in outlines if o.cls == "card" and o.score >= OUTLINE_SURE), key=lambda o: -o.score)
    sure = [upright(o.quad) for o in found]
    covered = [upright(o.quad) for o in outlines if o.cls == "under" and o.score >= UNDER_SURE]
    # a card read twice (its two corners taken for two cards, no face joining them) is one card
    twin = [(d.color, d.symbol) == (top.color, top.symbol) for d, _ in cards]
    mine = [p for (d, m), t in zip(cards, twin) if t for p in m]
    if not sure:
        return top
    holds_top = [_held(q, mine) for q in sure]
    if not any(holds_top) and any(_held(q, mine) for q in covered):
        over = [d for (d, m), t in zip(cards, twin) if not t and any(_held(q, m) for q in sure)]
        if len(over) == 1:
            return over[0]
    # the surest uncovered outline (`TOP_OUTLINE`), found `OUTLINE_MARGIN` more surely than any
    # holding the top card, holds exactly one other card: that card is on top
    if found[0].score < TOP_OUTLINE or holds_top[0]:
        return top
    held = [d for (d, m), t in zip(cards, twin) if not t and _held(sure[0], m)]
    ours = max((o.score for o, h in zip(found, holds_top) if h), default=0.0)
    return held[0] if len(held) == 1 and found[0].score - ours >= OUTLINE_MARGIN else top


def _top_by_overlap(image: np.ndarray, top: Detection, cards: list, outlines: list) -> Detection:
    """The top card where the outline finder calls two overlapping cards uncovered (a card played
    onto the edge of one lying apart; the finder cannot tell which lies over the other): where
    exactly one outline found surely (`OVER_OUTLINE`) holds the top card read (`_held`) and another
    overlaps it (`OVER_MEET` of the smaller, no more than `OVER_IOU`: not the same card), the one
    whose sides show clearly more sharply across the other (`outline.edge_across`, `OVER_RATIO`)
    lies on top; where that is the other, the one card it holds is on top."""
    found = [upright(o.quad) for o in outlines if o.cls == "card" and o.score >= OVER_OUTLINE]
    if len(found) < 2:
        return top
    twin = [(d.color, d.symbol) == (top.color, top.symbol) for d, _ in cards]
    mine = [p for (d, m), t in zip(cards, twin) if t for p in m]
    holding = [q for q in found if _held(q, mine)]
    if len(holding) != 1:
        return top
    ours = holding[0]
    for q in found:
        if q is ours or quad_iou(q, ours) > OVER_IOU:
            continue
        smaller = min(abs(cv2.contourArea(q)), abs(cv2.contourArea(ours)))
        if quad_overlap(q, ours) < OVER_MEET * smaller:
            continue
        # the two cards' part of the frame, in L*a*b*
        both = np.concatenate([q, ours])
        x1, y1 = np.maximum(np.floor(both.min(0)).astype(int) - 4, 0)
        x2, y2 = np.minimum(np.ceil(both.max(0)).astype(int) + 4, image.shape[1::-1])
        if x2 - x1 < 2 or y2 - y1 < 2:
            continue
        lab = cv2.cvtColor(image[y1:y2, x1:x2], cv2.COLOR_BGR2LAB).astype(np.float32)
        at = np.float32([x1, y1])
        theirs, mine_shown = edge_across(lab, q - at, ours - at), edge_across(lab, ours - at, q - at)
        if theirs is None or mine_shown is None or theirs < OVER_RATIO * max(mine_shown, 1.0):
            continue
        held = [d for (d, m), t in zip(cards, twin) if not t and _held(q, m)]
        if len(held) == 1:
            return held[0]
    return top


# two outlines found this surely as uncovered, overlapping by OVER_MEET of the smaller and no more
# than OVER_IOU, are two cards one over the other: the one whose sides show OVER_RATIO times as
# sharply across the other lies on top (`_top_by_overlap`; set on the 29 tuning pile sets'
# overlapping pairs, 2 in 3 of them called surely so: 100 right, 1 wrong)
OVER_OUTLINE = 0.7
OVER_MEET = 0.03
OVER_IOU = 0.3
OVER_RATIO = 3.0
# the outline finder's outlines count (`_top_by_outline`) when found this surely: an uncovered
# card's, a covered one's (set before measuring; the finder's validation mAP50 0.991 and 0.697)
OUTLINE_SURE = 0.6
UNDER_SURE = 0.5
# the surest uncovered outline names the top card when found at TOP_OUTLINE and OUTLINE_MARGIN
# more surely than any outline holding the card read on top (chosen on the 25 pile sets
# 9,200,000..9,500,600: 0.8 and 0.2 mended 5 and lost none; a margin of 0.1 mended 6 and lost
# 9,460,949, whose top card's own outline was found 0.195 less surely; swept again on the 18
# pile sets 9,910,000..9,990,600: 0.7 mended 1, 9,950,062, and lost none there, but lost the game
# bench's 9,000,382; a margin of 0.1 changed none)
TOP_OUTLINE = 0.8
OUTLINE_MARGIN = 0.2
# a part lies where an outline's card prints it (`_held`) within this share of the card's width
# of an index spot or of its middle (0.45 for the middle: once written 0.2 here, that value was
# shadowed by `MIDDLE_REACH` below, so 0.45 is what every measured figure used)
SPOT_REACH = 0.2
HELD_MIDDLE_REACH = 0.45
# a card no part of which is found is read by its outline (`Recognizer._read_outline`) when the
# outline is found this surely as uncovered, a spot read this surely: index spots read as squares
# of INDEX_SIDE of the card's width, its middle of CENTRE_SIDE, each at nine places SPOT_SHIFT
# apart; and the outline printed in the colour read over OUTLINE_INK of it (look-alike tables
# 9,560,028 and 9,710,309..: playing cards taken for cards, their ranks read at 0.92, inked
# 0.035-0.135; the top cards read so on the piles 0.17-0.31)
OUTLINE_READ = 0.6
OUTLINE_READ_P = 0.9
INDEX_SIDE = 0.26
CENTRE_SIDE = 0.55
SPOT_SHIFT = 0.06
OUTLINE_INK = 0.15
# an outline found at READ_SURE_OUTLINE is a card's beyond doubt: its index spots count from
# OUTLINE_READ_P_SURE (a corner half under a hand reads 0.6-0.7). Its middle still counts from
# OUTLINE_READ_P: counted from 0.6 it mended one pile (9,420,279) and lost one (9,490,237, a
# yellow reverse whose middle, read at 0.86, voted green)
READ_SURE_OUTLINE = 0.8
OUTLINE_READ_P_SURE = 0.6
# a top card read less surely than this is read again by its outline (`Recognizer._reread`)
REREAD_BELOW = 0.7
# the card reader (`Recognizer._read_card`, where recognizer.json names one) reads the outlines
# found this surely as uncovered, and names the top card where it reads the surest one's symbol
# at READER_SURE (0.7 lost 3 clear views on the held-out pile sets, 0.9 mended 3 there; with
# READER_KEEP, 0.8 mended 1 more on the tuning sets, 2 on the held-out sets and 2 on the fresh
# sets 9,570,000.., and lost none)
READER_OUTLINE = 0.7
READER_SURE = 0.8
# ... and from READER_AGREE, or where no card is read on an outline found from AGREE_OUTLINE, where
# a centre symbol found at the outline's middle reads the same, however unsurely (pile
# 9,890,585, a purple skip under hands, its outline read skip at 0.52 and its centre at 0.56;
# pile 9,850,441, a small wild beside a card back, its outline found at 0.52 and read at 0.98, its
# centre found at 0.37 and read at 0.96: nothing was read). READER_AGREE is 0.25 rather than 0.5:
# the reader's own argmax is a second witness however unsure, where a centre agrees. A blue
# 9 held close and cut by the frame, its outline found at 0.91 and read 9 at 0.30, its centre read 9
# at 0.51 (under `LONE_FACE_CONF`); a blue reverse under a finger, read 0.32 and 0.56 (the
# singles 9,990,591 and 9,930,807: nothing was read). On the 18 sets 9,910,000.. 2 mended, none lost
# (0.15: the same two); held-out 1 mended (a red 1 washed out by a glare), none lost
READER_AGREE, AGREE_OUTLINE = 0.25, 0.5
# ... and where no card is read at all, from SPOT_AGREE_READER on an outline found from
# SPOT_AGREE_OUTLINE (HELD_OUTLINE's level: 0.5 mended 4 piles of the 18 sets 9,910,000.., 0.4 two
# more), where a corner index spot of the outline (`_spot_readings`) reads the same at SPOT_AGREE
# on ink of the card's colour covering SPOT_INK of what no hand covers round it (its colour is that
# ink's); also where the whole outline is inked under OUTLINE_INK, a hand over most of it (found
# on the misses of those sets: a blue 7 18% in view read at 0.97 on an outline inked
# 0.08, a yellow 4 read at 0.54, their spots read 0.99 and 0.86 on ink covering 0.27 and 0.37; an
# UNO card prints its corner indices on its colour's ink, a playing card on white paper; SPOT_INK
# set before reading the look-alike tables). Under OpenCV 5.1 (whose scenes differ a little from
# 5.0's), on the same sets: also where a top card is read that the outline does not hold, or
# holds read under REREAD_BELOW, a wild too (no ink asked: 6 piles mended, none lost, a card beneath
# the top card read surely in 3); SPOT_AGREE_READER 0.4 (from 0.5) mended 2 more, 0.3 none more,
# 0.2 lost one; SPOT_AGREE 0.6 (from 0.7) 3 more, 0.5 lost one. No pile of the held-out sets
# changed, under either OpenCV; on the fresh sets 8,060,000.. 2 mended and 2 lost, then 1 lost with
# `_read_elsewhere` (found on the other); the look-alike tables read as before
SPOT_AGREE, SPOT_AGREE_READER, SPOT_AGREE_OUTLINE = 0.6, 0.4, 0.4
# ... and where a top card is read, a spot from SPOT_OVER (at 0.6, the tuning pile 9,460,949 was
# lost: a wild over a green 6, the 6's outline found at 0.89 and read 6 at 0.59, its spot at 0.68)
SPOT_OVER = 0.7
SPOT_INK = 0.25
# ... and where a top card is read and no outline is found from READER_OUTLINE, the surest one found
# from HELD_OUTLINE, read at READER_SURE, names the top card where a card read with that symbol has
# its parts inside it: the reader and the detector's parts agree (pile 9,950,544, a red
# skip under a hand, its outline found at 0.47 and read skip at 0.85, its corner read skip at 0.99:
# the red 4 beneath was read as the top; pile 9,961,028, a green 9 over a green 5, found at 0.59)
HELD_OUTLINE = 0.4
# a top card read at READER_KEEP whose parts the surest outline holds, or one of whose parts lies
# SHOWN_DEPTH inside it, stands whatever the reader reads there (a rough outline of a
# clearly read green 8 read as a 4, a red draw two's "+2" as a 2: 3 losses on the tuning sets at
# 0.9, none at READER_KEEP; a blue 6 under a red 7 and a hand called uncovered, the 7's
# corner 0.13 of a width inside it: lost on a fresh set, mended by the part inside)
READER_KEEP = 0.97


def _ink_share(image: np.ndarray, quad: np.ndarray, colour: str, colors, skin: int) -> float:
    """The share of a card's outline (`quad`), in the frame, printed in `colour`'s ink (a hand's skin
    is no ink): an UNO card's face is mostly ink of its colour, a playing card's white paper. (The
    share of what a hand leaves of it would pass a playing card's paper under warm light, which
    looks like skin: look-alike table 9,560,028.)"""
    h, w = image.shape[:2]
    x1, y1 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x2, y2 = np.minimum(np.ceil(quad.max(0)).astype(int), (w, h))
    if x2 <= x1 or y2 <= y1:
        return 0.0
    mask = np.zeros((y2 - y1, x2 - x1), np.uint8)
    cv2.fillConvexPoly(mask, np.int32(np.round(quad - [x1, y1])), 1)
    area = int(mask.sum())
    hues = saturated_hues(image[y1:y2, x1:x2], skin=False, skin_sat=skin, mask=mask > 0)
    if hues is None or area == 0:
        return 0.0
    return float(colour_shares(hues, colors)[list(colors).index(colour)] * len(hues) / area)


def _bare_ink(patch: np.ndarray, colors, skin: int) -> tuple[str | None, float]:
    """The colour a patch shows (a hand's skin left out), and the share of what no hand covers in
    it printed in that colour's ink: (None, 0.0) where it shows none."""
    hues = saturated_hues(patch, skin=False, skin_sat=skin)
    colour = colour_of_hues(hues, colors)[0]
    if colour is None:
        return None, 0.0
    # the skin `saturated_hues` leaves out (white-balanced, any saturation under `skin`), not
    # `_skin_share`'s: what is left out of the ink must be left out of what it is a share of
    hsv = cv2.cvtColor(white_balance(patch), cv2.COLOR_BGR2HSV)
    bare = patch.shape[0] * patch.shape[1] - int(skin_like(hsv[..., 0], hsv[..., 1], most=skin).sum())
    return colour, float(colour_shares(hues, colors)[list(colors).index(colour)] * len(hues)) / max(bare, 1)


def _on_pile(quad: np.ndarray, other: np.ndarray, covered: list[np.ndarray]) -> bool:
    """Does the card of outline `quad` lie on the pile, and the card of outline `other` beside it
    (both called uncovered): does `quad` lie over `PILE_MARGIN` more of the covered cards' outlines
    (`covered`; the shares of each that it overlaps, summed) than `other` does? The card played
    last lies on the cards played before; a card beside the pile, or slid off it, lies on few."""
    def beneath(q: np.ndarray) -> float:
        return sum(quad_overlap(q, c) / max(abs(float(cv2.contourArea(np.float32(c)))), 1.0) for c in covered)
    return beneath(quad) >= beneath(other) + PILE_MARGIN


# two cards called uncovered, each read surely as itself: the one lying over PILE_MARGIN more of
# the covered cards (their outlines' shares it overlaps, summed) is the pile's top (set before
# measuring: half a covered card; piles 9,530,617 and 9,620,449, a green 9 and a wild on the
# pile, a green 5 and a blue 8 beside it read on top: 1.08 and 1.23 against 0.04 and 0.08)
PILE_MARGIN = 0.5


def _held(quad: np.ndarray, members: list[Part]) -> bool:
    """Does a part of a card (`members`) lie where the card of outline `quad` prints one: a corner
    index at one of its index spots (`_index_spots`), a centre symbol at its middle?"""
    w, mid = _width(quad), quad.mean(0)
    spots = _index_spots(quad)
    for p in members:
        pt = np.float32(p.centre)
        if p.cls == "index" and min(np.hypot(*(pt - q)) for q in spots) <= SPOT_REACH * w:
            return True
        if p.cls == "centre" and np.hypot(*(pt - mid)) <= HELD_MIDDLE_REACH * w:
            return True
    return False


# a corner index no face took lies over the top face (`_uppermost`) only when read this surely:
# the top face's own corner misread, inside its outline, was read at 0.57 and 0.67 (piles
# 9,300,528, 9,410,934); the cards found lying over it at 0.93-1.0
OVER_SURE = 0.85
# ... and not within this share of the face's width of where its own corner indices are printed
# (`_index_spots`): a misread own corner lies there, give or take the outline's error
OWN_SPOT = 0.15
# ... or, where its outline is not known, this deep inside its box (`_depth`; the middle of a 1 x
# 1.5 box lies 0.33 deep): of 26 sure faceless corners inside such faces on 1,800 piles (seeds
# 9,200,000.. and 9,300,000..), none lying over them, the deepest lay 0.18 deep
BOX_MIDDLE = 0.25


def _outlines(face: Part, own: list[Part]) -> list[np.ndarray]:
    """Every outline a face's card can be drawn with from its own parts (`own`): from its centre
    symbol and each corner index seen, else from two corners, else from its box and a corner
    (`_box_quad`). Under a leaning camera's perspective they differ: a point inside them all is
    inside the card (tilted pile 9,750,188: a corner 0.13 of a width inside a wild's outline drawn
    from one of its corners, on its edge in the one drawn from the other)."""
    corners = [p for p in own if p.cls == "index"]
    middles = [p for p in own if p.cls == "centre"]
    if middles and corners:
        return [_card_quad([middles[0], c]) for c in corners]
    quad = _card_quad(own)
    if quad is None and corners:
        quad = _box_quad(face, corners[0])
    return [] if quad is None else [quad]


def _index_spots(quad: np.ndarray) -> list:
    """Where a card's four corner indices would be printed (`INDEX_AT`, each way), from its outline."""
    c, w = quad.mean(0), _width(quad)
    u = (quad[1] - quad[0]) / max(w, 1e-6)
    v = (quad[3] - quad[0]) / max(float(np.hypot(*(quad[3] - quad[0]))), 1e-6)
    ax, ay = np.abs(INDEX_AT) * w
    return [c + sx * ax * u + sy * ay * v for sx in (-1, 1) for sy in (-1, 1)]


def _own_parts(members: list[Part], card: Detection) -> list[Part]:
    """The parts of a face's group in its card's colour, or read in none (a wild's parts carry no colour)."""
    return [p for p in members if p.color in (None, card.color)]


def _width(quad: np.ndarray) -> float:
    """The width of a card's outline (its first side)."""
    return float(np.hypot(*(quad[1] - quad[0])))


def _other_corner(members: list[Part], quad: np.ndarray | None) -> tuple[np.ndarray, float] | None:
    """Where a card that shows one corner index (`members`: its parts; `quad`: its estimated
    outline) has its other one, across its middle from the seen one, and half an index's size.
    None where it shows both or its outline is not known."""
    corners = [p for p in members if p.cls == "index"]
    if quad is None or len(corners) != 1:
        return None
    return 2 * quad.mean(0) - np.float32(corners[0].centre), corners[0].size / 2


def _seen_corner(members: list[Part], quad: np.ndarray | None, card: Detection, symbols: list[Part]) -> np.ndarray | None:
    """A card's other corner (`_other_corner`) where an index found there (its centre within half
    an index's size) reads the `card`'s symbol, however unsurely, and not another colour (of
    `symbols`: the indices and centres found that no other card took; a twin's corner there is
    another card's): the corner shows, no card lies over it. None where no such index is found."""
    other = _other_corner(members, quad)
    if other is None:
        return None
    pt, r = other
    return pt if any(p.cls == "index" and p.symbol == card.symbol and p.color in (None, card.color)
                     and np.hypot(*(np.float32(p.centre) - pt)) <= r for p in symbols) else None


def _hidden_corner(image: np.ndarray, members: list[Part], quad: np.ndarray | None,
                   skin: int = SKIN_MAX_SAT) -> np.ndarray | None:
    """Where a card that shows one corner index has its other, unseen one (`_other_corner`). None
    where it shows both, its outline is not known, or that corner lies off the frame or under a
    hand's skin (a hand hides it, not a card)."""
    other = _other_corner(members, quad)
    if other is None:
        return None
    pt, r = other
    h, w = image.shape[:2]
    if not (r <= pt[0] < w - r and r <= pt[1] < h - r):
        return None
    if _skin_share(_square_at(image, pt, r), skin) >= HIDDEN_SKIN:
        return None
    return pt


def _square_at(image: np.ndarray, pt: np.ndarray, r: float) -> np.ndarray:
    """The pixels within `r` of point `pt` each way (a point at least `r` inside the frame)."""
    x1, y1, x2, y2 = (int(round(v)) for v in (pt[0] - r, pt[1] - r, pt[0] + r, pt[1] + r))
    return image[y1:y2 + 1, x1:x2 + 1]


def _buried(image: np.ndarray, det: Detection, members: list[Part], pt: np.ndarray, colors: tuple,
            skin: int = SKIN_MAX_SAT) -> bool:
    """Whether a card's unseen corner (`pt`, `_hidden_corner`) shows another card: `BURIED_SHARE` or
    more of the coloured pixels round where its index should be (within half its seen index's
    size; a hand's skin, under saturation `skin`, left out) are of one colour of the deck
    (`colors`), not the card's. A card not found as a face lies over it (fresh pile 9,411,196: an
    orange 3's corner under a purple 7, on which lies a purple 9). A wild's corner is dark and
    white, its index's colours at most a third of it and of four colours: there, coloured pixels
    filling `WILD_BURIED_INK` of the square round it and of one colour are another card's (fresh
    pile 9,460,470: a wild draw four's corner under a blue 4, on which lies a green draw two)."""
    r = next(p.size for p in members if p.cls == "index") / 2     # its one corner seen
    square = _square_at(image, pt, r)
    hues = saturated_hues(square, skin=False, skin_sat=skin)
    shares = colour_shares(hues, colors)
    k = int(shares.argmax())
    if det.color not in colors:          # a wild: no colour of its own
        return hues is not None and len(hues) >= WILD_BURIED_INK * square.shape[0] * square.shape[1] \
            and shares[k] >= BURIED_SHARE
    return colors[k] != det.color and shares[k] >= BURIED_SHARE


def _clear(members: list[Part]) -> bool:
    """Whether a face shows both its corner indices: two of them a card's diagonal apart."""
    corners = [p for p in members if p.cls == "index"]
    return len(corners) >= 2 and _fits_corner(corners[1], corners[:1])


# a face's unseen corner shows another card when this share of its coloured pixels is of one other colour
BURIED_SHARE = 0.7
# ... and a wild's when its coloured pixels fill this share of the square round it. A wild's own
# corner, round its index (244 read surely on piles 9,200,000.., 9,300,000.., 9,400,000..): at
# most 0.52 of it coloured, and where 0.2 or more, at most 0.63 of those of one colour (0.41 where
# 0.45 or more); a wild draw four's corner under a blue 4 (pile 9,460,470): 0.50, 0.95 blue
WILD_BURIED_INK = 0.45


def _covers(face: Part, quad: np.ndarray | None, pt: np.ndarray, depth: float | None = None) -> bool:
    """Whether an uncovered face lies over point `pt`: `depth` (`COVER_DEPTH` unless given) inside
    its estimated outline (a share of its width), or where that is not known, inside its upright box
    (a share of its longer side)."""
    depth = COVER_DEPTH if depth is None else depth
    if quad is not None:
        return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(pt[0]), float(pt[1])), True) \
            >= depth * _width(quad)
    return _depth(pt, face.box) >= depth


# a card's unseen corner is under a hand where this share of the pixels round it is skin-like
HIDDEN_SKIN = 0.3
# ... and under another card's face where it lies this deep inside that card's outline (a share of
# its width) or upright box (a share of the box's longer side)
COVER_DEPTH = 0.05
# a card's corner index seen this deep inside another card's outline (drawn from that card's own
# centre symbol or two corners: a share of its width) shows the card lies over the other there.
# Outlines so drawn err by a twentieth of a card's width and more (pile 9,430,058: a green 6's
# corner, beside a red 2 lying over the 6, 0.05 inside the 2's outline; the 2's corner 0.15 inside
# the 6's; fresh pile 9,430,005: a blue 7's corner 0.34 inside the blue 9 it lies over)
SHOWN_DEPTH = 0.1


def _box_quad(face: Part, corner: Part) -> np.ndarray | None:
    """A card's four corners from its uncovered face's upright box and one corner index: a turned
    card's upright box is centred on the card, so the box's middle is the card's (a hand over the
    face's centre symbol). None when the box does not fit the card that the corner's distance from
    that middle makes (its shorter side at least `BOX_FITS[0]` of the card's width, its longer at
    most `BOX_FITS[1]`: a box round only part of a card, a face cut by the frame or covered)."""
    cx, cy = face.centre
    width = float(np.hypot(corner.centre[0] - cx, corner.centre[1] - cy)) / float(np.hypot(*INDEX_AT))
    sides = sorted((face.box[2] - face.box[0], face.box[3] - face.box[1]))
    if width < 1 or sides[0] < BOX_FITS[0] * width or sides[1] > BOX_FITS[1] * width:
        return None
    return _card_quad([Part("centre", (cx - 1, cy - 1, cx + 1, cy + 1), 1.0), corner])


# a 1 x 1.5 card's upright box is 1-1.8 of its width on each side, whatever its turn
BOX_FITS = (0.9, 1.9)


def _beneath(parts: list[Part], symbol: str) -> bool:
    """Are the parts reading `symbol` the two corners of a card that lies beneath another? Two
    corner indices of it a card's diagonal apart and no centre symbol of it, while a centre symbol
    read as another symbol, which a corner index among the parts shows too, lies in the middle of
    the card they outline (within `MIDDLE_REACH` of its width of the card's centre): that card's
    middle is covered by the card whose centre shows there (a blue 9 over a blue 5, both 5s'
    corners inside the 9's upright box, a finger over the 9). A centre alone may be misread (a
    finger across a 9 turns it into a 3)."""
    corners = [p for p in parts if p.symbol == symbol and p.cls == "index"]
    if len(corners) != 2 or not _fits_corner(corners[1], corners[:1]) \
            or any(p.symbol == symbol and p.cls == "centre" for p in parts):
        return False
    quad = _card_quad(corners)
    if quad is None:
        return False
    middle, width = quad.mean(0), _width(quad)
    # the corners that show lie outside the card over them (`_covers`, its outline drawn from that
    # centre and its own corner)
    return any(p.cls == "centre" and p.symbol != symbol
               and np.hypot(*(np.float32(p.centre) - middle)) <= MIDDLE_REACH * width
               and any(q.cls == "index" and q.symbol == p.symbol and not any(
                   _covers(p, _card_quad([p, q]), np.float32(c.centre), SHOWN_DEPTH) for c in corners) for q in parts)
               for p in parts)


# how near a card's centre (a share of its width) another card's centre symbol covers its middle
MIDDLE_REACH = 0.45
# ... that centre symbol may be read this unsurely (under `weak_symbol_conf`: a finger across it)
# when a corner index inside the face shows its symbol surely (a green 0 over a green 7, pile
# 9,301,105: the 0's centre read at 0.3)
FAINT_CENTRE = 0.2
# ... and a corner index read this unsurely (under `weak_symbol_conf`) vouches for one weak reading
# of its symbol in a surely found face of the reading's colour (`LONE_FACE_SCORE`): pile 9,960,219,
# a blue 3 held close under two hands' fingers, its centre read 3 at 0.41, its corner 3 at 0.36
FAINT_INDEX = 0.2
# a face's middle whose colour has under this share of its coloured pixels is mixed: a sure corner
# of another colour inside the face names its colour, where a faint centre within CENTRE_NEAR of
# the face's longer side of its middle shows the corner's symbol and no part of the middle's
# colour does (a green 1 under a hand, its middle read yellow from the yellow 9 beside it: 0.65)
WEAK_MIDDLE, CENTRE_NEAR = 0.7, 0.15


def _colour_named(face: Part, parts: list[Part], faint: list[Part], sure: float) -> str | None:
    """The colour that a face's mixed middle (a hand over it, the card beside it in its box) is
    named by: that of a corner index among `parts` read at least `sure`, of another colour than the
    middle's, whose symbol a faint centre in the face's middle (within `CENTRE_NEAR` of its longer
    side) shows and no part of the middle's colour shows (fresh pile 9,300,916); None if none."""
    (mx, my), reach = face.centre, CENTRE_NEAR * face.size
    middle = {c.symbol for c in faint if abs(c.centre[0] - mx) < reach and abs(c.centre[1] - my) < reach}
    own = {p.symbol for p in parts if p.color == face.color}
    for p in parts:
        if p.cls == "index" and p.p >= sure and p.color not in (None, face.color) \
                and p.symbol in middle and p.symbol not in own:
            return p.color
    return None


def _paired(image: np.ndarray, p: Part, rest: list[Part], untaken: list[Part], colors) -> bool:
    """Whether index `p` and another of `rest` are two faint corners of one card (`_same_card`),
    each found from `FAN_SCORE`, read at `PAIRED_CONF` and printed on ink: each vouches for the other."""
    def faint_corner(q: Part) -> bool:
        return q.p >= PAIRED_CONF and q.score >= FAN_SCORE

    return faint_corner(p) and any(q is not p and faint_corner(q) and _same_card(q, [p], untaken)
                                   and _uno_print(image, q, colors) for q in rest) \
        and _uno_print(image, p, colors)


def _in_a_face(members: list[Part], faces: list[Part], shape: tuple) -> bool:
    """Whether a card that no face took shows a part inside a face's box: the face was found, but
    its middle (a hand over it, cards beneath) read another colour. A wild's oval holds only a
    wild's parts."""
    return any(_within(p, f.box, shape) and (f.color != WILD_FACE or kinds()[p.symbol].wild)
               for p in members for f in faces)


def _card_quad(members: list[Part]) -> np.ndarray | None:
    """A card's four corners, estimated from its centre symbol (or the midpoint of two opposite
    corner indices) and a corner index (`INDEX_AT`); None without them."""
    idx = [p for p in members if p.cls == "index"]
    cen = [p for p in members if p.cls == "centre"]
    if not idx:
        return None
    if cen:
        c, i = np.float32(cen[0].centre), np.float32(idx[0].centre)
    elif len(idx) >= 2:
        a, b = max(((a, b) for a in idx for b in idx if a is not b),
                   key=lambda ab: np.hypot(*np.subtract(ab[0].centre, ab[1].centre)))
        c, i = (np.float32(a.centre) + np.float32(b.centre)) / 2, np.float32(a.centre)
    else:
        return None
    v = i - c
    n = float(np.hypot(*v))
    if n < 2:
        return None
    turn = np.arctan2(v[1], v[0]) - np.arctan2(INDEX_AT[1], INDEX_AT[0])
    s = n / float(np.hypot(*INDEX_AT))
    rot = np.float32([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    corners = np.float32([[-0.5, -0.75], [0.5, -0.75], [0.5, 0.75], [-0.5, 0.75]]) * s
    return corners @ rot.T + c


def _look(image: np.ndarray, mask: np.ndarray, skin: int = SKIN_MAX_SAT) -> np.ndarray:
    """A coarse colour histogram of the masked pixels: 12 hues of the saturated ones, and dark,
    middling and light greys. A hand's skin is left out: a hand over the upper card's own part
    would make the part the cards share look more like the lower card's."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[mask]
    hsv = hsv[~skin_like(hsv[:, 0], hsv[:, 1], SKIN_LEAST, skin)]
    h, s, v = hsv[:, 0].astype(int), hsv[:, 1], hsv[:, 2]
    bins = np.where((s > 80) & (v > 50), h * 12 // 180, 12 + np.minimum(v.astype(int) * 3 // 256, 2))
    hist = np.bincount(bins, minlength=15).astype(np.float32)
    return hist / max(hist.sum(), 1.0)


def _above(image: np.ndarray, qa: np.ndarray, qb: np.ndarray, skin: int = SKIN_MAX_SAT) -> bool:
    """Whether card quad `qa` lies over `qb`: where they overlap, the picture looks like the part
    of `qa` that `qb` leaves, not like the part of `qb` that `qa` leaves."""
    h, w = image.shape[:2]
    both_q = np.concatenate([qa, qb])          # work in the window the two cards span
    x0, y0 = (max(0, int(v)) for v in both_q.min(0))
    x1, y1 = min(w, int(both_q[:, 0].max()) + 1), min(h, int(both_q[:, 1].max()) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    image, off = image[y0:y1, x0:x1], np.float32([x0, y0])
    ma, mb = np.zeros(image.shape[:2], np.uint8), np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(ma, np.int32(np.round(qa - off)), 1)
    cv2.fillConvexPoly(mb, np.int32(np.round(qb - off)), 1)
    k = np.ones((5, 5), np.uint8)
    both = cv2.erode(ma & mb, k) > 0
    only_a, only_b = cv2.erode(ma & (1 - mb), k) > 0, cv2.erode(mb & (1 - ma), k) > 0
    smaller = min(int(ma.sum()), int(mb.sum()))
    if both.sum() < ABOVE_MIN_OVERLAP * smaller or only_a.sum() < 30 or only_b.sum() < 30:
        return False
    seen = _look(image, both, skin)
    da = float(np.abs(seen - _look(image, only_a, skin)).sum())
    db = float(np.abs(seen - _look(image, only_b, skin)).sum())
    return da + ABOVE_MARGIN < db


def _wild_inside(parts: list[Part]) -> bool:
    """Whether a face's parts show a wild: a wild corner index, or a wild centre unless two corner
    indices agree surely on another symbol (a themed deck's many-coloured picture, found as a
    centre and read as a wild's oval, between the card's own two corners)."""
    if any(p.cls == "index" and kinds()[p.symbol].wild for p in parts):
        return True
    if not any(kinds()[p.symbol].wild for p in parts):
        return False
    sure_corners = collections.Counter(p.symbol for p in parts if p.cls == "index" and p.p >= WILD_CORNERS_P)
    return not any(n >= 2 for n in sure_corners.values())


def _at_edge(p: Part, w: int, h: int) -> bool:
    """Whether `p`'s classifier crop (`crop_square`: a square of its longer side, padded 15% each
    way) runs off the frame."""
    (cx, cy), r = p.centre, p.size * 1.3 / 2
    return cx - r < 0 or cy - r < 0 or cx + r > w or cy + r > h


def _on_ink(image: np.ndarray, box) -> bool:
    """Whether the symbol in `box` is printed on ink, as a UNO card's index is: the ring round the
    box is at least `MIN_RING_SAT` as saturated as the box's inside, and the box's middle is no
    more inked than its edge (`MAX_INK_RISE`: a white symbol on ink, not ink on paper)."""
    around = _ring(image, box)
    if around is None:
        return True         # no ring (the box fills its patch, at the frame's edge) or no inside
    patch, ring, inner = around
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    sat = hsv[..., 1].astype(np.float32)
    if float(sat[ring].mean()) < MIN_RING_SAT * float(sat[~ring].mean()):
        return False
    # inside the box: a UNO index's white symbol leaves its middle less inked than its edge, a
    # printed rank or number inks its middle more than the paper at its edge
    ink = (hsv[inner][..., 1] > 90) & (hsv[inner][..., 2] > 50)
    bh, bw = ink.shape
    if bh < 5 or bw < 5:
        return True
    my, mx = max(1, int(bh * 0.2)), max(1, int(bw * 0.2))
    # the edge: its two most inked sides (a fanned card's index lies on a strip between the white
    # borders of its neighbours)
    sides = sorted((float(ink[:my].mean()), float(ink[-my:].mean()), float(ink[:, :mx].mean()),
                    float(ink[:, -mx:].mean())), reverse=True)
    return float(ink[my:bh - my, mx:bw - mx].mean()) - (sides[0] + sides[1]) / 2 <= MAX_INK_RISE


def _ring(image: np.ndarray, box) -> tuple | None:
    """The patch of `image` round `box` out to `RING_GROW` times it (cut at the frame's edge), the
    ring (a mask of the patch: outside the box) and the box's inside (a slice of the patch); None
    where either is empty."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (int(round(v)) for v in _grown(box, RING_GROW))
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    if x2 <= x1 or y2 <= y1:
        return None
    patch = image[y1:y2, x1:x2]
    ring = np.ones(patch.shape[:2], bool)
    bx1, by1, bx2, by2 = (int(round(v)) for v in box)
    inner = np.s_[max(0, by1 - y1): max(0, by2 - y1), max(0, bx1 - x1): max(0, bx2 - x1)]
    ring[inner] = False
    if ring.all() or not ring.any():
        return None
    return patch, ring, inner


def _ring_share(image: np.ndarray, box, colour: str, colors) -> float:
    """The share of the ring round `box` (`_ring`) inked in `colour` (of the deck's `colors`): a UNO
    index's card round it, a playing card's rank the paper and the table beyond. 1 where there is
    no ring or no ink in it: an unsaturated ring is `_on_ink`'s to judge."""
    around = _ring(image, box)
    if around is None:
        return 1.0
    patch, ring, _ = around
    hues = saturated_hues(patch, 1, mask=ring)
    if hues is None:
        return 1.0
    return float(colour_shares(hues, colors)[list(colors).index(colour)]) * len(hues) / float(ring.sum())


def _red_ring(image: np.ndarray, p: Part, colors) -> float | None:
    """For an index in the colour a playing card's red rank is read as (`_rank_red`), the share of
    the ring round it in that colour (`_ring_share`); None for a part of another colour or none."""
    red = _rank_red(colors)
    return _ring_share(image, p.box, red, colors) if p.color == red else None


def _faint_red(p: Part, ring: float | None) -> bool:
    """Is index `p` (`ring`: its `_red_ring`) in a playing card's red, found no surer than its
    ranks (under `RED_LONE_SCORE`) and not ringed by its card's colour (under `RED_RING_SURE`)?
    Then it is no card alone, nor is a face whose symbol it alone shows."""
    return ring is not None and p.score < RED_LONE_SCORE and ring < RED_RING_SURE


@functools.lru_cache(maxsize=None)
def _rank_red(colors: tuple) -> str:
    """The colour of `colors` (a deck's palette) a playing card's red rank is read as: the one
    nearest a red ink's hue (the classic decks' red, Seinfeld's orange)."""
    return colour_of_hues(np.float32([RED_INK_HUE]), colors)[0]


# an ordinary deck's red ink (OpenCV hue; `render.render_playing_card` prints hue 0-3)
RED_INK_HUE = 0


def _uno_print(image: np.ndarray, p: Part, colors, ring: float | None = None) -> bool:
    """Whether symbol part `p` can be a UNO card's print: a centre symbol, a wild's (on black,
    whose saturation says nothing; a wild's corner oval in the deck's colours), or a coloured index
    printed on ink (`_on_ink`); in the colour a playing card's red rank is read as (`_rank_red`), on
    ink of that colour (`RED_RING` of the ring round it: a red rank's paper lies by a table of
    another colour) unless found surely (`RED_SURE`: a fanned card's index, its neighbours round it).
    `ring`: that share (`_red_ring`) when the caller has read it already."""
    if p.cls == "centre":
        return True
    if p.symbol == "wild":
        return _four_coloured(image, p.box, colors)
    if kinds()[p.symbol].wild:
        return True
    red = _rank_red(colors)
    return _on_ink(image, p.box) and (p.color != red or p.score >= RED_SURE or (
        _ring_share(image, p.box, red, colors) if ring is None else ring) >= RED_RING)


def _four_coloured(image: np.ndarray, box, colors) -> bool:
    """Whether a wild's corner index in `box` shows its oval's quarters: the box's middle
    (`WILD_INDEX_MIDDLE` of it: the oval, little of the black card round it) or the whole box (in
    a nearly dark room, the few coloured pixels left) shows three of the deck's `colors` or more,
    each at least `WILD_INDEX_SHARE` of its coloured pixels. A playing card's black "Q" or "0" on
    paper is read as the oval's shape, and shows none. (A wild draw four's centre, four cards in
    the deck's colours, is judged the same way: `_group_faces`.) A dark yellow's edge is not
    turned green here (`saturated_hues`' ochre): it would add a colour (look-alike table 9,680,120:
    a dark yellow dot on a black card read as a wild's corner)."""
    return any(int((colour_shares(saturated_hues(_patch(image, box, grow), ochre=False), colors)
                    >= WILD_INDEX_SHARE).sum()) >= 3 for grow in (WILD_INDEX_MIDDLE, 1.0))


# the wild corner ovals of the Roboflow validation photos (148 read as wild): in the box's middle
# 0.6, the third commonest colour 0.18 or more of the coloured pixels (in the whole box, 0.05: a
# red card or table beside it, or an overexposed photo's reddish black card, takes most; but in a
# nearly dark photo, x0.2, the middle's 30-40 coloured pixels show two colours, the box three); the
# black ranks of look-alike tables read as wild (fresh seeds 9,570,000..): three colours in neither
WILD_INDEX_MIDDLE, WILD_INDEX_SHARE = 0.6, 0.03


def _grown(box, k: float) -> tuple:
    """`box` scaled by `k` about its centre."""
    x1, y1, x2, y2 = box
    cx, cy, hw, hh = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) * k / 2, (y2 - y1) * k / 2
    return cx - hw, cy - hh, cx + hw, cy + hh


def _patch(image: np.ndarray, box, grow: float) -> np.ndarray:
    """The pixels of `box` grown `grow` times about its centre, cut to the image."""
    x1, y1, x2, y2 = _grown(box, grow)
    h, w = image.shape[:2]
    return image[int(max(0, y1)): int(min(h, y2)), int(max(0, x1)): int(min(w, x2))]


def _face_votes(face: Part, members: list[Part]) -> dict[str, float]:
    """`_symbol_votes` of the parts inside an uncovered face, but a corner index farther from the
    face box's middle than `FAR_CORNER` of its longer side has no weight: it is no corner of that
    card (a card beneath's, which the box of a turned card takes in). Where every part is that
    far, they all weigh (a box round part of a card, cut by the frame or a hand). Every symbol
    shown keeps its key, at no weight if need be: more than one symbol in a face is what asks
    whether some of them are a card's beneath (`_beneath`)."""
    long = max(face.box[2] - face.box[0], face.box[3] - face.box[1], 1e-6)
    near = [p for p in members if p.cls != "index"
            or np.hypot(p.centre[0] - face.centre[0], p.centre[1] - face.centre[1]) <= FAR_CORNER * long]
    votes = dict.fromkeys((p.symbol for p in members), 0.0)
    votes.update(_symbol_votes(near or members))
    return votes


# a card's own corner index lies at most this share of its face box's longer side from the box's
# middle: 0.35-0.42 for a whole card's box (at any turn); the detector's face boxes on the tuning
# piles (9,200,000.., 300 scenes): 491 own corners in full view at most 0.49, while 53 of the 153
# corners of other cards inside a face's box lie farther
FAR_CORNER = 0.5


def _unclaimed_centres(parts: list[Part], cards: list, symbol: str) -> list[Part]:
    """The centre symbols among `parts` read as `symbol` (from `FAINT_CENTRE`) that no card read
    (`cards`: (card, its parts)) shows as its own: a card read is weighed already (pile 9,460,949,
    a wild on a green 6, the 6's outline read unsurely and agreeing with the 6's own centre)."""
    return [p for p in parts if p.cls == "centre" and p.symbol == symbol and p.p >= FAINT_CENTRE
            and not any(d.symbol == symbol and any(p is q for q in m) for d, m in cards)]


def _sureness(members: list[Part], symbol: str, votes: dict[str, float] | None = None) -> float:
    """How sure a card's parts are of its `symbol`: their agreement (its share of their votes,
    `_symbol_votes`; `votes` where the caller has them) times the classifier's certainty that at
    least one of the readings of it is right (separate crops: two corners and the centre; the
    detector's score only decides whether something is there: it is thresholded before)."""
    votes = _symbol_votes(members) if votes is None else votes
    total = sum(votes.values())
    if total <= 0:
        return 0.0
    agree = [p.p for p in members if p.symbol == symbol]
    return votes.get(symbol, 0.0) / total * (1.0 - float(np.prod([1.0 - q for q in agree])))


def _symbol_votes(members: list[Part]) -> dict[str, float]:
    """Each symbol's weight among a card's parts: classifier certainty squared (one sure reading
    outweighs two unsure ones) x detector score (centre x1.3)."""
    votes: dict[str, float] = {}
    for p in members:
        votes[p.symbol] = votes.get(p.symbol, 0.0) + p.p ** 2 * p.score * (1.3 if p.cls == "centre" else 1.0)
    return votes


def _within(p: Part, box, shape: tuple) -> bool:
    """A part that can belong to the uncovered face `box`: its centre inside the box, and an
    index not on the box's very edge (a card's own corner index is printed inside its border,
    so its centre is well inside even the upright box of a tilted card). A side of the box on
    the edge of the frame (`shape`: the image's) is where the frame cuts the card, not the card's edge."""
    if not _inside(p.centre, box):
        return False
    if p.cls != "index":
        return True
    (cx, cy), (h, w) = p.centre, shape[:2]
    gaps = [g for g, cut in ((cx - box[0], box[0] <= 1), (box[2] - cx, box[2] >= w - 1),
                             (cy - box[1], box[1] <= 1), (box[3] - cy, box[3] >= h - 1)) if not cut]
    return not gaps or min(gaps) >= 0.3 * p.size


def _depth(pt, box) -> float:
    """How deep inside `box` point `pt` lies: its least distance to the box's sides, as a share of
    the box's longer side (negative outside)."""
    (cx, cy), (x1, y1, x2, y2) = pt, box
    return min(cx - x1, x2 - cx, cy - y1, y2 - cy) / max(x2 - x1, y2 - y1, 1e-6)


def _inside(pt, box, margin: float = 0.02) -> bool:
    w, h = box[2] - box[0], box[3] - box[1]
    return box[0] - margin * w <= pt[0] <= box[2] + margin * w and box[1] - margin * h <= pt[1] <= box[3] + margin * h


def _same_card(p: Part, members: list[Part], syms: list[Part]) -> bool:
    """Two corner indices of one card: same symbol and colour, about a card's diagonal apart,
    and no other card's index between them (`_between`: fanned twins)."""
    for q in members:
        if q.symbol != p.symbol or q.color != p.color:
            return False
        d = np.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1])
        size = (p.size + q.size) / 2
        if not (2.5 * size <= d <= 9 * size) or _between(p, q, syms):
            return False
    return True


def _corner_of(p: Part, face: Part, members: list[Part], syms: list[Part]) -> bool:
    """An index just outside a face's (loose) box that shows the face's own symbol (that of the
    corner indices among its parts, `members`, or where none was found, of its surest centre
    symbol) and colour, with no other card's index between it and the face's corner (`_between`)."""
    x1, y1, x2, y2 = face.box
    gx, gy = (x2 - x1) * 0.3, (y2 - y1) * 0.3
    near = x1 - gx <= p.centre[0] <= x2 + gx and y1 - gy <= p.centre[1] <= y2 + gy
    # the face's own symbol is its corner indices', or where it shows none, its surest centre's: a
    # faint centre of another symbol among its parts (a card's beneath, under a hand over the face's
    # middle) is no symbol for a corner to join by (fresh pile 9,500,869)
    votes = _symbol_votes(members)
    own = {q.symbol for q in members if q.cls == "index"} or ({max(votes, key=votes.get)} if votes else set())
    return (near and p.symbol in own and any(q.symbol == p.symbol and q.color == p.color for q in members)
            and _fits_corner(p, members) and not any(_between(p, q, syms) for q in members if q.cls == "index"))


def _between(p: Part, q: Part, syms: list[Part]) -> bool:
    """Does another card's corner index (another symbol or colour) lie between indices `p` and
    `q`, within an index size of the line joining them? A card's two corners have its middle
    between them; the corners of fanned twins have the corners of the cards fanned between them."""
    a, b = np.float32(p.centre), np.float32(q.centre)
    ab = b - a
    n2 = float(ab @ ab)
    if n2 == 0:
        return False
    reach = (p.size + q.size) / 2
    for r in syms:
        if r.cls != "index" or r is p or r is q or (r.symbol == p.symbol and r.color == p.color):
            continue
        ar = np.float32(r.centre) - a
        t = float(ar @ ab) / n2
        if BETWEEN[0] <= t <= BETWEEN[1] and abs(float(ar[0] * ab[1] - ar[1] * ab[0])) / np.sqrt(n2) <= reach:
            return True
    return False


def _under_coloured_face(p: Part, face: Part, syms: list[Part], shape: tuple) -> bool:
    """A wild's or wild draw four's corner index by a face whose middle is plainly one colour
    (`ONE_COLOUR`): a card's beneath, not the face's own corner (their middles show the four
    colours), unless the face's box holds two corners of it (a hand over the middle can leave
    one of the four colours). The special wilds' middles are black and white: a card beneath
    colours them."""
    if not (p.cls == "index" and p.symbol in ("wild", "wild_draw_four")
            and face.color not in (None, WILD_FACE) and face.share >= ONE_COLOUR):
        return False
    return sum(q.cls == "index" and q.symbol == p.symbol and _within(q, face.box, shape) for q in syms) < 2


# two faces read as the same card, the smaller this much inside the other, are one card's face
# found twice: two uncovered faces cannot lie over each other (upright boxes of tilted cards side
# by side overlap at their corners)
ONE_FACE = 0.5
# a middle this deep inside an uncovered face's box (a share of its longer side) is covered by it
COVERED_DEPTH = 0.1
# the part of the line between two corner indices where another card's index shows they are two cards
BETWEEN = (0.15, 0.85)


def _in_a_row(p: Part, q: Part) -> bool:
    """Is index `q` the next digit of a number that index `p` is one digit of (a score sheet's)?
    Found as an index too, about as large (`ROW_SIZES`), its centre `ROW_GAP` of `p`'s size away."""
    if q.cls != "index":
        return False
    (pw, ph), (qw, qh) = (p.box[2] - p.box[0], p.box[3] - p.box[1]), (q.box[2] - q.box[0], q.box[3] - q.box[1])
    if not all(ROW_SIZES[0] <= a / max(b, 1e-6) <= ROW_SIZES[1] for a, b in ((qw, pw), (qh, ph))):
        return False
    d = np.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1]) / max(p.size, 1e-6)
    return ROW_GAP[0] <= d <= ROW_GAP[1]


# an index no face took, found under ROW_SCORE, with another index beside it (`_in_a_row`) is a
# digit of a number, no card: a score sheet's green digits, found at 0.41-0.46, each beside the
# next digit's box (look-alike tables 9,620,081 and 9,620,225). A fan's corners lie as near each
# other, but are found surely: no card of the Roboflow photos, the fans, spread hands or piles is
# lost. Its like: width and height each ROW_SIZES of its own, its centre ROW_GAP of its size away
# (the next digit of "80" at 0.9; a box round both digits is larger, a card's far corner further)
ROW_SCORE = 0.5
ROW_SIZES, ROW_GAP = (0.7, 1.4), (0.3, 1.3)


def _giant(p: Part, shape: tuple) -> bool:
    """Is a part's box too large for a corner index: its longer side over `GIANT_INDEX` of the
    frame's shorter side?"""
    return max(p.box[2] - p.box[0], p.box[3] - p.box[1]) > GIANT_INDEX * min(shape[:2])


# a corner index is about a seventh of its card's height: one whose box is longer than this share
# of the frame's shorter side would need a card three times the frame's size. Such "indices" are a
# notepad's or a playing card's whole outline (look-alike table 9,640,516: a box 410 x 400 pixels
# round a notepad, read as a draw two)
GIANT_INDEX = 0.5


def _fills_frame(face: Part, shape: tuple) -> bool:
    """Does a face's box span the whole frame (`FILLS_FRAME` of its width and of its height)?"""
    h, w = shape[:2]
    return face.box[2] - face.box[0] >= FILLS_FRAME * w and face.box[3] - face.box[1] >= FILLS_FRAME * h


# a face whose upright box spans FILLS_FRAME of the frame's width and of its height is a card only
# where a corner index of its symbol is read surely (`symbol_conf`): a cloth in a card's colour is
# found as a face the size of the frame, and a shape on it (a few playing cards, a card back, a
# notepad) is read as its centre symbol. The six look-alike tables that showed it (9,570,309 to
# 9,630,605) all did so in the look at the frame shrunk (`_zoomed_out`), the first look having read
# nothing; the rule holds in every look. A close-up of a real card read by its centre alone spans
# less (pile 9,300,587: 0.91 x 0.81, lost at 0.8)
FILLS_FRAME = 0.95


def _beside(p: Part, q: Part) -> bool:
    """Two indices side by side (fanned cards' corners): centres at most two index sizes apart."""
    return np.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1]) <= (p.size + q.size)


def _pair_at_middle(face: Part, parts: list[Part]) -> bool:
    """Whether two corner indices among `parts`, of one colour other than the face's middle's and
    a card's diagonal apart, have their midpoint (their card's middle) at the face's box's middle
    (`PAIR_AT_MIDDLE` of its longer side), while every centre symbol of the middle's colour lies
    away from it (`CENTRE_AWAY`): the face is their card's, a hand over its middle, which was read
    in the colour of a card beneath showing beside the hand, and that centre symbol is that card's
    (fresh pile 9,480,752: a purple 9 on an orange 9, the hand read as orange too)."""
    side = max(face.box[2] - face.box[0], face.box[3] - face.box[1])
    corners = [p for p in parts if p.cls == "index" and p.color not in (None, face.color)]
    middles = [np.float32(p.centre) for p in parts if p.cls == "centre" and p.color == face.color]
    for i, a in enumerate(corners):
        for b in corners[i + 1:]:
            if a.color != b.color or not _fits_corner(b, [a]):
                continue
            mid = (np.float32(a.centre) + np.float32(b.centre)) / 2
            if np.hypot(*(mid - np.float32(face.centre))) <= PAIR_AT_MIDDLE * side and all(
                    np.hypot(*(c - mid)) > CENTRE_AWAY * side for c in middles):
                return True
    return False


# a card's two corners' midpoint lies at its face's box's middle within this share of its longer
# side (a face's box as found is off by a tenth; pile 9,480,752: 0.09), and another card's centre
# symbol this far from it (a card's own centre symbol lies at its middle; 9,480,752: 0.43)
PAIR_AT_MIDDLE, CENTRE_AWAY = 0.15, 0.25


def _fits_corner(p: Part, members: list[Part]) -> bool:
    """Can index `p` be one more corner of the card whose parts are `members`? A card shows two
    corner indices, far apart (`CORNERS_APART` index sizes)."""
    corners = [q for q in members if q.cls == "index"]
    if len(corners) >= 2:
        return False
    return all(np.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1]) >= CORNERS_APART * (p.size + q.size) / 2
               for q in corners)


def _area(b) -> float:
    return (b[2] - b[0]) * (b[3] - b[1])


def _intersection(a, b) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _overlap(a, b) -> float:
    """The share of the smaller of boxes `a` and `b` that the other covers."""
    small = min(_area(a), _area(b))
    return _intersection(a, b) / small if small > 0 else 0.0


def _iou(a, b) -> float:
    inter = _intersection(a, b)
    union = _area(a) + _area(b) - inter
    return inter / union if union > 0 else 0.0


def _in_quad(det: Detection, quad: np.ndarray, ox: int, oy: int) -> bool:
    """Does the middle of `det`'s box (moved back by the region of interest's `ox`, `oy`) lie inside
    the outline `quad`?"""
    x1, y1, x2, y2 = det.box
    return cv2.pointPolygonTest(np.float32(quad).reshape(-1, 1, 2), ((x1 + x2) / 2 - ox, (y1 + y2) / 2 - oy), False) >= 0


def _add_unseen(parts: list[Part], more) -> None:
    """Adds to `parts` each of `more` that no part of its kind already there overlaps (IoU over
    0.5): a thing found by two looks at a frame counts once, as the first look found it."""
    for p in more:
        if not any(q.cls == p.cls and _iou(q.box, p.box) > 0.5 for q in parts):
            parts.append(p)


def _dedupe(parts: list[Part]) -> list[Part]:
    """One symbol seen twice by the detector (overlapping boxes): keep the surer reading."""
    kept: list[Part] = []
    for p in sorted(parts, key=lambda p: -p.score * p.p):
        if not any(q.cls == p.cls and q.symbol == p.symbol and _iou(p.box, q.box) > 0.3 for q in kept):
            kept.append(p)
    return kept


def _union(boxes):
    b = np.array(boxes)
    return (float(b[:, 0].min()), float(b[:, 1].min()), float(b[:, 2].max()), float(b[:, 3].max()))
