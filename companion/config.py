"""The table's configuration: one TOML file, validated once at start.

Every key has a default (see ``examples/table.toml`` for the documented full file), so the
smallest config names only the players::

    >>> cfg = parse_config('[table]\\nplayers = ["Ann", "Bob"]')
    >>> cfg.table.players, cfg.web.port, cfg.pins.buttons["pass"]
    (('Ann', 'Bob'), 8080, 24)
    >>> parse_config('[camra]\\nfps = 15')
    Traceback (most recent call last):
    ...
    companion.config.UnknownKeyError: unknown key 'camra' (known: table, rules, camera, pile, gate, web, panel, pins, colors, voice, club)

Errors name the key (``camera.fps``) and say what would be accepted.
"""
from __future__ import annotations

import logging
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.cards import CardError, deck, deck_names

log = logging.getLogger("companion.config")


class ConfigError(ValueError):
    """The root of every configuration problem: the message names the key."""


class UnknownKeyError(ConfigError):
    """A key the configuration does not know (often a typo)."""


# BCM numbers. Avoids I2C (2, 3), SPI (7-11), UART (14, 15) and the ID EEPROM pins (0, 1), so
# those interfaces stay free; GPIO 18 is hardware PWM 0 for the buzzer.
DEFAULT_BUTTON_PINS = {
    "uno": 17, "catch": 27, "challenge": 22, "draw": 23, "pass": 24,
    "red": 5, "yellow": 6, "green": 13, "blue": 19,
}
DEFAULT_LED_PINS = {"red": 12, "yellow": 16, "green": 20, "blue": 21}
DEFAULT_BUZZER_PIN = 18
BUTTONS = tuple(DEFAULT_BUTTON_PINS)
USABLE_PINS = frozenset(range(2, 28))



@dataclass(frozen=True)
class TableConfig:
    players: tuple[str, ...] = ()
    dealer: str = ""              # empty: the last player listed deals first
    deck: str = "classic"
    db: str = "companion.db"
    min_free_mb: int = 50         # `companion run` warns at start when less space is free for the log


@dataclass(frozen=True)
class CameraConfig:
    source: str = "auto"          # auto | picamera2 | usb | replay
    device: int | str = 0         # USB camera index or /dev/videoN
    path: str = ""                # replay: a video file or a folder of images
    width: int = 640
    height: int = 480
    fps: int = 15
    rotate: int = 0               # 0, 90, 180 or 270 degrees
    flip: bool = False
    model: str = ""               # folder of the recogniser model (recognizer.json + ONNX); empty = models/


@dataclass(frozen=True)
class PileConfig:
    roi: tuple[int, int, int, int] | None = None   # x1, y1, x2, y2 in camera pixels; None = whole frame


@dataclass(frozen=True)
class GateConfig:
    settle: float = 0.5           # seconds the pile must stay still before the recogniser runs
    agree: int = 2                # consecutive settled recognitions that must agree
    min_confidence: float = 0.6   # below this a card becomes a question, not a play
    motion_threshold: int = 18    # grey-level change that counts as motion (0-255)
    motion_fraction: float = 0.01 # share of the pile area that must change
    scene_fraction: float = 0.5   # share of the whole frame: above it the light or camera changed
    width: int = 160              # width of the grey frame the motion check uses


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = True
    host: str = "0.0.0.0"
    port: int = 8080
    host_pin: str = ""            # digits the host types on the page to undo or correct
    threads: int = 96             # each open live page holds a waitress thread; below 80 is raised to 80


@dataclass(frozen=True)
class PanelConfig:
    enabled: bool = True
    bounce: float = 0.05          # seconds: edges closer than this are contact bounce
    long_press: float = 1.0       # seconds held for a long press (long PASS = undo)
    pull_up: bool = True          # buttons wired between the pin and ground
    tonal: bool = True            # a passive piezo (TonalBuzzer, tunes) or an active one (beeps)


