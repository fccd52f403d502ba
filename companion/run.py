"""`companion run --config table.toml`: referee a real table.

Wires the camera (source -> motion gate -> recogniser), the button panel, buzzer and LEDs, the
score page and the `Table`. Camera events and button edges arrive in ONE queue read by ONE
thread, the referee thread (`Companion.run`), which also pings the systemd watchdog. The game
lives in the event log, so after a restart (or a power cut) it carries on where it was.
"""
from __future__ import annotations

import argparse
import logging
import queue
import signal
import threading
import time
from collections.abc import Callable

from companion.camera.gate import SAME_CARD, PileEvent
from companion.camera.pipeline import CameraStatus, CardWatcher
from companion.config import ConfigError, load_config
from companion.notify import Notifier
from companion.parts import build_watcher, start_club, start_voice, warn_if_low_on_space
from companion.panel import (ButtonDecoder, Buzzer, ColorLeds, Panel, Press, RawEdge, default_pin_factory,
                             input_for)

log = logging.getLogger("companion.run")

# when one input brings several announcements, the buzzer plays the tune of the first of these
TUNE_PRIORITY = ("storage", "camera", "game_over", "round_over", "illegal_play", "penalty", "caught", "false_uno",
                 "uno_needed", "rejected", "question", "turn")
SCAN_INPUTS = ("verdict", "reveal", "hand")
VOICE_BUTTON = "challenge"     # held for a long press: mute or unmute the voice (when [voice] is on)
STORAGE_RECHECK = 5.0      # seconds between looks for room again while paused for storage


