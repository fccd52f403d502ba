"""The card recogniser: five named stages (`companion.vision.stages`), one call of each network a
frame (the finder on the whole frame; the fitter and two readers on the parts it found, batched),
on ONNX Runtime and OpenCV only (no torch on the Pi)::

    r = Recognizer(deck="classic")
    result = r.recognize(cv2.imread("pile.jpg"))
    result.top        # Detection(color='red', symbol='7', confidence=0.93, box=(...)) or None
    result.cards      # every card seen: uncovered faces, and covered cards by a symbol in view (a corner index)

`Recognizer.recognize` is the whole flow: find, fit, warp, read, decide. Every knob is a field of
`Settings`, a line each on what it trades.
"""
from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..cards import deck as deck_profile, deck_names
from ..paths import models_dir
from .detection import Detection, Recognition
from .runtime import ModelError
from .stages import Finder, Fitter, Reader, decide, warp

__all__ = ["Recognizer", "Settings", "parse_settings", "Detection", "Recognition", "ModelError"]


@dataclass(frozen=True)
class Settings:
    """Every knob of the recogniser, a line each on what it trades."""

    finder_conf: float = 0.3     # a face or index counts from this finder score: lower finds more, and more false ones
    finder_iou: float = 0.5      # two faces or two indices overlapping more are one: lower loses a tight fan's neighbours
    face_least: float = 0.6      # a face names a card from this probability: lower reads more, and more wrongly
    index_least: float = 0.5     # a covered card's index names it from this probability: the same trade
    stray: float = 0.1           # the chance an index on a face is a card's beneath: higher trusts the face's own reading more
    index_turns: int = 1         # quarter turns each index is read at, logits averaged: more is surer and slower


def parse_settings(pairs: list[str]) -> Settings:
    """`Settings` with each NAME=VALUE of `pairs` changed; a ValueError says what is wrong."""
    fields = {f.name: f.type for f in dataclasses.fields(Settings)}
    changed = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name not in fields:
            raise ValueError(f"{pair!r}: the settings are {', '.join(fields)}")
        try:
            changed[name] = int(value) if fields[name] in (int, "int") else float(value)
        except ValueError:
            raise ValueError(f"{pair!r}: {value!r} is not a number") from None
    return Settings(**changed)


class Recognizer:
    """Finds every face-up card in a BGR image, and the top card of the pile. `deck`: a deck
    profile's name; "any" (every deck's symbols in the classic four colours, as `companion
    recognize` reports them); or "auto" (every deck's symbols, every deck's colours).
    `reader`: another face reader's ONNX file (to measure one)."""

    def __init__(self, deck: str = "classic", *, model_dir: str | os.PathLike | None = None, threads: int = 1,
                 reader: str | os.PathLike | None = None, settings: Settings = Settings()):
        if deck not in ("any", "auto", *deck_names()):
            raise ValueError(f"unknown deck {deck!r}; choose any, auto or one of {', '.join(deck_names())}")
        profiles = [deck] if deck in deck_names() else deck_names()
        allowed = {s for name in profiles for s in deck_profile(name).symbols()}
        palettes = [deck_profile("classic" if deck == "any" else name).colors for name in profiles]
        self.colors = tuple(dict.fromkeys(c for pal in palettes for c in pal))
        folder = Path(model_dir) if model_dir else models_dir()
        meta_path = folder / "recognizer.json"
        if not meta_path.is_file():
            raise ModelError(f"model description missing: {meta_path}")
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot read {meta_path}: {exc}") from exc
        names = [meta.get(k) for k in ("finder", "face_reader", "classifier")] if isinstance(meta, dict) else []
        if not all(names):
            raise ModelError(f"{meta_path} names no finder, face_reader or classifier")
        self.settings = settings
        self.find = Finder(folder / names[0], int(meta.get("finder_imgsz", 320)), threads=threads,
                           conf=settings.finder_conf, iou=settings.finder_iou)
        # the fitter is optional: a model folder without one reads the finder's outlines as they are
        self.fit = Fitter(folder / meta["fitter"], threads=threads) if meta.get("fitter") else None
        self.read = Reader(Path(reader) if reader else folder / names[1], folder / names[2], self.colors, allowed,
                           turns=settings.index_turns, threads=threads)

    def outline(self, image: np.ndarray):
        """The find stage's faces and indices in `image`, each face's outline fitted where the
        model folder has a fitter: what the warp stage cuts out."""
        found = self.find(image)
        return self.fit(image, found) if self.fit else found

    def recognize(self, image: np.ndarray, roi: tuple | None = None) -> Recognition:
        """Every card in `image` (BGR) and the top card; `roi` = (x1, y1, x2, y2): the pile's area
        (boxes stay in the whole image's pixels)."""
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise ValueError("recognize() needs a BGR colour image")
        ox = oy = 0
        if roi is not None:
            x1, y1, x2, y2 = (max(0, int(v)) for v in roi)
            image, ox, oy = image[y1:y2, x1:x2], x1, y1
        if image.shape[0] < 2 or image.shape[1] < 2:       # nothing to look at
            return Recognition()
        readings = self.read(warp(image, self.outline(image), index_size=self.read.index_size))
        s = self.settings
        seen, top, unsure = decide(readings, face_least=s.face_least, index_least=s.index_least, stray=s.stray)

        def detection(c):
            return c and Detection(c.color, c.symbol, c.p, (c.box[0] + ox, c.box[1] + oy, c.box[2] + ox, c.box[3] + oy),
                                   covered=not c.uncovered)
        cards = {id(c): detection(c) for c in seen}
        return Recognition(list(cards.values()), cards.get(id(top)), detection(unsure))
