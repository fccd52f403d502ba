"""Server-Sent Events: a snapshot on connect, then updates, keepalives, and slow clients dropped."""
import json
import threading

from web_helpers import parse

from companion.web.live import Broadcaster


def test_snapshot_then_updates(table):
    b = Broadcaster(table)
    gen = b.stream(keepalive=0.05, retry_ms=1500)
    first = next(gen)
    assert first.startswith(b"retry: 1500\n")
    event, snap = parse(first)
    assert event == "snapshot" and snap["players"] == ["Ann", "Ben", "Cat"]
    table.submit({"start": "red 7"})
    event, upd = parse(next(gen))
    assert event == "update"
    assert upd["state"]["top"] == "red 7" and upd["announcements"] is not None
    assert upd["seq"] == upd["state"]["seq"] and isinstance(upd["at"], float)
    assert next(gen) == b": keepalive\n\n"
    gen.close()
    assert b.clients == 0


def test_slow_client_is_dropped(table):
    b = Broadcaster(table, queue_size=2)
    gen = b.stream(keepalive=5)
    next(gen)
    for card in ("red 7", "red 8", "red 9", "red 1"):
        table.submit({"start": card} if card == "red 7" else {"play": card})
    assert b.clients == 0          # dropped at once, so the table never waits on it
    rest = list(gen)               # it ends; the browser reconnects for a fresh snapshot
    assert len(rest) <= 2


def test_close_ends_every_stream(table):
    b = Broadcaster(table)
    gens = [b.stream(keepalive=5) for _ in range(3)]
    for g in gens:
        next(g)
    done = []

    def drain(g):
        done.append(list(g))

    threads = [threading.Thread(target=drain, args=(g,)) for g in gens]
    for t in threads:
        t.start()
    b.close()
    for t in threads:
        t.join(2)
    assert len(done) == 3 and b.clients == 0


def test_events_endpoint(app, table):
    app.config["SSE_LIMIT"] = 0.3   # end the stream by itself for the test client
    c = app.test_client()
    r = c.get("/events", buffered=False)
    assert r.mimetype == "text/event-stream"
    assert "no-cache" in r.headers["Cache-Control"]
    chunks = iter(r.response)
    event, snap = parse(next(chunks))
    assert event == "snapshot" and "players" in snap
    table.submit({"start": "yellow 2"})
    event, upd = parse(next(chunks))
    assert event == "update" and upd["state"]["top"] == "yellow 2"
    r.close()


def test_too_many_streams_is_429(app, table):
    app.config["SSE_MAX_CLIENTS"] = 1
    b = app.extensions["companion.live"]
    held = b.stream(keepalive=5)
    next(held)                      # one stream open
    r = app.test_client().get("/events")
    assert r.status_code == 429
    assert "refresh" in r.get_json()["message"] if r.is_json else b"refresh" in r.data
    held.close()
