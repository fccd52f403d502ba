"""Synthetic overhead-camera scenes with exact labels, deterministic per seed.

A scene is a table surface with cards placed on it (a discard pile with the new card on top,
a lone card, a fanned hand held up for a scan, cards spread out), hands and other objects over
it, and the light, shadows, glare, blur, noise and JPEG of a cheap camera::

    >>> scene = make_scene(7, size=(320, 320))
    >>> scene.image.shape, scene == make_scene(7, size=(320, 320))
    ((320, 320, 3), True)

Labels: every corner index and centre symbol that is visible (class ``index`` / ``centre``),
and every card face that no other card covers (class ``card``), each with its card; and the
outline of every face-up card placed (``Scene.outlines``: its four corners in the image, how much
of it later cards hide and how much of it is seen).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ..cards import Card, deck
from .camera_look import camera_effects
from .tilt import tilt_homography, tilt_view
from .render import CARD_H, CARD_W, Face, Style, fade, render_back, render_card, render_playing_card
from .hands import add_hand, hand_in_frame
from .tables import printed_cloth, table_surface

KINDS = ("pile", "pile", "pile", "single", "fan", "fan", "spread", "negative")
# kinds drawn only when asked for: "lookalike", a negative with printed look-alikes of UNO cards;
# "stack", cards pushed into a staggered row to show their corner indices (a hand laid down, the
# way the Roboflow photos show cards: each card a fifth of its width or so beside the one under it)
# (ordinary playing cards, a score sheet of numbers)
ALL_KINDS = KINDS + ("lookalike", "stack")
# a pile's cards beneath the top one lie this far from its centre (a normal spread, in card heights);
# in a loose pile (`make_scene(loose=...)`) a spread drawn from LOOSE
PILE_SPREAD = 0.18
LOOSE = (0.25, 0.45)


@dataclass
class Label:
    cls: str                 # "index" | "centre" | "card"
    box: tuple               # x1, y1, x2, y2 in image pixels
    card: Card
    visible: float = 1.0


@dataclass
class Outline:
    card: Card
    quad: np.ndarray         # 4x2 corners of the whole face in the image (tl, tr, br, bl), hidden parts too
    covered: float           # the share of the face later cards hide (a hand is no card)
    seen: float              # the share of the face seen in the image


@dataclass
class Scene:
    image: np.ndarray
    labels: list = field(default_factory=list)
    top: Card | None = None          # the card on top of the pile (or the front card)
    cards: list = field(default_factory=list)   # every card with a visible corner index
    kind: str = "pile"
    deck: str = "classic"            # the deck profile the cards were drawn from
    lookalikes: list = field(default_factory=list)   # boxes of printed ranks, digits and pictures: no UNO symbol
    present: list = field(default_factory=list)      # every face-up card placed, however little of it shows
    outlines: list = field(default_factory=list)     # an `Outline` of every face-up card placed, bottom first
    hands: list = field(default_factory=list)        # the turned box (4x2 corners) round each hand's part in view

    def __eq__(self, other):
        return (isinstance(other, Scene) and np.array_equal(self.image, other.image)
                and self.labels == other.labels and self.top == other.top and self.lookalikes == other.lookalikes)


# ------------------------------------------------------------------ placing things
@dataclass
class Placed:
    face: Face
    quad: np.ndarray        # 4x2 destination corners of the face (tl, tr, br, bl)
    layer: int


def _homography(quad: np.ndarray) -> np.ndarray:
    src = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    return cv2.getPerspectiveTransform(src, np.float32(quad))


def card_quad(cx, cy, height, angle_deg, rng, persp=0.04) -> np.ndarray:
    """Corners of a card of `height` px centred at (cx, cy), turned by angle, slightly skewed."""
    h = height
    w = h * CARD_W / CARD_H
    pts = np.float32([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    pts += rng.normal(0, persp * h, pts.shape).astype(np.float32)
    a = np.deg2rad(angle_deg)
    rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return pts @ rot.T + np.float32([cx, cy])


class Canvas:
    """Composites faces and occluders, remembering which layer owns every pixel."""

    def __init__(self, background: np.ndarray):
        self.img = background.astype(np.float32)
        h, w = self.img.shape[:2]
        self.owner = np.full((h, w), -1, np.int16)
        self.placed: list[Placed] = []
        self.hands: list[np.ndarray] = []     # the turned box round each hand's part in view (`add_hand`)

    def place(self, face: Face, quad: np.ndarray, *, shadow: float = 0.35) -> Placed:
        h, w = self.owner.shape
        H = _homography(quad)
        warped = cv2.warpPerspective(face.image, H, (w, h), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(face.alpha, H, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        if shadow:
            sh = cv2.GaussianBlur(np.roll(alpha, (3, 3), (0, 1)), (0, 0), 3) * shadow
            self.img *= (1 - sh)[..., None]
        a = alpha[..., None]
        self.img = self.img * (1 - a) + warped.astype(np.float32) * a
        p = Placed(face, quad, len(self.placed))
        self.owner[alpha > 0.5] = p.layer
        self.placed.append(p)
        return p

    def occlude(self, mask: np.ndarray, colour_img: np.ndarray):
        a = mask.astype(np.float32)[..., None] / 255
        self.img = self.img * (1 - a) + colour_img * a
        self.owner[mask > 127] = -2

    def visible(self, p: Placed, box) -> tuple[float, tuple | None]:
        """Fraction of a face box (face pixels) that is seen, and its image box."""
        return self.seen(p, box)[:2]

    def seen(self, p: Placed, box) -> tuple[float, tuple | None, float]:
        """(the share of a face box seen, its image box, the share of it inside the frame: where
        the two are equal, nothing but the frame's edge hides any of it)."""
        x1, y1, x2, y2 = box
        pts = np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]).reshape(-1, 1, 2)
        dst = cv2.perspectiveTransform(pts, _homography(p.quad)).reshape(-1, 2)
        h, w = self.owner.shape
        bx1, by1 = np.floor(dst.min(0)).astype(int)
        bx2, by2 = np.ceil(dst.max(0)).astype(int)
        cx1, cy1, cx2, cy2 = max(bx1, 0), max(by1, 0), min(bx2, w), min(by2, h)
        if cx2 <= cx1 or cy2 <= cy1:
            return 0.0, None, 0.0
        poly = np.zeros((by2 - by1 + 1, bx2 - bx1 + 1), np.uint8)
        cv2.fillConvexPoly(poly, np.int32(np.round(dst - [bx1, by1])), 1)
        total = poly.sum()
        sub = poly[cy1 - by1: cy2 - by1, cx1 - bx1: cx2 - bx1]
        seen = ((self.owner[cy1:cy2, cx1:cx2] == p.layer) & (sub > 0)).sum()
        return (float(seen) / max(total, 1), (float(cx1), float(cy1), float(cx2), float(cy2)),
                float(sub.sum()) / max(total, 1))

    def covered_by_cards(self, p: Placed) -> tuple[float, float]:
        """Fraction of the card hidden by later cards, and fraction inside the frame."""
        h, w = self.owner.shape
        quad = np.float32(p.quad)
        full = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(full, np.int32(np.round(quad)), 1)
        inside = full.sum()
        area = max(cv2.contourArea(quad), 1.0)
        later = (full > 0) & (self.owner > p.layer)
        return float(later.sum()) / area, float(inside) / area


