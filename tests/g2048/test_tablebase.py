"""Endgame tables: formations, and solved values against a plain recursive expectimax (``tests/naive/tablebase.py``)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import InvalidBoardError, InvalidInputError
from plyground.g2048 import Board
from plyground.g2048 import _tablebase_kernels as TK
from plyground.g2048.tablebase import MAX_STATES, Formation, Tablebase, solve_formation
from tests.naive import tablebase as naive

# -- formations -----------------------------------------------------------------


def test_a_formation_reads_back_its_text() -> None:
    formation = Formation.parse("xxxx/xxxx/..../...T")
    assert formation.to_text() == "xxxx/xxxx/..../...T"
    assert (formation.rows, formation.cols, formation.goal, formation.region_size) == (4, 4, (3, 3), 8)
    assert formation.region == tuple((r, c) for r in (2, 3) for c in range(4))
    assert formation.frozen_mask == 0xFFFF_FFFF and formation.goal_shift == 60
    assert Formation.parse(" x./.T ").to_text() == "x./.T"  # 2x2, spaces around ignored


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("xxxx/xxxx/..../....", "exactly one goal cell T is needed, found 0"),
        ("xxxx/xxxx/..T./...T", "exactly one goal cell T is needed, found 2"),
        ("..../..../..../...T", "a formation needs frozen cells"),
        ("xxx/xxxx/..../...T", "rows of the same length"),
        ("xxxx//..../...T", "rows of the same length"),
        ("", "rows of the same length"),
        ("xxxx/xxxx/..o./...T", "'o' is not a cell"),
        ("xxxxx/xxxxx/...../....T", "cols must be from 2 to 4"),
        ("xT", "rows must be from 2 to 4"),
    ],
)
def test_a_bad_formation_is_refused_in_one_line(text: str, says: str) -> None:
    with pytest.raises(InvalidInputError, match=says) as info:
        Formation.parse(text)
    assert "\n" not in str(info.value)


def test_the_goal_must_be_a_free_cell_of_the_board() -> None:
    with pytest.raises(InvalidInputError, match="must be in the free region"):
        Formation(2, 2, ((0, 0), (1, 1)), (1, 1))
    with pytest.raises(InvalidInputError, match="is not on a 2x2 board"):
        Formation(2, 2, ((0, 0),), (2, 0))
    with pytest.raises(InvalidInputError, match="expected a formation's text"):
        Formation.parse(3)  # type: ignore[arg-type]


def test_caps_are_hexadecimal_digits_on_free_cells() -> None:
    capped = Formation.parse("xxxx/xx.T/7788/6677")
    assert capped.to_text() == "xxxx/xx.T/7788/6677" and capped.region_size == 10
    assert dict(capped.caps) == {(2, 0): 7, (2, 1): 7, (2, 2): 8, (2, 3): 8, (3, 0): 6, (3, 1): 6, (3, 2): 7, (3, 3): 7}
    assert capped.radix(9) == (9, 9, 8, 8, 9, 9, 7, 7, 8, 8) and capped.radix(7) == (7, 7, 7, 7, 7, 7, 7, 7, 7, 7)
    assert Formation.parse("xx/ET").to_text() == "xx/eT"  # upper case reads too
    mirrored = {image.to_text() for image in capped.images()}
    assert "xxxx/T.xx/8877/7766" in mirrored and len(mirrored) == 8
    assert solve_formation(Formation.parse("xx/3T"), 16).states == 4 * 4  # 3: tiles to 8, as the target's levels
    assert solve_formation(Formation.parse("xx/2T"), 16).states == 3 * 4


@pytest.mark.parametrize(
    ("formation", "says"),
    [
        (lambda: Formation(2, 2, ((0, 0),), (1, 1), (((1, 1), 3),)), "a cap must be on a free cell"),
        (lambda: Formation(2, 2, ((0, 0),), (1, 1), (((0, 0), 3),)), "a cap must be on a free cell"),
        (lambda: Formation(2, 2, ((0, 0),), (1, 1), (((1, 0), 1),)), "a cap is a tile's exponent from 2"),
        (lambda: Formation(2, 2, ((0, 0),), (1, 1), (((1, 0), 3), ((1, 0), 4))), "a cell has one cap at most"),
        (lambda: Formation.parse("xx/1T"), "'1' is not a cell"),
        (lambda: Formation(2, 2, ((0, 0),), (1, 1), (3,)), "caps are \\(\\(row, col\\), exponent\\) pairs"),
        (lambda: Formation.parse("xx/fT"), "'f' is not a cell"),
    ],
)
def test_a_bad_cap_is_refused_in_one_line(formation: Any, says: str) -> None:
    with pytest.raises(InvalidInputError, match=says) as info:
        formation()
    assert "\n" not in str(info.value)


def test_the_images_of_a_formation() -> None:
    corner = Formation.parse("xxxx/xxxx/..../...T")
    texts = {image.to_text() for image in corner.images()}
    assert corner.images()[0] == corner and len(texts) == 8
    assert "T.../..../xxxx/xxxx" in texts and "xx../xx../xx../xx.T" in texts
    assert len(Formation.parse("xx.T/xx../xx../xx..").images()) == 8
    assert {f.to_text() for f in Formation.parse("x../..T").images()} == {"x../..T", "..x/T..", "..T/x..", "T../..x"}


# -- moves ------------------------------------------------------------------------


def _bits_grid(formation: Formation, bits: int) -> naive.Grid:
    tiles = {(r, c): 1 << e for r, c in formation.region if (e := (bits >> (16 * r + 4 * c)) & 0xF)}
    return naive.grid_of(formation.to_text(), tiles)


@st.composite
def formations(draw: st.DrawFn, max_free: int = 6, caps: bool = False) -> Formation:
    """A formation of 2x2 to 4x4 cells with 1 to ``max_free`` free cells (never the whole board); with ``caps``,
    some free cells other than the goal capped at 4, 8 or 16."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    board = [(r, c) for r in range(rows) for c in range(cols)]
    free = draw(st.lists(st.sampled_from(board), min_size=1, max_size=min(max_free, rows * cols - 1), unique=True))
    goal = draw(st.sampled_from(free))
    capped = draw(st.lists(st.sampled_from(free), unique=True)) if caps else []
    cap_of = {cell: draw(st.integers(2, 4)) for cell in capped if cell != goal}
    return Formation(rows, cols, tuple(cell for cell in board if cell not in free), goal, tuple(cap_of.items()))


