"""Table tops for synthetic scenes: wood, cloth, felt, plain, patterned, stone, or a crop of a
supplied photo (`table_surface`), drawn from a seeded generator."""
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
