"""The voice on the page: each live update carries the line a phone says, the host mutes the
Pi's voice from the Fix page, and a phone's "speak the calls" switch reaches speechSynthesis."""
import pytest
from web_helpers import PIN, form_csrf, parse

from companion.table import Table
from companion.voice import Recorder, Sentences, Voice
from companion.web import create_app
from companion.web.live import Broadcaster
from companion.web.serve import start


@pytest.fixture
def voice(table):
    v = Voice(Sentences.load("en"), Recorder()).attach(table)
    yield v
    v.close()


def test_each_update_carries_the_line_said(table):
    b = Broadcaster(table, spoken=Sentences.load("en").line)
    gen = b.stream(keepalive=5)
    next(gen)
    table.submit({"start": "red 7"})
    event, upd = parse(next(gen))
    assert event == "update" and upd["spoken"] == "First card: red 7. Ann, your turn."
    table.submit({"undo": True})                          # an input that says nothing has no line
    event, upd = parse(next(gen))
    assert event == "update" and "spoken" not in upd
    gen.close()


def test_the_host_mutes_and_unmutes_the_pi_from_the_fix_page(table, voice):
    app = create_app(table, config={"HOST_PIN": PIN, "TESTING": True, "VOICE": voice})
    c = app.test_client()
    assert c.post("/corrections", data={"action": "voice", "muted": "1"}).status_code in (302, 303, 401, 403)
    assert not voice.muted                                    # not the host: nothing changes
    c.post("/login", data={"csrf_token": form_csrf(c.get("/login").get_data(as_text=True)), "pin": PIN})
    html = c.get("/corrections").get_data(as_text=True)
    assert "The Pi&#39;s voice" in html and "Speaking all calls" in html
    tok = form_csrf(html)
    assert c.post("/corrections", data={"action": "voice", "muted": "1"}).status_code == 403   # no CSRF token
    assert not voice.muted
    r = c.post("/corrections", data={"csrf_token": tok, "action": "voice", "muted": "yes"})
    assert r.status_code == 400 and "muted must be 0 or 1" in r.get_data(as_text=True) and not voice.muted
    r = c.post("/corrections", data={"csrf_token": tok, "action": "voice", "muted": "1"}, follow_redirects=True)
    assert voice.muted and "voice is muted" in r.get_data(as_text=True)
    assert ">Unmute<" in r.get_data(as_text=True)
    c.post("/corrections", data={"csrf_token": tok, "action": "voice", "muted": "0"})
    assert not voice.muted
    assert len(table.history()) == 1                          # muting is not a game input


def test_no_voice_configured_says_how_to_turn_it_on(host):
    html = host.get("/corrections").get_data(as_text=True)
    assert "The Pi&#39;s voice" not in html
    r = host.post("/corrections", data={"csrf_token": form_csrf(html), "action": "voice", "muted": "1"})
    assert r.status_code == 400 and "[voice] enabled = true" in r.get_data(as_text=True)


STUB = """
window.__spoken = [];
window.speechSynthesis.speak = function (u) { window.__spoken.push([u.text, u.lang]); };
window.speechSynthesis.cancel = function () { window.__spoken.push(["(cancel)", ""]); };
"""


@pytest.mark.browser
def test_a_phone_speaks_new_calls_only_when_switched_on(browser):
    table = Table(None, setup={"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"})
    app = create_app(table, config={"HOST_PIN": PIN, "SSE_KEEPALIVE": 1.0})
    srv = start(app, host="127.0.0.1", port=0, threads=16, show_qr=False)
    try:
        base = srv.local_url.rstrip("/")
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        ctx.add_init_script(STUB)
        page = ctx.new_page()
        page.set_default_timeout(5000)
        table.submit({"start": "red 5"})                      # before the page opened: never said
        page.goto(base + "/")
        page.wait_for_selector("#live.on")
        assert page.is_visible("#speak-switch") and not page.is_checked("#speak-calls")   # off by default
        table.submit({"play": "red 7"})
        page.wait_for_function("document.querySelector('#top-card .words').textContent === 'red 7'")
        assert page.evaluate("window.__spoken") == []
        page.check("#speak-calls")
        assert page.evaluate("window.__spoken") == [["Calls on", "en"]]
        table.submit({"play": "red skip"})
        page.wait_for_function("window.__spoken.length === 2")
        assert page.evaluate("window.__spoken")[1] == ["Red skip. Cat is skipped. Ann, your turn.", "en"]
        page.reload()                                         # remembered on this phone
        page.wait_for_selector("#live.on")
        assert page.is_checked("#speak-calls") and page.evaluate("window.__spoken") == []
        table.submit({"play": "red 2"})
        page.wait_for_function("window.__spoken.length === 1")
        assert page.evaluate("window.__spoken") == [["Red 2. Ben, your turn.", "en"]]
        page.uncheck("#speak-calls")
        table.submit({"play": "red 3"})
        page.wait_for_function("document.querySelector('#top-card .words').textContent === 'red 3'")
        assert page.evaluate("window.__spoken")[1:] == [["(cancel)", ""]]
        ctx.close()
    finally:
        srv.stop()


@pytest.mark.browser
def test_a_phone_that_polls_speaks_the_new_calls_too(browser):
    table = Table(None, setup={"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"})
    app = create_app(table, config={"HOST_PIN": PIN, "POLL_MS": 200})
    srv = start(app, host="127.0.0.1", port=0, threads=16, show_qr=False)
    try:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        ctx.add_init_script(STUB + "\ndelete window.EventSource;\n")      # no event stream: the page polls
        page = ctx.new_page()
        page.set_default_timeout(5000)
        table.submit({"start": "red 5"})
        page.goto(srv.local_url.rstrip("/") + "/")
        page.wait_for_selector("#live.on")
        assert page.inner_text("#live") == "polling"
        page.check("#speak-calls")
        table.submit({"play": "red 7"})
        table.submit({"play": "red 8"})
        page.wait_for_function("window.__spoken.length === 3")
        assert page.evaluate("window.__spoken")[1:] == [["Red 7. Ben, your turn.", "en"], ["Red 8. Cat, your turn.", "en"]]
        page.wait_for_timeout(600)                            # later polls say nothing again
        assert len(page.evaluate("window.__spoken")) == 3
        ctx.close()
    finally:
        srv.stop()
