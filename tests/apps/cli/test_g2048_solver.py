"""``plyground 2048 solve`` and ``plyground 2048 optimal``."""

from __future__ import annotations

import csv
import io
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from plyground.apps.cli.g2048_solver import parse_size
from plyground.errors import InvalidInputError
from plyground.g2048 import Board, Solution
from tests.apps.cli.test_main import assert_one_line_error, run_cli


@pytest.fixture(scope="module")
def solved_2x3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli") / "2x3"
    from plyground.g2048 import solve

    solve(2, 3, directory=folder)
    return folder


@pytest.fixture(scope="module")
def solved_2x2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli") / "2x2"
    from plyground.g2048 import solve

    solve(2, 2, directory=folder)
    return folder


def test_parse_size() -> None:
    assert parse_size("3x3") == (3, 3)
    assert parse_size(" 2X4 ") == (2, 4)
    assert parse_size("4×3") == (4, 3)
    with pytest.raises(InvalidInputError, match="RxC"):
        parse_size("3by3")


def test_solve_prints_the_counts_and_the_expected_score(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run_cli(capsys, "2048", "solve", "2x2", "--dir", str(tmp_path), "--per-age")
    assert status == 0, err
    assert "2048 2x2, p_four 0.1: solved" in out
    assert "110" in out and "662" in out  # states per class and unreduced
    assert "66.964" in out  # the expected score
    assert "boards per age" in out
    assert Solution(tmp_path).solved

    status, out, _ = run_cli(capsys, "2048", "solve", "2x2", "--dir", str(tmp_path))
    assert status == 0 and "solved" in out  # loaded, not solved again


def test_solve_with_shards_equals_the_in_memory_solve(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["--shards", "2", "--workers", "1", "--dir", str(tmp_path)]
    status, out, err = run_cli(capsys, "2048", "solve", "2x2", *args)
    assert status == 0, err
    assert "2048 2x2, p_four 0.1: solved" in out and "66.964" in out and "2 shards" in out
    assert json.loads((tmp_path / "sharded.json").read_text())["values"] == "f64"
    status, out, err = run_cli(capsys, "2048", "solve", "2x2", *args, "--json")
    assert status == 0, err
    assert json.loads(out)["expected_score"] == pytest.approx(66.964, abs=5e-4)
    # Values stored as float32: the same expected score to the digits shown.
    status, out, err = run_cli(capsys, "2048", "solve", "2x2", *args[:-1], str(tmp_path / "f32"), "--values", "f32")
    assert status == 0, err
    assert "66.964" in out and json.loads((tmp_path / "f32" / "sharded.json").read_text())["values"] == "f32"
    status, out, err = run_cli(capsys, "2048", "optimal", "2 2/0 4", "--dir", str(tmp_path), "--json")
    assert status == 0, err
    assert json.loads(out)["best"] in ("left", "right")


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["--shards", "2"], ["needs --dir"]),
        (["--shards", "0", "--dir", "x"], ["--shards"]),
        (["--shards", "2", "--compact", "--dir", "x"], ["--compact is for the in-memory solver"]),
        (["--dask-local", "1", "--workers", "1", "--dir", "x"], ["choose one of --workers, --dask-local"]),
        (["--shards", "2", "--values", "f16", "--dir", "x"], ["--values is f64 (exact) or f32, got 'f16'"]),
        (["--values", "f32", "--dir", "x"], ["--values chooses how the sharded solver stores", "--shards"]),
        (["--worker-memory", "4GiB", "--dir", "x"], ["--worker-memory limits the workers", "--dask-local"]),
        (["--shards", "2", "--worker-memory", "4GiB", "--dir", "x"], ["give it with --dask-local"]),
        (["--dask-local", "1", "--worker-memory", "lots", "--dir", "x"], ["--worker-memory is a size such as 4GiB"]),
        (["--dask-local", "1", "--worker-memory", "-1GB", "--dir", "x"], ["--worker-memory is a size such as 4GiB"]),
        (["--dask-local", "1", "--worker-memory", "1MB", "--dir", "x"], ["at least 64 MiB"]),
    ],
)
def test_bad_sharded_solves_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], parts: list[str]
) -> None:
    args = [str(tmp_path / a) if a == "x" else a for a in args]
    status, _, err = run_cli(capsys, "2048", "solve", "2x2", *args)
    assert status == 2
    assert_one_line_error(err, *parts)


