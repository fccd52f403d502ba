"""Benchmark of the voice: from an announcement to espeak-ng starting to speak, over a demo round.

    .venv/bin/python bench/voice_bench.py                 # one 4-player round, an input every 1.5 s

The demo's bots play one round (cards read from the simulation: recognition is not what is
measured here) and its inputs are kept. They are then fed again to a fresh table at a person's
pace (``--pace`` seconds apart) with the real voice listening: the real sentences, the real
speaker queue and real espeak-ng processes. espeak-ng writes its samples to a pipe, so the
moment the first samples arrive is when a speaker would start to sound; the rest of the line
is then waited out as long as it would take to play. A sound card adds its own output latency
(tens of milliseconds with ALSA's default buffer) on top.

It prints each figure and a last JSON line: lines said and dropped, and the wait from the
announcement to the first sound, median and worst, split into lines said at once and lines
that waited behind another.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.table import Table  # noqa: E402
from companion.voice import Sentences, TimedEspeak, Voice  # noqa: E402


def demo_inputs(seed: int, players: list[str]) -> list[dict]:
    """The table inputs of one demo round, in order."""
    from companion.demo.game import DemoGame, Eyes
    db = os.path.join(tempfile.mkdtemp(prefix="voice-bench-"), "demo.db")
    table = Table(db)
    game = DemoGame(table, Eyes(oracle=True), players=players, seed=seed, rounds=1, say=lambda s: None)
    try:
        game.play()
    finally:
        game.close()
    inputs = [row["event"] for row in table.history()]
    table.close()
    return inputs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--pace", type=float, default=1.5, help="seconds between inputs (a person's pace)")
    ap.add_argument("--speak", choices=("all", "calls"), default="all")
    ap.add_argument("--voice", default="en")
    ap.add_argument("--rate", type=int, default=165)
    args = ap.parse_args(argv)

    engine = TimedEspeak(args.voice, args.rate)
    problem = engine.check()
    if problem:
        print(f"voice_bench: {problem}", file=sys.stderr)
        return 2
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][: args.players]
    logging.getLogger("companion").setLevel(logging.ERROR)     # the demo's own camera questions
    inputs = demo_inputs(args.seed, names)
    table = Table(None)
    voice = Voice(Sentences.load(args.voice, speak=args.speak), engine).attach(table)
    t0 = time.monotonic()
    for i, event in enumerate(inputs):
        table.submit(event, source="bench")
        if i + 1 < len(inputs):
            time.sleep(args.pace)
    voice.speaker.idle(60)
    seconds = time.monotonic() - t0
    spoken = list(voice.speaker.spoken)
    voice.close()
    waits = [w * 1000 for _, w, _ in spoken]
    idle = [w * 1000 for _, w, behind in spoken if not behind]
    lines = len(spoken) + voice.speaker.dropped + voice.speaker.failed
    out = {"inputs": len(inputs), "lines": lines, "said": len(spoken), "dropped": voice.speaker.dropped,
           "failed": voice.speaker.failed, "pace_s": args.pace, "speak": args.speak, "seconds": round(seconds, 1),
           "median_ms": round(statistics.median(waits), 1) if waits else None,
           "p90_ms": round(statistics.quantiles(waits, n=10)[-1], 1) if len(waits) >= 10 else None,
           "worst_ms": round(max(waits), 1) if waits else None}
    if idle:
        out.update(idle_lines=len(idle), idle_median_ms=round(statistics.median(idle), 1),
                   idle_worst_ms=round(max(idle), 1))
    print(f"{len(inputs)} inputs at one every {args.pace} s: {lines} lines, {len(spoken)} said, "
          f"{voice.speaker.dropped} dropped for newer ones, {voice.speaker.failed} failed")
    if waits:
        print(f"announcement to first sound: median {out['median_ms']} ms, worst {out['worst_ms']} ms")
    if idle:
        print(f"  lines that found the speaker free ({len(idle)}): median {out['idle_median_ms']} ms, "
              f"worst {out['idle_worst_ms']} ms")
    for text, wait, _ in sorted(spoken, key=lambda s: -s[1])[:3]:
        print(f"  waited {wait * 1000:.0f} ms: {text}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
