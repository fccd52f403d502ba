"""Measures of the pixels the old recogniser looks at: sharpness, clipping, ink, the ring round an
index, a box's patch, skin."""
from __future__ import annotations
import functools
import cv2
import numpy as np
from ..cards import deck as deck_profile
from .colour import (SKIN_MAX_SAT, colour_of_hues, colour_shares, saturated_hues, skin_like, white_balance)
from . import pile_tuning as tuning


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
    below = cv2.inRange(image, (0, 0, 0), (tuning.CLIPPED - 1,) * 3)
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
    blur = cv2.GaussianBlur(image, (0, 0), tuning.SHARPEN_SIGMA)
    return cv2.addWeighted(image, 1 + tuning.SHARPEN_AMOUNT, blur, -tuning.SHARPEN_AMOUNT, 0)


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
    return float(skin_like(hsv[..., 0], hsv[..., 1], tuning.SKIN_LEAST, skin).mean())


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


def _square_at(image: np.ndarray, pt: np.ndarray, r: float) -> np.ndarray:
    """The pixels within `r` of point `pt` each way (a point at least `r` inside the frame)."""
    x1, y1, x2, y2 = (int(round(v)) for v in (pt[0] - r, pt[1] - r, pt[0] + r, pt[1] + r))
    return image[y1:y2 + 1, x1:x2 + 1]


def _look(image: np.ndarray, mask: np.ndarray, skin: int = SKIN_MAX_SAT) -> np.ndarray:
    """A coarse colour histogram of the masked pixels: 12 hues of the saturated ones, and dark,
    middling and light greys. A hand's skin is left out: a hand over the upper card's own part
    would make the part the cards share look more like the lower card's."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[mask]
    hsv = hsv[~skin_like(hsv[:, 0], hsv[:, 1], tuning.SKIN_LEAST, skin)]
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
    if both.sum() < tuning.ABOVE_MIN_OVERLAP * smaller or only_a.sum() < 30 or only_b.sum() < 30:
        return False
    seen = _look(image, both, skin)
    da = float(np.abs(seen - _look(image, only_a, skin)).sum())
    db = float(np.abs(seen - _look(image, only_b, skin)).sum())
    return da + tuning.ABOVE_MARGIN < db


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
    if float(sat[ring].mean()) < tuning.MIN_RING_SAT * float(sat[~ring].mean()):
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
    return float(ink[my:bh - my, mx:bw - mx].mean()) - (sides[0] + sides[1]) / 2 <= tuning.MAX_INK_RISE


def _ring(image: np.ndarray, box) -> tuple | None:
    """The patch of `image` round `box` out to `RING_GROW` times it (cut at the frame's edge), the
    ring (a mask of the patch: outside the box) and the box's inside (a slice of the patch); None
    where either is empty."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (int(round(v)) for v in _grown(box, tuning.RING_GROW))
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


@functools.lru_cache(maxsize=None)
def _rank_red(colors: tuple) -> str:
    """The colour of `colors` (a deck's palette) a playing card's red rank is read as: the one
    nearest a red ink's hue (the classic decks' red, Seinfeld's orange)."""
    return colour_of_hues(np.float32([tuning.RED_INK_HUE]), colors)[0]


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
                    >= tuning.WILD_INDEX_SHARE).sum()) >= 3 for grow in (tuning.WILD_INDEX_MIDDLE, 1.0))


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
