"""Real photos under other cameras' conditions (figures for the model card; not a test).

The Roboflow validation photos are all of one kind: sharp, evenly lit, one camera. Players'
cameras are not. Each condition below is applied to the first N validation photos, written to
a temporary folder with their labels, and scored with the shared scorer
(`../shared/eval/score_recognizer.py`: multi_recall, multi_precision, symbols only). Under every
condition the colours read are also compared with those read in the untouched photo (the
photos carry no colour labels): the share of cards whose colour stays the same, and how many
cards are no longer read at all.

    python models/recipe bench-conditions --roboflow ../shared/datasets/roboflow-uno --limit 300

``--set NAME=VALUE`` (repeatable) reads with one of the recogniser's `Settings` changed, both in
the scored `companion recognize` and in the colour comparison.
"""
from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision.recognizer import Recognizer, parse_settings  # noqa: E402

# `companion recognize`, its recogniser built with the Settings that the NAME=VALUE pairs of the
# first argument (a JSON list) change
CLI = ("import functools, json, sys; from companion.vision import recognizer; "
       "recognizer.Recognizer = functools.partial(recognizer.Recognizer, "
       "settings=recognizer.parse_settings(json.loads(sys.argv[1]))); "
       "from companion.cli import main; sys.exit(main(sys.argv[2:]))")


def _cast(gains):
    return lambda img, rng: (img.astype(np.float32) * np.float32(gains)).astype(np.uint8)


def _dim(img, rng):
    f = img.astype(np.float32) * 0.4 + rng.normal(0, 8, img.shape)
    return np.clip(f, 0, 255).astype(np.uint8)


def _dark(img, rng):
    """A nearly dark room: a fifth of the light, the sensor's noise on top (the card's white at 50-60)."""
    f = img.astype(np.float32) * 0.2 + rng.normal(0, 3, img.shape)
    return np.clip(f, 0, 255).astype(np.uint8)


FAR = 0.45


def _far(img, rng):
    """The photo shrunk to 45% on a plain frame of the same size: a camera further away."""
    h, w = img.shape[:2]
    small = cv2.resize(img, None, fx=FAR, fy=FAR, interpolation=cv2.INTER_AREA)
    out = np.empty_like(img)
    out[:] = np.median(img.reshape(-1, 3), 0)
    y, x = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    out[y:y + small.shape[0], x:x + small.shape[1]] = small
    return out


def _tilted(img, rng):
    """Seen from a camera leaning 30-40 degrees: the far edge shorter, the depth foreshortened."""
    h, w = img.shape[:2]
    k, fy = rng.uniform(0.6, 0.75), rng.uniform(0.75, 0.85)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[w * (1 - k) / 2, h * (1 - fy)], [w * (1 + k) / 2, h * (1 - fy)], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _motion(img, rng):
    """A hand-held camera moving during the exposure: a 9-pixel streak at a random angle."""
    k = np.zeros((9, 9), np.float32)
    k[4, :] = 1 / 9
    rot = cv2.getRotationMatrix2D((4, 4), float(rng.uniform(0, 180)), 1.0)
    k = cv2.warpAffine(k, rot, (9, 9))
    return cv2.filter2D(img, -1, k / k.sum())


def _glare(img, rng):
    """A lamp's reflection on glossy cards: a white spot (a quarter of the frame's width) somewhere
    in the frame's middle half, fading out from its core."""
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = 0.125 * w
    a = np.clip(1.2 - np.hypot(xx - cx, yy - cy) / r, 0, 1)[..., None] * 0.9
    return (img * (1 - a) + 255 * a).astype(np.uint8)


SHADE = (0.40, 0.35, 0.30)      # B, G, R: the light left in a shadow, a little bluer (the room's, not the lamp's)


def _shadow(img, rng):
    """A hard shadow (an arm's, a lampshade's) over part of the photo: a straight edge at any angle
    through the photo's middle, three pixels soft; under it a third of the light (`SHADE`), so that
    some corner indices lie in it and some across its edge."""
    h, w = img.shape[:2]
    ang = rng.uniform(0, 2 * np.pi)
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = np.clip(((xx - cx) * np.cos(ang) + (yy - cy) * np.sin(ang)) / 3 + 0.5, 0, 1)[..., None]
    return (img * (1 - a + a * np.float32(SHADE))).astype(np.uint8)


