"""Which card lies on top of the pile: covered corners, outlines, hands over the pile."""
from __future__ import annotations
import cv2
import numpy as np
from .colour import (SKIN_MAX_SAT, colour_shares, saturated_hues)
from .detection import Detection
from .outline import edge_across, quad_iou, quad_overlap, upright
from . import pile_tuning as tuning
from .pile_image import (_skin_share, _square_at, _above)
from .pile_parts import (Part, _width, _depth, _inside, _fits_corner)


def _uppermost(image: np.ndarray, faced: list, symbols: list[Part], colors: tuple,
               skin: int = SKIN_MAX_SAT, faceless: list = ()) -> Detection:
    """The top card among the cards with an uncovered face, as (face, the parts showing its symbol,
    detection): the surest face, unless another face's card lies over it (`_above`; where the
    surer face's outline is not known, its box stands in for it against a card showing both
    corners). A face whose parts show one corner index and no centre symbol read (a hand or a card
    over its middle) has its card's middle placed at the surest of the detector's centre symbols
    (of `symbols`, every index and centre found) inside its box that no face's card took, whatever
    symbol that was read as, but not in another colour: its outline is then known, and which card
    lies over the other can be told. Without such a centre, its middle is its box's (`_box_quad`).
    A card's other corner, across its middle from the one seen, is under another face when it lies
    inside it (`_hidden_corner`); but where an index found there reads the card's symbol, however
    unsurely, that corner shows, and its card lies over the face it lies inside (`_seen_corner`).
    A face whose unseen corner no face covers but that shows another card (`_buried`: another
    colour of the deck, `colors`) lies under a card not found as a face, and beneath a face that
    shows both its corners (`_clear`). A card whose corner index shows well inside another's
    outline, drawn from that card's own centre symbol or two corners, lies over it
    (`SHOWN_DEPTH`), whatever their colours. An outline drawn from a face's box is dropped where
    its width disagrees with those drawn from cards' own parts (`BOX_WIDTH_AGREE`: a box round the
    part of a card that another card leaves). Last, a card no face was found for (`faceless`:
    (detection, its parts), a hand over its face) whose corner index, read surely (`OVER_SURE`),
    shows inside the top face's box and `SHOWN_DEPTH` inside every outline its parts draw
    (`_outlines`) lies over it, unless that index may be the face's own corner misread: where the
    face's own indices are printed (`OWN_SPOT`) or showing the face's symbol in another colour;
    where the face's outline is not known, such an index at its box's middle (`BOX_MIDDLE`) lies
    over it. Every outline is drawn from a card's parts of its own colour (`_own_parts`).
    `skin`: the saturation a hand's skin stays under (`Recognizer.skin_sat`), left out of the looks."""
    faced = sorted(faced, key=lambda g: -g[0].score)
    best = faced[0]
    centres = [p for p in symbols if p.cls == "centre"]
    # each card's outline is drawn from its own parts: its box can also hold other cards' parts
    # showing its symbol, twins in other colours (pile 9,460,248: a blue skip's corner by a purple skip's)
    owns = [_own_parts(members, det) for _, members, det in faced]
    if len(faced) > 1:
        quads = [_card_quad(own) for own in owns]
        drawn = [q is not None for q in quads]     # outlines from the card's own centre symbol or two corners
        width = float(np.median([_width(q) for q in quads if q is not None])) if any(drawn) else None
        taken = {id(p) for _, members, _ in faced for p in members}
        for k, (face, members, det) in enumerate(faced):
            corners = [p for p in owns[k] if p.cls == "index"]
            # a centre read in another colour is another card's (pile 9,460,173: a yellow skip's
            # centre, read as a 0, at the edge of a blue 3's box, a hand over the 3's middle)
            middles = [c for c in centres if id(c) not in taken and _inside(c.centre, face.box)
                       and (det.color is None or c.color in (None, det.color))]
            if quads[k] is None and corners and middles:
                quads[k] = _card_quad([max(middles, key=lambda c: c.score), corners[0]])
            if quads[k] is None and corners:
                quads[k] = _box_quad(face, corners[0])
                # a box round part of a card (another card over the rest) places its middle wrong:
                # the width it makes then disagrees with the outlines cards' own parts draw
                if quads[k] is not None and width and not 1 / tuning.BOX_WIDTH_AGREE <= _width(quads[k]) / width <= tuning.BOX_WIDTH_AGREE:
                    quads[k] = None
        loose = [p for p in symbols if id(p) not in taken]        # no face's card took them
        seen = [_seen_corner(members, q, det, loose) for (_, members, det), q in zip(faced, quads)]
        hidden = [None if s is not None else _hidden_corner(image, members, q, skin)
                  for (_, members, _), q, s in zip(faced, quads, seen)]
        under = [h is not None and _buried(image, det, members, h, colors, skin) and not any(
                 _covers(g[0], q, h) for j, (g, q) in enumerate(zip(faced, quads)) if j != k)
                 for k, ((_, members, det), h) in enumerate(zip(faced, hidden))]
        clear = [s is not None or _clear(members) for (_, members, _), s in zip(faced, seen)]
        shown = [[np.float32(p.centre) for p in own if p.cls == "index"] for own in owns]

        # where a face's outline is not known, its upright box stands in for it in comparing looks
        # with a card that shows both corners, its outline drawn from its own parts (fresh pile
        # 9,480,689: a blue 3 over a purple 9 whose corners are not found); a box round cards
        # beneath or a hand, compared with a card's outline drawn less surely, misleads
        looks = [q if q is not None else np.float32([(f.box[i], f.box[j]) for i, j in ((0, 1), (2, 1), (2, 3), (0, 3))])
                 for (f, _, _), q in zip(faced, quads)]

        def lies_over(j: int, k: int) -> bool:
            """Does card `j` lie over card `k`: over `k`'s corner that is not seen, with its own
            far corner seen inside `k`'s face, or with a corner index of its own seen well inside
            `k`'s outline drawn from `k`'s own parts (`SHOWN_DEPTH`)?"""
            return (hidden[k] is not None and _covers(faced[j][0], quads[j], hidden[k])) or \
                (seen[j] is not None and _covers(faced[k][0], quads[k], seen[j])) or \
                (under[k] and clear[j]) or \
                (drawn[k] and any(_covers(faced[k][0], quads[k], pt, tuning.SHOWN_DEPTH) for pt in shown[j]))

        for _ in range(len(faced)):
            k = faced.index(best)
            # where one card's unseen corner lies under another's face, or the other's far corner
            # shows inside it, and not the other way round, that card lies beneath (geometry,
            # whatever their colours); else two cards of one colour look alike where they
            # overlap: their looks cannot tell which lies over the other, and the surer face
            # stays on top
            over = [g for j, (g, q) in enumerate(zip(faced, quads)) if g is not best and not lies_over(k, j) and (
                lies_over(j, k) or (q is not None and (quads[k] is not None or clear[j] and drawn[j])
                                and g[2].color != best[2].color and _above(image, q, looks[k], skin)))]
            if not over:
                break
            best = over[0]
    if faceless:
        # a card no face was found for (a hand over its face) whose corner index, read surely,
        # shows inside the top face's box and well inside its outline lies over it; unless that
        # index may be the face's own corner misread: where its own indices are printed, or
        # showing its symbol in another colour (piles 9,430,806, 9,440,392: a green 6's and a red
        # 1's corner read blue and yellow). Inside the box too: an outline drawn from a centre
        # symbol that is another part misfound can reach far past the face (pile 9,000,362)
        outlines = _outlines(best[0], owns[faced.index(best)])
        if outlines:
            w = _width(outlines[0])
            spots = [q for quad in outlines for q in _index_spots(quad)]

            def shows_over(pt: np.ndarray) -> bool:
                return _inside(pt, best[0].box) and all(_covers(best[0], quad, pt, tuning.SHOWN_DEPTH) for quad in outlines) \
                    and min(np.hypot(*(pt - q)) for q in spots) > tuning.OWN_SPOT * w
        else:
            # the face's outline is not known: a corner index at its box's middle, where the
            # face's centre symbol is printed and never a corner of its own (fresh pile 9,440,790:
            # a purple 5's corner at 0.31 of the longer side inside a purple 9's box, a hand
            # over the 9's corners)
            def shows_over(pt: np.ndarray) -> bool:
                return _depth(pt, best[0].box) >= tuning.BOX_MIDDLE
        over = [det for det, members in faceless for p in members
                if p.cls == "index" and p.p >= tuning.OVER_SURE and det.symbol != best[2].symbol
                and shows_over(np.float32(p.centre))]
        if over:
            return max(over, key=lambda det: det.confidence)
    return best[2]


