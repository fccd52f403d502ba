"""Table tops for synthetic scenes: wood, cloth, felt, plain, patterned, stone, or a crop of a
supplied photo (`table_surface`), drawn from a seeded generator; and printed tablecloths
(`printed_cloth`): small motifs scattered densely, some of a card index's size and stroke."""
from __future__ import annotations

import cv2
import numpy as np


def noise(rng, h, w, scale):
    """A smooth random field in 0..1 at `h` x `w`, its grain `scale` pixels."""
    small = rng.random((max(2, h // scale), max(2, w // scale))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table_surface(rng: np.random.Generator, h: int, w: int, backgrounds=None) -> np.ndarray:
    """A table top: wood, cloth, felt, plain, patterned, or a crop of a supplied photo."""
    if backgrounds and rng.random() < 0.35:
        src = backgrounds[rng.integers(len(backgrounds))]
        sh, sw = src.shape[:2]
        ch, cw = int(sh * rng.uniform(0.4, 1)), int(sw * rng.uniform(0.4, 1))
        y, x = rng.integers(0, sh - ch + 1), rng.integers(0, sw - cw + 1)
        return cv2.resize(src[y: y + ch, x: x + cw], (w, h)).astype(np.float32)
    kind = rng.choice(["wood", "cloth", "felt", "plain", "pattern", "stone"])
    base = np.float32(rng.uniform(20, 235, 3))
    img = np.empty((h, w, 3), np.float32)
    if kind == "wood":
        base = np.float32([rng.uniform(30, 120), rng.uniform(60, 150), rng.uniform(100, 210)])
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        t = xx * np.cos(ang) + yy * np.sin(ang)
        warp = noise(rng, h, w, 40) * rng.uniform(10, 40)
        grain = np.sin((t + warp) / rng.uniform(2, 8)) * 0.5 + 0.5
        fine = noise(rng, h, w, 2)
        g = 0.75 + 0.2 * grain + 0.1 * fine
        img[:] = base * g[..., None]
        if rng.random() < 0.5:  # planks
            period = rng.uniform(40, 150)
            line = (np.mod(t, period) < 2).astype(np.float32)
            img *= (1 - 0.5 * line)[..., None]
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(2, 6)
        weave = (np.sin(xx * np.pi / p) * np.sin(yy * np.pi / p)) * 0.5 + 0.5
        img[:] = base * (0.8 + 0.25 * weave + 0.1 * noise(rng, h, w, 1))[..., None]
    elif kind == "felt":
        base = np.float32(rng.choice([[40, 110, 30], [120, 60, 20], [30, 30, 130], [50, 50, 50], [90, 90, 90]])) * rng.uniform(0.6, 1.4)
        img[:] = base * (0.85 + 0.25 * noise(rng, h, w, 1) + 0.1 * noise(rng, h, w, 30))[..., None]
    elif kind == "pattern":
        img[:] = base
        other = tuple(float(v) for v in rng.uniform(20, 235, 3))
        step = int(rng.integers(15, 60))
        if rng.random() < 0.5:
            for y in range(0, h, step):
                for x in range((y // step) % 2 * step // 2, w, step):
                    cv2.circle(img, (x, y), step // 4, other, -1, cv2.LINE_AA)
        else:
            for x in range(-h, w, step):
                cv2.line(img, (x, 0), (x + h, h), other, max(2, step // 4), cv2.LINE_AA)
        img *= (0.9 + 0.15 * noise(rng, h, w, 3))[..., None]
    elif kind == "stone":
        img[:] = base * (0.7 + 0.3 * noise(rng, h, w, 8) + 0.2 * noise(rng, h, w, 1))[..., None]
    else:
        img[:] = base * (0.95 + 0.08 * noise(rng, h, w, 2))[..., None]
    return np.clip(img, 0, 255)


def _motif(img, rng, x: float, y: float, size: float, colour) -> None:
    """One printed motif about `size` pixels across at (x, y): a blob, a paisley drop, a flower, a
    leaf's curl, a ring or a scribble of strokes (as big and as thick as a printed numeral)."""
    kind = rng.integers(6)
    r = max(1.5, size / 2)
    thick = max(1, int(round(size * rng.uniform(0.08, 0.2))))
    if kind == 0:                 # a blob
        cv2.ellipse(img, (int(x), int(y)), (int(r), int(r * rng.uniform(0.4, 1))), float(rng.uniform(0, 180)), 0, 360,
                    colour, -1, cv2.LINE_AA)
    elif kind == 1:               # a paisley drop: a round head and a tail curling off it
        cv2.circle(img, (int(x), int(y)), int(r * 0.6), colour, -1, cv2.LINE_AA)
        a = rng.uniform(0, 2 * np.pi)
        t = np.linspace(0, 1, 8)
        pts = np.stack([x + np.cos(a + t * 2) * r * (0.5 + t), y + np.sin(a + t * 2) * r * (0.5 + t)], 1)
        cv2.polylines(img, [pts.astype(np.int32)], False, colour, thick + 1, cv2.LINE_AA)
    elif kind == 2:               # a flower: petals round a middle
        for k in range(int(rng.integers(4, 7))):
            a = k * 2 * np.pi / 5 + rng.uniform(0, 0.3)
            cv2.circle(img, (int(x + np.cos(a) * r * 0.6), int(y + np.sin(a) * r * 0.6)), int(max(1, r * 0.35)), colour, -1,
                       cv2.LINE_AA)
    elif kind == 3:               # a leaf's curl
        a = rng.uniform(0, 2 * np.pi)
        t = np.linspace(0, rng.uniform(2, 5), 10)
        pts = np.stack([x + np.cos(a + t) * r * t / 5, y + np.sin(a + t) * r * t / 5], 1)
        cv2.polylines(img, [pts.astype(np.int32)], False, colour, thick, cv2.LINE_AA)
    elif kind == 4:               # a ring
        cv2.ellipse(img, (int(x), int(y)), (int(r), int(r * rng.uniform(0.6, 1))), float(rng.uniform(0, 180)), 0, 360,
                    colour, thick, cv2.LINE_AA)
    else:                         # a scribble: two to four strokes, as a printed numeral is drawn
        pts = (np.float32([x, y]) + rng.uniform(-r, r, (int(rng.integers(3, 6)), 2)) * [0.6, 1]).astype(np.int32)
        cv2.polylines(img, [pts], False, colour, thick, cv2.LINE_AA)


def printed_cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A printed tablecloth: a ground colour, maybe checks, and one to three inks of small motifs
    (`_motif`) scattered densely at one scale, 6 to 40 pixels across; a real tablecloth's print is
    what a finder taught plain tables finds corner indices in."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.float32(rng.uniform(20, 235, 3))
    if rng.random() < 0.3:        # gingham: see-through stripes both ways
        step = int(rng.integers(8, 50))
        ink = np.float32(rng.uniform(20, 235, 3))
        bands = ((np.arange(w) // step) % 2)[None, :] + ((np.arange(h) // step) % 2)[:, None]
        img = img * (1 - 0.3 * bands[..., None]) + ink * 0.3 * bands[..., None]
    size = float(np.exp(rng.uniform(np.log(6), np.log(40))))
    inks = [tuple(float(v) for v in rng.uniform(20, 235, 3)) for _ in range(int(rng.integers(1, 4)))]
    for _ in range(int(w * h / (size * size) * rng.uniform(0.15, 0.6))):
        _motif(img, rng, rng.uniform(0, w), rng.uniform(0, h), size * rng.uniform(0.7, 1.3), inks[rng.integers(len(inks))])
    img *= (0.9 + 0.15 * noise(rng, h, w, 3))[..., None]
    return np.clip(img, 0, 255)
