"""ExactValues: afterstate values in bulk, against the naive lookup (``tests/naive/exact_values.py``) and
``Solution.afterstate_value``, on solutions of 2x2 and 2x3 made here; the errors at its boundary."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError, PlygroundError
from plyground.g2048 import Board, Solution, solve
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048.exact_values import ExactValues
from tests.g2048.strategies import grids
from tests.naive import exact_values as naive
from tests.naive import g2048
from tests.naive import solver_2048 as brute


@dataclass(frozen=True)
class Solved:
    """A solution made here, its exact values and its canonical states with their values."""

    solution: Solution
    exact: ExactValues
    table: dict[int, float]
    states: list[int]


# (rows, cols, p_four); the 2x2 ones also run with the JIT off (2x3 is too slow to solve as plain Python).
SIZES = [
    pytest.param((2, 2, 0.1), marks=pytest.mark.kernel, id="2x2"),
    pytest.param((2, 2, 1.0), marks=pytest.mark.kernel, id="2x2-fours"),
    pytest.param((2, 3, 0.1), id="2x3"),
    pytest.param((2, 3, 0.0), id="2x3-twos"),
]


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int, int, float], Solved]:
    """The solution of a size and what is read from it, made on first use."""
    base = tmp_path_factory.mktemp("solutions")
    made: dict[tuple[int, int, float], Solved] = {}

    def get(rows: int, cols: int, p_four: float) -> Solved:
        if (rows, cols, p_four) not in made:
            solution = solve(rows, cols, p_four=p_four, directory=base / f"{rows}x{cols}-{p_four}")
            table = state_table(solution)
            made[rows, cols, p_four] = Solved(solution, ExactValues(solution), table, sorted(table))
        return made[rows, cols, p_four]

    return get


def state_table(solution: Solution) -> dict[int, float]:
    """Every canonical state of ``solution`` with its value."""
    table = {}
    for counts in solution.counts():
        codes, values = solution.layer(counts.age)
        assert values is not None
        table.update(zip(codes.tolist(), values.tolist(), strict=True))
    return table


def afterstates(solved: Solved, every: int = 1) -> list[int]:
    """The afterstates of the legal moves of every ``every``-th canonical state, in bit form."""
    rows, cols = solved.solution.rows, solved.solution.cols
    return [after for state in solved.states[::every] for _, after, _ in brute.moves(state, rows, cols)]


Solve = Callable[[int, int, float], Solved]


@st.composite
def boards(draw: st.DrawFn, solved: Solved) -> list[int]:
    """1 to 8 boards: images of afterstates of the solution's states, and boards of small tiles (often unreachable)."""
    rows, cols = solved.solution.rows, solved.solution.cols
    found = []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.booleans()):
            grid = draw(grids(rows, cols).map(lambda g: [[min(tile, 8) for tile in row] for row in g]))
            found.append(g2048.to_bits(grid))
            continue
        moves = brute.moves(draw(st.sampled_from(solved.states)), rows, cols)
        if moves:
            after = draw(st.sampled_from(moves))[1]
            found.append(draw(st.sampled_from(list(brute.images(after, rows, cols)))))
    return found


@pytest.mark.parametrize("size", SIZES)
@given(data=st.data())
def test_the_kernel_values_afterstates_as_the_naive_lookup(
    solved: Solve, size: tuple[int, int, float], data: st.DataObject
) -> None:
    case = solved(*size)
    rows, cols, p_four = size
    bits = data.draw(boards(case))
    out = np.full(len(bits), np.nan)
    tables = case.exact.kernel_tables()
    missing = SK._afterstate_values(np.array(bits, dtype=np.uint64), rows, cols, p_four, *tables, out)
    expected = [naive.afterstate_value(b, rows, cols, p_four, case.table) for b in bits]
    assert out.tolist() == [value for value, _ in expected]
    assert missing == sum(lacking for _, lacking in expected)


@pytest.mark.kernel
@given(grids())
def test_tile_sum_is_the_age(grid: list[list[int]]) -> None:
    rows, cols = len(grid), len(grid[0])
    assert SK._tile_sum(np.uint64(g2048.to_bits(grid))) == brute.age(g2048.to_bits(grid), rows, cols)


