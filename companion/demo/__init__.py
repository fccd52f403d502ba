"""`companion demo`: a whole simulated game through the real camera pipeline, referee and buttons.

Bot players deal and play a game to 500 with real (simulated) cards, making a few mistakes on
purpose: a forgotten UNO (caught), a card that does not match, a bluffed Wild Draw Four
(challenged). Each card put down is rendered as overhead camera frames and read by the real
motion gate and recogniser; the bots press the panel's buttons on mock GPIO pins; the score page
runs live. This module is the terminal front: options, the commentary, the summary.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile

log = logging.getLogger("companion.demo")

QUIET_LOGGERS = ("companion.run", "companion.camera", "companion.web", "companion.panel", "waitress")
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from companion.cards import deck_names
    parser.add_argument("--seed", type=int, default=None, help="shuffle and bots' seed (default: random)")
    parser.add_argument("--players", nargs="+", default=["4"], metavar="N|NAME",
                        help="how many bots (2-10), or their names in seat order (default: 4)")
    parser.add_argument("--deck", default="classic", choices=deck_names(), help="deck profile (default: classic)")
    parser.add_argument("--target", type=int, default=500, help="points that win the game (default: 500)")
    parser.add_argument("--rounds", type=int, default=None, metavar="N", help="stop after N rounds")
    parser.add_argument("--fast", action="store_true", help="no pauses between plays")
    parser.add_argument("--pace", type=float, default=0.3, metavar="SECONDS",
                        help="pause after each card played, so people can follow on the page (default: 0.3)")
    parser.add_argument("--no-web", action="store_true", help="do not serve the score page")
    parser.add_argument("--port", type=int, default=8080, help="score page port (default: 8080)")
    parser.add_argument("--db", default=None, help="the game's event log (default: a temporary file)")
    parser.add_argument("--model", default=None, metavar="DIR",
                        help="folder of the recogniser's model files (default: the shipped models/)")
    parser.add_argument("--oracle", action="store_true",
                        help="DEVELOPMENT ONLY: read the cards from the simulation instead of the recogniser")


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
              "The trained model files (models/recognizer.json, detector.onnx, classifier.onnx, outlines.onnx) are "
              "needed to read the cards.\n(For development only, --oracle reads the cards from the "
              "simulation instead.)", file=sys.stderr)
        return None


def main(args: argparse.Namespace) -> int:
    try:
        players = player_names(args.players)
    except ValueError as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return 2
    quiet = () if getattr(args, "verbose", False) else QUIET_LOGGERS
    levels = {name: logging.getLogger(name).level for name in quiet}
    for name in quiet:            # the commentary says it all; keep the log for problems
        logging.getLogger(name).setLevel(logging.WARNING)
    try:
        return _run(args, players)
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def _run(args: argparse.Namespace, players: list[str]) -> int:
    from companion.table import Table

    from .game import DemoGame

    eyes = make_eyes(args)
    if eyes is None:
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(2), "big")
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="companion-demo-"), "demo.db")
    term = Terminal()
    table = Table(db)
    game = DemoGame(table, eyes, players=players, deck=args.deck, seed=seed, target=args.target,
                    rounds=args.rounds, pace=0.0 if args.fast else args.pace, say=term.say,
                    progress=term.progress)
    server = None
    print(f"UNO Table Companion demo: {', '.join(players)}, {args.deck} deck, to {args.target} points, "
          f"seed {seed}; event log {db}")
    if not args.no_web:
        server = _serve(table, game, args.port)
    try:
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
        if server is not None:
            server.stop(timeout=1)
        table.close()
    term.end_progress()
    print_summary(report, oracle=bool(args.oracle))
    return 0 if report.ok else 1


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


def print_summary(report, *, oracle: bool = False, out=None) -> None:
    """The final scores, each round checked against the real cards, and how the camera did."""
    out = out or sys.stdout
    w = print
    w("", file=out)
    w("Final scores" + (f" ({report.game_winner} wins the game)" if report.game_winner else ""), file=out)
    for p in report.players:
        truth = report.truth_scores.get(p)
        mark = "" if truth == report.scores.get(p) else f"   (the real cards say {truth})"
        w(f"  {p:<8} {report.scores.get(p, 0):>5}{mark}", file=out)
    for r in report.rounds:
        w(f"  round {r['round']}: {r['referee_winner']} +{r['referee_points']}"
          + ("" if r["ok"] else f"   MISMATCH: the cards say {r['winner']} +{r['points']}"), file=out)
    w("", file=out)
    how = "the simulation (--oracle), NOT the recogniser" if oracle else "the recogniser"
    w(f"Recognition ({how}):", file=out)
    w(f"  cards put down: {report.plays_right}/{report.plays_seen} reached the referee right "
      f"without a fix", file=out)
    eyes = getattr(report, "eyes", None)
    if eyes is not None:
        w(f"  frames read: {eyes.right}/{eyes.frames} right", file=out)
        seen: dict[tuple, list] = {}
        for m in eyes.mistakes:
            seen.setdefault((m["seen"], m["truth"]), []).append(m["confidence"])
        for (what, truth), confs in seen.items():
            known = [str(c) for c in confs if c is not None]
            sure = ", ".join(known[:4]) + (", ..." if len(known) > 4 else "")
            w(f"    read {what} where {truth} lay" + (f" x{len(confs)}" if len(confs) > 1 else "")
              + (f" (confidence {sure})" if sure else ""), file=out)
    if report.hands_seen or report.hands_entered:
        w(f"  hands spread for scoring: {report.hands_right}/{report.hands_seen} read right without a fix"
          + (f"; {report.hands_entered} too big to spread, entered by the host" if report.hands_entered else ""),
          file=out)
    asked = [t for t in report.twins if t["how"] == "asked"]
    entered = [t for t in report.twins if t["how"] != "asked"]
    if report.twins:
        w(f"  {len(report.twins)} cards were put on their twin (the same face as the top card):", file=out)
    if asked:
        w(f"    {len(asked)} the camera asked about (\"Was another {asked[0]['card']} played?\") and the host "
          f"answered \"It was {asked[0]['card']}\" on the page", file=out)
    if entered:
        w(f"    {len(entered)} lay exactly where the twin lay (the gate takes that for the pile nudged), "
          f"so the host entered them", file=out)
    for f in report.camera_fixes:
        if not f.get("twin"):
            w(f"  fixed by the host: {f['card']} (the referee got {f['got']})", file=out)
    w(f"  {report.frames} frames rendered in {report.seconds:.0f} s, {report.moves} moves", file=out)
    w("Scripted mistakes:", file=out)
    for m in report.mistakes:
        w(f"  {'ok ' if m['ok'] else 'NOT'} {m['text']}: {m['expected']}", file=out)
    if report.disagreements:
        w("The referee disagreed with the real cards:", file=out)
        for d in report.disagreements[:20]:
            w(f"  {d}", file=out)
    else:
        w("The referee agreed with the real cards all game.", file=out)
