"""Serving the page with waitress: in the background for ``companion run``/``demo``, or alone.

    server = start(app, host="0.0.0.0", port=8080)   # returns at once; server.url, server.stop()

``companion serve --db game.db`` serves the page for a game database on its own.
Each open live page holds one waitress thread, hence the many threads.
"""
from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time

from waitress import wasyncore
from waitress.server import create_server

from . import qr

log = logging.getLogger(__name__)

THREADS = 96
MIN_THREADS = 80   # each open live page holds a thread: 64 live pages + 16 for the rest


class WebServer:
    """A waitress server that can run in a background thread and stop cleanly."""

    def __init__(self, app, host: str = "0.0.0.0", port: int = 8080, threads: int = THREADS):
        if threads < MIN_THREADS:
            log.info("web: %d threads asked, using %d (one per open live page)", threads, MIN_THREADS)
            threads = MIN_THREADS
        self.threads = threads
        self.app = app
        # Keep some threads for pages and the JSON API however many streams are open.
        app.config["SSE_MAX_CLIENTS"] = min(int(app.config.get("SSE_MAX_CLIENTS", threads)),
                                            threads - 16)
        self._server = create_server(app, host=host, port=port, threads=threads,
                                     connection_limit=max(100, threads * 2), channel_timeout=120,
                                     ident="companion", clear_untrusted_proxy_headers=True)
        self.host = host
        self.port = int(self._server.effective_port)
        self.url = qr.page_url(self.port, host=host)
        if not app.config.get("PUBLIC_URL"):
            app.config["PUBLIC_URL"] = self.url
        self._thread: threading.Thread | None = None

    @property
    def local_url(self) -> str:
        h = self.host if self.host not in ("0.0.0.0", "", "::") else "127.0.0.1"
        return f"http://{h}:{self.port}/"

    def run_until_stopped(self, run_for: float | None = None) -> None:
        """Serve in this thread until SIGTERM, Ctrl-C or ``run_for`` seconds, then stop (a command's
        foreground server)."""
        def on_signal(signum, frame):
            self.stop(timeout=0)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, on_signal)
        if run_for is not None:
            threading.Timer(run_for, on_signal, args=(0, None)).start()
        try:
            self.run()
        except KeyboardInterrupt:
            pass
        finally:
            self.stop(timeout=1)

    def run(self) -> None:
        """Serve until ``stop()`` (blocks)."""
        try:
            self._server.run()
        except (OSError, ValueError):
            if not getattr(self, "_stopping", False):
                raise

    def start(self) -> "WebServer":
        """Serve in a daemon thread and return at once."""
        self._thread = threading.Thread(target=self.run, name="companion-web", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """End the live connections, let the workers finish, then close every socket."""
        if getattr(self, "_stopping", False):
            return
        self._stopping = True
        live = self.app.extensions.get("companion.live")
        if live is not None:
            live.close()
            deadline = time.monotonic() + min(timeout, 2.0)
            while live.clients and time.monotonic() < deadline:
                time.sleep(0.02)
        self._server.task_dispatcher.shutdown(timeout=max(timeout, 0.1))
        try:
            wasyncore.close_all(self._server._map)
        except (OSError, ValueError):
            log.debug("web: closing sockets", exc_info=True)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)


def start(app, host: str = "0.0.0.0", port: int = 8080, threads: int = THREADS, *,
          show_qr: bool | None = None) -> WebServer:
    """Start serving ``app`` in a background thread (for ``companion run`` and ``demo``).

    ``show_qr``: print the page's QR code and address (None: when stdout is a terminal).
    """
    server = WebServer(app, host, port, threads).start()
    log.info("score page at %s (%d threads)", server.url, server.threads)
    if show_qr is None:
        show_qr = sys.stdout.isatty()
    if show_qr:
        qr.print_qr(server.url)
    return server


def serve(app, host: str = "0.0.0.0", port: int = 8080, threads: int = THREADS) -> None:
    """Serve ``app`` in this thread until the server is closed (Ctrl-C in a terminal)."""
    server = WebServer(app, host, port, threads)
    log.info("score page at %s (%d threads)", server.url, server.threads)
    try:
        server.run()
    finally:
        server.stop()


# `companion serve` --------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", required=True, help="the game's SQLite event log (created if missing)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=8080, help="port (default: 8080)")
    parser.add_argument("--threads", type=int, default=THREADS,
                        help=f"worker threads; each open page holds one (default: {THREADS})")
    parser.add_argument("--pin", default=None,
                        help="host PIN (default: [web] host_pin of --config, else a random one)")
    parser.add_argument("--config", default=None, help="table.toml to read [web] from")
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")


def main(args: argparse.Namespace) -> int:
    from companion.store import STORAGE_EXIT, StorageError
    from companion.table import Table

    from . import create_app

    pin = args.pin
    host, port, threads = args.host, args.port, args.threads
    if args.config:
        from companion.config import load_config
        cfg = load_config(args.config)
        pin = pin or cfg.web.host_pin or None
    if pin is not None and not (pin.isdigit() and 4 <= len(pin) <= 8):
        log.error("--pin: 4 to 8 digits, please")
        return 2
    try:
        table = Table(args.db)
    except StorageError as exc:
        log.error("%s", exc)
        return STORAGE_EXIT
    app = create_app(table, config={"HOST_PIN": pin})
    server = WebServer(app, host, port, threads)
    if not args.no_qr:
        qr.print_qr(server.url)
    print(f"Host PIN: {app.config['HOST_PIN']}", flush=True)
    try:
        server.run_until_stopped()
    finally:
        close = getattr(table, "close", None)
        if close:
            close()
    return 0