def _top_by_outline(top: Detection, cards: list, outlines: list) -> Detection:
    """The top card as the outline finder sees it: where the reading's top card sits in an
    outline the finder calls covered (`under`) and in none it calls uncovered, and exactly one
    other card (`cards`: (detection, its parts)) sits in an uncovered one, that card is on top.
    So is the one other card the surest uncovered outline holds, where that outline is found
    surely (`TOP_OUTLINE`), does not hold the top card, and is found clearly more surely
    (`OUTLINE_MARGIN`) than any that does: a hand over the top card's corners lets a card
    beneath read more surely. A card sits in an outline when one of its parts lies where the
    outline's card prints it (`_held`); the cards read as the top card (its two corners read as
    two cards) are one. Also where no face was found (`_read`)."""
    found = sorted((o for o in outlines if o.cls == "card" and o.score >= tuning.OUTLINE_SURE), key=lambda o: -o.score)
    sure = [upright(o.quad) for o in found]
    covered = [upright(o.quad) for o in outlines if o.cls == "under" and o.score >= tuning.UNDER_SURE]
    # a card read twice (its two corners taken for two cards, no face joining them) is one card
    twin = [(d.color, d.symbol) == (top.color, top.symbol) for d, _ in cards]
    mine = [p for (d, m), t in zip(cards, twin) if t for p in m]
    if not sure:
        return top
    holds_top = [_held(q, mine) for q in sure]
    if not any(holds_top) and any(_held(q, mine) for q in covered):
        over = [d for (d, m), t in zip(cards, twin) if not t and any(_held(q, m) for q in sure)]
        if len(over) == 1:
            return over[0]
    # the surest uncovered outline (`TOP_OUTLINE`), found `OUTLINE_MARGIN` more surely than any
    # holding the top card, holds exactly one other card: that card is on top
    if found[0].score < tuning.TOP_OUTLINE or holds_top[0]:
        return top
    held = [d for (d, m), t in zip(cards, twin) if not t and _held(sure[0], m)]
    ours = max((o.score for o, h in zip(found, holds_top) if h), default=0.0)
    return held[0] if len(held) == 1 and found[0].score - ours >= tuning.OUTLINE_MARGIN else top


