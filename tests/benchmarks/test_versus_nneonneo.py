"""benchmarks/versus_nneonneo.py: nneonneo's library and program, the log that adds up, the table, stopping, resuming.

nneonneo/2048-ai is not built here: ``tests/data/fake_nneonneo.py`` prints what the script reads
of its program's output, in its format, and ``tests/data/fake_nneonneo_lib.c`` is a library with
its two functions and a plain policy.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from plyground.core.measurements import record
from plyground.g2048.game import Game, Replay
from tests.benchmarks import BENCHMARKS, load_script

FAKE = Path(__file__).resolve().parents[1] / "data" / "fake_nneonneo.py"
FAKE_LIBRARY = FAKE.with_name("fake_nneonneo_lib.c")
SCRIPT = BENCHMARKS / "versus_nneonneo.py"


@pytest.fixture(scope="module")
def play() -> ModuleType:
    """The harness the script plays its games with."""
    import plyground.arena.versus2048

    return plyground.arena.versus2048


@pytest.fixture(scope="module")
def versus() -> ModuleType:
    return load_script("versus_nneonneo.py")


@pytest.fixture(scope="module")
def fake_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fake library, compiled."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler (cc) to build tests/data/fake_nneonneo_lib.c")
    library = tmp_path_factory.mktemp("fake_nneonneo") / "libfake2048.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(FAKE_LIBRARY)], check=True)
    return library


def _env(folder: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a run whose results go to ``folder``: its data folder (games in progress) beside it."""
    return {**os.environ, "PLYGROUND_DATA_DIR": str(folder.parent / "data"), **(extra or {})}


def _run(*args: str, folder: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--results", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(folder, env),
        cwd=folder.parent,
    )


def _logged(folder: Path) -> list[dict[str, Any]]:
    path = folder / "versus_nneonneo_games.jsonl"
    return [json.loads(line)["results"] for line in path.read_text().splitlines()] if path.exists() else []


def test_games_in_progress_say_how_far_they_got(tmp_path: Path) -> None:
    results = tmp_path / "results"
    often = ("--progress-minutes", "0.000001", "--games", "1", "--time-ms", "1", "--evaluator", "heuristic")
    done = _run("--nneonneo", str(FAKE), *often, folder=results)
    assert done.returncode == 0, done.stderr
    said = re.findall(r"^nneonneo: game in progress: move (\d), (\d+) points, 0 min$", done.stderr, re.MULTILINE)
    assert said and all(int(points) == 4 * (int(move) - 1) for move, points in said)  # the fake's scores
    assert re.search(r"plyground: game in progress: move [0-9,]+, [0-9,]+ points", done.stderr)
    quiet = _run("--nneonneo", str(FAKE), *often[2:], "--games", "2", "--progress-minutes", "0", folder=results)
    assert quiet.returncode == 0 and "in progress" not in quiet.stderr


def _game(player: str, score: int, tile: int, **extra: Any) -> dict[str, Any]:
    game = {"player": player, "score": score, "max_tile": tile, "moves": 10, "ms_per_move": 50.0}
    if player == "plyground":
        game.update(mode="versus", evaluator="heuristic", workers=1, budget_ms=50.0, seed=1)
    return {**game, **extra}


