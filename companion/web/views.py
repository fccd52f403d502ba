"""The pages: table and scores for everyone; setup and corrections for the host.

Every page renders complete on the server (it works without JavaScript); ``static/app.js``
then keeps it live from the event stream.
"""
from __future__ import annotations

from flask import (Blueprint, Response, current_app, flash, redirect, render_template, request,
                   url_for)
from markupsafe import Markup

from companion import cards

from . import camera, chart, inputs, qr
from .api import new_game, scores_of, snapshot, submit, table
from .auth import host_required
from .errors import BadInput

bp = Blueprint("views", __name__)

CORRECTIONS = ("undo", "fix", "start", "play", "color", "draw", "pass", "uno", "catch",
               "challenge", "accept", "verdict", "points", "new_round", "pause", "resume", "dismiss",
               "voice")


def page_url() -> str:
    url = current_app.config.get("PUBLIC_URL")
    if url:
        return url
    host = request.host
    port = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else "80"
    return qr.page_url(int(port) if port.isdigit() else 80)


def _common(**extra) -> dict:
    snap = snapshot()
    voice = current_app.config.get("VOICE")
    return {"snap": snap, "colors": cards.all_colors(), "poll_ms": current_app.config["POLL_MS"],
            "voice": voice.status() if voice is not None else None,
            "voice_lang": voice.sentences.language if voice is not None else current_app.config.get("VOICE_LANGUAGE"),
            **extra}


@bp.get("/", endpoint="table")
def table_page():
    return render_template("table.html", page="table", **_common())


@bp.get("/scores")
def scores():
    ctx = _common()
    s = scores_of(ctx["snap"])
    svg = chart.totals_chart(s.get("players") or [], s.get("rounds") or [],
                             target=s.get("target_score") or None)
    totals = chart.totals(s.get("players") or [], s.get("rounds") or [])
    return render_template("scores.html", page="scores", chart=Markup(svg), totals=totals, **ctx)


@bp.get("/chart.svg")
def chart_svg():
    s = scores_of(table().snapshot())
    svg = chart.totals_chart(s.get("players") or [], s.get("rounds") or [],
                             target=s.get("target_score") or None)
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})


@bp.get("/join")
def join():
    """The QR code to open this page on a phone."""
    url = page_url()
    return render_template("join.html", page="join", url=url, qr=Markup(qr.qr_svg(url, scale=6)))


@bp.get("/qr.svg")
def qr_image():
    return Response(qr.qr_svg(page_url(), scale=6), mimetype="image/svg+xml")


def _setup_from_form(form) -> dict:
    players = [line for line in form.get("players", "").splitlines() if line.strip()]
    rules: dict = {}
    for opt in inputs.rule_options():
        key = opt["name"]
        if opt["kind"] == "bool":
            rules[key] = key in form
        elif form.get(key, "") != "":
            rules[key] = (inputs.integer(form[key], key, 0, inputs.MAX_POINTS) if opt["kind"] == "int"
                          else form[key])
    data = {"players": players, "dealer": form.get("dealer", ""), "deck": form.get("deck", ""),
            "rules": rules}
    for k in ("target_score", "episode"):
        if form.get(k, "") != "":
            data[k] = form[k]
    return data


@bp.route("/setup", methods=["GET", "POST"])
@host_required
def setup():
    decks = [cards.deck(n) for n in cards.deck_names()]
    opts = inputs.rule_options()
    if request.method == "POST":
        try:
            s = inputs.setup(_setup_from_form(request.form))
            new_game(s)
        except BadInput as exc:
            return render_template("setup.html", page="setup", decks=decks, options=opts,
                                   error=str(exc), form=request.form, **_common()), 400
        flash(f"New game: {', '.join(s['players'])}; {s['dealer']} deals.")
        return redirect(url_for("views.table"), code=303)
    return render_template("setup.html", page="setup", decks=decks, options=opts, form={},
                           **_common())


