"""The club's page in a real phone-sized browser: the tables, the standings and a tournament
arrive live, without a reload. Debian's chromium, never a download."""
import pytest

from companion.club import messages as msg
from companion.club.hub import Hub
from companion.club.hubstore import HubStore
from companion.club.page import create_club_app
from companion.table import Table
from companion.web.serve import start

pytestmark = pytest.mark.browser


def feed(hub: Hub, table: Table, name: str, after: int = 0) -> int:
    rows = table.log.since(after, 10_000)
    for r in rows:
        hub.handle(msg.topic("pub", name, "events"), msg.event_message(name, "ab12ab12", r))
    return rows[-1]["seq"] if rows else after


def test_the_club_page_follows_the_tables_live(browser):
    hub = Hub(HubStore(None), "pub")
    app = create_club_app(hub, pin="2468")
    srv = start(app, host="127.0.0.1", port=0, threads=16, show_qr=False)
    try:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        page = ctx.new_page()
        page.set_default_timeout(5000)
        loads = []
        page.on("load", lambda: loads.append(1))
        page.goto(srv.local_url.rstrip("/") + "/")
        page.wait_for_selector("#live.on")
        assert "No table has reported yet" in page.inner_text("#tables")
        t = Table(None)
        t.submit({"setup": {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"}})
        t.submit({"start": "red 7"})
        seen = feed(hub, t, "hall")
        page.wait_for_selector(".club-table h3:has-text('hall')")
        assert "red 7" in page.inner_text("#tables") and "Ann" in page.inner_text("#standings")
        t.submit({"play": "red 3"})
        feed(hub, t, "hall", seen)
        page.wait_for_function("document.querySelector('#tables').textContent.includes('red 3')")
        hub.director.publish = lambda table, seating: None
        hub.start_tournament("partners4", ["Ann", "Ben", "Cat", "Dan"], ["hall"])
        page.wait_for_selector("#tournament:not([hidden])")
        assert "set 1 of 3" in page.inner_text("#tour-state")
        assert "hall: Ann & Ben against Cat & Dan" in page.inner_text("#tour-seating")
        assert len(loads) == 1                                   # all of it live, no reload
        ctx.close()
    finally:
        srv.stop()
        app.extensions["companion.club"].close()
