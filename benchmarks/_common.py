"""Helpers shared by the benchmark scripts: the native C baseline, tables and JSON lines."""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NATIVE_SOURCE = ROOT.parent / "shared" / "bench" / "native2048.c"


def naive_2048() -> ModuleType:
    """The slow reference engine of ``tests/naive``."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.naive import g2048

    return g2048


def build_native(source: Path = NATIVE_SOURCE) -> Path | None:
    """Compile the native C baseline in a temporary folder; None without a compiler or source."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not source.exists():
        return None
    folder = Path(tempfile.mkdtemp(prefix="plyground-native-"))
    binary = folder / "native2048"
    subprocess.run(
        [compiler, "-O2", "-march=native", "-o", str(binary), str(source), "-lm"], check=True, capture_output=True
    )
    return binary


def run_native(binary: Path, *args: str) -> str:
    """Run the baseline and return what it printed."""
    return subprocess.run([str(binary), *args], check=True, capture_output=True, text=True).stdout


def native_rate(output: str, unit: str) -> float:
    """Read the ``= X M <unit>/s`` figure from the baseline's output (per second, not millions)."""
    match = re.search(rf"= ([0-9.]+) M {unit}/s", output)
    if match is None:
        raise RuntimeError(f"cannot read the native baseline's output: {output!r}")
    return float(match.group(1)) * 1e6


def median_of(repeats: int, measure: Callable[[], float]) -> float:
    """The median of ``repeats`` measurements."""
    return statistics.median(measure() for _ in range(repeats))


def print_json(name: str, results: dict[str, Any]) -> None:
    """The machine-readable line every benchmark ends with."""
    print(json.dumps({"benchmark": name, **results}, sort_keys=True))
