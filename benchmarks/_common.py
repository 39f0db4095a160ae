"""Helpers shared by the benchmark scripts: the native C and naive Python baselines, tables and JSON lines.

Every script ends with :func:`print_json`: it prints the script's JSON line and appends it,
with the date, the commit and the machine, to ``benchmarks/results/<name>.jsonl`` (see
``benchmarks/results/README.md``), unless ``--no-record`` is given or
``PLYGROUND_BENCH_NO_RECORD=1`` is set; a run of uncommitted code is not recorded there.

The native C baseline is compiled from ``../shared/bench/native2048.c`` (beside the checkout),
or from the file ``PLYGROUND_BENCH_NATIVE`` names; without it, or without a C compiler, or when
it does not compile, the scripts run without the baseline.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import importlib.util
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NATIVE_SOURCE = ROOT.parent / "shared" / "bench" / "native2048.c"
RESULTS = ROOT / "benchmarks" / "results"
NAIVE = ROOT / "tests" / "naive"
NO_RECORD_ENV = "PLYGROUND_BENCH_NO_RECORD"
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


def add_record_options(parser: argparse.ArgumentParser) -> None:
    """The options of the result file, for every benchmark script."""
    group = parser.add_argument_group("result file")
    group.add_argument(
        "--no-record",
        action="store_true",
        help=f"only print the JSON line, do not append it to the result file (also: {NO_RECORD_ENV}=1)",
    )
    group.add_argument(
        "--results",
        type=Path,
        default=RESULTS,
        metavar="DIR",
        help="append the JSON line to DIR/<benchmark>.jsonl (default: benchmarks/results)",
    )


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "Hardware") and value.strip():
                    return value.strip()
    except OSError:
        pass
    if sys.platform == "darwin":
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            done = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True, timeout=10, check=True
            )
            if done.stdout.strip():
                return done.stdout.strip()
    return platform.processor() or platform.machine() or "unknown"


def _memory_gib() -> float | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 2)
    except (AttributeError, ValueError, OSError):
        return None


def machine() -> dict[str, Any]:
    """The machine a benchmark runs on: CPU model, logical cores, total memory, Python and numba versions."""
    try:
        numba: str | None = metadata.version("numba")
    except metadata.PackageNotFoundError:
        numba = None
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count() or 1,
        "memory_gib": _memory_gib(),
        "python": platform.python_version(),
        "numba": numba,
    }


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None  # no git
    return done.stdout if done.returncode == 0 else None


def git_state(root: Path = ROOT, results: Path | None = None) -> tuple[str | None, bool]:
    """The commit of HEAD (None outside a git checkout or without git) and whether tracked files changed.

    Changes to the result files under ``results`` do not count: recording a result is not a change of
    the code measured.
    """
    head = _git(root, "rev-parse", "--verify", "HEAD")
    if head is None or not re.fullmatch(r"[0-9a-f]{40,64}", head.strip()):
        return None, False
    pathspec = ["--", "."]
    if results is not None:
        with contextlib.suppress(ValueError):
            pathspec.append(f":(exclude){results.resolve().relative_to(root.resolve()).as_posix()}")
    status = _git(root, "status", "--porcelain", "--untracked-files=no", *pathspec)
    return head.strip(), bool(status and status.strip())


def result_line(name: str, results: dict[str, Any], *, root: Path = ROOT, folder: Path | None = None) -> dict[str, Any]:
    """What is appended to ``<name>.jsonl``: the benchmark's results with the date, commit and machine."""
    commit, dirty = git_state(root, folder)
    return {
        "benchmark": name,
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit,
        "dirty": dirty,
        "machine": machine(),
        "results": results,
    }


