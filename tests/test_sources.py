"""Frame sources, and the card watcher's fault handling with fake cameras."""
import threading

import cv2
import numpy as np
import pytest

from companion.camera.gate import MotionGate
from companion.camera.pipeline import CameraStatus, CardWatcher
from companion.camera.sources import (CameraError, Frame, FrameSource, OpenCVSource, Picamera2Source,
                                      ReplaySource, SimulatedSource, open_source)
from companion.camera.testing import PILE_ROI, FakeRecognizer, card_frame
from companion.config import parse_config


def img(v=0):
    return np.full((48, 64, 3), v, np.uint8)


# -- sources ----------------------------------------------------------------------------------

def test_simulated_source_hands_frames_over_in_order():
    src = SimulatedSource()
    for i in range(3):
        src.push(img(i), t=i * 0.1)
    src.end()
    with src:
        frames = list(src)
    assert [f.t for f in frames] == [0.0, 0.1, 0.2]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 1, 2]
    assert [f.index for f in frames] == [1, 2, 3]
    assert src.read() is None


def test_simulated_source_faults_and_timeouts():
    src = SimulatedSource()
    src.fail("lens cap")
    src.push(img(), t=1.0)
    with pytest.raises(CameraError, match="lens cap"):
        src.read()
    assert src.read().t == 1.0
    with pytest.raises(CameraError, match="no frame"):
        src.read(timeout=0.01)


def test_simulated_source_from_another_thread():
    src = SimulatedSource()
    th = threading.Thread(target=lambda: [src.push(img(), t=float(i)) for i in range(50)] + [src.end()])
    th.start()
    assert len(list(src)) == 50
    th.join()


def test_replay_folder_of_images(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), img(10 * i))
    (tmp_path / "notes.txt").write_text("not an image")
    src = ReplaySource(tmp_path, fps=10)
    with src:
        frames = list(src)
    assert [round(f.t, 3) for f in frames] == [0.0, 0.1, 0.2]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 10, 20]


def test_replay_loops(tmp_path):
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), img(i))
    src = ReplaySource(tmp_path, fps=10, loop=True)
    src.open()
    ts = [round(src.read().t, 3) for _ in range(5)]
    assert ts == [0.0, 0.1, 0.2, 0.3, 0.4]


def test_replay_video_file(tmp_path):
    path = tmp_path / "clip.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (64, 48))
    if not out.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(5):
        out.write(img(40 * i))
    out.release()
    with ReplaySource(path) as src:
        frames = list(src)
    assert len(frames) == 5
    assert frames[1].t == pytest.approx(1 / 15)


@pytest.mark.parametrize("make", [
    lambda p: ReplaySource(p / "missing"),
    lambda p: ReplaySource(p),                 # an empty folder
    lambda p: OpenCVSource(device=str(p / "video99")),
])
def test_missing_cameras_raise_camera_error(tmp_path, make):
    with pytest.raises(CameraError):
        make(tmp_path).open()


def test_picamera2_missing_says_how_to_install():
    try:
        import picamera2  # noqa: F401
        pytest.skip("picamera2 is installed here")
    except ImportError:
        pass
    assert Picamera2Source.available() is False
    with pytest.raises(CameraError, match="python3-picamera2"):
        Picamera2Source().open()


def test_open_source_follows_the_config(tmp_path):
    cfg = parse_config(f"[camera]\nsource = 'replay'\npath = '{tmp_path}'\nfps = 5")
    assert isinstance(open_source(cfg.camera), ReplaySource)
    cfg = parse_config("[camera]\nsource = 'usb'\ndevice = '/dev/video3'")
    src = open_source(cfg.camera)
    assert isinstance(src, OpenCVSource) and src.device == "/dev/video3"
    assert isinstance(open_source(parse_config("").camera), (OpenCVSource, Picamera2Source))


# -- the watcher's fault handling -----------------------------------------------------------------

