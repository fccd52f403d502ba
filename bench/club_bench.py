"""Benchmark of club night: many tables through one Mosquitto to the hub, and phones on its page.

    .venv/bin/python bench/club_bench.py                      # 20 tables at a person's pace, 200 phones
    .venv/bin/python bench/club_bench.py --pace 0             # 20 tables at full speed

A Mosquitto of our own and `companion club` (a child process, as on a real hub) are started;
this process plays --tables simulated games (each table its own event log and publisher, as a Pi
with [club] runs) with an input every --pace seconds per table, and holds --phones pages open:
up to 64 live event streams (the page's limit) and the rest polling /api/club every 2 s with its
ETag, as the page's script does. The lag is from a table's input to the first club update on a
live page that shows it. Prints the figures and a last JSON line.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from companion.club.broker import LocalBroker, free_port  # noqa: E402
from companion.club.publisher import ClubPublisher  # noqa: E402
from companion.config import ClubConfig  # noqa: E402
from companion.table import Table  # noqa: E402

STREAMS = 64


def game(seed: int) -> list[dict]:
    from referee_sim import play_game
    return list(play_game(seed, ["Ann", "Ben", "Cat", "Dan"], {"target_score": 300}, check=False).inputs)


class Phones:
    """Live pages (event streams) and polling pages on the hub's page."""

    def __init__(self, port: int, phones: int, stop: threading.Event):
        self.port, self.stop = port, stop
        self.shown: dict[str, list[tuple[float, int]]] = {}   # table -> (time, seq) each time a live page
                                                               # first showed a newer seq
        self.lock = threading.Lock()
        self.errors = self.polls = self.not_modified = 0
        self.poll_ms: list[float] = []
        self.threads = [threading.Thread(target=self._stream, daemon=True) for _ in range(min(phones, STREAMS))]
        pollers = max(0, phones - STREAMS)
        self.threads += [threading.Thread(target=self._poll, args=(i, pollers), daemon=True) for i in range(min(pollers, 8))]

    def start(self):
        for t in self.threads:
            t.start()

    def _stream(self):
        try:
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            c.request("GET", "/events")
            r = c.getresponse()
            if r.status != 200:
                raise OSError(f"status {r.status}")
            buf = b""
            while not self.stop.is_set():
                chunk = r.read1(65536)
                if not chunk:
                    break
                buf += chunk
                now = time.monotonic()
                while b"\n\n" in buf:
                    msg, buf = buf.split(b"\n\n", 1)
                    for line in msg.split(b"\n"):
                        if line.startswith(b"data: "):
                            club = json.loads(line[6:])
                            with self.lock:
                                for t in club["tables"]:
                                    seen = self.shown.setdefault(t["table"], [])
                                    if not seen or t["seq"] > seen[-1][1]:
                                        seen.append((now, t["seq"]))
        except (OSError, http.client.HTTPException, ValueError):
            if not self.stop.is_set():
                with self.lock:
                    self.errors += 1

    def _poll(self, i: int, pollers: int):
        # ``pollers`` phones, shared by 8 threads, each asking every 2 s
        mine = [k for k in range(pollers) if k % 8 == i]
        tags: dict[int, str] = {}
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        while not self.stop.is_set():
            t0 = time.monotonic()
            for k in mine:
                try:
                    s = time.monotonic()
                    c.request("GET", "/api/club", headers={"If-None-Match": tags.get(k, "")})
                    r = c.getresponse()
                    r.read()
                    with self.lock:
                        self.polls += 1
                        self.not_modified += r.status == 304
                        self.poll_ms.append((time.monotonic() - s) * 1000)
                    if r.status == 200:
                        tags[k] = r.getheader("ETag") or ""
                    elif r.status != 304:
                        raise OSError(f"status {r.status}")
                except (OSError, http.client.HTTPException):
                    with self.lock:
                        self.errors += 1
                    c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            self.stop.wait(max(0.0, 2.0 - (time.monotonic() - t0)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--pace", type=float, default=2.0, help="seconds between a table's inputs (0: full speed)")
    ap.add_argument("--seconds", type=float, default=60.0, help="how long the tables play")
    ap.add_argument("--phones", type=int, default=200)
    args = ap.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="club-bench-"))
    broker = LocalBroker(folder / "broker").start()
    web = free_port()
    hub = subprocess.Popen([sys.executable, "-m", "companion.cli", "club", "--broker", "127.0.0.1", "--port",
                            str(broker.port), "--club", "bench", "--db", str(folder / "club.db"), "--host",
                            "127.0.0.1", "--web-port", str(web)], stdout=subprocess.DEVNULL,
                           stderr=open(folder / "hub.log", "wb"), env={**os.environ, "PYTHONPATH": str(ROOT)})
    stop = threading.Event()
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", web, timeout=1).request("GET", "/api/club")
                break
            except OSError:
                time.sleep(0.1)
        phones = Phones(web, args.phones, stop)
        phones.start()
        time.sleep(1.0)
        sent: dict[tuple[str, int], float] = {}
        lock = threading.Lock()
        tables, pubs = [], []
        for i in range(args.tables):
            name = f"t{i + 1}"
            t = Table(folder / f"{name}.db")
            tables.append((name, t, game(i)))
            pubs.append(ClubPublisher(t, ClubConfig("127.0.0.1", "bench", name, broker.port)).start())
        end = time.monotonic() + args.seconds

        def play(name, t, inputs):
            for ev in inputs:
                if time.monotonic() > end:
                    return
                t.submit(ev, source="bench")
                with lock:
                    sent[(name, t.log.last_seq())] = time.monotonic()
                if args.pace:
                    time.sleep(args.pace)
        t0 = time.monotonic()
        threads = [threading.Thread(target=play, args=x, daemon=True) for x in tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        played = time.monotonic() - t0
        total = sum(t.log.last_seq() for _, t, _ in tables)
        deadline = time.monotonic() + 30
        last = {name: t.log.last_seq() for name, t, _ in tables}
        while time.monotonic() < deadline:
            with phones.lock:
                if all(phones.shown.get(n, [(0, 0)])[-1][1] >= s for n, s in last.items()):
                    break
            time.sleep(0.2)
        caught_up = time.monotonic() - t0
        with phones.lock:
            lags, missing = [], 0
            for (name, seq), at in sent.items():
                when = next((w for w, s in phones.shown.get(name, []) if s >= seq), None)
                if when is None:
                    missing += 1
                else:
                    lags.append((when - at) * 1000)
            lags.sort()
    finally:
        stop.set()
        for p in pubs:
            p.close()
        hub.terminate()
        hub.wait(10)
        broker.stop()
    p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))] if lags else None
    out = {"tables": args.tables, "pace_s": args.pace, "inputs": total, "played_s": round(played, 1),
           "inputs_per_s": round(total / played, 1), "all_on_page_s": round(caught_up, 1),
           "lag_median_ms": round(statistics.median(lags), 1) if lags else None,
           "lag_p99_ms": round(p99, 1) if p99 is not None else None, "lag_worst_ms": round(lags[-1], 1) if lags else None,
           "not_seen": missing, "phones": args.phones, "live_pages": min(args.phones, STREAMS),
           "polls": phones.polls, "polls_304": phones.not_modified,
           "poll_median_ms": round(statistics.median(phones.poll_ms), 1) if phones.poll_ms else None,
           "phone_errors": phones.errors}
    print(f"{args.tables} tables, an input every {args.pace} s each: {total} inputs in {played:.0f} s "
          f"({out['inputs_per_s']}/s); all on the page after {caught_up:.1f} s")
    print(f"lag from a table's input to a live page: median {out['lag_median_ms']} ms, p99 {out['lag_p99_ms']} ms, "
          f"worst {out['lag_worst_ms']} ms; {missing} never seen")
    print(f"{args.phones} phones: {out['live_pages']} live, the rest polling: {phones.polls} polls "
          f"({phones.not_modified} unchanged), median {out['poll_median_ms']} ms; {phones.errors} errors")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