def _add_clutter(canvas: Canvas, rng, style):
    """Things on a table that are not face-up cards: card backs, phones, paper, coins, pens."""
    h, w = canvas.owner.shape
    for _ in range(rng.integers(0, 4)):
        k = rng.choice(["back", "phone", "paper", "coin", "pen"])
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        s = rng.uniform(0.15, 0.6) * min(h, w)
        if k == "back":
            canvas.place(render_back(style), card_quad(cx, cy, s, rng.uniform(0, 360), rng))
            continue
        m = np.zeros((h, w), np.uint8)
        col = np.zeros((h, w, 3), np.float32)
        if k == "phone":
            q = card_quad(cx, cy, s * 1.2, rng.uniform(0, 360), rng, 0.01)
            cv2.fillConvexPoly(m, np.int32(q), 255, cv2.LINE_AA)
            col[:] = rng.uniform(10, 60)
            inner = np.zeros_like(m)
            cv2.fillConvexPoly(inner, np.int32((q - q.mean(0)) * 0.88 + q.mean(0)), 255)
            col[inner > 0] = rng.uniform(20, 250, 3) if rng.random() < 0.5 else 25
        elif k == "paper":
            q = card_quad(cx, cy, s * 1.3, rng.uniform(0, 360), rng, 0.02)
            cv2.fillConvexPoly(m, np.int32(q), 255, cv2.LINE_AA)
            col[:] = rng.uniform(200, 250)
            for y in range(int(q[:, 1].min()), int(q[:, 1].max()), 9):
                cv2.line(col, (int(q[:, 0].min()), y), (int(q[:, 0].max()), y), (180, 150, 120), 1)
        elif k == "coin":
            cv2.circle(m, (int(cx), int(cy)), int(s * 0.12), 255, -1, cv2.LINE_AA)
            col[:] = (60, 150, 190) if rng.random() < 0.5 else (170, 170, 170)
        else:
            cv2.line(m, (int(cx), int(cy)), (int(cx + s * np.cos(cy)), int(cy + s * np.sin(cx))), 255, max(3, int(s * 0.05)))
            col[:] = rng.uniform(0, 255, 3)
        canvas.occlude(m, col)