class FlakyCamera(FrameSource):
    """Fails to open ``open_failures`` times, then plays ``frames``; ``read_fail_at`` frame
    indexes raise instead (the cable pulled), after which it must be reopened."""

    def __init__(self, frames, *, open_failures=0, read_fail_at=()):
        self.frames, self.open_failures, self.read_fail_at = list(frames), open_failures, set(read_fail_at)
        self.i, self.opened, self.opens = 0, False, 0

    def open(self):
        self.opens += 1
        if self.open_failures:
            self.open_failures -= 1
            raise CameraError("no camera on /dev/video0")
        self.opened = True

    def read(self, timeout=2.0):
        assert self.opened, "read before open"
        if self.i in self.read_fail_at:
            self.read_fail_at.discard(self.i)
            self.opened = False
            raise CameraError("USB camera delivered no frame (unplugged?)")
        if self.i >= len(self.frames):
            return None
        image, t = self.frames[self.i]
        self.i += 1
        return Frame(image, t, self.i)

    def close(self):
        self.opened = False


def script(n_before=5, n_after=20, card="red 7"):
    return [(card_frame(card if i >= n_before else None), i / 15) for i in range(n_before + n_after)]


def test_camera_missing_at_start_is_retried_with_backoff():
    waits = []
    cam = FlakyCamera(script(), open_failures=3)
    watcher = CardWatcher(cam, MotionGate(FakeRecognizer(), roi=PILE_ROI, settle=0.3), sleep=waits.append,
                          backoff=(0.5, 1.5))
    events = list(watcher.events())
    assert [(e.kind, getattr(e, "state", None)) for e in events] == [
        ("camera", "failed"), ("camera", "failed"), ("camera", "failed"), ("camera", "ok"),
        ("card", None), ("camera", "ended")]
    assert waits == [0.5, 1.0, 1.5]
    assert events[0].error == "no camera on /dev/video0" and events[2].attempts == 3
    assert watcher.status["state"] == "ended"


def test_camera_unplugged_mid_game_recovers_and_keeps_the_gate():
    waits = []
    cam = FlakyCamera(script(n_before=5, n_after=40), read_fail_at={10, 11})
    watcher = CardWatcher(cam, MotionGate(FakeRecognizer(), roi=PILE_ROI, settle=0.3), sleep=waits.append)
    events = list(watcher.events())
    states = [e.state for e in events if isinstance(e, CameraStatus)]
    assert states == ["ok", "failed", "ok", "failed", "ok", "ended"]
    assert [str(e.card) for e in events if e.kind == "card"] == ["red 7"]
    assert waits == [0.5, 1.0]
    assert cam.opens == 3


def test_gate_bugs_do_not_end_the_watcher():
    class Broken(MotionGate):
        def feed(self, image, t):
            if t < 0.2:
                raise ZeroDivisionError("oops")
            return super().feed(image, t)
    cam = FlakyCamera(script())
    events = list(CardWatcher(cam, Broken(FakeRecognizer(), settle=0.3), sleep=lambda s: None).events())
    assert [e.kind for e in events].count("card") == 1


def test_stop_ends_a_live_watcher():
    src = SimulatedSource()
    watcher = CardWatcher(src, MotionGate(FakeRecognizer()), read_timeout=0.05, backoff=(0.01, 0.01))
    seen = []
    got_ok = threading.Event()

    def put(e):
        seen.append(e)
        if getattr(e, "state", "") == "ok":
            got_ok.set()
    watcher.start(put)
    src.push(card_frame(None), t=0.0)
    assert got_ok.wait(5)
    watcher.stop()
    watcher.join(5)
    assert seen[-1].state == "stopped"


def test_preview_and_detections():
    src = SimulatedSource()
    for frame, t in script():
        src.push(frame, t)
    src.end()
    watcher = CardWatcher(src, MotionGate(FakeRecognizer(), roi=PILE_ROI, settle=0.3))
    assert watcher.latest_jpeg() is None and watcher.latest_detections() == []
    list(watcher.events())
    jpeg = watcher.latest_jpeg()
    assert jpeg.startswith(b"\xff\xd8") and watcher.latest_jpeg() is jpeg      # cached
    dets = watcher.latest_detections()
    assert dets[0]["card"] == "red 7" and len(dets[0]["box"]) == 4
    assert watcher.status["detector_calls"] == 2


def test_set_top_and_question_status():
    src = SimulatedSource()
    for frame, t in script(card="red 3"):
        src.push(frame, t)
    src.end()
    watcher = CardWatcher(src, MotionGate(FakeRecognizer(override={"red 3": 0.2}), roi=PILE_ROI, settle=0.3))
    watcher.set_top("blue 1")
    events = list(watcher.events())
    assert [e.kind for e in events if e.kind != "camera"] == ["question"]
    assert watcher.status["question"]["candidates"] == ["red 3"]
    assert str(watcher.gate.top) == "blue 1"
