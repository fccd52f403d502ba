"""The club's hub: every table's game rebuilt from its events, and the club's standings.

Each table's events are applied in order to a copy of that table (the same `Table` and referee
the Pi runs, in memory), so the hub knows each game exactly as the table does: whose turn, the
top card, hand sizes, scores, rounds. An event arriving twice is dropped by (table, log, seq);
one arriving early waits for the one before it, and the hub asks the table to send again what
it missed (``.../resend``). Malformed or foreign messages are ignored and counted.

`Hub` is the bookkeeping and can be fed directly (``handle(topic, payload)``); `HubClient` is its
MQTT connection.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from companion.referee import InputError
from companion.table import Table

from . import messages as msg
from .connect import make_client
from .director import Director
from .hubstore import HubStore

log = logging.getLogger(__name__)

ASK_AGAIN = 2.0          # seconds between two resend requests for the same table


class Replica:
    """One table's one log file as the hub knows it."""

    def __init__(self, table: str, log_id: str):
        self.table, self.log = table, log_id
        self.applied = 0                        # the last input applied, in an unbroken run
        self.pending: dict[int, dict] = {}      # events that came early, by the input before them
        self.game: int | None = None
        self.live: Table | None = None          # the current game, replayed
        self.finished: list[tuple[int, dict]] = []    # this log's earlier games: (number, last snapshot)
        self.asked = float("-inf")
        self.heard = 0.0

    def numbered_games(self) -> list[tuple[int, dict]]:
        live = [(self.game, self.live.snapshot())] if self.live is not None else []
        return self.finished + live

    def games(self) -> list[dict]:
        return [snap for _, snap in self.numbered_games()]


class Hub:
    """The club ``club``'s tables and standings, kept in ``store``."""

    def __init__(self, store: HubStore, club: str, *, clock: Callable[[], float] = time.monotonic):
        self.store, self.club, self.clock = store, club, clock
        self.replicas: dict[tuple[str, str], Replica] = {}
        self.current: dict[str, str] = {}       # table -> the log it plays in now
        self.ignored = 0                        # malformed or foreign messages
        self.duplicates = 0
        self.unplayable = 0                     # events the referee refused (should not happen)
        self.ask: Callable[[str, str, int], None] | None = None    # (table, log, after): resend request
        self._lock = threading.RLock()
        self._listeners: list[Callable[[], None]] = []
        for m in store.events():                # the hub restarted: rebuild from its own database
            self._accept(m)
        self.current.update(store.latest_logs())
        self.director = Director(self)

    # -- messages in --------------------------------------------------------------------------------
    def handle(self, topic: str, payload: bytes) -> bool:
        """One MQTT message; True if it changed anything."""
        kind = topic.rsplit("/", 1)[-1]
        try:
            with self._lock:
                if kind == "events":
                    changed = self._event(msg.parse_event(topic, payload, club=self.club))
                elif kind == "state":
                    changed = self._state(msg.parse_state(topic, payload, club=self.club))
                else:
                    raise msg.BadMessage(f"not a topic the hub reads: {topic!r}")
        except msg.BadMessage as exc:
            self.ignored += 1
            log.info("club hub: ignored a message on %s: %s", topic, exc)
            return False
        if changed:
            with self._lock:
                self.director.check()
            self._changed()
        return changed

    def _event(self, m: dict) -> bool:
        if not self.store.add(m):
            self.duplicates += 1
            return False
        self.current.setdefault(m["table"], m["log"])
        return self._accept(m)

    def _replica(self, table: str, log_id: str) -> Replica:
        r = self.replicas.get((table, log_id))
        if r is None:
            r = self.replicas[(table, log_id)] = Replica(table, log_id)
        return r

    def _accept(self, m: dict) -> bool:
        r = self._replica(m["table"], m["log"])
        r.heard = self.clock()
        if m["seq"] <= r.applied:
            return False
        r.pending[m["prev"]] = m
        before = r.applied
        while r.applied in r.pending:
            nxt = r.pending.pop(r.applied)
            self._feed(r, nxt)
            r.applied = nxt["seq"]
        if r.pending:
            self._ask(r)
        return r.applied != before

    def _feed(self, r: Replica, m: dict) -> None:
        if m["game"] != r.game or r.live is None:
            if r.live is not None:
                r.finished.append((r.game, r.live.snapshot()))
                r.live.close()
            r.game, r.live = m["game"], Table(None)
        try:
            r.live.submit(m["event"], source=m["source"])
        except InputError as exc:
            self.unplayable += 1
            log.warning("club hub: table %s input %d refused by the referee: %s", r.table, m["seq"], exc)

    def _state(self, s: dict) -> bool:
        changed = self.current.get(s["table"]) != s["log"]
        self.current[s["table"]] = s["log"]
        r = self._replica(s["table"], s["log"])
        r.heard = self.clock()
        if s["seq"] > r.applied:
            self._ask(r)
        return changed

    def _ask(self, r: Replica) -> None:
        now = self.clock()
        if self.ask is not None and now - r.asked >= ASK_AGAIN:
            r.asked = now
            self.ask(r.table, r.log, r.applied)

    # -- what the page shows ------------------------------------------------------------------------
    def subscribe(self, fn: Callable[[], None]) -> Callable[[], None]:
        self._listeners.append(fn)
        return lambda: self._listeners.remove(fn) if fn in self._listeners else None

    def _changed(self) -> None:
        for fn in list(self._listeners):
            try:
                fn()
            except Exception:
                log.exception("club hub: listener failed")

    def tables(self) -> list[dict]:
        """Every table, live: its current game as the table sees it."""
        with self._lock:
            out = []
            for name in sorted(self.current):
                r = self.replicas.get((name, self.current[name]))
                snap = r.live.snapshot() if r is not None and r.live is not None else {}
                out.append({"table": name, "seq": r.applied if r else 0, "waiting": len(r.pending) if r else 0,
                            "current": snap.get("current"), "top": snap.get("top"), "color": snap.get("color"),
                            "players": snap.get("players") or [], "hand_counts": snap.get("hand_counts") or {},
                            "scores": snap.get("scores") or {}, "round": snap.get("round"),
                            "winner": snap.get("game_winner"), "paused": snap.get("paused")})
            return out

    def results(self) -> list[dict]:
        """Each finished game: table, winner, final scores, rounds played."""
        with self._lock:
            return [{"table": r.table, "winner": g.get("game_winner"), "scores": g.get("scores") or {},
                     "rounds": len(g.get("rounds") or [])}
                    for r in self.replicas.values() for g in r.games() if g.get("game_winner")]

    def standings(self) -> list[dict]:
        """Every player across the club's games: points, games won, rounds won, games played."""
        with self._lock:
            rows: dict[str, dict] = {}
            for r in self.replicas.values():
                for g in r.games():
                    for name in g.get("players") or []:
                        row = rows.setdefault(name, {"player": name, "points": 0, "games_won": 0, "rounds_won": 0,
                                                     "games": 0})
                        row["points"] += int((g.get("scores") or {}).get(name, 0))
                        row["games"] += 1
                    if g.get("game_winner") in rows:
                        rows[g["game_winner"]]["games_won"] += 1
                    for rnd in g.get("rounds") or []:
                        if rnd.get("winner") in rows:
                            rows[rnd["winner"]]["rounds_won"] += 1
            return sorted(rows.values(), key=lambda x: (-x["points"], -x["games_won"], -x["rounds_won"], x["player"]))

    def snapshot(self) -> dict:
        with self._lock:
            tournament = self.director.view()
        return {"club": self.club, "tables": self.tables(), "standings": self.standings(), "results": self.results(),
                "tournament": tournament, "events": self.store.count(), "ignored": self.ignored,
                "duplicates": self.duplicates}

    def start_tournament(self, kind: str, players: list[str], tables: list[str], deck: str = "classic") -> dict:
        with self._lock:
            view = self.director.start(kind, players, tables, deck)
        self._changed()
        return view

    def stop_tournament(self) -> None:
        with self._lock:
            self.director.stop()
        self._changed()


