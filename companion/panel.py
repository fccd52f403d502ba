"""The button panel, the buzzer and the colour LEDs, with gpiozero.

Every GPIO callback does one thing: put a `RawEdge` into the one queue the referee thread reads.
That thread debounces and spots long presses with a `ButtonDecoder` (software debounce works the
same on real and mock pins; mock pins call back in the caller's thread and ignore
``bounce_time``), then turns each `Press` into a table input with `input_for`::

    >>> import queue
    >>> from gpiozero.pins.mock import MockFactory, MockPWMPin
    >>> factory = MockFactory(pin_class=MockPWMPin)
    >>> q = queue.Queue()
    >>> panel = Panel(q, pin_factory=factory, clock=lambda: 10.0)
    >>> panel.buttons["uno"].pin.drive_low()
    >>> edge = q.get_nowait(); edge
    RawEdge(button='uno', pressed=True, t=10.0, seat=None)
    >>> ButtonDecoder().feed(edge)
    [Press(button='uno', long=False, t=10.0, seat=None)]
    >>> panel.close()

On a machine without GPIO the mock pin factory is chosen automatically (`default_pin_factory`).
"""
from __future__ import annotations

import logging
import os
import queue as queue_mod
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from gpiozero import LED, Button, TonalBuzzer
from gpiozero import Buzzer as ActiveBuzzer
from gpiozero.tones import Tone

from companion.cards import CardError, deck as deck_profile
from companion.config import DEFAULT_BUTTON_PINS, DEFAULT_BUZZER_PIN, DEFAULT_LED_PINS

log = logging.getLogger(__name__)

COLORS = ("red", "yellow", "green", "blue")     # the four colour buttons and LEDs, by position
_factory = None
_factory_lock = threading.Lock()


def on_raspberry_pi() -> bool:
    try:
        return Path("/proc/device-tree/model").read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def default_pin_factory():
    """The pin factory every device here shares: gpiozero's own choice on a Pi (or whatever
    ``GPIOZERO_PIN_FACTORY`` names), else mock pins with PWM so tunes play anywhere."""
    global _factory
    with _factory_lock:
        if _factory is None:
            env = os.environ.get("GPIOZERO_PIN_FACTORY", "").strip().lower()
            if env == "mock" or (not env and not on_raspberry_pi()):
                from gpiozero.pins.mock import MockFactory, MockPWMPin
                if not env:
                    log.info("no GPIO here: using gpiozero's mock pins")
                _factory = MockFactory(pin_class=os.environ.get("GPIOZERO_MOCK_PIN_CLASS") or MockPWMPin)
            else:
                from gpiozero import Device
                _factory = Device._default_pin_factory() if Device.pin_factory is None else Device.pin_factory
        return _factory


class RawEdge(NamedTuple):
    """What a GPIO callback puts in the queue: a button went down or up at time ``t``."""

    button: str
    pressed: bool
    t: float
    seat: int | None = None


class Press(NamedTuple):
    """A debounced button press; ``long`` when held past the long-press time."""

    button: str
    long: bool
    t: float
    seat: int | None = None


@dataclass
class _Key:
    down: bool = False          # the accepted (debounced) state
    accepted_t: float = float("-inf")
    raw: bool = False           # the latest edge seen, maybe a bounce
    raw_t: float = float("-inf")
    down_t: float = 0.0
    long_sent: bool = False


