"""Frame sources: the Pi camera, a USB webcam, a recording, or frames pushed by a simulator.

Every source has the same small interface: ``open()``, ``read() -> Frame | None`` (None: the
stream ended), ``close()``; failures raise `CameraError`. Timestamps are seconds on the
source's own clock, so the motion gate can be tested on recordings without wall-clock time::

    >>> import numpy as np
    >>> src = SimulatedSource()
    >>> src.push(np.zeros((480, 640, 3), np.uint8), t=0.0)
    >>> with src:
    ...     f = src.read(timeout=1)
    >>> f.t, f.image.shape
    (0.0, (480, 640, 3))
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class CameraError(RuntimeError):
    """The camera could not be opened or stopped delivering frames."""


@dataclass(frozen=True)
class Frame:
    """One camera frame: a BGR image and its time in seconds on the source's clock."""

    image: np.ndarray
    t: float
    index: int = 0


class FrameSource:
    """The interface every camera implements. Usable as a context manager."""

    name = "source"

    def open(self) -> None:
        """Start delivering frames; raises `CameraError` when the camera is not there."""

    def read(self, timeout: float | None = 2.0) -> Frame | None:
        """The next frame (the freshest one for live cameras), or None at the end of a stream."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the camera; ``open()`` may be called again afterwards."""

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        while (f := self.read()) is not None:
            yield f


