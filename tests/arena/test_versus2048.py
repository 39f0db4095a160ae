"""The 2048 harness of the arena: nneonneo's output read, networks' labels, the log's table and targets.

The games themselves are played by ``benchmarks/versus_nneonneo.py``, tested end to end in
``tests/benchmarks/test_versus_nneonneo.py`` with a fake of nneonneo's program and library.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from plyground.arena import versus2048 as play
from plyground.arena import versus2048_log as log

FAKE = Path(__file__).resolve().parents[1] / "data" / "fake_nneonneo.py"


def _game(player: str, score: int, tile: int, **extra: Any) -> dict[str, Any]:
    game = {"player": player, "score": score, "max_tile": tile, "moves": 10, "ms_per_move": 50.0}
    if player == "plyground":
        game.update(mode="versus", evaluator="heuristic", workers=1, budget_ms=50.0, seed=1)
    return {**game, **extra}


def test_nneonneo_output_is_read() -> None:
    done = subprocess.run([sys.executable, str(FAKE)], capture_output=True, text=True, check=True)
    game = play.read_nneonneo(done.stdout.splitlines())
    assert game == {"score": 20736, "max_tile": 2048, "moves": 5, "ms_per_move": pytest.approx(80.0)}
    with pytest.raises(ValueError, match="no 'Game over"):
        play.read_nneonneo(done.stdout.splitlines()[:-1])
    seen: list[tuple[int, int]] = []
    play.read_nneonneo(done.stdout.splitlines(), lambda moves, score: seen.append((moves, score)))
    assert seen == [(1, 0), (2, 4), (3, 8), (4, 12), (5, 16)]


def test_a_networks_label_says_whether_it_downgrades(tmp_path: Path) -> None:
    from plyground.g2048.ntuple import NTupleNetwork

    path = tmp_path / "small.npz"
    NTupleNetwork(4, 4, [[(0, 0), (0, 1)]], seed=1).save(path)
    downgrading = play.player_evaluator(f"ntuple:{path}", True)
    plain = play.player_evaluator(f"ntuple:{path}", False)
    assert (downgrading.downgrade_from, plain.downgrade_from) == (16384, None)
    assert play.evaluator_label(downgrading) == play.evaluator_label(plain) + ", downgraded from 16384"
    assert play.evaluator_label(play.player_evaluator("heuristic", True)) == "heuristic"


def test_the_table_and_the_targets() -> None:
    theirs = [_game("nneonneo", 1000 * i, 32768 if i > 15 else 16384, ms_per_move=40.0 + i) for i in range(1, 21)]
    ours = [_game("plyground", 1000 * i + 500, 32768 if i > 17 else 16384) for i in range(1, 21)]
    alone = [_game("plyground", 9, 16384, mode="alone", budget_ms=20.0, workers=2) for _ in range(30)]
    summary = log.summarize(theirs + ours + alone)
    them, us = summary["nneonneo"], summary["plyground: heuristic, 1 worker"]
    assert (them["games"], them["median_score"], them["median_interval"]) == (20, 10_500, (6000, 15000))
    assert them["ms_per_move"] == pytest.approx(50.5)  # move-weighted mean of 41..60
    assert them["reach"]["32768"]["share"] == 0.25 and us["reach"]["32768"]["share"] == 0.15
    assert us["median_score"] == 11_000
    met = log.targets(summary)
    assert met["plyground: heuristic, 1 worker: median score >= nneonneo's"] is True
    assert met["plyground: heuristic, 1 worker: 32768 share >= nneonneo's"] is False
    assert met["plyground alone: heuristic, 20 ms, 2 workers: 16384 in >= 95%"] is True
    assert met["plyground alone: heuristic, 20 ms, 2 workers: 32768 in >= 30%"] is False
    few = log.targets(log.summarize(theirs[:5] + ours))
    assert set(few.values()) == {None}  # fewer than 20 games of nneonneo: not judged yet
    assert log.nneonneo_budget(theirs + ours) == pytest.approx(50.5)
    assert log.nneonneo_budget(ours) is None
    timed = [
        _game("nneonneo", 5, 64, ms_per_move=ms, moves=moves, library="lib.so") for ms, moves in [(200, 1), (260, 3)]
    ]
    assert log.nneonneo_budget(theirs + timed + ours) == pytest.approx(245.0)  # its library's games alone
    mixed = log.summarize(theirs + timed)["nneonneo"]  # the table's time is the same as plyground's budget
    assert (mixed["games"], mixed["timed_games"], mixed["ms_per_move"]) == (22, 2, pytest.approx(245.0))
    assert them["timed_games"] == 20
    for game in theirs[:1] + ours[:1]:
        log.check_game(game)
    with pytest.raises(ValueError, match="not a game"):
        log.check_game({**theirs[0], "player": "someone"})