@pytest.mark.parametrize("size", SIZES)
def test_the_values_are_the_solutions_afterstate_values(solved: Solve, size: tuple[int, int, float]) -> None:
    case = solved(*size)
    rows, cols, _ = size
    bits = afterstates(case, 1 if rows * cols == 4 else 13)
    assert len(bits) > 50
    images = [list(brute.images(b, rows, cols))[k % 4] for k, b in enumerate(bits)]  # not only canonical ones
    values = case.exact.afterstate_values(np.array(images, dtype=np.uint64))
    assert values.dtype == np.float64 and values.shape == (len(images),)
    assert values.tolist() == [case.solution.afterstate_value(Board(b, rows, cols)) for b in images]


def test_the_layers_lie_one_after_the_other(solved: Solve) -> None:
    case = solved(2, 2, 0.1)
    codes, values, starts = case.exact.kernel_tables()
    assert case.exact.states == codes.shape[0] == values.shape[0] == 110 == case.solution.totals().states
    assert case.exact.largest_age == 60 and starts.shape == (60 // 2 + 4,)
    for age in range(0, 66, 2):
        layer_codes, layer_values = case.solution.layer(age)
        lo, hi = starts[age // 2], starts[age // 2 + 1]
        assert codes[lo:hi].tolist() == layer_codes.tolist()
        assert layer_values is not None and values[lo:hi].tolist() == layer_values.tolist()
    assert starts[-1] == 110
    assert repr(case.exact).startswith("ExactValues(2x2, p_four=0.1, 110 states, ")


def test_any_array_of_boards_is_taken(solved: Solve) -> None:
    case = solved(2, 2, 0.1)
    assert case.exact.afterstate_values(np.empty(0, dtype=np.uint64)).shape == (0,)
    bits = np.array(afterstates(case), dtype=np.uint64)
    expected = case.exact.afterstate_values(bits).tolist()
    bits.setflags(write=False)
    assert case.exact.afterstate_values(bits).tolist() == expected  # read-only
    assert case.exact.afterstate_values(np.repeat(bits, 2)[::2]).tolist() == expected  # not contiguous


@pytest.mark.parametrize(
    ("boards", "error", "message"),
    [
        ([0x11], InvalidInputError, r"boards must be a 1-D numpy array of uint64, got \[17\]"),
        (np.array([0x11], dtype=np.int64), InvalidInputError, "got an array of int64 of shape"),
        (np.array([[0x11]], dtype=np.uint64), InvalidInputError, r"of shape \(1, 1\)"),
        (np.array([0x11, 0x1_0000_0000], dtype=np.uint64), InvalidBoardError, r"boards\[1\] = 0x100000000 has tiles "),
        (np.array([0x11, 0x21_0012], dtype=np.uint64), InvalidBoardError, r"boards\[1\] \(4 2/2 4\) has no empty cell"),
        (np.array([0xFF], dtype=np.uint64), InvalidBoardError, r"boards\[0\] \(32768 32768/0 0\) does not lead"),
        (np.array([0x11, 0], dtype=np.uint64), InvalidBoardError, r"boards\[1\] \(0 0/0 0\) does not lead to reach"),
        (np.array([0x11, 0x0066], dtype=np.uint64), InvalidBoardError, r"boards\[1\] \(64 64/0 0\) does not lead"),
    ],
)
def test_bad_boards_are_refused_naming_the_first(solved: Solve, boards: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        solved(2, 2, 0.1).exact.afterstate_values(boards)  # type: ignore[arg-type]


def test_only_a_solved_solution_is_taken(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="expected a Solution, got str"):
        ExactValues("2x2")  # type: ignore[arg-type]
    counted = solve(2, 2, directory=tmp_path / "counted", forward_only=True)
    with pytest.raises(PlygroundError, match="holds no values yet"):
        ExactValues(counted)


def test_a_layer_that_does_not_match_its_count_is_refused(solved: Solve, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged"
    shutil.copytree(solved(2, 2, 0.1).solution.directory, damaged)
    for kind in ("states", "values"):  # half the states of age 8 lost
        np.save(damaged / f"{kind}-0008.npy", np.load(damaged / f"{kind}-0008.npy")[::2])
    with pytest.raises(CorruptFileError, match=r"damaged: the layer of age 8 holds \d+ states, its count \d+"):
        ExactValues(Solution(damaged))
