"""A third evaluator, made of leaf kernels alone: the one search compiles for it and values as a plain recursion does.

The evaluator here values an afterstate by ``SCALE`` per empty cell; with ``points`` a move adds the points it
scores (as a network's search does), and with ``cached`` the leaves' values are kept in the transposition table.
Each setting is checked against a naive expectimax written out below.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import types

from plyground._jit import kernel
from plyground.g2048 import Board
from plyground.g2048._kernels import _empty_bits, _popcount
from plyground.g2048._search_kernels import LeafKernels, signature_start, signature_value
from plyground.g2048.evaluator import Evaluator, Explanation, Leaf
from plyground.g2048.expectimax import Expectimax
from tests.g2048.strategies import grids
from tests.naive import g2048 as naive
from tests.naive.expectimax_2048 import with_tile

DATA = types.UniTuple(types.float64, 1)
SCALE = 3.5
LOST = -100.0


@kernel(signature_start(DATA), inline=True)
def _start(after, rows, cols, data, ints, floats, i):  # type: ignore[no-untyped-def]
    floats[i] = data[0] * _popcount(_empty_bits(after, rows, cols))


@kernel(signature_value(DATA), inline=True)
def _value(data, ints, floats, i):  # type: ignore[no-untyped-def]
    return floats[i]


class EmptyCells(Evaluator):
    """``SCALE`` per empty cell of an afterstate."""

    def __init__(self, points: bool, cached: bool) -> None:
        self.points, self.cached = points, cached

    @property
    def name(self) -> str:
        return "empty cells"

    @property
    def values_points(self) -> bool:
        return self.points

    def value(self, board: Board) -> float:
        return SCALE * len(board.empty_cells())

    def explain(self, board: Board) -> Explanation:
        return Explanation(self.name, self.unit, self.value(board))

    def leaf(self, rows: int, cols: int) -> Leaf:
        return Leaf(_leaf_kernels(self.points, self.cached), (SCALE,), 0.0 if self.points else LOST)


@functools.cache
def _leaf_kernels(points: bool, cached: bool) -> Any:
    name = f"empty_cells_{int(points)}{int(cached)}"
    return LeafKernels(name, _start, _value, DATA, points=points, cached=cached)


def naive_move(grid: list[list[int]], direction: str, depth: int, points: bool, lost: float) -> float:
    """The worth of a move: its points (with ``points``) and the expected worth of its afterstate."""
    after, scored = naive.move(grid, direction)
    return (scored if points else 0) + naive_chance(after, depth - 1, points, lost)


def naive_chance(after: list[list[int]], depth: int, points: bool, lost: float) -> float:
    if depth <= 0:
        return SCALE * sum(v == 0 for row in after for v in row)
    cells = naive.empty_cells(after)
    total = 0.0
    for cell in cells:
        for tile, p in ((2, 0.9), (4, 0.1)):
            spawned = with_tile(after, cell, tile)
            moves = naive.legal_moves(spawned)
            best = max(naive_move(spawned, d, depth, points, lost) for d in moves) if moves else lost
            total += p * best
    return total / len(cells)


@pytest.mark.kernel
@pytest.mark.parametrize(("points", "cached"), [(False, False), (False, True), (True, False), (True, True)])
@settings(max_examples=15, deadline=None)
@given(grid=st.integers(2, 3).flatmap(lambda rows: grids(rows, 3)), depth=st.integers(1, 3))
def test_a_search_with_new_leaf_kernels_equals_the_naive_search(
    points: bool, cached: bool, grid: list[list[int]], depth: int
) -> None:
    board = Board.from_rows(grid)
    evaluator = EmptyCells(points, cached)
    with Expectimax(depth=depth, workers=2, cutoff=0.0, evaluator=evaluator) as ai:
        decision = ai.choose(board)
    lost = 0.0 if points else LOST
    expected = {d: naive_move(grid, d, depth, points, lost) for d in naive.legal_moves(grid)}
    assert list(decision.values) == list(expected)
    for move, value in expected.items():
        assert decision.values[move] == pytest.approx(value, rel=1e-12, abs=1e-9), move


def test_kept_leaves_are_read_back_and_change_no_value() -> None:
    board = Board(0x0000001000201232)
    decisions = {}
    for cached in (False, True):
        with Expectimax(depth=4, workers=1, cutoff=0.0, evaluator=EmptyCells(True, cached)) as ai:
            decisions[cached] = ai.choose(board)
    assert decisions[True].values == decisions[False].values
    assert decisions[True].nodes == decisions[False].nodes
    assert decisions[True].evaluations < decisions[False].evaluations  # leaves met again are read, not valued
    assert decisions[True].tt_hits > decisions[False].tt_hits


def test_only_the_searches_of_the_packages_leaf_kernels_are_cached() -> None:
    """A search compiled for leaf kernels from outside plyground is compiled anew in each process (no stale cache)."""
    from plyground.g2048 import _heuristic_kernels as HK
    from plyground.g2048 import _search_kernels as S

    ours, theirs = S.search_kernel(HK.LEAF), S.search_kernel(_leaf_kernels(False, False))
    assert type(ours._cache).__name__ == "FunctionCache"
    assert type(theirs._cache).__name__ == "NullCache"
