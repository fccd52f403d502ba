"""`companion demo --club`: club night on one machine. A broker (Mosquitto, started here unless
``--broker`` names one), the hub and its page, and three simulated tables of three bots each,
every table publishing its event log as a Pi with ``[club]`` does. At the end the hub's
standings are checked against the tables' own scores."""
from __future__ import annotations

import os
import sys
import tempfile
import threading
import time

CLUB = "demo"
TABLES = (("t1", ("Ann", "Ben", "Cat")), ("t2", ("Dan", "Eve", "Fay")), ("t3", ("Gus", "Hal", "Ivy")))
CATCH_UP = 30.0          # seconds the hub may take to hear the last inputs


def _broker(spec: str | None, folder: str):
    """(host, port, the broker we started or None)."""
    if spec:
        host, _, port = spec.partition(":")
        return host, int(port or 1883), None
    from companion.club.broker import LocalBroker
    b = LocalBroker(os.path.join(folder, "broker")).start()
    return "127.0.0.1", b.port, b


def run_club(args, make_eyes, target: int, rounds: int | None) -> int:
    from companion.club.broker import BrokerError
    from companion.club.hub import Hub, HubClient
    from companion.club.hubstore import HubStore
    from companion.club.page import create_club_app
    from companion.club.publisher import ClubPublisher
    from companion.config import ClubConfig
    from companion.table import Table

    from .game import DemoGame

    folder = tempfile.mkdtemp(prefix="companion-club-")
    try:
        host, port, broker = _broker(args.broker, folder)
    except (BrokerError, ValueError) as exc:
        print(f"companion demo --club: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(2), "big")
    hub = Hub(HubStore(os.path.join(folder, "club.db")), CLUB)
    client = HubClient(hub, host, port).start()
    server = None
    if not args.no_web:
        from companion.web.serve import WebServer
        try:
            app = create_club_app(hub, pin=f"{int.from_bytes(os.urandom(3), 'big') % 10**6:06d}")
            server = WebServer(app, "0.0.0.0", args.port).start()
            print(f"Club page: {server.url}  (on this machine: {server.local_url}); host PIN {app.config['HOST_PIN']}")
        except OSError as exc:
            print(f"(cannot serve the club page on port {args.port}: {exc}; try --port)")
    print(f"UNO Table Companion club demo (seed {seed}; broker {host}:{port}; files in {folder})")
    print("Three tables of three bots play " + ("one round" if rounds == 1 else f"to {target} points")
          + " each, at once; every input goes through the broker to the hub.")
    games, pubs, tables, threads, errors = [], [], {}, [], []
    try:
        for i, (name, players) in enumerate(TABLES):
            eyes = make_eyes(args)
            if eyes is None:
                return 2
            t = tables[name] = Table(os.path.join(folder, f"{name}.db"))
            pubs.append(ClubPublisher(t, ClubConfig(host, CLUB, name, port)).start())
            g = DemoGame(t, eyes, players=list(players), deck=args.deck, seed=seed + i, target=target, rounds=rounds,
                         pace=0.0 if args.fast else (args.pace if args.pace is not None else 0.3), say=lambda s: None)
            games.append(g)

            def play(g=g, name=name):
                try:
                    g.play()
                except Exception as exc:       # one table's trouble is reported, the others go on
                    errors.append(f"{name}: {exc}")
            threads.append(threading.Thread(target=play, name=f"table-{name}", daemon=True))
        for th in threads:
            th.start()
        while any(th.is_alive() for th in threads):
            time.sleep(5 if sys.stdout.isatty() else 1)
            print("  " + " | ".join(f"{x['table']}: round {x['round'] or '-'}, {x['seq']} inputs at the hub"
                                    for x in hub.tables()), flush=True)
        end = time.monotonic() + CATCH_UP
        while time.monotonic() < end and not all(hub.store.count(n) == t.log.last_seq() for n, t in tables.items()):
            time.sleep(0.2)
    except KeyboardInterrupt:
        print("\nstopped")
    finally:
        for g in games:
            g.close()
        for p in pubs:
            p.close()
        client.close()
        if server is not None:
            server.stop(timeout=1)
        if broker is not None:
            broker.stop()
    return _summary(hub, tables, errors)


def _summary(hub, tables: dict, errors: list[str]) -> int:
    live = {x["table"]: x for x in hub.tables()}
    agree = all(live.get(n, {}).get("scores") == t.snapshot()["scores"] and hub.store.count(n) == t.log.last_seq()
                for n, t in tables.items())
    print("\n" + "=" * 72)
    print("CLUB DEMO OVER")
    for n, t in tables.items():
        print(f"{n:<11} {t.log.last_seq()} inputs, {hub.store.count(n)} at the hub; scores "
              + ", ".join(f"{p} {s}" for p, s in t.snapshot()["scores"].items()))
    print("Standings   " + "; ".join(f"{i + 1}. {s['player']} {s['points']} pts, {s['rounds_won']} round{'' if s['rounds_won'] == 1 else 's'} won"
                                     for i, s in enumerate(hub.standings()[:5])))
    print(f"Hub         {'agrees with every table: every input once, the same scores' if agree else 'DISAGREES with the tables'}"
          f"; {hub.duplicates} duplicates dropped, {hub.ignored} messages ignored")
    for e in errors:
        print(f"Trouble     {e}")
    print("=" * 72)
    return 0 if agree and not errors else 1
