"""`companion calibrate`: check the camera's framing, exposure and focus, the size of a card on
the pile (the recogniser reads cards 18-75% of what it looks at best: smaller ones are read from
too few pixels, `models/README.md`'s small cards; a pile area round a small pile is suggested),
and that the recogniser names each of the deck's colours right under this room's light (a card
of each colour shown in turn, or photos of them).

The checks are plain functions on a frame, so they can be tried on a photo::

    >>> import numpy as np
    >>> flat = np.full((480, 640, 3), 128, np.uint8)
    >>> focus_score(flat)
    0.0
    >>> [c.ok for c in check_frame(flat, (200, 120, 440, 360))]
    [True, False]
    >>> suggest_roi((300, 200, 330, 240), (640, 480))      # a card 40 px tall in a 480 px frame
    (208, 140, 421, 300)
"""
from __future__ import annotations

import argparse
import logging
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.cards import deck
from companion.config import ConfigError, load_config

log = logging.getLogger("companion.calibrate")

SHARP = 120.0        # variance of the Laplacian on the pile area: above this the cards are sharp
SOFT = 40.0
SMALL, LARGE = 0.18, 0.75   # a card's height as a share of the area read: below, read less well; above, cut
ROOM = 4.0           # a suggested pile area is this many card heights tall (room for a spread pile)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    message: str


