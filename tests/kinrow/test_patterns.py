"""Line patterns: the tables against the recursive definition, and the pattern board against rescans."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import InvalidInputError
from plyground.kinrow import State
from plyground.kinrow import _pattern_kernels as P
from plyground.kinrow.patterns import Pattern, PatternBoard, fill_order, pattern_table, tables_for
from plyground.kinrow.rules import Rule
from tests.naive import patterns as naive


def decode(key: int) -> tuple[int, ...]:
    """The eleven cells of a line key, the centre (unknown to the key) as 0."""
    slots = [(key >> (2 * s)) & 3 for s in range(P.SLOTS)]
    return (*slots[:5], 0, *slots[5:])


def encode(line: tuple[int, ...]) -> int:
    cells = (*line[:5], *line[6:])
    return sum(v << (2 * s) for s, v in enumerate(cells))


@given(st.integers(0, P.KEYS - 1), st.integers(3, 5), st.sampled_from([1, 2]), st.booleans())
@settings(max_examples=400)
def test_tables_match_the_definition(key: int, k: int, own: int, exact: bool) -> None:
    assert pattern_table(k, own, exact)[key] == naive.line_code(decode(key), own, k, exact)


@pytest.mark.kernel
@pytest.mark.parametrize("k", [3, 4, 5])
@pytest.mark.parametrize("exact", [False, True])
def test_filling_matches_the_definition_on_every_key_of_a_short_line(k: int, exact: bool) -> None:
    """The kernel fills any set of keys closed under adding own stones: here, lines walled at two cells out."""
    inner = np.arange(4**6, dtype=np.int64)
    keys = 3 | (3 << 2) | (inner << 4) | (3 << 16) | (3 << 18)
    for own in (1, 2):
        table = np.full(P.KEYS, 255, dtype=np.uint8)
        P._fill_table(k, own, exact, table, fill_order(keys, own))
        expected = [naive.line_code(decode(int(key)), own, k, exact) for key in keys]
        assert table[keys].tolist() == expected


def test_known_lines() -> None:
    def code(text: str, k: int = 5, exact: bool = False) -> str:
        """``text`` is the eleven cells, ``*`` the centre; ``x`` own, ``o`` the other player, ``#`` the edge."""
        line = tuple({".": 0, "*": 0, "x": 1, "o": 2, "#": 3}[ch] for ch in text)
        return Pattern(pattern_table(k, 1, exact)[encode(line)]).name

    assert code("...xx*xx...") == "F5"
    assert code("..xxx*xx...") == "F5"
    assert code("..xxx*xx...", exact=True) == "OL"
    assert code("...xx*x....") == "F4"
    assert code("..oxx*x....") == "B4"
    assert code("...x.*xx...") == "B4"  # x.xxx: one five point
    assert code("....x*x....") == "F3"
    assert code("...ox*x....") == "B3"
    assert code("...x.*x....") == "F3"
    assert code("....o*x.o..") == "NONE"
    assert code("x.x.x*x.x.x") == "F4"  # two fives in one line
    assert code("....x*x....", k=3) == "F5"
    assert code("#...x*x...#", k=4) == "F4"


def test_tables_refuse_what_they_cannot_see() -> None:
    with pytest.raises(InvalidInputError, match="3 to 5"):
        pattern_table(6, 1, False)
    with pytest.raises(InvalidInputError, match="own"):
        pattern_table(5, 3, False)
    with pytest.raises(InvalidInputError, match="up to 5"):
        PatternBoard(State(9, 6))
    for shape in [(3, P.NPAT**4), (8, P.NPAT**4), (2, 100), (P.NPAT**4,)]:
        with pytest.raises(InvalidInputError, match="2, 4 or 6 rows"):
            PatternBoard(State(9, 5), np.zeros(shape, dtype=np.int64))
    for tables in [np.zeros((1, P.KEYS)), np.zeros((2, 100)), np.full((2, P.KEYS), P.NPAT)]:
        with pytest.raises(InvalidInputError, match=r"tables must be \[2, 1048576\] codes below 11"):
            PatternBoard(State(9, 5), tables=tables)


