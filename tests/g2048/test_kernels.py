"""Every kernel against its slow twin in ``tests/naive/g2048.py``, on random boards of every size.

Run once more with ``NUMBA_DISABLE_JIT=1`` (see ``tests/test_kernels_without_jit.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.g2048 import _kernels as K
from tests.g2048.strategies import grids, sizes, words
from tests.naive import g2048 as naive

pytestmark = pytest.mark.kernel  # every test here checks kernels against their naive twins


def _bits(grid: list[list[int]]) -> np.uint64:
    return np.uint64(naive.to_bits(grid))


def _shape(grid: list[list[int]]) -> tuple[int, int]:
    return len(grid), len(grid[0])


@given(grids())
def test_move_and_points_match_naive(grid: list[list[int]]) -> None:
    rows, cols = _shape(grid)
    for d, name in enumerate(naive.DIRECTIONS):
        expected, points = naive.move(grid, name)
        assert int(K._move(_bits(grid), d, rows, cols)) == naive.to_bits(expected), name
        assert int(K._points(_bits(grid), d, rows, cols)) == points, name


@given(grids())
def test_legal_moves_and_terminal_match_naive(grid: list[list[int]]) -> None:
    rows, cols = _shape(grid)
    mask = int(K._legal_mask(_bits(grid), rows, cols))
    assert [name for d, name in enumerate(naive.DIRECTIONS) if mask >> d & 1] == naive.legal_moves(grid)
    assert bool(K._is_terminal(_bits(grid), rows, cols)) == naive.is_terminal(grid)


@given(grids())
def test_afterstate_empties_match_naive(grid: list[list[int]]) -> None:
    rows, cols = _shape(grid)
    expected = []
    for name in naive.DIRECTIONS:
        after, _ = naive.move(grid, name)
        expected.append(len(naive.empty_cells(after)) if after != grid else -1)
    assert list(K._afterstate_empties(_bits(grid), rows, cols)) == expected


@given(grids())
def test_empty_cells_match_naive(grid: list[list[int]]) -> None:
    rows, cols = _shape(grid)
    empty = int(K._empty_bits(_bits(grid), rows, cols))
    cells = [(r, c) for r in range(rows) for c in range(cols) if empty >> (16 * r + 4 * c) & 1]
    assert cells == naive.empty_cells(grid)
    assert int(K._count_empty(_bits(grid), rows, cols)) == len(cells)
    assert empty & ~sum(1 << (16 * r + 4 * c) for r, c in cells) == 0


@given(words)
def test_transpose_matches_naive(word: int) -> None:
    grid = naive.from_bits(word, 4, 4)
    assert int(K._transpose(np.uint64(word))) == naive.to_bits(naive.transpose(grid))
    assert int(K._transpose(K._transpose(np.uint64(word)))) == word


@given(words)
def test_popcount(word: int) -> None:
    assert int(K._popcount(np.uint64(word))) == bin(word).count("1")


@given(words)
def test_mix64_matches_splitmix(state: int) -> None:
    new_state, output = naive.splitmix64(state)
    assert int(K._mix64(np.uint64(new_state))) == output


@given(grids(), words, st.sampled_from([0.0, 0.1, 0.5, 1.0]))
def test_spawn_matches_naive(grid: list[list[int]], rnd: int, p_four: float) -> None:
    rows, cols = _shape(grid)
    threshold = naive.four_threshold(p_four)
    spawned = K._spawn_with(_bits(grid), np.uint64(rnd), np.uint64(threshold), rows, cols)
    assert int(spawned) == naive.to_bits(naive.spawn_with(grid, rnd, threshold))


@given(sizes, st.integers(0, 400), words, st.sampled_from([0.0, 0.1, 0.9]))
def test_random_play_matches_naive(size: tuple[int, int], n_moves: int, seed: int, p_four: float) -> None:
    rows, cols = size
    threshold = np.uint64(naive.four_threshold(p_four))
    games, points, board = K._random_play(n_moves, np.uint64(seed), rows, cols, threshold)
    assert (int(games), int(points), int(board)) == naive.random_play(n_moves, seed, rows, cols, p_four)


def test_random_play_restarts_games_on_small_boards() -> None:
    games, points, _ = K._random_play(2000, np.uint64(5), 2, 2, np.uint64(naive.four_threshold(0.1)))
    assert int(games) > 10  # a 2x2 game lasts a few dozen moves at most
    assert (int(games), int(points)) == naive.random_play(2000, 5, 2, 2, 0.1)[:2]


def test_32768_tiles_never_merge() -> None:
    grid = [[32768, 32768, 0, 0], [16384, 16384, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    moved = int(K._move(_bits(grid), 3, 4, 4))
    assert naive.from_bits(moved, 4, 4)[:2] == [[32768, 32768, 0, 0], [32768, 0, 0, 0]]
    assert int(K._points(_bits(grid), 3, 4, 4)) == 32768
