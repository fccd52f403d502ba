"""What the recogniser's networks share at run time: ONNX Runtime sessions, a frame drawn as an
Ultralytics network's input (letterboxed to a fixed square, or filling an input of no fixed
size), and the classifier's reading of crops (no torch)."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class ModelError(RuntimeError):
    """The recogniser's model files are missing or unreadable."""


def session(path: Path, threads: int):
    """An ONNX Runtime session on the CPU with `threads` threads; a `ModelError` naming the path
    when the file is missing or not a model."""
    import onnxruntime as ort
    if not path.is_file():
        raise ModelError(f"model file missing: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own error types
        raise ModelError(f"cannot load model {path}: {exc}") from exc


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, float, int, int]:
    """`image` drawn into a `size` x `size` input (a network exported for a fixed square input),
    its longer side the input's, grey around it: (the network's input, 1x3xHxW RGB in
    0..1; the scale; the left and top offsets). A point (x, y) of the input is
    ((x - left) / scale, (y - top) / scale) in the image."""
    h, w = image.shape[:2]
    s = size / max(h, w)
    nh, nw = max(1, int(round(h * s))), max(1, int(round(w * s)))
    canvas = np.full((size, size, 3), 114, np.uint8)
    top, left = (size - nh) // 2, (size - nw) // 2
    canvas[top: top + nh, left: left + nw] = shrink(image, nw, nh)
    return cv2.dnn.blobFromImage(canvas, 1 / 255, swapRB=True), s, left, top


def fitted(image: np.ndarray, size: int, stride: int) -> tuple[np.ndarray, float, float]:
    """`image` drawn as the whole input of a network with no fixed input size: its longer side
    `size`, each side the nearest multiple of `stride` (a half rounded down), so that the frame
    is stretched or squashed by at most half a stride and no pixel is spent on a grey border (a
    4:3 frame at 288: 288 x 224, the frame 3.7% taller, where a letterbox drew it 288 x 216 between
    grey rows; a 16:9 frame: 288 x 160, not 288 x 192): (the network's input, 1x3xHxW RGB in 0..1;
    the horizontal and vertical scales). A point (x, y) of the input is (x / sx, y / sy) in the image."""
    h, w = image.shape[:2]
    s = size / max(h, w)
    nh, nw = (max(stride, stride * int(np.ceil(v * s / stride - 0.5))) for v in (h, w))
    return cv2.dnn.blobFromImage(shrink(image, nw, nh), 1 / 255, swapRB=True), nw / w, nh / h


def shrink(image: np.ndarray, w: int, h: int) -> np.ndarray:
    """`image` drawn at `w` x `h`: halved (each 2x2 pixels averaged) while it stays at least that
    large, then bilinear. Nothing aliases, as with an area resize, at a seventh of its cost (a
    640x480 frame to 288x216: 0.16 ms, not 1.0)."""
    while image.shape[1] >= 2 * w and image.shape[0] >= 2 * h:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_LINEAR)
    if image.shape[:2] == (h, w):
        return image
    return cv2.resize(image, (w, h), interpolation=cv2.INTER_LINEAR)


def turned_logits(sess, crops: np.ndarray, turns: int) -> np.ndarray:
    """The symbol classifier's logits for N square BGR crops (N x S x S x 3, uint8), each read at
    `turns` quarter turns in one batch and the logits averaged: N x classes."""
    views = np.concatenate([np.rot90(crops, t, axes=(1, 2)) for t in range(turns)])
    x = np.ascontiguousarray(views.transpose(0, 3, 1, 2)).astype(np.float32) / 255
    logits = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    return logits.reshape(turns, len(crops), -1).mean(0)
