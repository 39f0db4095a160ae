"""The ``plyground`` command line: output, exit statuses, one-line errors, fast start-up."""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import plyground.g2048  # noqa: F401 - its kernels compile (or load) here: the commands below say nothing of it
from plyground import __version__, _jit
from plyground.apps.cli import announce_compilation
from plyground.apps.cli.main import main

DATA = Path(__file__).parents[2] / "data"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def run_module(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "plyground.apps.cli.main", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
        timeout=120,
    )


def assert_one_line_error(err: str, *parts: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    for part in parts:
        assert part in lines[0]


def test_show_prints_grid_moves_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "2048", "show", "2 2 2 0/0 0 0 0/0 0 0 0/0 0 0 16")
    assert status == 0
    assert err == ""
    assert out.splitlines() == [
        "+----+----+----+----+",
        "|  2 |  2 |  2 |  . |",
        "+----+----+----+----+",
        "|  . |  . |  . |  . |",
        "+----+----+----+----+",
        "|  . |  . |  . |  . |",
        "+----+----+----+----+",
        "|  . |  . |  . | 16 |",
        "+----+----+----+----+",
        "legal moves: up, right, down, left",
        "max tile: 16   tile sum: 22   empty cells: 12",
    ]


def test_show_a_small_board_with_few_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "2048", "show", "2 4/. 8")
    assert status == 0
    assert "| 2 | 4 |" in out
    assert "| . | 8 |" in out
    assert "legal moves: down, left" in out
    assert "max tile: 8   tile sum: 14   empty cells: 1" in out


def test_show_a_finished_board(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "2048", "show", "2 4/4 2")
    assert status == 0
    assert "legal moves: none (game over)" in out


def test_an_empty_board_is_not_a_lost_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "2048", "show", "0 0/0 0")
    assert status == 0
    assert "legal moves: none (empty board: no tile to move)" in out and "game over" not in out


@pytest.mark.parametrize(
    ("board", "part"),
    [
        ("2 3/2 2", "invalid tile 3 at row 1, column 2"),
        ("2 3", "not supported"),
        ("2 2/2", "row 2 has 1 cells"),
        ("x y/z w", "cannot read cell 'x'"),
        ("", "no rows"),
        ("2 2 2 2 2/0 0 0 0 0", "not supported"),
    ],
)
def test_show_a_malformed_board_is_a_one_line_error(capsys: pytest.CaptureFixture[str], board: str, part: str) -> None:
    status, out, err = run_cli(capsys, "2048", "show", board)
    assert status == 2
    assert out == ""
    assert_one_line_error(err, part)


@pytest.mark.parametrize(
    ("args", "part"),
    [
        (["2048", "play", "--rows", "9"], "'--rows'"),
        (["2048", "play", "--p-four", "1.5"], "'--p-four'"),
        (["2048", "play", "--seed", "-3"], "'--seed'"),
        (["2048", "play", "--cols", "three"], "'--cols'"),
        (["2048", "bogus"], "bogus"),
        (["2048", "show"], "BOARD"),
        (["--nope"], "--nope"),
    ],
)
def test_bad_usage_is_a_one_line_error(capsys: pytest.CaptureFixture[str], args: list[str], part: str) -> None:
    status, _, err = run_cli(capsys, *args)
    assert status == 2
    assert_one_line_error(err, part, "--help")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "--version")
    assert status == 0
    assert out.strip() == f"plyground {__version__}"


@pytest.mark.parametrize("args", [[], ["--help"], ["-h"]])
def test_root_help_lists_the_games(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    status, out, _ = run_cli(capsys, *args)
    assert status == 0
    assert "2048" in out and "--version" in out


def test_2048_help_lists_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "2048", "--help")
    assert status == 0
    assert "show" in out and "play" in out


def test_play_needs_a_terminal(tmp_path: Path) -> None:
    result = run_module("2048", "play", env={**os.environ, "PLYGROUND_DATA_DIR": str(tmp_path)})
    assert result.returncode == 1
    assert_one_line_error(result.stderr, "interactive terminal")
    assert not (tmp_path / "2048").exists()


def test_errors_through_the_real_entry_point() -> None:
    result = run_module("2048", "show", "2 2/2 5")
    assert result.returncode == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, "invalid tile 5")


def test_show_through_the_real_entry_point() -> None:
    result = run_module("2048", "show", "0 2/2 0")
    assert result.returncode == 0
    assert "legal moves: up, right, down, left" in result.stdout


