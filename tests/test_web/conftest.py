"""Fixtures of the score page tests: an app around a table with a game set up, and clients."""
from __future__ import annotations

import re

import pytest

from companion.table import Table
from companion.web import create_app

PIN = "246810"
SETUP = {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat", "deck": "classic"}


def make_table():
    t = Table(None)
    t.new_game(dict(SETUP))
    return t


@pytest.fixture
def table():
    return make_table()


@pytest.fixture
def app(table):
    return create_app(table, config={"HOST_PIN": PIN, "TESTING": True, "SSE_KEEPALIVE": 0.2})


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_of(client) -> str:
    return client.get("/api/session").get_json()["csrf"]


def login(client, pin=PIN):
    tok = csrf_of(client)
    r = client.post("/api/login", json={"pin": pin}, headers={"X-CSRF-Token": tok})
    return r


@pytest.fixture
def host(client):
    """A client logged in as the host; ``host.csrf`` is its token."""
    r = login(client)
    assert r.status_code == 200, r.get_data(as_text=True)
    client.csrf = r.get_json()["csrf"]
    return client


def form_csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