@dataclass(frozen=True)
class VoiceConfig:
    enabled: bool = False         # say every call aloud with espeak-ng (see companion.voice)
    voice: str = "en"             # espeak-ng voice (`espeak-ng --voices`); its language picks the sentences
    rate: int = 165               # words a minute
    volume: int = 80              # 0-100
    speak: str = "all"            # all | calls: only what someone must act on
    sentences: str = ""           # a translated sentences file (default: the shipped one for the language)


@dataclass(frozen=True)
class ClubConfig:
    """Where this table publishes its game for the club's hub (companion.club)."""

    broker: str                   # the MQTT broker's host name or address
    club: str                     # the club's name in the topics: uno/<club>/tables/<table>/...
    table: str                    # this table's name (and, with an ACL, its broker user name)
    port: int = 1883              # 8883 is the usual one with TLS
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""             # the CA certificate of a broker with its own (TLS); empty: the system's


NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")     # a club or table name: one topic level


@dataclass(frozen=True)
class PinConfig:
    buttons: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_BUTTON_PINS))
    seat_uno: tuple[int, ...] = ()
    leds: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_LED_PINS))
    buzzer: int | None = DEFAULT_BUZZER_PIN


@dataclass(frozen=True)
class Config:
    table: TableConfig = TableConfig()
    rules: dict[str, Any] = field(default_factory=dict)   # only the options set; see companion.rules
    camera: CameraConfig = CameraConfig()
    pile: PileConfig = PileConfig()
    gate: GateConfig = GateConfig()
    web: WebConfig = WebConfig()
    panel: PanelConfig = PanelConfig()
    pins: PinConfig = PinConfig()
    path: Path | None = None
    voice: VoiceConfig = VoiceConfig()
    club: ClubConfig | None = None

    def setup(self) -> dict:
        """The ``setup`` input of a new game (players, dealer, deck, rules) for ``Table(setup=...)``."""
        out = {"players": list(self.table.players), "deck": self.table.deck, "rules": dict(self.rules)}
        if self.table.dealer:
            out["dealer"] = self.table.dealer
        return out


SECTIONS = ("table", "rules", "camera", "pile", "gate", "web", "panel", "pins", "colors", "voice", "club")


