"""Result files: each run of a measuring script appends one line with the date, commit and machine.

The scripts themselves never run here; the recorder writes into temporary folders.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from plyground.core import measurements as common
from plyground.errors import CorruptFileError, InvalidInputError

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "experiments" / "2026-01-01-example" / "example.py"
"""A script of the checkout (it need not exist): its results go to its folder by default."""
RESULTS = {"rows": [{"size": "3x3", "seconds": 1.5}], "matches": True}


def options(*argv: str, script: Path = SCRIPT, folder: str = ".") -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    common.add_record_options(parser, script, folder=folder)
    return parser.parse_args(list(argv))


def read_lines(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True, capture_output=True
    )


@pytest.fixture
def outside_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder that is no git checkout (git does not look above it)."""
    folder = tmp_path / "plain"
    folder.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    return folder


def test_a_line_has_the_results_with_date_commit_and_machine(tmp_path: Path) -> None:
    path = common.record("solver", RESULTS, tmp_path / "results", root=ROOT)
    assert path == tmp_path / "results" / "solver.jsonl"
    [line] = read_lines(path)
    assert list(line) == ["benchmark", "date", "commit", "dirty", "machine", "results"]
    assert line["benchmark"] == "solver" and line["results"] == RESULTS
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", line["date"])
    assert line["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", line["commit"])  # HEAD, in a git checkout
    assert isinstance(line["dirty"], bool)
    machine = line["machine"]
    assert list(machine) == ["cpu", "cores", "memory_gib", "python", "numba"]
    assert isinstance(machine["cpu"], str) and machine["cpu"]
    assert isinstance(machine["cores"], int) and machine["cores"] >= 1
    assert isinstance(machine["memory_gib"], float) and machine["memory_gib"] > 0
    assert machine["python"] == ".".join(map(str, sys.version_info[:3]))
    assert re.fullmatch(r"\d+\.\d+.*", machine["numba"])


def test_two_runs_append_two_lines(tmp_path: Path) -> None:
    common.record("engine", {"moves_per_s": 1.0}, tmp_path, root=ROOT)
    common.record("engine", {"moves_per_s": 2.0}, tmp_path, root=ROOT)
    lines = read_lines(tmp_path / "engine.jsonl")
    assert [line["results"] for line in lines] == [{"moves_per_s": 1.0}, {"moves_per_s": 2.0}]


def test_outside_a_git_checkout_the_commit_is_null(tmp_path: Path, outside_git: Path) -> None:
    common.record("search", RESULTS, tmp_path / "results", root=outside_git)
    [line] = read_lines(tmp_path / "results" / "search.jsonl")
    assert line["commit"] is None and line["dirty"] is False


