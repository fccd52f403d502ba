"""Panel, decoder, buzzer and LEDs on gpiozero mock pins; time comes from an injected clock."""
import queue
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.cards import deck
from companion.panel import (TUNE_FOR, TUNES, Buzzer, ButtonDecoder, ColorLeds, Panel, Press, RawEdge,
                             button_for_color, color_buttons, default_pin_factory, input_for)


@pytest.fixture
def factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


class Clock:
    def __init__(self, t=0.0):
        self.t = t

    def __call__(self):
        return self.t


def drain(q):
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


# -- the panel only queues raw edges -------------------------------------------------------------

def test_panel_callbacks_only_queue_raw_edges(factory):
    q, clock = queue.Queue(), Clock(5.0)
    with Panel(q, pin_factory=factory, clock=clock) as panel:
        pin = panel.buttons["pass"].pin
        pin.drive_low()
        clock.t = 5.2
        pin.drive_high()
    assert drain(q) == [RawEdge("pass", True, 5.0), RawEdge("pass", False, 5.2)]


def test_every_button_of_the_default_map(factory):
    q = queue.Queue()
    with Panel(q, pin_factory=factory, clock=Clock()) as panel:
        for b in panel.buttons.values():
            b.pin.drive_low()
            b.pin.drive_high()
    names = [e.button for e in drain(q) if e.pressed]
    assert names == ["uno", "catch", "challenge", "draw", "pass", "red", "yellow", "green", "blue"]


def test_pull_down_wiring_and_seat_buttons(factory):
    q = queue.Queue()
    with Panel(q, buttons={"uno": 17}, seat_uno=[4, 25, 26], pull_up=False, pin_factory=factory,
               clock=Clock()) as panel:
        panel.seat_buttons[2].pin.drive_high()
    assert drain(q) == [RawEdge("uno", True, 0.0, 2)]


def test_callbacks_from_many_threads_land_in_one_queue(factory):
    q = queue.Queue()
    with Panel(q, pin_factory=factory, clock=Clock()) as panel:
        threads = [threading.Thread(target=lambda b=b: (b.pin.drive_low(), b.pin.drive_high()))
                   for b in panel.buttons.values()]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(drain(q)) == 18


def test_mock_pin_chatter_through_the_queue_is_one_press(factory):
    q, clock = queue.Queue(), Clock()
    decoder = ButtonDecoder(bounce=0.05)
    with Panel(q, pin_factory=factory, clock=clock) as panel:
        pin = panel.buttons["uno"].pin
        for i, low in enumerate([1, 0, 1, 0, 1]):          # contact bounce, 4 ms apart
            clock.t = i * 0.004
            pin.drive_low() if low else pin.drive_high()
        clock.t = 0.3
        pin.drive_high()
    presses = [p for e in drain(q) for p in decoder.feed(e)] + decoder.poll(1.0)
    assert presses == [Press("uno", False, 0.0)]


# -- debounce and long press ----------------------------------------------------------------------

def edges(decoder, seq, button="pass"):
    out = []
    for pressed, t in seq:
        out += decoder.feed(RawEdge(button, pressed, t))
    return out


def test_short_press_reported_on_release():
    d = ButtonDecoder(bounce=0.05, long_press=1.0)
    assert edges(d, [(True, 0.0)]) == []
    assert edges(d, [(False, 0.3)]) == [Press("pass", False, 0.3)]


def test_release_bounce_is_settled_by_poll():
    d = ButtonDecoder(bounce=0.05, long_press=1.0)
    assert edges(d, [(True, 0.0), (False, 0.02)]) == []       # release inside the bounce window
    assert d.next_deadline() == pytest.approx(0.05)
    assert d.poll(0.04) == []
    assert d.poll(0.06) == [Press("pass", False, 0.05)]
    assert d.poll(5.0) == []                                   # and never a long press later


