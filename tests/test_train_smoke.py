"""A tiny training smoke run: the recipe (python models/recipe STEP) runs end to end (real training never runs in CI)."""
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
RECIPE = (str(ROOT / "models" / "recipe"),)            # the recipe's one command: python models/recipe STEP
need_train = pytest.mark.skipif(
    importlib.util.find_spec("ultralytics") is None or importlib.util.find_spec("torch") is None,
    reason="the training extra (torch, ultralytics) is not installed")


@need_train
def test_detector_recipe_trains_one_epoch_offline(tmp_path):
    from companion.vision.dataset import write_detector_dataset
    data = write_detector_dataset(tmp_path / "det", count=6, val=2, procs=1)
    env = {**os.environ, "YOLO_OFFLINE": "1", "YOLO_CONFIG_DIR": str(tmp_path / "cfg")}
    out = subprocess.run([sys.executable, *RECIPE, "train-detector", "--data", str(data),
                          "--epochs", "1", "--imgsz", "64", "--batch", "4", "--workers", "0",
                          "--lr0", "0.001", "--close-mosaic", "0",
                          "--project", str(tmp_path / "runs"), "--name", "smoke"],
                         capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert (tmp_path / "runs" / "smoke" / "weights" / "last.pt").is_file()
    assert "AdamW(lr=0.001" in out.stdout + out.stderr       # --lr0: the fine-tuning optimiser
    # export to another folder leaves whatever lies beside the source weights untouched
    weights = tmp_path / "runs" / "smoke" / "weights"
    (weights / "last.onnx").write_text("shipped")
    (tmp_path / "md").mkdir()
    # a setting the export does not make (four classifier turns) is kept in the folder's recognizer.json
    (tmp_path / "md" / "recognizer.json").write_text(json.dumps({"imgsz": 320, "classifier_turns": 4}))
    out = subprocess.run([sys.executable, *RECIPE, "export", "--detector", str(weights / "last.pt"),
                          "--imgsz", "64", "--out", str(tmp_path / "md")],
                         capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert "AutoUpdate" not in out.stdout + out.stderr      # the export installs nothing
    assert (weights / "last.onnx").read_text() == "shipped"
    meta = json.loads((tmp_path / "md" / "recognizer.json").read_text())
    assert meta["imgsz"] == 64 and (tmp_path / "md" / "detector.onnx").stat().st_size > 1000
    assert meta["classifier_turns"] == 4 and meta["classifier"] == "classifier.onnx"


@need_train
def test_a_finder_grown_a_class_finds_what_it_found_before(tmp_path, models_script):
    import torch
    gc = models_script("grow_classes")
    model = gc.offline_ultralytics()(str(ROOT / "models" / "finder.pt")).model.float().eval()
    old = list(model.names.values())
    grown, layers = gc.grow(model, old + ["extra"])
    assert list(grown.names.values()) == old + ["extra"] and grown.yaml["nc"] == len(old) + 1 and layers > 0
    x = torch.rand(1, 3, 96, 128)
    with torch.no_grad():
        before, after = model(x)[0], grown.eval()(x)[0]
    n = len(old)
    assert after.shape[1] == before.shape[1] + 1
    assert torch.allclose(before[:, :4 + n], after[:, :4 + n], rtol=1e-4, atol=1e-4)
    assert torch.allclose(before[:, -1], after[:, -1], rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="name them first"):
        gc.grow(model, ["extra"] + old)
    # saved as a checkpoint Ultralytics trains on
    out = subprocess.run([sys.executable, *RECIPE, "grow-classes", str(ROOT / "models" / "finder.pt"), "--names",
                          *old, "extra", "--out", str(tmp_path / "grown.pt")], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "YOLO_OFFLINE": "1", "YOLO_CONFIG_DIR": str(tmp_path / "cfg")})
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert list(gc.offline_ultralytics()(str(tmp_path / "grown.pt")).model.names.values()) == old + ["extra"]


@need_train
def test_outline_recipe_trains_oriented_boxes_from_the_detectors_weights(tmp_path):
    from companion.vision.dataset import write_outline_dataset
    data = write_outline_dataset(tmp_path / "ol", count=4, val=2, procs=1, kinds=("pile",))
    env = {**os.environ, "YOLO_OFFLINE": "1", "YOLO_CONFIG_DIR": str(tmp_path / "cfg")}
    run = [sys.executable, *RECIPE, "train-detector", "--data", str(data), "--epochs", "1",
           "--imgsz", "64", "--batch", "4", "--workers", "0", "--close-mosaic", "0",
           "--project", str(tmp_path / "runs"), "--name", "ol", "--model", "yolo11n-obb.yaml"]
    out = subprocess.run(run + ["--transfer", str(ROOT / "models" / "detector.pt")],
                         capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert "Transferred" in out.stdout + out.stderr             # the backbone came from the detector
    weights = tmp_path / "runs" / "ol" / "weights" / "last.pt"
    assert weights.is_file()
    out = subprocess.run(run + ["--transfer", str(tmp_path / "missing.pt")], capture_output=True, text=True,
                         timeout=600, env=env)
    assert out.returncode != 0 and "missing.pt" in out.stderr
    # exported beside a detector's settings, which stay; the recogniser reads it through them
    md = tmp_path / "md"
    md.mkdir()
    (md / "recognizer.json").write_text(json.dumps({"imgsz": 320, "classifier_turns": 4}))
    export = [sys.executable, *RECIPE, "export", "--imgsz", "64", "--out", str(md)]
    out = subprocess.run(export + ["--outlines", str(weights)], capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    meta = json.loads((md / "recognizer.json").read_text())
    assert meta["outlines"] == "outlines.onnx" and meta["outlines_imgsz"] == 64 and meta["imgsz"] == 320
    from companion.vision.outline import OutlineFinder
    assert isinstance(OutlineFinder(md / "outlines.onnx", 64).find(np.zeros((48, 64, 3), np.uint8)), list)
    # exported as the finder is, with no fixed input size: a 4:3 frame is read at 64 x 64 x 3/4
    code = (f"import sys, pathlib; sys.path.insert(0, {str(ROOT / 'models' / 'recipe')!r}); import export; "
            f"export.export_onnx(export.offline_ultralytics(), {str(weights)!r}, 64, pathlib.Path({str(md)!r}), "
            f"'dyn', 'obb', dynamic=True)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    finder = OutlineFinder(md / "dyn.onnx", 64)
    assert finder.stride == 32 and isinstance(finder.find(np.zeros((480, 640, 3), np.uint8)), list)
    # a detector's weights are no outline finder
    out = subprocess.run(export + ["--outlines", str(ROOT / "models" / "detector.pt")], capture_output=True,
                         text=True, timeout=600, env=env)
    assert out.returncode != 0 and "not an oriented-box model" in out.stderr


@need_train
def test_classifier_recipe_trains_and_exports_onnx(tmp_path):
    import onnxruntime as ort
    from companion.vision.classes import SYMBOLS
    from companion.vision.dataset import write_crops
    write_crops(tmp_path / "crops", count=6, first_seed=123, procs=1)
    out = subprocess.run([sys.executable, *RECIPE, "train-classifier", "--crops", str(tmp_path / "crops"),
                          "--epochs", "1", "--batch", "16", "--out", str(tmp_path / "cls")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    sess = ort.InferenceSession(str(tmp_path / "cls.onnx"), providers=["CPUExecutionProvider"])
    logits = sess.run(None, {"crops": np.zeros((2, 3, 48, 48), np.float32)})[0]
    assert logits.shape == (2, len(SYMBOLS))
    rows = json.loads((tmp_path / "crops" / "crops.json").read_text())
    assert rows and all(r["symbol"] in SYMBOLS for r in rows)


@need_train
def test_classifier_recipe_with_a_colour_head_exports_colours_the_reader_names_indices_by(tmp_path):
    from companion.vision.classes import COLOURS, SYMBOLS
    from companion.vision.dataset import write_crops
    from companion.vision.stages import Crops, Index, IndexCrop, Reader
    write_crops(tmp_path / "crops", count=6, first_seed=123, procs=1)
    out = subprocess.run([sys.executable, *RECIPE, "train-classifier", "--crops", str(tmp_path / "crops"),
                          "--epochs", "1", "--batch", "16", "--colours", "--shade", "0.5",
                          "--init", str(ROOT / "models" / "classifier.pt"), "--out", str(tmp_path / "cls")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert re.search(r"^colours \[\d+(, \d+){%d}\]" % len(COLOURS), out.stdout, re.M)    # the labels, none first
    palette = ("blue", "green", "orange", "purple")
    reader = Reader(ROOT / "models" / "facereader.onnx", tmp_path / "cls.onnx", palette)
    assert reader.index_colours
    assert reader.index_net.run(None, {"crops": np.zeros((1, 3, 48, 48), np.float32)})[0].shape == (
        1, len(SYMBOLS) + len(COLOURS))
    pixels = np.full((48, 48, 3), 255, np.uint8)
    pixels[8:40, 12:36] = (40, 40, 200)
    idx = IndexCrop(Index((0.0, 0.0, 20.0, 30.0), 0.9), pixels)
    reading = reader(Crops([], [idx])).indices[0]
    # in the deck's colours only, summing to one; none where the index reads a wild or no card
    if reading.symbol == "none" or reading.symbol.startswith("wild"):
        assert reading.shares == {}
    else:
        assert set(reading.shares) == set(palette) and np.isclose(sum(reading.shares.values()), 1)
    row = reader.index_logits([idx])[0]
    shares = reader._shares(row, reader.index_colours, idx.pixels, np.ones(3, np.float32))
    assert set(shares) == set(palette) and np.isclose(sum(shares.values()), 1)


@need_train
def test_a_shaded_crop_is_darker_on_one_side_of_a_straight_edge_only():
    import torch
    sys.path.insert(0, str(ROOT / "models" / "recipe"))
    from train_classifier import shade
    x = torch.full((8, 3, 48, 48), 0.8)
    assert torch.equal(shade(x, torch.Generator().manual_seed(0), 0.0), x)
    y = shade(x, torch.Generator().manual_seed(0), 1.0)
    for img in y:
        dark = img.mean(0) < 0.79
        assert 0.1 < dark.float().mean() < 0.9                  # part of the crop, not all of it
        assert img.min() >= 0.8 * 0.2 * 0.85 and img.max() <= 0.8 + 1e-6   # a fifth of the light or more
        assert (img[0][dark] >= img[2][dark] - 1e-6).all()      # the shade is bluer, never redder


@need_train
def test_an_overexposed_crop_is_brighter_and_clipped():
    import torch
    sys.path.insert(0, str(ROOT / "models" / "recipe"))
    from train_classifier import expose
    x = torch.rand(16, 3, 8, 8) * 0.9
    assert torch.equal(expose(x, torch.Generator().manual_seed(0), 0.0), x)
    y = expose(x, torch.Generator().manual_seed(0), 1.0)
    assert y.max() <= 1 and (y >= x).all() and (y == 1).any()
    assert ((y.mean((1, 2, 3)) > x.mean((1, 2, 3)) * 1.1)).all()         # every crop brighter


@need_train
def test_degraded_crops_are_blurred_or_coarser_and_the_rest_untouched():
    import torch
    sys.path.insert(0, str(ROOT / "models" / "recipe"))
    from train_classifier import degrade
    x = torch.zeros(6, 3, 48, 48)
    x[:, :, 20:28, :] = 1                      # a sharp white bar
    assert torch.equal(degrade(x, torch.Generator().manual_seed(0), 0.0), x)
    y = degrade(x, torch.Generator().manual_seed(0), 1.0)
    assert y.shape == x.shape and 0 <= y.min() and y.max() <= 1
    # every crop lost the bar's sharp edge: pixels next to it are no longer black
    assert (y[:, :, 18:20, :].mean((1, 2, 3)) > 0.02).all()


@need_train
def test_shaken_crops_are_smeared_along_one_direction():
    import torch
    sys.path.insert(0, str(ROOT / "models" / "recipe"))
    from train_classifier import shake
    x = torch.zeros(5, 3, 48, 48)
    x[:, :, 24, 24] = 1                        # a point of light
    assert torch.equal(shake(x, torch.Generator().manual_seed(0), 0.0), x)
    y = shake(x, torch.Generator().manual_seed(0), 1.0)
    for img in y[:, 0]:
        assert abs(float(img.sum()) - 1) < 1e-4            # smeared, not brightened or lost
        w = img / img.sum()
        yy, xx = torch.meshgrid(torch.arange(48.), torch.arange(48.), indexing="ij")
        my, mx = (w * yy).sum(), (w * xx).sum()
        cov = torch.tensor([[(w * (xx - mx) ** 2).sum(), (w * (xx - mx) * (yy - my)).sum()],
                            [(w * (xx - mx) * (yy - my)).sum(), (w * (yy - my) ** 2).sum()]])
        small, large = torch.linalg.eigvalsh(cov)
        assert large > 0.5 and large > 4 * small           # a streak: long one way, thin the other


@need_train
def test_card_reader_recipe_with_a_colour_head_names_faces_colours_in_the_decks_palette(tmp_path):
    from companion.vision.card_data import write_cards
    from companion.vision.classes import COLOURS, SYMBOLS
    from companion.vision.stages import Crop, Crops, Face, Reader
    write_cards(tmp_path / "cards", count=8, first_seed=7_000_000, procs=1, kinds=("pile",))
    out = subprocess.run([sys.executable, *RECIPE, "train-reader", "--cards", str(tmp_path / "cards"),
                          "--epochs", "1", "--batch", "8", "--colours", "--shade", "0.3", "--expose", "0.2",
                          "--init", str(ROOT / "models" / "facereader.pt"), "--out", str(tmp_path / "cr")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert re.search(r"^colours \[\d+(, \d+){%d}\]" % len(COLOURS), out.stdout, re.M)
    assert re.search(r"colour \d\.\d{4} \(\d+\)", out.stdout)           # the colour head measured
    reader = Reader(tmp_path / "cr.onnx", ROOT / "models" / "classifier.onnx", ("red", "yellow", "green", "blue"))
    assert reader.face_colours
    pixels = np.zeros((96, 64, 3), np.uint8)
    pixels[:] = (40, 40, 200)
    face_ = Face(np.float32([[10, 10], [50, 10], [50, 70], [10, 70]]), 0.9)
    reading = reader(Crops([Crop(face_, pixels)], [])).faces[0]
    assert reading.probs.shape == (len(SYMBOLS),) and np.isclose(reading.probs.sum(), 1)
    assert set(reading.shares) == {"red", "yellow", "green", "blue"} and np.isclose(sum(reading.shares.values()), 1)


@need_train
def test_a_real_photos_face_is_labelled_with_the_matchers_colour_where_it_is_sure():
    sys.path.insert(0, str(ROOT / "models" / "recipe"))
    from train_cardreader import face_colour
    from companion.vision.classes import COLOURS
    card = np.full((96, 64, 3), 245, np.uint8)
    card[8:88, 6:58] = (40, 40, 200)                          # a red face on its white border
    real = {"symbol": "7", "color": None, "src": "roboflow/valid"}
    assert face_colour(card, real) == COLOURS.index("red")
    assert face_colour(card, {**real, "symbol": "wild"}) == -1
    assert face_colour(np.full((96, 64, 3), 200, np.uint8), real) == -1        # no ink: not sure
    assert face_colour(card, {"symbol": "7", "color": "blue"}) == COLOURS.index("blue")   # the generator's own


@need_train
def test_card_reader_recipe_trains_and_exports_onnx_the_run_time_reader_reads(tmp_path):
    from companion.vision.classes import SYMBOLS
    from companion.vision.card_data import write_cards
    from companion.vision.stages import Crop, Face, Reader
    write_cards(tmp_path / "cards", count=8, first_seed=7_000_000, procs=1, kinds=("pile",))
    out = first = subprocess.run([sys.executable, *RECIPE, "train-reader", "--cards", str(tmp_path / "cards"),
                          "--epochs", "1", "--batch", "8", "--out", str(tmp_path / "cr")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert (tmp_path / "cr.pt").is_file() and (tmp_path / "cr.ep1.pt").is_file()
    reader = Reader(tmp_path / "cr.onnx", ROOT / "models" / "classifier.onnx", ("red", "yellow", "green", "blue"))
    probs = reader.face_probs([Crop(Face(np.float32([[10, 10], [50, 10], [50, 70], [10, 70]]), 0.9),
                                    np.zeros((96, 64, 3), np.uint8))])
    assert probs.shape == (1, len(SYMBOLS)) and np.isclose(probs.sum(), 1)
    # continued from its weights, the recipe first reads the validation crops with them as they are
    out = subprocess.run([sys.executable, *RECIPE, "train-reader", "--cards", str(tmp_path / "cards"),
                          "--epochs", "1", "--batch", "8", "--init", str(tmp_path / "cr.pt"), "--out", str(tmp_path / "cr3")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    before = next(line for line in out.stdout.splitlines() if line.startswith("before training"))
    assert str(tmp_path / "cr.pt") in before and "val_acc" in before
    # a wider reader from the narrow one's weights: widened first, then read as it is
    out = subprocess.run([sys.executable, *RECIPE, "train-reader", "--cards", str(tmp_path / "cards"),
                          "--epochs", "1", "--batch", "8", "--width", "24", "--init", str(tmp_path / "cr.pt"),
                          "--out", str(tmp_path / "cr4")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert "widening" in out.stdout and "from width 16 to 24" in out.stdout
    assert before.split(": ", 1)[1] in out.stdout      # the widened net reads the crops as the narrow one did
    # continued from the wide one's weights, it stays as wide without being told
    out = subprocess.run([sys.executable, *RECIPE, "train-reader", "--cards", str(tmp_path / "cards"),
                          "--epochs", "1", "--batch", "8", "--init", str(tmp_path / "cr4.pt"),
                          "--out", str(tmp_path / "cr5")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and "widening" not in out.stdout, out.stdout[-2000:] + out.stderr[-3000:]
    import torch
    assert torch.load(tmp_path / "cr5.pt", map_location="cpu")["features.0.0.weight"].shape[0] == 24
    # no crops: a clear error, not a crash
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "cards.json").write_text("[]")
    out = subprocess.run([sys.executable, *RECIPE, "train-reader", "--cards", str(tmp_path / "empty"),
                          "--epochs", "1", "--out", str(tmp_path / "cr2")], capture_output=True, text=True, timeout=600)
    assert out.returncode != 0 and "no card crops found" in out.stderr
    # a folder drawn more often: its crops count that many times in an epoch; a bad count is an error
    out = subprocess.run([sys.executable, *RECIPE, "train-reader", "--cards", str(tmp_path / "cards"),
                          "--copies", f"{tmp_path / 'cards'}=3", "--epochs", "1", "--batch", "8",
                          "--out", str(tmp_path / "cr5")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    epoch = lambda text: int(re.search(r"(\d+) training crops an epoch", text).group(1))   # noqa: E731
    assert epoch(out.stdout) == 3 * epoch(first.stdout) > 0
    out = subprocess.run([sys.executable, *RECIPE, "train-reader", "--cards", str(tmp_path / "cards"),
                          "--copies", f"{tmp_path / 'cards'}=0", "--epochs", "1", "--out", str(tmp_path / "cr6")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode != 0 and "--copies takes FOLDER=N" in out.stderr


@need_train
def test_a_widened_card_reader_computes_what_the_narrow_one_did(models_script):
    import torch
    cr = models_script("train_cardreader")
    torch.manual_seed(3)
    narrow = cr.CardNet(width=8)
    with torch.no_grad():        # batch norm's running figures away from 0 and 1, as a trained net has them
        for m in narrow.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5); m.running_var.uniform_(0.5, 2); m.weight.uniform_(0.5, 1.5)
    narrow.eval()
    x = torch.rand(4, 3, 96, 64)
    for width, noise in ((12, 0.0), (16, 0.0), (13, 0.01)):
        wide = cr.CardNet(width=width)
        wide.load_state_dict(cr.widen(narrow.state_dict(), width, noise=noise))
        wide.eval()
        assert cr.width_of(wide.state_dict()) == width
        with torch.no_grad():
            gap = (wide(x) - narrow(x)).abs().max().item()
        assert gap < (1e-4 if noise == 0 else 0.5) and (noise == 0 or gap > 0)
    with pytest.raises(ValueError, match="cannot widen"):
        cr.widen(narrow.state_dict(), 4)


@need_train
@pytest.mark.skipif(not (ROOT / "models" / "recognizer.json").is_file(), reason="no shipped finder to make the data with")
def test_fitter_recipe_makes_squares_trains_and_names_the_fitter_in_the_model_folder(tmp_path):
    from companion.vision import Recognizer
    from companion.vision.stages import Face, Found
    out = subprocess.run([sys.executable, *RECIPE, "fitter-data", str(tmp_path / "fit"), "--count", "12",
                          "--first-seed", "720000", "--procs", "1"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    data = np.load(tmp_path / "fit" / "fit.npz")
    assert data["x"].shape[1:] == (64, 64, 3) and data["y"].shape == (len(data["x"]), 8)
    assert set(np.unique(data["finder"])) <= {0, 1} and data["box"].shape == data["y"].shape
    # the outlines lie round each square's middle, where the box it was cut round lies
    assert abs(float(data["y"].reshape(-1, 4, 2).mean((0, 1)).mean()) - 0.5) < 0.1
    md = tmp_path / "md"
    md.mkdir()
    meta = json.loads((ROOT / "models" / "recognizer.json").read_text())
    for name in [v for k, v in meta.items() if str(v).endswith(".onnx") and k != "fitter"]:
        (md / name).symlink_to(ROOT / "models" / name)
    (md / "recognizer.json").write_text(json.dumps({k: v for k, v in meta.items() if k != "fitter"}))
    out = subprocess.run([sys.executable, *RECIPE, "train-fitter", "--data", str(tmp_path / "fit"), "--epochs", "1",
                          "--batch", "8", "--width", "8", "--out", str(md / "first")], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    # continued from those weights, it keeps their width without being told it
    out = subprocess.run([sys.executable, *RECIPE, "train-fitter", "--data", str(tmp_path / "fit"), "--epochs", "1",
                          "--batch", "8", "--init", str(md / "first.pt"), "--out", str(md / "myfitter")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert json.loads((md / "recognizer.json").read_text())["fitter"] == "myfitter.onnx"
    rec = Recognizer("classic", model_dir=md)
    quad = np.float32([[100, 50], [200, 50], [200, 200], [100, 200]])
    fitted = rec.fit(np.zeros((480, 640, 3), np.uint8), Found([Face(quad, 0.9)], []))
    assert len(fitted.faces) == 1 and fitted.faces[0].quad.shape == (4, 2)