def test_a_run_logs_each_game_and_the_next_run_adds_to_them(tmp_path: Path) -> None:
    results = tmp_path / "results"
    args = ("--nneonneo", str(FAKE), "--games", "1", "--time-ms", "1", "--evaluator", "heuristic")
    done = _run(*args, folder=results)
    assert done.returncode == 0, done.stderr
    games = _logged(results)
    assert sorted(g["player"] for g in games) == ["nneonneo", "plyground"]
    ours = next(g for g in games if g["player"] == "plyground")
    assert (ours["mode"], ours["seed"], ours["budget_ms"], ours["evaluator"]) == ("versus", 1, 1.0, "heuristic")
    assert ours["time_bank"] is True  # its mean time a move is the budget
    assert ours["score"] > 0 and ours["moves"] > 0
    # Its replay is kept (nneonneo's program gives none): the game as logged, move by move.
    [kept] = (tmp_path / "data" / "versus_nneonneo" / "replays").glob("*.json")
    assert kept.name.startswith("plyground-versus-seed1-") and f"its replay: {kept}" in done.stderr
    replayed = Replay.load(kept).play()
    assert (replayed.seed, replayed.score, replayed.move_count) == (1, ours["score"], ours["moves"])
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["rows"]["nneonneo"]["games"] == 1 and line["rows"]["nneonneo"]["median_score"] == 20736
    # The log adds up: asked for 1 game each again, nothing is played; for 2, one more each.
    again = _run(*args, folder=results)
    assert again.returncode == 0 and len(_logged(results)) == 2
    more = _run("--nneonneo", str(FAKE), "--games", "2", "--evaluator", "heuristic", "--time-ms", "1", folder=results)
    assert more.returncode == 0, more.stderr
    seeds = sorted(g["seed"] for g in _logged(results) if g["player"] == "plyground")
    assert seeds == [1, 2] and len(_logged(results)) == 4


