"""Where the shipped assets live: inside the wheel, or beside the package in a checkout."""
from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _asset_dir(packaged: str, checkout: str) -> Path:
    inside = _PKG / packaged
    return inside if inside.is_dir() else _PKG.parent / checkout


def web_dir() -> Path:
    """Templates and static files of the score page (`web/` in a checkout)."""
    return _asset_dir("_web", "web")


def models_dir() -> Path:
    """Trained weights and the model card (`models/` in a checkout)."""
    return _asset_dir("_models", "models")
