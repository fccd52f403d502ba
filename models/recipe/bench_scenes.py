"""The recogniser's benchmarks on generated scenes, each a function of a recogniser per deck (`rec(deck)`),
a number of scenes and the first seed, giving its figures: `piles` (the top card of discard piles),
`singles` (photos of one card), `multi` (fans, spread hands and piles, scored as the shared scorer
scores photos), `negatives` (tables with no card), `per_face` (every face of every deck in every
print design) and `hands` (hands over the cards, for a finder taught them). `bench_recognizer.py`
runs them from the command line, `bench_piles.py` runs `piles` over many sets. Each draws its
scenes with ``scenes`` (`make_scene`, or `drawn(...)`: every scene printed or photographed
otherwise)."""
from __future__ import annotations

import collections
import dataclasses
import functools
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.cards import deck as deck_profile  # noqa: E402
from companion.vision.dataset import SEEDS  # noqa: E402
from companion.vision.synth import make_scene  # noqa: E402


def drawn(*, faded: float = 0.0, sunburst: float = 0.0, prints: float = 0.0, stretch: float = 1.0):
    """`make_scene` with every deck's inks `faded`, a `sunburst` share of the decks in that print,
    a `prints` share of the tables printed cloths, and every photo stretched `stretch` times in
    height (`stretching`); `make_scene` itself where nothing is changed."""
    options = {k: v for k, v in (("faded", faded), ("sunburst", sunburst), ("prints", prints)) if v}
    make = functools.partial(make_scene, **options) if options else make_scene
    return stretching(make, stretch) if stretch != 1.0 else make


def stretching(make, f: float):
    """`make` (a scene maker) with every scene's image stretched `f` times in height against its
    width: the width kept, the height times `f` (the benches compare cards, not boxes)."""
    def made(*args, **kw):
        sc = make(*args, **kw)
        h, w = sc.image.shape[:2]
        return dataclasses.replace(sc, image=cv2.resize(sc.image, (w, max(1, round(h * f))),
                                                        interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR))
    return made


