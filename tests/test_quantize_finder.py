"""The recipe's quantize-finder step: a model folder whose finder reads in 8 bits and still finds cards."""
import json

from companion.vision.outline import quad_iou
from companion.vision.recognizer import Recognizer
from companion.vision.synth import make_scene


def test_the_quantized_finder_finds_the_cards_the_shipped_one_finds(tmp_path, models_script):
    qf = models_script("quantize_finder")
    assert qf.main(["--out", str(tmp_path), "--scenes", "6"]) == 0
    meta = json.loads((tmp_path / "recognizer.json").read_text())
    assert all((tmp_path / meta[k]).is_file() for k in ("finder", "face_reader", "classifier", "fitter"))
    assert (tmp_path / meta["finder"]).stat().st_size < 0.5 * (qf.ROOT / "models" / meta["finder"]).stat().st_size
    shipped, quantized = Recognizer("classic"), Recognizer("classic", model_dir=tmp_path)
    found = 0
    for seed in range(9_880_000, 9_880_006):
        img = make_scene(seed, size=(640, 480), kind="single", deck_name="classic").image
        a, b = shipped.find(img).faces, quantized.find(img).faces
        for face in a:         # every face the shipped finder finds, the quantized one finds in the same place
            assert b and max(quad_iou(face.quad, q.quad) for q in b) > 0.8, seed
            found += 1
    assert found >= 3