class HubClient:
    """The hub's connection to the broker: a lasting session (QoS 1 messages wait for the hub
    while it is away), every table's events and state, and resend requests out."""

    def __init__(self, hub: Hub, broker: str, port: int = 1883, *, username: str = "", password: str = "",
                 tls: bool = False, ca_file: str = "", client_factory=make_client):
        self.hub, self.broker, self.port = hub, broker, port
        self.client = client_factory(f"companion-hub-{hub.club}", username=username, password=password, tls=tls,
                                     ca_file=ca_file, clean=False)
        self.connected = self.closing = self.failing = False
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_message = lambda client, userdata, m: hub.handle(m.topic, m.payload)
        hub.ask = self.ask
        hub.director.publish = self.seat

    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if getattr(reason_code, "is_failure", False):
            log.error("club hub: the broker %s:%d refused the hub: %s", self.broker, self.port, reason_code)
            return
        self.connected, self.failing = True, False
        log.info("club hub: connected to %s:%d, club %s", self.broker, self.port, self.hub.club)
        client.subscribe([(msg.tables_topic(self.hub.club, "events"), 1), (msg.tables_topic(self.hub.club, "state"), 1)])
        with self.hub._lock:
            self.hub.director.resend()

    def _on_connect_fail(self, client, userdata) -> None:
        if not self.failing:              # once until it connects
            log.error("club hub: cannot connect to %s:%d (unreachable, or its TLS certificate is not trusted); "
                      "trying again", self.broker, self.port)
        self.failing = True

    def _on_disconnect(self, client, userdata, flags=None, reason_code=None, properties=None) -> None:
        if self.connected and not self.closing:
            log.warning("club hub: lost the broker %s:%d (%s); reconnecting", self.broker, self.port, reason_code)
        self.connected = False

    def ask(self, table: str, log_id: str, after: int) -> None:
        if self.connected:
            self.client.publish(msg.topic(self.hub.club, table, "resend"), msg.resend_message(log_id, after), qos=1)

    def seat(self, table: str, seating: dict | None) -> None:
        """The seating of a tournament set for ``table``, retained (None: no tournament any more)."""
        payload = msg.seating_message(seating) if seating is not None else b""
        self.client.publish(msg.topic(self.hub.club, table, "seating"), payload, qos=1, retain=True)

    def start(self) -> "HubClient":
        self.client.connect_async(self.broker, self.port, keepalive=30)
        self.client.loop_start()
        return self

    def close(self) -> None:
        self.closing = True
        self.client.disconnect()
        self.client.loop_stop()
