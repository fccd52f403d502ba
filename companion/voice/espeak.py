"""espeak-ng as the speech engine: one process per line, text on its standard input.

espeak-ng plays through the default audio output (3.5 mm, HDMI or a USB speaker). It needs no
network and no downloaded voice; Debian and Raspberry Pi OS ship it (``apt install espeak-ng``).
A process that does not finish in time (a hung audio device) is killed. With no audio device
espeak-ng still exits 0 but writes ``error: ...`` lines; those count as a failure.

An engine is anything with ``speak(text, started)``: it says ``text``, calls ``started()`` as the
sound begins (as near as it can tell), returns when done and raises `SpeechError` on failure;
``stop()`` (from another thread) cuts the line being said short.
"""
from __future__ import annotations

import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

WAV_HEADER = 44            # espeak-ng's RIFF header before the samples on --stdout
BYTES_PER_SECOND = 22050 * 2   # its output: 22,050 Hz, mono, 16 bit


class SpeechError(RuntimeError):
    """A line could not be said (engine missing, no audio device, killed after its timeout)."""


class Espeak:
    """espeak-ng with a voice (language), a rate in words a minute and a volume from 0 to 100.

        >>> Espeak(voice="en-gb", rate=150, volume=50, binary="espeak-ng").argv()
        ['espeak-ng', '-v', 'en-gb', '-s', '150', '-a', '100']
    """

    CHECK_ARGS: tuple[str, ...] = ("-a", "0")        # a silent line through the audio device

    def __init__(self, voice: str = "en", rate: int = 165, volume: int = 80, *, binary: str | None = None):
        self.voice, self.rate, self.volume = voice, int(rate), int(volume)
        self.binary = binary if binary is not None else shutil.which("espeak-ng")
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._cut = threading.Event()       # set by stop(): the line being said was cut short

    def argv(self, *extra: str) -> list[str]:
        if not self.binary:
            raise SpeechError("espeak-ng is not installed (sudo apt install espeak-ng)")
        return [self.binary, "-v", self.voice, "-s", str(self.rate), "-a", str(self.volume * 2), *extra]

    def timeout(self, text: str) -> float:
        """Seconds a line may take before it is killed: three times its length at the rate, plus 3."""
        return 3.0 + 3.0 * 60.0 * max(1, len(text.split())) / max(self.rate, 1)

    def check(self) -> str | None:
        """Why nothing can be said here (missing program, unknown voice, no audio device), or None."""
        try:
            self._run(".", list(self.CHECK_ARGS))
        except SpeechError as exc:
            return str(exc)
        return None

    def speak(self, text: str, started: Callable[[], None] = lambda: None) -> None:
        started()
        self._run(text, [])

    def stop(self) -> None:
        """Cut the line being said short (a newer line has overtaken it)."""
        with self._lock:
            self._cut.set()
            if self._proc is not None and self._proc.poll() is None:
                self._proc.kill()

    def _start(self, argv: list[str], stdout) -> subprocess.Popen:
        with self._lock:
            self._cut.clear()
            try:
                self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.PIPE)
            except OSError as exc:
                raise SpeechError(f"cannot start {argv[0]}: {exc}") from exc
            return self._proc

    def _run(self, text: str, extra: list[str]) -> None:
        proc = self._start(self.argv(*extra), subprocess.DEVNULL)
        try:
            _, err = proc.communicate(text.encode(), timeout=self.timeout(text))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise SpeechError(f"espeak-ng took longer than {self.timeout(text):.0f} s and was stopped "
                              "(is the audio device stuck?)") from None
        if self._cut.is_set():
            return
        problem = _problem(proc.returncode, err)
        if problem:
            raise SpeechError(problem)

    def wav(self, text: str, path: str | Path) -> Path:
        """Write ``text`` as a WAV file (``espeak-ng -w``) instead of playing it."""
        path = Path(path)
        self._run(text, ["-w", str(path)])
        return path


class TimedEspeak(Espeak):
    """espeak-ng writing its samples to a pipe: ``started()`` is called on the first samples read,
    then the line's length of audio is waited out as a speaker would play it. For the latency
    benchmark and for machines with no sound card."""

    CHECK_ARGS = ("-a", "0", "--stdout")

    def speak(self, text: str, started: Callable[[], None] = lambda: None) -> None:
        t0 = time.monotonic()
        proc = self._start(self.argv("--stdout"), subprocess.PIPE)
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(text.encode())
            proc.stdin.close()
            head = proc.stdout.read(WAV_HEADER + 2)
            if len(head) > WAV_HEADER:
                started()
            rest = proc.stdout.read()
            proc.wait(timeout=self.timeout(text))
        except subprocess.TimeoutExpired:
            proc.kill()
            raise SpeechError("espeak-ng did not finish in time and was stopped") from None
        finally:
            if proc.poll() is None:
                proc.kill()
        err = proc.stderr.read() if proc.stderr else b""
        if self._cut.is_set():
            return
        problem = _problem(proc.returncode, err)
        if problem:
            raise SpeechError(problem)
        played = (len(head) + len(rest) - WAV_HEADER) / BYTES_PER_SECOND
        self._cut.wait(max(0.0, played - (time.monotonic() - t0)))     # "playing"; stop() ends it


def _problem(returncode: int, err: bytes) -> str | None:
    lines = [x.strip() for x in err.decode(errors="replace").splitlines() if x.strip()]
    said = [x for x in lines if x.lower().startswith("error")]
    if returncode != 0 or said:
        last = (said or lines or [f"exit status {returncode}"])[-1]
        if "No such file or directory" in last and any("ALSA" in x for x in lines):
            return "no audio device (ALSA has no sound card: plug in a speaker, or check `aplay -l`)"
        return f"espeak-ng: {last}"
    return None
