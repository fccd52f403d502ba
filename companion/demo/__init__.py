"""`companion demo`: a simulated table through the real camera pipeline, referee and buttons.

Bot players deal and play one round (or, with ``--target``/``--full``, a whole game) with real
(simulated) cards, making a few mistakes on purpose: a forgotten UNO (caught), a card that does not match, a bluffed Wild Draw Four
(challenged). Each card put down is rendered as overhead camera frames and read by the real
motion gate and recogniser; the bots press the panel's buttons on mock GPIO pins; the score page
runs live. This module is the terminal front: options, the commentary; `summary.py` prints
what the demo proved.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile

log = logging.getLogger("companion.demo")

QUIET_LOGGERS = ("companion.run", "companion.camera", "companion.web", "companion.panel", "waitress")
DEFAULT_TARGET = 500
START_PAUSE = 3.0     # seconds to scan the page's QR code before the commentary scrolls it away
PACE = 0.3            # seconds after each card played
VOICE_PACE = 2.0      # ... when the calls are spoken: time to say them
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from companion.cards import deck_names
    parser.add_argument("--seed", type=int, default=None, help="shuffle and bots' seed (default: random)")
    parser.add_argument("--players", nargs="+", default=["4"], metavar="N|NAME",
                        help="how many bots (2-10), or their names in seat order (default: 4)")
    parser.add_argument("--deck", default="classic", choices=deck_names(), help="deck profile (default: classic)")
    parser.add_argument("--target", type=int, default=None, metavar="N",
                        help="play a whole game to N points (default: one round)")
    parser.add_argument("--full", action="store_true", help="play a whole game to 500 points")
    parser.add_argument("--rounds", type=int, default=None, metavar="N",
                        help="play N rounds (or until the game is won)")
    parser.add_argument("--fast", action="store_true", help="no pauses between plays")
    parser.add_argument("--pace", type=float, default=None, metavar="SECONDS",
                        help="pause after each card played, so people can follow on the page "
                             f"(default: {PACE}; {VOICE_PACE} with --voice)")
    parser.add_argument("--club", action="store_true",
                        help="club night: a broker, the hub and its page (on --port), three tables at once")
    parser.add_argument("--broker", default=None, metavar="HOST[:PORT]",
                        help="with --club: this MQTT broker instead of starting Mosquitto here")
    parser.add_argument("--voice", action="store_true",
                        help="say every call aloud with espeak-ng, as [voice] does at a real table")
    parser.add_argument("--no-web", action="store_true", help="do not serve the score page")
    parser.add_argument("--port", type=int, default=8080, help="score page port (default: 8080)")
    parser.add_argument("--db", default=None, help="the game's event log (default: a temporary file)")
    parser.add_argument("--model", default=None, metavar="DIR",
                        help="folder of the recogniser's model files (default: the shipped models/)")
    parser.add_argument("--oracle", action="store_true",
                        help="DEVELOPMENT ONLY: read the cards from the simulation instead of the recogniser")


def plan(args: argparse.Namespace) -> tuple[int, int | None]:
    """The target score and the rounds to play: one round unless a whole game (``--target N``,
    ``--full``) or some rounds (``--rounds N``) are asked for."""
    target = args.target if args.target is not None else DEFAULT_TARGET
    if target < 1:
        raise ValueError(f"--target: a positive number of points, not {target}")
    if args.rounds is not None and args.rounds < 1:
        raise ValueError(f"--rounds: at least 1, not {args.rounds}")
    whole = args.full or args.target is not None
    return target, args.rounds if (args.rounds is not None or whole) else 1


def what_happens(players: list[str], deck: str, target: int, rounds: int | None) -> str:
    """The one line said before the game starts."""
    span = (f"a whole game to {target} points" if rounds is None
            else "one round (to the first player out, then the hands are scored)" if rounds == 1
            else f"{rounds} rounds")
    return (f"{len(players)} bots ({', '.join(players)}) play {span} with the {deck} deck: every card put "
            "down is filmed and read by the recogniser, buttons are pressed on the panel, and three "
            "mistakes are made on purpose for the referee to catch.")


def player_names(spec: list[str]) -> list[str]:
    """``["3"]`` -> three default names; ``["Ann,Ben"]`` or ``["Ann", "Ben"]`` -> those names."""
    if len(spec) == 1 and spec[0].isdigit():
        n = int(spec[0])
        if not 2 <= n <= len(NAMES):
            raise ValueError(f"--players: 2 to {len(NAMES)} bots, not {n}")
        return list(NAMES[:n])
    names = [n.strip() for part in spec for n in part.split(",") if n.strip()]
    if not 2 <= len(names) <= 10 or len(set(names)) != len(names):
        raise ValueError("--players: 2 to 10 different names")
    return names


class Terminal:
    """The running commentary, with a progress line kept at the bottom on a terminal."""

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.tty = self.out.isatty()
        self.line = ""

    def say(self, text: str) -> None:
        if self.tty and self.line:
            self.out.write("\r\x1b[2K")
        self.out.write(text + "\n")
        if self.tty and self.line:
            self.out.write(self.line)
        self.out.flush()

    def progress(self, st: dict) -> None:
        if not self.tty:
            return
        scores = " ".join(f"{p} {s}" for p, s in st["scores"].items())
        self.line = (f"round {st['round']} | moves {st['moves']} | cards seen {st['right']}/{st['plays']} right"
                     f" | frames {st['frames']} | {scores}")[:150]
        self.out.write("\r\x1b[2K" + self.line)
        self.out.flush()

    def end_progress(self) -> None:
        if self.tty and self.line:
            self.out.write("\r\x1b[2K")
            self.line = ""


def make_eyes(args):
    """The recogniser the gate will use, wrapped to be scored; None (after saying why) if absent."""
    from .game import Eyes
    if args.oracle:
        log.warning("--oracle: the cards are read from the simulation, NOT by the recogniser "
                    "(development only; recognition is not being tested)")
        return Eyes(oracle=True)
    try:
        from companion.vision.recognizer import ModelError, Recognizer
    except ImportError as exc:
        print(f"companion demo: the vision part is not installed ({exc})", file=sys.stderr)
        return None
    try:
        return Eyes(Recognizer(deck=args.deck, model_dir=getattr(args, "model", None)))
    except ModelError as exc:
        print(f"companion demo: no card recogniser: {exc}\n"
              "The trained model files (models/recognizer.json and the finder, face reader and classifier it names) are "
              "needed to read the cards.\n(For development only, --oracle reads the cards from the "
              "simulation instead.)", file=sys.stderr)
        return None


def main(args: argparse.Namespace) -> int:
    try:
        players = player_names(args.players)
        target, rounds = plan(args)
    except ValueError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return 2
    quiet = () if getattr(args, "verbose", False) else QUIET_LOGGERS
    levels = {name: logging.getLogger(name).level for name in quiet}
    for name in quiet:            # the commentary says it all; keep the log for problems
        logging.getLogger(name).setLevel(logging.WARNING)
    try:
        if getattr(args, "club", False):
            from .club import run_club
            return run_club(args, make_eyes, target, rounds)
        return _run(args, players, target, rounds)
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def _run(args: argparse.Namespace, players: list[str], target: int, rounds: int | None) -> int:
    import time

    from companion.store import STORAGE_EXIT, StorageError
    from companion.table import Table

    from .game import DemoGame
    from .summary import print_summary

    eyes = make_eyes(args)
    if eyes is None:
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(2), "big")
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="companion-demo-"), "demo.db")
    term = Terminal()
    try:
        table = Table(db)
    except StorageError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return STORAGE_EXIT
    spoken = getattr(args, "voice", False)
    pace = 0.0 if args.fast else args.pace if args.pace is not None else VOICE_PACE if spoken else PACE
    voice = _voice(table) if spoken else None
    game = DemoGame(table, eyes, players=players, deck=args.deck, seed=seed, target=target,
                    rounds=rounds, pace=pace, say=term.say, progress=term.progress)
    server = None
    print(f"UNO Table Companion demo (seed {seed}; event log {db})")
    if not args.no_web:
        server = _serve(table, game, args.port)
    print(what_happens(players, args.deck, target, rounds))
    try:
        if server is not None and pace and term.tty:
            time.sleep(START_PAUSE)
        report = game.play()
    except KeyboardInterrupt:
        term.end_progress()
        print("\nstopped")
        report = game.report
    except RuntimeError as exc:       # the bots and the referee no longer agree on what comes next
        term.end_progress()
        print(f"companion demo: {exc}", file=sys.stderr)
        report = game.report
        report.disagreements.append(str(exc))
    finally:
        game.close()
        if voice is not None:
            voice.close(timeout=0.0 if args.fast else 10.0)
        if server is not None:
            server.stop(timeout=1)
        table.close()
    term.end_progress()
    print_summary(report, oracle=bool(args.oracle), db=db)
    return 0 if report.ok else 1


def _voice(table):
    """The referee's voice for the demo (the defaults of [voice]); it says why when it cannot speak."""
    from companion.config import VoiceConfig
    from companion.voice import build_voice
    voice = build_voice(VoiceConfig(enabled=True))
    return voice.attach(table) if voice is not None else None


def _serve(table, game, port: int):
    try:
        from companion.web import create_app
        from companion.web.serve import start
    except ImportError as exc:
        print(f"(no score page in this build: {exc})")
        return None
    try:
        app = create_app(table, config={"HOST_PIN": None, "CAMERA": game.preview})
        server = start(app, "0.0.0.0", port, show_qr=None)
    except OSError as exc:
        print(f"(cannot serve the score page on port {port}: {exc}; try --port)")
        return None
    print(f"Score page: {server.url}  (on this machine: {server.local_url}); host PIN {app.config['HOST_PIN']}")
    return server