def _top_by_overlap(image: np.ndarray, top: Detection, cards: list, outlines: list) -> Detection:
    """The top card where the outline finder calls two overlapping cards uncovered (a card played
    onto the edge of one lying apart; the finder cannot tell which lies over the other): where
    exactly one outline found surely (`OVER_OUTLINE`) holds the top card read (`_held`) and another
    overlaps it (`OVER_MEET` of the smaller, no more than `OVER_IOU`: not the same card), the one
    whose sides show clearly more sharply across the other (`outline.edge_across`, `OVER_RATIO`)
    lies on top; where that is the other, the one card it holds is on top."""
    found = [upright(o.quad) for o in outlines if o.cls == "card" and o.score >= tuning.OVER_OUTLINE]
    if len(found) < 2:
        return top
    twin = [(d.color, d.symbol) == (top.color, top.symbol) for d, _ in cards]
    mine = [p for (d, m), t in zip(cards, twin) if t for p in m]
    holding = [q for q in found if _held(q, mine)]
    if len(holding) != 1:
        return top
    ours = holding[0]
    for q in found:
        if q is ours or quad_iou(q, ours) > tuning.OVER_IOU:
            continue
        smaller = min(abs(cv2.contourArea(q)), abs(cv2.contourArea(ours)))
        if quad_overlap(q, ours) < tuning.OVER_MEET * smaller:
            continue
        # the two cards' part of the frame, in L*a*b*
        both = np.concatenate([q, ours])
        x1, y1 = np.maximum(np.floor(both.min(0)).astype(int) - 4, 0)
        x2, y2 = np.minimum(np.ceil(both.max(0)).astype(int) + 4, image.shape[1::-1])
        if x2 - x1 < 2 or y2 - y1 < 2:
            continue
        lab = cv2.cvtColor(image[y1:y2, x1:x2], cv2.COLOR_BGR2LAB).astype(np.float32)
        at = np.float32([x1, y1])
        theirs, mine_shown = edge_across(lab, q - at, ours - at), edge_across(lab, ours - at, q - at)
        if theirs is None or mine_shown is None or theirs < tuning.OVER_RATIO * max(mine_shown, 1.0):
            continue
        held = [d for (d, m), t in zip(cards, twin) if not t and _held(q, m)]
        if len(held) == 1:
            return held[0]
    return top


