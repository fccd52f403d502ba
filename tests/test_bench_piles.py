"""The many-set pile benchmark (`python models/recipe bench-piles`): its figures, its comparison, its arguments."""
import json
from types import SimpleNamespace

import pytest


def _set(first, readable, clear, misses):
    return {"first_seed": first, "readable": readable, "clear_view": clear, "covered": readable - clear,
            "misses": misses}


def test_the_totals_split_clear_views_from_covered_cards(models_script):
    bp = models_script("bench_piles")
    sets = [_set(1, 100, 80, ["5 clear (0.97 in view): red 1 -> None", "9 covered (0.30 in view): blue 2 -> None"]),
            _set(2, 100, 90, ["105 covered (0.20 in view): green 3 -> ('green', '8')"])]
    t = bp.total(sets)
    assert (t["sets"], t["readable"], t["misses"]) == (2, 200, 3)
    assert t["accuracy"] == 0.985
    assert (t["clear_view"], t["accuracy_clear_view"]) == (170, round(1 - 1 / 170, 4))
    assert (t["covered"], t["accuracy_covered"]) == (30, round(1 - 2 / 30, 4))


def test_a_comparison_counts_only_the_sets_both_ran_and_names_mended_and_lost(models_script):
    bp = models_script("bench_piles")
    old = {"sets": {"1": _set(1, 50, 40, ["3 covered (0.3 in view): a -> None", "7 clear (0.9 in view): b -> None"]),
                    "2": _set(2, 50, 40, ["60 covered (0.3 in view): c -> None"])}}
    new = {"sets": {"1": _set(1, 50, 40, ["7 clear (0.9 in view): b -> None", "8 covered (0.4 in view): d -> None"]),
                    "3": _set(3, 50, 40, [])}}
    c = bp.compare(old, new)
    assert c["common_sets"] == 1
    assert (c["old"]["misses"], c["new"]["misses"]) == (2, 2)
    assert [m.split()[0] for m in c["mended"]] == ["3"]
    assert [m.split()[0] for m in c["lost"]] == ["8"]


def test_the_held_out_sets_are_not_the_tuning_sets(models_script):
    bp = models_script("bench_piles")
    assert not set(bp.HELDOUT) & set(bp.TUNING)
    # 600 piles each: no two sets share a seed
    firsts = sorted(bp.HELDOUT + bp.TUNING)
    assert all(b - a >= 600 for a, b in zip(firsts, firsts[1:]))


def test_a_small_run_writes_every_set_and_compares_with_itself(tmp_path, capsys, models_script):
    bp = models_script("bench_piles")
    out = tmp_path / "run.json"
    assert bp.main(["--first-seeds", "9200000", "--piles", "3", "--procs", "1", "--out", str(out)]) == 0
    run = json.loads(out.read_text())
    s = run["sets"]["9200000"]
    assert s["readable"] == s["clear_view"] + s["covered"] <= 3
    assert run["total"]["misses"] == len(s["misses"])
    capsys.readouterr()
    assert bp.main(["--first-seeds", "9200000", "--piles", "3", "--procs", "1", "--compare", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["compare"]["mended"] == report["compare"]["lost"] == []   # the same reading twice


@pytest.mark.parametrize("args", [["--piles", "0"], ["--procs", "0"], ["--compare", "missing.json"],
                                  ["--sets", "heldout", "--first-seeds", "1"]])
def test_bad_arguments_are_a_clear_error(args, tmp_path, monkeypatch, models_script):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        models_script("bench_piles").main(args)
    assert exc.value.code == 2


def test_a_setting_reaches_the_recogniser_of_every_set_and_is_kept_with_the_run(tmp_path, models_script):
    # how a knob of the recogniser is swept (models/ablation.md)
    bp = models_script("bench_piles")
    built = []

    class Blind:        # sees no card
        def __init__(self, deck, **kw):
            built.append(kw["settings"])

        def recognize(self, image, roi=None):
            return SimpleNamespace(top=None, cards=[], unsure=None)
    bp._script("bench_recognizer").Recognizer = Blind
    out = tmp_path / "run.json"
    assert bp.main(["--first-seeds", "9200000", "9200600", "--piles", "2", "--procs", "1", "--out", str(out),
                    "--set", "face_least=0.8", "--set", "index_turns=4"]) == 0
    assert built and all((s.face_least, s.index_turns, s.stray) == (0.8, 4, 0.1) for s in built)
    assert json.loads(out.read_text())["settings"] == {"face_least": 0.8, "index_turns": 4}


def test_the_conditions_bench_reads_with_its_settings_in_the_recognize_it_runs(models_script):
    # bench-conditions scores `companion recognize` in another process: the recogniser that
    # command builds reads with the settings the bench was given
    import subprocess
    import sys
    bc = models_script("bench_conditions")
    code = bc.CLI.replace("from companion.cli import main; sys.exit(main(sys.argv[2:]))",
                          "r = recognizer.Recognizer('any'); "
                          "print(r.settings.face_least, r.settings.finder_iou, r.read.turns, sys.argv[2:])")
    assert code != bc.CLI
    out = subprocess.run([sys.executable, "-c", code, '["face_least=0.9", "finder_iou=0.4", "index_turns=2"]',
                          "recognize", "--json"], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0.9 0.4 2 ['recognize', '--json']"


@pytest.mark.parametrize("script", ["bench_recognizer", "bench_piles", "bench_conditions", "bench_stages"])
@pytest.mark.parametrize("pair", ["NO_SUCH=1", "face_least=high"])
def test_a_setting_that_is_not_one_is_a_clear_error_in_every_bench(script, pair, models_script, capsys):
    needs = {"bench_conditions": ["--roboflow", "."], "bench_stages": ["--roboflow", "."]}.get(script, [])
    with pytest.raises(SystemExit) as exc:
        models_script(script).main(["--set", pair] + needs)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--set" in err and ("the settings are finder_conf" in err if pair == "NO_SUCH=1" else "not a number" in err)
