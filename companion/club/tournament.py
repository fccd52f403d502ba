"""The official sheet's partner tournaments, as sets of hands the hub hands out to tables.

"With four players, play four hands with each of the other three players as your partner (a
total of 12 hands). Each player keeps track of his/her points scored in each partnership ...
the person scoring the highest number of points declared the winner. With eight players, play
two separate games at two tables, with each player having every other player as a partner for
four hands each (a total of 28 hands)." (../shared/rules/uno-official-rule-sheet.txt)

A set is four hands at each table with a seating: partners sit across (seats 1 and 3, 2 and 4).
When a team goes out it scores the cards left in both opponents' hands, and each partner is
credited with that total (the referee's ``rounds[].scored`` with ``partners``)::

    >>> [s["t1"] for s in plan("partners4", ["Ann", "Ben", "Cat", "Dan"], ["t1"])]
    [['Ann', 'Cat', 'Ben', 'Dan'], ['Ann', 'Ben', 'Cat', 'Dan'], ['Ann', 'Ben', 'Dan', 'Cat']]
    >>> len(plan("partners8", [f"P{i}" for i in range(8)], ["t1", "t2"]))
    7
"""
from __future__ import annotations

HANDS = 4                  # hands per set (per partnership)
NO_END = 1_000_000         # the games of a set end when the hub moves on, never by score
FORMATS = {"partners4": (4, 1), "partners8": (8, 2)}      # players, tables


class TournamentError(ValueError):
    pass


def _seats(a: tuple[str, str], b: tuple[str, str]) -> list[str]:
    """Two teams at one table, partners across: a0, b0, a1, b1 clockwise."""
    return [a[0], b[0], a[1], b[1]]


def plan(kind: str, players: list[str], tables: list[str]) -> list[dict[str, list[str]]]:
    """The sets of ``kind``: each ``{table: seats in clockwise order}``."""
    if kind not in FORMATS:
        raise TournamentError(f"unknown format {kind!r}; one of {', '.join(FORMATS)}")
    n, t = FORMATS[kind]
    if len(players) != n or len(set(players)) != n:
        raise TournamentError(f"{kind}: exactly {n} different players, not {len(players)}")
    if len(tables) != t or len(set(tables)) != t:
        raise TournamentError(f"{kind}: exactly {t} table{'s' if t > 1 else ''}, not {len(tables)}")
    if kind == "partners4":
        a = players[0]
        out = []
        for p in players[1:]:
            others = [x for x in players[1:] if x != p]
            out.append({tables[0]: _seats((a, p), (others[0], others[1]))})
        return out
    # eight players: the circle method gives 7 rounds of 4 pairs, every pair exactly once
    fixed, ring = players[0], players[1:]
    out = []
    for r in range(7):
        pairs = [(fixed, ring[r])] + [(ring[(r + i) % 7], ring[(r - i) % 7]) for i in range(1, 4)]
        out.append({tables[0]: _seats(pairs[0], pairs[1]), tables[1]: _seats(pairs[2], pairs[3])})
    return out


def setup_for(seats: list[str], deck: str = "classic") -> dict:
    """The ``setup`` input a table starts a set's game with."""
    return {"players": list(seats), "dealer": seats[-1], "deck": deck,
            "rules": {"partners": True, "target_score": NO_END}}


def points(hands: list[dict]) -> dict[str, int]:
    """Each player's points over ``hands`` (the referee's round records), as the sheet scores them."""
    out: dict[str, int] = {}
    for h in hands:
        for name, pts in (h.get("scored") or {}).items():
            out[name] = out.get(name, 0) + int(pts)
    return out
