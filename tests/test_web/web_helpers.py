"""Helpers of the score page tests (a module of its own name, so it never clashes with
another directory's conftest)."""
from __future__ import annotations

import re

from companion.table import Table

PIN = "246810"
SETUP = {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat", "deck": "classic"}


def make_table() -> Table:
    t = Table(None)
    t.new_game(dict(SETUP))
    return t


def csrf_of(client) -> str:
    return client.get("/api/session").get_json()["csrf"]


def login(client, pin=PIN):
    tok = csrf_of(client)
    return client.post("/api/login", json={"pin": pin}, headers={"X-CSRF-Token": tok})


def form_csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
