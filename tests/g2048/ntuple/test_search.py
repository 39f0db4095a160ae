"""Expectimax with an n-tuple network at the leaves, against the naive search over points + V.

Networks have small tuples (1 to 3 cells) with random weights (see ``test_kernels``).
The kernels run once more with ``NUMBA_DISABLE_JIT=1`` (see ``tests/test_kernels_without_jit.py``).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError
from plyground.g2048 import Board
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.heuristic import Heuristic
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.registry import load_evaluator
from tests.g2048.ntuple.test_kernels import Network, networks
from tests.g2048.strategies import grids
from tests.naive import expectimax_ntuple as naive_search
from tests.naive import g2048 as naive
from tests.naive import ntuple as naive_nt


def as_network(network: Network, downgrade: bool = True) -> NTupleNetwork:
    """An NTupleNetwork holding the drawn tuples and weights (without tile-downgrading unless ``downgrade``)."""
    rows, cols, tuples, weights, stages, radix = network
    net = NTupleNetwork(rows, cols, tuples, stage_tiles=stages, radix=radix)
    net.set_weights(weights)
    if not downgrade:
        net.downgrade_from = None
    return net


def searched(grid: list[list[int]], downgrade: bool) -> list[list[int]]:
    """The grid the search plays: downgraded from 16384 (gaps from 32 up) by default."""
    return naive_nt.downgraded(grid, 16384, 32) if downgrade else grid


@st.composite
def cases(draw: st.DrawFn, max_empty: int, max_cells: int = 16) -> tuple[list[list[int]], Network]:
    """A network and a board of its size with at most ``max_empty`` empty cells."""
    network = draw(networks().filter(lambda n: n[0] * n[1] <= max_cells))
    grid = draw(grids(network[0], network[1]))
    empties = [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == 0]
    for r, c in empties[max_empty:]:
        grid[r][c] = 2 << draw(st.integers(0, 6))
    return grid, network


def assert_values_match(grid: list[list[int]], network: Network, depth: int, downgrade: bool) -> None:
    _, _, tuples, weights, stages, radix = network
    with Expectimax(depth=depth, workers=2, cutoff=0.0, evaluator=as_network(network, downgrade)) as ai:
        decision = ai.choose(Board.from_rows(grid))
    played = searched(grid, downgrade)
    expected = naive_search.root_values(played, depth, tuples, weights, stages=stages, radix=radix)
    assert decision.searched == (Board.from_rows(played) if played != grid else None)
    assert list(decision.values) == list(expected)
    for move, value in expected.items():
        assert decision.values[move] == pytest.approx(value, rel=1e-9, abs=1e-6), move
    if expected:
        assert decision.values[decision.move] == max(decision.values.values())
    else:
        assert decision.move is None


@pytest.mark.kernel
@settings(max_examples=40)
@given(cases(max_empty=4), st.sampled_from([1, 2]), st.booleans())
def test_search_equals_naive_points_plus_value(
    case: tuple[list[list[int]], Network], depth: int, downgrade: bool
) -> None:
    assert_values_match(*case, depth, downgrade)


@pytest.mark.kernel
@settings(max_examples=10)
@given(cases(max_empty=2, max_cells=9), st.booleans())
def test_search_equals_naive_at_depth_3(case: tuple[list[list[int]], Network], downgrade: bool) -> None:
    assert_values_match(*case, 3, downgrade)


@pytest.mark.kernel
@given(cases(max_empty=16), st.booleans())
def test_depth_1_is_the_greedy_value(case: tuple[list[list[int]], Network], downgrade: bool) -> None:
    grid, network = case
    rows, cols, tuples, weights, stages, radix = network
    with Expectimax(depth=1, workers=1, evaluator=as_network(network, downgrade)) as ai:
        decision = ai.choose(Board.from_rows(grid))
    grid = searched(grid, downgrade)
    for move, value in decision.values.items():
        after, points = naive.move(grid, move)
        assert value == points + naive_nt.value(naive.to_bits(after), rows, cols, tuples, weights, stages, radix)
    greedy = naive_nt.greedy_move(grid, tuples, weights, stages, radix)
    assert decision.move == (greedy[0] if greedy is not None else None)


def play_by_search(ai: Expectimax, rows: int, cols: int, seed: int) -> tuple[int, int]:
    """Score and moves of a game played by ``ai`` with the spawns of ``NTupleNetwork.play_greedy(seed=seed)``."""
    threshold = naive.four_threshold(0.1)
    grid, state = naive.empty_grid(rows, cols), seed
    for _ in range(2):
        state, rnd = naive.splitmix64(state)
        grid = naive.spawn_with(grid, rnd, threshold)
    score = moves = 0
    while (move := ai.choose(Board.from_rows(grid)).move) is not None:
        after, points = naive.move(grid, move)
        score, moves = score + points, moves + 1
        state, rnd = naive.splitmix64(state)
        grid = naive.spawn_with(after, rnd, threshold)
    return score, moves


@pytest.mark.parametrize(("rows", "cols"), [(2, 3), (3, 3), (4, 4)])
def test_depth_1_plays_the_networks_greedy_games(rows: int, cols: int) -> None:
    tuples = None if rows * cols < 16 else [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)]]
    net = NTupleNetwork(rows, cols, tuples, seed=rows * 10 + cols)
    net.learn(200, alpha=0.1)
    with Expectimax(depth=1, workers=2, evaluator=net) as ai:
        for seed in (1, 2, 3):
            greedy = net.play_greedy(1, seed=seed)
            assert play_by_search(ai, rows, cols, seed) == (int(greedy.scores[0]), int(greedy.moves[0]))


@pytest.mark.kernel
def test_a_move_into_certain_loss_is_worth_its_points() -> None:
    # "up" scores nothing and leaves "8 2 4/0 8 2": either spawn ends the game, whatever the network says.
    board = Board.parse("0 2 4/8 8 2")
    net = NTupleNetwork(2, 3, initial_value=1000.0)
    with Expectimax(depth=2, workers=1, evaluator=net) as ai:
        decision = ai.choose(board)
    assert decision.values["up"] == 0.0  # no points, and no future
    assert decision.move != "up"


def tiny_4x4(seed: int = 1) -> NTupleNetwork:
    net = NTupleNetwork(4, 4, [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)]], seed=seed)
    net.learn(100, alpha=0.1)
    return net


def test_leaves_seen_again_are_not_evaluated_again() -> None:
    # Most leaves of a search come again (a spawn that slides away leaves the same afterstate): the
    # table gives their value back, and the values stay those of the naive search, which has no table.
    net = tiny_4x4(4)
    grid = [[2, 4, 0, 0], [0, 8, 0, 2], [0, 0, 16, 0], [0, 2, 0, 4]]
    tuples = [list(t) for t in net.tuples]
    for depth in (2, 3):
        with Expectimax(depth=depth, workers=1, cutoff=0.0, evaluator=net) as ai:
            decision = ai.choose(Board.from_rows(grid))
        assert decision.evaluations < decision.nodes / 2 and decision.tt_hits > decision.evaluations
        expected = naive_search.root_values(grid, depth, tuples, net.weights)
        assert list(decision.values) == list(expected)
        for move, value in expected.items():
            assert decision.values[move] == pytest.approx(value, rel=1e-12), move


def test_time_budget_is_respected() -> None:
    with Expectimax(time_ms=20, workers=2, evaluator=tiny_4x4()) as ai:
        ai.choose(Board.parse("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0"))  # threads ready
        for bits in (0x0021013212348765, 0x0000000000001021, 0x01200231456A789B):
            start = time.perf_counter()
            decision = ai.choose(Board(bits))
            elapsed = time.perf_counter() - start
            assert elapsed <= 2 * 20 / 1000 + 0.05, (hex(bits), elapsed)
            assert decision.depth >= 1 and decision.move in Board(bits).legal_moves()


def test_decisions_do_not_depend_on_the_workers() -> None:
    net = tiny_4x4(2)
    board = Board.parse("2 4 0 0/0 8 0 2/0 0 16 0/0 2 0 4")
    values = [Expectimax(depth=3, workers=w, evaluator=net).choose(board).values for w in (1, 2)]
    assert values[0] == values[1]


def test_the_evaluator_from_a_file(tmp_path: Path) -> None:
    net = tiny_4x4(3)
    net.save(tmp_path / "net.npz")
    board = Board.parse("2 4 0 0/0 8 0 2/0 0 16 0/0 2 0 4")
    from_file = Expectimax(depth=2, workers=1, evaluator=load_evaluator(f"ntuple:{tmp_path / 'net.npz'}"))
    assert isinstance(from_file.evaluator, NTupleNetwork) and from_file.evaluator.shape == (4, 4)
    assert from_file.choose(board).values == Expectimax(depth=2, workers=1, evaluator=net).choose(board).values
    assert isinstance(Expectimax(evaluator=Heuristic()).evaluator, Heuristic)
    assert load_evaluator(None) == load_evaluator("heuristic") == Heuristic()
    shipped = Expectimax(depth=2, workers=1, evaluator=load_evaluator("network", reuse=True)).choose(board).values
    assert shipped == Expectimax(depth=2, workers=1).choose(board).values  # by default, as the commands: on 4x4


def test_bad_evaluators(tmp_path: Path) -> None:
    missing = tmp_path / "missing.npz"
    with pytest.raises(InvalidInputError, match=f"{re.escape(str(missing))} does not exist") as info:
        load_evaluator(f"ntuple:{missing}")
    assert not isinstance(info.value, CorruptFileError)
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(CorruptFileError, match=r"bad\.npz"):
        load_evaluator(f"ntuple:{tmp_path / 'bad.npz'}")
    for bad in ("ntuple:", "networks", 3, np.zeros(3)):
        with pytest.raises(InvalidInputError, match="evaluator must be an Evaluator object, got") as refused:
            Expectimax(evaluator=bad)  # type: ignore[arg-type]
        assert ("parse a name with load_evaluator" in str(refused.value)) == isinstance(bad, str)
    with pytest.raises(InvalidBoardError, match="network plays 2x2 boards, not 3x3 ones"):
        Expectimax(depth=1, evaluator=NTupleNetwork(2, 2)).choose(Board.parse("2 0 0/0 0 0/0 0 2"))