class Companion:
    """The referee thread: reads the one queue, feeds the `Table`, drives buzzer and LEDs.

    ``events`` is the queue the panel and the card watcher put into; ``watcher`` (optional) gets
    told the top card and when to scan a hand. Use ``handle(item)`` to process one item (tests)
    or ``run()`` to loop until ``stop()``.

    Hand scans: while the referee waits for a hand (a challenge verdict, a reveal, the cards left
    at the end of a round) the watcher reads the next settled view as a spread hand. After each
    hand event a new scan starts if a hand is still awaited (several hands at the end of a round);
    when the awaited hand comes another way (a button, the page) or is no longer awaited, the
    pending scan is cancelled, so the next card played is read as a play again.
    """

    def __init__(self, table, events: queue.Queue, *, watcher: CardWatcher | None = None,
                 decoder: ButtonDecoder | None = None, buzzer: Buzzer | None = None, leds: ColorLeds | None = None,
                 notifier: Notifier | None = None, clock: Callable[[], float] = time.monotonic,
                 on_announcements: Callable[[list[dict]], None] | None = None, voice=None):
        self.table, self.events, self.watcher = table, events, watcher
        self.voice = voice                      # companion.voice.Voice: camera questions, mute button
        self.decoder = decoder or ButtonDecoder()
        self.buzzer, self.leds = buzzer, leds
        self.notifier = notifier or Notifier(env={})
        self.clock = clock
        self.on_announcements = on_announcements
        self.question: dict | None = None      # the camera's open question, for the page
        self.camera_state = "off" if watcher is None else "starting"
        self._stop = threading.Event()
        self._scan_lock = threading.Lock()
        self._scan: tuple | None = None         # the awaited (input, player) the pending scan is for
        self._scan_id = None                    # the watcher's number for it
        self._status_listeners: list[Callable[[], None]] = []
        self._top = table.snapshot().get("top")
        table.subscribe(self._on_table_update)
        self._sync()

    # -- what the page shows besides the table ------------------------------------------------------
    def on_status(self, fn: Callable[[], None]) -> Callable[[], None]:
        """Call ``fn()`` when the camera's state or its open question changes; returns an unsubscribe."""
        self._status_listeners.append(fn)
        return lambda: self._status_listeners.remove(fn) if fn in self._status_listeners else None

    def _status_changed(self) -> None:
        for fn in list(self._status_listeners):
            try:
                fn()
            except Exception:
                log.exception("status listener %r failed", fn)

    def dismiss_question(self) -> bool:
        """The host says the camera's question needs no answer (no card was played)."""
        had, self.question = self.question is not None, None
        if had:
            self._status_changed()
        return had

    def _on_table_update(self, update: dict) -> None:
        # Any thread (the page's too). A card entered by anyone answers the camera's question; a
        # top card changed by the host (a fix, an undo) is what the motion gate must compare with.
        event, state = update.get("event") or {}, update.get("state") or {}
        if self.question is not None and ("play" in event or "start" in event or "setup" in event):
            self.dismiss_question()
        top = state.get("top")
        changed, self._top = top != self._top, top
        if changed and self.watcher is not None and update.get("source") != "camera":
            self.watcher.set_top(top)
        if state:
            self._sync_scan(state)

    def stop(self) -> None:
        self._stop.set()
        self.events.put(None)           # wake the loop

    # -- one item ------------------------------------------------------------------------------
    def handle(self, item) -> list[dict]:
        """Process one queue item; return the announcements it caused."""
        if isinstance(item, RawEdge):
            out = []
            for press in self.decoder.feed(item):
                out += self.press(press)
            return out
        if isinstance(item, Press):
            return self.press(item)
        if isinstance(item, PileEvent):
            return self.pile(item)
        if isinstance(item, CameraStatus):
            self.camera(item)
            return []
        if isinstance(item, dict):                # an input from elsewhere (the demo, a test)
            return self.submit(item, source="api")
        return []

    def press(self, press: Press) -> list[dict]:
        if press.button == VOICE_BUTTON and press.long and self.voice is not None:
            muted = self.voice.toggle()
            if self.buzzer:
                self.buzzer.announce("click")
            return [{"type": "voice", "text": "Voice muted" if muted else "Voice on", "muted": muted}]
        inp = input_for(press, self.table.snapshot())
        if inp is None:
            log.info("button %s%s means nothing now", press.button, " (long)" if press.long else "")
            self._buzz(["question"])
            return []
        if press.long and self.buzzer:
            self.buzzer.announce("click")
        return self.submit(inp, source="button")

    def pile(self, event: PileEvent) -> list[dict]:
        snap = self.table.snapshot()
        need = (snap.get("awaiting") or {}).get("input")
        if event.kind == "hand":
            return self.hand(event, snap)
        if event.kind == "question":
            if event.reason == SAME_CARD and event.candidates:
                text = f"Was another {event.candidates[0]} played?"
            else:
                text = f"Which card was that? ({event.reason})"
            self.question = {"candidates": list(event.candidates), "reason": event.reason, "t": event.t,
                             "text": text}
            log.warning("camera asks: %s (%s); answer on the page", text,
                        ", ".join(event.candidates) or "nothing readable")
            self._buzz(["question"])
            self._status_changed()
            asked = [{"type": "question", "text": text, "candidates": list(event.candidates)}]
            if self.voice is not None:
                self.voice.announce(asked)
            return asked
        if event.kind == "cleared":
            log.info("the pile is empty")
            return []
        card = str(event.card)
        self.dismiss_question()
        if need == "start":
            return self.submit({"start": card}, source="camera")
        if snap.get("top") == card:
            log.info("%s is the top card already (a card taken back?)", card)
            return []
        return self.submit({"play": card}, source="camera")

    def hand(self, event: PileEvent, snap: dict) -> list[dict]:
        """A hand scan: the hand awaited (or a reveal); then scan again if a hand is still awaited."""
        aw = snap.get("awaiting") or {}
        need = aw.get("input")
        with self._scan_lock:
            current = self._scan is not None and (not event.scan or self._scan_id in (None, event.scan))
            if current:
                self._scan = None               # the gate's scan is used up
        cards = [str(c) for c in event.cards]
        out: list[dict] = []
        if not current:
            log.info("hand scan of %d cards for a scan no longer wanted: ignored", len(cards))
        elif not cards:
            log.info("hand scan saw no cards: spread the hand under the camera again")
        elif need == "hand":
            out = self.submit({"hand": {"player": aw["player"], "cards": cards}}, source="camera")
        elif need in ("verdict", "reveal"):
            out = self.submit({"reveal": cards}, source="camera")
        else:
            log.info("hand scan of %d cards, but nothing waits for one", len(cards))
        self._sync_scan(self.table.snapshot())
        return out

    def camera(self, status: CameraStatus) -> None:
        if status.state == "failed" and self.camera_state != "failed":
            self._buzz(["camera"])
        if status.state != self.camera_state:
            log.info("camera: %s%s", status.state, f" ({status.error})" if status.error else "")
        self.camera_state = status.state
        self.notifier.status(f"camera {status.state}")
        self._status_changed()

    def submit(self, inp: dict, *, source: str) -> list[dict]:
        try:
            out = self.table.submit(inp, source=source)
        except ValueError as exc:          # InputError: malformed, nothing happened
            log.warning("input %r refused: %s", inp, exc)
            self._buzz(["question"])
            return [{"type": "rejected", "text": str(exc)}]
        for a in out:
            log.info("%s", a.get("text", a.get("type")))
        self._buzz([a.get("type") for a in out])
        if self.on_announcements:
            self.on_announcements(out)
        self._sync()
        return out

    # -- outputs -----------------------------------------------------------------------------
    def _buzz(self, types: list) -> None:
        if not self.buzzer:
            return
        for t in TUNE_PRIORITY:
            if t in types:
                self.buzzer.announce(t)
                return

    def _sync(self) -> None:
        """Bring LEDs and the camera in line with the table after each input."""
        snap = self.table.snapshot()
        need = (snap.get("awaiting") or {}).get("input")
        if self.leds:
            self.leds.show(snap.get("color"), waiting=need == "color", deck=snap.get("deck"))
        self._sync_scan(snap)

    def _sync_scan(self, snap: dict) -> None:
        """One hand scan pending exactly while a hand is awaited (any thread)."""
        if self.watcher is None:
            return
        aw = snap.get("awaiting") or {}
        want = (aw.get("input"), aw.get("player")) if aw.get("input") in SCAN_INPUTS else None
        with self._scan_lock:
            if want == self._scan:
                return
            if self._scan is not None:
                self.watcher.cancel_scan()
            self._scan = want
            self._scan_id = self.watcher.scan_hand() if want is not None else None
        if want is not None:
            log.info("hand scan: %s, spread your cards under the camera", want[1] or "player")

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        """Process the queue until ``stop()`` (what was queued before it is still handled);
        pings the watchdog at least once a second."""
        self.notifier.ready()
        checked = self.clock()
        while True:
            self.notifier.watchdog()
            now = self.clock()
            if now - checked >= STORAGE_RECHECK:       # paused for storage: is there room again?
                checked = now
                if self.table.storage_fault is not None:
                    self.table.check_storage()
            deadline = self.decoder.next_deadline()
            timeout = 1.0 if deadline is None else min(1.0, max(0.0, deadline - now))
            try:
                item = self.events.get(timeout=timeout)
            except queue.Empty:
                item = None
            if item is None and self._stop.is_set():
                break
            try:
                if item is not None:
                    self.handle(item)
                for press in self.decoder.poll(self.clock()):
                    self.press(press)
            except Exception:      # the referee thread must outlive any single bad input
                log.exception("failed to handle %r", item)
        self.notifier.stopping()


