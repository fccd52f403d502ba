"""What the detector finds (`Part`: a corner index, a centre symbol, a face) and how parts relate:
boxes, overlaps, the same card, a fan's row, the votes of a card's parts."""
from __future__ import annotations
import collections
from dataclasses import dataclass
import cv2
import numpy as np
from ..cards import kinds
from .detection import Detection
from . import pile_tuning as tuning
from .pile_image import (_on_ink, _ring_share, _rank_red, _four_coloured)


@dataclass
class Part:
    cls: str
    box: tuple
    score: float
    symbol: str = "none"
    p: float = 0.0
    color: str | None = None  # a face: its middle's colour, or WILD_FACE for a wild's oval
    share: float = 0.0        # a face: the share of its middle's coloured pixels that have `color`

    @property
    def centre(self):
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    @property
    def size(self):
        return max(self.box[2] - self.box[0], self.box[3] - self.box[1])


def _clusters(parts: list[Part]) -> list[tuple[tuple, float]]:
    """Parts that lie near each other (within a card of each other), as (region, card size),
    largest card first: the region holds every part's card; the card size is the largest seen or
    implied by an index or a centre symbol (`PART_OF_CARD`)."""
    items = []
    for p in parts:
        card = p.size / tuning.PART_OF_CARD[p.cls]
        cx, cy = p.centre
        r = card / 2 if p.cls == "card" else card * 0.6
        items.append([(cx - r, cy - r, cx + r, cy + r), card])
    merged = True
    while merged:
        merged = False
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                a, b = items[i][0], items[j][0]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    items[i] = [(min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])),
                                max(items[i][1], items[j][1])]
                    del items[j]
                    merged = True
                    break
            if merged:
                break
    return [(tuple(r), c) for r, c in sorted(items, key=lambda it: -it[1])]


def _width(quad: np.ndarray) -> float:
    """The width of a card's outline (its first side)."""
    return float(np.hypot(*(quad[1] - quad[0])))


def _colour_named(face: Part, parts: list[Part], faint: list[Part], sure: float) -> str | None:
    """The colour that a face's mixed middle (a hand over it, the card beside it in its box) is
    named by: that of a corner index among `parts` read at least `sure`, of another colour than the
    middle's, whose symbol a faint centre in the face's middle (within `CENTRE_NEAR` of its longer
    side) shows and no part of the middle's colour shows (fresh pile 9,300,916); None if none."""
    (mx, my), reach = face.centre, tuning.CENTRE_NEAR * face.size
    middle = {c.symbol for c in faint if abs(c.centre[0] - mx) < reach and abs(c.centre[1] - my) < reach}
    own = {p.symbol for p in parts if p.color == face.color}
    for p in parts:
        if p.cls == "index" and p.p >= sure and p.color not in (None, face.color) \
                and p.symbol in middle and p.symbol not in own:
            return p.color
    return None


def _paired(image: np.ndarray, p: Part, rest: list[Part], untaken: list[Part], colors) -> bool:
    """Whether index `p` and another of `rest` are two faint corners of one card (`_same_card`),
    each found from `FAN_SCORE`, read at `PAIRED_CONF` and printed on ink: each vouches for the other."""
    def faint_corner(q: Part) -> bool:
        return q.p >= tuning.PAIRED_CONF and q.score >= tuning.FAN_SCORE

    return faint_corner(p) and any(q is not p and faint_corner(q) and _same_card(q, [p], untaken)
                                   and _uno_print(image, q, colors) for q in rest) \
        and _uno_print(image, p, colors)


def _in_a_face(members: list[Part], faces: list[Part], shape: tuple) -> bool:
    """Whether a card that no face took shows a part inside a face's box: the face was found, but
    its middle (a hand over it, cards beneath) read another colour. A wild's oval holds only a
    wild's parts."""
    return any(_within(p, f.box, shape) and (f.color != tuning.WILD_FACE or kinds()[p.symbol].wild)
               for p in members for f in faces)


