"""A table's side of club night: its event log, published to the club's MQTT broker.

The event log is the outbox. Every input goes to ``uno/<club>/tables/<table>/events`` (QoS 1)
in order; when the broker acknowledges one, the last input acknowledged in an unbroken run is
written beside the log (``EventLog.set_mark``). After a broker restart, a network drop or a
restart of the Pi, publishing starts again from there. The game never waits for the network:
the referee only wakes this thread, which does all the talking. The table's snapshot goes to
``.../state``, retained, so a hub that starts late sees every table at once; the hub asks on
``.../resend`` for inputs it missed and gets them again.
"""
from __future__ import annotations

import collections
import logging
import secrets
import threading

from . import messages as msg
from .connect import make_client
from .seating import SeatingFollower

log = logging.getLogger(__name__)

WINDOW = 64            # inputs sent and not yet acknowledged, at most


class ClubPublisher:
    """Publishes ``table``'s log for ``cfg`` (`companion.config.ClubConfig`); ``start()``, ``close()``."""

    def __init__(self, table, cfg, *, client_factory=make_client):
        self.table, self.cfg = table, cfg
        self.log = table.log
        self.log_id = self.log.mark("club.log") or self._new_log_id()
        self.key = f"club.acked {cfg.broker}:{cfg.port} {cfg.club}/{cfg.table}"
        self.acked = int(self.log.mark(self.key) or 0)     # broker has every input up to here
        self.sent = self.acked                              # handed to the client since connecting
        self.connected = False
        self.published = 0
        self._order: collections.deque[int] = collections.deque()    # seqs in flight, oldest first
        self._mids: dict[int, int | None] = {}            # the client's message id -> seq (None: a state)
        self._early: set[int] = set()                     # acknowledged before publish() returned
        self._done: collections.Counter[int] = collections.Counter()  # acknowledged, not yet at the front
                                                          # (a resend can have one seq in flight twice)
        self._acks: collections.deque[int] = collections.deque()     # message ids from the network thread
        self._resend: collections.deque[int] = collections.deque()
        self._state_seq = -1
        self._saved = self.acked
        self._fresh = False                               # a new connection: start again from acked
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._warned = False
        self._thread: threading.Thread | None = None
        self.seating = SeatingFollower(table)
        self._unsubscribe = table.subscribe(lambda update: self._wake.set())
        self.client = client_factory(f"companion-table-{cfg.club}-{cfg.table}", username=cfg.username,
                                     password=cfg.password, tls=cfg.tls, ca_file=cfg.ca_file)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = lambda client, userdata: self._warn("cannot connect (unreachable, or "
                                                                         "its TLS certificate is not trusted)")
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    def _new_log_id(self) -> str:
        value = secrets.token_hex(8)
        self.log.set_mark("club.log", value)
        return value

    # -- the network thread: note what happened and wake the worker --------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if getattr(reason_code, "is_failure", False):
            self._warn(f"the broker refused this table: {reason_code}")
            return
        log.info("club: connected to %s:%d as table %s", self.cfg.broker, self.cfg.port, self.cfg.table)
        self._warned = False
        client.subscribe([(msg.topic(self.cfg.club, self.cfg.table, "resend"), 1),
                          (msg.topic(self.cfg.club, self.cfg.table, "seating"), 1)])
        self.connected, self._fresh = True, True
        self._wake.set()

    def _on_disconnect(self, client, userdata, flags=None, reason_code=None, properties=None) -> None:
        self.connected = False
        if not self._stop.is_set():
            self._warn(f"lost the broker ({reason_code})")

    def _warn(self, why: str) -> None:
        if not self._warned:       # once per outage
            log.warning("club: %s %s:%d: %s; the game goes on and is sent when it is back", "broker",
                        self.cfg.broker, self.cfg.port, why)
            self._warned = True

    def _on_publish(self, client, userdata, mid, reason_code=None, properties=None) -> None:
        self._acks.append(mid)
        self._wake.set()

    def _on_message(self, client, userdata, message) -> None:
        kind = str(getattr(message, "topic", "/resend")).rsplit("/", 1)[-1]
        try:
            if kind == "seating":
                self.seating.offer(msg.parse_seating(message.payload))
                self._wake.set()
                return
            r = msg.parse_resend(message.payload)
        except msg.BadMessage as exc:
            log.info("club: ignored a %s message: %s", kind, exc)
            return
        if r["log"] == self.log_id:
            self._resend.append(r["after"])
            self._wake.set()

    # -- the worker --------------------------------------------------------------------------------
    def start(self) -> "ClubPublisher":
        self.client.connect_async(self.cfg.broker, self.cfg.port, keepalive=30)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._loop, name="club-publisher", daemon=True)
        self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(1.0)
            self._wake.clear()
            try:
                self.step()
            except Exception:          # never take the table down with the network
                log.exception("club: publishing failed; trying again")
                self._stop.wait(1.0)

    def step(self) -> None:
        """Take a tournament's seating, settle acknowledgements, then send what is due (called by
        the worker thread)."""
        self.seating.step()
        self._settle()
        if not self.connected:
            return
        if self._fresh:
            self._fresh = False
            self._order.clear()
            self._mids.clear()
            self._done.clear()
            self._early.clear()
            self.sent = self.acked
            self._state_seq = -1
        while self._resend:
            self.sent = min(self.sent, self._resend.popleft())
        while len(self._order) < WINDOW:
            rows = self.log.since(self.sent, limit=WINDOW - len(self._order))
            if not rows:
                break
            for row in rows:
                info = self.client.publish(msg.topic(self.cfg.club, self.cfg.table, "events"),
                                           msg.event_message(self.cfg.table, self.log_id, row), qos=1)
                self._order.append(row["seq"])
                self._sent_as(info.mid, row["seq"])
                self.sent = row["seq"]
                self.published += 1
        state = self.table.snapshot()        # after the events it follows, so the hub never sees it first
        if state.get("seq", 0) != self._state_seq and self.sent >= state.get("seq", 0):
            info = self.client.publish(msg.topic(self.cfg.club, self.cfg.table, "state"),
                                       msg.state_message(self.cfg.table, self.log_id, state), qos=1, retain=True)
            self._sent_as(info.mid, None)
            self._state_seq = state.get("seq", 0)
        self._settle()

    def _sent_as(self, mid: int, seq: int | None) -> None:
        if mid in self._early:              # its acknowledgement came first
            self._early.discard(mid)
            if seq is not None:
                self._done[seq] += 1
        else:
            self._mids[mid] = seq

    def _settle(self) -> None:
        while self._acks:
            mid = self._acks.popleft()
            if mid not in self._mids:
                self._early.add(mid)
                continue
            seq = self._mids.pop(mid)
            if seq is not None:
                self._done[seq] += 1
        while self._order and self._done[self._order[0]] > 0:
            seq = self._order.popleft()
            self._done[seq] -= 1
            if not self._done[seq]:
                del self._done[seq]
            self.acked = max(self.acked, seq)
        if self.acked != self._saved:
            self.log.set_mark(self.key, str(self.acked))
            self._saved = self.acked

    def close(self) -> None:
        self._stop.set()           # before disconnecting: no "lost the broker" for our own goodbye
        self._wake.set()
        self._unsubscribe()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            self._settle()
        except Exception:
            log.debug("club: could not write the last acknowledgement", exc_info=True)
        self.client.disconnect()
        self.client.loop_stop()
