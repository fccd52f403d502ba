"""The demo's camera rig: a simulated camera that tells when the watcher is done with the frames
pushed, the demo's clock, and `Eyes`, the recogniser wrapper that scores every reading against
the card the scene rendered on top (or, with ``oracle``, answers with it: development only).
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from companion.camera.sources import SimulatedSource

from .scene import Shot

FPS = 15


class SimClock:
    """The demo's own clock (seconds): frame timestamps and button edges, so nothing depends
    on how fast this machine renders."""

    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> float:
        self.t += dt
        return self.t


class DemoCamera(SimulatedSource):
    """A simulated camera that says when the watcher has finished with every frame pushed.

    The watcher reads a frame, runs the gate on it and hands its events on before it reads the
    next one; so when it asks for frame k+1, frame k is done. It waits for frames forever (a
    simulated camera never times out between moves)."""

    def __init__(self):
        super().__init__()
        self._cond = threading.Condition()
        self.pushed = self.done = self._returned = 0

    def push(self, image, t=None, *, block=True):
        with self._cond:
            self.pushed += 1
        super().push(image, t, block=block)

    def read(self, timeout=None):
        with self._cond:
            self.done = self._returned
            self._cond.notify_all()
        frame = super().read(timeout=None)
        if frame is not None:
            with self._cond:
                self._returned += 1
        return frame

    def wait(self, timeout: float = 60.0) -> bool:
        """Block until every frame pushed so far went through the gate."""
        with self._cond:
            return self._cond.wait_for(lambda: self.done >= self.pushed, timeout)


class Eyes:
    """Scores every recogniser call against the card the scene rendered on top.

    Wraps the real recogniser (or, with ``oracle``, answers with the rendered truth itself; for
    development only, and said so everywhere)."""

    def __init__(self, recognizer=None, *, oracle: bool = False):
        self.recognizer, self.oracle = recognizer, oracle
        self._shots: OrderedDict[int, Shot] = OrderedDict()
        self.frames = self.right = 0
        self.mistakes: list[dict] = []
        self._lock = threading.Lock()

    def remember(self, shot: Shot) -> None:
        with self._lock:
            self._shots[id(shot.image)] = shot
            self._shots.move_to_end(id(shot.image))
            while len(self._shots) > 64:
                self._shots.popitem(last=False)

    def truth(self, image) -> Shot | None:
        """The rendered frame ``image`` is (one of the last 64 pushed), with its true top card."""
        with self._lock:
            return self._shots.get(id(image))

    def recognize(self, image, roi=None):
        shot = self.truth(image)
        try:
            rec = _oracle(shot) if self.oracle else self.recognizer.recognize(image, roi=roi)
        except Exception as exc:      # counted as a wrong frame; the gate turns it into a question
            with self._lock:
                self.frames += 1
                self.mistakes.append({"truth": str(shot.truth) if shot and shot.truth else "no card",
                                      "seen": f"error: {exc}", "confidence": None})
            raise
        if shot is not None and shot.hand is not None:      # a hand scan: every card counts
            self._score_hand(shot, rec)
            return rec
        top = getattr(rec, "top", None)
        seen = top.card if top is not None else None
        truth = shot.truth if shot is not None else None
        with self._lock:
            self.frames += 1
            if seen == truth:
                self.right += 1
            else:
                self.mistakes.append({"truth": str(truth) if truth else "no card",
                                      "seen": str(seen) if seen else "no card",
                                      "confidence": round(float(top.confidence), 2) if top is not None else None})
        return rec


    def _score_hand(self, shot: Shot, rec) -> None:
        seen = sorted(str(d.card) for d in getattr(rec, "cards", None) or [])
        truth = sorted(str(c) for c, _ in shot.hand)
        with self._lock:
            self.frames += 1
            if seen == truth:
                self.right += 1
            else:
                self.mistakes.append({"truth": "hand " + ", ".join(truth), "seen": "hand " + ", ".join(seen),
                                      "confidence": None})


def _oracle(shot: Shot | None):
    from companion.vision.detection import Detection, Recognition
    if shot is not None and shot.hand is not None:
        dets = [Detection(c.color, c.symbol, 0.99, box) for c, box in shot.hand]
        return Recognition(dets, None)
    if shot is None or shot.truth is None:
        return Recognition([], None)
    c = shot.truth
    det = Detection(c.color, c.symbol, 0.99, shot.box or (0, 0, 1, 1))
    return Recognition([det], det)
