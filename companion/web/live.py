"""Live updates as Server-Sent Events: a full snapshot on connect, then every accepted input
(``update``, with ``spoken``: the line a phone says aloud when its "speak the calls" switch is
on; a snapshot for phones carries the recent ones as ``spoken``: ``[[seq, line], ...]``) and every change of the camera's status or open question (``camera``).

One ``Broadcaster`` per app subscribes to the table once and copies each update, already
encoded, into a small queue per open connection; a phone that stops reading is dropped (its
browser reconnects and gets a fresh snapshot). Keepalive comments keep proxies and waitress
from closing quiet connections, and ``retry:`` tells the browser how soon to reconnect.
"""
from __future__ import annotations

import collections
import json
import logging
import queue
import threading
import time
from collections.abc import Callable

from flask import Blueprint, Response, abort, current_app, stream_with_context

log = logging.getLogger(__name__)

bp = Blueprint("live", __name__)

CLOSE = object()      # what a connection's queue gets when it must end


def encode(event: str, data: dict, *, seq=None) -> bytes:
    """One SSE message; ``data`` as a single JSON line."""
    head = f"id: {seq}\n" if seq is not None else ""
    body = json.dumps(data, separators=(",", ":"), default=str)
    return f"{head}event: {event}\ndata: {body}\n\n".encode()


RECENT = 20


def trim(snap: dict, recent: int = RECENT) -> dict:
    """A snapshot with only the last ``recent`` announcements and pile cards (the referee keeps
    the whole game's; phones need the latest)."""
    out = dict(snap)
    for key in ("announcements", "pile"):
        if isinstance(out.get(key), list) and len(out[key]) > recent:
            out[key] = out[key][-recent:]
    return out


