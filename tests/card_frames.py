"""Frames with a rendered card face for the tests that run the shipped models."""
import cv2
import numpy as np
import pytest

from companion.cards import Card
from companion.paths import models_dir
from companion.vision.render import Style, render_card

HAVE_MODEL = (models_dir() / "recognizer.json").is_file()
needs_model = pytest.mark.skipif(not HAVE_MODEL, reason="no trained model in models/")


def on_table(card: Card, style: Style, height: int = 300, size=(640, 480), centre=None) -> np.ndarray:
    """A rendered card face `height` pixels tall on a plain green table, its middle at `centre`
    (default the frame's); the frame cuts what falls outside it."""
    f = render_card(card, style)
    s = height / f.image.shape[0]
    pic = cv2.resize(f.image.astype(np.uint8), None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(f.alpha.astype(np.float32), None, fx=s, fy=s) > 0.5
    w, h = size
    cx, cy = centre or (w // 2, h // 2)
    ph, pw = pic.shape[:2]
    big = np.full((h + 2 * ph, w + 2 * pw, 3), (90, 120, 80), np.uint8)
    y, x = ph + cy - ph // 2, pw + cx - pw // 2
    big[y:y + ph, x:x + pw][alpha] = pic[alpha]
    return np.ascontiguousarray(big[ph:ph + h, pw:pw + w])
