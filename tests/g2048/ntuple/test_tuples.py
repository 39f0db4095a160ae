"""The tuples of a network: the defaults of every board, their checks, the stage tiles."""

from __future__ import annotations

import pytest

from plyground.errors import InvalidBoardError, InvalidInputError
from plyground.g2048.ntuple import (
    DEFAULT_TUPLES,
    MAX_TUPLE_SIZE,
    NTupleNetwork,
    check_tuples,
    default_tuples,
)
from tests.g2048.ntuple import SMALL

SIZES = [(r, c) for r in range(2, 5) for c in range(2, 5)]


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_default_tuples_fit_every_board(rows: int, cols: int) -> None:
    tuples = default_tuples(rows, cols)
    assert check_tuples(tuples, rows, cols) == tuples
    assert all(len(cells) <= (6 if rows * cols >= 12 else 5) for cells in tuples)
    if rows > cols:
        assert tuples == tuple(tuple((c, r) for r, c in cells) for cells in default_tuples(cols, rows))


@pytest.mark.parametrize(
    ("tuples", "message"),
    [
        ([[(0, 0), (4, 0)]], "tuples[0] has cell (4, 0) outside the 4x4 board"),
        ([[(0, 0)], [(0, 1), (0, 1)]], "tuples[1] has cell (0, 1) twice"),
        ([[(0, 0)], []], "tuples[1] has 0 cells"),
        ([[(r, c) for r in range(3) for c in range(3)]], f"has 9 cells: a tuple has 1 to {MAX_TUPLE_SIZE}"),
        ([[(0, c) for c in range(4)] + [(1, c) for c in range(4)]], "1 tuples need 4,294,967,296 weights"),
        ([[(0, 0, 1)]], "tuples[0] has cell (0, 0, 1)"),
        ([[(0, True)]], "a cell is a (row, col) pair of integers"),
        ([[(-1, 0)]], "cell (-1, 0) outside"),
        ([], "non-empty list"),
        ("0,0", "non-empty list"),
        ([[(r, c) for r in range(2) for c in range(3)]] * 80, "weights: at most"),
    ],
)
def test_bad_tuples_are_refused_in_one_line(tuples: object, message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        NTupleNetwork(4, 4, tuples)  # type: ignore[arg-type]
    assert message in str(info.value) and "\n" not in str(info.value)


def test_tuples_must_fit_a_smaller_board() -> None:
    with pytest.raises(InvalidInputError, match=r"cell \(0, 3\) outside the 3x3 board"):
        NTupleNetwork(3, 3, DEFAULT_TUPLES)
    with pytest.raises(InvalidBoardError):
        NTupleNetwork(5, 4)


@pytest.mark.parametrize(
    ("stage_tiles", "message"),
    [
        ("8192", "stage tiles must be a list of tiles"),
        ([3], "stage tile 3 is not a power of two from 4 to 1024 (the largest tile of 3x3)"),
        ([2], "stage tile 2 is not a power of two"),
        ([2048], "stage tile 2048 is not a power of two from 4 to 1024"),
        ([True], "stage tile True"),
        ([64, 64], "stage tiles must increase: 64 comes after 64"),
        ([4, 8, 16, 32, 64, 128, 256, 512], "8 stage tiles make 9 stages: at most 8 are allowed"),
    ],
)
def test_bad_stage_tiles_are_refused_in_one_line(stage_tiles: object, message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        NTupleNetwork(3, 3, SMALL, stage_tiles=stage_tiles)  # type: ignore[arg-type]
    assert message in str(info.value) and "\n" not in str(info.value)
