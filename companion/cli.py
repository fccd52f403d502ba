"""The `companion` command: one sub-command per job, each living in its own module.

Each module named in COMMANDS provides ``add_arguments(parser)`` and ``main(args) -> int``.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import sys

COMMANDS = {
    "demo": ("companion.demo", "play one simulated round (--full: a whole game): rendered frames, recogniser, referee, buttons, live page"),
    "run": ("companion.run", "referee a real table: camera, GPIO buttons and buzzer, score page"),
    "replay": ("companion.replay", "replay a JSON-lines file of table inputs and print the final state"),
    "recognize": ("companion.vision.command", "recognise the cards in photos (one JSON line per image)"),
    "calibrate": ("companion.calibrate", "check the camera framing and focus, and that each colour reads right"),
    "serve": ("companion.web.serve", "serve the score page for a game database"),
    "club": ("companion.club.command", "the club's hub: every table's game through an MQTT broker, one standings page"),
    "repair": ("companion.repair", "recover a damaged event log into a fresh one (the damaged file kept beside it)"),
}


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = {}
    for name, (modname, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if not (exc.name and modname.startswith(exc.name)):
                raise
            continue
        mod.add_arguments(p)
        modules[name] = mod
    return parser, modules


def main(argv: list[str] | None = None) -> int:
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.command:
        parser.print_help()
        return 2
    if args.command not in modules:
        print(f"companion {args.command}: not available in this build", file=sys.stderr)
        return 2
    return int(modules[args.command].main(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