def _orient(image: np.ndarray, rotate: int, flip: bool) -> np.ndarray:
    if rotate == 90:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    elif rotate == 180:
        image = cv2.rotate(image, cv2.ROTATE_180)
    elif rotate == 270:
        image = cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
    if flip:
        image = cv2.flip(image, 1)
    return image


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera module through Picamera2 (from apt: ``python3-picamera2``).

    The venv must be made with ``--system-site-packages`` to see it. Frames are BGR (libcamera's
    "RGB888" is B, G, R in memory) and carry the sensor timestamp::

        src = Picamera2Source(size=(640, 480), fps=15)
    """

    name = "picamera2"

    def __init__(self, *, camera_num: int = 0, size=(640, 480), fps: int = 15, rotate: int = 0, flip: bool = False):
        self.camera_num, self.size, self.fps, self.rotate, self.flip = camera_num, tuple(size), fps, rotate, flip
        self._cam = None
        self._index = 0

    @staticmethod
    def available() -> bool:
        """True when Picamera2 is importable and reports at least one camera."""
        try:
            from picamera2 import Picamera2  # noqa: PLC0415  (optional, apt-installed)
            return bool(Picamera2.global_camera_info())
        except Exception:
            return False

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # noqa: PLC0415
        except ImportError as exc:
            raise CameraError("Picamera2 is not installed: on Raspberry Pi OS `sudo apt install python3-picamera2` "
                              "and make the venv with --system-site-packages") from exc
        try:
            cam = Picamera2(self.camera_num)
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                controls={"FrameRate": float(self.fps)}, buffer_count=2)
            cam.configure(config)
            cam.start()
        except Exception as exc:
            raise CameraError(f"cannot start the Pi camera {self.camera_num}: {exc}") from exc
        self._cam = cam

    def read(self, timeout: float | None = 2.0) -> Frame | None:
        if self._cam is None:
            raise CameraError("the Pi camera is not open")
        try:
            request = self._cam.capture_request()
            try:
                image = request.make_array("main")
                stamp = request.get_metadata().get("SensorTimestamp")
            finally:
                request.release()
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped delivering frames: {exc}") from exc
        self._index += 1
        t = stamp / 1e9 if stamp else time.monotonic()
        return Frame(_orient(np.ascontiguousarray(image[:, :, :3]), self.rotate, self.flip), t, self._index)

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
                cam.close()
            except Exception:
                log.debug("closing the Pi camera failed", exc_info=True)


class OpenCVSource(FrameSource):
    """A USB webcam through OpenCV's VideoCapture (V4L2 on Linux, MJPG, a one-frame buffer).

    Frames are fresh: when the reader fell behind, the stale buffered frame is dropped::

        src = OpenCVSource(device="/dev/video0", size=(640, 480), fps=15)
    """

    name = "usb"

    def __init__(self, *, device: int | str = 0, size=(640, 480), fps: int = 15, rotate: int = 0,
                 flip: bool = False, fourcc: str = "MJPG", backend: int | None = None):
        self.device, self.size, self.fps, self.rotate, self.flip = device, tuple(size), fps, rotate, flip
        self.fourcc = fourcc
        self.backend = backend if backend is not None else getattr(cv2, "CAP_V4L2", cv2.CAP_ANY)
        self._cap = None
        self._last_read = 0.0
        self._index = 0

    def open(self) -> None:
        cap = cv2.VideoCapture(self.device, self.backend)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"cannot open USB camera {self.device!r} (plugged in? in the video group?)")
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*self.fourcc))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap = cap
        self._last_read = time.monotonic()

    def read(self, timeout: float | None = 2.0) -> Frame | None:
        if self._cap is None:
            raise CameraError("the USB camera is not open")
        now = time.monotonic()
        if now - self._last_read > 2.0 / self.fps:
            self._cap.grab()            # drop the frame that waited in the buffer
        ok, image = self._cap.read()
        self._last_read = time.monotonic()
        if not ok or image is None:
            raise CameraError(f"USB camera {self.device!r} delivered no frame (unplugged?)")
        self._index += 1
        return Frame(_orient(image, self.rotate, self.flip), self._last_read, self._index)

    def close(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()


class ReplaySource(FrameSource):
    """A recorded video file or a folder of images, played back with their own timestamps.

    Images in a folder are taken in name order, ``1/fps`` seconds apart. ``realtime=True``
    paces the playback like a live camera (for trying ``companion run`` without a camera)::

        src = ReplaySource("recordings/evening.mp4")
    """

    name = "replay"

    def __init__(self, path: str | Path, *, fps: float | None = None, realtime: bool = False, loop: bool = False):
        self.path, self.fps, self.realtime, self.loop = Path(path), fps, realtime, loop
        self._cap = None
        self._files: list[Path] = []
        self._i = 0
        self._t0 = 0.0
        self._offset = 0.0

    def open(self) -> None:
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise CameraError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {self.path}")
            self.fps = self.fps or 15.0
        elif self.path.is_file():
            cap = cv2.VideoCapture(str(self.path))
            if not cap.isOpened():
                raise CameraError(f"cannot read video {self.path}")
            self._cap = cap
            self.fps = self.fps or cap.get(cv2.CAP_PROP_FPS) or 15.0
        else:
            raise CameraError(f"no such video or folder: {self.path}")
        self._i, self._offset = 0, 0.0
        self._t0 = time.monotonic()

    def _next_image(self):
        if self._cap is not None:
            ok, image = self._cap.read()
            return image if ok else None
        if self._i >= len(self._files):
            return None
        image = cv2.imread(str(self._files[self._i]))
        if image is None:
            raise CameraError(f"cannot read image {self._files[self._i]}")
        return image

    def read(self, timeout: float | None = 2.0) -> Frame | None:
        if self._cap is None and not self._files:
            raise CameraError("the replay is not open")
        image = self._next_image()
        if image is None and self.loop and self._i:
            self._offset += self._i / self.fps
            self._i = 0
            if self._cap is not None:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            image = self._next_image()
        if image is None:
            return None
        t = self._offset + self._i / self.fps
        self._i += 1
        if self.realtime:
            delay = self._t0 + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        return Frame(image, t, self._i)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
        self._cap, self._files = None, []


class SimulatedSource(FrameSource):
    """Frames pushed by a simulator (the demo renders the table and pushes each frame).

    ``push(image, t)`` may be called from any thread; ``read()`` hands the frames over in order
    and returns None once ``end()`` was called and the queue is empty. ``fail(error)`` makes the
    next read raise `CameraError`, for testing recovery::

        >>> import numpy as np
        >>> src = SimulatedSource()
        >>> src.push(np.zeros((4, 4, 3), np.uint8), t=1.5); src.end()
        >>> [f.t for f in src]
        [1.5]
    """

    name = "simulated"

    def __init__(self, *, maxsize: int = 0):
        self._q: queue.Queue = queue.Queue(maxsize)
        self._ended = False
        self._index = 0
        self._lock = threading.Lock()

    def push(self, image: np.ndarray, t: float | None = None, *, block: bool = True) -> None:
        """Queue one BGR frame taken at time ``t`` (default: now on the monotonic clock)."""
        self._q.put(("frame", image, time.monotonic() if t is None else float(t)), block=block)

    def fail(self, error: str = "simulated camera fault") -> None:
        """Make the next read raise `CameraError` (the frames after it are still delivered)."""
        self._q.put(("fail", error, None))

    def end(self) -> None:
        """No more frames: ``read()`` returns None once the queue is empty."""
        self._q.put(("end", None, None))

    def pending(self) -> int:
        return self._q.qsize()

    def read(self, timeout: float | None = 2.0) -> Frame | None:
        if self._ended:
            return None
        try:
            kind, a, t = self._q.get(timeout=timeout)
        except queue.Empty:
            raise CameraError(f"no frame from the simulator for {timeout} s") from None
        if kind == "end":
            self._ended = True
            return None
        if kind == "fail":
            raise CameraError(a)
        with self._lock:
            self._index += 1
            return Frame(a, t, self._index)


def open_source(camera, *, realtime_replay: bool = True) -> FrameSource:
    """The frame source a `companion.config.CameraConfig` asks for (not yet opened)."""
    size = (camera.width, camera.height)
    kind = camera.source
    if kind == "auto":
        kind = "picamera2" if Picamera2Source.available() else "usb"
        log.info("camera: using %s", kind)
    if kind == "picamera2":
        return Picamera2Source(size=size, fps=camera.fps, rotate=camera.rotate, flip=camera.flip)
    if kind == "usb":
        return OpenCVSource(device=camera.device, size=size, fps=camera.fps, rotate=camera.rotate, flip=camera.flip)
    if kind == "replay":
        return ReplaySource(camera.path, fps=camera.fps, realtime=realtime_replay)
    raise ValueError(f"unknown camera source {camera.source!r}")
