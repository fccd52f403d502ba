"""A real phone-sized browser on the page: nothing leaves the machine, events arrive live,
the host's correction works and a wrong PIN is refused. Debian's chromium, never a download."""
import re
from pathlib import Path

import pytest
from web_helpers import CHROMIUM, PIN, FakeCamera

from companion.web import create_app
from companion.web.serve import start

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture
def server(table):
    app = create_app(table, config={"HOST_PIN": PIN, "SSE_KEEPALIVE": 1.0})
    srv = start(app, host="127.0.0.1", port=0, threads=16, show_qr=False)
    yield srv
    srv.stop()


def test_phone_sees_the_table_live_and_the_host_corrects(server, browser, table):
    base = server.local_url.rstrip("/")
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    seen, outside = [], []
    ctx.on("request", lambda req: seen.append(req.url))
    local = re.compile("^" + re.escape(base) + "/")

    def refuse(route):
        outside.append(route.request.url)
        route.abort()
    ctx.route(lambda url: not local.match(url), refuse)
    page = ctx.new_page()
    page.set_default_timeout(5000)
    loads = []
    page.on("load", lambda: loads.append(page.url))

    page.goto(base + "/")
    page.wait_for_selector("#live.on")                      # the event stream is open
    assert page.inner_text("#players").count("cards") == 3

    # A referee event (as the camera would send it) appears without a reload.
    table.submit({"start": "red 7"}, source="camera")
    page.wait_for_function("document.querySelector('#top-card .words').textContent === 'red 7'")
    assert page.inner_text("#colour") == "red"
    assert "Ann" in page.inner_text("#current")
    assert len(loads) == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "score-page-table.png"), full_page=True)

    # A wrong PIN is refused; the right one lets the host in.
    page.goto(base + "/login?next=/corrections")
    page.fill("#pin", "000000")
    with page.expect_response(lambda r: r.url.endswith("/login") and r.request.method == "POST") as resp:
        page.click("button[type=submit]")
    assert resp.value.status == 403
    assert "Wrong PIN" in page.inner_text(".error")
    assert "Fix" not in page.inner_text("nav")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/corrections")

    # A host correction: the camera misread the card; fix it to red 9.
    table.submit({"play": "red 8"}, source="camera")
    fix = page.locator("form[data-action=fix]")
    fix.locator("input[name=card]").fill("red 9")
    fix.locator("button").click()
    page.wait_for_selector(".flashes")
    assert table.snapshot()["top"] == "red 9"
    assert "red 9" in page.inner_text("#top-card")
    page.screenshot(path=str(ARTIFACTS / "score-page-corrections.png"), full_page=True)

    page.goto(base + "/scores")
    page.wait_for_selector("#chart svg")
    assert not outside, f"requests left the machine: {outside}"
    assert seen and all(local.match(u) for u in seen), [u for u in seen if not local.match(u)]
    ctx.close()


def test_camera_faults_questions_and_pause_show_live_and_the_host_answers(table, browser):
    cam = FakeCamera()
    app = create_app(table, config={"HOST_PIN": PIN, "SSE_KEEPALIVE": 1.0, "CAMERA": cam})
    srv = start(app, host="127.0.0.1", port=0, threads=16, show_qr=False)
    try:
        base = srv.local_url.rstrip("/")
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        page = ctx.new_page()
        page.set_default_timeout(5000)
        page.goto(base + "/")
        page.wait_for_selector("#live.on")
        assert page.is_hidden("#camera-banner") and page.is_hidden("#question-banner")
        cam.change(state="failed", error="unplugged", retry_in=4.0)
        page.wait_for_selector("#camera-banner:visible")
        assert page.inner_text("#camera-banner") == "Camera unplugged — retrying in 4 s"
        cam.change(state="ok", question={"candidates": ["red 7", "red 1"], "reason": "unsure"})
        page.wait_for_selector("#question-banner:visible")
        assert page.is_hidden("#camera-banner")
        assert "red 7 or red 1?" in page.inner_text("#question-banner")
        table.pause("pizza")
        page.wait_for_selector("#paused-banner:visible")
        assert "Paused: pizza" in page.inner_text("#paused-banner")
        page.screenshot(path=str(ARTIFACTS / "score-page-status.png"), full_page=True)

        # The host answers from the Fix page: the buttons are built live from the question.
        page.goto(base + "/login?next=/corrections")
        page.fill("#pin", PIN)
        page.click("button[type=submit]")
        page.wait_for_url(base + "/corrections")
        assert page.is_visible("#resume-form") and page.is_hidden("#pause-form")
        cam.change(question={"candidates": ["red 8", "red 3"], "reason": "unsure"})
        page.wait_for_selector("#question-answers button:has-text('It was red 3')")
        page.click("#question-answers button:has-text('It was red 3')")
        page.wait_for_selector(".flashes")
        assert table.snapshot()["top"] == "red 3" and table.history()[-1]["source"] == "page"
        page.click("#resume-form button")
        page.wait_for_selector("#pause-form:visible")
        assert table.paused is None
        ctx.close()
    finally:
        srv.stop()


def test_the_score_page_of_a_demo_game_on_a_phone(browser, tmp_path):
    """The README's picture: a demo game's score page on a phone-sized screen, saved as
    test-artifacts/readme-score-page.png (docs/score-page.png is a copy of it)."""
    from companion.demo.camera import Eyes
    from companion.demo.game import DemoGame
    from companion.table import Table
    table = Table(tmp_path / "demo.db")
    game = DemoGame(table, Eyes(oracle=True), players=["Ann", "Ben", "Cat", "Dan"], seed=11, rounds=3)
    try:
        report = game.play()
    finally:
        game.close()
    srv = start(create_app(table, config={"HOST_PIN": PIN}), host="127.0.0.1", port=0, threads=16, show_qr=False)
    try:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, device_scale_factor=1)
        page = ctx.new_page()
        page.set_default_timeout(5000)
        page.goto(srv.local_url.rstrip("/") + "/scores")
        page.wait_for_selector("#chart svg")
        text = page.inner_text("body")
        for name, points in report.scores.items():
            assert name in text and str(points) in text
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "readme-score-page.png"), full_page=True)
        ctx.close()
    finally:
        srv.stop()
        table.close()
    assert len(report.rounds) == 3 and not report.disagreements
