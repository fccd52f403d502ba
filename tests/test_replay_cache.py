"""The pile benchmarks' disk cache (models/recipe/replay_cache.py): what it gives back is what it was given."""
import json

import numpy as np
import onnxruntime as ort
import pytest

from companion.vision.recognizer import Recognizer
from companion.vision.synth import make_scene


def _reading(rec, image):
    r = rec.recognize(image)
    return [c.to_json() for c in r.cards], (r.top.to_json() if r.top else None)


def test_a_kept_scene_and_its_network_answers_give_the_same_reading_without_running_a_network(
        tmp_path, models_script):
    rc = models_script("replay_cache")
    root = tmp_path / "repo"
    (root / "companion/vision").mkdir(parents=True)
    (root / "companion/vision/synth.py").write_text("one")
    rec = Recognizer("classic")
    run = ort.InferenceSession.run
    kw = {"size": (640, 480), "kind": "pile"}
    with rc.ReplayCache(tmp_path / "cache", root).installed() as first:
        sc = first.scene(9200001, make_scene, **kw)
        got = _reading(rec, sc.image)
    assert ort.InferenceSession.run is run           # put back after the block
    assert first.misses > 0 and first.hits == 0
    drawn = make_scene(9200001, **kw)
    assert np.array_equal(sc.image, drawn.image) and sc.top == drawn.top and sc.labels == drawn.labels

    with rc.ReplayCache(tmp_path / "cache", root).installed() as again:
        kept = again.scene(9200001, make_scene, **kw)
        assert np.array_equal(kept.image, drawn.image) and kept.top == drawn.top
        replayed = _reading(rec, kept.image)
    assert again.misses == 0 and again.hits == first.misses
    assert replayed == got == _reading(rec, drawn.image)

    # other arguments are another scene; a changed generator another folder
    with rc.ReplayCache(tmp_path / "cache", root).installed() as other:
        other.scene(9200001, make_scene, size=(320, 240), kind="pile")
    (root / "companion/vision/synth.py").write_text("two")
    assert rc.ReplayCache(tmp_path / "cache", root).folder != first.folder
    assert len(list((first.folder / "scenes").iterdir())) == 2


def test_a_cached_run_of_the_pile_benchmark_reads_as_an_uncached_one(tmp_path, capsys, models_script):
    bp = models_script("bench_piles")
    plain, cached = tmp_path / "plain.json", tmp_path / "cached.json"
    args = ["--first-seeds", "9200000", "--piles", "3", "--procs", "1"]
    assert bp.main(args + ["--out", str(plain)]) == 0
    for _ in range(2):      # drawn and kept, then read back
        assert bp.main(args + ["--out", str(cached), "--cache", str(tmp_path / "c")]) == 0
        assert json.loads(cached.read_text())["sets"] == json.loads(plain.read_text())["sets"]
    capsys.readouterr()


def test_a_threshold_is_changed_for_the_run_only(tmp_path, capsys, models_script, monkeypatch):
    bp = models_script("bench_piles")
    from companion.vision import pile_tuning, recognizer
    seen = []
    real = recognizer.Recognizer.recognize

    def spy(self, image, roi=None):
        seen.append(pile_tuning.READER_SURE)
        return real(self, image, roi)

    monkeypatch.setattr(recognizer.Recognizer, "recognize", spy)
    before = pile_tuning.READER_SURE
    out = tmp_path / "run.json"
    assert bp.main(["--first-seeds", "9200000", "--piles", "2", "--procs", "1", "--out", str(out),
                    "--set", "READER_SURE=0.85"]) == 0
    assert seen and set(seen) == {0.85}
    assert pile_tuning.READER_SURE == before
    assert json.loads(out.read_text())["set"] == {"READER_SURE": 0.85}
    capsys.readouterr()


@pytest.mark.parametrize("pair", ["NO_SUCH=1", "READER_SURE", "READER_SURE=high", "SKIN_LEAST=0.5", "HUES=1"])
def test_a_threshold_that_is_no_number_of_the_rules_is_a_clear_error(pair, models_script, capsys):
    with pytest.raises(SystemExit) as exc:
        models_script("bench_piles").main(["--first-seeds", "1", "--set", pair])
    assert exc.value.code == 2
    assert "--set" in capsys.readouterr().err
