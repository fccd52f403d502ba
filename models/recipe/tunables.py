"""The old recogniser's tunables (`companion.vision.pile_tuning`) changed for one benchmark run,
so that a part can be switched off and measured (`--set NAME=VALUE` of `bench`, `bench-piles` and
`bench-conditions`; `models/ablation.md`): a number, or a tuple of numbers written with commas
(``ZOOM_OUT=`` is the empty tuple: that look switched off)."""
from __future__ import annotations

import contextlib
import json


def parse_thresholds(pairs: list[str]) -> dict:
    """``["NAME=VALUE", ...]`` as {NAME: number or tuple of numbers}; a ValueError unless each
    NAME is a number, or a tuple of numbers, the recogniser's rules read (an upper-case constant
    of `companion.vision.pile_tuning`)."""
    from companion.vision import pile_tuning
    out = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        old = getattr(pile_tuning, name, None)
        numbers = isinstance(old, tuple) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in old)
        number = isinstance(old, (int, float)) and not isinstance(old, bool)
        if not eq or not name.isupper() or not (number or numbers):
            raise ValueError(f"--set {pair!r}: give NAME=VALUE, NAME a number (or a tuple of numbers) "
                             f"in companion.vision.pile_tuning")
        try:
            out[name] = type(old)(value) if number else tuple(float(v) for v in value.split(",") if v.strip())
        except ValueError:
            kind = type(old).__name__ if number else "list of numbers with commas"
            raise ValueError(f"--set {pair!r}: {value!r} is not a {kind}") from None
    return out


def set_from_json(text: str) -> None:
    """The tunables a JSON object names set, for good (in a process started to read with them:
    `bench-conditions`' `companion recognize`); JSON lists as tuples."""
    from companion.vision import pile_tuning
    for name, value in json.loads(text).items():
        setattr(pile_tuning, name, tuple(value) if isinstance(value, list) else value)


@contextlib.contextmanager
def changed(thresholds: dict):
    """The recogniser's tunables set to `thresholds` inside the block, as they were after."""
    from companion.vision import pile_tuning
    old = {name: getattr(pile_tuning, name) for name in thresholds}
    try:
        for name, value in thresholds.items():
            setattr(pile_tuning, name, value)
        yield
    finally:
        for name, value in old.items():
            setattr(pile_tuning, name, value)


def add_argument(ap) -> None:
    """A benchmark's ``--set NAME=VALUE`` option (repeatable)."""
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="read with this tunable of companion.vision.pile_tuning changed (repeatable; a tuple "
                         "with commas, e.g. ZOOM_OUT= switches that look off): what a part pays, models/ablation.md")


def from_args(ap, args) -> dict:
    """The tunables `args.set` names; a usage error from `ap` for one that is not a tunable."""
    try:
        return parse_thresholds(args.set)
    except ValueError as exc:
        ap.error(str(exc))