def _wild_inside(parts: list[Part]) -> bool:
    """Whether a face's parts show a wild: a wild corner index, or a wild centre unless two corner
    indices agree surely on another symbol (a themed deck's many-coloured picture, found as a
    centre and read as a wild's oval, between the card's own two corners)."""
    if any(p.cls == "index" and kinds()[p.symbol].wild for p in parts):
        return True
    if not any(kinds()[p.symbol].wild for p in parts):
        return False
    sure_corners = collections.Counter(p.symbol for p in parts if p.cls == "index" and p.p >= tuning.WILD_CORNERS_P)
    return not any(n >= 2 for n in sure_corners.values())


def _at_edge(p: Part, w: int, h: int) -> bool:
    """Whether `p`'s classifier crop (`crop_square`: a square of its longer side, padded 15% each
    way) runs off the frame."""
    (cx, cy), r = p.centre, p.size * 1.3 / 2
    return cx - r < 0 or cy - r < 0 or cx + r > w or cy + r > h


def _red_ring(image: np.ndarray, p: Part, colors) -> float | None:
    """For an index in the colour a playing card's red rank is read as (`_rank_red`), the share of
    the ring round it in that colour (`_ring_share`); None for a part of another colour or none."""
    red = _rank_red(colors)
    return _ring_share(image, p.box, red, colors) if p.color == red else None


def _faint_red(p: Part, ring: float | None) -> bool:
    """Is index `p` (`ring`: its `_red_ring`) in a playing card's red, found no surer than its
    ranks (under `RED_LONE_SCORE`) and not ringed by its card's colour (under `RED_RING_SURE`)?
    Then it is no card alone, nor is a face whose symbol it alone shows."""
    return ring is not None and p.score < tuning.RED_LONE_SCORE and ring < tuning.RED_RING_SURE


def _uno_print(image: np.ndarray, p: Part, colors, ring: float | None = None) -> bool:
    """Whether symbol part `p` can be a UNO card's print: a centre symbol, a wild's (on black,
    whose saturation says nothing; a wild's corner oval in the deck's colours), or a coloured index
    printed on ink (`_on_ink`); in the colour a playing card's red rank is read as (`_rank_red`), on
    ink of that colour (`RED_RING` of the ring round it: a red rank's paper lies by a table of
    another colour) unless found surely (`RED_SURE`: a fanned card's index, its neighbours round it).
    `ring`: that share (`_red_ring`) when the caller has read it already."""
    if p.cls == "centre":
        return True
    if p.symbol == "wild":
        return _four_coloured(image, p.box, colors)
    if kinds()[p.symbol].wild:
        return True
    red = _rank_red(colors)
    return _on_ink(image, p.box) and (p.color != red or p.score >= tuning.RED_SURE or (
        _ring_share(image, p.box, red, colors) if ring is None else ring) >= tuning.RED_RING)


def _face_votes(face: Part, members: list[Part]) -> dict[str, float]:
    """`_symbol_votes` of the parts inside an uncovered face, but a corner index farther from the
    face box's middle than `FAR_CORNER` of its longer side has no weight: it is no corner of that
    card (a card beneath's, which the box of a turned card takes in). Where every part is that
    far, they all weigh (a box round part of a card, cut by the frame or a hand). Every symbol
    shown keeps its key, at no weight if need be: more than one symbol in a face is what asks
    whether some of them are a card's beneath (`_beneath`)."""
    long = max(face.box[2] - face.box[0], face.box[3] - face.box[1], 1e-6)
    near = [p for p in members if p.cls != "index"
            or np.hypot(p.centre[0] - face.centre[0], p.centre[1] - face.centre[1]) <= tuning.FAR_CORNER * long]
    votes = dict.fromkeys((p.symbol for p in members), 0.0)
    votes.update(_symbol_votes(near or members))
    return votes