def _add_lookalikes(canvas: Canvas, rng, cx: float, cy: float, height: float) -> list:
    """Ordinary playing cards (a pile or a fan) and maybe a score sheet of numbers; returns the
    image boxes of their printed ranks, middles and numbers that are in view."""
    boxes = []
    if rng.random() < 0.35:                    # a score sheet: rows of numbers on white paper
        h, w = canvas.owner.shape
        x0, y0 = rng.uniform(0, 0.6) * w, rng.uniform(0, 0.6) * h
        sw, sh = rng.uniform(0.25, 0.5) * w, rng.uniform(0.25, 0.5) * h
        paper = np.zeros((h, w), np.uint8)
        cv2.rectangle(paper, (int(x0), int(y0)), (int(x0 + sw), int(y0 + sh)), 255, -1)
        canvas.occlude(paper, np.full((h, w, 3), rng.uniform(215, 250), np.float32))
        ink = np.float32([(25, 25, 25), (140, 60, 20), (30, 30, 170), (40, 120, 30)][rng.integers(4)])
        text = np.zeros((h, w), np.uint8)
        scale = rng.uniform(0.5, 1.4)
        font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX]))
        th = max(1, int(round(scale * 2)))
        y = y0 + 30 * scale
        while y < y0 + sh:
            x = x0 + 6
            for _ in range(int(rng.integers(2, 6))):
                word = str(rng.integers(0, 10 ** int(rng.integers(1, 4))))
                (tw, tht), base = cv2.getTextSize(word, font, scale, th)
                if x + tw > x0 + sw:
                    break
                cv2.putText(text, word, (int(x), int(y)), font, scale, 255, th, cv2.LINE_AA)
                boxes.append((x, y - tht, x + tw, y + base))
                x += tw + rng.uniform(10, 40) * scale
            y += (tht + base) * rng.uniform(1.4, 2.2)
        a = text.astype(np.float32)[..., None] / 255
        canvas.img = canvas.img * (1 - a) + ink * a
    fan = rng.random() < 0.4
    n = int(rng.integers(1, 6))
    for k in range(n):
        if fan:
            r = np.deg2rad((k - (n - 1) / 2) * 15)
            centre = (cx + np.sin(r) * height * 0.5, cy + height * 0.5 - np.cos(r) * height * 0.5)
            quad = card_quad(centre[0], centre[1], height, np.rad2deg(r), rng, 0.02)
        else:
            off = rng.normal(0, 0.25 * height, 2) if k < n - 1 else (0.0, 0.0)
            quad = card_quad(cx + off[0], cy + off[1], height, rng.uniform(0, 360), rng)
        canvas.place(render_playing_card(rng), quad)
    for p in canvas.placed[-n:]:
        for box in p.face.indices + [p.face.centre]:
            v, b = canvas.visible(p, box)
            if v >= 0.6 and b is not None:
                boxes.append(b)
    return boxes


