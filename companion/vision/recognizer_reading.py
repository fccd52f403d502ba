"""How the old recogniser reads a card once its parts are found: the card reader on outlines, spots
and corners, a second look where it is unsure."""
from __future__ import annotations
import collections
import functools
import numpy as np
from ..cards import kinds
from .classes import SYMBOLS
from .colour import (balance, colour_of_hues, palette_misfit, saturated_hues)
from .detection import Detection, Recognition
from .outline import upright
from . import pile_tuning as tuning
from .pile_image import (_ink_share, _bare_ink, _patch)
from .pile_parts import (Part, _width, _in_a_face, _unclaimed_centres, _sureness, _within, _giant, _fills_frame, _overlap, _dedupe)
from .pile_order import (_uppermost, _top_by_outline, _top_by_overlap, _on_pile, _held, _index_spots, _covers)


class Reading:
    """`Recognizer`'s reading of a card (a part of the class, kept in its own module)."""

    def _read(self, image: np.ndarray, parts: list[Part], ox: int, oy: int,
              dark: np.ndarray | None = None, outlines=None) -> Recognition:
        """The cards the detector's `parts` show (boxes moved by `ox`, `oy`: the region of interest);
        `dark`: the frame darkened, when overexposed, from which the classifier reads the symbols;
        `outlines`: finds the outline finder's outlines in `image`, called only where two or more
        cards are read (which is on top, `_top_by_outline`), the top card is read unsurely
        (`_reread`) or none is (`_read_outline`)."""
        parts = [p for p in parts if not (p.cls == "index" and _giant(p, image.shape))]
        grey = balance(image, self.light_gains(image, parts))
        source = image if dark is None else dark
        self.classify(source, parts)
        parts += self._middle_readings(image, parts)
        # a reading the classifier is sure of stands alone; a weaker one (an odd font, a small or
        # blurred print) only counts inside an uncovered face, where the face's other parts must
        # agree with it, or beside a sure index (a fan)
        syms = _dedupe([p for p in parts if p.cls != "card" and p.symbol != "none" and p.p >= self.weak_conf])
        image = grey                        # colours are read under grey light
        colors = self._read_colours(image, syms)
        faces = sorted((p for p in parts if p.cls == "card"), key=lambda p: -p.score)
        faint = [p for p in parts if p.cls == "centre" and p.symbol != "none" and tuning.FAINT_CENTRE <= p.p < self.weak_conf]
        faint_index = [p for p in parts if p.cls == "index" and p.symbol != "none" and tuning.FAINT_INDEX <= p.p < self.weak_conf]
        groups = self._group_faces(image, faces, syms, colors, faint, faint_index)
        self._group_rest(image, syms, groups, colors)
        cards, faced, loose = [], [], []
        for face, members in groups:
            det = self._decide(image, face, members, colors)
            if det is None:
                continue
            if face is not None and _fills_frame(face, image.shape) and not any(
                    p.cls == "index" and p.symbol == det.symbol and p.p >= self.sym_conf for p in members):
                continue    # a cloth of a card's colour, a shape on it read as a centre symbol
            det = Detection(det.color, det.symbol, det.confidence,
                            tuple(v + o for v, o in zip(det.box, (ox, oy, ox, oy))))
            if face is not None and any((d.color, d.symbol) == (det.color, det.symbol)
                                        and _overlap(d.box, det.box) >= tuning.ONE_FACE for _, _, d in faced):
                continue    # one card's face found twice (a hand across it splits it in two)
            cards.append(det)
            if face is None:
                loose.append((det, members))
            else:
                # its card's parts: those showing its symbol inside its box (another face's group
                # may have taken its centre symbol)
                faced.append((face, [p for p in syms if p.symbol == det.symbol and _within(p, face.box, image.shape)],
                              det))
        read = [(det, members) for _, members, det in faced] + loose      # every card read, with its parts
        if faced:
            top = _uppermost(image, faced, [p for p in parts if p.cls != "card"], colors, self.skin_sat, faceless=loose)
            if outlines is not None and len(read) > 1:
                top = _top_by_outline(top, read, outlines())
                top = _top_by_overlap(source, top, read, outlines())
        else:         # no uncovered face read: the surest card, one with a part inside a face's box first
            top = max(loose, key=lambda dm: (_in_a_face(dm[1], faces, image.shape), dm[0].confidence))[0] \
                if loose else None
            # hands over every face: the outline finder can still see which card lies uncovered
            # (pile 9,430,514: a blue 8's one corner under two hands, over a green 4 read surer)
            if top is not None and outlines is not None and len(read) > 1:
                top = _top_by_outline(top, read, outlines())
                top = _top_by_overlap(source, top, read, outlines())
        if top is not None and outlines is not None and top.confidence < tuning.REREAD_BELOW:
            again = self._reread(source, image, top, read, outlines(), colors, ox, oy)
            if again is not None:
                cards[cards.index(top)] = top = again
        if top is None and outlines is not None:
            top = self._read_outline(source, image, outlines(), colors, ox, oy)
            if top is not None:
                cards.append(top)
        if self.reader is not None and outlines is not None:
            again = self._read_card(source, image, top, read, outlines(), colors, ox, oy, parts)
            if again is not None:
                if top is not None and not any(d is again for d in cards):
                    cards[cards.index(top)] = again
                elif top is None:
                    cards.append(again)
                top = again
        return Recognition(cards, top, parts)

    def _read_card(self, source: np.ndarray, image: np.ndarray, top: Detection | None, cards: list, outlines: list,
                   colors, ox: int, oy: int, parts: list[Part]) -> Detection | None:
        """The top card as the card reader (`outline.CardReader`) reads the outlines the finder
        calls uncovered (`READER_OUTLINE`). The reading stands where the surest one holds a top card
        read at `READER_KEEP` or has one of its parts `SHOWN_DEPTH` inside (its corners, and a centre
        read at `symbol_conf`; the reader is not asked), and where the surest one does not read
        another symbol surely (`READER_SURE`). It stands too where another one holds the top card's
        parts (`_held`) and reads its symbol, unless the surest one lies on the pile and that one
        beside it (`_on_pile`). Otherwise a card read with
        the surest one's symbol whose parts it holds is on top; where none is, the outline's card,
        in the colour whose ink covers most of it (at least `OUTLINE_INK`; a wild: no colour). None
        where the reading stands. A reading under `READER_SURE` (from `READER_AGREE`), or where no
        card is read an outline found from `AGREE_OUTLINE`, counts where a centre symbol the
        detector found at the outline's middle (one of `parts`, read from `FAINT_CENTRE`) reads the
        same, unless a card read shows it as its own. A reading from `SPOT_AGREE_READER` on an
        outline found from `SPOT_AGREE_OUTLINE` counts, and an outline little of which is inked (a
        hand over most of it) is coloured, where one of its corner index spots reads the same
        (`_vouch`): where no card is read, and where the outline does not hold the top card read or
        holds one read under `REREAD_BELOW`, unless the reader reads the top card's symbol surely on
        another outline (`_read_elsewhere`). Where a top card is read and no outline is found from
        `READER_OUTLINE`, the surest one found from `HELD_OUTLINE` names only a card read with the
        symbol it reads at `READER_SURE` whose parts it holds, or one a spot vouches for."""
        least = tuning.READER_OUTLINE if top is not None else min(tuning.AGREE_OUTLINE, tuning.SPOT_AGREE_OUTLINE)
        found = [o for o in outlines if o.cls == "card" and o.score >= least]
        weak = not found and top is not None
        if weak:            # no outline found surely: the surest one found from HELD_OUTLINE may still
            #                 name a card read elsewhere in the frame (below)
            found = [o for o in outlines if o.cls == "card" and o.score >= tuning.HELD_OUTLINE]
        if not found:
            return None
        o = found[0]
        quad = upright(o.quad)
        mine = next((m for d, m in cards if d is top), [])
        if top is not None and top.confidence >= tuning.READER_KEEP:
            # (a centre symbol read weakly does not count: another card's centre misread as the top
            # card's symbol lies inside that card's outline, pile 9,910,226; a weak corner does, 9,580,834)
            kept = [p for p in mine if p.cls == "index" or p.p >= self.sym_conf]
            if _held(quad, kept) or any(_covers(p, quad, np.float32(p.centre), tuning.SHOWN_DEPTH) for p in kept):
                return None  # the surest outline holds a top card read surely (the reader misreads rough
                #              outlines), or a part of it lies inside: the top card lies over the outline's
        probs = self.reader.read(source, [f.quad for f in found]) * self._allowed
        symbols = [SYMBOLS[k] for k in probs.argmax(1)]
        symbol, q = symbols[0], float(probs[0].max())
        if symbol == "none" or (top is not None and top.symbol == symbol):
            return None
        sure = q >= tuning.READER_SURE and (weak or o.score >= tuning.READER_OUTLINE)
        # a corner index the classifier reads as the reader does vouches for it (its spots are read
        # once, and only where asked): where no card is read (not a wild: a card back's black face
        # and a playing card's picture are read as one), or where the outline does not hold the top
        # card read, or holds one read unsurely (`REREAD_BELOW`)
        wild = kinds()[symbol].wild
        agreeing = q >= tuning.SPOT_AGREE_READER and o.score >= tuning.SPOT_AGREE_OUTLINE and (
            not wild if top is None else top.confidence < tuning.REREAD_BELOW or not _held(quad, mine))
        spot_least = tuning.SPOT_AGREE if top is None else tuning.SPOT_OVER
        vouched = functools.cache(lambda: self._vouch(source, image, o, symbol, colors, spot_least)
                                  if agreeing else (False, None))
        by_spot = (not sure or weak) and vouched()[0] and (
            top is None or not self._read_elsewhere(source, o, top.symbol, outlines))
        sure = sure or by_spot
        if not sure and (weak or o.score < tuning.AGREE_OUTLINE
                         or not (q >= tuning.READER_AGREE and _held(quad, _unclaimed_centres(parts, cards, symbol)))):
            return None
        # (where a spot vouches, an outline the reader reads as the top card's only weakly does not
        # count: pile 9,921,072, found at 0.42 and read at 0.28)
        ours = next((f for f, sym, pr in zip(found, symbols, probs) if top is not None and sym == top.symbol
                     and _held(upright(f.quad), mine) and (not by_spot or pr.max() >= tuning.SPOT_AGREE_READER)), None)
        if ours is not None and not _on_pile(quad, upright(ours.quad), [
                upright(u.quad) for u in outlines if u.cls == "under" and u.score >= tuning.UNDER_SURE]):
            return None      # an uncovered outline holds the top card, and the reader reads it so
            #                  (unless the surest one lies on the pile and that one beside it)
        held = [d for d, m in cards if d.symbol == symbol and _held(quad, m)]
        if held:
            return max(held, key=lambda d: d.confidence)
        if weak and not by_spot:            # an outline found so unsurely names only a card read
            return None
        colour = vouched()[1] if by_spot else None
        if colour is None and not wild:
            inks = {c: _ink_share(image, quad, c, colors, self.skin_sat) for c in colors}
            colour = max(inks, key=inks.get)
            if inks[colour] < tuning.OUTLINE_INK:
                colour = vouched()[1]      # little of the outline shows (a hand over most of it)
                if colour is None:
                    return None
        (x1, y1), (x2, y2) = np.maximum(quad.min(0), 0), np.minimum(quad.max(0), image.shape[1::-1])
        return Detection(colour, symbol, float(o.score * q), (float(x1) + ox, float(y1) + oy, float(x2) + ox, float(y2) + oy))

    def _reread(self, source: np.ndarray, image: np.ndarray, top: Detection, cards: list, outlines: list,
                colors, ox: int, oy: int) -> Detection | None:
        """A top card read unsurely (`REREAD_BELOW`), read again where the outline finder sees it
        uncovered: where exactly one outline found surely as `card` (`OUTLINE_SURE`) holds its parts
        (`_held`), that outline's reading (`_outline_reading`) stands for it when it is another
        card read more surely, and of another symbol only when read more surely than the top card's
        parts read theirs (`_sureness`). None where the reading stands."""
        mine = next((m for d, m in cards if d is top), [])
        held = [o for o in outlines if o.cls == "card" and o.score >= tuning.OUTLINE_SURE and _held(upright(o.quad), mine)]
        if len(held) != 1:
            return None
        again = self._outline_reading(source, image, held[0], colors, ox, oy)
        if again is None or (again.color, again.symbol) == (top.color, top.symbol) or again.confidence <= top.confidence:
            return None
        if again.symbol != top.symbol and _sureness(mine, top.symbol) >= again.confidence:
            return None      # read unsurely for its colour alone: its symbol stands (pile 9,880,252, a
            #                  blue draw two whose corners, read at 0.97, showed red and blue, read again
            #                  as a 4 by one spot at 0.82)
        return again

    def _read_outline(self, source: np.ndarray, image: np.ndarray, outlines: list, colors, ox: int,
                      oy: int) -> Detection | None:
        """A card no part of which the detector found, read where the outline finder sees an
        uncovered card (`OUTLINE_READ`): the classifier reads the four spots where its corner
        indices are printed and its middle (from `source`), and the symbol read surely
        (`OUTLINE_READ_P`; an index spot `OUTLINE_READ_P_SURE` on an outline found at
        `READ_SURE_OUTLINE`) most often wins, in the colour its readings show (from `image`, under
        grey light). None where no spot reads a symbol so surely."""
        for o in outlines:
            if o.cls == "card" and o.score >= tuning.OUTLINE_READ:
                found = self._outline_reading(source, image, o, colors, ox, oy)
                if found is not None:
                    return found
        return None

    def _read_elsewhere(self, source: np.ndarray, o, symbol: str, outlines: list) -> bool:
        """Does the card reader read `symbol` at `READER_SURE` on an outline other than `o` the finder
        calls uncovered (found from `HELD_OUTLINE`)? Where the top card read shows so an outline of
        its own, a spot does not vouch for another card over it (fresh pile 8,071,145: a yellow 7
        read at 0.87, its own outline read 7 at 0.97; the blue 4 under it, its outline called
        uncovered and read 4 at 0.66, a corner spot 4 at 1.0, was read on top)."""
        others = [u for u in outlines if u.cls == "card" and u is not o and u.score >= tuning.HELD_OUTLINE]
        if not others:
            return False
        probs = self.reader.read(source, [u.quad for u in others]) * self._allowed
        return any(SYMBOLS[k] == symbol and float(p.max()) >= tuning.READER_SURE for k, p in zip(probs.argmax(1), probs))

    def _vouch(self, source: np.ndarray, image: np.ndarray, o, symbol: str, colors, least: float) -> tuple[bool, str | None]:
        """Does a corner index spot of outline `o` the classifier reads as `symbol` at `least`
        vouch for the card, and in what colour: a wild's, where one reads so (no colour); a coloured
        card's, where its colour's ink covers `SPOT_INK` of what no hand covers round the spot
        (under grey light; an UNO card prints its corner indices on its colour's ink, a playing card
        on white paper), in the colour most such spots show. (False, None) where none vouches."""
        votes = collections.Counter()
        for p in self._spot_readings(source, o):
            if p.cls != "index" or p.symbol != symbol or p.p < least:
                continue
            if kinds()[symbol].wild:
                return True, None
            colour, share = _bare_ink(_patch(image, p.box, 1.0), colors, self.skin_sat)
            if colour is not None and share >= tuning.SPOT_INK:
                votes[colour] += p.p
        return (True, max(votes, key=votes.get)) if votes else (False, None)

    def _spot_readings(self, source: np.ndarray, o) -> list[Part]:
        """What the classifier reads where the card of outline `o` prints its four corner indices
        and its middle (`INDEX_SIDE`, `CENTRE_SIDE` of its width), each spot's surest symbol of
        nine places round it (`SPOT_SHIFT`): the outline is a few hundredths of a width out."""
        quad = upright(o.quad)
        w = _width(quad)
        spots = [("index", pt, tuning.INDEX_SIDE * w) for pt in _index_spots(quad)] + [("centre", quad.mean(0), tuning.CENTRE_SIDE * w)]
        shifts = [np.float32([dx, dy]) * tuning.SPOT_SHIFT * w for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        tried = [Part(cls, (pt[0] + d[0] - r / 2, pt[1] + d[1] - r / 2, pt[0] + d[0] + r / 2, pt[1] + d[1] + r / 2), o.score)
                 for cls, pt, r in spots for d in shifts]
        self.classify(source, tried)
        return [max(tried[k:k + len(shifts)], key=lambda p: p.p if p.symbol != "none" else 0.0)
                for k in range(0, len(tried), len(shifts))]

    def _outline_reading(self, source: np.ndarray, image: np.ndarray, o, colors, ox: int,
                         oy: int) -> Detection | None:
        """The card outline `o` shows, read at its index spots and middle (`_read_outline`); None
        where no spot reads a symbol surely, a wild, or an outline not inked in the colour read."""
        quad = upright(o.quad)
        parts = self._spot_readings(source, o)
        index_least = tuning.OUTLINE_READ_P_SURE if o.score >= tuning.READ_SURE_OUTLINE else tuning.OUTLINE_READ_P
        sure = [p for p in parts if p.symbol != "none" and p.p >= (index_least if p.cls == "index" else tuning.OUTLINE_READ_P)]
        if not sure:
            return None
        votes = collections.Counter()
        for p in sure:
            votes[p.symbol] += p.p
        symbol = max(votes, key=votes.get)
        if kinds()[symbol].wild:
            return None      # a wild's black face shows no colour to vouch for it (`OUTLINE_INK`)
        mine = [p for p in sure if p.symbol == symbol]
        # a hand over the card is why its parts were not found: its skin is left out
        cvotes = collections.Counter(colour_of_hues(saturated_hues(_patch(image, p.box, 1.0), skin=False,
                                                                   skin_sat=self.skin_sat), colors)[0]
                                     for p in mine)
        cvotes.pop(None, None)
        if not cvotes:
            return None
        colour = max(cvotes, key=cvotes.get)
        if _ink_share(image, quad, colour, colors, self.skin_sat) < tuning.OUTLINE_INK:
            return None      # a card not inked in its colour: a playing card's rank
        (x1, y1), (x2, y2) = np.maximum(quad.min(0), 0), np.minimum(quad.max(0), image.shape[1::-1])
        box = (float(x1) + ox, float(y1) + oy, float(x2) + ox, float(y2) + oy)
        # as sure as its surest spot, times the share of the spots read in its colour (as `_decide`
        # weighs a card's colour votes: pile 9,870,468, a purple 5 read at 0.5, one corner by a
        # finger read orange, was read again as an orange 5 at 0.89 by a tie of one spot each)
        sure_of = o.score * max(p.p for p in mine) * cvotes[colour] / sum(cvotes.values())
        return Detection(colour, symbol, float(sure_of), box)

    def _read_colours(self, image, syms: list[Part]) -> tuple:
        """Read each coloured part's colour; returns the palette the image's deck uses."""
        coloured = [p for p in syms if not kinds()[p.symbol].wild]
        hues = [self.part_hues(image, p, self.skin_sat) for p in coloured]
        if len(self.palettes) == 1:          # the deck is known (a game)
            for p, h in zip(coloured, hues):
                p.color = colour_of_hues(h, self.colors)[0]
            return self.colors
        # any deck: one deck per table, so the palette the readings' hues fit best (a red at hue 4
        # fits the classic red better than the Seinfeld orange); the classic deck is the likelier
        # one, so another palette must fit clearly better. Each part's hues are taken once.
        misfit = np.zeros(len(self.palettes), np.float32)
        for h in hues:
            m = palette_misfit(h, self.palettes)
            if m is not None:
                misfit += m
        misfit[0] -= tuning.CLASSIC_PRIOR
        colors = self.palettes[int(np.argmin(misfit))]
        for p, h in zip(coloured, hues):
            p.color = colour_of_hues(h, colors)[0]
        return colors