# -- wiring it all up ----------------------------------------------------------------------------

class Preview:
    """What the score page's camera view needs, also when there is no camera."""

    def __init__(self, watcher: CardWatcher | None, companion: Companion | None = None):
        self.watcher, self.companion = watcher, companion

    def latest_jpeg(self) -> bytes | None:
        return self.watcher.latest_jpeg() if self.watcher else None

    def latest_detections(self) -> list:
        return self.watcher.latest_detections() if self.watcher else []

    def status(self) -> dict:
        """The watcher's status (``state``, ``error``, ``retry_in``, ...) and the open ``question``."""
        out = dict(self.watcher.status) if self.watcher else {"state": "off"}
        if self.companion is not None:
            out["question"] = self.companion.question
        return out

    def subscribe(self, fn: Callable[[], None]) -> Callable[[], None]:
        """Call ``fn()`` when ``status()`` changes (the page pushes it to every phone)."""
        if self.companion is None:
            return lambda: None
        return self.companion.on_status(fn)

    def dismiss_question(self) -> bool:
        """The host's "no card was played" to the camera's open question."""
        return self.companion.dismiss_question() if self.companion is not None else False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the table's TOML config (see examples/table.toml)")
    parser.add_argument("--db", default=None, metavar="FILE",
                        help="the event log (default: [table] db of the config)")
    parser.add_argument("--no-camera", action="store_true", help="buttons and page only")
    parser.add_argument("--no-web", action="store_true", help="do not serve the score page")
    parser.add_argument("--run-for", type=float, default=None, metavar="SECONDS",
                        help="stop after this many seconds (smoke tests)")


