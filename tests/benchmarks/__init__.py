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


def load_script(file: str) -> ModuleType:
    """The benchmark script ``benchmarks/<file>`` as a module (with ``_common`` importable as the scripts import it)."""
    import sys

    sys.modules.setdefault("_common", load_common())
    name = "benchmarks_" + file.removesuffix(".py")
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