def test_the_packed_row_holds_both_codes() -> None:
    tables = tables_for(5, Rule.FREESTYLE)
    assert tables.shape == (3, P.KEYS) and tables[:2].max() < P.NPAT
    assert np.array_equal(tables[2] & 15, tables[0]) and np.array_equal(tables[2] >> 4, tables[1])


@st.composite
def games(draw: st.DrawFn) -> tuple[State, list[int]]:
    """A board, and cells to fill (then empty again in another order) on it."""
    n = draw(st.integers(5, 11))
    k = draw(st.integers(3, 5))
    cells = draw(st.permutations(range(n * n)))[: draw(st.integers(1, min(40, n * n)))]
    return State(n, k), list(cells)


def check(board: PatternBoard, tables: np.ndarray, weights: np.ndarray) -> None:
    """Every array of the board against a rescan of its cells."""
    n = board.n
    cells = board.cells.tolist()
    codes = [[0] * (n * n * 4) for _ in range(2)]
    counts = np.zeros((2, P.NPAT + 1), dtype=np.int64)
    totals = [0] * weights.shape[0]
    for cell in range(n * n):
        for d in range(4):
            key = encode(naive.line_of(cells, n, cell, d))
            assert board.keys[cell * 4 + d] == key
            for side in range(2):
                codes[side][cell * 4 + d] = int(tables[side, key])
                if cells[cell] == 0:
                    counts[side, tables[side, key]] += 1
                    assert board.pat[side, cell * 4 + d] == tables[side, key]
        if cells[cell] == 0:
            for row in range(weights.shape[0]):
                c0, c1, c2, c3 = codes[row % 2][cell * 4 : cell * 4 + 4]
                value = int(weights[row, ((c0 * 11 + c1) * 11 + c2) * 11 + c3])
                totals[row] += value
                if row < 2:
                    counts[row, P.HOT] += value >= P.HOT_VALUE
    assert board.cnt.tolist() == counts.tolist()
    assert board.tot.tolist() == totals
    assert board.near.tolist() == naive.near_counts(cells, n)
    zob = board.zob
    assert board.key == int(np.bitwise_xor.reduce([zob[i, v] for i, v in enumerate(cells) if v != 0] or [0]))


@pytest.mark.kernel
@given(games(), st.integers(0, 2**32), st.sampled_from([2, 6]))
@settings(max_examples=60, deadline=None)
def test_the_board_keeps_its_codes_through_place_and_remove(
    game: tuple[State, list[int]], seed: int, rows: int
) -> None:
    """With arbitrary tables and weights (of 2 or 6 rows): the kernels keep keys, codes, counts, totals,
    near counts and key."""
    state, cells = game
    rng = np.random.default_rng(seed)
    tables = rng.integers(0, P.NPAT, size=(2, P.KEYS), dtype=np.uint8)
    weights = rng.integers(-50, 2 * P.HOT_VALUE, size=(rows, P.NPAT**4), dtype=np.int64)
    rnd = random.Random(seed)
    board = PatternBoard(state, weights, tables=tables)
    check(board, tables, weights)
    for i, cell in enumerate(cells):
        board.place(cell, 1 + i % 2)
    check(board, tables, weights)
    for cell in rnd.sample(cells, len(cells)):
        board.remove(cell)
        if rnd.random() < 0.2:
            check(board, tables, weights)
    check(board, tables, weights)
    assert not board.cells.any()


@given(games())
@settings(max_examples=40, deadline=None)
def test_board_codes_are_the_line_codes(game: tuple[State, list[int]]) -> None:
    state, cells = game
    for cell in cells[:-1]:
        state.play(cell)
        if state.is_over:
            break
    board = PatternBoard(state)
    expected = naive.board_codes(state.cells.tolist(), state.n, state.k, (False, False))
    for cell in np.flatnonzero(state.cells == 0).tolist():
        for side in range(2):
            assert board.pat[side, cell * 4 : cell * 4 + 4].tolist() == expected[side][cell * 4 : cell * 4 + 4]