def main(args: argparse.Namespace) -> int:
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        log.error("%s", exc)
        return 2
    from companion.store import STORAGE_EXIT, StorageError
    from companion.table import Table

    db = getattr(args, "db", None) or cfg.table.db
    try:
        table = Table(db, setup=cfg.setup() if cfg.table.players else None)
    except StorageError as exc:
        log.error("%s", exc)
        return STORAGE_EXIT
    warn_if_low_on_space(db, cfg.table.min_free_mb)
    snap = table.snapshot()
    inputs = len(table.history())
    if inputs > (1 if cfg.table.players else 0):     # more than the setup this start just wrote
        log.info("resumed the game from %s: %d inputs, round %s, %s", cfg.table.db, inputs, snap.get("round"),
                 f"{snap['current']} to play" if snap.get("current") else (snap.get("awaiting") or {}).get("prompt", "over"))
    events: queue.Queue = queue.Queue()
    factory = default_pin_factory()
    closers: list[Callable[[], None]] = []

    watcher = None if args.no_camera else build_watcher(cfg, snap.get("top"))
    panel = buzzer = leds = None
    if cfg.panel.enabled:
        p = cfg.pins
        try:
            panel = Panel(events, buttons=p.buttons, seat_uno=p.seat_uno, pull_up=cfg.panel.pull_up, pin_factory=factory)
            closers.append(panel.close)
            leds = ColorLeds(p.leds, pin_factory=factory)
            closers.append(leds.close)
            if p.buzzer is not None:
                buzzer = Buzzer(p.buzzer, tonal=cfg.panel.tonal, pin_factory=factory)
                closers.append(buzzer.close)
        except Exception as exc:   # GPIO busy or not permitted: still referee with the page
            log.error("GPIO panel unavailable (%s); is the user in the gpio group?", exc)
    voice = start_voice(cfg, table)
    if voice is not None:
        closers.append(voice.close)
    club = start_club(cfg, table)
    if club is not None:
        closers.append(club.close)
    decoder = ButtonDecoder(bounce=cfg.panel.bounce, long_press=cfg.panel.long_press,
                            long_buttons=("pass", VOICE_BUTTON) if voice is not None else ("pass",))
    companion = Companion(table, events, watcher=watcher, decoder=decoder, buzzer=buzzer, leds=leds,
                          notifier=Notifier(), voice=voice)

    if watcher is not None:
        watcher.start(events.put)
        closers.append(watcher.stop)
    if cfg.web.enabled and not args.no_web:
        try:
            from companion.web import create_app
            from companion.web.serve import start
            app = create_app(table, config={"HOST_PIN": cfg.web.host_pin or None,
                                            "CAMERA": Preview(watcher, companion), "VOICE": voice,
                                            "VOICE_LANGUAGE": cfg.voice.voice})
            server = start(app, cfg.web.host, cfg.web.port, cfg.web.threads)
            closers.append(server.stop)
        except ImportError as exc:
            log.warning("no score page in this build (%s)", exc)
        except OSError as exc:
            log.error("cannot serve the score page on port %d: %s", cfg.web.port, exc)

    def on_signal(signum, frame):
        log.info("stopping (signal %d)", signum)
        companion.stop()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
    if args.run_for is not None:
        threading.Timer(args.run_for, companion.stop).start()
    log.info("refereeing %s", ", ".join(snap.get("players") or []) or "(set up the game on the page)")
    try:
        companion.run()
    finally:
        for close in reversed(closers):
            try:
                close()
            except Exception:
                log.debug("cleanup failed", exc_info=True)
        table.close()
    return 0
