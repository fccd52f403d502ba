"""The model card (models/README.md): its evaluation table names only commands that exist, and it
speaks of the product, not of work periods."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "models" / "README.md"
SHARED = ROOT.parent / "shared"
COMPANION = [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"]


def section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def table_rows(block: str) -> list[list[str]]:
    """The rows of the first markdown table in `block` (header and rule left out), as cells."""
    lines = [line for line in block.splitlines() if line.startswith("|")]
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]


def evaluation_commands(text: str) -> list[str]:
    rows = table_rows(section(text, "Evaluation"))
    header = [c.strip() for c in section(text, "Evaluation").split("\n|", 1)[1].split("\n")[0].strip("|").split("|")]
    col = header.index("command")
    commands = []
    for row in rows:
        found = re.findall(r"`([^`]+)`", row[col])
        assert found, f"an evaluation row names no command: {row}"
        commands += found
    return commands


def help_call(words: list[str]) -> list[str]:
    """What asks `words` (one program and its arguments) for its --help: the program, with the
    recipe's step or companion's subcommand where it has one."""
    if words[0] == "companion":
        return COMPANION + [words[1], "--help"]
    assert words[0] == "python", f"a command the card names is neither python nor companion: {words}"
    script = words[1]
    if Path(script).name == "recipe":
        return [sys.executable, script, words[2], "--help"]
    return [sys.executable, script, "--help"]


def test_help_call_finds_the_program_of_each_kind_of_command():
    assert help_call(shlex.split("python models/recipe bench --piles 5"))[-3:] == ["models/recipe", "bench", "--help"]
    assert help_call(shlex.split("companion recognize --json"))[-2:] == ["recognize", "--help"]
    assert help_call(shlex.split("python ../shared/eval/cost_ratio.py"))[-2:] == ["../shared/eval/cost_ratio.py", "--help"]
    with pytest.raises(AssertionError):
        help_call(["bash", "x.sh"])


def test_every_command_of_the_evaluation_table_exists_and_answers_help():
    commands = evaluation_commands(CARD.read_text())
    assert len(commands) >= 8
    env = {**os.environ, "YOLO_OFFLINE": "1"}
    checked = 0
    for command in commands:
        words = shlex.split(command)
        # a scorer runs the command after its "--": both must exist
        parts = [words[:words.index("--")], words[words.index("--") + 1:]] if "--" in words else [words]
        for words in parts:
            if any(w.startswith("../shared/") for w in words[:2]) and not SHARED.is_dir():
                continue                         # a clone without ../shared: nothing to ask
            call = help_call(words)
            out = subprocess.run(call, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
            assert out.returncode == 0, f"{command!r}: {' '.join(call[-3:])} exited {out.returncode}\n{out.stderr[-2000:]}"
            assert "usage" in out.stdout.lower(), f"{command!r}: its --help printed no usage"
            checked += 1
    assert checked >= 8


def test_a_step_the_recipe_does_not_have_fails_the_check():
    out = subprocess.run(help_call(shlex.split("python models/recipe bench-nothing")), cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "unknown step 'bench-nothing'" in out.stderr


def test_the_card_is_short_and_speaks_of_the_product_not_of_work_periods():
    text = CARD.read_text()
    assert len(text.splitlines()) <= 170
    assert "session" not in text.lower()
    for title in ("Model details", "Intended use", "Training data", "Training procedure", "Evaluation",
                  "Limitations and known failure modes", "Teaching it a new deck design"):
        assert f"## {title}\n" in text
