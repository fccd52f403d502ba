"""Scripted games as data (like perft files): each ``tests/scenarios/*.jsonl`` is one rule or option.

A line is a table input, or a check of what the previous inputs did:

- ``{"expect": {...}}``: these keys of the snapshot have these values (dicts: the keys given);
- ``{"announced": [{...}, ...]}``: the last input's announcements contain these, in order (each
  a subset of an announcement);
- ``{"not_announced": ["type", ...]}``: the last input announced none of these types;
- ``{"malformed": {...}}``: this input raises InputError and changes nothing;
- ``{"#": "..."}``: a comment.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.referee import InputError, Referee

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.jsonl"))


def _match(expected, actual, where: str) -> None:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            assert k in actual, f"{where}: no {k!r} in {actual}"
            _match(v, actual[k], f"{where}.{k}")
    elif isinstance(expected, list) and expected and all(isinstance(e, dict) for e in expected):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{where}: expected {expected!r}, got {actual!r}"
        for n, (e, a) in enumerate(zip(expected, actual)):
            _match(e, a, f"{where}[{n}]")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


def _subset(expected: dict, actual: dict) -> bool:
    try:
        _match(expected, actual, "")
        return True
    except AssertionError:
        return False


def run_scenario(path: Path) -> Referee:
    ref = Referee()
    last: list[dict] = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        item = json.loads(line)
        where = f"{path.name}:{n}"
        if "#" in item:
            continue
        if "expect" in item:
            _match(item["expect"], ref.snapshot(), where)
        elif "announced" in item:
            pos = 0
            for want in item["announced"]:
                while pos < len(last) and not _subset(want, last[pos]):
                    pos += 1
                assert pos < len(last), f"{where}: {want} not announced (in order) in {last}"
                pos += 1
        elif "not_announced" in item:
            types = {a["type"] for a in last}
            assert not types & set(item["not_announced"]), f"{where}: unexpected {types & set(item['not_announced'])}"
        elif "malformed" in item:
            before = ref.snapshot()
            with pytest.raises(InputError):
                ref.apply(item["malformed"])
            assert ref.snapshot() == before, where
        else:
            last = ref.apply(item)
    return ref


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    run_scenario(path)


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 10