class Fanout:
    """Encoded messages copied into a small queue per open connection; a reader that falls
    ``queue_size`` messages behind is dropped (its browser reconnects and starts afresh)."""

    def __init__(self, queue_size: int = 256):
        self.queue_size = queue_size
        self._clients: set[queue.Queue] = set()
        self._lock = threading.Lock()

    def connect(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(self.queue_size)
        with self._lock:
            self._clients.add(q)
        return q

    def disconnect(self, q: queue.Queue) -> None:
        with self._lock:
            self._clients.discard(q)

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def send(self, data: bytes) -> None:
        with self._lock:
            clients = list(self._clients)
        for q in clients:
            try:
                q.put_nowait(data)
            except queue.Full:
                self.drop(q)

    def drop(self, q: queue.Queue) -> None:
        self.disconnect(q)
        try:
            while True:
                q.get_nowait()
        except queue.Empty:
            pass
        q.put_nowait(CLOSE)

    def close(self) -> None:
        """End every connection: each reader gets `CLOSE`."""
        with self._lock:
            clients, self._clients = list(self._clients), set()
        for q in clients:
            try:
                q.put_nowait(CLOSE)
            except queue.Full:
                self.drop(q)


class Broadcaster:
    """Fans the table's updates out to every open live connection."""

    def __init__(self, table, *, queue_size: int = 256, camera: Callable[[], dict | None] | None = None,
                 camera_subscribe: Callable[[Callable[[], None]], Callable[[], None]] | None = None,
                 spoken: Callable[[list], object] | None = None):
        self.table = table
        self.spoken = spoken            # announcements -> the line said aloud (voice.Sentences.line)
        self._said: collections.deque = collections.deque(maxlen=RECENT)   # [seq, line] of recent inputs
        self.queue_size = queue_size
        self.camera = camera            # the camera's status for the page (None: no camera)
        self._camera_sent: dict | None = None
        self.fanout = Fanout(queue_size)
        self._lock = threading.Lock()
        self.closed = False
        self._unsubscribe = table.subscribe(self._on_update)
        self._unsubscribe_camera = camera_subscribe(self.camera_changed) if camera_subscribe else None

    def snapshot(self, recent: int | None = RECENT) -> dict:
        """The table's snapshot for phones (``recent``: see `trim`; None: all of it), with the
        camera's status as ``camera`` when there is a camera."""
        snap = self.table.snapshot()
        if recent is not None:
            snap = trim(snap, recent)
            with self._lock:
                snap["spoken"] = [list(x) for x in self._said][-recent:] if recent else []
        if self.camera is not None:
            snap["camera"] = self.camera()
        return snap

    def camera_changed(self) -> None:
        """Send a ``camera`` event to every phone if the camera's status really changed."""
        if self.camera is None:
            return
        status = self.camera()
        with self._lock:
            if status == self._camera_sent:
                return
            self._camera_sent = status
        self.fanout.send(encode("camera", status or {}))

    def _on_update(self, update: dict) -> None:
        # Called by the table after every accepted input: stamp, encode once, hand out.
        msg = dict(update)
        if isinstance(msg.get("state"), dict):
            msg["state"] = trim(msg["state"])
        msg["at"] = time.time()
        if self.spoken is not None:
            try:
                line = self.spoken(update.get("announcements") or [])
            except Exception:
                log.exception("live: cannot word the announcements")
                line = None
            if line is not None:
                msg["spoken"] = line.text
                with self._lock:
                    self._said.append((update.get("seq"), line.text))
        try:
            data = encode("update", msg, seq=update.get("seq"))
        except (TypeError, ValueError):
            log.exception("live: cannot encode an update")
            return
        self.fanout.send(data)

    def connect(self) -> queue.Queue:
        return self.fanout.connect()

    def disconnect(self, q: queue.Queue) -> None:
        self.fanout.disconnect(q)

    @property
    def clients(self) -> int:
        return self.fanout.clients

    def close(self) -> None:
        """End every live connection (on shutdown) and stop listening to the table."""
        self.closed = True
        for unsubscribe in (self._unsubscribe, self._unsubscribe_camera):
            try:
                if unsubscribe is not None:
                    unsubscribe()
            except Exception:
                log.debug("live: unsubscribe failed", exc_info=True)
        self.fanout.close()

    def stream(self, *, keepalive: float = 15.0, retry_ms: int = 2000, limit: float | None = None):
        """The bytes of one connection: retry, snapshot, then updates and keepalives."""
        q = self.connect()  # before the snapshot, so nothing falls between the two
        try:
            snap = self.snapshot()
            yield f"retry: {int(retry_ms)}\n".encode() + encode("snapshot", snap, seq=snap.get("seq"))
            seen = snap.get("seq")
            end = None if limit is None else time.monotonic() + limit
            while not self.closed:
                timeout = keepalive if end is None else min(keepalive, end - time.monotonic())
                if timeout <= 0:
                    return
                try:
                    item = q.get(timeout=timeout)
                except queue.Empty:
                    yield b": keepalive\n\n"
                    continue
                if item is CLOSE:
                    return
                seq = _seq_of(item)       # None for a camera event: it never ends the check
                if seen is not None and seq is not None:
                    if seq <= seen:
                        continue  # already in the snapshot
                    seen = None
                yield item
        finally:
            self.disconnect(q)


def _seq_of(data: bytes):
    if data.startswith(b"id: "):
        try:
            return int(data[4:data.index(b"\n")])
        except ValueError:
            return None
    return None


@bp.get("/events")
def events():
    """The live feed: ``snapshot`` on connect, then ``update`` per accepted input."""
    b: Broadcaster = current_app.extensions["companion.live"]
    cfg = current_app.config
    if b.clients >= int(cfg["SSE_MAX_CLIENTS"]):
        # Each stream holds a server thread; past the cap the page polls /api/state instead.
        abort(429, description="Too many live pages open: this one will refresh every few seconds.")
    gen = b.stream(keepalive=float(cfg["SSE_KEEPALIVE"]), retry_ms=int(cfg["SSE_RETRY_MS"]),
                   limit=cfg.get("SSE_LIMIT"))
    return Response(stream_with_context(gen), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no"})
