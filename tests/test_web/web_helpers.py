"""Helpers of the score page tests (a module of its own name, so it never clashes with
another directory's conftest)."""
from __future__ import annotations

import json
import re
import shutil

from companion.table import Table

PIN = "246810"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
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


def parse(chunk: bytes) -> tuple[str | None, dict | None]:
    """One Server-Sent Event: its name and its JSON data."""
    event = data = None
    for line in chunk.decode().splitlines():
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
    return event, data


def form_csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


class FakeCamera:
    """What `companion.run.Preview` offers the page."""

    def __init__(self):
        self.state = {"state": "ok", "error": "", "retry_in": 0.0, "question": None, "fps": 15.0}
        self.listeners = []
        self.dismissed = 0

    def latest_jpeg(self):
        return None

    def latest_detections(self):
        return []

    def status(self):
        return dict(self.state)

    def subscribe(self, fn):
        self.listeners.append(fn)
        return lambda: self.listeners.remove(fn)

    def change(self, **kw):
        self.state.update(kw)
        for fn in list(self.listeners):
            fn()

    def dismiss_question(self):
        had = self.state["question"] is not None
        self.state["question"] = None
        self.dismissed += 1
        return had
