"""Fixtures of the score page tests: an app around a table with a game set up, and clients."""
from __future__ import annotations

import pytest
from web_helpers import CHROMIUM, CHROMIUM_ARGS, PIN, login, make_table

from companion.web import create_app


@pytest.fixture
def table():
    return make_table()


@pytest.fixture
def app(table):
    return create_app(table, config={"HOST_PIN": PIN, "TESTING": True, "SSE_KEEPALIVE": 0.2})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def host(client):
    """A client logged in as the host; ``host.csrf`` is its token."""
    r = login(client)
    assert r.status_code == 200, r.get_data(as_text=True)
    client.csrf = r.get_json()["csrf"]
    return client


@pytest.fixture
def browser():
    """Debian's chromium, headless, driven by Playwright (never a downloaded browser)."""
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()