def test_without_git_the_commit_is_null(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no git on the path
    assert common.git_state(ROOT) == (None, False)
    assert common.checkout_root(tmp_path / "run.py") == tmp_path.resolve()  # without git: the script's folder


def test_dirty_is_a_change_to_tracked_files_but_not_to_the_results(tmp_path: Path, outside_git: Path) -> None:
    repo = outside_git
    git(repo, "init", "-q")
    (repo / "code.py").write_text("x = 1\n")
    common.record("kinrow", RESULTS, repo / "benchmarks" / "results", root=repo)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    (repo / "untracked.py").write_text("")
    results = repo / "benchmarks" / "results"
    commit, dirty = common.git_state(repo, results)
    assert commit is not None and re.fullmatch(r"[0-9a-f]{40}", commit) and not dirty
    common.record("kinrow", RESULTS, results, root=repo)  # the result file changes: still clean
    assert read_lines(results / "kinrow.jsonl")[-1]["dirty"] is False
    (repo / "code.py").write_text("x = 2\n")
    assert common.git_state(repo, results) == (commit, True)


def test_a_run_of_uncommitted_code_is_printed_but_not_recorded_in_the_checkout(
    tmp_path: Path, outside_git: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = outside_git
    git(repo, "init", "-q")
    (repo / "code.py").write_text("x = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    results = repo / "benchmarks" / "results"
    common.print_json("regret", RESULTS, options("--results", str(results)), root=repo)  # clean: recorded
    (repo / "code.py").write_text("x = 2\n")
    with pytest.raises(SystemExit) as raised:
        common.print_json("regret", RESULTS, options("--results", str(results)), root=repo)
    message = str(raised.value)
    assert message.startswith("error: not recorded in ") and "uncommitted changes" in message and "\n" not in message
    assert len(read_lines(results / "regret.jsonl")) == 1  # the dirty run was not added
    assert [json.loads(line)["benchmark"] for line in capsys.readouterr().out.splitlines()] == ["regret", "regret"]
    common.print_json("regret", RESULTS, options("--results", str(tmp_path / "elsewhere")), root=repo)
    assert read_lines(tmp_path / "elsewhere" / "regret.jsonl")[0]["dirty"] is True  # outside: kept, marked


def test_print_json_prints_the_line_and_records_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common.print_json("regret", RESULTS, options("--results", str(tmp_path)))
    out = capsys.readouterr().out
    assert json.loads(out) == {"benchmark": "regret", **RESULTS}  # the printed line is as it always was
    assert [line["results"] for line in read_lines(tmp_path / "regret.jsonl")] == [RESULTS]


def test_no_record_by_option_or_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    common.print_json("regret", RESULTS, options("--results", str(tmp_path), "--no-record"))
    monkeypatch.setenv(common.NO_RECORD_ENV, "1")
    common.print_json("regret", RESULTS, options("--results", str(tmp_path)))
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert not (tmp_path / "regret.jsonl").exists()


def test_the_default_folder_is_the_scripts_own_or_one_beside_it() -> None:
    assert options().results == SCRIPT.parent and options().no_record is False
    speed = ROOT / "benchmarks" / "engine.py"
    assert options(script=speed, folder="results").results == ROOT / "benchmarks" / "results"
    assert options().record_script == SCRIPT


def test_the_checkout_is_the_one_that_holds_the_script(tmp_path: Path, outside_git: Path) -> None:
    assert common.checkout_root(SCRIPT) == ROOT.resolve()  # not where plyground is installed
    assert common.checkout_root(ROOT / "src" / "plyground") == ROOT.resolve()
    repo = outside_git
    git(repo, "init", "-q")
    (repo / "scripts").mkdir()
    assert common.checkout_root(repo / "scripts" / "run.py") == repo.resolve()
    assert common.checkout_root(tmp_path / "elsewhere.py") == tmp_path.resolve()  # no checkout: its folder


def test_the_line_records_the_commit_of_the_scripts_checkout(tmp_path: Path, outside_git: Path) -> None:
    repo = outside_git
    git(repo, "init", "-q")
    (repo / "run.py").write_text("")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    commit, _ = common.git_state(repo)
    common.print_json("regret", RESULTS, options("--results", str(tmp_path / "out"), script=repo / "run.py"))
    [line] = read_lines(tmp_path / "out" / "regret.jsonl")
    assert line["commit"] == commit and line["dirty"] is False


def test_a_bad_name_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="lower-case"):
        common.record("Bad-Name", RESULTS, Path("nowhere"), root=ROOT)


def test_games_logs_are_read_and_a_bad_line_named(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    assert common.read_games(log, lambda game: game["score"]) == []
    common.append_line(log, {"results": {"score": 5}})
    common.append_line(log, {"results": {"score": 7}})
    assert [game["score"] for game in common.read_games(log, lambda game: game["score"])] == [5, 7]
    with log.open("a") as handle:
        handle.write('{"results": {}}\n')
    with pytest.raises(CorruptFileError, match=r"games\.jsonl, line 3: not a game"):
        common.read_games(log, lambda game: game["score"])


def test_a_settings_log_is_read_by_player_and_seed_and_other_settings_refused(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    settings = {"time_ms": 20.0}
    game = {"player": "full", "seed": 1, "score": 100, "max_tile": 16, "settings": settings}
    common.append_line(log, game)
    common.append_line(log, {**game, "seed": 2})
    with log.open("a") as handle:
        handle.write('{"player": "full", "se')  # a line cut short by a crash: played again
    assert sorted(common.read_settings_log(log, settings, "player")) == [("full", 1), ("full", 2)]
    with pytest.raises(InvalidInputError, match="line 1 has other settings"):
        common.read_settings_log(log, {"time_ms": 10.0}, "player")
    log.write_text('{"player": "full"}\n' + json.dumps(game) + "\n")
    with pytest.raises(CorruptFileError, match="line 1: not a game"):
        common.read_settings_log(log, settings, "player")


def test_a_folder_that_cannot_be_written_fails_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(SystemExit) as raised:
        common.print_json("regret", RESULTS, options("--results", str(tmp_path / "file")))
    assert str(raised.value).startswith("error: cannot append the result to ") and "\n" not in str(raised.value)
    assert json.loads(capsys.readouterr().out)["benchmark"] == "regret"  # printed before


def test_busy_processes_spin_until_killed_and_a_bad_count_is_refused() -> None:
    from plyground.core.measurements import start_busy

    spinners = start_busy(2)
    try:
        assert len(spinners) == 2 and all(spinner.poll() is None for spinner in spinners)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    assert start_busy(0) == []
    for bad in (-1, 65, 1.5, True):
        with pytest.raises(InvalidInputError, match="count must be a whole number from 0 to 64"):
            start_busy(bad)  # type: ignore[arg-type]