def shown(label: str, n: int):
    """range(n), with a line on stderr at every tenth done (a long benchmark shows its progress)."""
    step = max(1, n // 10)
    for i in range(n):
        if i and i % step == 0:
            print(f"  {label}: {i}/{n}", file=sys.stderr, flush=True)
        yield i


def key(card):
    return None if card is None else (None if card.is_wild else card.color, card.symbol)


def det_key(det):
    if det is None:
        return None
    c = det.card
    return key(c) if c else (det.color, det.symbol)


def _top_in_view(sc) -> float | None:
    """How much of the scene's top card is in view (0..1), or None when it shows no symbol (a
    corner index or the centre: a hand or the frame's edge hides them all)."""
    mine = [lab for lab in sc.labels if lab.card is sc.top]
    if not any(lab.cls in ("index", "centre") for lab in mine):
        return None
    return max(lab.visible for lab in mine if lab.cls == "card")


def pile_area(sc, share: float, seed: int) -> tuple[int, int, int, int]:
    """A window `share` of the frame's width and height round the scene's pile, as a person sets the
    pile's area: its top card's middle anywhere in the window's middle half, the window in the frame."""
    h, w = sc.image.shape[:2]
    aw, ah = round(w * share), round(h * share)
    middle = sc.outlines[-1].quad.mean(0) + np.random.default_rng([seed, 7]).uniform(-0.25, 0.25, 2) * (aw, ah)
    x1 = int(np.clip(middle[0] - aw / 2, 0, w - aw))
    y1 = int(np.clip(middle[1] - ah / 2, 0, h - ah))
    return x1, y1, x1 + aw, y1 + ah


def piles(rec, n: int, deck_name: str | None, *, first: int = SEEDS["bench"], size=(640, 480),
          heights=(0.18, 0.75), tilt: float = 0.0, misses: list | None = None, scenes=make_scene,
          area: float = 1.0) -> dict:
    """Top card right (`rec(deck)` gives the recogniser for a scene's deck), over every scene
    with a top card and over the readable ones: those where the top card shows at least one
    symbol (a corner index or the centre; in the others a hand or the frame edge hides it, and
    the right answer is "no top card" or a guess). The readable ones are split into a clear view
    (at least 75% of the top card seen: how the game reads a settled pile) and the rest (a hand
    or the frame edge over more than a quarter of it). ``heights``: the cards' height range as a
    share of the frame's shorter side; ``tilt``: the camera leans up to this many degrees.
    ``misses``: a list that gets a line for each readable top card read wrong (seed, card, answer).
    ``area`` under 1: each scene is read within the pile's area (`pile.roi` in the config), a window
    that share of the frame's width and height, the pile's top card anywhere in its middle half."""
    ok = asked = 0
    conf = collections.Counter()
    unreadable = collections.Counter()
    seen = collections.Counter()
    right_of = collections.Counter()
    for i in shown("piles", n):
        sc = scenes(first + i, size=size, kind=("pile", "single")[i % 4 == 3], deck_name=deck_name,
                    heights=heights, tilt=tilt)
        if sc.top is None:
            continue
        reader = rec(sc.deck)
        if reader is None:      # (--deck any: a deck in other colours than the four)
            continue
        seen_of_top = _top_in_view(sc)
        found = reader.recognize(sc.image, roi=pile_area(sc, area, first + i) if area < 1 else None)
        got = det_key(found.top)
        right = got == key(sc.top)
        ok += right
        if seen_of_top is None:
            unreadable["right" if right else "none" if got is None else "wrong"] += 1
            continue
        view = "clear" if seen_of_top >= 0.75 else "covered"
        seen[view] += 1
        right_of[view] += right
        asked += got is None and det_key(found.unsure) == key(sc.top)
        if not right:
            conf[(str(sc.top), str(got))] += 1
            if misses is not None:
                misses.append(f"{first + i} {view} ({seen_of_top:.2f} in view): {sc.top} -> {got}")
    readable = seen["clear"] + seen["covered"]
    total = readable + sum(unreadable.values())
    return {"top_card_accuracy_readable": round((right_of["clear"] + right_of["covered"]) / max(readable, 1), 4),
            "readable": readable,
            "asked_right": round(asked / max(readable, 1), 4),      # no top card, the unsure candidate right
            "top_card_accuracy_clear_view": round(right_of["clear"] / max(seen["clear"], 1), 4), "clear_view": seen["clear"],
            "top_card_accuracy_covered": round(right_of["covered"] / max(seen["covered"], 1), 4), "covered": seen["covered"],
            "top_card_accuracy_all": round(ok / max(total, 1), 4), "n": total,
            "unreadable_top": dict(unreadable),
            "worst_readable": [f"{t} -> {g}: {c}" for (t, g), c in conf.most_common(10)]}


def singles(rec, n: int, deck_name: str | None, *, first: int, size=(640, 480), tilt: float = 0.0,
            fonts: tuple = (), shapes: tuple = (), favour: tuple = (), themed: float = 0.0,
            heights=(0.18, 0.75), misses: list | None = None, scenes=make_scene) -> dict:
    """Photos of one card (`rec(deck)` gives the recogniser for a scene's deck): the card read
    right (colour and symbol), split by how much of it the frame shows: whole (95% or more),
    most (75% or more: a finger over it, a corner off the frame) and cut (less, but a symbol
    shows); cards that show no symbol are left out. `fonts`: every deck prints its numbers in
    one of these TrueType fonts; `shapes`: every deck draws its action symbols one of these ways
    (`render.SHAPES`); `favour`: symbols drawn for half the cards; `themed`: the share of decks
    with a picture in their cards' middles; `heights`: the card's height, a share of the frame's
    (above 1: held close to the lens, cut by the frame, a symbol it shows then counts when 45%
    of it is in view). ``misses``: gets a line for each card read wrong."""
    seen, right = collections.Counter(), collections.Counter()
    wrong = collections.Counter()
    asked = 0
    for i in shown("singles", n):
        sc = scenes(first + i, size=size, kind="single", deck_name=deck_name, tilt=tilt,
                        fonts=fonts, font_share=1.0, shapes=shapes, shape_share=1.0, favour=favour,
                        themed=themed, heights=heights, cut_labels=max(heights) > 1)
        if sc.top is None:
            continue
        vis = _top_in_view(sc)
        if vis is None:
            continue
        view = "whole" if vis >= 0.95 else "most" if vis >= 0.75 else "cut"
        reader = rec(sc.deck)
        if reader is None:      # (--deck any: a deck in other colours than the four)
            continue
        found = reader.recognize(sc.image)
        got = det_key(found.top)
        seen[view] += 1
        right[view] += got == key(sc.top)
        asked += found.top is None and det_key(found.unsure) == key(sc.top)
        if got != key(sc.top) and view != "cut":
            wrong[(str(sc.top), str(got))] += 1
        if got != key(sc.top) and misses is not None:
            misses.append(f"{first + i} single {view} ({vis:.2f} in view): {sc.top} -> {got}")
    res = {f"accuracy_{v}": round(right[v] / max(seen[v], 1), 4) for v in ("whole", "most", "cut")}
    res.update({v: seen[v] for v in ("whole", "most", "cut")})
    res["accuracy"] = round(sum(right.values()) / max(sum(seen.values()), 1), 4)
    res["asked_right"] = round(asked / max(sum(seen.values()), 1), 4)     # no top card, the unsure candidate right
    res["wrong_in_view"] = [f"{t} -> {g}: {c}" for (t, g), c in wrong.most_common(10)]
    return res


def multi(rec, n: int, deck_name: str | None, *, first: int, kind: str, size=(640, 480), tilt: float = 0.0,
          misses: list | None = None, scenes=make_scene) -> dict:
    """Photos of several cards (`kind` "fan": held up for a hand scan; "spread": laid side by
    side; "pile": a discard pile), scored as the shared scorer scores them: the multiset of
    reported cards (colour and symbol; a wild's colour not counted) against every card whose
    corner index is in view (75% of it or more). A reported card that is in the photo with less
    of it in view (the next card of a fan covers most of its index) is neither missed nor false:
    a labeller may or may not have listed it (``multi_precision_strict`` counts it false)."""
    tp = fp = fn = exact = partial = 0
    wrong = collections.Counter()
    for i in shown(kind, n):
        sc = scenes(first + i, size=size, kind=kind, deck_name=deck_name, tilt=tilt)
        # (a camera leaning over the table can push part of an index out of the frame)
        in_view = {id(lab.card) for lab in sc.labels if lab.cls == "index" and lab.visible >= 0.75}
        truth = collections.Counter(key(c) for c in sc.cards if id(c) in in_view)
        reader = rec(sc.deck)
        if reader is None:
            continue
        seen = collections.Counter(det_key(d) for d in reader.recognize(sc.image).cards)
        inter = sum((truth & seen).values())
        extra = seen - truth
        hidden = extra & (collections.Counter(key(c) for c in sc.present) - truth)
        tp += inter
        fn += sum(truth.values()) - inter
        fp += sum((extra - hidden).values())
        partial += sum(hidden.values())
        exact += not (truth - seen) and not (extra - hidden)
        for k in (truth - seen):
            wrong[("missed", str(k))] += 1
        for k in (extra - hidden):
            wrong[("false", str(k))] += 1
        if (truth - seen or extra - hidden) and misses is not None:
            misses.append(f"{first + i} {kind} {size[0]}x{size[1]}: missed {sorted(map(str, truth - seen))}, "
                          f"false {sorted(map(str, extra - hidden))}")
    return {"multi_recall": round(tp / max(tp + fn, 1), 4), "multi_precision": round(tp / max(tp + fp, 1), 4),
            "multi_precision_strict": round(tp / max(tp + fp + partial, 1), 4),
            "photos_all_right": round(exact / max(n, 1), 4), "n": n, "cards": tp + fn,
            "worst": [f"{w} {k}: {c}" for (w, k), c in wrong.most_common(10)]}


def negatives(rec, n: int, kind: str = "negative", first: int = SEEDS["bench"] + 500_000,
              misses: list | None = None, scenes=make_scene) -> dict:
    clean = asked = 0
    for i in shown(kind, n):
        sc = scenes(first + i, size=(640, 480), kind=kind)
        r = rec.recognize(sc.image)
        clean += (not r.cards and r.top is None)
        asked += r.unsure is not None
        if (r.cards or r.top is not None) and misses is not None:
            misses.append(f"{first + i} {kind}: " + ", ".join(f"{d.color} {d.symbol} {d.confidence:.2f}" for d in r.cards))
    # asked: an unsure candidate given (in a game, a question to the host after a motion there)
    return {"background_clean": round(clean / max(n, 1), 4), "asked": round(asked / max(n, 1), 4), "n": n}


def per_face(rec, n: int, *, first: int, scenes=make_scene) -> dict:
    """Every face of every deck profile in every print design, on `n` photos of one card each
    (the card drawn often: `favour`; only photos where it is the card and 75% or more in view)."""
    from companion.cards import deck_names
    from companion.vision.render import DESIGNS
    decks = {}
    for name in ("classic", *deck_names()):
        for symbol in deck_profile(name).symbols():
            decks.setdefault(symbol, name)
    table, worst = {}, []
    for d, design in enumerate(DESIGNS):
        row = {}
        for k, (symbol, deck_name) in enumerate(sorted(decks.items())):
            print(f"  per face: {design} {symbol}", file=sys.stderr, flush=True)
            seen = right = 0
            base = first + (d * 100 + k) * 1000
            for j in range(20 * n):
                if seen >= n:
                    break
                sc = scenes(base + j, size=(640, 480), kind="single", deck_name=deck_name, design=design,
                                favour=(symbol,))
                if sc.top is None or sc.top.symbol != symbol or (_top_in_view(sc) or 0) < 0.75:
                    continue
                reader = rec(sc.deck)
                if reader is None:
                    continue
                seen += 1
                right += det_key(reader.recognize(sc.image).top) == key(sc.top)
            row[symbol] = round(right / seen, 3) if seen else None
            if seen:
                worst.append((right / seen, f"{design} {symbol} {right}/{seen}"))
        table[design] = row
    worst.sort()
    return {"faces_right": table, "least": round(worst[0][0], 3) if worst else None,
            "worst": [w for _, w in worst[:8]]}


HAND_KINDS = ("pile", "pile", "single", "negative")


def hands(rec, n: int, deck_name: str | None, *, first: int, size=(640, 480), tilt: float = 30.0,
          scenes=make_scene) -> dict:
    """Piles, lone cards and empty tables (the camera leaning up to `tilt` degrees), half of them
    with a hand or two reaching over the cards: the hands the find stage finds (a finder taught
    them: `finder-data --hand-class`). ``over_top_found``: of the scenes where a drawn hand lies over
    the top card, the share where a found one does; ``no_hand_found``: of those with no hand, the
    share where one is found; ``hands_found``: drawn hands that a found one overlaps by an IoU of
    0.3 or more; ``false_hands``: found hands overlapping none drawn, a scene."""
    from companion.vision.outline import quad_iou, quad_overlap
    over = no_hand = drawn_n = found_n = false_n = 0
    seen = collections.Counter()
    for i in shown("hands", n):
        sc = scenes(first + i, size=size, deck_name=deck_name, kind=HAND_KINDS[i % len(HAND_KINDS)], tilt=tilt,
                    hands=0.5)
        found = rec(sc.deck).outline(sc.image).hands
        top = sc.outlines[-1].quad if sc.top is not None and sc.outlines else None
        if top is not None and any(quad_overlap(q, top) > 0 for q in sc.hands):
            over += 1
            seen["over"] += any(quad_overlap(f, top) > 0 for f in found)
        elif not sc.hands:
            no_hand += 1
            seen["none"] += bool(found)
        drawn_n += len(sc.hands)
        found_n += sum(any(quad_iou(q, f) >= 0.3 for f in found) for q in sc.hands)
        false_n += sum(not any(quad_iou(q, f) >= 0.3 for q in sc.hands) for f in found)
    return {"scenes": n, "hand_over_top": over, "no_hand": no_hand,
            "over_top_found": round(seen["over"] / max(over, 1), 4),
            "no_hand_found": round(seen["none"] / max(no_hand, 1), 4),
            "hands_drawn": drawn_n, "hands_found": round(found_n / max(drawn_n, 1), 4),
            "false_hands": round(false_n / max(n, 1), 4)}
