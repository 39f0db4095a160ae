"""Recording measurements: each run's JSON line, with the date, the commit and the machine, appended to a file.

The scripts that measure plyground (the speed benchmarks of ``benchmarks/``, the campaigns of
``experiments/``, the recipes of ``recipes/``) end with :func:`print_json`: it prints the
script's JSON line and appends it, as one *result line*, to ``<folder>/<name>.jsonl``::

    {"benchmark": name, "date": "2026-12-01T16:21:19Z", "commit": sha, "dirty": false,
     "machine": {"cpu": ..., "cores": ..., "memory_gib": ..., "python": ..., "numba": ...},
     "results": {... the script's own JSON line, without its "benchmark" key ...}}

(``benchmarks/results/README.md`` describes every key). A run of code with uncommitted
changes is not recorded inside the checkout, so that the project's results always name the
code they measured.

Nothing here depends on where plyground is installed: the checkout whose commit is recorded
is the one that holds the calling script, which passes its own path (``Path(__file__)``) to
:func:`add_record_options`; the results folder is given by the script or on its command line.

>>> parser = argparse.ArgumentParser()
>>> add_record_options(parser, Path("experiments/2026-12-06-busy/busy.py"))
>>> options = parser.parse_args(["--no-record"])
>>> options.no_record, options.results.as_posix()
(True, 'experiments/2026-12-06-busy')
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import json
import os
import platform
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from plyground.errors import CorruptFileError, InvalidInputError

__all__ = [
    "NO_RECORD_ENV",
    "add_record_options",
    "append_line",
    "checkout_root",
    "git_state",
    "machine",
    "print_json",
    "read_games",
    "read_settings_log",
    "record",
    "result_line",
    "start_busy",
]

NO_RECORD_ENV = "PLYGROUND_BENCH_NO_RECORD"
"""Set to anything but ``0`` or empty, :func:`print_json` only prints the line (as ``--no-record``)."""

_NAME = re.compile(r"[a-z0-9_]+")


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
    """The machine a measurement runs on: CPU model, logical cores, total memory, Python and numba versions.

    The keys, in this order: ``cpu``, ``cores``, ``memory_gib`` (None if unknown), ``python``
    and ``numba`` (None if it is not installed).
    """
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


def checkout_root(script: Path) -> Path:
    """The top folder of the git checkout that holds ``script`` (a file or folder); its folder outside a checkout."""
    script = Path(script).resolve()
    folder = script if script.is_dir() else script.parent
    while not folder.is_dir() and folder != folder.parent:  # a script not written yet: its nearest folder
        folder = folder.parent
    top = _git(folder, "rev-parse", "--show-toplevel")
    return Path(top.strip()) if top and top.strip() else folder


def git_state(root: Path, results: Path | None = None) -> tuple[str | None, bool]:
    """The commit of HEAD in the checkout ``root`` (None outside one or without git) and whether tracked files changed.

    Changes to the files under ``results`` do not count: recording a result is not a change of
    the code measured. Outside a checkout the tree is not dirty.
    """
    head = _git(root, "rev-parse", "--verify", "HEAD")
    if head is None or not re.fullmatch(r"[0-9a-f]{40,64}", head.strip()):
        return None, False
    pathspec = ["--", "."]
    if results is not None:
        with contextlib.suppress(ValueError):
            pathspec.append(f":(exclude){Path(results).resolve().relative_to(Path(root).resolve()).as_posix()}")
    status = _git(root, "status", "--porcelain", "--untracked-files=no", *pathspec)
    return head.strip(), bool(status and status.strip())


def result_line(name: str, results: Mapping[str, Any], *, root: Path, folder: Path | None = None) -> dict[str, Any]:
    """What :func:`record` appends to ``<name>.jsonl``: ``results``, the date, the commit of ``root``, the machine.

    ``folder`` is the results folder, whose changes do not make the tree dirty.
    """
    commit, dirty = git_state(root, folder)
    return {
        "benchmark": name,
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit,
        "dirty": dirty,
        "machine": machine(),
        "results": dict(results),
    }


def record(name: str, results: Mapping[str, Any], folder: Path, *, root: Path) -> Path:
    """Append the result line of ``name`` to ``folder/<name>.jsonl`` (created as needed); return the file.

    The line is written with one ``write`` on a file opened for appending, so that a crash or two
    runs at once never leave half a line.

    Raises:
        InvalidInputError: ``name`` is not lower-case letters, digits and ``_``.
        OSError: the file cannot be written.
    """
    if not _NAME.fullmatch(name):
        raise InvalidInputError(f"a benchmark name is lower-case letters, digits and _, got {name!r}")
    folder = Path(folder)
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


def append_line(path: Path, entry: Mapping[str, Any]) -> None:
    """Append ``entry`` to ``path`` as one JSON line, on disk before this returns (the folder made as needed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def read_games(path: Path, check: Callable[[dict[str, Any]], object]) -> list[dict[str, Any]]:
    """The ``results`` of each result line of the games log ``path`` (none if it does not exist), each checked.

    ``check`` raises ``ValueError``, ``KeyError`` or ``TypeError`` for a line that is not a game of
    the measurement (it may also fill in keys of older lines).

    Raises:
        CorruptFileError: a line that is not JSON, or that ``check`` refuses (naming the file and the line).
    """
    path = Path(path)
    if not path.is_file():
        return []
    games = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            game = json.loads(line)["results"]
            check(game)
        except (ValueError, KeyError, TypeError):
            raise CorruptFileError(f"{path}, line {number}: not a game of this benchmark") from None
        games.append(game)
    return games


def read_settings_log(path: Path, settings: Mapping[str, Any], who: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The games of a resumable log (one JSON line a game, with its ``settings``), by (``game[who]``, seed).

    Each line holds ``who``, ``seed``, ``score``, ``max_tile`` and ``settings``. A last line cut
    short by a crash is skipped (that game is played again).

    Raises:
        CorruptFileError: another line is not a game.
        InvalidInputError: a game of other ``settings`` (give another log).
    """
    path = Path(path)
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
            raise CorruptFileError(f"{path}, line {number}: not a game of this benchmark") from None
        except (KeyError, TypeError, ValueError):
            raise CorruptFileError(f"{path}, line {number}: not a game of this benchmark") from None
        if entry.get("settings") != dict(settings):
            raise InvalidInputError(
                f"{path}, line {number} has other settings ({entry.get('settings')}); give another --log"
            )
        games[key] = entry
    return games


def add_record_options(parser: argparse.ArgumentParser, script: Path, *, folder: str | Path = ".") -> None:
    """Add ``--no-record`` and ``--results DIR`` to ``parser``, for the script at ``script`` (its ``Path(__file__)``).

    ``--results`` defaults to ``folder``, relative to the script's own folder (the default: that
    folder itself). :func:`print_json` records the commit of the checkout that holds ``script``.
    """
    default = Path(script).parent / folder
    group = parser.add_argument_group("result file")
    group.add_argument(
        "--no-record",
        action="store_true",
        help=f"only print the JSON line, do not append it to the result file (also: {NO_RECORD_ENV}=1)",
    )
    group.add_argument(
        "--results",
        type=Path,
        default=default,
        metavar="DIR",
        help=f"append the JSON line to DIR/<benchmark>.jsonl (default: {default})",
    )
    parser.set_defaults(record_script=Path(script))


def print_json(name: str, results: Mapping[str, Any], options: argparse.Namespace, *, root: Path | None = None) -> None:
    """Print the script's JSON line, the last line of its output, and append its result line to ``--results``.

    ``options`` are the script's parsed arguments, with those of :func:`add_record_options`;
    ``root`` is the checkout whose commit is recorded (default: the one that holds the script).
    A run of code with uncommitted changes is not recorded in a folder of the checkout: the line
    is printed first, then the recording is refused in one line (another ``--results`` folder,
    outside the checkout, takes it, marked dirty).

    Raises:
        SystemExit: the recording refused or failed, with a one-line ``error: ...`` message (exit status 1).
    """
    print(json.dumps({"benchmark": name, **results}, sort_keys=True), flush=True)
    if options.no_record or os.environ.get(NO_RECORD_ENV, "") not in ("", "0"):
        return
    root = checkout_root(options.record_script) if root is None else root
    folder = Path(options.results).resolve()
    if folder.is_relative_to(Path(root).resolve()) and git_state(root, folder)[1]:
        raise SystemExit(
            f"error: not recorded in {options.results}: the checkout has uncommitted changes "
            "(commit them and run again, or give --no-record, or --results DIR outside the checkout)"
        )
    try:
        path = record(name, results, options.results, root=root)
    except OSError as error:
        raise SystemExit(f"error: cannot append the result to {options.results}: {error}") from None
    print(f"recorded in {path}", file=sys.stderr)


def start_busy(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that spin (a Python loop each) until this one ends: a machine made busy to measure on.

    They are killed when this process exits; the caller may kill them sooner.

    Raises:
        InvalidInputError: ``count`` not a whole number from 0 to 64.
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 64:
        raise InvalidInputError(f"count must be a whole number from 0 to 64, got {count!r}")
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]

    def stop() -> None:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()

    atexit.register(stop)
    return spinners