def test_solve_prints_its_folder_whole_in_80_columns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "a-folder-with-a-long-name-to-show-that-the-path-is-not-cut" / "2x2-p0.1"
    monkeypatch.setenv("COLUMNS", "80")
    status, out, err = run_cli(capsys, "2048", "solve", "2x2", "--dir", str(folder))
    assert status == 0, err
    assert f"folder: {folder}" in out.splitlines()
    assert "…" not in out


def test_solve_prints_its_summary_as_json_and_csv(capsys: pytest.CaptureFixture[str], solved_2x2: Path) -> None:
    solution = Solution(solved_2x2)
    status, out, err = run_cli(capsys, "2048", "solve", "2x2", "--dir", str(solved_2x2), "--json", "--per-age")
    assert status == 0, err
    data = json.loads(out)  # stdout holds the one object: the progress is on stderr
    assert (data["rows"], data["cols"], data["p_four"], data["solved"], data["complete"]) == (2, 2, 0.1, True, True)
    assert (data["states"], data["states_unreduced"]) == (110, 662)
    assert data["expected_score"] == pytest.approx(66.964, abs=5e-4) and data["folder"] == str(solved_2x2)
    assert data["largest_age"] == solution.totals().age and data["code_bytes"] > 0
    assert [age["age"] for age in data["ages"]] == [counts.age for counts in solution.counts()]
    assert sum(age["states"] for age in data["ages"]) == 110

    status, out, err = run_cli(capsys, "2048", "solve", "2x2", "--dir", str(solved_2x2), "--csv")
    assert status == 0, err
    (row,) = csv.DictReader(io.StringIO(out))
    assert row["states"] == "110" and row["solved"] == "True" and float(row["expected_score"]) == data["expected_score"]

    status, out, err = run_cli(capsys, "2048", "solve", "2x2", "--dir", str(solved_2x2), "--csv", "--per-age")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "age,states,states_unreduced,terminal,terminal_unreduced,afterstates,afterstates_unreduced"
    assert [int(line.split(",")[0]) for line in lines[1:]] == [counts.age for counts in solution.counts()]

    status, out, err = run_cli(capsys, "2048", "solve", "2x2", "--dir", str(solved_2x2), "--json", "--csv")
    assert status == 2 and out == ""
    assert_one_line_error(err, "give --json or --csv, not both")


