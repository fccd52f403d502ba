"""Seeing the cards: synthetic data, the recogniser (ONNX Runtime), its command."""
from .detection import Detection, Recognition
from .recognizer import ModelError, Recognizer

__all__ = ["Detection", "ModelError", "Recognition", "Recognizer"]