@pytest.mark.parametrize(
    "args",
    [["--help"], ["2048", "--help"], ["2048", "play", "--help"], ["2048", "ai", "--help"], ["2048", "hint", "--help"],
     ["--version"]],
)  # fmt: skip
def test_help_does_not_import_numba_nor_the_games(args: list[str]) -> None:
    script = (
        "import sys\n"
        "from plyground.apps.cli.main import main\n"
        f"status = main({args!r})\n"
        "loaded = sorted(m for m in sys.modules if m == 'numba' or m.startswith(('numba.', 'plyground.g2048')))\n"
        "print('LOADED', status, loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "LOADED 0 []"
    assert "Compiling" not in result.stderr


def test_the_commands_default_p_four_is_the_librarys() -> None:
    """The CLI keeps its own copy of the default (``--help`` may not import the game, which loads numba)."""
    from plyground.apps.cli.options import DEFAULT_P_FOUR
    from plyground.apps.results import RunSettings
    from plyground.g2048.board import DEFAULT_P_FOUR as LIBRARY

    assert DEFAULT_P_FOUR == LIBRARY == RunSettings().p_four


def test_module_help_runs_fast_without_numba() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "plyground.apps.cli.main", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0
    imported = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if "|" in line}
    assert "plyground.apps.cli.g2048" in imported
    assert "numba" not in imported
    assert "plyground.g2048" not in imported


def make_package(root: Path, name: str, *, kernels: bool) -> None:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    if kernels:
        (package / "_kernels.py").write_text("")


def test_a_cold_kernel_cache_is_announced_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    make_package(tmp_path, "coldgame", kernels=True)
    monkeypatch.syspath_prepend(str(tmp_path))

    announce_compilation("coldgame", "cold")

    out, err = capsys.readouterr()
    assert out == ""
    assert re.fullmatch(r"Compiling plyground's cold kernels \(first run only\)\.\.\. done in \d+\.\d s\n", err), err
    assert "coldgame._kernels" in sys.modules  # compiled (imported) while the line waits for its time


def test_a_warm_cache_or_an_imported_game_is_silent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    make_package(tmp_path, "warmgame", kernels=True)
    (tmp_path / "warmgame" / "__pycache__").mkdir()
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    (tmp_path / "warmgame" / "__pycache__" / f"_kernels._move-1.{tag}.nbi").write_bytes(b"")
    digest = _jit._kernel_digest(str(tmp_path / "warmgame"))[1]  # the cache was made from these kernels
    (tmp_path / "warmgame" / "__pycache__" / "kernels.sha256").write_text(digest)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("plyground.g2048")

    announce_compilation("warmgame", "warm")
    announce_compilation("plyground.g2048", "2048")

    assert capsys.readouterr().err == ""


def test_a_kernel_group_that_is_not_there_is_an_error_not_a_silent_skip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_package(tmp_path, "plaingame", kernels=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(LookupError, match=r"plaingame has no kernel file _kernels\.py"):
        announce_compilation("plaingame", "plain")
    with pytest.raises(LookupError, match="no_such_game_here has no kernel file"):
        announce_compilation("no_such_game_here", "none")


def write_text(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def video_of_a_missing_replay(tmp: Path) -> list[str]:
    return ["2048", "video", str(tmp / "missing.json"), str(tmp / "out.gif")]


def video_of_a_bad_replay(tmp: Path) -> list[str]:
    return ["2048", "video", str(write_text(tmp / "bad.json", "{")), str(tmp / "out.gif")]


def bench_into_a_folder(tmp: Path) -> list[str]:
    return ["2048", "bench", "--games", "1", "--depth", "1", "--db", str(tmp)]


def report_of_a_missing_store(tmp: Path) -> list[str]:
    return ["2048", "report", "--db", str(tmp / "r" / "x.sqlite"), "--no-plots"]


def report_plots_into_a_file(tmp: Path) -> list[str]:
    store = shutil.copy(DATA / "results_v1.sqlite", tmp)
    return ["2048", "report", "--db", str(store), "--plots", str(write_text(tmp / "plots", ""))]


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (video_of_a_missing_replay, ["no replay at"]),
        (video_of_a_bad_replay, ["not valid JSON"]),
        (bench_into_a_folder, ["is a folder"]),
        (report_of_a_missing_store, ["no results store"]),
        (report_plots_into_a_file, ["cannot write the plots", "is a file"]),
    ],
)
def test_a_bad_path_is_bad_input_named_once(
    args: Callable[[Path], list[str]], parts: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = args(tmp_path)
    status, _, err = run_cli(capsys, *given)
    assert status == 2, err
    assert_one_line_error(err, *parts)
    assert "Errno" not in err
    named = [part for part in given if part.startswith(str(tmp_path)) and part in err]
    assert named and all(err.count(part) == 1 for part in named)


def test_an_os_error_is_said_plainly() -> None:
    from plyground.apps.cli.main import os_message

    assert (
        os_message(FileNotFoundError(2, "No such file or directory", "x.json")) == "x.json: No such file or directory"
    )
    assert os_message(OSError(28, "No space left on device")) == "No space left on device"