def test_solve_json_of_an_unfinished_forward_pass(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["2048", "solve", "4x3", "--dir", str(tmp_path), "--forward-only", "--max-age", "20"]
    status, out, err = run_cli(capsys, *args, "--json")
    assert status == 0, err
    data = json.loads(out)
    assert (data["solved"], data["complete"], data["expected_score"], data["states"]) == (False, False, None, 15013)
    status, out, err = run_cli(capsys, *args, "--csv")
    assert status == 0, err
    (row,) = csv.DictReader(io.StringIO(out))
    assert row["expected_score"] == "" and row["folder"] == str(tmp_path)


def test_solve_forward_only(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run_cli(
        capsys, "2048", "solve", "4x3", "--dir", str(tmp_path), "--forward-only", "--max-age", "20"
    )
    assert status == 0, err
    assert "forward pass only, unfinished" in out
    assert "15,013" in out  # the published states of 4x3 up to age 20
    assert not Solution(tmp_path).solved
    assert "estimate: about 15,013 states" in err  # a bounded job that fits needs no --force


def fake_machine(monkeypatch: pytest.MonkeyPatch, free: int, memory: int = 16 * 2**30) -> None:
    from plyground.g2048 import solver_estimate

    monkeypatch.setattr(solver_estimate, "free_disk", lambda path: free)
    monkeypatch.setattr(solver_estimate, "_available_memory", lambda: memory)


@pytest.mark.parametrize("size", ["4x3", "3x4"])
def test_solve_refuses_a_size_this_machine_cannot_finish_with_its_estimate(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, size: str
) -> None:
    fake_machine(monkeypatch, free=75 * 2**30)
    status, out, err = run_cli(capsys, "2048", "solve", size, "--dir", str(tmp_path / "s"))
    assert status == 2 and out == ""
    assert_one_line_error(
        err, f"solving {size} needs about 1.15e12 states and 7.4e11 afterstates", "22.2 TiB of disk",
        "GiB of memory", "days on", "75.0 GiB of disk free", "--force starts it anyway",
    )  # fmt: skip
    assert not (tmp_path / "s").exists()
    status, _, err = run_cli(capsys, "2048", "solve", size, "--dir", str(tmp_path / "s"), "--compact")
    assert status == 2
    assert_one_line_error(err, "12.0 TiB of disk")


def test_solve_force_starts_it_anyway(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, solved_2x3: Path
) -> None:
    from plyground.g2048 import solver

    calls: list[tuple[int, int, dict[str, object]]] = []

    def fake_solve(rows: int, cols: int, **kwargs: object) -> Solution:
        calls.append((rows, cols, kwargs))
        return Solution(solved_2x3)

    monkeypatch.setattr(solver, "solve", fake_solve)
    status, _, err = run_cli(capsys, "2048", "solve", "4x3", "--dir", str(tmp_path / "s"))
    assert status == 2 and calls == []
    status, _, err = run_cli(capsys, "2048", "solve", "4x3", "--dir", str(tmp_path / "s"), "--force")
    assert status == 0, err
    assert [(rows, cols, kwargs["force"]) for rows, cols, kwargs in calls] == [(4, 3, True)]
    assert "estimate: about 1.15e12 states" in err


def test_solve_stops_cleanly_when_the_disk_fills_up(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from plyground.g2048 import solver_estimate

    folder = tmp_path / "2x3"
    monkeypatch.setattr(solver_estimate, "free_disk", lambda path: 2**20)
    status, _, err = run_cli(capsys, "2048", "solve", "2x3", "--dir", str(folder), "--force")
    assert status == 1
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith(f"error: no room left on the disk of {folder} (")
    assert "run the same solve again to resume" in err
    monkeypatch.undo()
    status, out, err = run_cli(capsys, "2048", "solve", "2x3", "--dir", str(folder))
    assert status == 0, err
    assert "2048 2x3, p_four 0.1: solved" in out and "21,752" in out


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["3by3"], ["RxC"]),
        (["4x4"], ["at most 12 cells"]),
        (["5x2"], ["2 to 4 rows"]),
        (["3x3", "--max-age", "20"], ["--forward-only"]),
        (["3x3", "--forward-only", "--max-age", "2"], ["--max-age"]),
        (["3x3", "--p-four", "2"], ["--p-four"]),
    ],
)
def test_solve_refuses_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], parts: list[str]
) -> None:
    status, _, err = run_cli(capsys, "2048", "solve", *args, "--dir", str(tmp_path / "s"))
    assert status == 2
    assert_one_line_error(err, *parts)


def test_solve_refuses_a_folder_of_another_size(capsys: pytest.CaptureFixture[str], solved_2x3: Path) -> None:
    status, _, err = run_cli(capsys, "2048", "solve", "3x2", "--dir", str(solved_2x3))
    assert status == 2
    assert_one_line_error(err, "holds the solution of 2x3")


def test_optimal_prints_the_best_move_and_every_value(capsys: pytest.CaptureFixture[str], solved_2x3: Path) -> None:
    status, out, err = run_cli(capsys, "2048", "optimal", "2 2 0/0 4 0", "--dir", str(solved_2x3))
    assert status == 0, err
    solution = Solution(solved_2x3)
    position = Board.parse("2 2 0/0 4 0")
    best = solution.best_move(position)
    assert f"optimal move: {best}" in out
    for move, value in solution.move_values(position).items():
        assert f"{value:,.4f}" in out and move in out

    status, out, _ = run_cli(capsys, "2048", "optimal", "2 2 0/0 4 0", "--dir", str(solved_2x3), "--json")
    data = json.loads(out)
    assert data["best"] == best and "move" not in data and data["values"] == solution.move_values(position)
    assert data["value"] == solution.value(position)


def test_optimal_on_a_finished_board(capsys: pytest.CaptureFixture[str], solved_2x3: Path) -> None:
    status, out, _ = run_cli(capsys, "2048", "optimal", "2 4 2/4 2 4", "--dir", str(solved_2x3))
    assert status == 0
    assert "game is over" in out


