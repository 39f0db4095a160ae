"""The public Board API: parsing, moves against the hand-checked fixture and the naive engine, errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given

from plyground.errors import InvalidBoardError, InvalidInputError, UnknownDirectionError
from plyground.g2048 import DIRECTIONS, Board
from plyground.g2048 import _kernels as K
from plyground.g2048.board import RandomPlay, random_play
from tests.g2048.strategies import grids
from tests.naive import g2048 as naive

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "g2048_moves.txt"
CASES = naive.parse_cases(FIXTURE.read_text())


def test_fixture_is_not_empty() -> None:
    assert len(CASES) >= 40
    sizes = {(len(board), len(board[0])) for board, *_ in CASES}
    assert sizes == {(r, c) for r in range(2, 5) for c in range(2, 5)}


@pytest.mark.parametrize(("board", "direction", "result", "points"), CASES)
def test_fixture_moves(board: list[list[int]], direction: str, result: list[list[int]], points: int) -> None:
    moved, scored = Board.from_rows(board).move(direction)
    assert moved.to_rows() == result
    assert scored == points
    assert (direction in Board.from_rows(board).legal_moves()) == (result != board)


@given(grids())
def test_board_api_matches_naive(grid: list[list[int]]) -> None:
    board = Board.from_rows(grid)
    assert board.to_rows() == grid
    assert Board.parse(board.to_text()) == board
    assert Board.parse(str(board)) == board
    assert eval(repr(board)) == board
    assert board.shape == (len(grid), len(grid[0]))
    assert board.legal_moves() == naive.legal_moves(grid)
    assert board.is_terminal() == naive.is_terminal(grid)
    assert board.max_tile() == naive.max_tile(grid)
    assert board.empty_cells() == naive.empty_cells(grid)
    assert board.tile_sum() == sum(map(sum, grid))
    for direction in DIRECTIONS:
        moved, points = board.move(direction)
        expected, expected_points = naive.move(grid, direction)
        assert (moved.to_rows(), points) == (expected, expected_points)
        assert moved.tile_sum() == board.tile_sum()


@given(grids())
def test_spawn_outcomes_match_naive(grid: list[list[int]]) -> None:
    board = Board.from_rows(grid)
    outcomes = board.spawn_outcomes(p_four=0.25)
    assert [(o.cell, o.tile, pytest.approx(o.probability)) for o in outcomes] == naive.spawn_outcomes(grid, 0.25)
    for outcome in outcomes:
        assert outcome.board[outcome.cell] == outcome.tile
        assert outcome.board.tile_sum() == board.tile_sum() + outcome.tile
    if outcomes:
        assert sum(o.probability for o in outcomes) == pytest.approx(1.0)


def test_parse_forms() -> None:
    expected = Board.from_rows([[2, 0, 4], [0, 8, 0]])
    assert Board.parse("2 0 4/0 8 0") == expected
    assert Board.parse("2,.,4\n0,8,.") == expected
    assert Board.parse("\n  2 . 4\n  . 8 .\n") == expected
    assert str(expected) == "2 . 4\n. 8 ."
    assert expected.rows == 2 and expected.cols == 3


def test_equality_and_hashing() -> None:
    a = Board.parse("2 0/0 4")
    assert a == Board.parse("2 . / . 4") and hash(a) == hash(Board.parse("2 0/0 4"))
    assert a != Board.parse("2 0/0 8")
    # same bits on another size is another board
    assert Board(a.bits, 2, 2) != Board(a.bits, 3, 3)
    assert len({a, Board.parse("2 0/0 4"), Board.parse("4 0/0 2")}) == 2


def test_illegal_move_returns_same_board() -> None:
    board = Board.parse("2 4/8 16")
    assert board.legal_moves() == [] and board.is_terminal()
    for direction in DIRECTIONS:
        assert board.move(direction) == (board, 0)


def test_large_tiles_and_docs_rule() -> None:
    board = Board.parse("32768 32768/16384 16384")
    moved, points = board.move("left")
    assert moved.to_rows() == [[32768, 32768], [32768, 0]] and points == 32768
    assert moved.max_tile() == 32768


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2 3/0 0", "invalid tile 3 at row 1, column 2"),
        ("2 2 2/0 0", "row 2 has 2 cells but row 1 has 3"),
        ("/".join(["0 0 0 0 0"] * 5), "a 5x5 board is not supported"),
        ("2/4", "a 2x1 board"),
        ("2 x/0 0", "cannot read cell 'x'"),
        ("65536 0/0 0", "invalid tile 65536"),
        ("", "no rows"),
    ],
)
def test_bad_boards_name_the_bad_value(text: str, message: str) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        Board.parse(text)


def test_bad_board_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="invalid tile 1 "):
        Board.from_rows([[1, 0], [0, 0]])
    with pytest.raises(InvalidBoardError, match="outside a 2x2 board"):
        Board(1 << 8, 2, 2)


def test_unknown_direction() -> None:
    with pytest.raises(UnknownDirectionError, match=r"'north'.*up, right, down, left"):
        Board.empty().move("north")


@pytest.mark.parametrize(("rows", "cols", "p_four"), [(4, 4, 0.1), (2, 2, 0.0), (3, 4, 1.0), (2, 3, 0.5)])
def test_random_play_gives_what_the_kernel_and_the_naive_engine_give(rows: int, cols: int, p_four: float) -> None:
    played = random_play(3000, seed=11, rows=rows, cols=cols, p_four=p_four)
    threshold = np.uint64(naive.four_threshold(p_four))
    games, points, bits = K._random_play(3000, np.uint64(11), rows, cols, threshold)
    assert played == RandomPlay(int(games), int(points), Board(int(bits), rows, cols))
    assert (played.games, played.points, played.board.bits) == naive.random_play(3000, 11, rows, cols, p_four)
    assert random_play(0, seed=2**64 - 1).board.rows == 4 and random_play(0, seed=0).games == 0


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"moves": -1, "seed": 0}, InvalidInputError, "moves must be an integer from 0 to 2\\*\\*62, got -1"),
        ({"moves": 1.5, "seed": 0}, InvalidInputError, "got 1.5"),
        ({"moves": True, "seed": 0}, InvalidInputError, "got True"),
        ({"moves": 10, "seed": -3}, InvalidInputError, "seed must be an integer in \\[0, 2\\*\\*64\\), got -3"),
        ({"moves": 10, "seed": 2**64}, InvalidInputError, "got 18446744073709551616"),
        ({"moves": 10, "seed": None}, InvalidInputError, "got None"),
        ({"moves": 10, "seed": 0, "p_four": 1.5}, InvalidInputError, "p_four must be a probability in \\[0, 1\\]"),
        ({"moves": 10, "seed": 0, "rows": 5}, InvalidBoardError, "a 5x4 board is not supported"),
    ],
)
def test_random_play_refuses_bad_input(arguments: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        random_play(**arguments)