def _unclaimed_centres(parts: list[Part], cards: list, symbol: str) -> list[Part]:
    """The centre symbols among `parts` read as `symbol` (from `FAINT_CENTRE`) that no card read
    (`cards`: (card, its parts)) shows as its own: a card read is weighed already (pile 9,460,949,
    a wild on a green 6, the 6's outline read unsurely and agreeing with the 6's own centre)."""
    return [p for p in parts if p.cls == "centre" and p.symbol == symbol and p.p >= tuning.FAINT_CENTRE
            and not any(d.symbol == symbol and any(p is q for q in m) for d, m in cards)]


def _sureness(members: list[Part], symbol: str, votes: dict[str, float] | None = None) -> float:
    """How sure a card's parts are of its `symbol`: their agreement (its share of their votes,
    `_symbol_votes`; `votes` where the caller has them) times the classifier's certainty that at
    least one of the readings of it is right (separate crops: two corners and the centre; the
    detector's score only decides whether something is there: it is thresholded before)."""
    votes = _symbol_votes(members) if votes is None else votes
    total = sum(votes.values())
    if total <= 0:
        return 0.0
    agree = [p.p for p in members if p.symbol == symbol]
    return votes.get(symbol, 0.0) / total * (1.0 - float(np.prod([1.0 - q for q in agree])))


def _symbol_votes(members: list[Part]) -> dict[str, float]:
    """Each symbol's weight among a card's parts: classifier certainty squared (one sure reading
    outweighs two unsure ones) x detector score (centre x1.3)."""
    votes: dict[str, float] = {}
    for p in members:
        votes[p.symbol] = votes.get(p.symbol, 0.0) + p.p ** 2 * p.score * (1.3 if p.cls == "centre" else 1.0)
    return votes


def _within(p: Part, box, shape: tuple) -> bool:
    """A part that can belong to the uncovered face `box`: its centre inside the box, and an
    index not on the box's very edge (a card's own corner index is printed inside its border,
    so its centre is well inside even the upright box of a tilted card). A side of the box on
    the edge of the frame (`shape`: the image's) is where the frame cuts the card, not the card's edge."""
    if not _inside(p.centre, box):
        return False
    if p.cls != "index":
        return True
    (cx, cy), (h, w) = p.centre, shape[:2]
    gaps = [g for g, cut in ((cx - box[0], box[0] <= 1), (box[2] - cx, box[2] >= w - 1),
                             (cy - box[1], box[1] <= 1), (box[3] - cy, box[3] >= h - 1)) if not cut]
    return not gaps or min(gaps) >= 0.3 * p.size


def _depth(pt, box) -> float:
    """How deep inside `box` point `pt` lies: its least distance to the box's sides, as a share of
    the box's longer side (negative outside)."""
    (cx, cy), (x1, y1, x2, y2) = pt, box
    return min(cx - x1, x2 - cx, cy - y1, y2 - cy) / max(x2 - x1, y2 - y1, 1e-6)


def _inside(pt, box, margin: float = 0.02) -> bool:
    w, h = box[2] - box[0], box[3] - box[1]
    return box[0] - margin * w <= pt[0] <= box[2] + margin * w and box[1] - margin * h <= pt[1] <= box[3] + margin * h


def _same_card(p: Part, members: list[Part], syms: list[Part]) -> bool:
    """Two corner indices of one card: same symbol and colour, about a card's diagonal apart,
    and no other card's index between them (`_between`: fanned twins)."""
    for q in members:
        if q.symbol != p.symbol or q.color != p.color:
            return False
        d = np.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1])
        size = (p.size + q.size) / 2
        if not (2.5 * size <= d <= 9 * size) or _between(p, q, syms):
            return False
    return True


