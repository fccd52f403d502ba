"""A disk cache for the pile benchmarks: each scene, and each network's answers on it (not a test).

Reading a pile costs about 145 ms to draw the scene, 145 ms in the four networks and 35 ms in the
reading rules (on the development machine). A change to the rules leaves the scene and most network
calls as they were, so `recipe bench-piles --cache DIR` keeps both: a rerun draws no scene and runs no
network whose exact input it has seen, and reads a set about six times faster (what is left: the
rules, and loading what is kept). What it gives is what an uncached run gives, bit for bit: scenes
are kept losslessly and every network answer is keyed by the model file and the exact input
tensor, so a call the changed rules make with a new input (another close-up, another outline) runs
the network as usual and is kept too.

The cache's folder is named by a fingerprint of the generator's source (`synth.py`, `render.py`,
`cards.py`), so a change to how scenes are drawn starts a new one; the model files are in every
key (path, size and modification time).
"""
from __future__ import annotations

import contextlib
import hashlib
import pickle
from pathlib import Path

import cv2
import numpy as np

GENERATOR = ("companion/vision/synth.py", "companion/vision/render.py", "companion/cards.py")


def generator_fingerprint(root: Path) -> str:
    """A short hash of the generator's source files under `root` (the repository)."""
    h = hashlib.blake2b(digest_size=8)
    for rel in GENERATOR:
        path = root / rel
        h.update(rel.encode())
        h.update(path.read_bytes() if path.is_file() else b"-")
    return h.hexdigest()


class ReplayCache:
    """Scenes and network answers kept under `folder`, one file per seed for each.

    ``scene(seed, make, **kw)`` gives `make(seed, **kw)`'s scene, from the cache when kept; it also
    makes that seed the one whose network answers are kept and looked up, until the next call.
    ``installed()`` routes every ONNX Runtime session's `run` in this process through the cache
    inside its block (and writes what is new when the block ends)."""

    def __init__(self, folder: Path, root: Path):
        self.folder = Path(folder) / generator_fingerprint(root)
        (self.folder / "scenes").mkdir(parents=True, exist_ok=True)
        (self.folder / "nets").mkdir(parents=True, exist_ok=True)
        self._answers: dict = {}
        self._seed: str | None = None
        self._dirty = False
        self._models: dict = {}
        self.hits = self.misses = 0

    # ------------------------------------------------------------ scenes
    def scene(self, seed: int, make, **kw):
        self.flush()
        name = self._name(seed, kw)
        path = self.folder / "scenes" / f"{name}.pkl"
        if path.is_file():
            sc = pickle.loads(path.read_bytes())
            sc.image = cv2.imdecode(np.frombuffer(sc.image, np.uint8), cv2.IMREAD_UNCHANGED)
        else:
            sc = make(seed, **kw)
            ok, png = cv2.imencode(".png", sc.image)
            if not ok:
                raise RuntimeError(f"cannot encode scene {seed}")
            image, sc.image = sc.image, png.tobytes()
            _write(path, pickle.dumps(sc))
            sc.image = image
        self._seed = name
        nets = self.folder / "nets" / f"{name}.pkl"
        self._answers = pickle.loads(nets.read_bytes()) if nets.is_file() else {}
        return sc

    @staticmethod
    def _name(seed: int, kw: dict) -> str:
        extra = hashlib.blake2b(repr(sorted(kw.items())).encode(), digest_size=6).hexdigest()
        return f"{seed}-{extra}"

    def flush(self) -> None:
        """Writes the current seed's network answers, when any were added."""
        if self._seed is not None and self._dirty:
            _write(self.folder / "nets" / f"{self._seed}.pkl", pickle.dumps(self._answers))
        self._dirty = False

    # ------------------------------------------------------------ networks
    def _model_key(self, sess) -> bytes:
        path = getattr(sess, "_model_path", None)
        if path not in self._models:
            st = Path(path).stat() if path else None
            self._models[path] = f"{path}|{st.st_size if st else 0}|{st.st_mtime_ns if st else 0}".encode()
        return self._models[path]

    def key(self, sess, output_names, feeds: dict) -> str:
        h = hashlib.blake2b(self._model_key(sess), digest_size=16)
        h.update(repr(output_names).encode())
        for name in sorted(feeds):
            x = np.ascontiguousarray(feeds[name])
            h.update(f"{name}|{x.dtype}|{x.shape}".encode())
            h.update(x.data)
        return h.hexdigest()

    @contextlib.contextmanager
    def installed(self):
        import onnxruntime as ort
        run = ort.InferenceSession.run
        cache = self

        def cached_run(sess, output_names, input_feed, run_options=None):
            if cache._seed is None:
                return run(sess, output_names, input_feed, run_options)
            k = cache.key(sess, output_names, input_feed)
            got = cache._answers.get(k)
            if got is None:
                cache.misses += 1
                got = run(sess, output_names, input_feed, run_options)
                cache._answers[k] = got
                cache._dirty = True
            else:
                cache.hits += 1
            return [a.copy() for a in got]

        ort.InferenceSession.run = cached_run
        try:
            yield self
        finally:
            ort.InferenceSession.run = run
            self.flush()
            self._seed = None


def _write(path: Path, data: bytes) -> None:
    """Writes `data` whole or not at all (two processes never share a seed, but a killed run
    must not leave half a file)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