def test_long_press_reported_while_held_and_only_once():
    d = ButtonDecoder(bounce=0.05, long_press=1.0)
    edges(d, [(True, 10.0), (False, 10.01), (True, 10.02)])   # bouncy contact, still held
    assert d.next_deadline() == pytest.approx(11.0)
    assert d.poll(10.9) == []
    assert d.poll(11.0) == [Press("pass", True, 11.0)]
    assert d.poll(12.0) == []
    assert edges(d, [(False, 12.5)]) == []


def test_long_press_noticed_at_release_without_polling():
    d = ButtonDecoder(bounce=0.05, long_press=1.0)
    assert edges(d, [(True, 0.0), (False, 1.5)]) == [Press("pass", True, 1.0)]


def test_press_chatter_gives_one_press_for_plain_buttons():
    d = ButtonDecoder(bounce=0.05)
    seq = [(True, 0.0), (False, 0.003), (True, 0.006), (False, 0.009), (True, 0.012)]
    assert edges(d, seq, "uno") == [Press("uno", False, 0.0)]
    assert edges(d, [(False, 0.4), (True, 0.7)], "uno") == [Press("uno", False, 0.7)]


def test_repeated_quick_presses_all_count():
    d = ButtonDecoder(bounce=0.05)
    seq = [(i % 2 == 0, i * 0.1) for i in range(10)]
    assert len(edges(d, seq, "draw")) == 5


def test_seats_and_buttons_are_independent():
    d = ButtonDecoder(bounce=0.05)
    out = d.feed(RawEdge("uno", True, 0.0, 0)) + d.feed(RawEdge("uno", True, 0.01, 1)) + d.feed(RawEdge("uno", True, 0.01))
    assert out == [Press("uno", False, 0.0, 0), Press("uno", False, 0.01, 1), Press("uno", False, 0.01)]


# -- buzzer ------------------------------------------------------------------------------------

def heard(factory, kind, *, tonal=True):
    notes = []
    bz = Buzzer(18, tonal=tonal, pin_factory=factory, background=False,
                sleep=lambda s: notes.append((bz.frequency and round(bz.frequency), s)))
    bz.announce(kind)
    assert bz.frequency is None          # silent after the tune
    bz.close()
    return tuple(notes)


def test_each_announcement_has_its_own_tune(factory):
    kinds = ["turn", "illegal_play", "penalty", "uno_needed", "round_over", "question"]
    tunes = [heard(factory, k) for k in kinds]
    assert all(tunes) and len(set(tunes)) == len(kinds)
    assert all(sum(s for _, s in t) < 1.0 for t in tunes)     # short


def test_unknown_announcements_are_silent(factory):
    assert heard(factory, "played") == ()


def test_active_buzzer_beeps_the_rhythm(factory):
    assert heard(factory, "uno_needed", tonal=False) == ((1, 0.08), (None, 0.05), (1, 0.08), (None, 0.05), (1, 0.08))


def test_background_buzzer_does_not_block(factory):
    started, release = threading.Event(), threading.Event()

    def sleep(s):
        started.set()
        release.wait(5)
    bz = Buzzer(18, pin_factory=factory, sleep=sleep)
    bz.announce("round_over")           # returns at once although the tune "takes" forever
    assert started.wait(5)
    release.set()
    bz.close()
    assert bz.played == ["round_over"]


def test_every_mapped_tune_exists():
    assert set(TUNE_FOR.values()) <= set(TUNES)


# -- LEDs and the pin factory --------------------------------------------------------------------

def test_leds_show_the_colour_in_force(factory):
    leds = ColorLeds(pin_factory=factory)
    leds.show("blue")
    assert [c for c, led in leds.leds.items() if led.is_lit] == ["blue"]
    leds.show(None)
    assert not any(led.is_lit for led in leds.leds.values())
    leds.show(None, waiting=True)
    assert leds.showing == (None, True)
    leds.close()