class ButtonDecoder:
    """Software debounce and long presses, run in the referee thread on `RawEdge` events.

    An edge closer than ``bounce`` seconds to the last accepted one is a bounce (``poll`` later
    settles on the pin's real level). Buttons in ``long_buttons`` report on release (short) or
    once held for ``long_press`` seconds (long); the others report at once on press.
    Time comes from the edges and from ``poll(now)``, so tests need no sleeps::

        >>> d = ButtonDecoder(bounce=0.05, long_press=1.0)
        >>> [d.feed(RawEdge("pass", p, t)) for p, t in [(True, 0.0), (False, 0.01), (True, 0.02)]]
        [[], [], []]
        >>> d.poll(1.2)
        [Press(button='pass', long=True, t=1.0, seat=None)]
    """

    def __init__(self, *, bounce: float = 0.05, long_press: float = 1.0, long_buttons: Iterable[str] = ("pass",)):
        self.bounce, self.long_press = bounce, long_press
        self.long_buttons = frozenset(long_buttons)
        self._keys: dict[tuple[str, int | None], _Key] = {}

    def _accept(self, key, k: _Key, pressed: bool, t: float) -> list[Press]:
        k.down, k.accepted_t = pressed, t
        name, seat = key
        if pressed:
            k.down_t, k.long_sent = t, False
            return [] if name in self.long_buttons else [Press(name, False, t, seat)]
        if name in self.long_buttons and not k.long_sent:
            if t - k.down_t >= self.long_press:
                return [Press(name, True, k.down_t + self.long_press, seat)]
            return [Press(name, False, t, seat)]
        return []

    def feed(self, edge: RawEdge) -> list[Press]:
        key = (edge.button, edge.seat)
        k = self._keys.setdefault(key, _Key())
        out = self.poll(edge.t, only=key)
        k.raw, k.raw_t = edge.pressed, edge.t
        if edge.pressed == k.down or edge.t - k.accepted_t < self.bounce:
            return out
        return out + self._accept(key, k, edge.pressed, edge.t)

    def poll(self, now: float, *, only=None) -> list[Press]:
        """Settle bounced buttons and report long presses that have come due by ``now``."""
        out = []
        for key, k in self._keys.items():
            if only is not None and key != only:
                continue
            settle_t = k.accepted_t + self.bounce
            if k.raw != k.down and now >= settle_t:
                out += self._accept(key, k, k.raw, max(k.raw_t, settle_t))
            if k.down and not k.long_sent and key[0] in self.long_buttons and now - k.down_t >= self.long_press:
                k.long_sent = True
                out.append(Press(key[0], True, k.down_t + self.long_press, key[1]))
        return out

    def next_deadline(self) -> float | None:
        """When ``poll`` next has something to do (None: nothing pending)."""
        times = []
        for key, k in self._keys.items():
            if k.raw != k.down:
                times.append(k.accepted_t + self.bounce)
            if k.down and not k.long_sent and key[0] in self.long_buttons:
                times.append(k.down_t + self.long_press)
        return min(times) if times else None


class Panel:
    """The table's buttons: UNO, CATCH, CHALLENGE, DRAW, PASS, four colours, and optionally one
    UNO button per seat. Each edge goes into ``events`` as a `RawEdge` and nothing else happens
    in the callback::

        >>> import queue
        >>> from gpiozero.pins.mock import MockFactory
        >>> q = queue.Queue()
        >>> with Panel(q, seat_uno=[4, 25], pin_factory=MockFactory()) as panel:
        ...     panel.seat_buttons[1].pin.drive_low()
        >>> q.get_nowait().seat
        1

    ``buttons`` maps a name to its BCM pin (default: the documented pin map); ``pull_up``
    means each button connects its pin to ground.
    """

    def __init__(self, events: queue_mod.Queue, *, buttons: Mapping[str, int] = DEFAULT_BUTTON_PINS,
                 seat_uno: Iterable[int] = (), pull_up: bool = True, clock: Callable[[], float] = time.monotonic,
                 pin_factory=None):
        self.events, self.clock = events, clock
        factory = pin_factory or default_pin_factory()
        self.buttons: dict[str, Button] = {}
        self.seat_buttons: list[Button] = []
        try:
            for name, pin in buttons.items():
                self.buttons[name] = self._button(pin, name, None, pull_up, factory)
            for seat, pin in enumerate(seat_uno):
                self.seat_buttons.append(self._button(pin, "uno", seat, pull_up, factory))
        except Exception:
            self.close()
            raise

    def _button(self, pin, name, seat, pull_up, factory) -> Button:
        b = Button(pin, pull_up=pull_up, bounce_time=None, pin_factory=factory)
        put, clock = self.events.put, self.clock

        def pressed():
            put(RawEdge(name, True, clock(), seat))

        def released():
            put(RawEdge(name, False, clock(), seat))
        b.when_pressed, b.when_released = pressed, released
        return b

    def close(self) -> None:
        for b in list(self.buttons.values()) + self.seat_buttons:
            b.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# Tunes: (note, seconds); None is a rest. Notes stay within A3-A5, TonalBuzzer's default range.
