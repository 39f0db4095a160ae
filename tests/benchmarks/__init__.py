"""Tests of the measuring scripts: the speed benchmarks' helpers, and each script run end to end.

The scripts live in ``benchmarks/`` (speed), ``experiments/<date>-<slug>/`` (campaigns) and ``recipes/``
(shipped artifacts); :func:`script_path` finds one by its file name.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
EXPERIMENTS = ROOT / "experiments"
RECIPES = ROOT / "recipes"


def script_path(file: str) -> Path:
    """The script named ``file`` in ``benchmarks/``, in a folder of ``experiments/`` or in ``recipes/`` (one only)."""
    found = [*BENCHMARKS.glob(file), *EXPERIMENTS.glob(f"*/{file}"), *RECIPES.glob(file)]
    assert len(found) == 1, f"{file}: found {found}"
    return found[0]


def load_common() -> ModuleType:
    """``benchmarks/_common.py`` as a module (the scripts' folder is not a package)."""
    spec = importlib.util.spec_from_file_location("benchmarks_common", BENCHMARKS / "_common.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_script(file: str) -> ModuleType:
    """The script ``file`` (:func:`script_path`) as a module (``_common`` importable as the benchmarks import it)."""
    sys.modules.setdefault("_common", load_common())
    name = "scripts_" + file.removesuffix(".py")
    spec = importlib.util.spec_from_file_location(name, script_path(file))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
