"""Fixtures of the score page tests: an app around a table with a game set up, and clients."""
from __future__ import annotations

import re
import threading

import pytest

from companion.web import create_app

PIN = "246810"
SETUP = {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat", "deck": "classic"}


class FakeTable:
    """Just enough of companion.table.Table, used only while the real one is missing."""

    def __init__(self, db_path=None, *, setup=None):
        self._lock = threading.RLock()
        self._subs = []
        self._log = []
        self._state = self._fresh(setup)

    @staticmethod
    def _fresh(setup):
        players = list((setup or {}).get("players", []))
        return {"current": players[0] if players else None, "direction": 1, "top": None,
                "color": None, "hand_counts": {p: 7 for p in players},
                "scores": {p: 0 for p in players}, "round_winner": None, "game_winner": None,
                "awaiting": {"input": "start", "player": None, "options": [],
                             "prompt": "turn up the first card"} if players else None,
                "announcements": [], "players": players, "dealer": (setup or {}).get("dealer"),
                "deck": (setup or {}).get("deck", "classic"), "rules": {}, "round": 1,
                "rounds": [], "uno": [], "pending_draw": 0, "target_score": 500, "seq": 0}

    def snapshot(self):
        with self._lock:
            import copy
            return copy.deepcopy(self._state)

    def subscribe(self, fn):
        self._subs.append(fn)
        return lambda: self._subs.remove(fn) if fn in self._subs else None

    def history(self):
        return list(self._log)

    def new_game(self, setup):
        with self._lock:
            self._state = self._fresh(setup)
            self._log = []

    def submit(self, event, *, source="api"):
        from companion.cards import Card
        with self._lock:
            s = self._state
            if not isinstance(event, dict) or not event:
                raise ValueError("empty input")
            for k in ("uno", "catch"):
                if k in event and event[k] not in s["players"]:
                    raise ValueError(f"{event[k]} is not playing")
            if "play" in event or "start" in event:
                card = Card.parse(event.get("play") or event.get("start"))
                s["top"], s["color"] = str(card), event.get("color") or card.color
                text = f"{s['current']} plays {card}"
                if "play" in event:
                    s["hand_counts"][s["current"]] -= 1
                    i = s["players"].index(s["current"])
                    s["current"] = s["players"][(i + 1) % len(s["players"])]
            elif "undo" in event:
                text = "undone"
            elif "points" in event:
                s["scores"][event["points"]["player"]] += event["points"]["points"]
                s["rounds"].append({"winner": event["points"]["player"],
                                    "points": event["points"]["points"], "penalties": []})
                text = "points"
            else:
                text = f"{next(iter(event))}"
            s["seq"] += 1
            ann = [{"type": "info", "text": text}]
            s["announcements"] = (s["announcements"] + ann)[-20:]
            self._log.append({"seq": s["seq"], "event": event, "source": source})
            update = {"seq": s["seq"], "event": event, "source": source, "announcements": ann,
                      "state": self.snapshot()}
        for fn in list(self._subs):
            fn(update)
        return ann


def make_table():
    try:
        from companion.table import Table
    except ImportError:
        Table = FakeTable
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
