"""The marks printed on a card face, as masks: numbers in Hershey or TrueType fonts, action symbols
drawn in each of `render.SHAPES`' ways, and the little cards of a Draw Two's or Wild Draw Four's
middle. `render.render_card` places and inks them."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from .render import Style

# TrueType and OpenType fonts for training data (`font_folders`): symbol, dingbat and maths fonts
# have no Latin digits, display cuts none at all, an extra-light cut is a hairline, and a
# calligraphic script is like no card's print
_UNFIT = ("cmex", "cmsy", "cmmi", "STIXSiz", "STIXNonUni", "LastResort", "DejaVuMathTeX", "DejaVuSansDisplay",
           "DejaVuSerifDisplay", "DejaVuSans-ExtraLight", "D050000L", "StandardSymbolsPS", "Z003")
_HAIRLINE = ("Hairline", "Thin", "ExtraLight", "UltraLight")     # cuts no card is printed in


def font_folders() -> tuple[Path, ...]:
    """Where fonts are looked for: Debian's font packages (`make fonts` installs the ones the
    recipe names), and the fonts matplotlib ships (a training dependency; found without importing it)."""
    spec = importlib.util.find_spec("matplotlib")
    return (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype")) + tuple(
        Path(p) / "mpl-data" / "fonts" / "ttf" for p in (getattr(spec, "submodule_search_locations", None) or ()))


def truetype_fonts(folders=None) -> list[str]:
    """The TrueType and OpenType fonts (of printable Latin digits) in `folders` (default
    `font_folders()`), sorted: more number shapes for training data than the Hershey fonts have.
    Nothing is fetched; a folder that is missing gives none."""
    found = []
    for folder in font_folders() if folders is None else folders:
        if folder.is_dir():
            found += [str(f) for f in folder.rglob("*") if f.suffix.lower() in (".ttf", ".otf")
                      and not f.name.startswith(_UNFIT) and not any(c in f.name for c in _HAIRLINE)]
    return sorted(found)


def _truetype_canvas(text: str, size: int, path: str, th: int) -> np.ndarray:
    """`text` drawn with a TrueType font, its strokes thickened to weigh like `th`."""
    from PIL import Image, ImageDraw, ImageFont      # training data only: not needed at run time

    font = ImageFont.truetype(path, size)
    img = Image.new("L", (size * 2, size * 2), 0)
    draw = ImageDraw.Draw(img)
    x1, y1, x2, y2 = draw.textbbox((0, 0), text, font=font)
    draw.text((size - (x1 + x2) // 2, size - (y1 + y2) // 2), text, fill=255, font=font)
    canvas = np.asarray(img).copy()
    extra = th - max(2, size // 9)       # a heavier style thickens the font's own strokes
    if extra > 0:
        canvas = cv2.dilate(canvas, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (extra + 1, extra + 1)))
    return canvas


def text_mask(text: str, size: int, style: Style, bold: float = 1.0) -> np.ndarray:
    """White-on-black mask of `text` filling a size x size canvas, slanted as the style says."""
    th = max(2, int(round(size / 9 * style.weight * bold)))
    if isinstance(style.font, str):
        return _fit_slanted(_truetype_canvas(text, size, style.font, th), size, style)
    (tw, tht), base = cv2.getTextSize(text, style.font, 1.0, th)
    scale = 0.78 * size / max(tht + base * 0.3, tw * 0.85, 1)
    th = max(2, int(round(size / 9 * style.weight * bold)))
    (tw, tht), base = cv2.getTextSize(text, style.font, scale, th)
    canvas = np.zeros((size * 2, size * 2), np.uint8)
    org = (size - tw // 2, size + tht // 2)
    cv2.putText(canvas, text, org, style.font, scale, 255, th, cv2.LINE_AA)
    return _fit_slanted(canvas, size, style)


def _fit_slanted(canvas: np.ndarray, size: int, style: Style) -> np.ndarray:
    """A glyph canvas (size*2 square) slanted as the style says and fitted to size x size."""
    if style.slant:
        m = np.float32([[1, -style.slant, style.slant * size], [0, 1, 0]])
        canvas = cv2.warpAffine(canvas, m, canvas.shape[::-1])
    ys, xs = np.nonzero(canvas > 40)
    if len(xs) == 0:
        return np.zeros((size, size), np.uint8)
    crop = canvas[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    return _fit(crop, size, fill=0.92)


def _fit(mask: np.ndarray, size: int, fill: float = 0.9) -> np.ndarray:
    """Scale a mask to fit (keeping aspect) centred in a size x size canvas."""
    h, w = mask.shape
    s = fill * size / max(h, w)
    nh, nw = max(1, int(h * s)), max(1, int(w * s))
    small = cv2.resize(mask, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((size, size), np.uint8)
    y, x = (size - nh) // 2, (size - nw) // 2
    out[y: y + nh, x: x + nw] = small
    return out


def _number_mask(sym: str, size: int, style: Style) -> np.ndarray:
    m = text_mask(sym, size, style)
    if sym in ("6", "9") and style.underline_69:
        ys, xs = np.nonzero(m > 40)
        y = min(size - 2, ys.max() + max(2, size // 14))
        th = max(2, size // 12)
        cv2.line(m, (xs.min() + size // 12, y), (xs.max() - size // 12, y), 255, th, cv2.LINE_AA)
        m = _fit(m[max(0, ys.min() - 1): min(size, y + th), :], size, fill=0.92)
    return m


def _arrow(mask, p0, p1, th, head):
    p0, p1 = np.float32(p0), np.float32(p1)
    d = (p1 - p0) / (np.linalg.norm(p1 - p0) + 1e-6)
    n = np.float32([-d[1], d[0]])
    base = p1 - d * head
    cv2.line(mask, tuple(int(v) for v in p0), tuple(int(v) for v in base), 255, th, cv2.LINE_AA)
    tri = np.int32([p1, base + n * head * 0.75, base - n * head * 0.75])
    cv2.fillConvexPoly(mask, tri, 255, cv2.LINE_AA)


def little_card(img, cx, cy, cw, ch, angle, fill, edge, th):
    """A small card drawn as a symbol: a `cw` x `ch` rectangle turned `angle` degrees, filled with
    `fill` inside an `edge` outline `th` thick."""
    pts = cv2.boxPoints(((float(cx), float(cy)), (float(cw), float(ch)), float(angle))).astype(np.int32)
    cv2.fillConvexPoly(img, pts, edge, cv2.LINE_AA)
    inner = cv2.boxPoints(((float(cx), float(cy)), (max(1.0, cw - 2 * th), max(1.0, ch - 2 * th)), float(angle)))
    cv2.fillConvexPoly(img, inner.astype(np.int32), fill, cv2.LINE_AA)


def _shape_mask(sym: str, size: int, style: Style) -> np.ndarray:
    """Masks for the action symbols, drawn on a size x size canvas."""
    m = np.zeros((size, size), np.uint8)
    c = size // 2
    th = max(2, int(size / 9 * style.weight))
    v = style.shapes
    if sym == "skip":
        ring, bar = max(2, int(th * (1.0, 1.0, 1.6, 0.65)[v])), max(2, int(th * (1.0, 1.0, 1.0, 1.6)[v]))
        rad = size * (0.38, 0.38, 0.36, 0.40)[v]
        cv2.circle(m, (c, c), int(rad), 255, ring, cv2.LINE_AA)
        r = (rad - ring / 2 * (v == 2)) / np.sqrt(2)
        up = (1, -1, -1, 1)[v]       # 1: bottom-left to top-right
        cv2.line(m, (int(c - r), int(c + up * r)), (int(c + r), int(c - up * r)), 255, bar, cv2.LINE_AA)
    elif sym == "reverse":
        if v == 2:      # two arrows bent like bows
            for s in (1, -1):
                t = np.linspace(0, 1, 12)
                p0, p1 = np.float32([c - s * size * 0.36, c + s * size * 0.1]), np.float32([c + s * size * 0.2, c - s * size * 0.32])
                bow = np.float32([-s * size * 0.07, -s * size * 0.07])
                pts = p0[None] + (p1 - p0)[None] * t[:, None] + bow[None] * np.sin(np.pi * t)[:, None]
                cv2.polylines(m, [pts[:-3].astype(np.int32)], False, 255, th, cv2.LINE_AA)
                _arrow(m, pts[-4], pts[-1] + (pts[-1] - pts[-4]) * 0.3, th, size * 0.2)
        else:           # two straight arrows; 3: short and heavy
            o, reach, head, t3 = (size * 0.12, 0.3, 0.2, th) if v != 3 else (size * 0.13, 0.24, 0.27, int(th * 1.6))
            _arrow(m, (c - size * reach - o, c + size * reach - o), (c + size * 0.22 - o, c - size * 0.22 - o), t3, size * head)
            _arrow(m, (c + size * reach + o, c - size * reach + o), (c - size * 0.22 + o, c + size * 0.22 + o), t3, size * head)
            if v == 1:
                m = np.ascontiguousarray(m[:, ::-1])
    elif sym == "swap":
        for ang0 in (200, 20):
            cv2.ellipse(m, (c, c), (int(size * 0.33), int(size * 0.33)), 0, ang0, ang0 + 130, 255, th, cv2.LINE_AA)
        for ang in (330, 150):
            a = np.deg2rad(ang)
            p = np.float32([c + size * 0.33 * np.cos(a), c + size * 0.33 * np.sin(a)])
            tdir = np.float32([-np.sin(a), np.cos(a)])
            _arrow(m, p - tdir * size * 0.08, p + tdir * size * 0.12, th, size * 0.16)
        cv2.rectangle(m, (int(c - size * .1), int(c - size * .1)), (int(c + size * .1), int(c + size * .1)), 255, -1)
    elif sym == "shuffle":
        _arrow(m, (size * 0.12, size * 0.2), (size * 0.88, size * 0.8), th, size * 0.2)
        _arrow(m, (size * 0.12, size * 0.8), (size * 0.88, size * 0.2), th, size * 0.2)
        _arrow(m, (size * 0.12, size * 0.5), (size * 0.88, size * 0.5), max(2, th // 2), size * 0.15)
    elif sym == "pencil":
        pts = np.float32([[0.2, 0.85], [0.15, 0.7], [0.7, 0.15], [0.85, 0.3]]) * size
        cv2.fillConvexPoly(m, pts.astype(np.int32), 255, cv2.LINE_AA)
        cv2.line(m, (int(size * .1), int(size * .93)), (int(size * .9), int(size * .93)), 255, max(2, th // 2))
    return m


def symbol_mask(sym: str, size: int, style: Style, *, index: bool) -> np.ndarray:
    """The one-colour mask of a symbol as printed in a corner (index=True) or the centre."""
    if sym.isdigit():
        return _number_mask(sym, size, style)
    if sym == "draw_two" and index:
        return text_mask("+2", size, style)
    if sym == "wild_draw_four" and index:
        return text_mask("+4", size, style)
    if sym in ("skip", "reverse"):
        return _shape_mask(sym, size, style)
    if sym == "wild_swap_hands":
        return _shape_mask("swap", size, style)
    if sym == "wild_shuffle_hands":
        return _shape_mask("shuffle", size, style)
    if sym == "wild_customizable":
        return _shape_mask("pencil", size, style)
    if sym == "wild_seinfeld" and index:
        return text_mask("S", size, style)
    if sym == "draw_two":   # centre: two overlapping cards, upright, fanned, side by side or askew
        m = np.zeros((size, size), np.uint8)
        if style.shapes == 0:
            for dx, dy in ((-0.12, 0.1), (0.12, -0.1)):
                x, y = size * (0.5 + dx), size * (0.5 + dy)
                cv2.rectangle(m, (int(x - size * .17), int(y - size * .25)), (int(x + size * .17), int(y + size * .25)), 255, -1)
                cv2.rectangle(m, (int(x - size * .17), int(y - size * .25)), (int(x + size * .17), int(y + size * .25)), 0, max(2, size // 25))
            return m
        place = (((-0.1, 0.02, -14), (0.1, -0.02, 14)), ((-0.15, 0.0, 0), (0.15, 0.0, 0)),
                 ((-0.15, 0.13, 20), (0.15, -0.13, 20)))[style.shapes - 1]
        edge = max(2, size // 25) * (2 if style.shapes == 2 else 1)
        for dx, dy, ang in place:
            little_card(m, size * (0.5 + dx), size * (0.5 + dy), size * 0.34, size * 0.5, ang, 255, 0, edge)
        return m
    raise KeyError(sym)


# ---------------------------------------------------------------- compositing
