"""The hub's tournament director: it hands each table the seating of a set, counts the hands
played in it, and moves every table on together when all have played theirs.

A set's game at a table is the first game started there after the seating went out whose
players sit as the seating says (partners across); its first `tournament.HANDS` rounds count.
The seating goes out retained on ``uno/<club>/tables/<table>/seating``; the tournament's state
is kept in the hub's database, so a restarted hub carries on.
"""
from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from . import tournament as tour

log = logging.getLogger(__name__)


class Director:
    """Runs at most one tournament for ``hub``; ``publish(table, payload or None)`` sends a seating."""

    def __init__(self, hub, publish: Callable[[str, dict | None], None] | None = None):
        self.hub, self.publish = hub, publish
        self.t: dict | None = hub.store.tournament()

    def start(self, kind: str, players: list[str], tables: list[str], deck: str = "classic") -> dict:
        """Plan and begin a tournament (`TournamentError` if one is running or it does not fit)."""
        if self.t is not None and not self.t["done"]:
            raise tour.TournamentError(f"a tournament is running ({self.t['kind']}, set {self.t['current'] + 1} "
                                       f"of {len(self.t['sets'])}): finish or stop it first")
        sets = tour.plan(kind, [p.strip() for p in players], [t.strip() for t in tables])
        self.t = {"id": secrets.token_hex(4), "kind": kind, "players": players, "tables": tables, "deck": deck,
                  "sets": sets, "current": 0, "issued": [], "hands": [], "done": False}
        self._issue()
        return self.view()

    def stop(self) -> None:
        if self.t is not None and not self.t["done"]:
            self.t["done"] = True
            self._save()
            for table in self.t["tables"]:
                self._send(table, None)

    def _issue(self) -> None:
        """Send the current set's seating, noting where each table's games stood."""
        k = self.t["current"]
        marks = {}
        for table in self.t["tables"]:
            log_id = self.hub.current.get(table)
            r = self.hub.replicas.get((table, log_id)) if log_id else None
            marks[table] = [log_id, r.game if r is not None else None]
        self.t["issued"].append(marks)
        self.t["hands"].append({})
        self._save()
        self.resend()
        log.info("club: tournament %s set %d of %d seated", self.t["id"], k + 1, len(self.t["sets"]))

    def _send(self, table: str, seating: dict | None) -> None:
        if self.publish is not None:
            self.publish(table, seating)

    def resend(self) -> None:
        """Send the seating in force to every table (a new set, or the hub reconnected)."""
        if self.t is not None and not self.t["done"]:
            k = self.t["current"]
            for table, seats in self.t["sets"][k].items():
                self._send(table, {"tournament": self.t["id"], "set": k + 1, "sets": len(self.t["sets"]),
                                   "seats": seats, "hands": tour.HANDS, "setup": tour.setup_for(seats, self.t["deck"])})

    def _save(self) -> None:
        self.hub.store.save_tournament(self.t)

    # -- following the tables --------------------------------------------------------------------
    def _set_game(self, table: str, k: int) -> dict | None:
        """The snapshot of set ``k``'s game at ``table``, if it has started."""
        seats = self.t["sets"][k][table]
        log_id, game = self.t["issued"][k][table]
        cur = self.hub.current.get(table)
        r = self.hub.replicas.get((table, cur)) if cur else None
        if r is None:
            return None
        for number, snap in r.numbered_games():
            if cur == log_id and game is not None and number <= game:
                continue
            if snap.get("players") == seats and (snap.get("rules") or {}).get("partners"):
                return snap
        return None

    def check(self) -> bool:
        """After the hub heard something: count this set's hands; move on when every table is done."""
        if self.t is None or self.t["done"]:
            return False
        k = self.t["current"]
        hands = {}
        for table in self.t["sets"][k]:
            snap = self._set_game(table, k)
            hands[table] = list((snap or {}).get("rounds") or [])[: tour.HANDS]
        changed = hands != self.t["hands"][k]
        self.t["hands"][k] = hands
        if all(len(h) >= tour.HANDS for h in hands.values()):
            if k + 1 < len(self.t["sets"]):
                self.t["current"] = k + 1
                self._issue()
            else:
                self.t["done"] = True
                self._save()
                for table in self.t["tables"]:
                    self._send(table, None)
                log.info("club: tournament %s over", self.t["id"])
            return True
        if changed:
            self._save()
        return changed

    def view(self) -> dict | None:
        """What the page shows: the format, the set, who sits where, hands played, the standings."""
        if self.t is None:
            return None
        k = min(self.t["current"], len(self.t["sets"]) - 1)
        all_hands = [h for per_set in self.t["hands"] for hs in per_set.values() for h in hs]
        pts = tour.points(all_hands)
        by_partner: dict[str, dict[str, int]] = {p: {} for p in self.t["players"]}
        for k_set, per_set in enumerate(self.t["hands"]):
            for table, hs in per_set.items():
                seats = self.t["sets"][k_set][table]
                for name, got in tour.points(hs).items():
                    if name in seats:
                        partner = seats[(seats.index(name) + 2) % 4]
                        by_partner[name][partner] = by_partner[name].get(partner, 0) + got
        standings = sorted(({"player": p, "points": pts.get(p, 0), "with": by_partner.get(p, {})}
                            for p in self.t["players"]), key=lambda x: (-x["points"], x["player"]))
        return {"id": self.t["id"], "kind": self.t["kind"], "set": k + 1, "sets": len(self.t["sets"]),
                "done": self.t["done"], "seating": self.t["sets"][k],
                "hands": {t: len(h) for t, h in (self.t["hands"][k] if self.t["hands"] else {}).items()},
                "hands_per_set": tour.HANDS, "hands_played": len(all_hands), "standings": standings}
