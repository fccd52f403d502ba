"""The referee's voice: every announcement said aloud on the Pi's speaker with espeak-ng.

`Voice` listens to the table (``table.subscribe``), turns each input's announcements into one
spoken line (`sentences.Sentences`, one TOML file per language) and hands it to the speaker
thread (`speaker.Speaker`), which drops lines the game has moved past. Nothing here can block
or fail the referee: with espeak-ng missing or no audio device the table says so once and
goes on silent::

    >>> from companion.table import Table
    >>> from companion.voice.speaker import Recorder
    >>> t, rec = Table(None), Recorder()
    >>> v = Voice(Sentences.load("en"), rec).attach(t)
    >>> _ = t.submit({"setup": {"players": ["Ann", "Ben"], "dealer": "Ben"}})
    >>> _ = t.submit({"start": "red 5"})
    >>> v.close(timeout=2); rec.said[-1]
    'First card: red 5. Ann, your turn.'
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable

from .espeak import Espeak, SpeechError, TimedEspeak
from .sentences import Line, Sentences
from .speaker import Recorder, Speaker

__all__ = ["Voice", "Sentences", "Line", "Speaker", "Espeak", "TimedEspeak", "Recorder", "SpeechError",
           "build_voice"]

log = logging.getLogger(__name__)


class Voice:
    """Says the table's announcements through ``engine`` (None: silent, with ``problem`` saying why)."""

    def __init__(self, sentences: Sentences, engine=None, *, problem: str | None = None, muted: bool = False,
                 clock: Callable[[], float] = time.monotonic):
        self.sentences, self.engine = sentences, engine
        self.problem = problem if engine is not None or problem else "no speech engine"
        self.muted = muted
        self.speaker = Speaker(engine, clock=clock).start() if engine is not None else None
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def available(self) -> bool:
        return self.speaker is not None

    def attach(self, table) -> "Voice":
        """Speak every input ``table`` accepts from now on."""
        self._unsubscribe = table.subscribe(self.on_update)
        return self

    def on_update(self, update: dict) -> None:
        # The table's thread, inside its lock: only build the line and queue it.
        self.announce(update.get("announcements") or [])

    def announce(self, announcements: list[dict]) -> Line | None:
        """Queue the line for one input's announcements (a camera question, say); the line or None."""
        line = self.sentences.line(announcements)
        if line is not None and self.speaker is not None and not self.muted:
            self.speaker.put(line)
        return line

    def set_muted(self, muted: bool) -> bool:
        """Mute (lines not yet said are dropped) or unmute; returns the new state."""
        self.muted = bool(muted)
        if self.muted and self.speaker is not None:
            self.speaker.clear()
        if not self.muted:
            self.announce([{"type": "voice_on", "text": "Voice on"}])
        log.info("voice %s", "muted" if self.muted else "on")
        return self.muted

    def toggle(self) -> bool:
        return self.set_muted(not self.muted)

    def status(self) -> dict:
        """What the page shows: whether the Pi can speak, is muted, and why not."""
        return {"available": self.available, "muted": self.muted, "problem": self.problem,
                "language": self.sentences.language, "speak": self.sentences.speak}

    def close(self, timeout: float = 0.0) -> None:
        """Stop listening; with ``timeout``, let the lines waiting be said first."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.speaker is not None:
            self.speaker.close(timeout)


def build_voice(cfg, *, engine=None, check: bool = True) -> Voice | None:
    """The `Voice` for a ``[voice]`` config (`companion.config.VoiceConfig`); None when disabled.

    Without espeak-ng or an audio device it logs ONE warning and returns a silent Voice, so the
    page can say why. ``engine`` replaces espeak-ng (tests, the benchmark)."""
    if not cfg.enabled:
        return None
    sentences = Sentences.load(cfg.voice, path=cfg.sentences or None, speak=cfg.speak)
    if engine is None:
        engine = Espeak(cfg.voice, cfg.rate, cfg.volume)
        problem = engine.check() if check else None
        if problem:
            log.warning("%s; the referee stays silent (the game goes on)", problem)
            return Voice(sentences, None, problem=problem)
    return Voice(sentences, engine)
