"""What only the speed benchmarks share: the native C and naive Python baselines, and medians.

Every script records its JSON line with :mod:`plyground.core.measurements` (``print_json``),
into ``benchmarks/results/<name>.jsonl`` (see ``benchmarks/results/README.md``).

The native C baseline is compiled from ``../shared/bench/native2048.c`` (beside the checkout),
or from the file ``PLYGROUND_BENCH_NATIVE`` names; without it, or without a C compiler, or when
it does not compile, the scripts run without the baseline.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
NATIVE_SOURCE = ROOT.parent / "shared" / "bench" / "native2048.c"
NAIVE = ROOT / "tests" / "naive"
NATIVE_ENV = "PLYGROUND_BENCH_NATIVE"


def naive(name: str) -> ModuleType:
    """The slow reference module ``tests/naive/<name>.py``, the baseline of some scripts, loaded from its file.

    The checkout's ``tests`` is not on the path of an installed plyground: the module is read from
    :data:`NAIVE` and kept in ``sys.modules`` as ``naive_<name>`` (loaded once a process). It may
    import plyground and the standard library, not the other modules of ``tests``.
    """
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise ValueError(f"a naive module is named with lower-case letters, digits and _, got {name!r}")
    qualified = f"naive_{name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    spec = importlib.util.spec_from_file_location(qualified, NAIVE / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {NAIVE / f'{name}.py'}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module  # before it runs: its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[qualified]
        raise
    return module


def native_source() -> Path:
    """The C source of the native baseline: the file ``PLYGROUND_BENCH_NATIVE`` names, else :data:`NATIVE_SOURCE`."""
    named = os.environ.get(NATIVE_ENV, "")
    return Path(named).expanduser() if named else NATIVE_SOURCE


def build_native(source: Path | None = None) -> Path | None:
    """Compile the native C baseline in a temporary folder (removed at exit); None without a compiler or source.

    ``source`` defaults to :func:`native_source`. A source that does not compile gives None too,
    with a line on stderr saying why.
    """
    source = native_source() if source is None else source
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not source.is_file():
        return None
    folder = Path(tempfile.mkdtemp(prefix="plyground-native-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    binary = folder / "native2048"
    done = subprocess.run(
        [compiler, "-O2", "-march=native", "-o", str(binary), str(source), "-lm"], capture_output=True, text=True
    )
    if done.returncode != 0:
        first = next((line for line in done.stderr.splitlines() if line.strip()), f"exit status {done.returncode}")
        print(f"warning: cannot compile the native baseline {source}: {first}", file=sys.stderr)
        return None
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
