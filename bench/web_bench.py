"""Benchmark of the score page: 50 phones on loopback while a simulated game runs.

    .venv/bin/python bench/web_bench.py            # 60 s, 50 live clients, 20 polls/s

A child process serves the page (waitress, 96 threads) and plays a game as fast as a real table
would (a few inputs a second, --rate). This process holds --clients open event streams (one
selector thread) and polls the JSON API --polls times a second. Every update carries the server
time of its announcement; the latency is the time until each client has read it. It prints one
JSON line: errors, updates missed, p50/p99/max latency, polling latency. Stops by itself.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import random
import selectors
import socket
import sys
import threading
import time

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


# --- the server side: page + game --------------------------------------------------------------

def _serve(conn, seconds: float, rate: float, threads: int) -> None:
    import logging

    from companion.demo.blind import next_input
    logging.basicConfig(level=logging.WARNING)
    from companion.table import Table
    from companion.web import create_app
    from companion.web.serve import WebServer

    setup = {"players": PLAYERS, "dealer": "Dan", "deck": "classic"}
    table = Table(None, setup=setup)
    app = create_app(table, config={"HOST_PIN": "123456", "SSE_KEEPALIVE": 5.0})
    server = WebServer(app, "127.0.0.1", 0, threads).start()
    conn.send(server.port)
    conn.recv()                                      # clients are connected: play
    rng = random.Random(5)
    inputs = refused = games = 0
    end = time.monotonic() + seconds
    nxt = time.monotonic()
    while time.monotonic() < end:
        nxt += 1.0 / rate
        snap = table.snapshot()
        ev = next_input(snap, rng)
        try:
            if ev is None:
                table.new_game(setup)
                games += 1
            else:
                table.submit(ev, source="bench")
            inputs += 1
        except ValueError:
            refused += 1
        time.sleep(max(0.0, nxt - time.monotonic()))
    conn.send({"inputs": inputs, "refused": refused, "games": games,
               "last_seq": table.snapshot()["seq"]})
    conn.recv()
    server.stop(timeout=2)
    conn.close()


# --- the phones -----------------------------------------------------------------------------------

class Streams:
    """Many event streams read by one thread; latency per (client, update)."""

    def __init__(self, port: int, n: int):
        self.sel = selectors.DefaultSelector()
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.seqs: list[set] = [set() for _ in range(n)]
        self.snapshots = 0
        self.bufs: dict[int, bytes] = {}
        for i in range(n):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /events HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ, i)
            self.bufs[i] = b""
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.sel.select(timeout=0.2):
                now = time.time()
                try:
                    data = key.fileobj.recv(65536)
                except OSError as exc:
                    self.errors.append(f"stream {key.data}: {exc}")
                    self.sel.unregister(key.fileobj)
                    continue
                if not data:
                    self.errors.append(f"stream {key.data}: closed by the server")
                    self.sel.unregister(key.fileobj)
                    continue
                self._feed(key.data, self.bufs[key.data] + data, now)

    def _feed(self, i: int, buf: bytes, now: float) -> None:
        if buf.startswith(b"HTTP/"):
            head, sep, rest = buf.partition(b"\r\n\r\n")
            if not sep:
                self.bufs[i] = buf
                return
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                self.errors.append(f"stream {i}: {head.splitlines()[0]!r}")
            buf = rest
        while b"\n\n" in buf:
            msg, buf = buf.split(b"\n\n", 1)
            event = data = None
            for line in msg.split(b"\n"):
                if line.startswith(b"event: "):
                    event = line[7:]
                elif line.startswith(b"data: "):
                    data = line[6:]
            if event == b"snapshot":
                self.snapshots += 1
            elif event == b"update" and data:
                u = json.loads(data)
                self.latencies.append(now - u["at"])
                self.seqs[i].add(u["seq"])
        self.bufs[i] = buf

    def close(self) -> None:
        self.stop.set()
        for key in list(self.sel.get_map().values()):
            key.fileobj.close()


def _poller(port: int, rate: float, end: float, out: dict, lock: threading.Lock) -> None:
    paths = ["/api/state?recent=20", "/api/scores", "/api/state?recent=20", "/api/history?since=0"]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    nxt, k = time.monotonic(), 0
    while time.monotonic() < end:
        t0 = time.monotonic()
        error = None
        try:
            conn.request("GET", paths[k % len(paths)])
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                error = f"{paths[k % len(paths)]}: status {r.status}"
        except (OSError, http.client.HTTPException) as exc:
            error = f"{paths[k % len(paths)]}: {exc!r}"
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        with lock:
            out["poll_times"].append(time.monotonic() - t0)
            if error:
                out["poll_errors"].append(error)
        k += 1
        nxt += 1.0 / rate
        time.sleep(max(0.0, nxt - time.monotonic()))
    conn.close()


def _pct(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000, 1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--polls", type=float, default=20, help="JSON requests per second, all pollers")
    ap.add_argument("--pollers", type=int, default=4)
    ap.add_argument("--rate", type=float, default=4, help="game inputs per second")
    ap.add_argument("--threads", type=int, default=96)
    args = ap.parse_args(argv)

    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_serve, args=(child, args.seconds, args.rate, args.threads), daemon=True)
    proc.start()
    try:
        if not parent.poll(60):
            print("server did not start", file=sys.stderr)
            return 1
        port = parent.recv()
        streams = Streams(port, args.clients)
        reader = threading.Thread(target=streams.run, daemon=True)
        reader.start()
        t_wait = time.monotonic() + 10
        while streams.snapshots < args.clients and time.monotonic() < t_wait:
            time.sleep(0.05)
        parent.send("go")
        end = time.monotonic() + args.seconds
        out = {"poll_times": [], "poll_errors": []}
        lock = threading.Lock()
        pollers = [threading.Thread(target=_poller, args=(port, args.polls / args.pollers, end, out, lock),
                                    daemon=True) for _ in range(args.pollers)]
        for t in pollers:
            t.start()
        for t in pollers:
            t.join(args.seconds + 15)
        game = parent.recv() if parent.poll(30) else {}
        time.sleep(0.5)                               # the last updates in flight
        streams.close()
        reader.join(2)
        parent.send("stop")
        proc.join(10)
    finally:
        if proc.is_alive():
            proc.terminate()
            proc.join(5)

    last = game.get("last_seq", 0)
    first = min((min(s) for s in streams.seqs if s), default=last)
    expected = last - first + 1 if last else 0
    missed = sum(max(0, expected - len(s)) for s in streams.seqs)
    report = {
        "seconds": args.seconds, "clients": args.clients, "polls_per_s": args.polls,
        "game": game, "snapshots": streams.snapshots,
        "updates_received": len(streams.latencies), "updates_missed": missed,
        "stream_errors": len(streams.errors), "poll_requests": len(out["poll_times"]),
        "poll_errors": len(out["poll_errors"]),
        "latency_ms": {"p50": _pct(streams.latencies, 50), "p99": _pct(streams.latencies, 99),
                       "max": _pct(streams.latencies, 100)},
        "poll_ms": {"p50": _pct(out["poll_times"], 50), "p99": _pct(out["poll_times"], 99)},
        "error_samples": (streams.errors + out["poll_errors"])[:5],
    }
    print(json.dumps(report))
    ok = (not streams.errors and not out["poll_errors"] and missed == 0
          and (report["latency_ms"]["p99"] or 0) < 200)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