@pytest.mark.kernel
@given(formations(), st.data())
@settings(max_examples=150, deadline=None)
def test_moves_keep_the_frozen_cells_as_the_naive_game_does(formation: Formation, data: st.DataObject) -> None:
    tiles = data.draw(st.lists(st.integers(0, 11), min_size=formation.region_size, max_size=formation.region_size))
    bits = sum(e << (16 * r + 4 * c) for (r, c), e in zip(formation.region, tiles, strict=True))
    grid = _bits_grid(formation, bits)
    for d, direction in enumerate(naive.DIRECTIONS):
        after = int(TK._formation_move(np.uint64(bits), d, formation.rows, formation.cols,
                                       np.uint64(formation.frozen_mask)))  # fmt: skip
        expected = naive.move(grid, direction)
        if naive.allowed(grid, expected):
            assert _bits_grid(formation, after) == expected, direction
        else:
            assert after == bits, direction


@pytest.mark.kernel
@given(st.lists(st.integers(2, 6), min_size=1, max_size=6), st.data())
@settings(max_examples=60, deadline=None)
def test_indices_order_boards_by_tile_sum(radix: list[int], data: st.DataObject) -> None:
    """Every board of the region at its index (the exponents as digits of the cells' radices, cell 0 the lowest),
    the indices by tile sum and increasing within one, as a plain sort gives them."""
    while math.prod(radix) > 20_000:
        radix = radix[:-1]
    cells = len(radix)
    shifts = np.array(sorted(data.draw(st.lists(st.integers(0, 15), min_size=cells, max_size=cells, unique=True))),
                      dtype=np.int64) * 4  # fmt: skip
    states = math.prod(radix)
    digits = [list(reversed(ds)) for ds in itertools.product(*(range(r) for r in reversed(radix)))]
    assert [sum(d * math.prod(radix[:i]) for i, d in enumerate(ds)) for ds in digits] == list(range(states))
    sums = [sum(1 << e for e in ds if e) for ds in digits]
    array = np.array(radix, dtype=np.int64)
    counts = np.zeros(sum(1 << (r - 2) for r in radix) + 1, dtype=np.int64)
    assert TK._sum_order(array, counts, np.empty(0, dtype=np.uint32), counts) == states
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    order = np.empty(states, dtype=np.uint32)
    TK._sum_order(array, starts, order, counts)
    assert order.tolist() == sorted(range(states), key=lambda index: (sums[index], index))
    assert all(counts[s // 2] == sums.count(s) for s in set(sums))
    for index in data.draw(st.lists(st.integers(0, states - 1), max_size=30)):
        board = sum(e << int(shift) for e, shift in zip(digits[index], shifts, strict=True))
        assert int(TK._board_of(index, shifts, array)) == board
        assert TK._index(np.uint64(board), shifts, array) == index


# -- values -----------------------------------------------------------------------


def _board(formation: Formation, tiles: dict[tuple[int, int], int], big: int) -> Board:
    return Board.from_rows(
        [[tiles.get((r, c), 0) if (r, c) not in formation.frozen else big for c in range(formation.cols)]
         for r in range(formation.rows)]
    )  # fmt: skip


def _compare(table: Tablebase, tiles: dict[tuple[int, int], int]) -> None:
    formation, target, p_four = table.formation, table.target, table.p_four
    text = formation.to_text()
    grid, caps = naive.grid_of(text, tiles), naive.caps_of(text)
    board = _board(formation, tiles, 2 * target)
    assert table.value(board) == pytest.approx(naive.value(grid, formation.goal, target, p_four, caps), abs=1e-12)
    mine, theirs = table.move_values(board), naive.move_values(grid, formation.goal, target, p_four, caps)
    assert mine.keys() == theirs.keys()
    assert all(mine[move] == pytest.approx(theirs[move], abs=1e-12) for move in mine)


@pytest.mark.kernel
@given(st.sampled_from([8, 16, 32, 64]), st.sampled_from([0.0, 0.1, 0.5, 1.0]), st.data())
@settings(max_examples=30, deadline=None)
def test_values_equal_a_plain_expectimax_to_the_end(target: int, p_four: float, data: st.DataObject) -> None:
    """Random formations of up to six free cells (fewer for the larger targets: at most 5,000 states), targets up
    to 64: every state's value and move values, or a sample of 60 where there are more than 300."""
    levels = [0] + [1 << e for e in range(1, target.bit_length() - 1)]
    most = max(k for k in range(1, 7) if len(levels) ** k <= 5_000)
    formation = data.draw(formations(max_free=most))
    table = solve_formation(formation, target, p_four=p_four)
    assert table.states == len(levels) ** formation.region_size
    states = list(itertools.product(levels, repeat=formation.region_size))
    if len(states) > 300:
        states = data.draw(st.lists(st.sampled_from(states), min_size=60, max_size=60))
    for tiles in states:
        _compare(table, dict(zip(formation.region, tiles, strict=True)))


@pytest.mark.kernel
@given(st.sampled_from([16, 32, 64]), st.sampled_from([0.0, 0.1, 1.0]), st.data())
@settings(max_examples=25, deadline=None)
def test_capped_values_equal_a_plain_expectimax_to_the_end(target: int, p_four: float, data: st.DataObject) -> None:
    """Random formations with caps: the table holds each cell's tiles up to its cap, and a tile above a cap (from a
    move, a spawn, or on the board asked about) counts as a failure, as the plain expectimax counts it."""
    formation = data.draw(formations(max_free=5, caps=True))
    radix = formation.radix(target.bit_length() - 1)
    table = solve_formation(formation, target, p_four=p_four)
    assert table.states == math.prod(radix) and all(2 <= r <= target.bit_length() - 1 for r in radix)
    levels = [0] + [1 << e for e in range(1, target.bit_length() - 1)]
    cells = formation.region
    for _ in range(40):
        tiles = data.draw(st.lists(st.sampled_from(levels), min_size=len(cells), max_size=len(cells)))
        _compare(table, dict(zip(cells, tiles, strict=True)))


def test_a_corner_formation_against_the_plain_expectimax() -> None:
    table = solve_formation(Formation.parse("xxxx/xxxx/xx../..T."), 16)
    assert table.formation.region_size == 6
    for tiles in itertools.product([0, 2, 4, 8], repeat=6):
        _compare(table, dict(zip(table.formation.region, tiles, strict=True)))


def test_the_ends_of_a_game() -> None:
    table = solve_formation(Formation.parse("xx/.T"), 8, p_four=0.0)
    assert table.value(Board.parse("16 8/0 8")) == 1.0  # the target stands on the goal
    assert table.value(Board.parse("16 8/8 2")) == 0.0  # ...elsewhere
    assert table.value(Board.parse("16 8/4 4")) == 1.0  # right makes 8 on the goal
    assert table.move_values(Board.parse("16 8/4 4")) == {"right": 1.0, "left": 0.0}
    assert table.best_move(Board.parse("16 8/4 4")) == "right"
    assert table.move_values(Board.parse("16 8/2 4")) == {} and table.best_move(Board.parse("16 8/2 4")) is None
    assert "xx/.T" in repr(table) and "9 states" in repr(table)


def test_values_are_probabilities() -> None:
    table = solve_formation(Formation.parse("xxx/x../..T"), 16, p_four=0.1)
    region = table.formation.region
    values = [
        table.value(_board(table.formation, dict(zip(region, tiles, strict=True)), 32))
        for tiles in itertools.product([0, 2, 4, 8], repeat=len(region))
    ]
    assert all(0.0 <= value <= 1.0 for value in values)
    assert any(0.0 < value < 1.0 for value in values) and 0.0 in values and 1.0 in values


@pytest.mark.parametrize(
    ("target", "says"), [(3, "power of two"), (2, "from 4"), (65536, "to 32768"), (True, "a tile"), (8.0, "a tile")]
)
def test_a_bad_target_is_refused(target: object, says: str) -> None:
    with pytest.raises(InvalidInputError, match=says):
        solve_formation(Formation.parse("xx/.T"), target)  # type: ignore[arg-type]


def test_bad_solves_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="expected a Formation"):
        solve_formation("xx/.T", 8)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="p_four"):
        solve_formation(Formation.parse("xx/.T"), 8, p_four=1.5)
    with pytest.raises(InvalidInputError, match=f"more than the {MAX_STATES:,}"):
        solve_formation(Formation.parse("xxxx/xxx./..../...T"), 32768)  # 15 ** 9 states


