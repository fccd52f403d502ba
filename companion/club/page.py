"""The club's page: every table live, the standings and each finished game, for any phone.

It reads freely; what changes anything (starting or stopping a tournament) needs the host PIN
and the session's CSRF token, as on the table page. Live as the table page is: Server-Sent
Events (``/events``: the whole club at most every ``PUSH_EVERY`` seconds while it changes),
and ``/api/club`` for phones that poll (``ETag``: an unchanged club costs a 304)."""
from __future__ import annotations

import json
import logging
import queue
import secrets
import threading
import time

from flask import (Blueprint, Flask, Response, abort, current_app, flash, redirect, render_template, request,
                   url_for)

from companion.paths import web_dir
from companion.web import auth
from companion.web.live import CLOSE, Fanout, encode

from .tournament import TournamentError

log = logging.getLogger(__name__)

PUSH_EVERY = 0.25          # seconds: changes within this are sent as one
MAX_STREAMS = 64           # open live pages (each holds a server thread); more poll instead

bp = Blueprint("club", __name__)


class ClubFeed:
    """The hub's snapshot, encoded once per change and fanned out to every open page."""

    def __init__(self, hub, *, every: float = PUSH_EVERY):
        self.hub, self.every = hub, every
        self.version = 0
        self._body = b""
        self.fanout = Fanout(16)
        self._lock = threading.Lock()
        self._dirty = threading.Event()
        self._closed = threading.Event()
        self._refresh()
        hub.subscribe(self._dirty.set)
        threading.Thread(target=self._loop, name="club-feed", daemon=True).start()

    def _refresh(self) -> None:
        snap = self.hub.snapshot()
        with self._lock:
            self.version += 1
            snap["version"] = self.version
            self._body = json.dumps(snap, separators=(",", ":"), default=str).encode()

    def body(self) -> tuple[bytes, int]:
        with self._lock:
            return self._body, self.version

    def _loop(self) -> None:
        while not self._closed.is_set():
            if not self._dirty.wait(1.0):
                continue
            self._dirty.clear()
            self._refresh()
            body, version = self.body()
            self.fanout.send(f"id: {version}\nevent: club\ndata: ".encode() + body + b"\n\n")
            time.sleep(self.every)

    def stream(self, keepalive: float = 15.0):
        if self.fanout.clients >= MAX_STREAMS:
            abort(429)
        q = self.fanout.connect()
        try:
            body, version = self.body()
            yield b"retry: 2000\n" + encode("club", json.loads(body), seq=version)
            while not self._closed.is_set():
                try:
                    item = q.get(timeout=keepalive)
                except queue.Empty:
                    yield b": keepalive\n\n"
                    continue
                if item is CLOSE:
                    return
                yield item
        finally:
            self.fanout.disconnect(q)

    def close(self) -> None:
        self._closed.set()
        self.fanout.close()


def feed() -> ClubFeed:
    return current_app.extensions["companion.club"]


@bp.get("/")
def page(error: str | None = None, status: int = 200):
    snap = json.loads(feed().body()[0])
    return render_template("club.html", club=snap, error=error), status


@bp.post("/host")
def host():
    ok, message, status = auth.try_pin(request.form.get("pin", ""))
    if not ok:
        return page(message, status)
    flash(message)
    return redirect(url_for("club.page"), code=303)


@bp.post("/tournament")
def tournament():
    if not auth.is_host():
        return page("Only the host can do this: log in with the host PIN.", 401)
    hub = feed().hub
    if request.form.get("action") == "stop":
        hub.stop_tournament()
        flash("Tournament stopped: the tables play on as they like.")
        return redirect(url_for("club.page"), code=303)
    names = lambda key: [x.strip() for x in request.form.get(key, "").replace("\n", ",").split(",") if x.strip()]  # noqa: E731
    try:
        view = hub.start_tournament(request.form.get("kind", ""), names("players"), names("tables"))
    except TournamentError as exc:
        return page(str(exc), 400)
    flash(f"Tournament started: set 1 of {view['sets']} seated.")
    return redirect(url_for("club.page"), code=303)


@bp.get("/api/club")
def api():
    body, version = feed().body()
    tag = f'"{version}"'
    if request.headers.get("If-None-Match") == tag:
        return Response(status=304, headers={"ETag": tag})
    return Response(body, mimetype="application/json", headers={"ETag": tag, "Cache-Control": "no-cache"})


@bp.get("/events")
def events():
    gen = feed().stream()
    first = next(gen)           # a 429 here when too many pages are open: they poll instead
    def chain():
        yield first
        yield from gen
    return Response(chain(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def create_club_app(hub, *, pin: str | None = None, testing: bool = False) -> Flask:
    """The club page around ``hub``; ``pin``: the host PIN (None: a random one, logged)."""
    web = web_dir()
    app = Flask(__name__, template_folder=str(web / "templates"), static_folder=str(web / "static"),
                static_url_path="/static")
    if not pin:
        pin = f"{secrets.randbelow(10**6):06d}"
        log.warning("host PIN for the club page: %s (--pin to choose one)", pin)
    app.config.update(HOST_PIN=str(pin), SECRET_KEY=secrets.token_hex(32), TESTING=testing,
                      SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
                      SESSION_COOKIE_NAME="companion_club", MAX_CONTENT_LENGTH=16 * 1024)
    auth.protect(app)
    app.extensions["companion.club"] = ClubFeed(hub)
    app.register_blueprint(bp)
    return app
