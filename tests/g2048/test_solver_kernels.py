"""The solver's kernels against the naive twins of ``tests/naive``, on random boards of every size."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.g2048 import _solver_kernels as SK
from tests.g2048.strategies import grids
from tests.naive import g2048 as naive
from tests.naive import solver_2048 as brute

pytestmark = pytest.mark.kernel  # every test here checks kernels against their naive twins

codes = st.lists(st.integers(0, 2**64 - 1), max_size=60)


def _size(grid: list[list[int]]) -> tuple[int, int]:
    return len(grid), len(grid[0])


@given(grids())
def test_mirrors_match_grid_flips(grid: list[list[int]]) -> None:
    rows, cols = _size(grid)
    bits = np.uint64(naive.to_bits(grid))
    assert int(SK._mirror_cols(bits, rows, cols)) == naive.to_bits(brute.flip_left_right(grid))
    assert int(SK._mirror_rows(bits, rows)) == naive.to_bits(brute.flip_up_down(grid))


@given(grids())
def test_canonical_and_orbit_size_match_naive(grid: list[list[int]]) -> None:
    rows, cols = _size(grid)
    bits = naive.to_bits(grid)
    assert int(SK._canonical(np.uint64(bits), rows, cols)) == brute.canonical(bits, rows, cols)
    assert int(SK._orbit_size(np.uint64(bits), rows, cols)) == len(set(brute.images(bits, rows, cols)))


@given(st.lists(grids(3, 3), max_size=20))
def test_orbit_total_adds_the_orbit_sizes(grids_: list[list[list[int]]]) -> None:
    boards = np.array([naive.to_bits(g) for g in grids_], dtype=np.uint64)
    expected = sum(len(set(brute.images(int(b), 3, 3))) for b in boards)
    assert SK._orbit_total(boards, 3, 3) == expected


@given(st.data(), st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3)]))
def test_spawn_layer_lists_every_spawn_canonically(data: st.DataObject, size: tuple[int, int]) -> None:
    rows, cols = size
    grids_ = data.draw(st.lists(grids(rows, cols), max_size=8))
    boards = np.array([naive.to_bits(g) for g in grids_], dtype=np.uint64)
    for exponent, tile in ((1, 2), (2, 4)):
        out = np.empty(SK._count_spawns(boards, rows, cols), dtype=np.uint64)
        n = SK._spawn_layer(boards, np.uint64(exponent), rows, cols, out)
        expected = []
        for grid in grids_:
            for r, c in naive.empty_cells(grid):
                spawned = [list(row) for row in grid]
                spawned[r][c] = tile
                expected.append(brute.canonical(naive.to_bits(spawned), rows, cols))
        assert n == out.shape[0] == len(expected)
        assert sorted(out.tolist()) == sorted(expected)


@given(st.data(), st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (4, 3)]))
def test_move_layer_lists_every_afterstate_and_counts_terminal_states(
    data: st.DataObject, size: tuple[int, int]
) -> None:
    rows, cols = size
    # Full boards of small tiles are often terminal; mix them with anything.
    full = grids(rows, cols).filter(lambda g: not naive.empty_cells(g))
    grids_ = data.draw(st.lists(st.one_of(grids(rows, cols), full), max_size=8))
    boards = np.array([naive.to_bits(g) for g in grids_], dtype=np.uint64)
    out = np.empty(4 * len(grids_), dtype=np.uint64)
    n, terminal, terminal_boards = SK._move_layer(boards, rows, cols, out)
    expected = [brute.canonical(after, rows, cols) for b in boards for _, after, _ in brute.moves(int(b), rows, cols)]
    dead = [int(b) for b in boards if not brute.moves(int(b), rows, cols)]
    assert sorted(out[:n].tolist()) == sorted(expected)
    assert terminal == len(dead)
    assert terminal_boards == sum(len(set(brute.images(b, rows, cols))) for b in dead)


@given(grids())
def test_dense_packing_round_trips_and_keeps_cells_in_reading_order(grid: list[list[int]]) -> None:
    rows, cols = _size(grid)
    bits = np.array([naive.to_bits(grid)], dtype=np.uint64)
    packed, back = np.empty_like(bits), np.empty_like(bits)
    SK._pack_dense(bits, rows, cols, packed)
    SK._unpack_dense(packed, rows, cols, back)
    exponents = [(tile.bit_length() - 1 if tile else 0) for row in grid for tile in row]
    assert int(packed[0]) == sum(e << (4 * i) for i, e in enumerate(exponents))
    assert back.tolist() == bits.tolist()


@given(codes)
def test_unique_sorted_drops_repeats(values: list[int]) -> None:
    array = np.sort(np.array(values, dtype=np.uint64))
    n = SK._unique_sorted(array)
    assert array[:n].tolist() == sorted(set(values))


@given(codes, codes)
def test_merge_unique_is_the_sorted_union(a: list[int], b: list[int]) -> None:
    left = np.array(sorted(set(a)), dtype=np.uint64)
    right = np.array(sorted(set(b)), dtype=np.uint64)
    out = np.empty(left.shape[0] + right.shape[0], dtype=np.uint64)
    n = SK._merge_unique(left, right, out)
    assert out[:n].tolist() == sorted(set(a) | set(b))


@given(codes, st.integers(0, 2**64 - 1))
def test_find_gives_the_index_or_minus_one(values: list[int], key: int) -> None:
    array = np.array(sorted(set(values)), dtype=np.uint64)
    for probe in [key, *values[:3]]:
        expected = array.tolist().index(probe) if probe in array.tolist() else -1
        assert SK._find(array, np.uint64(probe)) == expected