# ------------------------------------------------------------------ scenes
def _random_card(rng, deck_name: str, favour: tuple = ()) -> Card:
    if favour and rng.random() < 0.5:
        sym = favour[rng.integers(len(favour))]
        return Card(None, sym) if sym.startswith("wild") else Card(deck(deck_name).colors[rng.integers(4)], sym)
    cards = deck(deck_name).cards(alternative=bool(rng.random() < 0.5))
    return cards[rng.integers(len(cards))]


# with cut labels (`make_scene(cut_labels=True)`): a centre symbol that only the frame's edge cuts
# is labelled when this share of it is in view (a person reads half a big 7), and an uncovered face
# when this share of it is inside the frame
CUT_CENTRE, CUT_FACE = 0.45, 0.3


# the least share of a corner index in view for it to be labelled (`make_scene(min_index=...)`)
MIN_INDEX = 0.75


def _collect(canvas: Canvas, min_index=MIN_INDEX, min_centre=0.7, cut=False) -> tuple[list, list]:
    labels, cards = [], []
    for p in canvas.placed:
        if p.face.card is None:
            continue
        seen_any = False
        for box in p.face.indices:
            v, b = canvas.visible(p, box)
            if v >= min_index and b is not None:
                labels.append(Label("index", b, p.face.card, round(v, 3)))
                seen_any = True
        if p.face.centre is not None:
            v, b, framed = canvas.seen(p, p.face.centre)
            # cut by the frame only: all of it inside the frame is seen (a few pixels of slack)
            if b is not None and (v >= min_centre or (cut and v >= CUT_CENTRE and v >= framed - 0.03)):
                labels.append(Label("centre", b, p.face.card, round(v, 3)))
        hidden, inside = canvas.covered_by_cards(p)
        if hidden < 0.04 and inside > (CUT_FACE if cut else 0.6):
            v, b = canvas.visible(p, (0, 0, CARD_W, CARD_H))
            if b is not None:
                labels.append(Label("card", b, p.face.card, round(v, 3)))
        if seen_any:
            cards.append(p.face.card)
    return labels, cards


def _decoys(canvas: Canvas, min_seen=0.8) -> list:
    """Image boxes of the parts of themed pictures that are in view (no symbol: "none" crops)."""
    boxes = []
    for p in canvas.placed:
        for box in p.face.decoys:
            v, b = canvas.visible(p, box)
            if v >= min_seen and b is not None:
                boxes.append(b)
    return boxes


def compose(cards_layout, rng, size, style, backgrounds=None, *, clutter=False, background=None) -> Canvas:
    """Place (card, quad) pairs in order (last on top) on a table; returns the canvas."""
    w, h = size
    canvas = Canvas(background if background is not None else table_surface(rng, h, w, backgrounds))
    if clutter:
        _add_clutter(canvas, rng, style)
    for card, quad in cards_layout:
        face = render_card(card, style) if card is not None else render_back(style)
        canvas.place(face, quad, shadow=float(rng.uniform(0.1, 0.45)))
    return canvas


def _outlines(canvas: Canvas) -> list:
    out = []
    for p in canvas.placed:
        if p.face.card is not None:
            covered, _ = canvas.covered_by_cards(p)
            seen, _ = canvas.visible(p, (0, 0, CARD_W, CARD_H))
            out.append(Outline(p.face.card, np.float32(p.quad), round(covered, 3), round(seen, 3)))
    return out