def test_boards_that_do_not_fit_are_refused() -> None:
    table = solve_formation(Formation.parse("xx/.T"), 8)
    with pytest.raises(InvalidBoardError, match="does not fit the 2x2 formation"):
        table.value(Board.parse("2 0 0/0 0 0"))
    with pytest.raises(InvalidBoardError, match=r"row 1, column 2 holds 4: the frozen cells of xx/\.T must hold"):
        table.value(Board.parse("16 4/2 0"))
    with pytest.raises(InvalidBoardError, match="row 1, column 1 holds no tile"):
        table.move_values(Board.parse("0 16/2 0"))
    with pytest.raises(InvalidBoardError, match="expected a Board"):
        table.value("16 16/2 0")  # type: ignore[arg-type]


def test_the_chain_tile_follows_doubling_frozen_neighbours_from_the_goal() -> None:
    from plyground.g2048.tablebase import chain_tile
    from plyground.g2048.tablebase.advice import fitting_symmetries

    table = solve_formation(Formation.parse("xxxx/xxxx/...T/...."), 4)
    snake = Board.parse("64 128 256 512/32 16 8 4/0 0 0 0/0 0 2 0")
    assert chain_tile(table, snake, 0) == 1024  # 4 8 16 32 64 128 256 512: eight merges
    broken = Board.parse("64 128 256 512/2048 16 8 4/0 0 0 0/0 0 2 0")
    assert chain_tile(table, broken, 0) == 32  # 4 8 16, then 2048: the merges stop at 32
    assert chain_tile(table, Board.parse("64 128 256 512/32 16 8 8/0 0 0 0/0 0 2 0"), 0) == 4  # no 4 beside the goal
    turned = Board.from_rows([list(column) for column in zip(*snake.to_rows(), strict=True)])  # transposed
    (k,) = [k for k in fitting_symmetries(table, turned) if k != 0 and chain_tile(table, turned, k) > 4]
    assert chain_tile(table, turned, k) == 1024