def _low_res(img, rng):
    """A cheap webcam: the photo taken at a third of its width, shown at full size."""
    h, w = img.shape[:2]
    small = cv2.resize(img, (w // 3, h // 3), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


BARREL = 0.35


def _barrel_source(p: np.ndarray, w: int, h: int) -> np.ndarray:
    """Where a wide-angle lens's picture at points `p` (N x 2) takes its pixels from in the
    untouched photo: out along the radius by 1 + BARREL r^2 (r: the distance from the middle, 1 at
    a corner), scaled so that the whole photo stays in view (the middles of its long sides on the
    frame's edge; the frame's corners beyond the photo's, filled with its edge)."""
    c = np.float32([(w - 1) / 2, (h - 1) / 2])
    diag = np.hypot(*c)
    r2 = (((p - c) / diag) ** 2).sum(1, keepdims=True)
    return c + (p - c) * (1 + BARREL * r2) / (1 + BARREL * (c.min() / diag) ** 2)


def _barrel(img, rng):
    """A wide-angle lens's barrel distortion (a Pi camera's wide module, a cheap webcam): the
    middle magnified, the edges squeezed, straight card edges bowed near the frame's edges."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    src = _barrel_source(np.stack([xx.ravel(), yy.ravel()], 1), w, h).astype(np.float32)
    return cv2.remap(img, src[:, 0].reshape(h, w), src[:, 1].reshape(h, w), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _barrel_points(p: np.ndarray, w: int, h: int) -> np.ndarray:
    """Where points of the untouched photo show in `_barrel`'s picture (`_barrel_source` undone,
    by fixed-point steps: it moves a point by a small share of its distance from the middle)."""
    q = np.asarray(p, np.float64)
    out = q.copy()
    for _ in range(30):
        out = out + (q - _barrel_source(out, w, h))
    return out


def _jpeg(img, rng):
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 15])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


# each condition: BGR image, random generator -> BGR image. The casts are exposed for their
# strongest channel (nothing clips), as a camera's exposure would
CONDITIONS = {
    "as taken": lambda img, rng: img,
    "warm bulb (B x0.56, G x0.76)": _cast((0.56, 0.76, 1.0)),
    "cool daylight (G x0.8, R x0.6)": _cast((1.0, 0.8, 0.6)),
    "dim and noisy (x0.4, noise sigma 8)": _dim,
    "out of focus (Gaussian blur, sigma 2)": lambda img, rng: cv2.GaussianBlur(img, (0, 0), 2.0),
    "far away (45% of the frame)": _far,
    "turned a quarter": lambda img, rng: cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE),
    "seen at an angle (camera leaning 30-40 degrees)": _tilted,
    "camera shake (9-pixel motion blur)": _motion,
    "glare (a lamp's reflection)": _glare,
    "hard shadow (a third of the light over part of the photo)": _shadow,
    "overexposed (x1.6, clipped)": lambda img, rng: np.clip(img.astype(np.float32) * 1.6, 0, 255).astype(np.uint8),
    "low resolution (a third of the width)": _low_res,
    "heavy JPEG (quality 15)": _jpeg,
    "nearly dark (x0.2, noise sigma 3)": _dark,
    # a hazy lens, a washed-out phone photo, or a faded deck on a pale table: every pixel 35% of
    # the way to white, the inks far less saturated
    "washed out (35% towards white)": lambda img, rng: cv2.addWeighted(img, 0.65, np.full_like(img, 255), 0.35, 0),
    "wide-angle lens (barrel distortion)": _barrel,
}
# the conditions that move the pixels, each as a function of points (N x 2, x y) and the photo's
# width and height giving where those points go (labelled points follow: `bench-stages --condition`);
# a camera leaning (`_tilted`) moves them by a draw no label can follow
MOVES = {
    "far away (45% of the frame)": lambda p, w, h: p * FAR + [(w - round(w * FAR)) // 2, (h - round(h * FAR)) // 2],
    "turned a quarter": lambda p, w, h: np.stack([h - 1 - p[:, 1], p[:, 0]], 1),
    "wide-angle lens (barrel distortion)": _barrel_points,
}
FOLLOWS_NOT = ("seen at an angle",)
# every other condition: the colours read are compared with the untouched photo's (a yellow
# index blurred into its black outline darkens toward the olive green's brightness)
PLAIN = "as taken"
# the shared scorer, beside the project
SCORER = ROOT.parent / "shared" / "eval" / "score_recognizer.py"


def chosen(words) -> list[str]:
    """The conditions whose names start with one of `words` (every one when `words` is None)."""
    return [n for n in CONDITIONS if words is None or any(n.startswith(w) for w in words)]


def score(folder: Path, model_dir: str | None, scorer: Path, show_errors: int = 0, pairs: list[str] = ()) -> dict:
    """The shared scorer's summary of `folder`; with `show_errors`, also its first errors (the
    lines it prints after the summary) as "errors". `pairs`: the recogniser's Settings to change
    (NAME=VALUE)."""
    cmd = [sys.executable, str(scorer), "--data", str(folder), "--show-errors", str(show_errors), "--",
           sys.executable, "-c", CLI, json.dumps(list(pairs)), "recognize", "--json"] + (
               ["--model-dir", model_dir] if model_dir else [])
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    start = out.stdout.find("{")
    end = out.stdout.find("\n}", start)
    if start < 0 or end < 0:
        raise SystemExit(f"the scorer failed: {out.stderr[-2000:]}")
    res = json.loads(out.stdout[start:end + 2])
    if show_errors:
        res["errors"] = [line[len("error: "):] for line in out.stdout.splitlines() if line.startswith("error: ")]
    return res


def colours_kept(rec: Recognizer, plain: list[np.ndarray], cast: list[np.ndarray]) -> dict:
    """Cards read in both versions of a photo (by symbol) with the same colour, with another,
    and cards read in the plain photo but not under the cast."""
    same = other = lost = 0
    for a_img, b_img in zip(plain, cast):
        a = collections.Counter((c.color, c.symbol) for c in rec.recognize(a_img).cards)
        b = collections.Counter((c.color, c.symbol) for c in rec.recognize(b_img).cards)
        b_sym = collections.Counter(s for _, s in b.elements())
        a_sym = collections.Counter(s for _, s in a.elements())
        for sym in a_sym:
            both = min(a_sym[sym], b_sym[sym])
            kept = sum(min(n, b[(col, s)]) for (col, s), n in a.items() if s == sym)     # <= both
            same += kept
            other += both - kept
            lost += a_sym[sym] - both
    return {"same_colour": same, "other_colour": other, "not_read": lost,
            "kept": round(same / max(1, same + other), 4)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--roboflow", required=True, help="../shared/datasets/roboflow-uno (its valid split is used)")
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--scorer", default=None, help="score_recognizer.py (default: ../shared/eval beside the project)")
    ap.add_argument("--only", nargs="*", default=None, help="the conditions whose names start with these words")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="read with one of the recogniser's Settings changed (repeatable)")
    a = ap.parse_args(argv)
    try:
        settings = parse_settings(a.set)
    except ValueError as exc:
        ap.error(f"--set {exc}")
    src = Path(a.roboflow) / "valid"
    scorer = Path(a.scorer) if a.scorer else SCORER
    if not (src / "labels.json").is_file() or not scorer.is_file():
        raise SystemExit(f"need {src / 'labels.json'} and {scorer}")
    meta = json.loads((src / "labels.json").read_text())
    items = sorted(meta["images"].items())[:a.limit]
    originals = [cv2.imread(str(src / rel)) for rel, _ in items]
    rec = Recognizer("classic", threads=1, model_dir=a.model_dir, settings=settings)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in chosen(a.only or None):
            k, fn = list(CONDITIONS).index(name), CONDITIONS[name]
            rng = np.random.default_rng(k)
            folder = Path(tmp) / f"c{k}"
            (folder / "images").mkdir(parents=True)
            changed = []
            for (rel, _), img in zip(items, originals):
                out = fn(img, rng)
                changed.append(out)
                cv2.imwrite(str(folder / rel), out, [cv2.IMWRITE_JPEG_QUALITY, 92])
            (folder / "labels.json").write_text(json.dumps({"images": dict(items), "has_color": meta.get("has_color")}))
            s = score(folder, a.model_dir, scorer, pairs=a.set)
            row = {"multi_recall": s["multi_recall"], "multi_precision": s["multi_precision"]}
            if name != PLAIN:
                row["colours"] = colours_kept(rec, originals, changed)
            results[name] = row
            print(f"{name}: {row}", file=sys.stderr, flush=True)
    print(json.dumps({"photos": len(items), "conditions": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