def _on_pile(quad: np.ndarray, other: np.ndarray, covered: list[np.ndarray]) -> bool:
    """Does the card of outline `quad` lie on the pile, and the card of outline `other` beside it
    (both called uncovered): does `quad` lie over `PILE_MARGIN` more of the covered cards' outlines
    (`covered`; the shares of each that it overlaps, summed) than `other` does? The card played
    last lies on the cards played before; a card beside the pile, or slid off it, lies on few."""
    def beneath(q: np.ndarray) -> float:
        return sum(quad_overlap(q, c) / max(abs(float(cv2.contourArea(np.float32(c)))), 1.0) for c in covered)
    return beneath(quad) >= beneath(other) + tuning.PILE_MARGIN


def _held(quad: np.ndarray, members: list[Part]) -> bool:
    """Does a part of a card (`members`) lie where the card of outline `quad` prints one: a corner
    index at one of its index spots (`_index_spots`), a centre symbol at its middle?"""
    w, mid = _width(quad), quad.mean(0)
    spots = _index_spots(quad)
    for p in members:
        pt = np.float32(p.centre)
        if p.cls == "index" and min(np.hypot(*(pt - q)) for q in spots) <= tuning.SPOT_REACH * w:
            return True
        if p.cls == "centre" and np.hypot(*(pt - mid)) <= tuning.HELD_MIDDLE_REACH * w:
            return True
    return False


def _outlines(face: Part, own: list[Part]) -> list[np.ndarray]:
    """Every outline a face's card can be drawn with from its own parts (`own`): from its centre
    symbol and each corner index seen, else from two corners, else from its box and a corner
    (`_box_quad`). Under a leaning camera's perspective they differ: a point inside them all is
    inside the card (tilted pile 9,750,188: a corner 0.13 of a width inside a wild's outline drawn
    from one of its corners, on its edge in the one drawn from the other)."""
    corners = [p for p in own if p.cls == "index"]
    middles = [p for p in own if p.cls == "centre"]
    if middles and corners:
        return [_card_quad([middles[0], c]) for c in corners]
    quad = _card_quad(own)
    if quad is None and corners:
        quad = _box_quad(face, corners[0])
    return [] if quad is None else [quad]


def _index_spots(quad: np.ndarray) -> list:
    """Where a card's four corner indices would be printed (`INDEX_AT`, each way), from its outline."""
    c, w = quad.mean(0), _width(quad)
    u = (quad[1] - quad[0]) / max(w, 1e-6)
    v = (quad[3] - quad[0]) / max(float(np.hypot(*(quad[3] - quad[0]))), 1e-6)
    ax, ay = np.abs(tuning.INDEX_AT) * w
    return [c + sx * ax * u + sy * ay * v for sx in (-1, 1) for sy in (-1, 1)]


def _own_parts(members: list[Part], card: Detection) -> list[Part]:
    """The parts of a face's group in its card's colour, or read in none (a wild's parts carry no colour)."""
    return [p for p in members if p.color in (None, card.color)]


