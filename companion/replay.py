"""``companion replay FILE.jsonl [--json]``: replay table inputs (one JSON object a line) and
print the final state. A malformed line stops the replay with its line number and exit code 2;
a well-formed but illegal input is only an announcement in the state."""
from __future__ import annotations

import argparse
import json
import sys

from .referee import InputError, Referee
from .table import parse_table_input


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="JSON-lines file of table inputs ('-' for standard input)")
    parser.add_argument("--json", action="store_true", help="print the final state as one JSON object")


def replay_lines(lines, ref: Referee | None = None) -> Referee:
    """Apply every non-blank line; raise `InputError` with the line number on a bad line."""
    ref = ref or Referee()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"line {n}: not JSON ({exc.msg})") from None
        try:
            if parse_table_input(event) is None:      # pause/resume: the table's, not the game's
                ref.apply(event)
        except InputError as exc:
            raise InputError(f"line {n}: {exc}") from None
    return ref


def main(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            ref = replay_lines(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as fh:
                ref = replay_lines(fh)
    except OSError as exc:
        print(f"companion replay: {exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"companion replay: {args.file}: {exc}", file=sys.stderr)
        return 2
    snap = ref.snapshot()
    if args.json:
        print(json.dumps(snap))
        return 0
    for a in snap["announcements"]:
        print(a["text"])
    print()
    print(f"current: {snap['current']}  direction: {snap['direction']}  top: {snap['top']} ({snap['color']})")
    print("hands:  " + ", ".join(f"{k} {v}" for k, v in snap["hand_counts"].items()))
    print("scores: " + ", ".join(f"{k} {v}" for k, v in snap["scores"].items()))
    if snap["awaiting"]:
        print(f"next:   {snap['awaiting']['prompt']}")
    return 0