def test_mock_pins_chosen_off_the_pi(monkeypatch):
    import companion.panel as panel
    monkeypatch.setattr(panel, "_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(panel, "on_raspberry_pi", lambda: False)
    f = default_pin_factory()
    assert type(f).__name__ == "MockFactory" and f.pin_class is MockPWMPin
    Buzzer(18, background=False, sleep=lambda s: None).close()    # tones work on it


# -- what a press means ------------------------------------------------------------------------

def snap(need=None, players=("Ann", "Ben")):
    return {"players": list(players), "awaiting": {"input": need} if need else None}


@pytest.mark.parametrize("press, need, expected", [
    (Press("uno", False, 0), "play", {"uno": True}),
    (Press("uno", False, 0, 1), "play", {"uno": "Ben"}),
    (Press("uno", False, 0, 7), "play", None),
    (Press("catch", False, 0), "play", {"catch": True}),
    (Press("challenge", False, 0), "challenge_or_accept", {"challenge": True}),
    (Press("draw", False, 0), "play", {"draw": 1}),
    (Press("draw", False, 0), "challenge_or_accept", {"accept": True}),
    (Press("draw", False, 0), "stack_or_accept", {"accept": True}),
    (Press("pass", False, 0), "play", {"pass": True}),
    (Press("pass", True, 0), "play", {"undo": True}),
    (Press("green", False, 0), "color", {"color": "green"}),
    (Press("red", False, 0), "verdict", {"verdict": "guilty"}),
    (Press("green", False, 0), "verdict", {"verdict": "innocent"}),
    (Press("blue", False, 0), "verdict", None),
    (Press("yellow", False, 0), "play", None),
    (Press("yellow", False, 0), None, None),
])
def test_input_for(press, need, expected):
    assert input_for(press, snap(need)) == expected


def test_inputs_are_accepted_by_the_referee():
    from companion.referee import parse
    for press, need in [(Press("pass", True, 0), "play"), (Press("red", False, 0), "verdict"),
                        (Press("uno", False, 0, 0), "play"), (Press("draw", False, 0), "challenge_or_accept")]:
        parse(input_for(press, snap(need)))


# -- colour buttons for any deck -----------------------------------------------------------------

def test_colour_buttons_follow_the_deck_by_position():
    assert color_buttons("classic") == {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue"}
    assert color_buttons(None) == color_buttons("classic")
    assert color_buttons("nonsense") == color_buttons("classic")
    seinfeld = color_buttons("seinfeld")
    assert list(seinfeld.values()) == list(deck("seinfeld").colors) == ["blue", "green", "orange", "purple"]
    assert button_for_color("purple", "seinfeld") == "blue" and button_for_color("red", "seinfeld") is None


@pytest.mark.parametrize("button, color", [("red", "blue"), ("yellow", "green"), ("green", "orange"),
                                           ("blue", "purple")])
def test_seinfeld_wild_colour_from_each_button(button, color):
    s = dict(snap("color"), deck="seinfeld")
    assert input_for(Press(button, False, 0), s) == {"color": color}


def test_seinfeld_verdict_buttons_keep_their_positions():
    s = dict(snap("verdict"), deck="seinfeld")
    assert input_for(Press("red", False, 0), s) == {"verdict": "guilty"}
    assert input_for(Press("green", False, 0), s) == {"verdict": "innocent"}


def test_leds_light_the_deck_colour_by_position(factory):
    leds = ColorLeds(pin_factory=factory)
    leds.show("orange", deck="seinfeld")
    assert [c for c, led in leds.leds.items() if led.is_lit] == ["green"]
    leds.show("red", deck="classic")
    assert [c for c, led in leds.leds.items() if led.is_lit] == ["red"]
    leds.close()


def test_seinfeld_table_takes_every_colour_from_the_buttons():
    from companion.table import Table
    table = Table(None, setup={"players": ["Ann", "Ben"], "dealer": "Ben", "deck": "seinfeld"})
    table.submit({"start": "blue 5"})
    table.submit({"play": "wild"})
    s = table.snapshot()
    assert s["deck"] == "seinfeld" and s["awaiting"]["input"] == "color"
    out = table.submit(input_for(Press("blue", False, 0), s))
    assert table.snapshot()["color"] == "purple", out
