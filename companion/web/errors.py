"""Errors as a clear 4xx message, JSON for the API and HTML for pages; never a traceback."""
from __future__ import annotations

import logging

from flask import jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

log = logging.getLogger(__name__)


class BadInput(ValueError):
    """An input the page or the API refuses, with a message for the person who sent it."""


def _respond(status: int, name: str, message: str):
    from .auth import wants_json
    if wants_json():
        resp = jsonify(error=name, message=message)
    else:
        resp = render_template("error.html", status=status, name=name, message=message)
    return resp, status


def init_app(app) -> None:
    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        resp, status = _respond(exc.code or 500, exc.name, exc.description or exc.name)
        if exc.code == 429 and getattr(exc, "retry_after", None):
            return resp, status, {"Retry-After": str(exc.retry_after)}
        if exc.code == 405 and exc.valid_methods:
            return resp, status, {"Allow": ", ".join(exc.valid_methods)}
        return resp, status

    @app.errorhandler(BadInput)
    def bad_input(exc: BadInput):
        return _respond(400, "Bad Request", str(exc))

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("score page: unexpected error on %s %s", request.method, request.path)
        e = InternalServerError()
        return _respond(500, e.name, "Something went wrong on the table's side; it is in the log.")
