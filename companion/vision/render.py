"""Drawing card faces (and backs) in several print designs, for synthetic training data and the demo.

Everything is drawn with OpenCV primitives and Hershey fonts, so it is deterministic for a seed
and needs no font or image files (training data may also print a deck's numbers in TrueType fonts
found on the machine, `glyphs.truetype_fonts`, and draw its action symbols other ways, `SHAPES`)::

    >>> import numpy as np
    >>> from companion.cards import Card
    >>> face = render_card(Card.parse("red 7"), Style.random(np.random.default_rng(0), "classic"))
    >>> face.image.shape
    (300, 200, 3)

A face comes with the boxes (in face pixels) of its two corner indices and its centre symbol,
which become the labels when the face is placed in a scene.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..cards import Card
from .glyphs import little_card, symbol_mask, text_mask

CARD_W, CARD_H = 200, 300
# The print designs: the classic tilted oval, the recent deck's white circle, a flat print with no
# white middle, and the sunburst print (a big number on a white half-disc of rays). A seed draws
# one of the first three; the sunburst print is drawn by a scene's ``sunburst`` share
# (`synth.make_scene`), from its own stream, so that every seed's scene stays what it was.
DESIGNS = ("classic", "modern", "flat", "sunburst")
SEEDED = DESIGNS.index("sunburst")      # the designs a seed draws from

# BGR printing colours per colour name; a scene jitters them. The hues match what a camera sees
# on real cards (`python models/recipe hues`): a golden yellow (hue 23; never lime), and a green that is
# the classic deck's olive (hue 40) in the classic design, pure (hue 65) in the others (the recent
# decks lean teal).
INKS = {
    "red": (40, 30, 215), "yellow": (10, 195, 250), "green": (60, 160, 40), "blue": (200, 100, 0),
    "orange": (30, 95, 240), "purple": (150, 50, 120),
}
OLIVE = (45, 150, 115)
WILD_QUARTERS = ("red", "blue", "yellow", "green")
# How a deck draws its action symbols and wild centres: other editions and makers draw them their
# own way. 0 is the classic deck (skip slashed bottom-left to top-right, two straight diagonal
# arrows, two upright overlapping cards, four cards in a row, the quartered oval); 1-3 vary the
# slash's direction and the ring's weight, mirror, bend or thicken the arrows, fan or spread the
# cards, write "WILD" on the oval or turn and split its quarters. Training data draws 1 and 2;
# 3 is held out to measure symbols drawn in a way no training saw (`python models/recipe bench --shapes`).
SHAPES = (0, 1, 2, 3)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX)


def fade(bgr: tuple, share: float) -> tuple:
    """An ink printed `share` of the way towards white: its hue kept, its saturation lowered::

        >>> fade((200, 100, 0), 0.35)
        (219, 154, 89)
    """
    return tuple(int(v + (255 - v) * share) for v in bgr)


@dataclass
class Style:
    """How one deck is printed: design, inks, border, font, slant."""

    design: str = "classic"
    inks: dict = field(default_factory=lambda: dict(INKS))
    white: tuple = (245, 245, 245)
    border: float = 0.07          # white border, fraction of the card width
    radius: float = 0.08          # corner radius, fraction of the card width
    font: int | str = cv2.FONT_HERSHEY_DUPLEX     # a Hershey font, or the path of a TrueType font
    slant: float = 0.18           # italic shear of numbers
    weight: float = 1.0           # stroke thickness factor
    shadow: bool = True           # black outline/offset shadow behind symbols
    index_scale: float = 1.0
    underline_69: bool = True
    shapes: int = 0               # how the action symbols and wild centres are drawn (`SHAPES`)
    theme: int = -1               # a themed deck's picture seed (`_picture`); -1: no pictures
    rays: int = 14                # the sunburst print: rays in its half-disc
    dome: bool = True             # the sunburst print: the half-disc's round side up (else down)

    @classmethod
    def random(cls, rng: np.random.Generator, design: str | None = None, fonts: tuple = (),
               font_share: float = 0.5, shapes: tuple = (), shape_share: float = 0.5,
               themed: float = 0.0) -> "Style":
        """A random deck's print. `fonts`: TrueType font files (`truetype_fonts`), drawn for
        `font_share` of the decks instead of a Hershey font; `shapes`: `SHAPES` variants drawn for
        `shape_share` of the decks instead of the classic deck's; `themed`: the share of decks
        with a picture in every coloured card's middle (`theme`). Without them the draws are the
        same as ever."""
        design = design or DESIGNS[rng.integers(SEEDED)]
        inks = {}
        for name, bgr in INKS.items():
            if name == "green" and design == "classic":   # the classic deck's green is olive
                bgr = OLIVE
            jitter = rng.normal(0, 14, 3)
            inks[name] = tuple(int(np.clip(v + j, 0, 255)) for v, j in zip(bgr, jitter))
        w = int(rng.integers(228, 256))
        white = (w, int(np.clip(w + rng.integers(-6, 4), 0, 255)), int(np.clip(w + rng.integers(-12, 4), 0, 255)))
        style = cls(design=design, inks=inks, white=white, border=float(rng.uniform(0.045, 0.09)),
                   radius=float(rng.uniform(0.05, 0.11)), font=int(FONTS[rng.integers(len(FONTS))]),
                   slant=float(rng.uniform(0.0, 0.3)) if design != "modern" else float(rng.uniform(0, 0.12)),
                   weight=float(rng.uniform(0.8, 1.4)), shadow=bool(design == "classic" or rng.random() < 0.5),
                   index_scale=float(rng.uniform(0.85, 1.15)), underline_69=True)
        if fonts and rng.random() < font_share:
            style.font = str(fonts[rng.integers(len(fonts))])
        if shapes and rng.random() < shape_share:
            style.shapes = int(shapes[rng.integers(len(shapes))])
        if themed and rng.random() < themed:
            style.theme = int(rng.integers(1 << 30))
        if style.design == "sunburst":
            style.print_sunburst(rng)
        return style

    def print_sunburst(self, rng: np.random.Generator):
        """This deck printed in the sunburst design (a recent print): a pure green, an outlined
        big number, a white half-disc of `rays` rays, most often round side up."""
        self.design = "sunburst"
        self.inks["green"] = tuple(int(np.clip(v + j, 0, 255)) for v, j in zip(INKS["green"], rng.normal(0, 14, 3)))
        self.shadow = True
        self.rays = int(rng.integers(10, 20))
        self.dome = bool(rng.random() < 0.8)


@dataclass
class Face:
    """A rendered card face: BGR image, alpha mask (rounded corners) and symbol boxes."""

    card: Card | None            # None for a card back
    image: np.ndarray
    alpha: np.ndarray
    indices: list = field(default_factory=list)   # [(x1, y1, x2, y2)] corner indices
    centre: tuple | None = None                    # (x1, y1, x2, y2) centre symbol
    decoys: list = field(default_factory=list)     # [(x1, y1, x2, y2)] parts of a themed picture, a back's oval: no symbol


def _stamp(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour, *, shadow: bool, angle: float = 0.0):
    """Paint `mask` (square) at top-left (x, y) in `colour`, with a dark outline/shadow."""
    if angle:
        s = mask.shape[0]
        rot = cv2.getRotationMatrix2D((s / 2, s / 2), angle, 1.0)
        mask = cv2.warpAffine(mask, rot, (s, s))
    h, w = mask.shape
    roi = img[y: y + h, x: x + w]
    mask = mask[: roi.shape[0], : roi.shape[1]]
    a = mask.astype(np.float32)[..., None] / 255
    if shadow:
        k = max(3, (h // 12) | 1)
        sh = cv2.dilate(mask, np.ones((k, k), np.uint8))
        d = max(1, h // 30)
        shifted = np.zeros_like(sh)
        shifted[d:, d:] = sh[:-d, :-d]
        sh = shifted.astype(np.float32)[..., None] / 255
        roi[:] = roi * (1 - sh) + np.float32((20, 20, 20)) * sh
    roi[:] = roi * (1 - a) + np.float32(colour) * a


def _quarters(img: np.ndarray, cx: int, cy: int, ax: int, ay: int, angle: float, style: Style, turn: float = 0):
    """The four-colour oval of the wild cards (its quarters turned `turn` degrees within it)."""
    for q, name in enumerate(WILD_QUARTERS):
        cv2.ellipse(img, (cx, cy), (ax, ay), angle, q * 90 + turn, q * 90 + 90 + turn, style.inks[name], -1, cv2.LINE_AA)


def _four_cards(img: np.ndarray, style: Style, w: int, h: int):
    """The Wild Draw Four's centre: four little cards, one of each colour, in a row (the classic
    deck), fanned, in a square or askew down a stair (`Style.shapes`)."""
    v = style.shapes
    for q, name in enumerate(("blue", "green", "red", "yellow")):
        if v == 1:
            ang = -27 + 18 * q
            r = np.deg2rad(ang)
            x, y, a = w * 0.5 + np.sin(r) * w * 0.2, h * 0.56 - np.cos(r) * w * 0.2, ang
        elif v == 2:
            x, y, a = w * (0.41 + 0.16 * (q % 2)), h * (0.41 + 0.16 * (q // 2)) - w * 0.03 * (q % 2), 0
        elif v == 3:
            x, y, a = w * (0.32 + 0.12 * q), h * (0.38 + 0.08 * q), 15
        else:
            x, y = int(w * (0.34 + 0.1 * q)), int(h * (0.42 + 0.05 * ((q + 1) % 2)))
            cv2.rectangle(img, (x - 18, y - 26), (x + 18, y + 26), style.white, -1)
            cv2.rectangle(img, (x - 15, y - 23), (x + 15, y + 23), style.inks[name], -1)
            continue
        little_card(img, x, y, 36, 52, a, style.inks[name], style.white, 3)


def _middle_white(img: np.ndarray, style: Style, w: int, h: int, colour, inset: float = 0.0) -> bool:
    """Paint the design's white middle (the classic tilted oval, the recent design's circle),
    `inset` (a share of the card's width) inside its edge; False for a design without one."""
    if style.design == "classic":
        cv2.ellipse(img, (w // 2, h // 2), (int(w * (0.36 - inset)), int(h * (0.40 - inset))), 35, 0, 360, colour, -1,
                    cv2.LINE_AA)
    elif style.design == "modern":
        cv2.circle(img, (w // 2, h // 2), int(w * (0.37 - inset)), colour, -1, cv2.LINE_AA)
    elif style.design == "sunburst":
        img[_half_disc(style, w, h, inset) > 0] = colour
    else:
        return False
    return True


def _half_disc(style: Style, w: int, h: int, inset: float = 0.0) -> np.ndarray:
    """The sunburst print's white half-disc (a mask): as wide as the card's middle, its straight
    side across the card below the middle (above it where the dome is down)."""
    m = np.zeros((h, w), np.uint8)
    r = int(w * (0.46 - inset))
    cv2.ellipse(m, (w // 2, _disc_y(style, h)), (r, r), 0, _disc_start(style), _disc_start(style) + 180, 255, -1,
                cv2.LINE_AA)
    return m


def _disc_y(style: Style, h: int) -> int:
    """The sunburst half-disc's straight side, across the card."""
    return int(h * 0.64) if style.dome else int(h * 0.36)


def _disc_start(style: Style) -> int:
    """The angle (OpenCV's, clockwise from the right) where the half-disc's arc starts."""
    return 180 if style.dome else 0


def _sunburst(img: np.ndarray, style: Style, w: int, h: int, body):
    """Rays over the half-disc: every other one a pale tint of the card's colour."""
    disc = _half_disc(style, w, h).astype(np.float32) / 255
    rays = np.zeros((h, w), np.uint8)
    step = 180.0 / style.rays
    for k in range(0, style.rays, 2):
        a0 = _disc_start(style) + k * step
        cv2.ellipse(rays, (w // 2, _disc_y(style, h)), (w, w), 0, a0, a0 + step, 255, -1, cv2.LINE_AA)
    a = (rays.astype(np.float32) / 255 * disc)[..., None] * 0.35
    img[:] = img * (1 - a) + np.float32(body) * a


def _picture(img: np.ndarray, card: Card, style: Style, w: int, h: int):
    """A themed deck's picture (a licensed deck's character art) in the card's middle: a shaded
    ground and a few blobs of any colour, the same for the same card of the same deck. Returns the
    blobs' boxes (inside the picture)."""
    rng = np.random.default_rng([style.theme, zlib.crc32(str(card).encode())])
    region = np.zeros((h, w), np.uint8)
    if not _middle_white(region, style, w, h, 255, inset=0.02):     # flat: no white middle, a frame
        cv2.rectangle(region, (int(w * 0.18), int(h * 0.2)), (int(w * 0.82), int(h * 0.8)), 255, -1)
    pic = np.zeros((h, w, 3), np.float32)
    top, bottom = rng.uniform(40, 250, 3), rng.uniform(40, 250, 3)
    pic[:] = (top[None, :] + (bottom - top)[None, :] * np.linspace(0, 1, h)[:, None])[:, None, :]
    blobs = []
    for _ in range(int(rng.integers(3, 8))):
        colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
        centre = (int(rng.uniform(0.2, 0.8) * w), int(rng.uniform(0.25, 0.75) * h))
        axes = (int(rng.uniform(0.05, 0.25) * w), int(rng.uniform(0.05, 0.25) * w))
        cv2.ellipse(pic, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.ellipse(pic, centre, axes, 0, 0, 360, (20, 20, 20), max(1, w // 70), cv2.LINE_AA)
        blobs.append(centre + axes)
    a = cv2.GaussianBlur(region, (3, 3), 0).astype(np.float32)[..., None] / 255
    img[:] = img * (1 - a) + pic * a
    ys, xs = np.nonzero(region)
    x0, y0, x1, y1 = xs.min(), ys.min(), xs.max(), ys.max()
    boxes = []
    for cx, cy, ax, ay in blobs:
        r = max(ax, ay)          # the ellipse turns: its box is the circle's
        box = (max(cx - r, x0), max(cy - r, y0), min(cx + r, x1), min(cy + r, y1))
        if box[2] - box[0] > w * 0.08 and box[3] - box[1] > w * 0.08:
            boxes.append(tuple(float(v) for v in box))
    return boxes


def _rounded(w: int, h: int, r: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    cv2.rectangle(m, (r, 0), (w - r - 1, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - r - 1), 255, -1)
    for cx, cy in ((r, r), (w - r - 1, r), (r, h - r - 1), (w - r - 1, h - r - 1)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def render_card(card: Card, style: Style, rng: np.random.Generator | None = None) -> Face:
    """Draw one card face in `style` at CARD_W x CARD_H pixels."""
    w, h = CARD_W, CARD_H
    img = np.zeros((h, w, 3), np.float32)
    img[:] = style.white
    b = int(style.border * w)
    r = int(style.radius * w)
    decoys = []
    body = (25, 25, 25) if card.is_wild else style.inks[card.color]
    inner = _rounded(w - 2 * b, h - 2 * b, max(2, r - b // 2))
    img[b: h - b, b: w - b][inner > 0] = body
    sym = card.symbol
    # centre
    _middle_white(img, style, w, h, style.white)
    if style.design == "sunburst" and not card.is_wild:
        _sunburst(img, style, w, h, body)
    if style.design == "classic":
        csize, ccol = int(w * 0.62), body
    elif style.design == "modern":
        csize, ccol = int(w * 0.52), body
    elif style.design == "sunburst":      # the big number over the rays and the card's colour
        csize, ccol = int(w * 0.7), body
    else:  # flat: symbol straight on the body, white
        csize, ccol = int(w * 0.62), style.white
    if card.is_wild:
        ccol = style.white if style.design == "flat" else (25, 25, 25)
    cx0, cy0 = (w - csize) // 2, (h - csize) // 2
    if sym == "wild" or sym == "wild_seinfeld":
        way = style.shapes if sym == "wild" else 0       # the Seinfeld wild is drawn one way
        turn = (0, 0, 45, 0)[way]
        if style.design == "classic":
            oval = (w // 2, h // 2, int(w * 0.34), int(h * 0.38), 0 if way == 3 else 35)
        else:
            oval = (w // 2, h // 2, int(w * 0.30), int(w * 0.30), 0)
        _quarters(img, *oval, style, turn=turn)
        if way == 3:      # the quarters parted by the card's white
            for a in (0, 90):
                t = np.deg2rad(oval[4] + a)
                d = np.float32([np.cos(t) * oval[2], np.sin(t) * oval[2]]) * 1.05
                cv2.line(img, tuple(int(v) for v in np.float32(oval[:2]) - d),
                         tuple(int(v) for v in np.float32(oval[:2]) + d), style.white, max(2, w // 40), cv2.LINE_AA)
        if way == 1:
            _stamp(img, text_mask("WILD", csize, style), cx0, cy0, style.white, shadow=True)
        if sym == "wild_seinfeld":
            _stamp(img, text_mask("SEINFELD", csize, style), cx0, cy0, (25, 25, 25), shadow=False)
    elif sym == "wild_draw_four":
        _four_cards(img, style, w, h)
    elif style.theme >= 0:        # a themed deck: a picture in the middle, the symbol small beside it
        decoys = _picture(img, card, style, w, h)
        csize = int(csize * 0.45)
        cx0, cy0 = int(w * 0.64 - csize / 2), int(h * 0.64 - csize / 2)
        _stamp(img, symbol_mask(sym, csize, style, index=False), cx0, cy0,
               style.white if style.design == "flat" else body, shadow=True)
    else:
        mask = symbol_mask(sym, csize, style, index=False)
        if style.design == "sunburst":     # a white keyline round the number, where it leaves the disc
            _stamp(img, cv2.dilate(mask, np.ones((9, 9), np.uint8)), cx0, cy0, style.white, shadow=False)
        _stamp(img, mask, cx0, cy0, ccol, shadow=style.shadow and style.design != "flat")
    centre = (cx0 + csize * 0.05, cy0 + csize * 0.05, cx0 + csize * 0.95, cy0 + csize * 0.95)
    if (style.design == "classic" or style.theme >= 0) and sym not in ("wild", "wild_seinfeld", "wild_draw_four"):
        centre = _mask_box(symbol_mask(sym, csize, style, index=False), cx0, cy0) or centre
    # corner indices (top-left upright, bottom-right upside down)
    isize = int(w * 0.2 * style.index_scale)
    ix, iy = b + int(w * 0.025), b + int(w * 0.02)
    if sym == "wild":
        imask = None
    else:
        imask = symbol_mask(sym, isize, style, index=True)
    indices = []
    for flip in (False, True):
        x, y = (ix, iy) if not flip else (w - ix - isize, h - iy - isize)
        if imask is None:
            patch = np.zeros((isize, isize, 3), np.float32)
            patch[:] = img[y: y + isize, x: x + isize]
            _quarters(patch, isize // 2, isize // 2, int(isize * 0.3), int(isize * 0.42), 35 if not flip else 215, style)
            img[y: y + isize, x: x + isize] = patch
            box = (x + isize * 0.15, y + isize * 0.05, x + isize * 0.85, y + isize * 0.95)
        else:
            m = imask[::-1, ::-1] if flip else imask
            _stamp(img, m, x, y, style.white, shadow=style.shadow)
            box = _mask_box(m, x, y) or (x, y, x + isize, y + isize)
        indices.append(box)
    alpha = _rounded(w, h, r)
    # the picture's blobs well clear of every symbol: "none" crops for the classifier
    near = [_padded(box, 0.4) for box in indices + [centre]]
    decoys = [d for d in decoys if all(_overlap(d, n) < 0.03 for n in near)]
    return Face(card, np.clip(img, 0, 255).astype(np.uint8), alpha, indices, centre, decoys)


def _padded(box, by: float) -> tuple:
    """`box` grown by `by` of its larger side on every side."""
    g = by * max(box[2] - box[0], box[3] - box[1])
    return (box[0] - g, box[1] - g, box[2] + g, box[3] + g)


def _overlap(a, b) -> float:
    """The share of box a that box b covers."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    return max(iw, 0) * max(ih, 0) / max((a[2] - a[0]) * (a[3] - a[1]), 1e-6)


def _mask_box(mask: np.ndarray, x: int, y: int, pad: float = 0.12):
    ys, xs = np.nonzero(mask > 60)
    if len(xs) == 0:
        return None
    x1, x2, y1, y2 = xs.min(), xs.max(), ys.min(), ys.max()
    p = pad * max(x2 - x1, y2 - y1)
    return (x + x1 - p, y + y1 - p, x + x2 + p, y + y2 + p)


def render_back(style: Style) -> Face:
    """The back of a card: black with the red tilted oval and the yellow "UNO"."""
    w, h = CARD_W, CARD_H
    img = np.zeros((h, w, 3), np.float32)
    img[:] = style.white
    b = int(style.border * w)
    img[b: h - b, b: w - b] = (20, 20, 20)
    cv2.ellipse(img, (w // 2, h // 2), (int(w * 0.36), int(h * 0.40)), 35, 0, 360, style.inks["red"], -1, cv2.LINE_AA)
    m = text_mask("UNO", int(w * 0.7), Style(font=cv2.FONT_HERSHEY_DUPLEX, slant=0.25, weight=1.3))
    m = cv2.warpAffine(m, cv2.getRotationMatrix2D((m.shape[0] / 2, m.shape[0] / 2), 20, 1.0), m.shape[::-1])
    _stamp(img, m, int(w * 0.15), int(h / 2 - w * 0.35), style.inks["yellow"], shadow=True)
    # its oval is no symbol (a wild's middle is an oval too): a "none" crop for the classifier
    oval = (int(w * 0.12), int(h * 0.16), int(w * 0.88), int(h * 0.84))
    return Face(None, np.clip(img, 0, 255).astype(np.uint8), _rounded(w, h, int(style.radius * w)), decoys=[oval])


PLAYING_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def render_playing_card(rng: np.random.Generator) -> Face:
    """A face of an ordinary deck of playing cards (not UNO): a white card, a red or black rank and
    suit pip in two opposite corners, pips or a court frame in the middle. A look-alike the
    recogniser must not call an UNO card; ``indices`` holds its corner ranks' boxes and
    ``centre`` its middle's (for the classifier's "none" crops)."""
    w, h = CARD_W, CARD_H
    paper = float(rng.uniform(225, 252))
    img = np.full((h, w, 3), paper, np.float32)
    ink = (float(rng.uniform(20, 60)), float(rng.uniform(20, 50)), float(rng.uniform(170, 225))) \
        if rng.random() < 0.5 else (float(rng.uniform(15, 40)),) * 3
    rank = PLAYING_RANKS[int(rng.integers(len(PLAYING_RANKS)))]
    style = Style(font=int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
                                       cv2.FONT_HERSHEY_COMPLEX])),
                  slant=0.0, weight=float(rng.uniform(0.8, 1.4)))
    s = int(w * rng.uniform(0.2, 0.28))
    x, y = int(w * 0.04), int(h * 0.03)
    mask = text_mask(rank, s, style)
    pip = np.zeros_like(mask)
    cv2.circle(pip, (s // 2, s // 2), s // 4, 255, -1, cv2.LINE_AA)
    half = np.zeros((h, w), np.uint8)
    half[y: y + s, x: x + s] = np.maximum(half[y: y + s, x: x + s], mask)
    half[y + s: y + 2 * s, x: x + s] = np.maximum(half[y + s: y + 2 * s, x: x + s], pip)
    both = np.maximum(half, cv2.rotate(half, cv2.ROTATE_180))      # the opposite corner, upside down
    mid = np.zeros((h, w), np.uint8)
    if rank in "JQK":
        cv2.rectangle(mid, (int(w * 0.24), int(h * 0.2)), (int(w * 0.76), int(h * 0.8)), 255, max(2, w // 60))
        big = text_mask(rank, int(w * 0.4), style)
        mid[int(h / 2 - w * 0.2): int(h / 2 + w * 0.2), int(w * 0.3): int(w * 0.7)] = big
    else:
        n = 1 if rank == "A" else int(rank)
        rows = (n + 1) // 2
        for k in range(n):
            col = 0.5 if n == 1 else (0.35 if k % 2 == 0 else 0.65)
            row = 0.5 if rows == 1 else 0.25 + 0.5 * (k // 2) / max(1, rows - 1)
            r = int(w * (0.16 if n == 1 else 0.07))
            cv2.circle(mid, (int(col * w), int(row * h)), r, 255, -1, cv2.LINE_AA)
    a = np.maximum(both, mid).astype(np.float32)[..., None] / 255
    img = img * (1 - a) + np.float32(ink) * a
    indices = [(x, y, x + s, y + s), (w - x - s, h - y - s, w - x, h - y)]
    centre = (int(w * 0.2), int(h * 0.2), int(w * 0.8), int(h * 0.8))
    return Face(None, np.clip(img, 0, 255).astype(np.uint8), _rounded(w, h, int(0.06 * w)), indices, centre)
