"""ExactFit: the fit of a network to the exact values against its slow twin (``tests/naive/exact_fit.py``) on
solutions of 2x2 and 2x3 made here; its calls, what it leaves alone, and the errors at its boundary.

Weights are multiples of 1/64 of modest size, as in ``test_kernels.py``; some networks have a stage, about half
of its weights 0 (they read, and are promoted from, the weights a stage before).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048 import Board, Solution, solve
from plyground.g2048.exact_values import ExactValues
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.ntuple.exact_fit import SAMPLE_SIZE, ExactFit, FitResults
from tests.naive import exact_fit as naive

Solve = Callable[[int, int], tuple[Solution, ExactValues, dict[int, float]]]


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Solve:
    """The solution of a size (p_four 0.1), its exact values and its canonical states' values, made on first use."""
    base = tmp_path_factory.mktemp("solutions")
    made: dict[tuple[int, int], tuple[Solution, ExactValues, dict[int, float]]] = {}

    def get(rows: int, cols: int) -> tuple[Solution, ExactValues, dict[int, float]]:
        if (rows, cols) not in made:
            solution = solve(rows, cols, directory=base / f"{rows}x{cols}")
            table: dict[int, float] = {}
            for counts in solution.counts():
                codes, values = solution.layer(counts.age)
                assert values is not None
                table.update(zip(codes.tolist(), values.tolist(), strict=True))
            made[rows, cols] = solution, ExactValues(solution), table
        return made[rows, cols]

    return get


