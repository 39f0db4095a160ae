"""Ctrl-C in a terminal: every process of the command gets SIGINT, the workers of its pool too; the command exits
with 130 and one line, and no process prints a traceback.

A terminal sends Ctrl-C's SIGINT to its foreground process group: each command here starts in a process group
of its own, which receives the signal at a chosen point (a line printed, a file written). What happens there
may vary with the machine's speed; what is checked holds at every point.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from plyground.apps.cli.main import main

pytestmark = pytest.mark.slow


def start(*args: str, cwd: Path) -> subprocess.Popen[str]:
    """``plyground ARGS`` in a process group of its own, as a terminal's foreground job."""
    return subprocess.Popen(
        [sys.executable, "-m", "plyground.apps.cli.main", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for_line(command: subprocess.Popen[str], starts: str) -> list[str]:
    """The stderr lines up to the first that starts with ``starts``."""
    assert command.stderr is not None
    lines = []
    while not (line := command.stderr.readline()).startswith(starts):
        assert line, f"the command ended before printing {starts!r}: {''.join(lines)}"
        lines.append(line)
    return [*lines, line]


def wait_until(ready: Callable[[], bool], command: subprocess.Popen[str], limit_s: float = 300) -> None:
    deadline = time.monotonic() + limit_s
    while not ready():
        assert command.poll() is None, "the command ended before it could be interrupted"
        assert time.monotonic() < deadline, f"not ready in {limit_s:.0f} s"
        time.sleep(0.05)


def ctrl_c(command: subprocess.Popen[str], before: list[str]) -> str:
    """Send SIGINT to the command's process group; check the exit and return the last line of stderr."""
    try:
        os.killpg(command.pid, signal.SIGINT)
        _, err = command.communicate(timeout=120)
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.wait()
    err = "".join(before) + err
    assert command.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err and "WARNING" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1].startswith("interrupted"), err
    return lines[-1]


def games_stored(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as connection:
        try:
            return int(connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        except sqlite3.OperationalError:  # the tables are being made
            return 0


BENCH = ("2048", "bench", "--games", "200", "--depth", "2", "--evaluator", "heuristic")


@pytest.mark.parametrize("backend", [("--workers", "2"), ("--dask-local", "1")], ids=["pool", "dask"])
def test_bench_while_its_workers_start(tmp_path: Path, backend: tuple[str, ...]) -> None:
    if backend[0] == "--dask-local":
        pytest.importorskip("dask.distributed")
    command = start(*BENCH, *backend, "--db", str(tmp_path / "results.sqlite"), cwd=tmp_path)
    before = wait_for_line(command, "run 1: ")  # the workers start next
    ctrl_c(command, before)  # "interrupted", or what the run stored


@pytest.mark.parametrize("backend", [("--workers", "2"), ("--dask-local", "2")], ids=["pool", "dask"])
def test_bench_while_its_workers_play(tmp_path: Path, backend: tuple[str, ...]) -> None:
    if backend[0] == "--dask-local":
        pytest.importorskip("dask.distributed")
    db = tmp_path / "results.sqlite"
    command = start(*BENCH, *backend, "--db", str(db), cwd=tmp_path)
    before = wait_for_line(command, "run 1: ")
    wait_until(lambda: games_stored(db) > 0, command)
    last = ctrl_c(command, before)
    assert " of 200 games finished and stored (run 1)" in last
    assert 0 < games_stored(db) < 200


def test_a_sharded_solve_while_its_workers_start_and_work(tmp_path: Path) -> None:
    folder = tmp_path / "solution"
    solve = ("2048", "solve", "3x3", "--shards", "4", "--workers", "2", "--dir", str(folder))
    command = start(*solve, cwd=tmp_path)
    ctrl_c(command, wait_for_line(command, "sharded solve in "))  # the pool starts next
    command = start(*solve, cwd=tmp_path)
    before = wait_for_line(command, "sharded solve in ")
    ages = len(list(folder.rglob("*")))
    wait_until(lambda: len(list(folder.rglob("*"))) > ages, command)  # a task of the pool saved
    assert ctrl_c(command, before).startswith("interrupted: every finished task is saved")


def test_ctrl_c_before_a_command_says_where_it_stopped_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt  # as a Ctrl-C while the kernels compile

    monkeypatch.setattr("plyground.apps.cli.g2048_runs.announce_search", interrupted)
    assert main(["2048", "bench", "--games", "1"]) == 130
    captured = capsys.readouterr()
    assert captured.err.strip() == "interrupted" and captured.out == ""