TUNES: dict[str, tuple[tuple[str | None, float], ...]] = {
    "turn": (("A5", 0.06),),
    "illegal_play": (("C4", 0.15), ("A3", 0.35)),
    "penalty": (("E4", 0.1), ("C4", 0.1), ("A3", 0.3)),
    "uno_needed": (("A4", 0.08), (None, 0.05), ("A4", 0.08), (None, 0.05), ("A4", 0.08)),
    "round_over": (("C4", 0.1), ("E4", 0.1), ("G4", 0.1), ("C5", 0.35)),
    "game_over": (("C4", 0.12), ("E4", 0.12), ("G4", 0.12), ("C5", 0.2), ("G4", 0.1), ("C5", 0.5)),
    "question": (("E4", 0.12), ("B4", 0.25)),
    "camera": (("A3", 0.3), (None, 0.15), ("A3", 0.3)),
    "storage": (("A3", 0.3), (None, 0.15), ("A3", 0.3), (None, 0.15), ("A3", 0.3)),
    "click": (("A5", 0.02),),
}
# which tune an announcement type gets (the referee's types; unlisted types stay silent)
TUNE_FOR = {
    "turn": "turn", "illegal_play": "illegal_play", "penalty": "penalty", "caught": "penalty",
    "false_uno": "penalty", "uno_needed": "uno_needed", "round_over": "round_over",
    "game_over": "game_over", "question": "question", "rejected": "question", "camera": "camera",
    "storage": "storage",
}


class Buzzer:
    """A distinct short tune per announcement, played in a background thread so the referee
    thread never waits for it. ``tonal`` drives a passive piezo with `TonalBuzzer` (tunes);
    otherwise an active buzzer beeps the tune's rhythm::

        >>> from gpiozero.pins.mock import MockFactory, MockPWMPin
        >>> heard = []
        >>> bz = Buzzer(18, pin_factory=MockFactory(pin_class=MockPWMPin), background=False,
        ...             sleep=lambda s: heard.append(bz.frequency))
        >>> bz.announce("illegal_play"); [round(f) for f in heard[:2]]
        [262, 220]
        >>> bz.close()
    """

    def __init__(self, pin: int = DEFAULT_BUZZER_PIN, *, tonal: bool = True, pin_factory=None,
                 tunes: Mapping[str, tuple] = TUNES, sleep: Callable[[float], None] = time.sleep,
                 background: bool = True):
        factory = pin_factory or default_pin_factory()
        self.tonal, self.tunes, self.sleep = tonal, dict(tunes), sleep
        self.device = TonalBuzzer(pin, pin_factory=factory) if tonal else ActiveBuzzer(pin, pin_factory=factory)
        self.played: list[str] = []
        self._queue: queue_mod.Queue | None = None
        self._thread = None
        if background:
            self._queue = queue_mod.Queue(maxsize=8)
            self._thread = threading.Thread(target=self._worker, name="buzzer", daemon=True)
            self._thread.start()

    @property
    def frequency(self) -> float | None:
        """The tone sounding now in Hz (None: silent; 1.0 for an active buzzer that is on)."""
        if self.tonal:
            tone = self.device.tone
            return None if tone is None else float(tone.frequency)
        return 1.0 if self.device.is_active else None

    def announce(self, kind: str) -> None:
        """Play the tune for an announcement type (or tune name); unknown types are silent."""
        tune = TUNE_FOR.get(kind, kind if kind in self.tunes else None)
        if tune is None:
            return
        if self._queue is None:
            self.play(tune)
            return
        try:
            self._queue.put_nowait(tune)
        except queue_mod.Full:
            log.debug("buzzer busy: dropped %s", tune)

    def play(self, tune: str) -> None:
        """Play one tune now, in this thread."""
        self.played.append(tune)
        for note, seconds in self.tunes[tune]:
            if note is None:
                self._off()
            elif self.tonal:
                self.device.play(Tone(note))
            else:
                self.device.on()
            self.sleep(seconds)
            self._off()

    def _off(self):
        if self.tonal:
            self.device.stop()
        else:
            self.device.off()

    def _worker(self):
        while True:
            tune = self._queue.get()
            if tune is None:
                return
            try:
                self.play(tune)
            except Exception:
                log.exception("buzzer failed")

    def close(self) -> None:
        if self._queue is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)
        self.device.close()