@st.composite
def networks(draw: st.DrawFn, rows: int, cols: int) -> NTupleNetwork:
    """A network of 1 to 3 random tuples of 1 to 3 cells, maybe a stage at 16, either radix, random weights."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    tuples = draw(
        st.lists(st.lists(st.sampled_from(cells), min_size=1, max_size=3, unique=True), min_size=1, max_size=3)
    )
    network = NTupleNetwork(
        rows,
        cols,
        tuples,
        seed=0,
        stage_tiles=draw(st.sampled_from([(), (16,)])),
        radix=draw(st.sampled_from([None, 16])),
    )
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    weights = (rng.integers(-4096, 4096, network.weights.shape[0]) / 64).astype(np.float32)
    weights *= rng.integers(0, 2, weights.shape[0])  # in a later stage, promoted where 0
    network.set_weights(weights)
    return network


def fit_both(solved: Solve, network: NTupleNetwork, games: int, alpha: float, explore: float, seed: int) -> FitResults:
    """Fit ``network`` with ExactFit and a copy of its weights with the twin; check that they agree."""
    solution, exact, table = solved(network.rows, network.cols)
    twin = network.weights.copy()
    fit = ExactFit(network, exact, seed=seed)
    results = fit.play(games, alpha=alpha, explore=explore)
    scores, updates, squares, missing, sample, state = naive.fit(
        games, network.rows, network.cols, solution.p_four, network.tuples, twin, seed, table,
        alpha=alpha, explore=explore, radix=network.radix, stages=network.stage_tiles,
    )  # fmt: skip
    assert missing == 0
    assert results.scores.tolist() == scores and results.sample.tolist() == sample
    assert (results.updates, results.squared_error, fit.rng_state) == (updates, squares, state)
    assert network.weights.tobytes() == twin.tobytes()
    return results


@pytest.mark.kernel
@given(
    networks(2, 2),
    st.integers(1, 3),
    st.sampled_from([0.05, 0.5]),
    st.sampled_from([0.0, 0.3, 1.0]),
    st.integers(0, 2**64 - 1),
)
def test_the_fit_matches_the_naive_fit_on_2x2(
    solved: Solve, network: NTupleNetwork, games: int, alpha: float, explore: float, seed: int
) -> None:
    results = fit_both(solved, network, games, alpha, explore, seed)
    assert results.games == games and 0 < results.sample.shape[0] <= SAMPLE_SIZE


@settings(max_examples=20)
@given(networks(2, 3), st.sampled_from([0.05, 0.5]), st.sampled_from([0.0, 0.3, 1.0]), st.integers(0, 2**64 - 1))
def test_the_fit_matches_the_naive_fit_on_2x3(
    solved: Solve, network: NTupleNetwork, alpha: float, explore: float, seed: int
) -> None:
    fit_both(solved, network, 1, alpha, explore, seed)


def test_the_sample_is_every_50th_afterstate_played_up_to_its_size(solved: Solve) -> None:
    _, exact, _ = solved(2, 3)
    few = ExactFit(NTupleNetwork(2, 3, seed=0), exact, seed=5).play(2, alpha=0.1, explore=0.5)
    assert 0 < few.sample.shape[0] < 10 and few.sample.all()  # the first move's afterstate, then every 50th
    results = ExactFit(NTupleNetwork(2, 3, seed=0), exact, seed=5).play(1000, alpha=0.1, explore=0.5)
    assert results.sample.shape == (SAMPLE_SIZE,) and results.sample.all()
    assert results.sample[0] == few.sample[0]
    exact.afterstate_values(results.sample)  # afterstates that lead to reachable states


def test_a_fit_in_several_calls_gives_the_weights_of_one(solved: Solve) -> None:
    _, exact, _ = solved(2, 2)
    whole, parts = NTupleNetwork(2, 2, seed=0), NTupleNetwork(2, 2, seed=0)
    one = ExactFit(whole, exact, seed=9).play(30, alpha=0.1, explore=0.5)
    fit = ExactFit(parts, exact, seed=9)
    calls = [fit.play(n, alpha=0.1, explore=0.5) for n in (10, 0, 20)]
    assert whole.weights.tobytes() == parts.weights.tobytes()
    assert np.concatenate([call.scores for call in calls]).tolist() == one.scores.tolist()
    assert sum(call.updates for call in calls) == one.updates
    assert calls[1].games == 0 and calls[1].mean_score == 0.0 and calls[1].mean_squared_error == 0.0


def test_the_fit_comes_near_the_exact_values_and_changes_nothing_else(solved: Solve) -> None:
    solution, exact, _ = solved(2, 2)
    network = NTupleNetwork(2, 2, seed=4)
    fit = ExactFit(network, exact, seed=1)
    first = fit.play(100, alpha=0.1)
    for _ in range(3):
        last = fit.play(100, alpha=0.1)
    assert last.mean_squared_error < first.mean_squared_error / 4
    assert last.mean_score == pytest.approx(last.scores.mean()) and last.games == 100
    board = Board.parse("4 2/0 0")
    assert network.value(board) == pytest.approx(solution.afterstate_value(board), rel=0.05)
    assert network.rng_state == 4 and network.trained.games == 0  # its own stream and totals untouched
    assert fit.rng_state != 1 and repr(fit).startswith("ExactFit(NTupleNetwork(2x2")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"games": -1}, "games must be an integer >= 0"),
        ({"games": True}, "games must be an integer"),
        ({"alpha": 0.0}, "alpha must be a positive number, got 0.0"),
        ({"alpha": float("nan")}, "alpha must be a positive number"),
        ({"explore": 1.5}, "explore must be a number from 0 to 1, got 1.5"),
        ({"explore": -0.1}, "explore must be a number from 0 to 1"),
        ({"explore": True}, "explore must be a number from 0 to 1, got True"),
        ({"explore": "all"}, "explore must be a number from 0 to 1, got 'all'"),
    ],
)
def test_bad_arguments_of_play_are_refused_and_change_nothing(
    solved: Solve, arguments: dict[str, object], message: str
) -> None:
    network = NTupleNetwork(2, 2, seed=0)
    fit = ExactFit(network, solved(2, 2)[1], seed=3)
    with pytest.raises(InvalidInputError, match=message):
        fit.play(**{"games": 5, "alpha": 0.1, **arguments})  # type: ignore[arg-type]
    assert not network.weights.any() and fit.rng_state == 3


def test_a_fit_takes_a_network_and_exact_values_of_one_size(solved: Solve) -> None:
    _, exact, _ = solved(2, 2)
    with pytest.raises(InvalidInputError, match="the network is of 2x3, the exact values of 2x2"):
        ExactFit(NTupleNetwork(2, 3, seed=0), exact)
    with pytest.raises(InvalidInputError, match="expected an NTupleNetwork, got str"):
        ExactFit("network", exact)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="expected ExactValues, got Solution"):
        ExactFit(NTupleNetwork(2, 2, seed=0), solved(2, 2)[0])  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="seed"):
        ExactFit(NTupleNetwork(2, 2, seed=0), exact, seed=-1)


def test_a_damaged_solution_is_reported_in_one_line(solved: Solve, tmp_path: Path) -> None:
    solution = solved(2, 2)[0]
    damaged = tmp_path / "damaged"
    shutil.copytree(solution.directory, damaged)
    codes = np.load(damaged / "states-0008.npy")  # the states of age 8 replaced by boards of no 2x2 game
    np.save(damaged / "states-0008.npy", codes | np.uint64(0xF << 60))
    fit = ExactFit(NTupleNetwork(2, 2, seed=0), ExactValues(Solution(damaged)), seed=1)
    with pytest.raises(CorruptFileError, match=r"^\d+ spawned boards are missing from the exact values of .*damaged"):
        fit.play(20, alpha=0.1)