def correction_from_form(form) -> list[dict]:
    """The referee inputs one corrections-form button stands for."""
    action = form.get("action", "")
    if action not in CORRECTIONS:
        raise BadInput(f"unknown correction; one of {', '.join(CORRECTIONS)}")
    color = form.get("color", "").strip()
    if action in ("undo", "pass", "challenge", "accept", "new_round", "resume"):
        return [inputs.table_input({action: True})]
    if action == "pause":
        return [inputs.table_input({"pause": form.get("reason", "").strip() or True})]
    if action in ("dismiss", "voice"):
        return []           # no table input: the camera's question or the Pi's voice (see corrections)
    if action == "fix":
        return [{"undo": True}, _fixed(form.get("card", ""), color)]
    if action in ("play", "start"):
        ev = {action: form.get("card", "")}
        if color and action == "play":
            ev["color"] = color
        return [inputs.table_input(ev)]
    if action == "color":
        return [inputs.table_input({"color": color})]
    if action == "draw":
        return [inputs.table_input({"draw": form.get("count", "1") or "1"})]
    if action in ("uno", "catch"):
        return [inputs.table_input({action: form.get("player", "")})]
    if action == "verdict":
        return [inputs.table_input({"verdict": form.get("verdict", "")})]
    return [inputs.table_input({"points": {"player": form.get("player", ""),
                                           "points": form.get("points", "")}})]


def last_input() -> dict | None:
    """The last input that still counts (an undo takes one back)."""
    ref = getattr(table(), "referee", None)
    effective = getattr(ref, "inputs", None)
    if isinstance(effective, list):
        return effective[-1] if effective else None
    rows = [r.get("event") for r in table().history() if isinstance(r, dict)]
    return rows[-1] if rows else None


def _fixed(card_text: str, color: str) -> dict:
    """The last card input again, with the right card (and colour, if named)."""
    last = last_input()
    kind = next((k for k in ("play", "start") if isinstance(last, dict) and k in last), None)
    if kind is None:
        raise BadInput("the last input was not a card; use Undo instead")
    ev = dict(last)
    ev[kind] = card_text
    if color:
        ev["color"] = color
    elif kind == "play" and not inputs.card(card_text).startswith("wild"):
        ev.pop("color", None)
    return inputs.table_input(ev)


@bp.route("/corrections", methods=["GET", "POST"])
@host_required
def corrections():
    if request.method == "POST":
        if request.form.get("action") == "dismiss":
            closed = camera.dismiss_question()
            flash("Question closed: no card taken." if closed else "The camera asked nothing.")
            return redirect(url_for("views.corrections"), code=303)
        if request.form.get("action") == "voice":
            return _set_voice(request.form.get("muted", ""))
        done: list[dict] = []
        try:
            for ev in correction_from_form(request.form):
                said = submit(ev, source="page")
                done.append(ev)
                for a in said or []:
                    if isinstance(a, dict) and a.get("text"):
                        flash(str(a["text"]))
        except BadInput as exc:
            msg = str(exc)
            if done:
                msg = f"{msg} (already done: {', '.join(map(_describe, done))})"
            return render_template("corrections.html", page="corrections", error=msg,
                                   **_common()), 400
        flash("Done: " + ", ".join(map(_describe, done)))
        return redirect(url_for("views.corrections"), code=303)
    return render_template("corrections.html", page="corrections", **_common())


def _set_voice(muted: str):
    """The host mutes or unmutes the Pi's voice (not a game input: nothing is logged)."""
    voice = current_app.config.get("VOICE")
    if voice is None:
        return render_template("corrections.html", page="corrections", error="This table has no voice: "
                               "set [voice] enabled = true in its config", **_common()), 400
    if muted not in ("0", "1"):
        return render_template("corrections.html", page="corrections",
                               error="voice: muted must be 0 or 1", **_common()), 400
    now = voice.set_muted(muted == "1")
    flash("The Pi's voice is muted." if now else "The Pi's voice is on.")
    return redirect(url_for("views.corrections"), code=303)


def _describe(ev: dict) -> str:
    return " ".join(f"{k} {v}" if v is not True else k for k, v in ev.items())
