"""The camera page (host only): a live preview with the recogniser's boxes, for aiming and focus.

The camera is anything with ``latest_jpeg() -> bytes | None`` and ``latest_detections() -> list``
given as ``config["CAMERA"]``; optionally ``status() -> dict`` (its health and open question,
shown on the Table and Fix pages), ``subscribe(fn)`` (called when the status changes) and
``dismiss_question()``, as ``companion.run.Preview`` has. The JPEG is served as is (no decoding on the Pi); the boxes come
as JSON and the page draws them over the picture as SVG.
"""
from __future__ import annotations

import logging
import time

from flask import Blueprint, Response, abort, current_app, jsonify, render_template

from .auth import host_required

log = logging.getLogger(__name__)

bp = Blueprint("camera", __name__)

MJPEG_SECONDS = 300      # a stream ends by itself; the page reopens it
MJPEG_INTERVAL = 0.2


def camera():
    return current_app.config.get("CAMERA")


def _jpeg(cam) -> bytes | None:
    if cam is None:
        return None
    try:
        data = cam.latest_jpeg()
    except Exception:
        log.warning("camera: latest_jpeg failed", exc_info=True)
        return None
    return bytes(data) if data else None


def _field(d, *names):
    for n in names:
        v = d.get(n) if isinstance(d, dict) else getattr(d, n, None)
        if v is not None:
            return v
    return None


def detection_json(d) -> dict | None:
    """A detection (dict or object: box/bbox/xyxy, label/card, score) as plain JSON."""
    box = _field(d, "box", "bbox", "xyxy")
    try:
        x1, y1, x2, y2 = (float(v) for v in list(box)[:4])
    except (TypeError, ValueError):
        return None
    label = _field(d, "label", "card", "name", "cls")
    score = _field(d, "score", "confidence", "conf")
    try:
        score = round(float(score), 3) if score is not None else None
    except (TypeError, ValueError):
        score = None
    return {"box": [x1, y1, x2, y2], "label": str(label)[:40] if label is not None else "",
            "score": score}


MAX_CANDIDATES = 6


def _seconds(v) -> float:
    try:
        return max(0.0, round(float(v), 1))
    except (TypeError, ValueError):
        return 0.0


def status_text(state: str, error: str, retry_in: float) -> str:
    """The banner for a camera state ("" when all is well or there is no camera)."""
    if state == "failed":
        what = f"Camera {error}" if error else "Camera failed"
        return f"{what} — retrying in {retry_in:g} s" if retry_in else f"{what} — retrying"
    return {"starting": "Camera starting…", "ended": "The camera's recording has ended.",
            "stopped": "Camera stopped."}.get(state, "")


def question_json(q) -> dict | None:
    """The camera's open question (``candidates``, ``reason``) with the words the page shows."""
    if not isinstance(q, dict):
        return None
    cands = [str(c)[:40] for c in list(q.get("candidates") or [])[:MAX_CANDIDATES]]
    reason = str(q.get("reason") or "")[:120]
    asked = str(q.get("text") or "")[:120]
    if asked and cands:          # the camera's own words ("Was another red 7 played?")
        text = f"{asked} Host: confirm it, or say no card was played."
    elif cands:
        text = f"Not sure of the card: {' or '.join(cands)}? Host: confirm it."
    else:
        text = f"A card landed but could not be read{' (' + reason + ')' if reason else ''}. Host: enter it."
    return {"candidates": cands, "reason": reason, "text": text}


def camera_status(cam) -> dict | None:
    """What the page shows of ``cam.status()``: ``state``, ``error``, ``retry_in``, ``text`` and
    the open ``question``; None without a camera object (``companion serve``)."""
    read = getattr(cam, "status", None)
    if not callable(read):
        return None
    try:
        raw = read() or {}
    except Exception:
        log.warning("camera: status failed", exc_info=True)
        raw = {"state": "failed", "error": "status unavailable"}
    state = str(raw.get("state") or "off")[:20]
    error = str(raw.get("error") or "")[:120]
    retry_in = _seconds(raw.get("retry_in"))
    return {"state": state, "error": error, "retry_in": retry_in,
            "text": status_text(state, error, retry_in), "question": question_json(raw.get("question"))}


def dismiss_question() -> bool:
    """Tell the camera its open question needs no answer; False when there was none."""
    fn = getattr(camera(), "dismiss_question", None)
    return bool(fn()) if callable(fn) else False


@bp.get("/camera")
@host_required
def page():
    return render_template("camera.html", page="camera", has_camera=camera() is not None)


@bp.get("/camera/frame.jpg")
@host_required
def frame():
    data = _jpeg(camera())
    if data is None:
        abort(404, description="No camera picture yet." if camera() else "No camera on this table.")
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera/detections")
@host_required
def detections():
    cam = camera()
    if cam is None:
        return jsonify(camera=False, detections=[])
    try:
        raw = list(cam.latest_detections() or [])
    except Exception:
        log.warning("camera: latest_detections failed", exc_info=True)
        raw = []
    out = [j for j in map(detection_json, raw[:100]) if j]
    return jsonify(camera=True, detections=out)


@bp.get("/camera/stream.mjpg")
@host_required
def stream():
    """Motion JPEG for browsers that show it in an <img>; ends after a few minutes."""
    cam = camera()      # taken now: the frames are sent after the request's context is gone
    if cam is None:
        abort(404, description="No camera on this table.")

    def frames():
        end = time.monotonic() + MJPEG_SECONDS
        last = None
        while time.monotonic() < end:
            data = _jpeg(cam)
            if data is not None and data is not last:
                last = data
                yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                       + str(len(data)).encode() + b"\r\n\r\n" + data + b"\r\n")
            time.sleep(MJPEG_INTERVAL)

    return Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-store"})
