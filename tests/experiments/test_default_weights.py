"""``default_weights.py`` (``experiments/2026-12-02-default-weights-at-20ms/``): paired games logged as they end,
resumed, compared; bad input refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.benchmarks import load_script, script_path

SCRIPT = script_path("default_weights.py")
WEIGHTS = Path(__file__).resolve().parents[2] / "src" / "plyground" / "g2048" / "weights"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("default_weights.py")


def _start(*args: str, folder: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(SCRIPT), *args, "--results", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=folder.parent,
        env={**os.environ, "COLUMNS": "200"},
    )


def _run(*args: str, folder: Path) -> subprocess.CompletedProcess[str]:
    process = _start(*args, folder=folder)
    out, err = process.communicate(timeout=300)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _logged(folder: Path) -> list[dict[str, Any]]:
    path = folder / "default_weights_games.jsonl"
    return [json.loads(line)["results"] for line in path.read_text().splitlines()] if path.exists() else []


def _game(weights: str, seed: int, score: int, tile: int = 2048) -> dict[str, Any]:
    return {"weights": weights, "seed": seed, "score": score, "max_tile": tile, "moves": 100, "ms_per_move": 1.0,
            "time_ms": 20.0, "rows": 4, "cols": 4}  # fmt: skip


SMALL = ("--rows", "2", "--cols", "3", "--time-ms", "1")


def test_games_are_paired_logged_and_resumed(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    done = _run(*SMALL, "--games", "2", folder=folder)
    assert done.returncode == 0, done.stderr
    games = _logged(folder)
    assert len(games) == 4
    assert sorted((g["file"], g["seed"]) for g in games) == [
        ("default.json", 2_000_000_000), ("default.json", 2_000_000_001),
        ("tuned-depth2.json", 2_000_000_000), ("tuned-depth2.json", 2_000_000_001),
    ]  # fmt: skip
    assert all((g["rows"], g["cols"], g["time_ms"]) == (2, 3, 1.0) and g["moves"] > 0 for g in games)
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["pairs"] == 2 and result["verdict"] is not None
    by = {(g["file"], g["seed"]): g["score"] for g in games}
    differences = [by["tuned-depth2.json", s] - by["default.json", s] for s in (2_000_000_000, 2_000_000_001)]
    assert result["difference"] == pytest.approx(sum(differences) / 2)
    a_scores = [by["default.json", s] for s in (2_000_000_000, 2_000_000_001)]
    assert result["a"]["mean_score"] == pytest.approx(sum(a_scores) / 2)

    again = _run(*SMALL, "--games", "2", folder=folder)  # nothing missing: nothing played
    assert again.returncode == 0 and "games to play" not in again.stderr
    assert len(_logged(folder)) == 4
    more = _run(*SMALL, "--games", "3", folder=folder)  # only the missing seed
    assert more.returncode == 0 and "2 games to play" in more.stderr
    assert [g["seed"] for g in _logged(folder)[4:]] == [2_000_000_002] * 2
    assert json.loads(more.stdout.splitlines()[-1])["pairs"] == 3


def test_a_stopped_run_logs_only_finished_games(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    process = _start("--games", "1", "--time-ms", "50", folder=folder)  # a 4x4 game at 50 ms: minutes
    time.sleep(8)
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "stopped: the games in flight are not logged" in err
    assert _logged(folder) == []
    assert "no pair finished yet" in err


def test_compare_pairs_by_seed_and_decides(bench: ModuleType) -> None:
    setting = {"time_ms": 20.0, "rows": 4, "cols": 4}
    games = [_game("a", s, 1000 + s) for s in range(5)] + [_game("b", s, 2000 + s, 4096) for s in range(4)]
    games.append({**_game("b", 4, 10**6), "time_ms": 10.0})  # another budget: not counted
    result = bench.compare(games, "a", "b", setting, 4)
    assert result["pairs"] == 4 and result["difference"] == 1000 and result["b_wins"] == 4
    assert result["verdict"] == "B better"
    assert result["a"]["games"] == 4 and result["b"]["reach"]["8192"]["share"] == 0
    assert bench.compare(games, "a", "b", setting, 5)["verdict"] is None  # fewer pairs than wanted
    mixed = [_game("a", s, 1000) for s in range(4)] + [_game("b", s, 1000 + (-1) ** s * 500) for s in range(4)]
    assert bench.compare(mixed, "a", "b", setting, 4)["verdict"] == "no clear difference"
    worse = [_game("a", s, 5000 + s) for s in range(4)] + [_game("b", s, 1000) for s in range(4)]
    assert bench.compare(worse, "a", "b", setting, 4)["verdict"] == "A better"


def test_the_fingerprint_is_of_the_weights(bench: ModuleType, tmp_path: Path) -> None:
    data = json.loads((WEIGHTS / "default.json").read_text())
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps({**data, "note": "another note"}, indent=3))
    assert bench.fingerprint(copy) == bench.fingerprint(WEIGHTS / "default.json")
    data["weights"]["empty"] += 1
    copy.write_text(json.dumps(data))
    assert bench.fingerprint(copy) != bench.fingerprint(WEIGHTS / "default.json")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "0"), "--games must be from 1 to 10000"),
        (("--time-ms", "nan"), "--time-ms must be in (0, 60000]"),
        (("--processes", "0"), "--processes must be from 1 to 256"),
        (("--rows", "5"), "--rows and --cols must be 2, 3 or 4"),
        (("--b", "no-such.json"), "no weights file no-such.json"),
    ],
)
def test_bad_options_are_one_line(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    done = _run(*args, folder=tmp_path / "results")
    assert done.returncode == 1
    assert done.stderr.strip().startswith(f"error: {message}")
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_a_corrupt_log_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "default_weights_games.jsonl").write_text('{"results": {"score": "many"}}\n')
    done = _run("--report", folder=folder)
    assert done.returncode == 1
    assert done.stderr.strip().endswith("line 1: not a game of this benchmark")
    assert "Traceback" not in done.stderr
