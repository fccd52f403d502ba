"""Bench the camera pipeline: CPU when nothing moves, and latency from a settled card to the
referee's announcement.

    .venv/bin/python bench/gate_bench.py                  # 10 s idle + 8 plays, fake recogniser
    .venv/bin/python bench/gate_bench.py --idle 30 --plays 20 --settle 0.3 --json

Frames are 640x480 synthetic overhead views (companion.camera.testing) pushed at 15 fps in real
time through SimulatedSource -> CardWatcher (thread) -> one queue -> Companion (referee thread)
-> Table (in memory). Camera capture/decoding is not included (a Pi camera delivers frames by
DMA; a USB MJPG webcam adds JPEG decoding in OpenCV). The recogniser is the fake one on drawn
frames unless --model is given: then the shipped companion.vision.Recognizer reads the demo's
rendered overhead frames (companion.demo.scene), so the latency includes the real model.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import statistics
import sys
import threading
import time

from companion.camera.gate import MotionGate
from companion.camera.pipeline import CardWatcher
from companion.camera.sources import SimulatedSource
from companion.camera.testing import PILE_ROI, FakeRecognizer, card_frame
from companion.run import Companion
from companion.table import Table

FPS = 15


def pace(src: SimulatedSource, frames, t0: float, start_index: int = 0):
    """Push frames at 15 fps in real time; return the wall time each was pushed."""
    times = []
    for i, image in enumerate(frames):
        due = t0 + (start_index + i) / FPS
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        now = time.monotonic()
        src.push(image, t=now)
        times.append(now)
    return times


def idle_cpu(seconds: float, settle: float) -> dict:
    """CPU share of one core for the whole pipeline while the pile just sits there."""
    still = [card_frame("red 7", noise=5, seed=i) for i in range(30)]     # sensor noise, no motion
    rec = FakeRecognizer()
    src = SimulatedSource()
    watcher = CardWatcher(src, MotionGate(rec, roi=PILE_ROI, settle=settle))
    watcher.start(lambda e: None)
    n = int(seconds * FPS)
    t0 = time.monotonic()
    c0 = time.process_time()
    pace(src, (still[i % len(still)] for i in range(n)), t0)
    while src.pending():
        time.sleep(0.01)
    wall = time.monotonic() - t0
    cpu = time.process_time() - c0
    watcher.stop()
    watcher.join(2)
    return {"seconds": round(wall, 2), "frames": n, "cpu_percent_of_one_core": round(100 * cpu / wall, 2),
            "cpu_ms_per_frame": round(1000 * cpu / n, 3), "detector_calls": rec.calls}


class DrawnPlays:
    """The fake recogniser's frames: flat drawn cards (companion.camera.testing)."""

    roi = PILE_ROI

    def __init__(self):
        self.prev = None

    def play(self, top: str, k: int, still_frames: int):
        hand = [card_frame(self.prev, hand=(80 + 40 * i, 420 - 25 * i)) for i in range(8)]
        under = (self.prev,) if self.prev else ()
        still = [card_frame(top, under=under, offset=(7 * (k % 3) - 7, 5 * (k % 2)), noise=4, seed=j)
                 for j in range(still_frames)]
        self.prev = top
        return hand, still


class RenderedPlays:
    """The demo's rendered overhead frames (real card faces, a hand bringing each card in), for
    the trained recogniser; the motion shots are held a few frames each, as a hand moves."""

    def __init__(self, seed: int = 3):
        from companion.demo.scene import ROI, TableScene
        self.roi, self.scene = ROI, TableScene("classic", seed=seed)

    def play(self, top: str, k: int, still_frames: int):
        import cv2
        import numpy as np
        from companion.cards import Card
        clip = self.scene.drop(Card.parse(top))
        hand = [shot.image for shot in clip.motion for _ in range(4)]
        rng = np.random.default_rng(k)        # sensor noise: no two still frames are the same
        still = [cv2.add(clip.still.image, rng.integers(0, 4, clip.still.image.shape, dtype=np.uint8))
                 for _ in range(still_frames)]
        return hand, still


