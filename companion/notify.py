"""systemd's notify protocol by hand (no libsystemd): READY, STATUS, WATCHDOG and STOPPING as
datagrams to ``$NOTIFY_SOCKET``, for `companion run` under ``Type=notify`` with a watchdog."""
from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable

log = logging.getLogger("companion.run")


class Notifier:
    """systemd's notify protocol by hand: one datagram to ``$NOTIFY_SOCKET`` per message.

    Without ``NOTIFY_SOCKET`` (not started by systemd) every call does nothing::

        >>> Notifier(env={}).ready()
        False
    """

    def __init__(self, env: dict | None = None, *, clock: Callable[[], float] = time.monotonic):
        env = os.environ if env is None else env
        addr = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + addr[1:] if addr.startswith("@") else addr
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else None
        self.clock = clock
        self._last = float("-inf")
        self._sock = None

    def send(self, message: str) -> bool:
        if not self.address:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._sock.sendto(message.encode(), self.address)
            return True
        except OSError as exc:
            log.warning("systemd notify failed: %s", exc)
            return False

    def ready(self, status: str = "refereeing") -> bool:
        return self.send(f"READY=1\nSTATUS={status}")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def watchdog(self) -> bool:
        """Ping the watchdog, at most every half of ``WatchdogSec`` (cheap to call every loop)."""
        if self.interval is None:
            return False
        now = self.clock()
        if now - self._last < min(self.interval, 1.0):
            return False
        self._last = now
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")