def record(name: str, results: dict[str, Any], folder: Path = RESULTS, *, root: Path = ROOT) -> Path:
    """Append the result line of ``name`` to ``folder/<name>.jsonl`` (created as needed); return the file.

    The line is written with one ``write`` on a file opened for appending, so that a crash or two runs at
    once never leave half a line.
    """
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise ValueError(f"a benchmark name is lower-case letters, digits and _, got {name!r}")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    line = (json.dumps(result_line(name, results, root=root, folder=folder)) + "\n").encode("utf-8")
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        written = os.write(descriptor, line)
        if written != len(line):
            raise OSError(f"only {written} of {len(line)} bytes written")
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    return path


def read_games(path: Path, check: Callable[[dict[str, Any]], object]) -> list[dict[str, Any]]:
    """The ``results`` of each line of the games log ``path`` (none if it does not exist), each given to ``check``.

    ``check`` raises ``ValueError``, ``KeyError`` or ``TypeError`` for a line that is not a game of the
    benchmark (it may also fill in keys of older lines); such a line, or one that is not JSON, is an error
    that names the file and the line.
    """
    from plyground.errors import PlygroundError

    if not path.is_file():
        return []
    games = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            game = json.loads(line)["results"]
            check(game)
        except (ValueError, KeyError, TypeError):
            raise PlygroundError(f"{path}, line {number}: not a game of this benchmark") from None
        games.append(game)
    return games


def read_settings_log(path: Path, settings: dict[str, Any], who: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The games of a resumable log (one JSON line a game, with its ``settings``), by (``game[who]``, seed).

    A last line cut short by a crash is skipped (that game is played again); any other line that is
    not a game, or a game of other ``settings``, ends the script with a one-line error (exit 1).
    """
    games: dict[tuple[str, int], dict[str, Any]] = {}
    if not path.is_file():
        return games
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        try:
            entry = json.loads(line)
            key = (str(entry[who]), int(entry["seed"]))
            int(entry["score"]), int(entry["max_tile"])
        except json.JSONDecodeError:
            if number == len(lines):
                continue
            raise SystemExit(f"error: {path}, line {number}: not a game of this benchmark") from None
        except (KeyError, TypeError, ValueError):
            raise SystemExit(f"error: {path}, line {number}: not a game of this benchmark") from None
        if entry.get("settings") != settings:
            raise SystemExit(
                f"error: {path}, line {number} has other settings ({entry.get('settings')}); give another --log"
            )
        games[key] = entry
    return games


def append_line(path: Path, entry: dict[str, Any]) -> None:
    """Append ``entry`` to ``path`` as one JSON line, on disk before this returns (the folder made as needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def weights_checksum(weights: Any) -> str:
    """The first 12 hex digits of the SHA-256 of a network's weights: how the games logs name networks."""
    import hashlib

    import numpy as np

    return hashlib.sha256(np.ascontiguousarray(weights).data).hexdigest()[:12]


def print_json(name: str, results: dict[str, Any], options: argparse.Namespace, *, root: Path = ROOT) -> None:
    """The machine-readable line every benchmark ends with, also appended to its result file.

    ``options`` are the script's parsed arguments, with those of :func:`add_record_options`. A
    run of code with uncommitted changes is not recorded in a folder of the checkout (``root``):
    the project's results name the commit they measured. The line is printed first, then the
    recording is refused in one line (another ``--results`` folder takes it, marked dirty).
    """
    print(json.dumps({"benchmark": name, **results}, sort_keys=True), flush=True)
    if options.no_record or os.environ.get(NO_RECORD_ENV, "") not in ("", "0"):
        return
    folder = Path(options.results).resolve()
    if folder.is_relative_to(root.resolve()) and git_state(root, folder)[1]:
        raise SystemExit(
            f"error: not recorded in {options.results}: the checkout has uncommitted changes "
            "(commit them and run again, or give --no-record, or --results DIR outside the checkout)"
        )
    try:
        path = record(name, results, options.results, root=root)
    except OSError as error:
        raise SystemExit(f"error: cannot append the result to {options.results}: {error}") from None
    print(f"recorded in {path}", file=sys.stderr)
