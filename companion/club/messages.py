"""What tables and the hub say to each other through the broker: topics and JSON payloads.

Topics, one club per prefix::

    uno/<club>/tables/<table>/events   every input of the table's event log, QoS 1, in order
    uno/<club>/tables/<table>/state    the table's snapshot, retained (the latest only)
    uno/<club>/tables/<table>/resend   the hub asks for the inputs from a sequence number on
    uno/<club>/tables/<table>/seating  a tournament set's seating, retained, from the hub

An event says which log file it comes from (``log``: a random id made once per file, so a table
that starts a fresh file is not taken for the old one), its ``seq`` and the ``prev`` input before
it, so the hub applies inputs in order and drops duplicates by (table, log, seq)::

    >>> m = event_message("t1", "ab12ab12", {"seq": 2, "prev": 1, "game": 1, "event": {"play": "red 7"},
    ...                                  "source": "camera", "at": "2026-01-01T20:00:00.000+00:00"})
    >>> parse_event("uno/pub/tables/t1/events", m, club="pub")["event"]
    {'play': 'red 7'}
    >>> parse_event("uno/pub/tables/t2/events", m, club="pub")
    Traceback (most recent call last):
    ...
    companion.club.messages.BadMessage: the payload names table 't1' but came on t2's topic
"""
from __future__ import annotations

import json
import re

VERSION = 1
MAX_PAYLOAD = 256 * 1024
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
_LOG = re.compile(r"[0-9a-f]{8,64}")


class BadMessage(ValueError):
    """A message the hub ignores (and counts): malformed, or not from where it claims."""


def topic(club: str, table: str, kind: str) -> str:
    return f"uno/{club}/tables/{table}/{kind}"


def tables_topic(club: str, kind: str) -> str:
    """The subscription to ``kind`` of every table of ``club``."""
    return f"uno/{club}/tables/+/{kind}"


def table_of(topic_name: str, club: str, kind: str) -> str:
    parts = topic_name.split("/")
    if len(parts) != 5 or parts[:3] != ["uno", club, "tables"] or parts[4] != kind or not _NAME.fullmatch(parts[3]):
        raise BadMessage(f"not a {kind} topic of club {club!r}: {topic_name!r}")
    return parts[3]


def event_message(table: str, log: str, row: dict) -> bytes:
    return json.dumps({"v": VERSION, "table": table, "log": log, "seq": row["seq"], "prev": row["prev"],
                       "game": row["game"], "event": row["event"], "source": row["source"], "at": row["at"]},
                      separators=(",", ":"), sort_keys=True).encode()


def state_message(table: str, log: str, state: dict) -> bytes:
    return json.dumps({"v": VERSION, "table": table, "log": log, "seq": state.get("seq", 0), "state": state},
                      separators=(",", ":"), default=str).encode()


def resend_message(log: str, after: int) -> bytes:
    return json.dumps({"v": VERSION, "log": log, "after": after}).encode()


def seating_message(seating: dict) -> bytes:
    return json.dumps({"v": VERSION, **seating}, separators=(",", ":")).encode()


def parse_seating(payload: bytes) -> dict | None:
    """A tournament set's seating for a table; None for an empty (cleared) one."""
    if not payload:
        return None
    m = _load(payload)
    seats = m.get("seats")
    if (not isinstance(m.get("tournament"), str) or not isinstance(seats, list) or len(seats) != 4
            or not all(isinstance(s, str) and s for s in seats) or not isinstance(m.get("setup"), dict)):
        raise BadMessage("a seating names its tournament, four seats and the setup")
    return {"tournament": m["tournament"], "set": _int(m, "set", 1), "sets": _int(m, "sets", 1),
            "hands": _int(m, "hands", 1), "seats": seats, "setup": m["setup"]}


def _load(payload: bytes) -> dict:
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"payload of {len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        m = json.loads(payload)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadMessage(f"not JSON: {exc}") from None
    if not isinstance(m, dict) or m.get("v") != VERSION:
        raise BadMessage(f"not a version {VERSION} message")
    return m


def _int(m: dict, key: str, lo: int = 0) -> int:
    v = m.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        raise BadMessage(f"{key} must be a whole number of at least {lo}, got {v!r}")
    return v


def _log_id(m: dict) -> str:
    log = m.get("log")
    if not isinstance(log, str) or not _LOG.fullmatch(log):
        raise BadMessage(f"log must be a hex id, got {log!r}")
    return log


def parse_event(topic_name: str, payload: bytes, *, club: str) -> dict:
    """A table's event message, checked: from the table whose topic it came on, well formed."""
    table = table_of(topic_name, club, "events")
    m = _load(payload)
    if m.get("table") != table:
        raise BadMessage(f"the payload names table {m.get('table')!r} but came on {table}'s topic")
    seq, prev = _int(m, "seq", 1), _int(m, "prev", 0)
    if prev >= seq:
        raise BadMessage(f"prev {prev} must come before seq {seq}")
    if not isinstance(m.get("event"), dict) or not isinstance(m.get("source"), str) or not isinstance(m.get("at"), str):
        raise BadMessage("event must be an object, source and at text")
    return {"table": table, "log": _log_id(m), "seq": seq, "prev": prev, "game": _int(m, "game", 1),
            "event": m["event"], "source": m["source"], "at": m["at"]}


def parse_state(topic_name: str, payload: bytes, *, club: str) -> dict:
    table = table_of(topic_name, club, "state")
    m = _load(payload)
    if m.get("table") != table or not isinstance(m.get("state"), dict):
        raise BadMessage("a state message names its own table and holds a state object")
    return {"table": table, "log": _log_id(m), "seq": _int(m, "seq", 0), "state": m["state"]}


def parse_resend(payload: bytes) -> dict:
    m = _load(payload)
    return {"log": _log_id(m), "after": _int(m, "after", 0)}