def make_scene(seed: int, *, size=(416, 416), deck_name: str | None = None, kind: str | None = None,
               backgrounds=None, effects: bool = True, favour: tuple = (),
               heights: tuple = (0.18, 0.75), tilt: float = 0.0, fonts: tuple = (),
               font_share: float = 0.5, shapes: tuple = (), shape_share: float = 0.5,
               themed: float = 0.0, faded: float = 0.0, hands: float | None = None,
               cut_labels: bool = False, min_index: float = MIN_INDEX, design: str | None = None,
               sunburst: float = 0.0, prints: float = 0.0, loose: float = 0.0) -> Scene:
    """One labelled scene; the same seed always gives the same scene.

    ``favour`` names symbols drawn far more often than the deck holds them (rare cards, for
    training crops); ``heights`` is the range of a card's height as a share of the frame's
    shorter side (drawn log-uniformly; small cards: a camera far away, a wide photo); ``tilt`` the
    most the camera leans from straight overhead, in degrees (`camera_tilt`; 0: overhead);
    ``fonts`` TrueType fonts that ``font_share`` of the decks print their numbers with, ``shapes``
    the ways (`render.SHAPES`) ``shape_share`` of them draw their action symbols, ``themed`` the
    share of decks with pictures in their cards' middles (`Style.random`); ``faded`` how far
    towards white every ink is printed (a faded deck, a washed-out print: `render.fade`; the
    draws are the same whatever it is); ``hands`` the chance that one or two hands reach over the
    cards (None: 0.45, 0.7 for a fan, and none, one or two); ``cut_labels`` also labels a centre
    symbol or an uncovered face that the frame's edge cuts (`CUT_CENTRE`, `CUT_FACE`);
    ``min_index`` is the least share of a corner index that must be in view for it to be labelled
    (lower for classifier crops of corners half under a finger); ``design`` prints every card in
    that design (`render.DESIGNS`; None: one drawn by the seed); ``sunburst`` the share of decks
    printed in the sunburst design (`Style.print_sunburst`); ``prints`` the share of scenes on a
    printed tablecloth (`tables.printed_cloth`); ``loose`` the share of piles whose cards lie
    further apart (`LOOSE`: cards beneath the top one that show most of themselves, a corner or a
    side under the card above)."""
    rng = np.random.default_rng(seed)
    deck_name = deck_name or rng.choice(["classic", "classic", "classic112", "seinfeld"])
    kind = kind or KINDS[rng.integers(len(KINDS))]
    style = Style.random(rng, design=design, fonts=fonts, font_share=font_share, shapes=shapes, shape_share=shape_share,
                         themed=themed)
    aside = np.random.default_rng([seed, 19])      # its own stream: the scene's other draws stay as they were
    if sunburst and aside.random() < sunburst:
        style.print_sunburst(aside)
    spread = PILE_SPREAD
    if loose and aside.random() < loose:
        spread = aside.uniform(*LOOSE)
    if faded:
        style.inks = {name: fade(bgr, faded) for name, bgr in style.inks.items()}
    w, h = size
    m = min(w, h)
    height = float(np.exp(rng.uniform(np.log(heights[0]), np.log(heights[1])))) * m
    layout = []
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    if kind == "pile":
        for _ in range(rng.integers(0, 7)):
            off = rng.normal(0, spread * height, 2)
            layout.append((_random_card(rng, deck_name, favour), card_quad(cx + off[0], cy + off[1], height, rng.uniform(0, 360), rng)))
        layout.append((_random_card(rng, deck_name, favour), card_quad(cx, cy, height, rng.uniform(0, 360), rng)))
    elif kind == "single":
        cx, cy = rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, 0.95) * h
        layout.append((_random_card(rng, deck_name, favour), card_quad(cx, cy, height * rng.uniform(1, 1.5), rng.uniform(0, 360), rng)))
    elif kind == "fan":
        n = int(rng.integers(2, 8))
        height = min(height, 0.55 * m)
        step = rng.uniform(8, 22)
        base = rng.uniform(0, 360) if rng.random() < 0.5 else rng.normal(0, 20)
        pivot = np.float32([cx, cy + height * 0.55])
        for k in range(n):
            a = base + (k - (n - 1) / 2) * step
            r = np.deg2rad(a)
            centre = pivot + np.float32([np.sin(r), -np.cos(r)]) * height * rng.uniform(0.45, 0.6)
            layout.append((_random_card(rng, deck_name, favour), card_quad(centre[0], centre[1], height, a, rng, 0.02)))
    elif kind == "stack":
        n = int(rng.integers(2, 10))
        height = min(height, 0.6 * m)
        ang = rng.uniform(0, 360)
        along = np.deg2rad(ang + rng.choice([0, 180]) + rng.normal(0, 20))
        d = np.float32([np.cos(along), np.sin(along)]) * height * CARD_W / CARD_H * rng.uniform(0.1, 0.3)
        start = np.float32([cx, cy]) - d * (n - 1) / 2
        turn = rng.normal(0, 3)
        for k in range(n):
            c = start + d * k + rng.normal(0, 0.02 * height, 2)
            layout.append((_random_card(rng, deck_name, favour),
                           card_quad(c[0], c[1], height, ang + turn * k + rng.normal(0, 3), rng, 0.02)))
    elif kind == "spread":
        n = int(rng.integers(2, 6))
        height = min(height, 0.45 * m)
        gap = height * CARD_W / CARD_H * rng.uniform(1.05, 1.3)
        ang = rng.normal(0, 15)
        d = np.float32([np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))])
        start = np.float32([cx, cy]) - d * gap * (n - 1) / 2
        for k in range(n):
            c = start + d * gap * k
            layout.append((_random_card(rng, deck_name, favour), card_quad(c[0], c[1], height, ang + rng.normal(0, 4), rng)))
    else:  # negative: maybe card backs, hands, phones, paper
        for _ in range(rng.integers(0, 3)):
            layout.append((None, card_quad(rng.uniform(0, w), rng.uniform(0, h), height, rng.uniform(0, 360), rng)))
    cloth = np.random.default_rng([seed, 29])       # its own stream: a scene on no printed cloth stays as it was
    background = printed_cloth(cloth, h, w) if prints and cloth.random() < prints else None
    canvas = compose(layout, rng, size, style, backgrounds, background=background,
                     clutter=bool(rng.random() < 0.3 or kind in ("negative", "lookalike")))
    lookalikes = _add_lookalikes(canvas, rng, cx, cy, height) if kind == "lookalike" else []
    if hands is None:
        n_hands = int(rng.integers(0, 3)) if rng.random() < (0.45 if kind != "fan" else 0.7) else 0
    else:
        n_hands = int(rng.integers(1, 3)) if rng.random() < hands else 0
    for _ in range(n_hands):
        add_hand(canvas, rng, (cx, cy) if kind != "fan" else (cx, cy + height))
    labels, cards = _collect(canvas, min_index=min_index, cut=cut_labels)
    lookalikes += _decoys(canvas)
    outlines = _outlines(canvas)
    hands = list(canvas.hands)
    img = canvas.img
    if tilt:      # its own random stream: the same seed without tilt gives the same scene as before
        z = tilt_homography(np.random.default_rng([seed, 7]), w, h, tilt)
        img, moved = tilt_view(img, labels + [Label("lookalike", b, None) for b in lookalikes], z)
        for o in outlines:
            o.quad = cv2.perspectiveTransform(o.quad[:, None], z).reshape(-1, 2).astype(np.float32)
        hands = [b for b in (hand_in_frame(cv2.perspectiveTransform(q[:, None], z).reshape(-1, 2), w, h) for q in hands)
                 if b is not None]
        labels = [lab for lab in moved if lab.cls != "lookalike"]
        lookalikes = [lab.box for lab in moved if lab.cls == "lookalike"]
        shown = {id(lab.card) for lab in labels if lab.cls == "index"}
        cards = [c for c in cards if id(c) in shown]
    top = None
    tops = [lab.card for lab in labels if lab.cls == "card"]
    if kind in ("pile", "single") and layout and any(l.cls == "card" and l.card == layout[-1][0] for l in labels):
        top = layout[-1][0]
    elif kind in ("fan", "stack") and tops:
        top = layout[-1][0]
    elif tops:
        top = tops[-1]
    img = np.clip(img, 0, 255).astype(np.uint8)
    if effects:
        img = camera_effects(img, rng)
    present = [p.face.card for p in canvas.placed if p.face.card is not None]
    return Scene(img, labels, top, cards, kind, str(deck_name), lookalikes, present, outlines, hands)
