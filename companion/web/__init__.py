"""The score page: a Flask app that shows the table live and lets the host change the game.

    >>> from companion.web import create_app
    >>> app = create_app(config={"HOST_PIN": "123456", "TESTING": True})
    >>> app.test_client().get("/api/state").status_code
    200

Everyone on the LAN may read; anything that changes the game needs the host PIN, a session
cookie and a CSRF token (see ``auth``). Live updates go out as Server-Sent Events (``live``).
"""
from __future__ import annotations

import logging
import secrets
from typing import Any

from flask import Flask

from companion.paths import web_dir

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "HOST_PIN": None,               # None: a random 6-digit PIN, logged at start
    "SECRET_KEY": None,             # None: random per start (host logs in again after a restart)
    "CAMERA": None,                 # latest_jpeg(), latest_detections(); status(), subscribe(fn) if it can
    "VOICE": None,                  # companion.voice.Voice of the Pi's speaker: status(), set_muted(on)
    "VOICE_LANGUAGE": "en",         # the sentences phones speak, when there is no VOICE
    "PUBLIC_URL": None,             # the URL in the QR code; None: the Pi's LAN address
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_NAME": "companion_session",
    "MAX_CONTENT_LENGTH": 16 * 1024,
    "MAX_FORM_MEMORY_SIZE": 16 * 1024,
    "MAX_FORM_PARTS": 200,
    "PIN_MAX_FAILURES": 5,          # per client address, within PIN_WINDOW seconds
    "PIN_GLOBAL_FAILURES": 30,      # from all addresses together, within PIN_WINDOW
    "PIN_WINDOW": 60.0,
    "SSE_KEEPALIVE": 15.0,          # seconds between keepalive comments
    "SSE_RETRY_MS": 2000,           # what browsers wait before reconnecting
    "SSE_QUEUE": 256,               # updates buffered per client before it is dropped
    "SSE_MAX_CLIENTS": 64,          # open streams (each holds a server thread); serve() sets it
    "POLL_MS": 3000,                # the page's polling fallback
}


def create_app(table=None, *, config: dict | None = None) -> Flask:
    """Build the app around ``table`` (a ``companion.table.Table``; in-memory when None)."""
    web = web_dir()
    app = Flask(__name__, template_folder=str(web / "templates"), static_folder=str(web / "static"),
                static_url_path="/static")
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.update(config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    pin = app.config["HOST_PIN"]
    if pin is None or str(pin).strip() == "":
        app.config["HOST_PIN"] = f"{secrets.randbelow(10**6):06d}"
        log.warning("host PIN for the score page: %s (set HOST_PIN in the config to choose one)",
                    app.config["HOST_PIN"])
    else:
        app.config["HOST_PIN"] = str(pin).strip()
        if not 4 <= len(app.config["HOST_PIN"]) <= 32:
            raise ValueError("HOST_PIN: between 4 and 32 characters, please")

    if table is None:
        from companion.table import Table
        table = Table(None)

    from . import api, auth, camera, errors, live, views

    app.extensions["companion.table"] = table
    cam = app.config.get("CAMERA")
    has_status = callable(getattr(cam, "status", None))
    subscribe = getattr(cam, "subscribe", None)
    app.extensions["companion.live"] = live.Broadcaster(
        table, queue_size=int(app.config["SSE_QUEUE"]), spoken=_spoken_lines(app),
        camera=(lambda: camera.camera_status(cam)) if has_status else None,
        camera_subscribe=subscribe if has_status and callable(subscribe) else None)
    auth.init_app(app)
    errors.init_app(app)
    app.register_blueprint(views.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(camera.bp)
    return app


def _spoken_lines(app: Flask):
    """What phones with "speak the calls" on say for each input: the Pi voice's sentences."""
    voice = app.config.get("VOICE")
    if voice is not None:
        return voice.sentences.line
    try:
        from companion.voice.sentences import Sentences
        return Sentences.load(app.config.get("VOICE_LANGUAGE") or "en").line
    except (ImportError, ValueError) as exc:
        log.warning("phones cannot speak the calls: %s", exc)
        return None


def table_of(app: Flask):
    """The game hub an app was built around."""
    return app.extensions["companion.table"]