def _corner_of(p: Part, face: Part, members: list[Part], syms: list[Part]) -> bool:
    """An index just outside a face's (loose) box that shows the face's own symbol (that of the
    corner indices among its parts, `members`, or where none was found, of its surest centre
    symbol) and colour, with no other card's index between it and the face's corner (`_between`)."""
    x1, y1, x2, y2 = face.box
    gx, gy = (x2 - x1) * 0.3, (y2 - y1) * 0.3
    near = x1 - gx <= p.centre[0] <= x2 + gx and y1 - gy <= p.centre[1] <= y2 + gy
    # the face's own symbol is its corner indices', or where it shows none, its surest centre's: a
    # faint centre of another symbol among its parts (a card's beneath, under a hand over the face's
    # middle) is no symbol for a corner to join by (fresh pile 9,500,869)
    votes = _symbol_votes(members)
    own = {q.symbol for q in members if q.cls == "index"} or ({max(votes, key=votes.get)} if votes else set())
    return (near and p.symbol in own and any(q.symbol == p.symbol and q.color == p.color for q in members)
            and _fits_corner(p, members) and not any(_between(p, q, syms) for q in members if q.cls == "index"))


def _between(p: Part, q: Part, syms: list[Part]) -> bool:
    """Does another card's corner index (another symbol or colour) lie between indices `p` and
    `q`, within an index size of the line joining them? A card's two corners have its middle
    between them; the corners of fanned twins have the corners of the cards fanned between them."""
    a, b = np.float32(p.centre), np.float32(q.centre)
    ab = b - a
    n2 = float(ab @ ab)
    if n2 == 0:
        return False
    reach = (p.size + q.size) / 2
    for r in syms:
        if r.cls != "index" or r is p or r is q or (r.symbol == p.symbol and r.color == p.color):
            continue
        ar = np.float32(r.centre) - a
        t = float(ar @ ab) / n2
        if tuning.BETWEEN[0] <= t <= tuning.BETWEEN[1] and abs(float(ar[0] * ab[1] - ar[1] * ab[0])) / np.sqrt(n2) <= reach:
            return True
    return False


def _under_coloured_face(p: Part, face: Part, syms: list[Part], shape: tuple) -> bool:
    """A wild's or wild draw four's corner index by a face whose middle is plainly one colour
    (`ONE_COLOUR`): a card's beneath, not the face's own corner (their middles show the four
    colours), unless the face's box holds two corners of it (a hand over the middle can leave
    one of the four colours). The special wilds' middles are black and white: a card beneath
    colours them."""
    if not (p.cls == "index" and p.symbol in ("wild", "wild_draw_four")
            and face.color not in (None, tuning.WILD_FACE) and face.share >= tuning.ONE_COLOUR):
        return False
    return sum(q.cls == "index" and q.symbol == p.symbol and _within(q, face.box, shape) for q in syms) < 2


def _in_a_row(p: Part, q: Part) -> bool:
    """Is index `q` the next digit of a number that index `p` is one digit of (a score sheet's)?
    Found as an index too, about as large (`ROW_SIZES`), its centre `ROW_GAP` of `p`'s size away."""
    if q.cls != "index":
        return False
    (pw, ph), (qw, qh) = (p.box[2] - p.box[0], p.box[3] - p.box[1]), (q.box[2] - q.box[0], q.box[3] - q.box[1])
    if not all(tuning.ROW_SIZES[0] <= a / max(b, 1e-6) <= tuning.ROW_SIZES[1] for a, b in ((qw, pw), (qh, ph))):
        return False
    d = np.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1]) / max(p.size, 1e-6)
    return tuning.ROW_GAP[0] <= d <= tuning.ROW_GAP[1]


def _giant(p: Part, shape: tuple) -> bool:
    """Is a part's box too large for a corner index: its longer side over `GIANT_INDEX` of the
    frame's shorter side?"""
    return max(p.box[2] - p.box[0], p.box[3] - p.box[1]) > tuning.GIANT_INDEX * min(shape[:2])


def _fills_frame(face: Part, shape: tuple) -> bool:
    """Does a face's box span the whole frame (`FILLS_FRAME` of its width and of its height)?"""
    h, w = shape[:2]
    return face.box[2] - face.box[0] >= tuning.FILLS_FRAME * w and face.box[3] - face.box[1] >= tuning.FILLS_FRAME * h