@pytest.mark.parametrize(
    ("board", "parts"),
    [
        ("2 2 0/0 4", ["row"]),  # malformed
        ("2 0 0/0 0 0", ["not a reachable 2x3 state"]),  # one tile: never a state
    ],
)
def test_optimal_refuses_bad_boards_in_one_line(
    capsys: pytest.CaptureFixture[str], solved_2x3: Path, board: str, parts: list[str]
) -> None:
    status, _, err = run_cli(capsys, "2048", "optimal", board, "--dir", str(solved_2x3))
    assert status == 2
    assert_one_line_error(err, *parts)


@pytest.mark.parametrize(
    ("bad", "part"),
    [
        (float("nan"), "it holds nan, not an expected future score (0 to 1,835,008)"),
        (-1e300, "it holds -1e+300, not an expected future score"),
        (1e300, "it holds 1e+300, not an expected future score"),
        (None, "it is not a NumPy array file"),  # random bytes: numpy takes them for a pickle
    ],
)
def test_optimal_refuses_damaged_values_in_one_line(
    capsys: pytest.CaptureFixture[str], solved_2x2: Path, tmp_path: Path, bad: float | None, part: str
) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(solved_2x2, folder)
    for path in folder.glob("values-*.npy"):
        if bad is None:
            path.write_bytes(np.random.default_rng(1).bytes(path.stat().st_size))
        else:
            np.save(path, np.full_like(np.load(path), bad))
    for extra in ([], ["--json"]):
        status, out, err = run_cli(capsys, "2048", "optimal", "2 2/0 4", "--dir", str(folder), *extra)
        assert status == 2 and out == ""
        assert_one_line_error(err, f"{folder / 'values-0008.npy'} is damaged: {part}")


def test_optimal_says_how_to_solve_a_size_first(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path))
    status, _, err = run_cli(capsys, "2048", "optimal", "2 2 0/0 4 0/0 0 0")
    assert status == 2
    assert_one_line_error(err, "no solution of 3x3", "plyground 2048 solve 3x3")


def test_optimal_refuses_a_p_four_that_is_not_the_solutions(
    capsys: pytest.CaptureFixture[str], solved_2x3: Path, tmp_path: Path
) -> None:
    status, out, err = run_cli(capsys, "2048", "optimal", "2 2 0/0 4 0", "--dir", str(solved_2x3), "--p-four", "0.2")
    assert status == 2 and out == ""
    assert_one_line_error(err, f"{solved_2x3} holds the solution with p_four 0.1, not 0.2", "--p-four 0.1")
    status, _, err = run_cli(capsys, "2048", "optimal", "2 2 0/0 4 0", "--dir", str(solved_2x3), "--p-four", "0.1")
    assert status == 0, err

    from plyground.g2048 import solve

    solve(2, 2, p_four=0.2, directory=tmp_path / "p0.2")
    position = Board.parse("2 4/0 0")
    status, out, err = run_cli(capsys, "2048", "optimal", "2 4/0 0", "--dir", str(tmp_path / "p0.2"), "--json")
    assert status == 0, err  # without --p-four: the folder's
    assert (
        json.loads(out)["value"]
        == Solution(tmp_path / "p0.2").value(position)
        != Solution(solved_2x3).value(Board.parse("2 4 0/0 0 0"))
    )


def test_optimal_names_the_p_four_to_solve_with(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path))
    status, _, err = run_cli(capsys, "2048", "optimal", "2 4/0 0", "--p-four", "0.25")
    assert status == 2
    assert_one_line_error(err, "no solution of 2x2", "plyground 2048 solve 2x2 --p-four 0.25", "2x2-p0.25")


def test_ctrl_c_keeps_the_finished_ages_and_the_same_command_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "2x4"
    command = [sys.executable, "-m", "plyground.apps.cli.main", "2048", "solve", "2x4", "--dir", str(folder)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:
        try:
            if json.loads((folder / "solution.json").read_text())["forward"]["age"] >= 200:
                break
        except (FileNotFoundError, json.JSONDecodeError):
            pass
        time.sleep(0.02)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    assert "interrupted: every finished age is saved" in err and "Traceback" not in err
    stopped = json.loads((folder / "solution.json").read_text())
    assert not stopped["backward"]["complete"]

    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "4,980,767" in done.stdout and "2,641.873" in done.stdout
