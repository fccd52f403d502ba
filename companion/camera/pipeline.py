"""The card watcher: frame source -> motion gate -> events, with camera faults contained.

A dead or missing camera never ends the watcher: it reports a `CameraStatus`, waits with
exponential backoff and opens the camera again. It also keeps the latest frame for the score
page's preview (encoded to JPEG only when someone asks)::

    >>> from companion.camera.sources import SimulatedSource
    >>> from companion.camera.testing import FakeRecognizer, card_frame
    >>> src = SimulatedSource()
    >>> for i in range(20):
    ...     src.push(card_frame("red 7" if i >= 3 else None), t=i / 15)
    >>> src.end()
    >>> watcher = CardWatcher(src, MotionGate(FakeRecognizer(), settle=0.3))
    >>> [e.kind for e in watcher.events()]
    ['camera', 'card', 'camera']
    >>> watcher.status["state"], watcher.latest_jpeg()[:2]
    ('ended', b'\\xff\\xd8')
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
from companion.camera.gate import MotionGate, PileEvent
from companion.camera.sources import CameraError, FrameSource

log = logging.getLogger(__name__)

__all__ = ["CardWatcher", "CameraStatus", "MotionGate", "PileEvent"]


@dataclass(frozen=True)
class CameraStatus:
    """The camera's health, for the page and the buzzer.

    ``state`` is ``ok`` (frames flow again), ``failed`` (``error`` says why; the next attempt
    is in ``retry_in`` seconds), ``ended`` (a recording finished) or ``stopped``.
    """

    state: str
    error: str = ""
    retry_in: float = 0.0
    attempts: int = 0
    kind: str = "camera"


class CardWatcher:
    """Runs ``source`` through ``gate`` and yields `PileEvent` and `CameraStatus` events.

    Use ``events()`` as a generator in your own thread, or ``start(put)`` to run it in a daemon
    thread that calls ``put(event)`` (e.g. ``queue.put``) for each one. ``backoff`` is the first
    and the longest wait between attempts to reopen a failed camera; ``sleep(seconds)`` is
    injectable for tests (by default it waits on the stop flag, so ``stop()`` is immediate).
    """

    def __init__(self, source: FrameSource, gate: MotionGate, *, backoff: tuple[float, float] = (0.5, 30.0),
                 read_timeout: float = 2.0, sleep: Callable[[float], None] | None = None,
                 jpeg_quality: int = 70):
        self.source, self.gate = source, gate
        self.backoff = backoff
        self.read_timeout = read_timeout
        self.jpeg_quality = jpeg_quality
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._lock = threading.Lock()
        self._pending: list[Callable[[], None]] = []
        self._scans = 0
        self._frame = None
        self._jpeg: tuple[int, bytes] | None = None
        self._thread: threading.Thread | None = None
        self.frames = 0
        self.status: dict = {"state": "starting", "error": "", "retry_in": 0.0, "fps": 0.0,
                             "frames": 0, "detector_calls": 0, "gate": gate.state, "question": None}

    # -- control (any thread) ---------------------------------------------------------------------
    def stop(self) -> None:
        """Ask the watcher to finish; ``events()`` ends after the frame in hand."""
        self._stop.set()

    def set_top(self, card) -> None:
        """Tell the gate the top card (applied in the camera thread before the next frame)."""
        with self._lock:
            self._pending.append(lambda: self.gate.set_top(card))

    def scan_hand(self) -> int:
        """Read the next settled view as a spread hand (a challenge verdict or round scoring).
        Returns the scan's number; its ``hand`` event carries it (``PileEvent.scan``)."""
        with self._lock:
            self._scans += 1
            scan = self._scans
            self._pending.append(lambda: self.gate.scan_hand(scan))
        return scan

    def cancel_scan(self) -> None:
        """Forget a pending hand scan (applied in the camera thread before the next frame). A
        ``hand`` event already on its way still carries the old scan's number."""
        with self._lock:
            self._pending.append(self.gate.cancel_scan)

    def start(self, put: Callable[[object], None]) -> threading.Thread:
        """Run in a daemon thread named "camera", handing every event to ``put``."""
        def run():
            for event in self.events():
                put(event)
        self._thread = threading.Thread(target=run, name="camera", daemon=True)
        self._thread.start()
        return self._thread

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    # -- the preview the score page shows -----------------------------------------------------------
    def latest_jpeg(self) -> bytes | None:
        """The latest frame as JPEG with the pile area outlined (encoded on demand, cached)."""
        frame = self._frame
        if frame is None:
            return None
        cached = self._jpeg
        if cached is not None and cached[0] == frame.index:
            return cached[1]
        image = frame.image
        if self.gate.roi:
            image = image.copy()
            x1, y1, x2, y2 = self.gate.roi
            cv2.rectangle(image, (x1, y1), (x2, y2), (0, 255, 255), 2)
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        if not ok:
            return None
        data = buf.tobytes()
        self._jpeg = (frame.index, data)
        return data

    def latest_detections(self) -> list[dict]:
        """The cards of the latest recognition: ``{"card", "confidence", "box"}`` each."""
        rec = self.gate.last_recognition
        out = []
        for d in list(getattr(rec, "cards", None) or []):
            try:
                label = str(d.card)
            except Exception:
                label = f"{d.color or ''} {d.symbol}".strip()
            out.append({"card": label, "confidence": round(float(d.confidence), 3),
                        "box": [float(v) for v in d.box]})
        return out

    # -- the loop ---------------------------------------------------------------------------------
    def _set(self, **kw) -> None:
        self.status = {**self.status, **kw}

    def _open(self) -> Iterator[CameraStatus]:
        """Open the camera, retrying with exponential backoff; yields a status per failure."""
        delay, attempts = self.backoff[0], 0
        while not self._stop.is_set():
            attempts += 1
            try:
                self.source.open()
                return
            except Exception as exc:  # a camera fault is reported, never fatal
                error = str(exc) or type(exc).__name__
                log.warning("camera: %s (attempt %d; retrying in %.1f s)", error, attempts, delay)
                self._set(state="failed", error=error, retry_in=delay)
                yield CameraStatus("failed", error, delay, attempts)
                self._sleep(delay)
                delay = min(delay * 2, self.backoff[1])

    def events(self) -> Iterator[PileEvent | CameraStatus]:
        """Yield events until ``stop()`` or the end of a recording; camera faults never escape."""
        failures = 0
        while not self._stop.is_set():
            yield from self._open()
            if self._stop.is_set():
                break
            healthy, good = False, 0
            t_fps, n_fps = time.monotonic(), 0
            try:
                while not self._stop.is_set():
                    frame = self.source.read(timeout=self.read_timeout)
                    if frame is None:
                        self._set(state="ended", error="")
                        log.info("camera: the recording ended")
                        yield CameraStatus("ended")
                        self.source.close()
                        return
                    good += 1
                    if good == 50:
                        failures = 0            # a camera that flaps keeps its longer backoff
                    if not healthy:
                        healthy = True
                        self._set(state="ok", error="", retry_in=0.0)
                        log.info("camera: frames are coming in")
                        yield CameraStatus("ok")
                    self._frame = frame
                    self.frames += 1
                    n_fps += 1
                    now = time.monotonic()
                    if now - t_fps >= 2.0:
                        self._set(fps=round(n_fps / (now - t_fps), 1))
                        t_fps, n_fps = now, 0
                    yield from self._feed(frame)
            except Exception as exc:
                failures += 1
                error = str(exc) or type(exc).__name__
                if not isinstance(exc, CameraError):
                    log.exception("camera: unexpected failure")
                delay = min(self.backoff[0] * 2 ** (failures - 1), self.backoff[1])
                log.warning("camera: %s; reopening in %.1f s", error, delay)
                self._set(state="failed", error=error, retry_in=delay)
                yield CameraStatus("failed", error, delay, failures)
                try:
                    self.source.close()
                except Exception:
                    log.debug("closing the failed camera failed too", exc_info=True)
                self._sleep(delay)
        try:
            self.source.close()
        except Exception:
            log.debug("closing the camera failed", exc_info=True)
        self._set(state="stopped")
        yield CameraStatus("stopped")

    def _feed(self, frame) -> list[PileEvent]:
        with self._lock:
            pending, self._pending = self._pending, []
        for fn in pending:
            fn()
        try:
            events = self.gate.feed(frame.image, frame.t)
        except Exception:  # a bug in the gate must not end the watcher either
            log.exception("motion gate failed on frame %d", frame.index)
            return []
        self._set(frames=self.frames, detector_calls=self.gate.detector_calls, gate=self.gate.state)
        for e in events:
            if e.kind == "question":
                self._set(question={"candidates": list(e.candidates), "reason": e.reason})
            elif e.kind == "card":
                self._set(question=None)
        return events