class ColorLeds:
    """One LED per colour, showing the colour in force; all four blink while a colour is to be
    named (after a wild)::

        >>> from gpiozero.pins.mock import MockFactory
        >>> leds = ColorLeds(pin_factory=MockFactory())
        >>> leds.show("green"); [c for c, led in leds.leds.items() if led.is_lit]
        ['green']
        >>> leds.close()
    """

    def __init__(self, pins: Mapping[str, int] = DEFAULT_LED_PINS, *, pin_factory=None):
        factory = pin_factory or default_pin_factory()
        self.leds = {c: LED(p, pin_factory=factory) for c, p in pins.items()}
        self.showing: tuple[str | None, bool] = (None, False)

    def show(self, color: str | None, *, waiting: bool = False, deck: str | None = None) -> None:
        """Light the LED of ``color`` (a colour of ``deck``: its LED by position, see
        `color_buttons`), or blink all while a colour is to be named."""
        if (color, waiting) == self.showing:
            return
        self.showing = (color, waiting)
        lit = button_for_color(color, deck) if color else None
        for c, led in self.leds.items():
            if waiting:
                led.blink(on_time=0.3, off_time=0.3)
            elif c == lit:
                led.on()
            else:
                led.off()

    def close(self) -> None:
        for led in self.leds.values():
            led.close()


VERDICT_BUTTONS = {"red": "guilty", "green": "innocent"}   # by position: the first and the third


def color_buttons(deck_name: str | None = None) -> dict[str, str]:
    """The deck colour each colour button (and LED) stands for, by position: the buttons are
    named after the classic colours (``pins.buttons.red`` is the first), the deck profile says
    what the first to fourth colour are::

        >>> color_buttons("classic")["red"], color_buttons("seinfeld")
        ('red', {'red': 'blue', 'yellow': 'green', 'green': 'orange', 'blue': 'purple'})
    """
    colors: tuple[str, ...] = COLORS
    if deck_name:
        try:
            colors = deck_profile(deck_name).colors
        except CardError:
            log.warning("unknown deck %r: the colour buttons keep the classic colours", deck_name)
    return dict(zip(COLORS, colors))


def button_for_color(color: str, deck_name: str | None = None) -> str | None:
    """The colour button (or LED) that stands for the deck colour ``color``; None if none does."""
    return next((b for b, c in color_buttons(deck_name).items() if c == color), None)


def input_for(press: Press, snapshot: dict) -> dict | None:
    """The table input a button press means, given what the referee waits for.

    - UNO: ``{"uno": true}``; a seat's own UNO button: ``{"uno": "<that player>"}``.
    - CATCH: ``{"catch": true}``; CHALLENGE: ``{"challenge": true}``.
    - DRAW: ``{"draw": 1}``, or ``{"accept": true}`` when a Wild Draw Four (or a stack) waits to
      be challenged or accepted: drawing the cards is accepting them.
    - PASS: ``{"pass": true}``; held (long press): ``{"undo": true}``.
    - A colour: the colour named after a wild (``{"color": ...}``), the deck's colour at that
      button's position (`color_buttons`: with the Seinfeld deck the RED button names blue);
      after a challenge, the first (red) = guilty and the third (green) = innocent
      (``{"verdict": ...}``); otherwise nothing.
    """
    awaiting = snapshot.get("awaiting") or {}
    need = awaiting.get("input")
    b = press.button
    if press.seat is not None:
        players = snapshot.get("players") or []
        return {"uno": players[press.seat]} if press.seat < len(players) else None
    if b == "uno":
        return {"uno": True}
    if b == "catch":
        return {"catch": True}
    if b == "challenge":
        return {"challenge": True}
    if b == "draw":
        return {"accept": True} if need in ("challenge_or_accept", "stack_or_accept") else {"draw": 1}
    if b == "pass":
        return {"undo": True} if press.long else {"pass": True}
    if b in COLORS:
        if need == "color":
            return {"color": color_buttons(snapshot.get("deck"))[b]}
        if need == "verdict":
            v = VERDICT_BUTTONS.get(b)
            return {"verdict": v} if v else None
    return None
