import json
import subprocess
import sys

from companion.cli import main


def _write(tmp_path, lines):
    p = tmp_path / "game.jsonl"
    p.write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines) + "\n")
    return p


GAME = [{"setup": {"players": ["Ann", "Ben", "Cat"], "dealer": "Cat", "deck": "classic", "rules": {}}},
        {"start": "red 7"}, {"play": "red 3"}, {"play": "red reverse"}, {"play": "blue 3"}]


def test_replay_prints_final_state_as_json(tmp_path, capsys):
    assert main(["replay", str(_write(tmp_path, GAME)), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["current"] == "Cat" and out["direction"] == "counterclockwise"
    assert out["top"] == "red reverse" and out["color"] == "red"
    assert out["hand_counts"] == {"Ann": 6 + 2, "Ben": 6, "Cat": 7}
    for key in ("scores", "round_winner", "game_winner", "awaiting", "announcements"):
        assert key in out
    ill = [a for a in out["announcements"] if a["type"] == "illegal_play"]
    assert ill and ill[0]["player"] == "Ann" and ill[0]["card"] == "blue 3"
    pen = [a for a in out["announcements"] if a["type"] == "penalty"]
    assert pen[0] == {**pen[0], "player": "Ann", "cards": 2}
    assert any(a["type"] == "reversed" for a in out["announcements"])


def test_malformed_line_reports_its_number_and_fails(tmp_path, capsys):
    p = _write(tmp_path, GAME[:2] + ['{"play": "red 99"}'] + GAME[2:])
    assert main(["replay", str(p), "--json"]) != 0
    err = capsys.readouterr().err
    assert "line 3" in err and "red 99" in err
    p = _write(tmp_path, GAME[:1] + ["{not json"])
    assert main(["replay", str(p), "--json"]) != 0
    assert "line 2" in capsys.readouterr().err


def test_blank_lines_are_skipped_and_console_script_works(tmp_path):
    p = _write(tmp_path, GAME[:2] + [""] + GAME[2:3])
    r = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(p), "--json"],
                       capture_output=True, text=True, check=True)
    assert json.loads(r.stdout)["current"] == "Ben"
