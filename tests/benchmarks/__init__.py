"""Tests of the benchmark scripts: their shared helpers, and each script run end to end."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_common() -> ModuleType:
    """``benchmarks/_common.py`` as a module (the scripts' folder is not a package)."""
    spec = importlib.util.spec_from_file_location("benchmarks_common", BENCHMARKS / "_common.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
