"""Endgame tables weighed at a search's leaves (``TableLeaves``): the kernels against a plain recursion.

The evaluators are made of leaf kernels here: one values an afterstate by its empty cells, one by the sum
of its tiles' exponents, which a downgrade (tiles above a gap halved) changes. The table is a small exact
solve on a 3x3 board: frozen big tiles on the top row and the left of the middle row, the goal beside the
frozen tile of the target, so that a tile built there merges down the chain.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numba import types

from plyground._jit import kernel
from plyground.errors import InvalidInputError
from plyground.g2048 import Board
from plyground.g2048._search_kernels import LeafKernels, signature_start, signature_value
from plyground.g2048.agent import SearchAgent
from plyground.g2048.evaluator import Evaluator, Explanation, Leaf
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.state import State
from plyground.g2048.tablebase import Advisor, Formation, TableLeaves, solve_formation
from plyground.g2048.tablebase.leaves import _gap
from tests.naive import table_leaves as naive

DATA = types.UniTuple(types.float64, 1)
SCALE = 3.0
FORMATION = "xxx/x.T/..."
FROZEN = [(0, 0), (0, 1), (0, 2), (1, 0)]
GOAL = (1, 2)
TARGET = 8


@kernel(signature_start(DATA), inline=True)
def _start(after, rows, cols, data, ints, floats, i):  # type: ignore[no-untyped-def]
    total = 0
    for k in range(16):
        total += np.int64((after >> np.uint64(4 * k)) & np.uint64(0xF))
    floats[i] = data[0] * total


@kernel(signature_value(DATA), inline=True)
def _value(data, ints, floats, i):  # type: ignore[no-untyped-def]
    return floats[i]


@functools.cache
def _leaf_kernels(cached: bool) -> Any:
    return LeafKernels(f"exponent_sum_{int(cached)}", _start, _value, DATA, points=True, cached=cached)


class ExponentSum(Evaluator):
    """``SCALE`` times the sum of an afterstate's exponents, as points to come; with ``gap``, it searches boards
    whose tiles above ``2 ** gap`` are halved (as a network downgrades)."""

    def __init__(self, cached: bool, gap: int | None = None) -> None:
        self.cached, self.gap = cached, gap

    @property
    def name(self) -> str:
        return "exponent sum"

    @property
    def values_points(self) -> bool:
        return True

    def value(self, board: Board) -> float:
        return SCALE * sum((board.bits >> (4 * k)) & 0xF for k in range(16))

    def explain(self, board: Board) -> Explanation:
        return Explanation(self.name, self.unit)

    def searched_board(self, board: Board) -> Board:
        if self.gap is None:
            return board
        return Board.from_rows(naive.halved(board.to_rows(), self.gap))

    def leaf(self, rows: int, cols: int) -> Leaf:
        return Leaf(_leaf_kernels(self.cached), (SCALE,), 0.0)


def naive_value(grid: list[list[int]]) -> float:
    return SCALE * sum(tile.bit_length() - 1 for row in grid for tile in row if tile)


@functools.cache
def table(formation: str = FORMATION, target: int = TARGET) -> Any:
    return solve_formation(Formation.parse(formation), target)


CAPPED = "xxx/x.T/2.."  # the bottom left cell holds tiles up to 4
"""A capped formation, solved for 16 (frozen tiles of 16 or more: ``CAPPED_FROZEN``)."""
CAPPED_FROZEN = (64, 32, 16, 128)


def board_of(region: list[int], frozen: tuple[int, int, int, int] = (32, 16, 8, 64)) -> Board:
    cells = iter(region)
    rows = [[frozen[FROZEN.index((r, c))] if (r, c) in FROZEN else next(cells) for c in range(3)] for r in range(3)]
    return Board.from_rows(rows)


regions = st.lists(st.sampled_from([0, 0, 2, 2, 4]), min_size=5, max_size=5).filter(lambda cells: any(cells))


@pytest.mark.kernel
@pytest.mark.parametrize("cached", [False, True])
@settings(max_examples=12, deadline=None)
@given(region=regions, depth=st.integers(1, 2), weight=st.sampled_from([0.5, 40.0]))
@example(region=[0, 4, 2, 0, 2], depth=2, weight=40.0)  # a table joins
def test_a_search_weighing_a_table_equals_the_naive_search(
    cached: bool, region: list[int], depth: int, weight: float
) -> None:
    board = board_of(region)
    leaves = TableLeaves(Advisor([table()]), weight)
    with Expectimax(depth=depth, workers=2, cutoff=0.0, evaluator=ExponentSum(cached), table_leaves=leaves) as ai:
        decision = ai.choose(board)
    grid = board.to_rows()
    joined = leaves.last is not None
    expected = naive.root_values(grid, depth, naive_value, weight if joined else 0.0, FROZEN, GOAL, TARGET)
    assert list(decision.values) == list(expected)
    for move, value in expected.items():  # table values are stored to within 7.6e-6
        assert decision.values[move] == pytest.approx(value, abs=weight * 1e-5 + 1e-9), move
    assert joined == (Advisor([table()]).advise(board) is not None)


@pytest.mark.kernel
@settings(max_examples=12, deadline=None)
@given(region=st.lists(st.sampled_from([0, 0, 2, 4, 8]), min_size=5, max_size=5), depth=st.integers(1, 2))
@example(region=[0, 8, 2, 0, 8], depth=2)  # a table joins
def test_a_search_weighing_a_capped_table_equals_the_naive_search(region: list[int], depth: int) -> None:
    board = board_of(region, frozen=CAPPED_FROZEN)
    advisor = Advisor([table(CAPPED, 16)])
    leaves = TableLeaves(advisor, 30.0)
    with Expectimax(depth=depth, workers=1, cutoff=0.0, evaluator=ExponentSum(True), table_leaves=leaves) as ai:
        decision = ai.choose(board)
    weight = 30.0 if leaves.last is not None else 0.0
    caps = (((2, 0), 4),)
    expected = naive.root_values(board.to_rows(), depth, naive_value, weight, FROZEN, GOAL, 16, caps=caps)
    assert decision.values == pytest.approx(expected, abs=1e-3)
    assert (leaves.last is not None) == (advisor.advise(board) is not None)


@pytest.mark.kernel
@settings(max_examples=8, deadline=None)
@given(region=regions, depth=st.integers(1, 2))
@example(region=[0, 4, 2, 0, 2], depth=2)  # a table joins
def test_with_a_downgrade_the_game_board_is_searched_and_the_evaluator_sees_the_leaves_halved(
    region: list[int], depth: int
) -> None:
    board = board_of(region, frozen=(128, 16, 8, 256))  # no 32 or 64: tiles above 64 halved
    leaves = TableLeaves(Advisor([table()]), 10.0)
    evaluator = ExponentSum(True, gap=6)
    assert _gap(board, evaluator.searched_board(board)) == 6
    with Expectimax(depth=depth, workers=1, cutoff=0.0, evaluator=evaluator, table_leaves=leaves) as ai:
        decision = ai.choose(board)
    if leaves.last is None:  # no move can build the target: the evaluator's search of the downgraded board
        assert decision.searched == evaluator.searched_board(board)
        return
    assert decision.searched is None  # the game's board itself
    expected = naive.root_values(board.to_rows(), depth, naive_value, 10.0, FROZEN, GOAL, TARGET, gap=6)
    assert decision.values == pytest.approx(expected, abs=1e-4)


def test_a_frozen_tile_that_slides_counts_zero_and_a_merge_down_the_chain_one() -> None:
    grid = board_of([0, 4, 0, 0, 2]).to_rows()
    slid = [[0, 16, 8], [32, 0, 4], [64, 0, 2]]  # the left column moved down
    merged = [[32, 16, 16], [64, 0, 0], [0, 2, 0]]  # an 8 built on the goal merged up
    assert naive.probability(slid, grid, FROZEN, GOAL, TARGET, 0.1) == 0.0
    assert naive.probability(merged, grid, FROZEN, GOAL, TARGET, 0.1) == 1.0
    leaves = TableLeaves(Advisor([table()]), 1.0)
    base = ExponentSum(False).leaf(3, 3)
    leaf = leaves.leaf(Board.from_rows(grid), Board.from_rows(grid), base)
    ints, floats = np.zeros(4 * leaf.scratch, dtype=np.int64), np.zeros(4)
    for after, p in ((slid, 0.0), (merged, 1.0)):
        bits = np.uint64(Board.from_rows(after).bits)
        leaf.kernels.start(bits, 3, 3, leaf.data, ints, floats, 2)
        assert leaf.kernels.value(leaf.data, ints, floats, 2) == naive_value(after) + p


def test_no_table_or_no_weight_leaves_the_search_as_it_was() -> None:
    fits = board_of([0, 4, 2, 0, 2])
    unfit = board_of([0, 4, 2, 0, 2], frozen=(32, 16, 4, 64))  # a frozen tile below the target
    for board, weight in ((fits, 0.0), (unfit, 50.0)):
        leaves = TableLeaves(Advisor([table()]), weight)
        with Expectimax(depth=2, workers=1, cutoff=0.0, evaluator=ExponentSum(True)) as plain:
            expected = plain.choose(board)
        with Expectimax(depth=2, workers=1, cutoff=0.0, evaluator=ExponentSum(True), table_leaves=leaves) as ai:
            decision = ai.choose(board)
        assert leaves.last is None
        assert decision.values == expected.values and decision.nodes == expected.nodes


def test_the_gap_of_a_halved_board() -> None:
    board = Board.parse("128 16 8/256 0 2/0 0 0")
    assert _gap(board, board) == -1
    assert _gap(board, Board.parse("64 16 8/128 0 2/0 0 0")) == 6
    assert _gap(board, Board.parse("64 16 8/256 0 2/0 0 0")) is None  # not every tile above the gap halved
    assert _gap(board, Board.parse("128 16 4/256 0 2/0 0 0")) is None  # not a halving at all


def test_an_agent_with_leaves_hands_the_tables_to_its_search() -> None:
    search = Expectimax(depth=1, workers=1, evaluator=ExponentSum(False))
    agent = SearchAgent(search, Advisor([table()]), table_use="leaves", weight=7.0)
    assert agent.tablebases is None and search.table_leaves is not None and search.table_leaves.weight == 7.0
    assert agent.name.endswith("+ endgame tables (leaves)")
    agent.choose(State.from_board(board_of([0, 4, 2, 0, 2])))
    assert agent.advice is None and agent.last is not None and agent.last.depth == 1
    assert search.table_leaves.last is not None and search.table_leaves.last.table.target == TARGET


@pytest.mark.parametrize("weight", [-1.0, float("nan"), float("inf"), True, "5"])
def test_a_bad_weight_is_one_clear_error(weight: Any) -> None:
    with pytest.raises(InvalidInputError, match="a table's weight at the leaves is a finite number"):
        TableLeaves(Advisor([table()]), weight)


def test_a_weight_without_leaves_is_refused() -> None:
    search = Expectimax(depth=1, workers=1, evaluator=ExponentSum(False))
    with pytest.raises(InvalidInputError, match="a weight is for table_use='leaves', not 'guard'"):
        SearchAgent(search, Advisor([table()]), table_use="guard", weight=5.0)


def test_table_leaves_must_be_table_leaves() -> None:
    with pytest.raises(InvalidInputError, match="table_leaves must be a TableLeaves, got Advisor"):
        Expectimax(depth=1, table_leaves=Advisor([table()]))  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="expected the tables as an Advisor, got list"):
        TableLeaves([table()])  # type: ignore[arg-type]
