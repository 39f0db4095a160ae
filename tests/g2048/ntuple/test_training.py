"""Learning: the checks of its arguments, one worker reproducible, several threads, stop and errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from plyground.errors import InvalidInputError
from plyground.g2048 import _kernels as K
from plyground.g2048.board import Board
from plyground.g2048.ntuple import (
    LearnStats,
    NTupleNetwork,
)
from plyground.g2048.solver import Solution, solve
from tests.g2048.ntuple import SMALL
from tests.naive import g2048 as naive


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"games": -1, "alpha": 0.1}, "games must be an integer >= 0"),
        ({"games": 1.5, "alpha": 0.1}, "games must be an integer"),
        ({"games": 1, "alpha": 0.0}, "alpha must be a positive number"),
        ({"games": 1, "alpha": float("nan")}, "alpha must be a positive number"),
        ({"games": 1, "alpha": 0.1, "batch": 0}, "batch must be an integer >= 1"),
        ({"games": 1, "alpha": 0.1, "p_four": 2.0}, "p_four must be a probability"),
        ({"games": 1, "alpha": 0.1, "td_lambda": -0.1, "horizon": 3}, "td_lambda must be a number from 0 to 1"),
        ({"games": 1, "alpha": 0.1, "td_lambda": 0.5}, "needs a horizon of at least 2"),
        ({"games": 1, "alpha": 0.1, "horizon": 2.5}, "horizon must be an integer from 1 to 64"),
        ({"games": 1, "alpha": 0.1, "horizon": True}, "horizon must be an integer"),
        ({"games": 1, "alpha": 0.1, "restarts": -1}, "restarts must be an integer from 0 to 64, got -1"),
        ({"games": 1, "alpha": 0.1, "restarts": 65}, "restarts must be an integer from 0 to 64"),
        ({"games": 1, "alpha": 0.1, "restarts": 1.0}, "restarts must be an integer"),
        ({"games": 1, "alpha": 0.1, "restarts": True}, "restarts must be an integer"),
        ({"games": 1, "alpha": 0.1, "expected": 1}, "expected must be True or False, got 1"),
        ({"games": 1, "alpha": 0.1, "expected": True, "restarts": 1}, "expected updates are TD\\(0\\)"),
        ({"games": 1, "alpha": 0.1, "expected": True, "td_lambda": 0.5, "horizon": 3}, "expected updates are TD"),
    ],
)
def test_learn_checks_its_arguments(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        NTupleNetwork(3, 3, SMALL, seed=1).learn(**arguments)  # type: ignore[arg-type]


def test_learning_beats_random_play() -> None:
    games, points, _ = K._random_play(100_000, np.uint64(1), 3, 3, np.uint64(naive.four_threshold(0.1)))
    random_mean = int(points) / int(games)
    network = NTupleNetwork(3, 3, seed=1)
    untrained = network.play_greedy(300, seed=9).mean_score
    stats = network.learn(400, alpha=0.1)
    trained = network.play_greedy(300, seed=9).mean_score
    assert stats.results.games == 400 and stats.results.total_moves == network.trained.moves > 0
    assert trained > 3 * random_mean and trained > 1.5 * untrained, (random_mean, untrained, trained)


def _fraction_of_optimal(network: NTupleNetwork, solution: Solution, games: int, seed: int) -> float:
    """``1 - regret per game / optimal expected score`` of the network's greedy play.

    (See ``experiments/2026-11-30-regret/regret.py``.)
    """
    rng = np.random.default_rng(seed)

    def spawn(board: Board) -> Board:
        cells = board.empty_cells()
        return board.with_tile(cells[rng.integers(len(cells))], 4 if rng.random() < 0.1 else 2)

    regret = 0.0
    for _ in range(games):
        board = spawn(spawn(Board(0, network.rows, network.cols)))
        while not board.is_terminal():
            exact = solution.move_values(board)
            move = max(board.legal_moves(), key=lambda m: board.move(m)[1] + network.value(board.move(m)[0]))
            regret += max(exact.values()) - exact[move]
            board = spawn(board.move(move)[0])
    return 1.0 - regret / games / solution.expected_score()


def test_expected_updates_learn_close_to_optimal_play_from_zero_values(tmp_path: Path) -> None:
    """On 2x3, with one tuple over the whole board, expected updates need no optimism; sampled TD does."""
    solution = solve(2, 3, directory=tmp_path)
    whole = (((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),)
    learnt = {}
    for name, settings in {"expected": {"expected": True, "tc": True}, "sampled": {"tc": True}}.items():
        network = NTupleNetwork(2, 3, whole, seed=1)
        stats = network.learn(3_000, alpha=1.0, **settings)
        assert stats.results.games == 3_000 and network.trained.moves == stats.results.total_moves
        learnt[name] = _fraction_of_optimal(network, solution, 300, seed=5)
    assert learnt["expected"] > 0.8 and learnt["sampled"] < learnt["expected"] - 0.2, learnt


def test_expected_updates_with_two_workers() -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=3)
    stats = network.learn(40, alpha=1.0, expected=True, workers=2, batch=5)
    assert stats.results.games == network.trained.games == 40 and network.weights.any()
    assert network.trained.moves == stats.results.total_moves


def test_same_seed_same_tables_and_batches_do_not_matter() -> None:
    one = NTupleNetwork(3, 3, SMALL, seed=11)
    two = NTupleNetwork(3, 3, SMALL, seed=11)
    seen: list[LearnStats] = []
    first = one.learn(50, alpha=0.05)
    second = two.learn(50, alpha=0.05, batch=7, on_progress=seen.append)
    assert one.weights.tobytes() == two.weights.tobytes() and one.weights.any()
    assert one.rng_state == two.rng_state
    assert first.results.scores.tolist() == second.results.scores.tolist()
    assert [s.results.games for s in seen] == [*range(7, 50, 7), 50]
    other = NTupleNetwork(3, 3, SMALL, seed=12)
    other.learn(50, alpha=0.05)
    assert other.weights.tobytes() != one.weights.tobytes()


def _random_mean(rows: int, cols: int) -> float:
    games, points, _ = K._random_play(50_000, np.uint64(1), rows, cols, np.uint64(naive.four_threshold(0.1)))
    return int(points) / int(games)


def test_two_workers_learn_and_beat_random_play() -> None:
    network = NTupleNetwork(3, 3, seed=1)
    seen: list[LearnStats] = []
    stats = network.learn(400, alpha=0.1, workers=2, on_progress=seen.append)
    assert stats.results.games == network.trained.games == 400 and network.weights.any()
    assert stats.results.total_moves == network.trained.moves > 0
    assert sorted(s.results.games for s in seen) == [s.results.games for s in seen] and seen[-1].results.games == 400
    assert (stats.results.scores > 0).all()  # every game was played and recorded
    trained = network.play_greedy(300, seed=9).mean_score
    assert trained > 3 * _random_mean(3, 3), trained


def test_two_workers_move_the_stream_on_deterministically() -> None:
    one, two = NTupleNetwork(2, 2, seed=3), NTupleNetwork(2, 2, seed=3)
    one.learn(50, alpha=0.1, workers=2)
    two.learn(70, alpha=0.1, workers=2)
    assert one.rng_state == two.rng_state != NTupleNetwork(2, 2, seed=3).rng_state
    three = NTupleNetwork(2, 2, seed=3)
    three.learn(50, alpha=0.1, workers=3)
    assert three.rng_state != one.rng_state


def test_one_worker_is_as_before_and_workers_beyond_the_games_are_not_started() -> None:
    plain, one = NTupleNetwork(3, 3, SMALL, seed=11), NTupleNetwork(3, 3, SMALL, seed=11)
    plain.learn(60, alpha=0.05)
    one.learn(60, alpha=0.05, workers=1)
    assert plain.weights.tobytes() == one.weights.tobytes() and plain.rng_state == one.rng_state
    single = NTupleNetwork(3, 3, SMALL, seed=11)
    single.learn(1, alpha=0.05, workers=8)  # one game: played as with one worker
    reference = NTupleNetwork(3, 3, SMALL, seed=11)
    reference.learn(1, alpha=0.05)
    assert single.weights.tobytes() == reference.weights.tobytes()


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_bad_workers_are_refused(workers: object) -> None:
    with pytest.raises(InvalidInputError, match="workers must be an integer >= 1"):
        NTupleNetwork(2, 2, seed=1).learn(10, alpha=0.1, workers=workers)  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [1, 2])
def test_stop_ends_learning_early(workers: int) -> None:
    network = NTupleNetwork(2, 2, seed=1)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return network.trained.games >= 30

    stats = network.learn(10_000, alpha=0.1, batch=10, workers=workers, stop=stop)
    assert 30 <= stats.results.games == network.trained.games < 10_000 and calls


def test_an_error_in_on_progress_stops_the_threads_and_keeps_the_totals() -> None:
    network = NTupleNetwork(2, 2, seed=1)

    def fail(stats: LearnStats) -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        network.learn(10_000, alpha=0.1, batch=10, workers=2, on_progress=fail)
    games = network.trained.games
    assert 10 <= games < 10_000 and network.trained.moves > 0
    network.learn(5, alpha=0.1, workers=2)  # still usable
    assert network.trained.games == games + 5
