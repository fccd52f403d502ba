"""The face pipeline: find, warp, read, decide, in one short method::

    p = FacePipeline(deck="classic")
    result = p.recognize(cv2.imread("pile.jpg"))      # a Recognition, as Recognizer gives
"""
from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...cards import deck as deck_profile, deck_names
from ...paths import models_dir
from ..detection import Detection, Recognition
from ..runtime import ModelError
from .decide import decide
from .find import Finder
from .read import Reader
from .warp import warp


@dataclass(frozen=True)
class Settings:
    """Every knob of the pipeline, a line each on what it trades."""

    finder_conf: float = 0.3     # a face or index counts from this finder score: lower finds more, and more false ones
    face_iou: float = 0.3        # uncovered faces overlapping more are one found twice: higher keeps doubles
    index_iou: float = 0.5       # indices overlapping more are one: lower loses a tight fan's neighbours
    face_least: float = 0.6      # a face names a card from this probability: lower reads more, and more wrongly
    index_least: float = 0.5     # a covered card's index names it from this probability: the same trade
    grow: float = 1.1            # an index this far out of a face's outline (times its size) is its own
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


class FacePipeline:
    """The recogniser as four stages (`companion.vision.stages`). `deck`: a deck profile's name,
    or "any" (every deck's symbols, the classic four colours, as `companion recognize` reports)."""

    def __init__(self, deck: str = "any", *, model_dir: str | os.PathLike | None = None, threads: int = 1,
                 reader: str | os.PathLike | None = None, settings: Settings = Settings()):
        if deck not in ("any", *deck_names()):
            raise ValueError(f"unknown deck {deck!r}; choose any or one of {', '.join(deck_names())}")
        profiles = deck_names() if deck == "any" else [deck]
        allowed = {s for name in profiles for s in deck_profile(name).symbols()}
        colors = deck_profile("classic" if deck == "any" else deck).colors
        folder = Path(model_dir) if model_dir else models_dir()
        meta_path = folder / "recognizer.json"
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot read {meta_path}: {exc}") from exc
        names = [meta.get(k) for k in ("finder", "face_reader", "classifier")]
        if not all(names):
            raise ModelError(f"{meta_path} names no finder, face reader or classifier")
        self.settings, self.colors = settings, tuple(colors)
        self.find = Finder(folder / names[0], int(meta.get("finder_imgsz", 320)), threads=threads,
                           conf=settings.finder_conf, face_iou=settings.face_iou, index_iou=settings.index_iou)
        self.read = Reader(Path(reader) if reader else folder / names[1], folder / names[2], self.colors, allowed,
                           turns=settings.index_turns, threads=threads)

    def recognize(self, image: np.ndarray) -> Recognition:
        if image is None or image.ndim != 3:
            raise ValueError("recognize() needs a BGR colour image")
        found = self.find(image)
        readings = self.read(warp(image, found))
        seen, top = decide(readings, face_least=self.settings.face_least, index_least=self.settings.index_least,
                           grow=self.settings.grow)
        detection = {id(s): Detection(s.color, s.symbol, s.p, s.box) for s in seen}
        return Recognition([detection[id(s)] for s in seen], detection[id(top)] if top else None)
