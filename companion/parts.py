"""The parts `companion run` puts around the referee thread, each optional and each failing on its
own with one clear line: the camera's card watcher, the voice, the club publisher, and the check
for room on the event log's disk."""
from __future__ import annotations

import logging
from pathlib import Path

from companion.camera.gate import MotionGate
from companion.camera.pipeline import CardWatcher
from companion.config import Config

log = logging.getLogger("companion.run")


def warn_if_low_on_space(db: str, min_free_mb: int) -> int | None:
    """Say at start when the event log's disk has less than ``min_free_mb`` free; the free MB."""
    import shutil
    try:
        free = shutil.disk_usage(Path(db).resolve().parent).free // 2**20
    except OSError:
        return None
    if free < min_free_mb:
        log.warning("only %d MB free for the event log %s (less than [table] min_free_mb = %d): free space on "
                    "the SD card; if it fills up the table pauses until there is room again", free, db, min_free_mb)
    return free


def start_voice(cfg: Config, table):
    """The table's voice when ``[voice] enabled`` (a silent one, after one warning, when espeak-ng or
    the audio device is missing); None when off."""
    try:
        from companion.voice import build_voice
        voice = build_voice(cfg.voice)
    except (ImportError, ValueError) as exc:
        log.warning("voice: %s; the referee stays silent (the game goes on)", exc)
        return None
    if voice is not None:
        voice.attach(table)
        if voice.available:
            log.info("voice: speaking %s calls (%s, %d words a minute); hold CHALLENGE to mute",
                     cfg.voice.speak, cfg.voice.voice, cfg.voice.rate)
    return voice


def start_club(cfg: Config, table):
    """The table's club publisher when ``[club]`` is set (it connects in the background, so a
    broker that is down only means the game is sent later); None otherwise."""
    if cfg.club is None:
        return None
    try:
        from companion.club.publisher import ClubPublisher
    except ImportError as exc:
        log.error("club: paho-mqtt is missing (%s): this table is not published", exc)
        return None
    c = cfg.club
    log.info("club: publishing this table as %s of club %s to %s:%d", c.table, c.club, c.broker, c.port)
    return ClubPublisher(table, c).start()


def build_watcher(cfg: Config, top, *, recognizer=None, source=None) -> CardWatcher | None:
    """The card watcher for ``cfg``; None (with the reason logged) when there is no recogniser."""
    if recognizer is None:
        try:
            from companion.vision import Recognizer
            recognizer = Recognizer(deck=cfg.table.deck, model_dir=cfg.camera.model or None)
        except Exception as exc:   # no model, or no vision in this build: buttons and page still work
            log.error("no card recogniser (%s): running without the camera; enter plays on the page", exc)
            return None
    if source is None:
        from companion.camera.sources import open_source
        source = open_source(cfg.camera)
    g = cfg.gate
    gate = MotionGate(recognizer, roi=cfg.pile.roi, settle=g.settle, agree=g.agree, min_confidence=g.min_confidence,
                      motion_threshold=g.motion_threshold, motion_fraction=g.motion_fraction,
                      scene_fraction=g.scene_fraction, width=g.width, top=top)
    return CardWatcher(source, gate)
