"""Tests of the pure-Python 2048 reference engine against hand-checked data."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .g2048 import (
    DIRECTIONS,
    MAX_TILE,
    Grid,
    empty_cells,
    empty_grid,
    format_grid,
    four_threshold,
    from_bits,
    is_terminal,
    legal_moves,
    max_tile,
    move,
    parse_cases,
    parse_grid,
    random_play,
    slide_left,
    spawn_outcomes,
    spawn_with,
    splitmix64,
    to_bits,
)

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "g2048_moves.txt"
CASES = parse_cases(FIXTURE.read_text())
SIZES = [(r, c) for r in range(2, 5) for c in range(2, 5)]


def case_id(case: tuple[Grid, str, Grid, int]) -> str:
    board, direction, _, _ = case
    return f"{len(board)}x{len(board[0])}-{direction}-{format_grid(board)}"


# --------------------------------------------------------------------------
# Fixture
# --------------------------------------------------------------------------


def test_fixture_is_well_formed() -> None:
    assert len(CASES) >= 40
    sizes = set()
    for board, direction, result, points in CASES:
        assert direction in DIRECTIONS
        rows, cols = len(board), len(board[0])
        assert 2 <= rows <= 4 and 2 <= cols <= 4
        assert all(len(row) == cols for row in board)
        assert len(result) == rows and all(len(row) == cols for row in result)
        assert points % 4 == 0
        sizes.add((rows, cols))
    assert sizes == set(SIZES)
    assert {d for _, d, _, _ in CASES} == set(DIRECTIONS)
    assert any(board == result for board, _, result, _ in CASES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fixture_move(case: tuple[Grid, str, Grid, int]) -> None:
    board, direction, expected, expected_points = case
    before = [list(row) for row in board]
    result, points = move(board, direction)
    assert result == expected
    assert points == expected_points
    assert board == before  # the input is not modified
    assert (direction in legal_moves(board)) == (expected != board)


def test_parse_and_format_round_trip() -> None:
    text = "2 0 4/0 32768 0"
    grid = parse_grid(text)
    assert grid == [[2, 0, 4], [0, 32768, 0]]
    assert format_grid(grid) == text


# --------------------------------------------------------------------------
# slide_left and the other directions, checked against a second formulation
# --------------------------------------------------------------------------


def slide_left_by_index(line: list[int]) -> tuple[list[int], int]:
    """Classic in-place formulation with a 'merged' flag per cell."""
    cells = list(line)
    merged = [False] * len(cells)
    points = 0
    for i in range(1, len(cells)):
        if cells[i] == 0:
            continue
        j = i
        while j > 0 and cells[j - 1] == 0:
            cells[j - 1], cells[j] = cells[j], 0
            j -= 1
        if j > 0 and cells[j - 1] == cells[j] and not merged[j - 1] and cells[j] != MAX_TILE:
            cells[j - 1] *= 2
            cells[j] = 0
            merged[j - 1] = True
            points += cells[j - 1]
    return cells, points


tiles = st.sampled_from([0, 0, 0, 2, 4, 8, 16384, 32768] + [1 << e for e in range(1, 16)])


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    rows, cols = draw(st.sampled_from(SIZES))
    return [[draw(tiles) for _ in range(cols)] for _ in range(rows)]


@given(st.lists(tiles, min_size=2, max_size=4))
def test_slide_left_matches_index_formulation(line: list[int]) -> None:
    assert slide_left(line) == slide_left_by_index(line)


@given(st.lists(tiles, min_size=2, max_size=4))
def test_slide_left_conserves_tile_sum(line: list[int]) -> None:
    result, points = slide_left(line)
    assert len(result) == len(line)
    assert sum(result) == sum(line)
    assert result[len([v for v in result if v]) :] == [0] * result.count(0)
    assert points % 4 == 0


@given(grids())
def test_directions_match_cellwise_definition(grid: Grid) -> None:
    rows, cols = len(grid), len(grid[0])
    for direction in DIRECTIONS:
        result, points = move(grid, direction)
        expected = empty_grid(rows, cols)
        expected_points = 0
        if direction in ("left", "right"):
            for r in range(rows):
                order = list(range(cols))
                if direction == "right":
                    order.reverse()
                line, pts = slide_left_by_index([grid[r][c] for c in order])
                for c, v in zip(order, line, strict=True):
                    expected[r][c] = v
                expected_points += pts
        else:
            for c in range(cols):
                order = list(range(rows))
                if direction == "down":
                    order.reverse()
                line, pts = slide_left_by_index([grid[r][c] for r in order])
                for r, v in zip(order, line, strict=True):
                    expected[r][c] = v
                expected_points += pts
        assert result == expected
        assert points == expected_points


@given(grids())
def test_legal_moves_and_terminal(grid: Grid) -> None:
    legal = legal_moves(grid)
    assert legal == [d for d in DIRECTIONS if move(grid, d)[0] != grid]
    assert is_terminal(grid) == (legal == [])
    if empty_cells(grid):
        assert not is_terminal(grid) or all(v == 0 for row in grid for v in row)


def test_terminal_examples() -> None:
    assert is_terminal([[2, 4], [4, 2]])
    assert is_terminal([[32768, 32768], [32768, 32768]])
    assert not is_terminal([[2, 2], [4, 8]])
    assert is_terminal(empty_grid(3, 3))
    assert legal_moves([[2, 4, 0, 0], [8, 0, 0, 0]]) == ["right", "down"]
    assert legal_moves([[0, 0], [0, 2]]) == ["up", "left"]


def test_max_tile() -> None:
    assert max_tile(empty_grid(2, 2)) == 0
    assert max_tile([[2, 0, 4], [0, 32768, 0]]) == 32768


# --------------------------------------------------------------------------
# Bit form
# --------------------------------------------------------------------------


def test_to_bits_layout() -> None:
    assert to_bits(empty_grid(4, 4)) == 0
    assert to_bits([[2, 0], [0, 0]]) == 1
    assert to_bits([[0, 4], [0, 0]]) == 2 << 4
    assert to_bits([[0, 0], [8, 0]]) == 3 << 16
    grid = empty_grid(4, 4)
    grid[3][3] = 32768
    assert to_bits(grid) == 15 << 60
    assert to_bits([[2, 4, 8, 16]] + [[0] * 4] * 3) == 0x4321


def test_to_bits_rejects_bad_tiles() -> None:
    for bad in (1, 3, 6, 65536):
        with pytest.raises(ValueError):
            to_bits([[bad, 0], [0, 0]])


@given(grids())
def test_bits_round_trip(grid: Grid) -> None:
    bits = to_bits(grid)
    assert 0 <= bits < 2**64
    assert from_bits(bits, len(grid), len(grid[0])) == grid


def test_from_bits_ignores_nothing_inside_region() -> None:
    assert from_bits(0x4321, 2, 4) == [[2, 4, 8, 16], [0, 0, 0, 0]]
    assert from_bits(0xF << 60, 4, 4)[3][3] == 32768


# --------------------------------------------------------------------------
# Random stream and spawning (values worked out by hand)
# --------------------------------------------------------------------------


def test_splitmix64_known_values() -> None:
    state = 0
    outputs = []
    for _ in range(5):
        state, out = splitmix64(state)
        outputs.append(out)
    assert outputs == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
        0x1B39896A51A8749B,
    ]
    assert splitmix64(0)[0] == 0x9E3779B97F4A7C15
    assert splitmix64(2**64 - 0x9E3779B97F4A7C15)[0] == 0


def test_four_threshold() -> None:
    assert four_threshold(0.0) == 0
    assert four_threshold(0.1) == 429496729
    assert four_threshold(0.5) == 2**31
    assert four_threshold(1.0) == 2**32


def test_spawn_with() -> None:
    thr = four_threshold(0.1)
    empty = empty_grid(4, 4)
    # high half 0x80000000 picks k = 8 of 16 -> (2, 0); low half 5 < thr -> 4
    grid = spawn_with(empty, 0x80000000_00000005, thr)
    assert empty == empty_grid(4, 4)
    assert grid == from_bits(2 << 32, 4, 4)
    # all ones: k = 15 -> (3, 3); low half not below thr -> 2
    assert spawn_with(empty, 2**64 - 1, thr)[3][3] == 2
    assert spawn_with(empty, 2**64 - 1, 2**32)[3][3] == 4
    assert spawn_with(empty, 0, 0) == [[2, 0, 0, 0]] + [[0] * 4] * 3
    # two empty cells (0, 1) and (1, 0): k = 1 picks (1, 0)
    assert spawn_with([[2, 0], [0, 4]], 0x80000000_FFFFFFFF, thr) == [[2, 0], [2, 4]]
    assert spawn_with([[2, 0], [0, 4]], 0x7FFFFFFF_00000000, thr) == [[2, 4], [0, 4]]
    full = [[2, 4], [8, 16]]
    copy = spawn_with(full, 12345, thr)
    assert copy == full and copy is not full


def test_spawn_outcomes() -> None:
    outcomes = spawn_outcomes([[2, 0], [0, 4]], 0.1)
    assert outcomes == [
        ((0, 1), 2, 0.9 / 2),
        ((0, 1), 4, 0.1 / 2),
        ((1, 0), 2, 0.9 / 2),
        ((1, 0), 4, 0.1 / 2),
    ]
    assert spawn_outcomes([[2, 4], [8, 16]]) == []
    total = sum(p for _, _, p in spawn_outcomes(empty_grid(3, 4), 0.25))
    assert total == pytest.approx(1.0)


def test_empty_cells_reading_order() -> None:
    assert empty_cells([[0, 2, 0], [4, 0, 8]]) == [(0, 0), (0, 2), (1, 1)]


def test_random_play_start_and_first_move() -> None:
    # Seed 0: draw 1 puts a 2 at k = 14 -> (3, 2); draw 2 (15 empty cells)
    # gives k = 6 -> (1, 2), again a 2.
    start = 1 << 56 | 1 << 24
    assert random_play(0, 0, 4, 4, 0.1) == (0, 0, start)
    # Draw 3 ends in 0xF, & 3 = 3 -> "left": the 2s move to (1, 0) and (3, 0).
    # Draw 4 (14 empty cells) gives k = 13 -> (3, 3), a 2.
    assert random_play(1, 0, 4, 4, 0.1) == (0, 0, 1 << 16 | 1 << 48 | 1 << 60)
    # The seed is taken mod 2**64.
    assert random_play(1, 2**64, 4, 4, 0.1) == random_play(1, 0, 4, 4, 0.1)


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_random_play_invariants(rows: int, cols: int) -> None:
    games, points, bits = random_play(2000, 7, rows, cols, 0.1)
    grid = from_bits(bits, rows, cols)
    assert to_bits(grid) == bits
    assert points % 4 == 0
    assert any(v for row in grid for v in row)
    if rows * cols <= 6:
        assert games > 0
    assert random_play(2000, 7, rows, cols, 0.1) == (games, points, bits)


def test_random_play_restarts_with_two_spawns() -> None:
    # On a 2x2 board games end often; right after a restart at most two
    # tiles are present, so a replay that ends exactly then shows it.
    seen_restart = False
    previous = random_play(0, 3, 2, 2, 0.1)[0]
    for n in range(1, 200):
        games, _, bits = random_play(n, 3, 2, 2, 0.1)
        if games > previous:
            grid = from_bits(bits, 2, 2)
            assert sum(v != 0 for row in grid for v in row) == 2
            seen_restart = True
        previous = games
    assert seen_restart