def test_without_time_ms_plyground_plays_at_nneonneos_measured_time(versus: ModuleType, tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    record(versus.GAMES_LOG, _game("nneonneo", 5, 64, ms_per_move=2.0), results, root=BENCHMARKS.parent)
    done = _run("--nneonneo", str(FAKE), "--games", "1", "--evaluator", "heuristic", folder=results)
    assert done.returncode == 0, done.stderr
    [ours] = [g for g in _logged(results) if g["player"] == "plyground"]
    assert ours["budget_ms"] == 2.0  # the mean of the games logged when it started


def test_games_of_another_evaluator_or_budget_do_not_count(versus: ModuleType, tmp_path: Path) -> None:
    # Each row of the table gets its --games: those logged with another network (or, alone, another
    # budget) are another row, and the seeds go on after theirs.
    results = tmp_path / "results"
    results.mkdir()
    other = "n-tuple network old.pnet (0123456789ab)"
    for game in (_game("plyground", 7, 64, evaluator=other, time_bank=True, seed=1),
                 _game("plyground", 7, 64, mode="alone", evaluator=other, workers=1, budget_ms=1.0, time_bank=True),
                 _game("plyground", 7, 64, mode="alone", evaluator="heuristic", workers=1, budget_ms=2.0,
                       time_bank=True, seed=2)):  # fmt: skip
        record(versus.GAMES_LOG, game, results, root=BENCHMARKS.parent)
    common = ("--games", "1", "--time-ms", "1", "--evaluator", "heuristic")
    done = _run("--nneonneo", str(FAKE), "--only", "plyground", *common, folder=results)
    assert done.returncode == 0, done.stderr
    alone = _run("--alone", "--workers", "1", *common, folder=results)
    assert alone.returncode == 0, alone.stderr
    new = _logged(results)[3:]
    assert [(g["mode"], g["evaluator"], g["budget_ms"], g["seed"]) for g in new] == [
        ("versus", "heuristic", 1.0, 2), ("alone", "heuristic", 1.0, 3)]  # fmt: skip
    line = json.loads(alone.stdout.strip().splitlines()[-1])
    assert line["rows"]["plyground alone: heuristic, 1 ms, 1 worker, time bank"]["games"] == 1
    # Asked again, nothing more is played.
    again = _run("--alone", "--workers", "1", *common, folder=results)
    assert again.returncode == 0 and len(_logged(results)) == 5


def test_only_plays_the_games_of_one_side(tmp_path: Path) -> None:
    results = tmp_path / "results"
    done = _run("--nneonneo", str(FAKE), "--games", "2", "--only", "nneonneo", folder=results)
    assert done.returncode == 0, done.stderr
    assert [g["player"] for g in _logged(results)] == ["nneonneo", "nneonneo"]


def test_a_side_with_its_games_hands_its_core_to_the_other(tmp_path: Path) -> None:
    results, saved = tmp_path / "results", tmp_path / "saved"
    command = [sys.executable, str(SCRIPT), "--nneonneo", str(FAKE), "--games", "2", "--time-ms", "1", "--evaluator",
               "heuristic", "--save-seconds", "0.2", "--saved", str(saved), "--results", str(results)]  # fmt: skip
    # nneonneo's (fake) games end at once; plyground's then take both cores: a second lane saves its own game.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_save(saved, "plyground-versus-2", 1, process)
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert "nneonneo has its games: its core plays plyground's too" in err
    games = _logged(results)
    assert sorted(g["seed"] for g in games if g["player"] == "plyground") == [1, 2]
    assert sum(g["player"] == "nneonneo" for g in games) == 2 and _saved_files(saved, "plyground-versus") == []


def test_both_cores_plays_two_games_of_one_side_at_once_on_seeds_of_their_own(tmp_path: Path) -> None:
    results = tmp_path / "results"
    side = ("--nneonneo", str(FAKE), "--only", "plyground", "--both-cores", "--time-ms", "1")
    done = _run(*side, "--games", "3", "--evaluator", "heuristic", folder=results)
    assert done.returncode == 0, done.stderr
    # Three games, not four: a lane starts none when the games logged and the other lane's make the row.
    assert sorted((g["player"], g["seed"]) for g in _logged(results)) == [("plyground", s) for s in (1, 2, 3)]
    program = _run("--nneonneo", str(FAKE), "--only", "nneonneo", "--both-cores", "--games", "3", folder=results)
    assert program.returncode == 0, program.stderr
    assert sum(g["player"] == "nneonneo" for g in _logged(results)) == 3


def test_sigterm_stops_the_games_in_progress_unlogged(tmp_path: Path) -> None:
    results = tmp_path / "results"
    command = [sys.executable, str(SCRIPT), "--nneonneo", str(FAKE), "--time-ms", "1000", "--evaluator", "heuristic",
               "--results", str(results)]  # fmt: skip
    started = tmp_path / "started"
    env = _env(results, {"FAKE_NNEONNEO": "sleep", "FAKE_NNEONNEO_STARTED": str(started)})
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    while not started.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # then the games are being played, and the run is set to stop cleanly
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert _logged(results) == []
    assert "nneonneo" not in json.loads(out.strip().splitlines()[-1])["rows"]


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--nneonneo", "/nonexistent/2048-ai"], {}, "is not a program: build it with"),
        (["--alone", "--report"], {}, "give one of --nneonneo PATH, --alone and --report"),
        (["--alone", "--time-ms", "0"], {}, "--time-ms is a number of milliseconds above 0"),
        (["--alone", "--cores", "0"], {}, "--cores is two core numbers"),
        (["--alone", "--progress-minutes", "nan"], {}, "--progress-minutes is a number of minutes from 0"),
        (["--alone", "--only", "nneonneo"], {}, "--only chooses a side of the match against nneonneo"),
        (["--nneonneo", str(FAKE), "--both-cores"], {}, "--both-cores plays one side's games on both cores: give"),
        (["--alone", "--evaluator", "nonsense"], {}, "evaluator must be 'network', 'heuristic' or 'ntuple:PATH'"),
        (["--nneonneo", str(FAKE), "--games", "1", "--time-ms", "1"], {"FAKE_NNEONNEO": "crash"},
         "exited with status 3"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line(args: list[str], env: dict[str, str], message: str, tmp_path: Path) -> None:
    done = _run(*args, folder=tmp_path / "results", env=env)
    assert done.returncode != 0 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_damaged_log_is_refused_before_playing(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "versus_nneonneo_games.jsonl").write_text('{"results": {"player": "someone"}}\n')
    done = _run("--report", folder=results)
    assert done.returncode == 2 and "line 1: not a game of this benchmark" in done.stderr


def _fake_policy_game(seed: int) -> Game:
    """The game of ``seed`` played by the fake library's policy, here in Python."""
    game = Game(seed=seed)
    while not game.over:
        legal = game.board.legal_moves()
        game.step(next(move for move in ("left", "up", "right", "down") if move in legal))
    return game


def _saved_files(folder: Path, side: str) -> list[Path]:
    return sorted(folder.glob(f"{side}-*.json")) if folder.is_dir() else []


def _wait_for_save(folder: Path, side: str, moves: int, process: subprocess.Popen[str]) -> Path:
    """The saved game of ``side`` once it holds at least ``moves`` moves."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        for path in _saved_files(folder, side):
            try:
                if len(json.loads(path.read_text())["game"]["replay"]["moves"]) >= moves:
                    return path
            except (ValueError, KeyError):
                pass  # replaced as it was read
        time.sleep(0.05)
    raise AssertionError(f"no saved game of {side} with {moves} moves: {process.poll()}")


def test_the_library_plays_plygrounds_games_and_they_resume_where_they_stopped(
    play: ModuleType, fake_library: Path, tmp_path: Path
) -> None:
    side = ("--nneonneo", str(fake_library), "--only", "nneonneo", "--games", "1", "--save-seconds", "0")
    whole = tmp_path / "whole"
    whole.mkdir()
    done = _run(*side, "--saved", str(whole / "saved"), folder=whole / "results")
    assert done.returncode == 0, done.stderr
    [game] = _logged(whole / "results")
    twin = _fake_policy_game(1)  # the library saw plyground's boards, and its moves were played as it meant them
    assert (game["seed"], game["score"], game["moves"]) == (1, twin.score, twin.move_count)
    assert game["max_tile"] == twin.board.max_tile() and game["resumed"] == 0
    assert game["library"] == str(fake_library) and _saved_files(whole / "saved", "nneonneo") == []
    [kept] = (whole / "saved" / "replays").glob("nneonneo-seed1-*.json")
    assert Replay.load(kept).play().board == twin.board
    # Killed between logging a game and deleting its saved copy: the next run keeps its replay, plays the next seed.
    kept.unlink()
    body = {"settings": {"seed": 1}, "seconds": 1.0, "depths": 0, "resumed": 0, "game": twin.to_dict()}
    play.write_json(whole / "saved" / kept.name.replace("-seed1", ""), play.SAVED_GAME.stamp(body), compact=True)
    more = _run(*side[:4], "--games", "2", "--saved", str(whole / "saved"), folder=whole / "results")
    assert more.returncode == 0, more.stderr
    assert [g["seed"] for g in _logged(whole / "results")] == [1, 2] and _saved_files(whole / "saved", "nneonneo") == []
    assert Replay.load(kept).play().board == twin.board

    # Stopped in the middle by SIGTERM: nothing logged, the game saved at once (not at its next save, an hour
    # away); the next run finishes the same game.
    cut, saved = tmp_path / "cut", tmp_path / "cut" / "saved"
    command = [sys.executable, str(SCRIPT), *side, "--save-seconds", "3600", "--progress-minutes", "0.00001",
               "--saved", str(saved), "--results", str(cut / "results")]  # fmt: skip
    env = _env(cut / "results", {"FAKE_NNEONNEO_SLEEP_MS": "20"})
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert process.stderr is not None
    for line in process.stderr:  # a line a move
        if (seen := re.match(r"nneonneo: game in progress: move (\d+)", line)) and int(seen.group(1)) >= 20:
            break
    assert _saved_files(saved, "nneonneo") == []  # not saved yet
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    [path] = _saved_files(saved, "nneonneo")
    assert _logged(cut / "results") == []
    stopped_at = len(json.loads(path.read_text())["game"]["replay"]["moves"])
    assert 20 <= stopped_at < twin.move_count
    report = _run("--report", "--saved", str(saved), folder=cut / "results")
    assert f"in progress: nneonneo, seed 1, move {stopped_at:,}, " in report.stdout
    assert json.loads(report.stdout.strip().splitlines()[-1])["in_progress"]["nneonneo"]["moves"] == stopped_at
    again = _run(*side, "--saved", str(saved), folder=cut / "results")
    assert again.returncode == 0, again.stderr
    assert f"resuming the game in progress of seed 1 at move {stopped_at:,}" in again.stderr
    [resumed] = _logged(cut / "results")
    assert {k: resumed[k] for k in ("seed", "score", "moves", "max_tile")} == {
        k: game[k] for k in ("seed", "score", "moves", "max_tile")
    }
    assert resumed["resumed"] == 1 and not path.exists()


def test_a_plyground_game_killed_with_its_run_resumes_with_its_evaluator_only(tmp_path: Path) -> None:
    results, saved = tmp_path / "results", tmp_path / "saved"
    side = ["--nneonneo", str(FAKE), "--only", "plyground", "--games", "1", "--time-ms", "1", "--save-seconds", "0.2"]
    side += ["--saved", str(saved), "--results", str(results)]
    command = [sys.executable, str(SCRIPT), *side, "--evaluator", "heuristic"]
    # Killed with its games, as when the machine's session ends: the game stays saved.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # fmt: skip
    path = _wait_for_save(saved, "plyground-versus", 50, process)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)
    assert _logged(results) == [] and path.exists()  # written atomically: whole, even if killed in a save
    stopped_at = len(json.loads(path.read_text())["game"]["replay"]["moves"])

    other = subprocess.run([sys.executable, str(SCRIPT), *side, "--evaluator", "network"], capture_output=True,
                           text=True, timeout=300)  # fmt: skip
    assert other.returncode == 1 and "Traceback" not in other.stderr
    assert re.search(r"holds a game in progress played with heuristic, not n-tuple network .*: finish it", other.stderr)

    text = path.read_text()
    path.write_text(text[: len(text) // 2])  # damaged (a copy cut short, a disk error)
    damaged = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert damaged.returncode == 1 and "Traceback" not in damaged.stderr
    assert f"error: {path}: " in damaged.stderr and "(delete it to drop the game in progress)" in damaged.stderr
    path.write_text(text)

    same = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert same.returncode == 0, same.stderr
    [game] = _logged(results)
    assert (game["seed"], game["resumed"], game["evaluator"]) == (1, 1, "heuristic")
    assert game["moves"] > stopped_at and game["mean_depth"] >= 1 and game["score"] > 0 and not path.exists()


def test_both_cores_saves_a_game_a_lane_and_resumes_both(tmp_path: Path) -> None:
    results, saved = tmp_path / "results", tmp_path / "saved"
    command = [sys.executable, str(SCRIPT), "--nneonneo", str(FAKE), "--only", "plyground", "--both-cores", "--games",
               "2", "--time-ms", "1", "--save-seconds", "0.2", "--evaluator", "heuristic", "--saved", str(saved),
               "--results", str(results)]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while len(_saved_files(saved, "plyground-versus")) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    files = _saved_files(saved, "plyground-versus")  # the first lane's file and the second's (-2-)
    assert len(files) == 2 and _logged(results) == [], err
    assert sum(path.name.startswith("plyground-versus-2-") for path in files) == 1
    assert {json.loads(path.read_text())["settings"]["seed"] for path in files} == {1, 2}
    playing = json.loads(out.strip().splitlines()[-1])["in_progress"]
    assert sorted(playing) == ["plyground-versus", "plyground-versus (2)"]
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert sorted((g["seed"], g["resumed"]) for g in _logged(results)) == [(1, 1), (2, 1)]
    assert _saved_files(saved, "plyground-versus") == []


def test_a_library_that_is_not_nneonneos_is_refused_in_one_line(fake_library: Path, tmp_path: Path) -> None:
    not_library = tmp_path / "lib2048-ai.so"
    not_library.write_text("not a library")
    for path, message in [(tmp_path / "absent.so", "is not a file: build it with"),
                          (not_library, "cannot load nneonneo's library")]:  # fmt: skip
        done = _run("--nneonneo", str(path), folder=tmp_path / "results")
        assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    bad = _run("--nneonneo", str(fake_library), "--only", "nneonneo", "--games", "1", "--saved", str(tmp_path / "s"),
               folder=tmp_path / "results", env={"FAKE_NNEONNEO_BAD": "1"})  # fmt: skip
    assert bad.returncode == 1 and "nneonneo's library gave move 5" in bad.stderr and "Traceback" not in bad.stderr
