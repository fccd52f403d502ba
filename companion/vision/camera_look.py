"""What a cheap camera does to a synthetic scene: room light (warm, cool, dim), vignette, shadow,
glare, blur, noise and JPEG (`camera_effects`), drawn from a seeded generator."""
from __future__ import annotations

import cv2
import numpy as np


def camera_effects(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Room light (warm, cool, dim), vignette, shadow, glare, blur, noise and JPEG."""
    h, w = img.shape[:2]
    img = img.astype(np.float32)
    temp = rng.normal(0, 0.12 * strength)
    img *= np.float32([1 - temp, 1 - temp * 0.2, 1 + temp * 0.8])[None, None]
    img *= rng.uniform(0.45, 1.25) if rng.random() < 0.9 else 1.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.6:
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        d = np.sqrt((xx - gx) ** 2 + (yy - gy) ** 2) / max(h, w)
        img *= (1 - rng.uniform(0, 0.5) * np.clip(d, 0, 1))[..., None]
    if rng.random() < 0.35:
        m = np.zeros((h, w), np.uint8)
        pts = np.int32(np.stack([rng.uniform(-w * .2, w * 1.2, 5), rng.uniform(-h * .2, h * 1.2, 5)], 1))
        cv2.fillPoly(m, [cv2.convexHull(pts)], 255)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(3, 25)).astype(np.float32) / 255
        img *= (1 - rng.uniform(0.2, 0.55) * m)[..., None]
    if rng.random() < 0.25:
        m = np.zeros((h, w), np.float32)
        cv2.ellipse(m, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), (int(rng.uniform(5, w / 4)), int(rng.uniform(5, h / 6))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(4, 20))
        img += (m * rng.uniform(60, 200))[..., None]
    img = np.clip(img, 0, 255)
    r = rng.random()
    if r < 0.35:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.6) * strength + 0.01)
    elif r < 0.5:
        k = int(rng.integers(3, 9))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1 / k
        ker = cv2.warpAffine(ker, cv2.getRotationMatrix2D((k / 2 - .5, k / 2 - .5), rng.uniform(0, 180), 1), (k, k))
        img = cv2.filter2D(img, -1, ker / max(ker.sum(), 1e-6))
    img += rng.normal(0, rng.uniform(0, 7) * strength, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(35, 96))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def lamp(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`img` under a room lamp drawn from a tungsten bulb's orange (blue down to half, green to
    three quarters) to a shade's or a screen's blue (red down to half): the strong casts a
    camera's white balance leaves in a living room, far beyond `camera_effects`' mild ones."""
    t = rng.uniform(-1, 1)
    gains = (1 - 0.5 * t, 1 - 0.25 * t, 1.0) if t > 0 else (1.0, 1 + 0.2 * t, 1 + 0.5 * t)
    return cv2.multiply(img, (*gains, 0.0), dtype=cv2.CV_8U)
