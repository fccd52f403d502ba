"""The many-set pile benchmark (`python models/recipe bench-piles`): its figures, its comparison, its arguments."""
import json

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


def test_a_tunable_is_set_for_one_run_a_tuple_with_commas(models_script):
    # how a part of the recogniser is switched off and measured (models/ablation.md)
    from companion.vision import pile_tuning
    tn = models_script("tunables")
    got = tn.parse_thresholds(["ZOOM_OUT=", "MAX_ZOOMS=0", "TURNED_LOOK=9"])
    assert got == {"ZOOM_OUT": (), "MAX_ZOOMS": 0, "TURNED_LOOK": 9.0}
    assert tn.parse_thresholds(["ZOOM_OUT=0.5, 0.25"]) == {"ZOOM_OUT": (0.5, 0.25)}
    before = pile_tuning.ZOOM_OUT
    with tn.changed(got):
        assert pile_tuning.ZOOM_OUT == () and pile_tuning.MAX_ZOOMS == 0
    assert pile_tuning.ZOOM_OUT == before and pile_tuning.MAX_ZOOMS != 0
    for bad in ("ZOOM_OUT=a,b", "MAX_ZOOMS=1,2", "_GROW=1", "PART_OF_CARD=1", "ALONE=1", "DARKEN=1"):
        with pytest.raises(ValueError, match="--set"):
            tn.parse_thresholds([bad])


def test_the_conditions_bench_sets_the_tunables_in_the_recognize_it_runs(models_script):
    # bench-conditions scores `companion recognize` in another process: the tunables it was given
    # are set there before the command runs
    import subprocess
    import sys
    bc = models_script("bench_conditions")
    code = bc.CLI.replace("from companion.cli import main; sys.exit(main(sys.argv[2:]))",
                          "from companion.vision import pile_tuning; "
                          "print(pile_tuning.ZOOM_OUT, pile_tuning.MAX_ZOOMS, sys.argv[2:])")
    assert code != bc.CLI
    out = subprocess.run([sys.executable, "-c", code, '{"ZOOM_OUT": [], "MAX_ZOOMS": 0}', "recognize", "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "() 0 ['recognize', '--json']"


@pytest.mark.parametrize("script", ["bench_recognizer", "bench_conditions"])
def test_a_tunable_that_is_not_one_is_a_clear_error_in_every_bench(script, models_script, capsys):
    with pytest.raises(SystemExit) as exc:
        models_script(script).main(["--set", "NO_SUCH=1"] + (["--roboflow", "."] if script == "bench_conditions" else []))
    assert exc.value.code == 2
    assert "--set" in capsys.readouterr().err
