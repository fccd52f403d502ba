"""waitress in a background thread: the page, the live feed over a real socket, a clean stop."""
import argparse
import http.client
import json
import time
import urllib.request

from web_helpers import PIN

from companion.web import create_app
from companion.web.serve import add_arguments, start


def test_server_in_background(table):
    app = create_app(table, config={"HOST_PIN": PIN, "SSE_KEEPALIVE": 0.5})
    server = start(app, host="127.0.0.1", port=0, threads=8, show_qr=False)
    try:
        assert server.url == f"http://127.0.0.1:{server.port}/"
        with urllib.request.urlopen(server.local_url + "api/state", timeout=5) as r:
            assert json.load(r)["players"] == ["Ann", "Ben", "Cat"]
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/events")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
        assert resp.readline().startswith(b"retry:")
        events = []
        t0 = None
        while len(events) < 2:
            line = resp.readline()
            if line.startswith(b"event: "):
                events.append(line[7:].strip().decode())
                if events == ["snapshot"]:
                    t0 = time.monotonic()
                    table.submit({"start": "green 1"})
        assert events == ["snapshot", "update"]
        assert time.monotonic() - t0 < 1.0        # no buffering between the table and the phone
    finally:
        server.stop()
    assert app.extensions["companion.live"].clients == 0


def test_serve_arguments():
    p = argparse.ArgumentParser()
    add_arguments(p)
    a = p.parse_args(["--db", "x.db", "--port", "9000"])
    assert (a.db, a.port, a.host, a.threads) == ("x.db", 9000, "0.0.0.0", 96)