def load_config(path: str | Path) -> Config:
    """Read and validate a TOML config file; raises `ConfigError` naming the bad key."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as exc:
        raise ConfigError(f"cannot read config {p}: {exc.strerror or exc}") from exc
    return parse_config(text, path=p)


def parse_config(text: str, *, path: Path | None = None) -> Config:
    where = f"{path}: " if path else ""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}not valid TOML: {exc}") from exc
    try:
        return _build(data, path)
    except ConfigError as exc:
        if where:
            raise type(exc)(f"{where}{exc}") from None
        raise


class _Section:
    """Reads one table of the TOML data, tracking which keys were used."""

    def __init__(self, data: dict, name: str):
        if not isinstance(data, dict):
            raise ConfigError(f"{name} must be a table ([{name}]), got {type(data).__name__}")
        self.data, self.name = data, name

    def key(self, k: str) -> str:
        return f"{self.name}.{k}"

    def check_known(self, known) -> None:
        for k in self.data:
            if k not in known:
                raise UnknownKeyError(f"unknown key {self.key(k)!r} (known: {', '.join(known)})")

    def get(self, k, default, kind, *, lo=None, hi=None, choices=None):
        if k not in self.data:
            return default
        v = self.data[k]
        if kind is float and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        ok = isinstance(v, kind) and not (kind is int and isinstance(v, bool))
        if not ok:
            want = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}.get(kind, kind.__name__)
            raise ConfigError(f"{self.key(k)} must be {want}, got {v!r}")
        if choices is not None and v not in choices:
            raise ConfigError(f"{self.key(k)} must be one of {', '.join(map(str, choices))}; got {v!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise ConfigError(f"{self.key(k)} must be between {lo} and {hi}, got {v!r}")
        return v


def _build(data: dict, path: Path | None) -> Config:
    for k in data:
        if k not in SECTIONS:
            raise UnknownKeyError(f"unknown key {k!r} (known: {', '.join(SECTIONS)})")
    sec = {name: _Section(data.get(name, {}), name) for name in SECTIONS}

    # [table]
    s = sec["table"]
    s.check_known(("players", "dealer", "deck", "db", "min_free_mb"))
    players = s.data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise ConfigError("table.players must be a list of names, like [\"Ann\", \"Bob\"]")
    players = tuple(p.strip() for p in players)
    if players and not 2 <= len(players) <= 10:
        raise ConfigError(f"table.players: UNO is for 2 to 10 players, got {len(players)}")
    if len(set(p.lower() for p in players)) != len(players):
        raise ConfigError("table.players: every player needs a different name")
    deck_name = s.get("deck", "classic", str)
    try:
        deck(deck_name)
    except CardError:
        raise ConfigError(f"table.deck: unknown deck {deck_name!r}; choose one of {', '.join(deck_names())}") from None
    dealer = s.get("dealer", "", str)
    if dealer and dealer not in players:
        raise ConfigError(f"table.dealer {dealer!r} is not one of table.players")
    db = s.get("db", "companion.db", str)
    if path is not None and not Path(db).is_absolute():
        db = str(path.parent / db)
    table = TableConfig(players, dealer, deck_name, db, s.get("min_free_mb", 50, int, lo=0, hi=1_000_000))

    # [rules]: the referee's own options (companion.rules), checked by the referee's validator
    s = sec["rules"]
    try:
        from companion.rules import Rules, RulesError
    except ImportError:      # the referee is not part of this build
        Rules = RulesError = None
    if Rules is not None:
        try:
            Rules.from_dict(dict(s.data), deck=deck_name)
        except RulesError as exc:
            msg = str(exc)
            cls = UnknownKeyError if "unknown option" in msg else ConfigError
            raise cls(msg if msg.startswith("rules") else f"rules: {msg}") from None
    rules = dict(s.data)

    # [camera]
    s = sec["camera"]
    s.check_known(tuple(CameraConfig.__dataclass_fields__))
    source = s.get("source", "auto", str, choices=("auto", "picamera2", "usb", "replay"))
    device = s.data.get("device", 0)
    if isinstance(device, bool) or not isinstance(device, (int, str)) or (isinstance(device, int) and device < 0):
        raise ConfigError(f"camera.device must be a camera index (0, 1, ...) or a path like /dev/video0, got {device!r}")
    cam_path = s.get("path", "", str)
    if source == "replay" and not cam_path:
        raise ConfigError("camera.path is needed when camera.source = \"replay\" (a video file or a folder of images)")
    if cam_path and path is not None and not Path(cam_path).is_absolute():
        cam_path = str(path.parent / cam_path)
    model = s.get("model", "", str)
    if model and path is not None and not Path(model).is_absolute():
        model = str(path.parent / model)
    camera = CameraConfig(
        source=source, device=device, path=cam_path,
        width=s.get("width", 640, int, lo=160, hi=4096),
        height=s.get("height", 480, int, lo=120, hi=3072),
        fps=s.get("fps", 15, int, lo=1, hi=60),
        rotate=s.get("rotate", 0, int, choices=(0, 90, 180, 270)),
        flip=s.get("flip", False, bool),
        model=model,
    )

    # [pile]
    s = sec["pile"]
    s.check_known(("roi",))
    roi = s.data.get("roi")
    if roi is not None:
        if (not isinstance(roi, list) or len(roi) != 4
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in roi)):
            raise ConfigError(f"pile.roi must be four whole numbers [x1, y1, x2, y2] in camera pixels, got {roi!r}")
        x1, y1, x2, y2 = roi
        w, h = (camera.height, camera.width) if camera.rotate in (90, 270) else (camera.width, camera.height)
        if not (0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h):
            raise ConfigError(f"pile.roi {roi} must lie inside the {w}x{h} frame with x1 < x2 and y1 < y2")
        if (x2 - x1) < 32 or (y2 - y1) < 32:
            raise ConfigError(f"pile.roi {roi} is too small: a card needs at least 32x32 pixels")
        roi = (x1, y1, x2, y2)
    pile = PileConfig(roi)

    # [gate]
    s = sec["gate"]
    s.check_known(tuple(GateConfig.__dataclass_fields__))
    gate = GateConfig(
        settle=s.get("settle", 0.5, float, lo=0.1, hi=2.0),
        agree=s.get("agree", 2, int, lo=1, hi=10),
        min_confidence=s.get("min_confidence", 0.6, float, lo=0.0, hi=1.0),
        motion_threshold=s.get("motion_threshold", 18, int, lo=1, hi=255),
        motion_fraction=s.get("motion_fraction", 0.01, float, lo=0.0001, hi=0.5),
        scene_fraction=s.get("scene_fraction", 0.5, float, lo=0.05, hi=1.0),
        width=s.get("width", 160, int, lo=32, hi=640),
    )

    # [web]
    s = sec["web"]
    s.check_known(tuple(WebConfig.__dataclass_fields__))
    host_pin = s.data.get("host_pin", "")
    if isinstance(host_pin, int) and not isinstance(host_pin, bool):
        raise ConfigError("web.host_pin must be written in quotes (\"0421\"), so leading zeros survive")
    if not isinstance(host_pin, str) or (host_pin and not re.fullmatch(r"\d{4,8}", host_pin)):
        raise ConfigError(f"web.host_pin must be 4 to 8 digits in quotes, like \"4321\", got {host_pin!r}")
    web = WebConfig(
        enabled=s.get("enabled", True, bool),
        host=s.get("host", "0.0.0.0", str),
        port=s.get("port", 8080, int, lo=1, hi=65535),
        host_pin=host_pin,
        threads=s.get("threads", WebConfig.threads, int, lo=2, hi=256),
    )

    # [panel]
    s = sec["panel"]
    s.check_known(tuple(PanelConfig.__dataclass_fields__))
    panel = PanelConfig(
        enabled=s.get("enabled", True, bool),
        bounce=s.get("bounce", 0.05, float, lo=0.0, hi=0.5),
        long_press=s.get("long_press", 1.0, float, lo=0.3, hi=5.0),
        pull_up=s.get("pull_up", True, bool),
        tonal=s.get("tonal", True, bool),
    )
    if panel.long_press <= panel.bounce:
        raise ConfigError("panel.long_press must be longer than panel.bounce")

    # [pins]
    pins = _pins(sec["pins"], len(players))

    # [colors]: what `companion calibrate` once wrote; the recogniser learns colours, so the table is
    # read past with a word, never an error (a config that ran before still runs)
    if sec["colors"].data:
        log.warning("[colors] in %s is no longer used (the recogniser learns the deck's colours; "
                    "`companion calibrate --colors` checks them under this light): delete it", path or "the config")

    return Config(table, rules, camera, pile, gate, web, panel, pins, path, voice=_voice(sec["voice"], path),
                  club=_club(sec["club"], path))


def _club(s: "_Section", path: Path | None) -> ClubConfig | None:
    """``[club]``: absent or empty means no club; otherwise broker, club and table are all needed."""
    s.check_known(tuple(ClubConfig.__dataclass_fields__))
    if not s.data:
        return None
    missing = [k for k in ("broker", "club", "table") if not str(s.data.get(k, "")).strip()]
    if missing:
        raise ConfigError(f"[club] is half configured: {', '.join('club.' + k for k in missing)} missing "
                          "(set broker, club and table, or remove [club] to play without the club)")
    for k in ("club", "table"):
        v = s.get(k, "", str)
        if not NAME.fullmatch(v):
            raise ConfigError(f"club.{k} must be 1 to 40 letters, digits, '-' or '_' (one MQTT topic level), "
                              f"got {v!r}")
    user, password = s.get("username", "", str), s.get("password", "", str)
    if bool(user) != bool(password):
        raise ConfigError("club.username and club.password go together: set both, or neither")
    ca = _file(s, "ca_file", path)
    tls = s.get("tls", False, bool)
    if ca and not tls:
        raise ConfigError("club.ca_file is set but club.tls is false: set tls = true to use it")
    return ClubConfig(broker=s.get("broker", "", str).strip(), club=s.data["club"], table=s.data["table"],
                      port=s.get("port", 8883 if tls else 1883, int, lo=1, hi=65535), username=user,
                      password=password, tls=tls, ca_file=ca)


def _file(s: "_Section", key: str, path: Path | None) -> str:
    """A file named by ``key`` (relative to the config file), checked to exist; "" when unset."""
    name = s.get(key, "", str)
    if not name:
        return ""
    p = Path(name)
    if not p.is_absolute() and path is not None:
        p = path.parent / p
    if not p.is_file():
        raise ConfigError(f"{s.key(key)}: no file {p}")
    return str(p)


def _voice(s: "_Section", path: Path | None) -> VoiceConfig:
    s.check_known(tuple(VoiceConfig.__dataclass_fields__))
    voice = s.get("voice", "en", str)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_+-]{0,39}", voice):
        raise ConfigError(f"voice.voice must be an espeak-ng voice name like \"en\" or \"en-gb\", got {voice!r}")
    sentences = _file(s, "sentences", path)
    if sentences:
        p = Path(sentences)
        from companion.voice.sentences import Sentences
        try:
            Sentences.load(path=p)
        except ValueError as exc:
            raise ConfigError(f"voice.sentences: {exc}") from None
        sentences = str(p)
    return VoiceConfig(enabled=s.get("enabled", False, bool), voice=voice,
                       rate=s.get("rate", 165, int, lo=80, hi=450), volume=s.get("volume", 80, int, lo=0, hi=100),
                       speak=s.get("speak", "all", str, choices=("all", "calls")), sentences=sentences)


def _pins(s: _Section, n_players: int) -> PinConfig:
    s.check_known(("buttons", "seat_uno", "leds", "buzzer"))
    used: dict[int, str] = {}

    def take(pin, key):
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in USABLE_PINS:
            raise ConfigError(f"{key} must be a BCM GPIO number from 2 to 27, got {pin!r}")
        if pin in used:
            raise ConfigError(f"{key}: GPIO {pin} is already used by {used[pin]}")
        used[pin] = key
        return pin

    buttons_in = s.data.get("buttons", {})
    b = _Section(buttons_in, "pins.buttons")
    b.check_known(BUTTONS)
    buttons = {name: take(b.data.get(name, DEFAULT_BUTTON_PINS[name]), b.key(name)) for name in BUTTONS}

    seat = s.data.get("seat_uno", [])
    if not isinstance(seat, list):
        raise ConfigError(f"pins.seat_uno must be a list of GPIO numbers, one per seat, got {seat!r}")
    if seat and n_players and len(seat) != n_players:
        raise ConfigError(f"pins.seat_uno has {len(seat)} buttons but table.players has {n_players} players")
    seat_uno = tuple(take(p, f"pins.seat_uno[{i}]") for i, p in enumerate(seat))

    led_in = s.data.get("leds", {})
    lsec = _Section(led_in, "pins.leds")
    colors = ("red", "yellow", "green", "blue")
    lsec.check_known(colors)
    leds = {c: take(lsec.data.get(c, DEFAULT_LED_PINS[c]), lsec.key(c)) for c in colors}

    buzzer = s.data.get("buzzer", DEFAULT_BUZZER_PIN)
    if buzzer is not False:
        buzzer = take(buzzer, "pins.buzzer")
    else:
        buzzer = None
    return PinConfig(buttons, seat_uno, leds, buzzer)
