"""The speaker thread: lines are said one at a time, in order, and never hold up the referee.

``put`` only appends to a list and returns; one thread takes the lines off and speaks them. A
new line drops every older line not yet spoken unless that one is kept (`Line.keep`: UNO,
penalties, challenges, the end of a round), and cuts short the line being said unless that one
is kept, so the table hears where the game is now and not what happened three plays ago::

    >>> from companion.voice.sentences import Line
    >>> sp = Speaker(Recorder())          # not started: the lines wait
    >>> sp.put(Line("Red 7. Ben, your turn.", False, ("played", "turn")))
    >>> sp.put(Line("Ben: Uno!", True, ("uno_called",)))
    >>> sp.put(Line("Blue 7. Cat, your turn.", False, ("played", "turn")))
    >>> [line.text for line in sp.waiting()], sp.dropped
    (['Ben: Uno!', 'Blue 7. Cat, your turn.'], 1)
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable

from .espeak import SpeechError
from .sentences import Line

log = logging.getLogger(__name__)


class Recorder:
    """An engine that writes down what it would say (tests, and machines with no speech).

    ``seconds`` per line is how long each line takes to say; ``fail`` makes every line fail."""

    def __init__(self, seconds: float = 0.0, *, fail: str | None = None):
        self.said: list[str] = []
        self.cut: list[str] = []            # lines stopped before their end
        self.seconds, self.fail = seconds, fail
        self._stop = threading.Event()

    def speak(self, text: str, started: Callable[[], None] = lambda: None) -> None:
        if self.fail:
            raise SpeechError(self.fail)
        self._stop.clear()
        started()
        self.said.append(text)
        if self.seconds and self._stop.wait(self.seconds):
            self.cut.append(text)

    def stop(self) -> None:
        self._stop.set()


class Speaker:
    """One thread speaking the lines put to it through ``engine`` (see `espeak.Espeak`)."""

    def __init__(self, engine, *, clock: Callable[[], float] = time.monotonic):
        self.engine, self.clock = engine, clock
        self.dropped = self.failed = self.cut = 0
        # each line said: its text, its wait from put to the first sound (s), and whether it had to
        # wait behind another line
        self.spoken: deque[tuple[str, float, bool]] = deque(maxlen=5000)
        self.last_error: str | None = None
        self._waiting: list[tuple[Line, float, bool]] = []
        self._cond = threading.Condition()
        self._busy: Line | None = None       # the line being said
        self._closed = False
        self._thread: threading.Thread | None = None

    def start(self) -> "Speaker":
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="speaker", daemon=True)
            self._thread.start()
        return self

    def put(self, line: Line, *, at: float | None = None) -> None:
        """Queue ``line`` (``at``: when its announcement was made), dropping the older lines it supersedes."""
        at = self.clock() if at is None else at
        with self._cond:
            if self._closed:
                return
            kept = [w for w in self._waiting if w[0].keep]
            self.dropped += len(self._waiting) - len(kept)
            self._waiting = kept + [(line, at, bool(kept) or self._busy is not None)]
            if self._busy is not None and not self._busy.keep and not kept and hasattr(self.engine, "stop"):
                self.cut += 1
                self.engine.stop()
            self._cond.notify()

    def clear(self) -> int:
        """Forget every line not yet spoken (muting); how many there were."""
        with self._cond:
            n, self._waiting = len(self._waiting), []
            return n

    def waiting(self) -> list[Line]:
        with self._cond:
            return [w[0] for w in self._waiting]

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until every line is said; False if that takes longer than ``timeout``."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._waiting or self._busy is not None:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
        return True

    def close(self, timeout: float = 0.0) -> None:
        """Stop after the line being said; with ``timeout``, first let the waiting lines be said."""
        if timeout:
            self.idle(timeout)
        with self._cond:
            self._closed = True
            self._waiting = []
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=max(timeout, 1.0))

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                line, at, behind = self._waiting.pop(0)
                self._busy = line
            first: list[float] = []
            try:
                self.engine.speak(line.text, lambda: first.append(self.clock()))
                if first:
                    self.spoken.append((line.text, first[0] - at, behind))
            except SpeechError as exc:
                self.failed += 1
                if str(exc) != self.last_error:     # one warning per kind of fault, not one per line
                    log.warning("voice: %s; the game goes on silent", exc)
                self.last_error = str(exc)
            except Exception:
                self.failed += 1
                log.exception("voice: the speech engine failed on %r", line.text)
            finally:
                with self._cond:
                    self._busy = None
                    self._cond.notify_all()
