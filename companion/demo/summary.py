"""What the demo proved, printed when it ends: the details, then one block that cannot be missed.

`figures(report)` is the block's content as plain values (a test checks them against the game's
event log); `print_summary` prints the details of each round and of the camera's reading, then
the block.
"""
from __future__ import annotations

import sys

MISTAKES = {           # the scripted mistakes, in the order the summary lists them
    "forgot_uno": "a forgotten UNO call",
    "illegal": "a card that does not match",
    "bluff": "a bluffed Wild Draw Four",
}
WIDTH = 72


def figures(report) -> dict:
    """The summary's figures: cards put down and read right, frames, hand scans, each scripted
    mistake (caught, not caught, or not made before the demo ended), scores, time."""
    eyes = getattr(report, "eyes", None)
    made = {m["kind"]: m for m in report.mistakes}
    return {
        "rounds": len(report.rounds),
        "cards": report.plays_seen, "cards_right": report.plays_right,
        "frames": report.frames,
        "frames_read": eyes.frames if eyes is not None else None,
        "frames_right": eyes.right if eyes is not None else None,
        "hands": report.hands_seen, "hands_right": report.hands_right, "hands_entered": report.hands_entered,
        "mistakes": {kind: (None if kind not in made else made[kind]["ok"]) for kind in MISTAKES},
        "scores": {p: report.scores.get(p, 0) for p in report.players},
        "game_winner": report.game_winner,
        "round_winners": [r["referee_winner"] for r in report.rounds],
        "agreed": not report.disagreements and all(r["ok"] for r in report.rounds),
        "seconds": report.seconds,
    }


def print_summary(report, *, oracle: bool = False, db: str | None = None, out=None) -> None:
    """The details (each round checked against the real cards, what the camera misread), then
    the summary block."""
    out = out or sys.stdout
    _details(report, oracle, out)
    _block(report, oracle, db, out)


def _details(report, oracle: bool, out) -> None:
    w = print
    w("", file=out)
    w("Scores" + (f" ({report.game_winner} wins the game)" if report.game_winner else ""), file=out)
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


def _block(report, oracle: bool, db: str | None, out) -> None:
    f = figures(report)
    rule = "=" * WIDTH
    lines = []
    rounds = "one round" if f["rounds"] == 1 else f"{f['rounds']} rounds"
    won = f", won by {f['round_winners'][-1]}" if f["rounds"] == 1 and f["round_winners"][-1] else ""
    ended = f"{f['game_winner']} wins the game" if f["game_winner"] else rounds + won
    lines.append(f"DEMO OVER: {ended}, in {_duration(f['seconds'])}")
    order = sorted(f["scores"], key=lambda p: -f["scores"][p])
    lines.append("Scores      " + ", ".join(f"{p} {f['scores'][p]}" for p in order))
    who = "the simulation (--oracle)" if oracle else "the camera"
    twins = len(report.twins)
    lines.append(f"Cards       {f['cards']} put down, {f['cards_right']} read right by {who}"
                 + (f"; {twins} put on its twin, confirmed by the host" if twins else ""))
    if f["frames_read"] is not None:
        lines.append(f"Frames      {f['frames']} filmed, {f['frames_read']} read by the recogniser, "
                     f"{f['frames_right']} right")
    hands = f"{f['hands']} hands spread for scoring, {f['hands_right']} read right"
    if f["hands_entered"]:
        hands += f"; {f['hands_entered']} too big to spread, typed in"
    lines.append(f"Hand scans  {hands}")
    first = True
    for kind, ok in f["mistakes"].items():
        verdict = "caught" if ok else ("NOT CAUGHT" if ok is False else "not made before the demo ended")
        lines.append(f"{'Mistakes' if first else '':<12}{MISTAKES[kind]}: {verdict}")
        first = False
    lines.append("Referee     " + ("agreed with the real cards all game" if f["agreed"]
                                   else f"DISAGREED with the real cards {len(report.disagreements)} times"))
    if db:
        lines.append(f"Event log   {db}")
        lines.append(f"            see the page again: companion serve --db {db}")
    print("", file=out)
    print(rule, file=out)
    for line in lines:
        print(line, file=out)
    print(rule, file=out)


def _duration(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    return f"{m} min {s:02d} s" if m else f"{s} s"
