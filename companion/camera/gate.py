"""The motion gate: decide when the discard pile changed, and only then ask the recogniser.

Every frame costs one small grey difference (a 160-pixel-wide frame). When the pile area moved
and then stayed still for ``settle`` seconds (frame timestamps, not the wall clock), and it
really looks different from before the motion, the recogniser reads the pile; ``agree``
consecutive still frames must name the same top card. Only a top card that differs from the
last settled one is a ``card`` event; an unsure reading is a ``question``. The pile grows on top:
where the recogniser's top card already showed uncovered before the motion, a card read surely
that was not on the pile then, lying where the pile changed more, is the one played (it landed
beside the last one, hiding little of it), and a card beneath never comes back on top while the
last top card still shows. A change over most of the frame (light switched, camera bumped)
re-baselines instead of counting as a play::

    >>> import numpy as np
    >>> from companion.camera.testing import FakeRecognizer, card_frame
    >>> gate = MotionGate(FakeRecognizer(), settle=0.3, agree=2)
    >>> events = []
    >>> for i in range(30):          # 2 s at 15 fps; a red 7 lands at 0.5 s
    ...     t = i / 15
    ...     events += gate.feed(card_frame("red 7" if t >= 0.5 else None), t)
    >>> [(e.kind, str(e.card)) for e in events], gate.detector_calls
    ([('card', 'red 7')], 2)
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from companion.cards import Card

log = logging.getLogger(__name__)


class Recognizes(Protocol):
    def recognize(self, image_bgr: np.ndarray, roi=None): ...


@dataclass(frozen=True)
class PileEvent:
    """Something the camera saw, for the referee thread.

    ``kind`` is ``card`` (a new top card landed), ``question`` (something landed but the
    reading is unsure: ``candidates`` lists the guesses, best first), ``cleared`` (the pile is
    empty) or ``hand`` (a hand scan: ``cards`` lists every card seen).
    """

    kind: str
    t: float
    card: Card | None = None
    confidence: float = 0.0
    candidates: tuple[str, ...] = ()
    reason: str = ""
    box: tuple | None = None
    cards: tuple[Card, ...] = field(default=())
    scan: int = 0               # for a hand: the number of the scan it answers (`scan_hand`)


@dataclass
class _Reading:
    name: str | None          # str(card), None for an empty pile, "?" when unreadable
    confidence: float
    card: Card | None = None
    box: tuple | None = None
    error: str = ""
    seen: frozenset = frozenset()     # every card read surely, by name
    faces: dict = field(default_factory=dict)   # those read as uncovered faces: name -> _Reading
    new: "_Reading | None" = None     # the surest uncovered face of a card not on the pile before the motion


SAME_CARD = "the same card again?"      # the reason of a question about a twin of the top card


def _iou(a, b) -> float:
    if a is None or b is None:
        return 1.0
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


class MotionGate:
    """Turns a stream of frames into rare, confirmed pile events.

    Feed it every frame with ``feed(image, t)``; it returns a (usually empty) list of
    `PileEvent`. ``recognizer`` is anything with ``recognize(image_bgr, roi) -> Recognition``
    (``.top`` a detection with ``.card``, ``.confidence``, ``.box``; ``.cards`` all of them).

    ``top`` is the card already on the pile (after a restart, the referee's top card), so it is
    not reported again. ``same_card`` says what the pile settling after real motion with the top
    card's face still on top is: ``"question"`` (default: "Was another red 7 played?"; at a real
    table two identical cards in a row happen, and only the players know), ``"card"`` (a play) or
    ``"ignore"``. A card lying where the top card lay (box overlap at least ``nudge_overlap``) is
    the pile nudged, never a question: no camera can tell a card put exactly on its twin from that.
    """

    def __init__(self, recognizer: Recognizes, *, roi: tuple[int, int, int, int] | None = None,
                 settle: float = 0.5, agree: int = 2, min_confidence: float = 0.6,
                 motion_threshold: int = 18, motion_fraction: float = 0.01, scene_fraction: float = 0.5,
                 width: int = 160, top: Card | None = None, same_card: str = "question",
                 nudge_overlap: float = 0.85, max_tries: int | None = None):
        if same_card not in ("question", "card", "ignore"):
            raise ValueError("same_card must be 'question', 'card' or 'ignore'")
        if agree < 1:
            raise ValueError("agree must be at least 1")
        self.recognizer = recognizer
        self.roi = tuple(roi) if roi else None
        self.settle, self.agree, self.min_confidence = settle, agree, min_confidence
        self.motion_threshold, self.motion_fraction = motion_threshold, motion_fraction
        self.scene_fraction, self.width = scene_fraction, width
        self.same_card, self.nudge_overlap = same_card, nudge_overlap
        self.max_tries = max_tries if max_tries is not None else agree + 2
        self.top: Card | None = Card.parse(top) if isinstance(top, str) else top
        self._top_box = None
        self.state = "still"            # still | moving | confirming
        self.detector_calls = 0
        self.rebaselines = 0
        self.passes = 0                 # settled motions that left the pile as it was
        self.last_recognition = None
        self.last_motion = 0.0          # share of the pile area that moved in the last frame
        self._prev = None
        self._baseline = None
        self._small_roi = None
        self._last_motion_t = 0.0
        self._scene_changed = False
        self._readings: list[_Reading] = []
        self._hand_scan = False         # the next settled view is a hand scan
        self._scan_id = 0
        self._scanning = False          # the view being confirmed is a hand scan
        self._rejudge = False           # the baseline is not the pile (a hand was spread over it)
        self._before = _Reading(None, 1.0)      # the pile when it last settled (its cards read surely)

    # -- control from the referee side --------------------------------------------------------
    def set_top(self, card: Card | str | None) -> None:
        """Tell the gate which card is on top (after a restart, a manual correction). Where the
        top card lies is kept: a fixed misreading names the card, it does not move it."""
        self.top = Card.parse(card) if isinstance(card, str) else card
        if self.top is None:
            self._top_box = None

    def scan_hand(self, scan: int = 0) -> None:
        """Read the next settled motion as a spread hand (whole frame) instead of a play; the
        ``hand`` event carries ``scan``, so a late answer to a cancelled scan can be told apart."""
        self._hand_scan, self._scan_id = True, scan

    def cancel_scan(self) -> None:
        """Forget a pending hand scan (the hand came another way, or is no longer wanted). A scan
        being confirmed is dropped; the next settled view is judged as the pile again."""
        if self._scanning:
            log.debug("hand scan cancelled while %s", self.state)
            if self.state == "confirming":
                self._readings, self.state = [], "still"
            self._rejudge = True
        self._hand_scan = self._scanning = False

    @property
    def scanning(self) -> bool:
        """A hand scan is pending or being confirmed."""
        return self._hand_scan or self._scanning

    # -- the per-frame work -----------------------------------------------------------------
    def _small(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The small grey frame the motion check uses, and the small colour frame it came from."""
        h, w = image.shape[:2]
        sh = max(1, round(h * self.width / w))
        small = cv2.resize(image, (self.width, sh), interpolation=cv2.INTER_AREA)
        if small.ndim == 2:
            small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
        small = cv2.GaussianBlur(small, (3, 3), 0)
        if self._small_roi is None:
            if self.roi:
                k = self.width / w
                x1, y1, x2, y2 = self.roi
                self._small_roi = (slice(int(y1 * k), max(int(y1 * k) + 1, int(round(y2 * k)))),
                                   slice(int(x1 * k), max(int(x1 * k) + 1, int(round(x2 * k)))))
            else:
                self._small_roi = (slice(0, sh), slice(0, self.width))
        return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), small

    def _changed(self, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
        """Share of the whole frame and of the pile area whose grey level changed."""
        diff = cv2.absdiff(a, b)
        _, mask = cv2.threshold(diff, self.motion_threshold, 255, cv2.THRESH_BINARY)
        whole = cv2.countNonZero(mask) / mask.size
        pile = mask[self._small_roi]
        return whole, cv2.countNonZero(pile) / max(1, pile.size)

    def _pile_differs(self, color: np.ndarray) -> bool:
        """Does the settled pile look different from before the motion? Compared in colour (a
        red card on a blue one can have the same grey level) and with a low bar: a miss here
        loses a play, an extra look only costs one recogniser run."""
        return self._share_changed(self._baseline, color, self._small_roi) >= self.motion_fraction / 4

    def _share_changed(self, before: np.ndarray, after: np.ndarray, region) -> float:
        """The share of `region` (rows, columns of the small colour frames) whose colour changed
        from `before` to `after` by more than the motion threshold."""
        diff = cv2.absdiff(after[region], before[region]).max(axis=2)
        return np.count_nonzero(diff > self.motion_threshold) / max(1, diff.size)

    def _changed_within(self, before: np.ndarray, after: np.ndarray, box, image: np.ndarray) -> float:
        """`_share_changed` within `box` (the whole image's pixels); 0 where there is no box."""
        if box is None or before is None:
            return 0.0
        k = self.width / image.shape[1]
        h, w = after.shape[:2]
        x1, y1 = max(0, int(box[0] * k)), max(0, int(box[1] * k))
        x2, y2 = min(w, int(np.ceil(box[2] * k))), min(h, int(np.ceil(box[3] * k)))
        if x2 <= x1 or y2 <= y1:
            return 0.0
        return self._share_changed(before, after, (slice(y1, y2), slice(x1, x2)))

    def _camera_moved(self, small: np.ndarray) -> bool:
        """Did the whole view shift (a bumped camera)? Phase correlation of the settled frame
        against the baseline: a card landing moves a small part, a bump moves everything."""
        before = cv2.cvtColor(self._baseline, cv2.COLOR_BGR2GRAY)
        (dx, dy), response = cv2.phaseCorrelate(np.float32(before), np.float32(small))
        return response > 0.2 and max(abs(dx), abs(dy)) >= 1.0

    def feed(self, image: np.ndarray, t: float) -> list[PileEvent]:
        """Look at one frame taken at time ``t`` (seconds); return the events it completes."""
        small, color = self._small(image)
        if self._prev is None or self._prev.shape != small.shape:
            self._prev, self._baseline = small, color
            return []
        whole, pile = self._changed(small, self._prev)
        self._prev = small
        self.last_motion = pile
        if whole >= self.scene_fraction:
            self._scene_changed = True
        moved = pile >= self.motion_fraction or whole >= self.scene_fraction

        if moved:
            if self.state == "confirming":
                log.debug("pile moved again while confirming; waiting for it to settle")
            self.state = "moving"
            self._readings = []
            self._last_motion_t = t
            return []
        if self.state == "still":
            self._baseline = color          # follows slow light drift while nothing moves
            return []
        if self.state == "moving":
            if t - self._last_motion_t < self.settle:
                return []
            if not self._scene_changed and self._camera_moved(small):
                self._scene_changed = True
            if self._scene_changed:
                log.info("the whole view changed (light or camera moved): re-baselined")
                self.rebaselines += 1
            elif not self._hand_scan and not self._pile_differs(color):
                self.passes += 1            # a hand passed over; the pile is as it was
                self.state = "still"
                return []
            self.state = "confirming"
            self._readings = []
            self._scanning = self._hand_scan
        return self._confirm(image, color, t)

    # -- reading the settled pile ---------------------------------------------------------------
    def _read(self, image: np.ndarray) -> _Reading:
        self.detector_calls += 1
        roi = None if self._scanning else self.roi
        try:
            rec = self.recognizer.recognize(image, roi=roi)
        except Exception as exc:  # a recogniser fault must never stop the referee
            log.exception("the recogniser failed")
            return _Reading("?", 0.0, error=f"recogniser error: {exc}")
        self.last_recognition = rec
        if self._scanning:
            return _Reading("hand", 1.0)
        # a face read below the recogniser's bar is still a card that landed: a question, not an empty pile
        det = getattr(rec, "top", None) or getattr(rec, "unsure", None)
        seen, faces = set(), {}
        for d in getattr(rec, "cards", None) or []:
            try:
                card = d.card
            except Exception:       # a card the deck does not know: not one to compare with
                continue
            if card is None:
                continue
            name = str(card)
            seen.add(name)
            if not getattr(d, "covered", False):
                faces.setdefault(name, d)
        fresh = [d for name, d in faces.items() if name not in self._before.seen]     # not on the pile before
        reading = self._reading(det) if det is not None else _Reading(None, 1.0)
        reading.seen, reading.faces = frozenset(seen), {name: self._reading(d) for name, d in faces.items()}
        reading.new = self._reading(max(fresh, key=lambda d: d.confidence)) if fresh else None
        return reading

    @staticmethod
    def _reading(det) -> _Reading:
        try:
            card = det.card
        except Exception as exc:
            return _Reading("?", 0.0, error=f"unreadable card: {exc}")
        return _Reading(str(card), float(det.confidence), card, tuple(det.box) if det.box is not None else None)

    def _confirm(self, image: np.ndarray, color: np.ndarray, t: float) -> list[PileEvent]:
        self._readings.append(self._read(image))
        recent = self._readings[-self.agree:]
        agreed = len(recent) == self.agree and len({r.name for r in recent}) == 1 and recent[0].name != "?"
        if not agreed and len(self._readings) < self.max_tries:
            return []
        scene, self._scene_changed = self._scene_changed, False
        baseline, self._baseline = self._baseline, color
        self.state = "still"
        readings, self._readings = self._readings, []
        if self._scanning:
            self._hand_scan = self._scanning = False
            self._rejudge = True        # the baseline now shows the spread hand, not the pile
            cards = tuple(c for c in (getattr(d, "card", None) for d in getattr(self.last_recognition, "cards", None) or [])
                          if c is not None)
            return [PileEvent("hand", t, cards=cards, reason="hand scan", scan=self._scan_id)]
        scene = scene or self._rejudge
        self._rejudge = False
        before, self._before = self._before, readings[-1]
        if not agreed:
            if scene:
                return []
            seen = sorted(readings, key=lambda r: -r.confidence)
            names = tuple(dict.fromkeys(r.name for r in seen if r.name not in (None, "?")))
            errors = [r.error for r in readings if r.error]
            reason = errors[-1] if errors and not names else "the readings disagree"
            return [PileEvent("question", t, candidates=names, confidence=seen[0].confidence, reason=reason)]
        r = recent[-1]
        if r.name in before.faces:
            # the pile grows on top: the card read as the top one showed uncovered before the
            # motion too, so it may not be the card played. Where a card not on the pile then shows
            # uncovered, and the pile changed more where it lies than where the card read on top
            # lies, that one was played (it landed beside the last one, or hid less of it than the
            # finder needs to see; a card beneath that a nudge bared, or one misread, lies where
            # little changed). Else, where the last top card still shows and the pile changed no
            # less where it lies, it is still the top one (a card beneath never comes back on top;
            # a new card named as one beneath lies where the pile changed more).
            def changed(box):
                return self._changed_within(baseline, color, box, image)
            last = str(self.top) if self.top is not None else None
            if r.new is not None and len({x.new and x.new.name for x in recent}) == 1 and changed(r.new.box) > changed(r.box):
                recent = [x.new for x in recent]
            elif (last is not None and r.name != last and all(last in x.faces for x in recent)
                  and changed(r.box) <= changed(r.faces[last].box)):
                recent = [x.faces[last] for x in recent]
            r = recent[-1]
        confidence = min(x.confidence for x in recent)
        if r.name is None:
            if self.top is None:
                return []
            self.top, self._top_box = None, None
            return [] if scene else [PileEvent("cleared", t, reason="no card on the pile")]
        if confidence < self.min_confidence:
            if scene:
                return []
            self._top_box = r.box or self._top_box
            return [PileEvent("question", t, card=r.card, candidates=(r.name,), confidence=confidence,
                              reason=f"unsure ({confidence:.2f} < {self.min_confidence:.2f})", box=r.box)]
        if self.top is not None and r.card == self.top:
            nudged = _iou(self._top_box, r.box) >= self.nudge_overlap
            self._top_box = r.box or self._top_box
            if nudged or scene or self.same_card == "ignore":
                return []
            if self.same_card == "question":
                return [PileEvent("question", t, card=r.card, candidates=(r.name,), confidence=confidence,
                                  reason=SAME_CARD, box=r.box)]
        self.top, self._top_box = r.card, r.box
        return [PileEvent("card", t, card=r.card, confidence=confidence, box=r.box,
                          reason="after the view changed" if scene else "")]
