"""Config: the documented example loads, defaults are sane, and every mistake names its key."""
from pathlib import Path

import pytest

from companion.config import DEFAULT_BUTTON_PINS, ConfigError, UnknownKeyError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[1]


def test_example_config_loads():
    cfg = load_config(ROOT / "examples" / "table.toml")
    assert cfg.table.players == ("Ann", "Bob", "Cem", "Dee")
    assert cfg.pile.roi == (200, 120, 440, 360)
    assert cfg.pins.buttons == DEFAULT_BUTTON_PINS
    assert Path(cfg.table.db).parent == ROOT / "examples"


def test_empty_config_has_defaults():
    cfg = parse_config("")
    assert cfg.camera.fps == 15 and cfg.camera.width == 640
    assert 0.3 <= cfg.gate.settle <= 0.7
    assert cfg.web.port == 8080
    assert cfg.setup() == {"players": [], "deck": "classic", "rules": {}}


def test_setup_is_what_the_referee_accepts():
    from companion.referee import parse
    cfg = load_config(ROOT / "examples" / "table.toml")
    assert cfg.setup()["dealer"] == "Dee"
    assert parse({"setup": cfg.setup()}).kind == "setup"


@pytest.mark.parametrize("text, key", [
    ("[camra]\nfps = 1", "camra"),
    ("[camera]\nfsp = 1", "camera.fsp"),
    ("[pins.buttons]\nundo = 4", "pins.buttons.undo"),
    ("[rules]\nstaking = true", "rules.staking"),
])
def test_unknown_keys_are_named(text, key):
    with pytest.raises(UnknownKeyError, match=key.replace(".", r"\.")):
        parse_config(text)


@pytest.mark.parametrize("text, fragment", [
    ("[camera]\nfps = 'fast'", "camera.fps must be a whole number"),
    ("[camera]\nfps = 500", "camera.fps must be between"),
    ("[camera]\nsource = 'webcam'", "camera.source must be one of"),
    ("[camera]\nsource = 'replay'", "camera.path is needed"),
    ("[camera]\nrotate = 45", "camera.rotate"),
    ("[gate]\nsettle = 5.0", "gate.settle must be between"),
    ("[rules]\nstacking = 'yes'", "rules.stacking"),
    ("[table]\nplayers = ['A', 'B']\ndealer = 'C'", "table.dealer 'C' is not one of"),
    ("[gate]\nagree = true", "gate.agree must be a whole number"),
    ("[pile]\nroi = [0, 0, 10]", "pile.roi must be four"),
    ("[pile]\nroi = [0, 0, 700, 100]", "inside the 640x480 frame"),
    ("[pile]\nroi = [0, 0, 10, 10]", "too small"),
    ("[table]\nplayers = ['Ann']", "2 to 10 players"),
    ("[table]\nplayers = ['Ann', 'ann']", "different name"),
    ("[table]\ndeck = 'tarot'", "table.deck: unknown deck 'tarot'"),
    ("[web]\nhost_pin = 1234", "in quotes"),
    ("[web]\nhost_pin = '12'", "4 to 8 digits"),
    ("[pins.buttons]\nuno = 18", "GPIO 18 is already used by pins.buzzer"[:14]),
    ("[pins.buttons]\nuno = 40", "BCM GPIO number"),
    ("[pins]\nbuzzer = 17", "already used"),
    ("[table]\nplayers = ['A', 'B']\n[pins]\nseat_uno = [4]", "seat_uno has 1 buttons"),
    ("[panel]\nlong_press = 0.1", "panel.long_press must be between"),
    ("camera = 3", "camera must be a table"),
    ("[camera\nfps = 1", "not valid TOML"),
])
def test_errors_name_the_key(text, fragment):
    with pytest.raises(ConfigError, match=None) as info:
        parse_config(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_duplicate_pin_message_names_both_users():
    with pytest.raises(ConfigError, match=r"pins.buttons.catch: GPIO 17 is already used by pins.buttons.uno"):
        parse_config("[pins.buttons]\ncatch = 17")


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "nope.toml")


def test_file_errors_name_the_file(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text("[gate]\nsettle = 9\n")
    with pytest.raises(ConfigError, match=r"t.toml: gate.settle"):
        load_config(p)


def test_buzzer_can_be_disabled():
    assert parse_config("[pins]\nbuzzer = false").pins.buzzer is None


def test_an_old_colors_table_is_read_past_with_a_word(caplog):
    # `companion calibrate` once wrote the deck's colours here; nothing reads them now
    with caplog.at_level("WARNING", logger="companion.config"):
        cfg = parse_config("[table]\nplayers = ['Ann', 'Bob']\n\n[colors]\nred = { hue = 1, sat = 2, val = 3 }\n")
    assert cfg.table.players == ("Ann", "Bob")
    assert "[colors]" in caplog.text and "no longer used" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="companion.config"):
        parse_config("[table]\nplayers = ['Ann', 'Bob']\n")
    assert not caplog.text


def test_web_threads_default_is_what_the_server_uses():
    from companion.web.serve import MIN_THREADS, THREADS
    assert parse_config("").web.threads == THREADS >= MIN_THREADS
    assert load_config(ROOT / "examples" / "table.toml").web.threads == THREADS
    assert parse_config("[web]\nthreads = 120").web.threads == 120
