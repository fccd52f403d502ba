"""The recipe's quantize step: the finder, classifier and face reader in 8 bits, reading what the
float networks read; and the shipped 8-bit files made from the float files beside them."""
import json
from pathlib import Path

import numpy as np
import onnx
import pytest

from companion.vision.outline import quad_iou
from companion.vision.recognizer import Recognizer
from companion.vision.synth import make_scene

MODELS = Path(__file__).resolve().parents[1] / "models"


@pytest.fixture(scope="module")
def quantized(tmp_path_factory, models_script):
    q = models_script("quantize")
    out = tmp_path_factory.mktemp("q8")
    assert q.main(["--out", str(out), "--scenes", "6", "--small", "2"]) == 0
    return q, out


def test_the_8_bit_networks_find_and_read_what_the_float_ones_do(quantized, tmp_path):
    q, out = quantized
    meta = json.loads((out / "recognizer.json").read_text())
    for k in q.NETWORKS:
        assert meta[k].endswith("-int8.onnx")
        assert (out / meta[k]).stat().st_size < 0.5 * (MODELS / q.float_name(meta[k])).stat().st_size
    floats = Recognizer("classic", model_dir=q.float_folder(MODELS, json.loads((MODELS / "recognizer.json").read_text()), tmp_path))
    eights = Recognizer("classic", model_dir=out)
    found = agree = 0
    for seed in range(9_880_000, 9_880_008):
        img = make_scene(seed, size=(640, 480), kind="single", deck_name="classic").image
        a, b = floats.find(img).faces, eights.find(img).faces
        for face in a:         # every face the float finder finds, the 8-bit one finds in the same place
            assert b and max(quad_iou(face.quad, f.quad) for f in b) > 0.8, seed
            found += 1
        ra, rb = floats.recognize(img).top, eights.recognize(img).top
        agree += (ra and (ra.color, ra.symbol)) == (rb and (rb.color, rb.symbol))
    assert found >= 4 and agree >= 7


def test_the_finders_head_keeps_its_last_convolutions_in_float(quantized):
    q, out = quantized
    kept = q.head_outputs(onnx.load(str(MODELS / "finder.onnx")))
    assert len(kept) == 10 and all(name.startswith("/model.23/") for name in kept)   # 3 scales x (box, score, angle), DFL
    graph = onnx.load(str(out / "finder-int8.onnx")).graph
    dequantized = {o for n in graph.node if n.op_type == "DequantizeLinear" for o in n.output}
    convs = {n.name: n for n in graph.node if n.op_type == "Conv"}
    assert all(convs[name].input[1] not in dequantized for name in kept)
    assert sum(n.input[1] in dequantized for n in convs.values()) == len(convs) - len(kept)


def test_each_8_bit_file_names_the_float_file_it_was_made_from(quantized):
    q, out = quantized
    for name in ("finder-int8.onnx", "classifier-int8.onnx", "facereader-int8.onnx"):
        props = {p.key: p.value for p in onnx.load(str(out / name)).metadata_props}
        source = q.float_name(name)
        assert props[q.SOURCE_KEY] == q.source_of(source, (MODELS / source).read_bytes())


def test_the_shipped_8_bit_networks_were_made_from_the_float_ones_in_models(models_script):
    """A float network trained or exported again without `recipe quantize` after it fails here."""
    q = models_script("quantize")
    meta = json.loads((MODELS / "recognizer.json").read_text())
    for k in q.NETWORKS:
        if not meta[k].endswith("-int8.onnx"):
            continue
        props = {p.key: p.value for p in onnx.load(str(MODELS / meta[k])).metadata_props}
        source = q.float_name(meta[k])
        assert props.get(q.SOURCE_KEY) == q.source_of(source, (MODELS / source).read_bytes()), (
            f"models/{meta[k]} was not made from models/{source}: run `python models/recipe quantize "
            "--roboflow ../shared/datasets/roboflow-uno`")


def test_a_float_name_and_its_8_bit_name(models_script):
    q = models_script("quantize")
    assert q.quantized_name("finder.onnx") == q.quantized_name("finder-int8.onnx") == "finder-int8.onnx"
    assert q.float_name("facereader-int8.onnx") == "facereader.onnx"
    assert np.array_equal(q.calibration_images(1, 0, 7_430_000, [])[0],
                          make_scene(7_430_000, size=(640, 480), kind="pile").image)