def _other_corner(members: list[Part], quad: np.ndarray | None) -> tuple[np.ndarray, float] | None:
    """Where a card that shows one corner index (`members`: its parts; `quad`: its estimated
    outline) has its other one, across its middle from the seen one, and half an index's size.
    None where it shows both or its outline is not known."""
    corners = [p for p in members if p.cls == "index"]
    if quad is None or len(corners) != 1:
        return None
    return 2 * quad.mean(0) - np.float32(corners[0].centre), corners[0].size / 2


def _seen_corner(members: list[Part], quad: np.ndarray | None, card: Detection, symbols: list[Part]) -> np.ndarray | None:
    """A card's other corner (`_other_corner`) where an index found there (its centre within half
    an index's size) reads the `card`'s symbol, however unsurely, and not another colour (of
    `symbols`: the indices and centres found that no other card took; a twin's corner there is
    another card's): the corner shows, no card lies over it. None where no such index is found."""
    other = _other_corner(members, quad)
    if other is None:
        return None
    pt, r = other
    return pt if any(p.cls == "index" and p.symbol == card.symbol and p.color in (None, card.color)
                     and np.hypot(*(np.float32(p.centre) - pt)) <= r for p in symbols) else None


def _hidden_corner(image: np.ndarray, members: list[Part], quad: np.ndarray | None,
                   skin: int = SKIN_MAX_SAT) -> np.ndarray | None:
    """Where a card that shows one corner index has its other, unseen one (`_other_corner`). None
    where it shows both, its outline is not known, or that corner lies off the frame or under a
    hand's skin (a hand hides it, not a card)."""
    other = _other_corner(members, quad)
    if other is None:
        return None
    pt, r = other
    h, w = image.shape[:2]
    if not (r <= pt[0] < w - r and r <= pt[1] < h - r):
        return None
    if _skin_share(_square_at(image, pt, r), skin) >= tuning.HIDDEN_SKIN:
        return None
    return pt


def _buried(image: np.ndarray, det: Detection, members: list[Part], pt: np.ndarray, colors: tuple,
            skin: int = SKIN_MAX_SAT) -> bool:
    """Whether a card's unseen corner (`pt`, `_hidden_corner`) shows another card: `BURIED_SHARE` or
    more of the coloured pixels round where its index should be (within half its seen index's
    size; a hand's skin, under saturation `skin`, left out) are of one colour of the deck
    (`colors`), not the card's. A card not found as a face lies over it (fresh pile 9,411,196: an
    orange 3's corner under a purple 7, on which lies a purple 9). A wild's corner is dark and
    white, its index's colours at most a third of it and of four colours: there, coloured pixels
    filling `WILD_BURIED_INK` of the square round it and of one colour are another card's (fresh
    pile 9,460,470: a wild draw four's corner under a blue 4, on which lies a green draw two)."""
    r = next(p.size for p in members if p.cls == "index") / 2     # its one corner seen
    square = _square_at(image, pt, r)
    hues = saturated_hues(square, skin=False, skin_sat=skin)
    shares = colour_shares(hues, colors)
    k = int(shares.argmax())
    if det.color not in colors:          # a wild: no colour of its own
        return hues is not None and len(hues) >= tuning.WILD_BURIED_INK * square.shape[0] * square.shape[1] \
            and shares[k] >= tuning.BURIED_SHARE
    return colors[k] != det.color and shares[k] >= tuning.BURIED_SHARE


def _clear(members: list[Part]) -> bool:
    """Whether a face shows both its corner indices: two of them a card's diagonal apart."""
    corners = [p for p in members if p.cls == "index"]
    return len(corners) >= 2 and _fits_corner(corners[1], corners[:1])


def _covers(face: Part, quad: np.ndarray | None, pt: np.ndarray, depth: float | None = None) -> bool:
    """Whether an uncovered face lies over point `pt`: `depth` (`COVER_DEPTH` unless given) inside
    its estimated outline (a share of its width), or where that is not known, inside its upright box
    (a share of its longer side)."""
    depth = tuning.COVER_DEPTH if depth is None else depth
    if quad is not None:
        return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(pt[0]), float(pt[1])), True) \
            >= depth * _width(quad)
    return _depth(pt, face.box) >= depth


