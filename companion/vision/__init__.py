"""Seeing the cards: synthetic data, the recogniser (ONNX Runtime), its command."""
from .recognizer import Detection, ModelError, Recognition, Recognizer

__all__ = ["Detection", "ModelError", "Recognition", "Recognizer"]