def focus_score(image: np.ndarray, roi=None) -> float:
    """Variance of the Laplacian of the grey image (higher = sharper edges)."""
    if roi:
        x1, y1, x2, y2 = roi
        image = image[y1:y2, x1:x2]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def check_frame(image: np.ndarray, roi=None) -> list[Check]:
    """Exposure and focus of a frame, each with a message a person can act on."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    mean = float(grey.mean())
    clipped = float(np.count_nonzero(grey >= 250)) / grey.size
    if mean < 50:
        exposure = Check("exposure", False, f"too dark (mean {mean:.0f}/255): more light on the table")
    elif mean > 210 or clipped > 0.05:
        exposure = Check("exposure", False, f"too bright or glare ({clipped:.0%} of pixels white): "
                                            "move the lamp so it does not reflect off the cards")
    else:
        exposure = Check("exposure", True, f"good (mean {mean:.0f}/255)")
    score = focus_score(image, roi)
    if score >= SHARP:
        focus = Check("focus", True, f"sharp (score {score:.0f})")
    elif score >= SOFT:
        focus = Check("focus", False, f"soft (score {score:.0f}, want {SHARP:.0f}+): adjust the lens or the height; "
                                      "is a card on the pile?")
    else:
        focus = Check("focus", False, f"blurred or empty (score {score:.0f}): put a card on the pile and focus")
    return [exposure, focus]


def check_color(recognizer, image: np.ndarray, color: str, roi=None) -> Check:
    """Whether ``recognizer`` reads the top card of ``image`` (a card of ``color`` on the pile) in
    that colour, with a message a person can act on."""
    top = recognizer.recognize(image, roi=roi).top
    if top is None:
        return Check(color, False, "no card read: lay one number card in the middle of the pile area, "
                                   "hand away, and check the framing and focus")
    got = f"{top.card or top.symbol} ({top.confidence:.2f} sure)"
    if top.color != color:
        return Check(color, False, f"read as {got}: the light's colour may be too strong (a warm bulb, a "
                                   "coloured shade); try a whiter lamp, or move it so no shadow or glare lies on the card")
    return Check(color, True, f"read as {got}")


def _tall(box) -> float:
    """A card's height in pixels: its box's longer side (a turned card's a little more)."""
    return max(box[2] - box[0], box[3] - box[1])


def suggest_roi(box, frame: tuple[int, int]) -> tuple[int, int, int, int]:
    """A pile area (x1, y1, x2, y2) round a card's `box`, `ROOM` card heights tall, as wide as
    the frame's shape allows, inside the `frame` (width, height)."""
    fw, fh = frame
    x1, y1, x2, y2 = box
    h = min(fh, max(32, round(_tall(box) * ROOM)))
    w = min(fw, max(32, round(h * fw / fh)))
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    ax = int(np.clip(round(cx - w / 2), 0, fw - w))
    ay = int(np.clip(round(cy - h / 2), 0, fh - h))
    return ax, ay, ax + w, ay + h


def check_card_size(recognition, frame: tuple[int, int], roi=None) -> Check:
    """Whether the card on the pile (the top card, or the largest one seen) is a size the
    recogniser reads well, against the area it reads (`roi`, or the whole `frame` (width,
    height)); a message a person can act on, with a pile area to set where cards are small."""
    found = recognition.top or recognition.unsure or max(recognition.cards, key=lambda c: _tall(c.box), default=None)
    if found is None:
        return Check("card size", False, "no card read: lay one number card on the pile, hand away")
    tall = _tall(found.box)
    area = (roi[3] - roi[1]) if roi else frame[1]
    share = tall / area
    where = "the pile area's" if roi else "the frame's"
    if share < SMALL:
        r = suggest_roi(found.box, frame)
        return Check("card size", False, f"small: a card is {tall:.0f} px, {share:.0%} of {where} height "
                                         f"(reads best from {SMALL:.0%}): lower the camera, or set under [pile] "
                                         f"roi = [{r[0]}, {r[1]}, {r[2]}, {r[3]}] (round this card; "
                                         "check the whole pile fits in it)")
    if share > LARGE:
        fix = "widen pile.roi or raise the camera" if roi else "raise the camera"
        return Check("card size", False, f"large: a card is {share:.0%} of {where} height "
                                         f"(reads best up to {LARGE:.0%}): {fix}")
    return Check("card size", True, f"good: a card is {tall:.0f} px, {share:.0%} of {where} height")


def load_recognizer(cfg):
    """The table's recogniser, or None (with the reason logged) where it cannot be loaded."""
    from companion.vision import Recognizer
    try:
        return Recognizer(deck=cfg.table.deck, model_dir=cfg.camera.model or None)
    except Exception as exc:        # no model file, or no vision in this build
        log.error("no card recogniser: %s", exc)
        return None


def grab(source, n: int = 10) -> np.ndarray:
    """The last of ``n`` frames (the first ones let exposure settle)."""
    frame = None
    for _ in range(n):
        f = source.read()
        if f is None:
            break
        frame = f.image
    if frame is None:
        raise RuntimeError("the camera gave no frame")
    return frame


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the table's TOML config")
    parser.add_argument("--snapshot", default="calibrate.jpg", help="write a frame with the pile area drawn here")
    parser.add_argument("--colors", action="store_true",
                        help="check that each of the deck's colours reads right: cards shown one by one")
    parser.add_argument("--from", dest="from_dir", default=None,
                        help="check the colours on photos DIR/<colour>.jpg instead of the camera")
    parser.add_argument("--frames", type=int, default=15, help="frames to take per look (default 15)")


def main(args: argparse.Namespace) -> int:
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        log.error("%s", exc)
        return 2
    roi = cfg.pile.roi
    colors = deck(cfg.table.deck).colors
    source = None
    if args.from_dir is None:
        from companion.camera.sources import CameraError, open_source
        source = open_source(cfg.camera, realtime_replay=False)
        try:
            source.open()
        except CameraError as exc:
            log.error("%s", exc)
            return 1
    ok = True
    recognizer = None
    try:
        if source is not None:
            frame = grab(source, args.frames)
            h, w = frame.shape[:2]
            print(f"camera: {w}x{h}; pile area {roi or 'the whole frame'}")
            checks = check_frame(frame, roi)
            recognizer = load_recognizer(cfg)
            if recognizer is not None:
                checks.append(check_card_size(recognizer.recognize(frame, roi=roi), (w, h), roi))
            else:
                print("  --  card size: not checked (no recogniser)")
            for c in checks:
                ok &= c.ok
                print(f"  {'ok ' if c.ok else 'FIX'} {c.name}: {c.message}")
            shot = frame.copy()
            if roi:
                cv2.rectangle(shot, roi[:2], roi[2:], (0, 255, 255), 2)
            cv2.imwrite(args.snapshot, shot)
            print(f"  snapshot with the pile area: {args.snapshot} (the whole pile should sit inside the box)")
        if args.colors or args.from_dir:
            recognizer = recognizer or load_recognizer(cfg)
            if recognizer is None:
                return 1
            print(f"colours of the {cfg.table.deck} deck:")
            for color in colors:
                if args.from_dir:
                    path = next((p for p in sorted(Path(args.from_dir).glob(f"{color}.*"))), None)
                    image = cv2.imread(str(path)) if path else None
                    if image is None:
                        log.error("no photo %s/%s.jpg", args.from_dir, color)
                        return 1
                else:
                    input(f"Put a {color} number card in the middle of the pile area, take your hand away, press Enter… ")
                    time.sleep(0.5)
                    image = grab(source, args.frames)
                c = check_color(recognizer, image, color, roi)
                ok &= c.ok
                print(f"  {'ok ' if c.ok else 'FIX'} {c.name}: {c.message}")
    finally:
        if source is not None:
            source.close()
    return 0 if ok else 1

