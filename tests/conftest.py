"""Fixtures the test modules share."""
import importlib.util
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[1] / "models" / "recipe"


@pytest.fixture(scope="session")
def models_script():
    """Loads a script of models/recipe/ (not a package) as a module: ``models_script("bench_recognizer")``."""
    def load(name: str):
        spec = importlib.util.spec_from_file_location(name, MODELS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load