def test_a_formation_fits_as_the_advisor_asks_a_table() -> None:
    from plyground.g2048.tablebase import Advisor, formation_fits

    formation = Formation.parse("xxx/x.T/2..")  # the bottom left cell holds tiles up to 4
    assert formation_fits(formation, 16, Board.parse("64 32 16/128 0 8/4 2 0")) == 0
    assert formation_fits(formation, 16, Board.parse("64 32 16/128 0 8/8 2 0")) is None  # an 8 above its cap
    assert formation_fits(formation, 16, Board.parse("64 32 32/128 0 8/4 2 0")) is None  # 16 not beside the goal
    assert formation_fits(formation, 16, Board.parse("64 16 16/128 0 8/4 2 0")) is None  # two frozen 16s merge
    assert formation_fits(formation, 16, Board.parse("64 32 16/128 0 16/4 2 0")) is None  # built already
    assert formation_fits(formation, 16, Board.parse("16 32 64/8 0 128/0 2 4")) == 1  # mirrored
    assert formation_fits(formation, 16, Board.parse("64 32 16 8/128 0 8 0/4 2 0 0/0 0 0 0")) is None  # 4x4
    table = solve_formation(formation, 16)
    advisor = Advisor([table])
    rng = np.random.default_rng(5)
    for _ in range(300):
        tiles = rng.choice([0, 2, 4, 8], size=5)
        board = Board.from_rows([[64, 32, 16], [128, int(tiles[0]), int(tiles[1])], [int(t) for t in tiles[2:]]])
        if advisor.advise(board) is not None:  # a table speaks only where its formation fits
            assert formation_fits(formation, 16, board) == 0
