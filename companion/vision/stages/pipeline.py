"""The face pipeline: find, warp, read, decide, in one short method::

    p = FacePipeline(deck="classic")
    result = p.recognize(cv2.imread("pile.jpg"))      # a Recognition, as Recognizer gives
"""
from __future__ import annotations

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


def reader_file(meta: dict) -> str | None:
    """The face reader's file that recognizer.json names (the card reader's where it names none)."""
    return meta.get("face_reader") or meta.get("cardreader")


@dataclass(frozen=True)
class Settings:
    """Every knob of the pipeline, a line each on what it trades."""

    finder_conf: float = 0.3     # a face counts from this finder score: lower finds more cards and more false ones
    finder_iou: float = 0.8      # outlines overlapping more are one: higher keeps a fan's cards apart, and finds doubles
    read_least: float = 0.6      # a face names a card from this reader probability: lower reads more, and more wrongly
    same_face: float = 0.45      # two faces overlapping by this IoU are one card found twice


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
        reader = reader or (folder / reader_file(meta) if reader_file(meta) else None)
        if not meta.get("outlines") or reader is None:
            raise ModelError(f"{meta_path} names no outline finder or card reader")
        self.settings, self.colors = settings, tuple(colors)
        self.find = Finder(folder / meta["outlines"], int(meta.get("outlines_imgsz", 320)), threads=threads,
                           conf=settings.finder_conf, iou=settings.finder_iou)
        corners = meta.get("corner_reader")
        self.read = Reader(Path(reader), colors, allowed, corners=folder / corners if corners else None,
                           threads=threads)

    def recognize(self, image: np.ndarray) -> Recognition:
        if image is None or image.ndim != 3:
            raise ValueError("recognize() needs a BGR colour image")
        faces = self.find(image)
        readings = self.read(warp(image, faces))
        cards, top = decide(readings, least=self.settings.read_least, same=self.settings.same_face)
        detection = {id(r): Detection(r.color, r.symbol, r.p, r.face.box) for r in cards}
        return Recognition([detection[id(r)] for r in cards], detection[id(top)] if top else None)