def _beside(p: Part, q: Part) -> bool:
    """Two indices side by side (fanned cards' corners): centres at most two index sizes apart."""
    return np.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1]) <= (p.size + q.size)


def _pair_at_middle(face: Part, parts: list[Part]) -> bool:
    """Whether two corner indices among `parts`, of one colour other than the face's middle's and
    a card's diagonal apart, have their midpoint (their card's middle) at the face's box's middle
    (`PAIR_AT_MIDDLE` of its longer side), while every centre symbol of the middle's colour lies
    away from it (`CENTRE_AWAY`): the face is their card's, a hand over its middle, which was read
    in the colour of a card beneath showing beside the hand, and that centre symbol is that card's
    (fresh pile 9,480,752: a purple 9 on an orange 9, the hand read as orange too)."""
    side = max(face.box[2] - face.box[0], face.box[3] - face.box[1])
    corners = [p for p in parts if p.cls == "index" and p.color not in (None, face.color)]
    middles = [np.float32(p.centre) for p in parts if p.cls == "centre" and p.color == face.color]
    for i, a in enumerate(corners):
        for b in corners[i + 1:]:
            if a.color != b.color or not _fits_corner(b, [a]):
                continue
            mid = (np.float32(a.centre) + np.float32(b.centre)) / 2
            if np.hypot(*(mid - np.float32(face.centre))) <= tuning.PAIR_AT_MIDDLE * side and all(
                    np.hypot(*(c - mid)) > tuning.CENTRE_AWAY * side for c in middles):
                return True
    return False


def _fits_corner(p: Part, members: list[Part]) -> bool:
    """Can index `p` be one more corner of the card whose parts are `members`? A card shows two
    corner indices, far apart (`CORNERS_APART` index sizes)."""
    corners = [q for q in members if q.cls == "index"]
    if len(corners) >= 2:
        return False
    return all(np.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1]) >= tuning.CORNERS_APART * (p.size + q.size) / 2
               for q in corners)


def _area(b) -> float:
    return (b[2] - b[0]) * (b[3] - b[1])


def _intersection(a, b) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _overlap(a, b) -> float:
    """The share of the smaller of boxes `a` and `b` that the other covers."""
    small = min(_area(a), _area(b))
    return _intersection(a, b) / small if small > 0 else 0.0


def _iou(a, b) -> float:
    inter = _intersection(a, b)
    union = _area(a) + _area(b) - inter
    return inter / union if union > 0 else 0.0


def _in_quad(det: Detection, quad: np.ndarray, ox: int, oy: int) -> bool:
    """Does the middle of `det`'s box (moved back by the region of interest's `ox`, `oy`) lie inside
    the outline `quad`?"""
    x1, y1, x2, y2 = det.box
    return cv2.pointPolygonTest(np.float32(quad).reshape(-1, 1, 2), ((x1 + x2) / 2 - ox, (y1 + y2) / 2 - oy), False) >= 0


def _add_unseen(parts: list[Part], more) -> None:
    """Adds to `parts` each of `more` that no part of its kind already there overlaps (IoU over
    0.5): a thing found by two looks at a frame counts once, as the first look found it."""
    for p in more:
        if not any(q.cls == p.cls and _iou(q.box, p.box) > 0.5 for q in parts):
            parts.append(p)


def _dedupe(parts: list[Part]) -> list[Part]:
    """One symbol seen twice by the detector (overlapping boxes): keep the surer reading."""
    kept: list[Part] = []
    for p in sorted(parts, key=lambda p: -p.score * p.p):
        if not any(q.cls == p.cls and q.symbol == p.symbol and _iou(p.box, q.box) > 0.3 for q in kept):
            kept.append(p)
    return kept


def _union(boxes):
    b = np.array(boxes)
    return (float(b[:, 0].min()), float(b[:, 1].min()), float(b[:, 2].max()), float(b[:, 3].max()))
