"""The first-run compile message: once per run, on stderr only, with the time it took, wherever numba caches.

The command tests compile for real in a fresh process with an empty ``NUMBA_CACHE_DIR``
(a first run), then run again on the cache they left (silent).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from plyground import _jit
from plyground.apps.cli import compile_kernels

MESSAGE = re.compile(r"Compiling plyground's (.+) kernels \(first run only\)\.\.\. done in \d+\.\d s")


def make_game(root: Path, name: str, *kernel_files: str) -> None:
    """A package of plain-Python 'kernel' files that record that they were imported."""
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    for kernels in kernel_files:
        (package / kernels).write_text("IMPORTED = True\n")


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(_jit, "_CHECKED", set())
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_cold_groups_are_compiled_in_one_line(games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_game(games, "onegame", "_kernels.py", "_mcts_kernels.py", "_other_kernels.py")
    compile_kernels(
        ("onegame", "_kernels.py", "board"),
        ("onegame", "_mcts_kernels.py", "MCTS"),
        ("onegame", "_mcts_kernels.py", "MCTS"),  # the same group twice: said once
        ("onegame", "_other_kernels.py", "other"),
    )
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and MESSAGE.fullmatch(lines[0]), err
    assert MESSAGE.fullmatch(lines[0])[1] == "board, MCTS and other"  # type: ignore[index]
    assert all(f"onegame.{stem}" in sys.modules for stem in ("_kernels", "_mcts_kernels", "_other_kernels"))
    compile_kernels(("onegame", "_kernels.py", "board"), ("onegame", "_mcts_kernels.py", "MCTS"))
    assert capsys.readouterr().err == ""  # compiled already: never twice in a run


def test_a_group_that_is_not_there_is_refused_before_anything_is_said(
    games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command's list naming a kernel file that is not there is wrong: skipped, the file would compile later,
    unannounced."""
    make_game(games, "plaingame")
    for group in (("plaingame", "_kernels.py", "plain"), ("no_such_game_anywhere", "_kernels.py", "none")):
        with pytest.raises(LookupError, match=f"^{group[0]} has no kernel file _kernels"):
            compile_kernels(group)
    assert capsys.readouterr().err == ""


def test_a_failed_compilation_ends_its_line(games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_game(games, "brokengame")
    (games / "brokengame" / "_kernels.py").write_text("raise RuntimeError('bad kernel')\n")
    with pytest.raises(RuntimeError, match="bad kernel"):
        compile_kernels(("brokengame", "_kernels.py", "broken"))
    assert capsys.readouterr().err == "Compiling plyground's broken kernels (first run only)...\n"


def run(*args: str, cache: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("NUMBA_")}
    env["NUMBA_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "plyground.apps.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def messages(stderr: str) -> list[str]:
    return [match[1] for match in MESSAGE.finditer(stderr)]


def test_kinrow_says_it_once_on_a_cold_cache_and_not_when_warm(tmp_path: Path) -> None:
    mcts = pytest.importorskip("plyground.kinrow.mcts")  # compiled where this process caches...
    assert _jit.cache_is_warm(mcts.__file__.replace("mcts.py", "_mcts_kernels.py"))
    cache = tmp_path / "numba-cache"  # ...but a new NUMBA_CACHE_DIR is a first run
    args = ["kinrow", "selfplay", "--n", "3", "--k", "3", "--games", "1", "--x", "mcts", "--o", "first_legal"]
    args += ["--n-iterations", "20", "--quiet"]
    cold = run(*args, cache=cache)
    assert cold.returncode == 0, cold.stderr
    assert messages(cold.stderr) == ["k-in-a-row and MCTS"] and cold.stderr.count("Compiling") == 1
    assert "Compiling" not in cold.stdout
    warm = run(*args, cache=cache)
    assert warm.returncode == 0 and "Compiling" not in warm.stderr


def test_pbrain_says_it_on_stderr_and_keeps_stdout_to_the_protocol(tmp_path: Path) -> None:
    result = run("kinrow", "pbrain", "--player", "first_legal", cache=tmp_path / "cache", stdin="START 9\nEND\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["OK"]
    assert messages(result.stderr) == ["k-in-a-row"]


def test_learn_says_it_on_a_cold_cache(tmp_path: Path) -> None:
    args = ["2048", "learn", "--games", "2", "--rows", "2", "--cols", "3", "--out"]
    result = run(*args, str(tmp_path / "run"), cache=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert messages(result.stderr) == ["2048 and 2048 n-tuple"] and result.stderr.count("Compiling") == 1
    again = run(*args, str(tmp_path / "again"), cache=tmp_path / "cache")
    assert again.returncode == 0 and "Compiling" not in again.stderr


def test_ai_says_once_that_it_compiles_the_board_and_the_search_of_its_evaluator(tmp_path: Path) -> None:
    """The search is compiled for its evaluator's leaf: part of the one line, not a silent pause at the first move."""
    args = ["2048", "ai", "--games", "1", "--rows", "2", "--cols", "2", "--depth", "1", "--evaluator", "heuristic"]
    result = run(*args, "--json", cache=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert messages(result.stderr) == ["2048 and heuristic search"] and result.stderr.count("Compiling") == 1
