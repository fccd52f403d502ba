"""The JSON API: read the table (anyone), change it (the host; see ``auth``)."""
from __future__ import annotations

import logging

from flask import Blueprint, current_app, jsonify, request

from . import inputs
from .auth import host_required
from .errors import BadInput
from .live import RECENT

log = logging.getLogger(__name__)

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_HISTORY = 5000


def table():
    return current_app.extensions["companion.table"]


def snapshot(recent: int | None = RECENT) -> dict:
    """The table's snapshot as phones get it (``recent``: the last N announcements and pile
    cards; None: all), with ``camera``, the camera's status, when the table has a camera."""
    return current_app.extensions["companion.live"].snapshot(recent)


def scores_of(snap: dict) -> dict:
    """The scores part of a snapshot: totals, target, round history, winner."""
    return {k: snap.get(k) for k in ("players", "scores", "target_score", "round", "rounds",
                                     "round_winner", "game_winner", "seq")}


def submit(event: dict, *, source: str = "page") -> list[dict]:
    """Hand a checked input to the table; the referee's refusal becomes a 400."""
    try:
        return table().submit(event, source=source)
    except ValueError as exc:  # companion.referee.InputError and friends
        raise BadInput(str(exc)) from None


def new_game(setup: dict) -> None:
    try:
        table().new_game(setup)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def _json_body() -> object:
    data = request.get_json(silent=True)
    if data is None:
        raise BadInput("send a JSON body (Content-Type: application/json)")
    return data


@bp.get("/state")
def state():
    """The whole table: whose turn, top card, colour, hand sizes, scores, what the referee awaits,
    whether the game is ``paused`` and the ``camera``'s status and open question.

    ``?recent=N`` keeps only the last N announcements and pile cards.
    """
    recent = request.args.get("recent", "")
    return jsonify(snapshot(inputs.integer(recent, "recent", 0, 10_000) if recent else None))


@bp.get("/scores")
def scores():
    return jsonify(scores_of(table().snapshot()))


@bp.get("/history")
def history():
    """Every input of this game in order (``?since=SEQ`` for the newer ones only)."""
    since = request.args.get("since", "")
    since = inputs.integer(since, "since", 0, 10**9) if since else None
    rows = table().history()
    if since is not None:
        rows = [r for r in rows if isinstance(r, dict) and (r.get("seq") or 0) > since]
    return jsonify(history=rows[-MAX_HISTORY:])


@bp.post("/input")
@host_required
def post_input():
    """One referee input from the host, e.g. {"play": "red 7"} or {"undo": true}."""
    event = inputs.table_input(_json_body())
    announcements = submit(event, source="page")
    return jsonify(accepted=event, announcements=announcements, state=snapshot())


@bp.post("/setup")
@host_required
def post_setup():
    """Start a new game: {"players": [...], "dealer": ..., "deck": ..., "rules": {...}}."""
    setup = inputs.setup(_json_body())
    new_game(setup)
    return jsonify(setup=setup, state=snapshot())
