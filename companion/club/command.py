"""`companion club`: the club's hub. Subscribes to every table of the club through the broker,
keeps their events in its own SQLite and serves the club's page.

    companion club --broker hub.local --club pub --db club.db      # page on port 8090

The broker's password can come from ``$COMPANION_CLUB_PASSWORD`` rather than the command line.
"""
from __future__ import annotations

import argparse
import logging
import os
import sqlite3

from companion.config import NAME

log = logging.getLogger("companion.club")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", required=True, help="the MQTT broker's host name or address")
    parser.add_argument("--port", type=int, default=None, help="the broker's port (default: 1883, 8883 with --tls)")
    parser.add_argument("--club", required=True, help="the club's name, as the tables' [club] club")
    parser.add_argument("--db", default="club.db", help="the hub's SQLite (default: club.db)")
    parser.add_argument("--username", default="", help="the hub's broker user (see systemd/mosquitto-acl.example)")
    parser.add_argument("--password", default=os.environ.get("COMPANION_CLUB_PASSWORD", ""),
                        help="its password (default: $COMPANION_CLUB_PASSWORD)")
    parser.add_argument("--tls", action="store_true", help="connect with TLS")
    parser.add_argument("--ca-file", default="", help="the broker's CA certificate (with --tls)")
    parser.add_argument("--host", default="0.0.0.0", help="the page's address (default: all)")
    parser.add_argument("--pin", default=None, help="the host PIN of the club page (default: a random one, printed)")
    parser.add_argument("--web-port", type=int, default=8090, help="the page's port (default: 8090)")
    parser.add_argument("--tournament", choices=("partners4", "partners8"), default=None,
                        help="start the rule sheet's partner tournament: 4 players at 1 table (12 hands) or 8 at 2 (28)")
    parser.add_argument("--players", default="", help="with --tournament: the players, comma-separated")
    parser.add_argument("--tables", default="", help="with --tournament: the tables, comma-separated")
    parser.add_argument("--run-for", type=float, default=None, metavar="SECONDS", help="stop after this long")


def main(args: argparse.Namespace) -> int:
    from companion.web.serve import WebServer

    from .hub import Hub, HubClient
    from .hubstore import HubStore
    from .page import create_club_app

    if not NAME.fullmatch(args.club):
        log.error("--club: 1 to 40 letters, digits, '-' or '_' (one MQTT topic level), not %r", args.club)
        return 2
    if bool(args.username) != bool(args.password):
        log.error("--username and --password go together")
        return 2
    if args.ca_file and not (args.tls and os.path.isfile(args.ca_file)):
        log.error("--ca-file needs --tls and an existing file: %s", args.ca_file)
        return 2
    try:
        store = HubStore(args.db)
    except (OSError, sqlite3.Error) as exc:
        log.error("cannot use the hub's database %s: %s", args.db, exc)
        return 74
    hub = Hub(store, args.club)
    if args.tournament:
        from .tournament import TournamentError
        try:
            hub.start_tournament(args.tournament, _names(args.players), _names(args.tables))
        except TournamentError as exc:
            log.error("--tournament: %s", exc)
            store.close()
            return 2
    port = args.port or (8883 if args.tls else 1883)
    client = HubClient(hub, args.broker, port, username=args.username, password=args.password, tls=args.tls,
                       ca_file=args.ca_file).start()
    if args.pin is not None and not (args.pin.isdigit() and 4 <= len(args.pin) <= 8):
        log.error("--pin: 4 to 8 digits, please")
        return 2
    app = create_club_app(hub, pin=args.pin)
    try:
        server = WebServer(app, args.host, args.web_port)
    except OSError as exc:
        log.error("cannot serve the club page on port %d: %s", args.web_port, exc)
        client.close()
        return 2
    print(f"Club {args.club}: page at {server.url} (host PIN {app.config['HOST_PIN']}); {store.count()} events "
          f"kept in {args.db}", flush=True)
    try:
        server.run_until_stopped(args.run_for)
    finally:
        client.close()
        app.extensions["companion.club"].close()
        store.close()
    return 0


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]
