"""Who may change the game: the host, after entering the PIN.

Reading is open to the LAN. A state-changing request (any POST) needs the session's CSRF token
(form field ``csrf_token`` or header ``X-CSRF-Token``), and host actions also need a session
that logged in with the current PIN. Failed PIN attempts are rate-limited per address and
overall.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import threading
import time
from collections import deque

from flask import (Blueprint, abort, current_app, flash, jsonify, redirect, render_template,
                   request, session, url_for)

bp = Blueprint("auth", __name__)

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class PinLimiter:
    """Counts failed PIN attempts in a sliding window, per address and from everyone."""

    def __init__(self, per_client: int = 5, overall: int = 30, window: float = 60.0,
                 clock=time.monotonic):
        self.per_client, self.overall, self.window, self.clock = per_client, overall, window, clock
        self._fails: dict[str, deque] = {}
        self._all: deque = deque()
        self._lock = threading.Lock()

    def _trim(self, q: deque, now: float) -> None:
        while q and q[0] <= now - self.window:
            q.popleft()

    def retry_after(self, client: str) -> float:
        """Seconds to wait before ``client`` may try again (0: may try now)."""
        now = self.clock()
        with self._lock:
            waits = []
            q = self._fails.get(client)
            if q is not None:
                self._trim(q, now)
                if len(q) >= self.per_client:
                    waits.append(q[0] + self.window - now)
            self._trim(self._all, now)
            if len(self._all) >= self.overall:
                waits.append(self._all[0] + self.window - now)
            return max(waits, default=0.0)

    def failed(self, client: str) -> None:
        now = self.clock()
        with self._lock:
            if len(self._fails) > 10_000:  # a flood of addresses: forget the oldest
                self._fails.clear()
            self._fails.setdefault(client, deque()).append(now)
            self._all.append(now)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._fails.pop(client, None)


def init_app(app) -> None:
    protect(app)
    app.register_blueprint(bp)


def protect(app) -> None:
    """The PIN limiter and the CSRF check on every POST, for any of our apps (the club's too)."""
    app.extensions["companion.pins"] = PinLimiter(
        int(app.config.get("PIN_MAX_FAILURES", 5)), int(app.config.get("PIN_GLOBAL_FAILURES", 30)),
        float(app.config.get("PIN_WINDOW", 60.0)))
    app.before_request(_check_csrf)
    app.jinja_env.globals.update(csrf_token=csrf_token, is_host=is_host)


def csrf_token() -> str:
    """This session's CSRF token (created on first use)."""
    tok = session.get("csrf")
    if not isinstance(tok, str) or len(tok) < 20:
        tok = session["csrf"] = secrets.token_urlsafe(32)
    return tok


def _check_csrf():
    if request.method in SAFE_METHODS:
        return None
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    tok = session.get("csrf")
    if not isinstance(tok, str) or not hmac.compare_digest(sent.encode("utf-8", "replace"), tok.encode()):
        abort(403, description="The form's security token is missing or out of date: "
                               "reload the page and try again.")
    return None


def _pin_id(pin: str) -> str:
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else bytes(key)
    return hmac.new(key, pin.encode(), hashlib.sha256).hexdigest()[:32]


def is_host() -> bool:
    """True when this session logged in with the PIN in force."""
    got = session.get("host")
    return isinstance(got, str) and hmac.compare_digest(got, _pin_id(current_app.config["HOST_PIN"]))


def wants_json() -> bool:
    return (request.path.startswith("/api/") or request.is_json
            or request.accept_mimetypes.best == "application/json")


def host_required(view):
    """Only the host: others get 401 (JSON) or the login page."""
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if not is_host():
            if wants_json():
                abort(401, description="Only the host can do this: log in with the host PIN.")
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapped


def _client() -> str:
    return request.remote_addr or "?"


def try_pin(pin) -> tuple[bool, str, int]:
    """Check a PIN attempt: (ok, message, HTTP status)."""
    limiter: PinLimiter = current_app.extensions["companion.pins"]
    wait = limiter.retry_after(_client())
    if wait > 0:
        return False, f"Too many wrong PINs: wait {int(wait) + 1} seconds and try again.", 429
    if not isinstance(pin, str) or not 1 <= len(pin) <= 64:
        limiter.failed(_client())
        return False, "Wrong PIN.", 403
    if not hmac.compare_digest(_pin_id(pin.strip()), _pin_id(current_app.config["HOST_PIN"])):
        limiter.failed(_client())
        return False, "Wrong PIN.", 403
    limiter.succeeded(_client())
    csrf = secrets.token_urlsafe(32)   # a fresh session on login
    session.clear()
    session["csrf"] = csrf
    session["host"] = _pin_id(current_app.config["HOST_PIN"])
    return True, "Logged in as the host.", 200


def safe_next(target: str | None) -> str:
    """Only local paths: never send the browser elsewhere after login."""
    if (isinstance(target, str) and target.startswith("/") and not target.startswith("//")
            and "\\" not in target and len(target) <= 200 and target.isprintable()):
        return target
    return url_for("views.table")


@bp.route("/login", methods=["GET", "POST"])
def login():
    nxt = safe_next(request.values.get("next"))
    if request.method == "GET":
        return render_template("login.html", next=nxt)
    ok, message, status = try_pin(request.form.get("pin", ""))
    if ok:
        flash(message)
        return redirect(nxt, code=303)
    return render_template("login.html", next=nxt, error=message), status


@bp.post("/logout")
def logout():
    session.pop("host", None)
    flash("Logged out.")
    return redirect(url_for("views.table"), code=303)


@bp.post("/api/login")
def api_login():
    data = request.get_json(silent=True)
    pin = data.get("pin") if isinstance(data, dict) else None
    ok, message, status = try_pin(pin)
    if not ok:
        return jsonify(error="login", message=message), status
    return jsonify(host=True, csrf=session["csrf"], message=message)


@bp.post("/api/logout")
def api_logout():
    session.pop("host", None)
    return jsonify(host=False)


@bp.get("/api/session")
def api_session():
    """The CSRF token a script needs for POSTs, and whether it is the host."""
    return jsonify(host=is_host(), csrf=csrf_token())