def _box_quad(face: Part, corner: Part) -> np.ndarray | None:
    """A card's four corners from its uncovered face's upright box and one corner index: a turned
    card's upright box is centred on the card, so the box's middle is the card's (a hand over the
    face's centre symbol). None when the box does not fit the card that the corner's distance from
    that middle makes (its shorter side at least `BOX_FITS[0]` of the card's width, its longer at
    most `BOX_FITS[1]`: a box round only part of a card, a face cut by the frame or covered)."""
    cx, cy = face.centre
    width = float(np.hypot(corner.centre[0] - cx, corner.centre[1] - cy)) / float(np.hypot(*tuning.INDEX_AT))
    sides = sorted((face.box[2] - face.box[0], face.box[3] - face.box[1]))
    if width < 1 or sides[0] < tuning.BOX_FITS[0] * width or sides[1] > tuning.BOX_FITS[1] * width:
        return None
    return _card_quad([Part("centre", (cx - 1, cy - 1, cx + 1, cy + 1), 1.0), corner])


def _beneath(parts: list[Part], symbol: str) -> bool:
    """Are the parts reading `symbol` the two corners of a card that lies beneath another? Two
    corner indices of it a card's diagonal apart and no centre symbol of it, while a centre symbol
    read as another symbol, which a corner index among the parts shows too, lies in the middle of
    the card they outline (within `MIDDLE_REACH` of its width of the card's centre): that card's
    middle is covered by the card whose centre shows there (a blue 9 over a blue 5, both 5s'
    corners inside the 9's upright box, a finger over the 9). A centre alone may be misread (a
    finger across a 9 turns it into a 3)."""
    corners = [p for p in parts if p.symbol == symbol and p.cls == "index"]
    if len(corners) != 2 or not _fits_corner(corners[1], corners[:1]) \
            or any(p.symbol == symbol and p.cls == "centre" for p in parts):
        return False
    quad = _card_quad(corners)
    if quad is None:
        return False
    middle, width = quad.mean(0), _width(quad)
    # the corners that show lie outside the card over them (`_covers`, its outline drawn from that
    # centre and its own corner)
    return any(p.cls == "centre" and p.symbol != symbol
               and np.hypot(*(np.float32(p.centre) - middle)) <= tuning.MIDDLE_REACH * width
               and any(q.cls == "index" and q.symbol == p.symbol and not any(
                   _covers(p, _card_quad([p, q]), np.float32(c.centre), tuning.SHOWN_DEPTH) for c in corners) for q in parts)
               for p in parts)


def _card_quad(members: list[Part]) -> np.ndarray | None:
    """A card's four corners, estimated from its centre symbol (or the midpoint of two opposite
    corner indices) and a corner index (`INDEX_AT`); None without them."""
    idx = [p for p in members if p.cls == "index"]
    cen = [p for p in members if p.cls == "centre"]
    if not idx:
        return None
    if cen:
        c, i = np.float32(cen[0].centre), np.float32(idx[0].centre)
    elif len(idx) >= 2:
        a, b = max(((a, b) for a in idx for b in idx if a is not b),
                   key=lambda ab: np.hypot(*np.subtract(ab[0].centre, ab[1].centre)))
        c, i = (np.float32(a.centre) + np.float32(b.centre)) / 2, np.float32(a.centre)
    else:
        return None
    v = i - c
    n = float(np.hypot(*v))
    if n < 2:
        return None
    turn = np.arctan2(v[1], v[0]) - np.arctan2(tuning.INDEX_AT[1], tuning.INDEX_AT[0])
    s = n / float(np.hypot(*tuning.INDEX_AT))
    rot = np.float32([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    corners = np.float32([[-0.5, -0.75], [0.5, -0.75], [0.5, 0.75], [-0.5, 0.75]]) * s
    return corners @ rot.T + c