def latency(plays: int, settle: float, recognizer=None) -> dict:
    """From the last motion in the pile area (a card landed) to the referee's announcement."""
    names = ["red 3", "red 8", "blue 8", "blue 2", "green 2", "green 6", "yellow 6", "yellow 1"]
    table = Table(None, setup={"players": ["Ann", "Ben", "Cat"], "dealer": "Cat"})
    events: queue.Queue = queue.Queue()
    src = SimulatedSource()
    rec = recognizer or FakeRecognizer()
    frames = RenderedPlays() if recognizer is not None else DrawnPlays()
    gate = MotionGate(rec, roi=frames.roi, settle=settle, agree=2)
    watcher = CardWatcher(src, gate)
    announced: list[float] = []
    comp = Companion(table, events, watcher=watcher,
                     on_announcements=lambda out: announced.append(time.monotonic()))
    referee = threading.Thread(target=comp.run, name="referee")
    referee.start()
    watcher.start(events.put)
    t0 = time.monotonic() + 0.2
    idx = 0
    settled_at: list[float] = []
    missed = []
    for k in range(plays + 1):
        top = names[k % len(names)]
        hand, still = frames.play(top, k, int(FPS * (settle + 0.9)))
        n_before = len(announced)
        pace(src, hand, t0, idx)
        idx += len(hand)
        pace(src, still, t0, idx)
        idx += len(still)
        deadline = time.monotonic() + 2.0
        while len(announced) == n_before and time.monotonic() < deadline:
            time.sleep(0.005)
        if len(announced) > n_before:
            # from the last frame in which the pile area moved (the gate's own clock: the frames'
            # push times); the hand may leave the pile area before the still frames begin
            settled_at.append(announced[n_before] - gate._last_motion_t)
        else:
            missed.append(top)
    comp.stop()
    referee.join(5)
    watcher.stop()
    watcher.join(2)
    lat = settled_at[1:]            # the first card starts the game; the rest are plays
    beyond = [x - settle for x in lat]
    if not lat:
        return {"plays": 0, "settle_s": settle, "not_announced": missed, "top": table.snapshot()["top"]}
    return {"plays": len(lat), "settle_s": settle, "not_announced": missed,
            "pile_still_to_announcement_ms": {"median": round(1000 * statistics.median(lat)), "max": round(1000 * max(lat))},
            "after_settle_window_ms": {"median": round(1000 * statistics.median(beyond)), "max": round(1000 * max(beyond))},
            "detector_calls": getattr(rec, "calls", None), "top": table.snapshot()["top"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of the idle CPU run")
    ap.add_argument("--plays", type=int, default=8, help="cards played in the latency run")
    ap.add_argument("--settle", type=float, default=0.5, help="gate settle time in seconds")
    ap.add_argument("--model", action="store_true", help="use companion.vision.Recognizer instead of the fake")
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    rec = None
    if args.model:
        from companion.vision import Recognizer
        rec = Recognizer(deck="classic")
    out = {"cpu_count": os.cpu_count(), "idle": idle_cpu(args.idle, args.settle),
           "latency": latency(args.plays, args.settle, rec),
           "recognizer": "model" if args.model else "fake"}
    if args.json:
        print(json.dumps(out))
    else:
        i, lat = out["idle"], out["latency"]
        print(f"idle, 15 fps 640x480, {i['seconds']} s: {i['cpu_percent_of_one_core']}% of one core "
              f"({i['cpu_ms_per_frame']} ms CPU per frame, {i['detector_calls']} recogniser runs)  [goal < 10%]")
        print(f"latency over {lat['plays']} plays ({out['recognizer']} recogniser, settle {lat['settle_s']} s):")
        print(f"  pile still -> announcement: median {lat['pile_still_to_announcement_ms']['median']} ms, "
              f"max {lat['pile_still_to_announcement_ms']['max']} ms")
        if lat["plays"]:
            print(f"  gate settled -> announcement: median {lat['after_settle_window_ms']['median']} ms, "
                  f"max {lat['after_settle_window_ms']['max']} ms  [goal < 250 ms]")
        if lat["not_announced"]:
            print(f"  not announced: {', '.join(lat['not_announced'])}")
        print(f"  top card at the end: {lat['top']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
