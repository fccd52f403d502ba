"""Read the event rows straight from the pages of a damaged SQLite event log.

SQLite keeps a table's rows in the leaf pages of a b-tree. When the file is cut short, or some of
its pages are damaged, SQLite refuses to read it (the tree no longer holds together), yet every
leaf page that survived still holds its rows, whole. This module reads every page of the file
(and of its write-ahead log, where the last inputs may still be), decodes each leaf cell's record
as the SQLite file format describes it, and keeps the records shaped like an event row
(``seq`` as the row id, then game, json, source, at) or a game row (``game`` as the row id, at).
Rows whose cells span overflow pages (an input over about 4 KB; none the referee takes) are
not read. See https://www.sqlite.org/fileformat.html.
"""
from __future__ import annotations

import json
import struct
from pathlib import Path

HEADER = b"SQLite format 3\x00"
LEAF_TABLE = 0x0D
WAL_HEADER, FRAME_HEADER = 32, 24


def salvage(path: Path) -> tuple[list[tuple], dict[int, str]]:
    """Every event row ``(seq, game, json, source, at)`` and game row ``{game: at}`` readable in
    ``path`` and its ``-wal``."""
    data = path.read_bytes() if path.exists() else b""
    size = _page_size(data)
    pages = [data[i:i + size] for i in range(0, len(data), size)]      # a page cut short keeps its first cells
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        w = wal.read_bytes()
        wsize = struct.unpack(">I", w[8:12])[0] if len(w) >= WAL_HEADER else 0
        if wsize in _SIZES:
            step = FRAME_HEADER + wsize
            pages += [w[i + FRAME_HEADER:i + step] for i in range(WAL_HEADER, len(w) - step + 1, step)]
    events, games = {}, {}
    for n, page in enumerate(pages):
        for rowid, values in _cells(page, 100 if (n == 0 and page.startswith(HEADER)) else 0, size):
            if _is_event(values):
                events.setdefault(rowid, (rowid, *values[1:]))
            elif len(values) == 2 and values[0] is None and isinstance(values[1], str) and values[1][:2] == "20":
                games.setdefault(rowid, values[1])
    return [events[k] for k in sorted(events)], games


_SIZES = {512 << i for i in range(8)}


def _page_size(data: bytes) -> int:
    if data.startswith(HEADER) and len(data) >= 18:
        size = struct.unpack(">H", data[16:18])[0]
        size = 65536 if size == 1 else size
        if size in _SIZES:
            return size
    return 4096


def _is_event(values: list) -> bool:
    if len(values) != 5 or values[0] is not None or not isinstance(values[1], int):
        return False
    if not all(isinstance(v, str) for v in values[2:]):
        return False
    try:
        return isinstance(json.loads(values[2]), dict)
    except ValueError:
        return False


def _cells(page: bytes, start: int, usable: int):
    """(rowid, values) of each whole cell of a leaf table page; nothing for any other page."""
    if len(page) < start + 8 or page[start] != LEAF_TABLE:
        return
    count = struct.unpack(">H", page[start + 3:start + 5])[0]
    for i in range(count):
        at = start + 8 + 2 * i
        if at + 2 > len(page):
            return
        off = struct.unpack(">H", page[at:at + 2])[0]
        try:
            size, off = _varint(page, off)
            rowid, off = _varint(page, off)
            if size > usable - 35 or off + size > len(page):      # spills to overflow pages, or cut
                continue
            yield rowid, _record(page[off:off + size])
        except (IndexError, ValueError, UnicodeDecodeError, struct.error):
            continue


def _varint(b: bytes, i: int) -> tuple[int, int]:
    v = 0
    for k in range(9):
        c = b[i + k]
        if k == 8:
            return (v << 8) | c, i + 9
        v = (v << 7) | (c & 0x7F)
        if not c & 0x80:
            return v, i + k + 1
    raise ValueError("varint")


_INTS = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _record(r: bytes) -> list:
    head, i = _varint(r, 0)
    types = []
    while i < head:
        t, i = _varint(r, i)
        types.append(t)
    values, p = [], head
    for t in types:
        if t == 0:
            values.append(None)
        elif t in _INTS:
            n = _INTS[t]
            values.append(int.from_bytes(r[p:p + n], "big", signed=True))
            p += n
        elif t == 7:
            values.append(struct.unpack(">d", r[p:p + 8])[0])
            p += 8
        elif t in (8, 9):
            values.append(t - 8)
        elif t >= 12:
            n = (t - 12) // 2
            chunk = r[p:p + n]
            if len(chunk) != n:
                raise ValueError("record cut short")
            values.append(chunk.decode("utf-8") if t % 2 else bytes(chunk))
            p += n
        else:
            raise ValueError(f"serial type {t}")
    return values
