"""Synthetic table frames and a fake recogniser, for tests, doctests and benches.

`card_frame` draws an overhead view of the pile (felt, a card, optionally a hand, a light
change, a bumped camera). The card it shows is also written into two marker pixels in the
corner, which `FakeRecognizer` reads back: the gate logic can be tested without a model::

    >>> rec = FakeRecognizer()
    >>> str(rec.recognize(card_frame("blue skip")).top.card), rec.calls
    ('blue skip', 1)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from companion.cards import Card, deck

W, H = 640, 480
CARD_W, CARD_H = 110, 160
PILE_CENTER = (320, 240)
PILE_ROI = (200, 120, 440, 360)
BGR = {"red": (40, 40, 210), "yellow": (40, 210, 230), "green": (60, 170, 50), "blue": (200, 110, 30), None: (30, 30, 30)}


@lru_cache(maxsize=None)
def _names() -> tuple[str, ...]:
    return tuple(sorted({str(c) for c in deck("classic").cards()}))


@lru_cache(maxsize=4)
def _felt(w: int, h: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    base = np.empty((h, w, 3), np.uint8)
    base[:] = (70, 110, 45)
    tex = rng.integers(-12, 13, (h // 8 + 1, w // 8 + 1, 1))
    tex = cv2.resize(tex.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
    return np.clip(base + tex, 0, 255).astype(np.uint8)


def card_box(offset=(0, 0)) -> tuple[int, int, int, int]:
    cx, cy = PILE_CENTER[0] + offset[0], PILE_CENTER[1] + offset[1]
    return (cx - CARD_W // 2, cy - CARD_H // 2, cx + CARD_W // 2, cy + CARD_H // 2)


def _draw_card(img: np.ndarray, name: str, offset) -> None:
    card = Card.parse(name)
    x1, y1, x2, y2 = card_box(offset)
    cv2.rectangle(img, (x1, y1), (x2, y2), (245, 245, 245), -1)
    cv2.rectangle(img, (x1 + 8, y1 + 8), (x2 - 8, y2 - 8), BGR[card.color], -1)
    cv2.ellipse(img, ((x1 + x2) // 2, (y1 + y2) // 2), (35, 55), 30, 0, 360, (245, 245, 245), -1)
    label = card.symbol[:2] if not card.is_number else card.symbol
    cv2.putText(img, label, ((x1 + x2) // 2 - 18, (y1 + y2) // 2 + 14), cv2.FONT_HERSHEY_SIMPLEX, 1.3,
                BGR[card.color], 3)


def card_frame(top: str | None = None, *, under: tuple[str, ...] = (), offset=(0, 0), hand=None,
               light: float = 1.0, shift=(0, 0), confidence: float = 0.95, noise: int = 0,
               seed: int = 0, size=(W, H)) -> np.ndarray:
    """An overhead frame of the pile.

    ``top`` the top card (None: empty pile), ``under`` cards peeking out below it, ``offset``
    where the top card lies relative to the pile centre, ``hand`` the (x, y) of a hand passing
    over, ``light`` a brightness factor, ``shift`` a bumped camera, ``confidence`` what the fake
    recogniser will report, ``noise`` sensor noise amplitude (grey levels).
    """
    w, h = size
    img = _felt(w, h).copy()
    for i, name in enumerate(under):
        _draw_card(img, name, (-14 + 9 * i, -6 + 4 * i))
    if top:
        _draw_card(img, top, offset)
    if hand is not None:
        hx, hy = hand
        cv2.ellipse(img, (int(hx), int(hy)), (70, 95), 20, 0, 360, (120, 160, 215), -1)
        cv2.rectangle(img, (int(hx) - 40, int(hy)), (int(hx) + 40, h + 50), (110, 150, 205), -1)
    if shift != (0, 0):
        m = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
        img = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    if light != 1.0:
        img = cv2.convertScaleAbs(img, alpha=light)
    if noise:
        rng = np.random.default_rng(seed)
        img = cv2.add(img, rng.integers(0, noise + 1, img.shape, dtype=np.uint8))
    # the marker the fake recogniser reads: which card is on top, how sure, where
    covered = hand is not None and abs(hand[0] - PILE_CENTER[0]) < 150 and abs(hand[1] - PILE_CENTER[1]) < 150
    idx = 0 if not top else _names().index(str(Card.parse(top))) + 1
    x1, y1, _, _ = card_box(offset)
    img[0, 0] = (255 if covered else idx, int(confidence * 250), 0)
    img[0, 1] = (max(0, x1) // 4, max(0, y1) // 4, 0)
    return img


@dataclass(frozen=True)
class FakeDetection:
    color: str | None
    symbol: str
    confidence: float
    box: tuple[int, int, int, int]

    @property
    def card(self) -> Card:
        return Card(self.color, self.symbol)


@dataclass
class FakeRecognition:
    cards: list = field(default_factory=list)
    top: FakeDetection | None = None
    unsure: FakeDetection | None = None


class FakeRecognizer:
    """Reads the marker `card_frame` leaves; counts calls; can be told to fail.

    ``fail_next`` makes that many following calls raise; ``override`` maps a card name to the
    confidence to report for it (an unsure model).
    """

    def __init__(self, *, override: dict[str, float] | None = None):
        self.calls = 0
        self.fail_next = 0
        self.override = dict(override or {})

    def recognize(self, image_bgr: np.ndarray, roi=None) -> FakeRecognition:
        self.calls += 1
        if self.fail_next:
            self.fail_next -= 1
            raise RuntimeError("fake model failure")
        b, g, _ = (int(v) for v in image_bgr[0, 0])
        if b == 0:
            return FakeRecognition()
        if b == 255:   # a hand covers the pile: a poor guess
            det = FakeDetection("red", "5", 0.3, card_box())
            return FakeRecognition([det], det)
        card = Card.parse(_names()[b - 1])
        bx, by = (int(v) * 4 for v in image_bgr[0, 1][:2])
        conf = self.override.get(str(card), g / 250)
        det = FakeDetection(card.color, card.symbol, conf, (bx, by, bx + CARD_W, by + CARD_H))
        return FakeRecognition([det], det)
