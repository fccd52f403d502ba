"""How the old recogniser groups the parts it found into cards and decides each card."""
from __future__ import annotations
import functools
import numpy as np
from ..cards import kinds
from .detection import Detection
from . import pile_tuning as tuning
from .pile_image import _four_coloured
from .pile_parts import (Part, _colour_named, _paired, _wild_inside, _at_edge, _red_ring, _faint_red, _uno_print, _face_votes, _sureness, _symbol_votes, _within, _depth, _same_card, _corner_of, _under_coloured_face, _in_a_row, _beside, _pair_at_middle, _fits_corner, _overlap, _union)
from .pile_order import _beneath


class Grouping:
    """`Recognizer`'s grouping of parts into cards (a part of the class, kept in its own module)."""

    def _group_faces(self, image, faces: list[Part], syms: list[Part], colors, faint: list[Part] = (),
                     faint_index: list[Part] = ()) -> list:
        """(face, its parts) for each uncovered face that shows a readable symbol; a face whose
        symbol shows only in coloured corners none of which is printed on ink (`_uno_print`) is a
        playing card's, and so is one whose symbol shows only in corners of a playing card's red
        found under `RED_LONE_SCORE` and not ringed by their colour (`RED_RING_SURE`), unless the
        face is found at `RED_FACE_SURE`. A wild draw
        four needs its centre's four colours (`_four_coloured`) or a corner read surely: white
        papers overlapping are read as its four cards. `faint`: centre symbols read too unsurely to
        vote, which may still show that a card's two corners inside a face are a card's beneath
        (`_beneath`); `faint_index`: corner indices read too unsurely to vote (from `FAINT_INDEX`),
        one of which, showing the symbol of a face's one weak reading, vouches for it."""
        groups: list[tuple[Part | None, list[Part]]] = []
        used: set[int] = set()
        # each face's middle is read once (`face_colour`): by the face itself and by its neighbours
        reading = functools.lru_cache(None)(lambda k: self.face_colour(image, faces[k].box, colors, self.skin_sat))
        rings: dict[int, float | None] = {}

        def ring(p: Part) -> float | None:
            """`_red_ring` of part `p`, read once (by `_uno_print` and `_faint_red`)."""
            if id(p) not in rings:
                rings[id(p)] = _red_ring(image, p, colors)
            return rings[id(p)]

        def elsewhere(p: Part, k: int) -> bool:
            """Is part `p` inside face `k`'s upright box the part of another face (tilted cards side
            by side)? One it lies deeper inside, whose middle is the part's colour (a wild's: any)."""
            here = _depth(p.centre, faces[k].box)
            return any(j != k and _within(p, g.box, image.shape) and _depth(p.centre, g.box) > here
                       and (p.color is None or reading(j)[0] == p.color) for j, g in enumerate(faces))

        for k, f in enumerate(faces):
            inside = [i for i, p in enumerate(syms) if id(p) not in used and _within(p, f.box, image.shape)
                      and not elsewhere(p, k)]
            if not inside:
                continue
            # a face's box is upright, the card may be tilted: indices of the cards beneath can lie
            # inside it. The symbol is voted by the parts of the face's own colour; then the parts
            # showing that symbol belong to it (an index's colour is read from a patch around it,
            # which in a fan takes in the neighbouring cards, so it only decides the vote)
            f.color, f.share, many = reading(k)     # read once: _decide uses it
            if many and (f.share < tuning.WILD_EVEN or _wild_inside([syms[i] for i in inside])):
                f.color = tuning.WILD_FACE     # a wild's four-colour oval, not a face of one colour
            elif f.share < tuning.MIDDLE_SHARE:
                f.color = None          # a themed deck's picture: the face's middle tells no colour
            if f.color not in (None, tuning.WILD_FACE) and f.share < tuning.WEAK_MIDDLE:
                f.color = _colour_named(f, [syms[i] for i in inside], faint, self.sym_conf) or f.color
            colour = f.color

            def fits(i):
                p = syms[i]
                if colour == tuning.WILD_FACE:      # a wild's oval: its own symbols, not coloured corners beneath
                    return kinds()[p.symbol].wild
                if _under_coloured_face(p, f, syms, image.shape):
                    return False
                return p.cls == "centre" or colour is None or kinds()[p.symbol].wild or p.color in (None, colour)
            voters = [i for i in inside if fits(i)]
            if not voters:
                continue
            votes = _face_votes(f, [syms[i] for i in voters])
            symbol = max(votes, key=votes.get)
            # (a centre too faint to vote counts here where a corner index shows its symbol surely)
            sure = {syms[i].symbol for i in voters if syms[i].cls == "index" and syms[i].p >= self.sym_conf}
            shown = [syms[i] for i in voters] + [c for c in faint
                                                 if c.symbol in sure and _within(c, f.box, image.shape)]
            if len(votes) > 1 and _beneath(shown, symbol):
                # two corners of a card whose middle another card's centre symbol covers: a card
                # beneath, of the face's colour, whose corners the tilted face's box takes in
                voters = [i for i in voters if syms[i].symbol != symbol]
                votes = _symbol_votes([syms[i] for i in voters])
                symbol = max(votes, key=votes.get)
            # a card shows at most two corner indices, a card's diagonal apart: more indices of
            # the symbol, or two side by side, are the corners of other cards of the same face
            # (fanned twins)
            members: list[Part] = []
            for i in sorted(inside, key=lambda i: (not fits(i), -syms[i].score * syms[i].p)):
                p = syms[i]
                if p.cls == "centre" or (p.symbol == symbol and _fits_corner(p, members)):
                    members.append(p)
            agree = [p for p in members if p.symbol == symbol]
            surest = max(p.p for p in agree)
            if surest < self.sym_conf and len(agree) < 2 and not (
                    f.score >= tuning.LONE_FACE_SCORE and f.color not in (None, tuning.WILD_FACE)
                    and any(p.color == f.color for p in agree)
                    and (surest >= tuning.LONE_FACE_CONF or any(c.symbol == symbol and _within(c, f.box, image.shape)
                                                         for c in faint_index))):
                continue        # one weak reading alone is no card, unless a surely found face's middle
                #                 vouches for it, read surely or with a faint corner index of the face
                #                 showing its symbol too
            if not any(_uno_print(image, p, colors, ring(p)) for p in agree):
                continue        # only ranks printed on white paper: a playing card's face
            if f.score < tuning.RED_FACE_SURE and all(p.cls == "index" and _faint_red(p, ring(p)) for p in agree):
                # only indices in a playing card's red, found as faintly as its ranks and not ringed
                # by their card's colour: a playing card's face, its red pips for a red middle (the
                # indices are judged again as cards alone, `_group_rest`)
                continue
            if symbol == "wild_draw_four" and not any(
                    p.cls == "index" and p.p >= self.sym_conf or p.cls == "centre" and _four_coloured(image, p.box, colors)
                    for p in agree):
                continue        # a wild draw four's centre shows four cards in the deck's colours, white papers none
            used.update(id(p) for p in members)
            groups.append((f, members))
        return groups

    def _group_rest(self, image: np.ndarray, syms: list[Part], groups: list, colors) -> None:
        """The indices no face took are cards of their own (a centre symbol outside any uncovered
        face is too easily a pattern on the table), or the far corner of a face or of another
        index. An index the classifier is less sure of counts only beside a sure one: the
        corners of a fan, where the next card covers part of each index. At the frame's edge
        (of `image`), where its crop runs off the picture, an index alone must be
        surer still (`EDGE_CONF`: a row of a patterned table's dots there is read as 6s and 8s).
        An index no face took starts a card of its own only with a detector score of `LONE_SCORE`
        (an ordinary playing card's rank is found, faintly, as an index; in the colour a red rank
        is read as, `RED_LONE_SCORE` unless its card's colour rings it), and a coloured one only
        when it is printed on ink (`_uno_print`: a playing card's red rank is printed on white
        paper), nor when it is found under `ROW_SCORE` with its like beside it (`_in_a_row`: a
        score sheet's digit beside the next one). A special wild's index alone
        needs `SPECIAL_LONE_SCORE`. An index read surely beside a sure index of a card already
        made (a fan's next corner) needs only `FAN_SCORE` (a special wild's
        `SPECIAL_FAN_SCORE`), and not the ink test: a fanned
        card's index lies on a thin strip between white borders, whose ring is mostly white. It
        must not lie over another index (`FAN_OVERLAP`): a faint box across two corners is none.
        Two faint corners of one card (from `FAN_SCORE`), both read at `PAIRED_CONF` and printed
        on ink, vouch for each other."""
        used = {id(p) for _, members in groups for p in members}
        anchors = [p for _, members in groups for p in members if p.cls == "index" and p.p >= self.sym_conf]
        h, w = image.shape[:2]
        every = syms
        syms = [p for p in syms if id(p) in used or p.p >= tuning.EDGE_CONF or not _at_edge(p, w, h)]
        sure = [p for p in syms if p.cls == "index" and p.p >= self.sym_conf]
        rest = [p for p in syms if id(p) not in used and p.cls == "index"
                and (p.p >= self.sym_conf or any(q is not p and _beside(p, q) for q in sure))]
        # fanned twins are told from one card's two corners by what lies between them: the
        # corners of the cards fanned between (those no face took: a face's own corner there is
        # a card lying over the middle of a card beneath, in a pile) or another colour
        untaken = [p for p in every if id(p) not in used]
        faces = [face for face, _ in groups if face is not None]
        for p in sorted(rest, key=lambda p: -p.score * p.p):
            for face, members in groups:
                if face is None:
                    mine = _same_card(p, members, untaken) and not any(
                        self._middle_differs(image, p, q, colors, faces) for q in members)
                else:
                    mine = (_corner_of(p, face, members, untaken)
                            and not _under_coloured_face(p, face, every, image.shape))
                if mine:
                    members.append(p)
                    break
            else:
                special = kinds()[p.symbol].wild and p.symbol not in ("wild", "wild_draw_four")
                ring = _red_ring(image, p, colors)       # read once: for _faint_red and _uno_print
                alone = (p.score >= (tuning.SPECIAL_LONE_SCORE if special else tuning.LONE_SCORE) and not _faint_red(p, ring)
                         and _uno_print(image, p, colors, ring)
                         and not (p.score < tuning.ROW_SCORE and any(_in_a_row(p, q) for q in every if q is not p)))
                fanned = (p.p >= self.sym_conf and p.score >= (tuning.SPECIAL_FAN_SCORE if special else tuning.FAN_SCORE)
                          and any(_beside(p, q) for q in anchors)
                          and not any(_overlap(p.box, q.box) >= tuning.FAN_OVERLAP for q in every if q is not p))
                if alone or fanned or (not special and _paired(image, p, rest, untaken, colors)):
                    groups.append((None, [p]))
                    if alone and p.p >= self.sym_conf:
                        anchors.append(p)

    def _middle_differs(self, image: np.ndarray, p: Part, q: Part, colors, faces: list[Part]) -> bool:
        """Would two corner indices' card show another colour in its middle (halfway between
        them)? Then they are two cards (fanned twins, the cards between them another colour).
        Not where the middle lies well inside an uncovered face (`COVERED_DEPTH`): a card over
        the middle of a card beneath (a pile), whose colour says nothing of the card beneath;
        nor for a wild, whose middle, seen this small, can show one of its four colours alone
        (the "WILD" across a classic wild's oval is lettered in them)."""
        if p.color is None:
            return False
        (px, py), (qx, qy) = p.centre, q.centre
        r = 1.25 * (p.size + q.size) / 2
        mx, my = (px + qx) / 2, (py + qy) / 2
        if any(_depth((mx, my), f.box) >= tuning.COVERED_DEPTH for f in faces):
            return False
        colour, share, _ = self.face_colour(image, (mx - r, my - r, mx + r, my + r), colors, self.skin_sat)
        return colour is not None and colour != p.color and share >= tuning.MIDDLE_SHARE

    def _decide(self, image, face: Part | None, members: list[Part], colors) -> Detection | None:
        votes = _symbol_votes(members)
        symbol = max(votes, key=votes.get)
        agree = [p for p in members if p.symbol == symbol]
        conf = _sureness(members, symbol, votes)
        colour = None
        if not kinds()[symbol].wild:
            cvotes: dict[str, float] = {}
            for p in agree:
                if p.color:
                    cvotes[p.color] = cvotes.get(p.color, 0.0) + p.p
            if face is not None and face.color not in (None, tuning.WILD_FACE):   # the face's middle, unless a hand covers it
                cvotes[face.color] = cvotes.get(face.color, 0.0) + face.share
            if not cvotes:
                return None
            colour = max(cvotes, key=cvotes.get)
            if face is not None and face.color in cvotes and any(
                    p.cls == "centre" and p.color == face.color for p in agree) and not _pair_at_middle(face, agree):
                # the face's middle and its centre symbol agree: corners of another colour inside
                # its upright box are twins beneath (a yellow 7 dropped on red 7s)
                colour = face.color
            conf *= cvotes[colour] / sum(cvotes.values())
        box = face.box if face is not None else _union([p.box for p in members])
        return Detection(colour, symbol, float(conf), box)
