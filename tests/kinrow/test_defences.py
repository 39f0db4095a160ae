"""Cell classes and the exact answers to threats, against rescans of the whole board (``tests/naive/defences.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import InvalidInputError
from plyground.kinrow import State
from plyground.kinrow import _pattern_kernels as P
from plyground.kinrow.cell_classes import CLASS_TABLE, CellClass, cell_class
from plyground.kinrow.defences import answers, threats
from plyground.kinrow.patterns import Pattern, PatternBoard
from plyground.kinrow.rules import Rule
from tests.naive import defences as naive

F2, B3, F3, B4, F4, F5, NONE = Pattern.F2, Pattern.B3, Pattern.F3, Pattern.B4, Pattern.F4, Pattern.F5, Pattern.NONE


def test_the_classes_are_named_weakest_first_as_the_twin_names_them() -> None:
    assert [c.name for c in CellClass] == list(naive.NAMES)
    assert cell_class((F3, F3, NONE, NONE)) is CellClass.DOUBLE_THREE
    assert cell_class((B4, B4, NONE, NONE)) is CellClass.OPEN_FOUR  # two fours: two fives to stop
    assert cell_class((B4, F3, NONE, NONE)) is CellClass.FOUR_THREE
    assert cell_class((B4, F2, NONE, NONE)) is CellClass.FOUR_PLUS
    assert cell_class((F3, B3, NONE, NONE)) is CellClass.OPEN_THREE_PLUS
    assert cell_class((B3, F2, NONE, NONE)) is CellClass.THREE_PLUS
    assert cell_class((F5, NONE, NONE, NONE)) is CellClass.FIVE
    assert cell_class((Pattern.OL, NONE, NONE, NONE)) is CellClass.NONE


@given(st.tuples(*[st.integers(0, P.NPAT - 1)] * 4))
@settings(max_examples=300, deadline=None)
def test_the_class_table_equals_the_twins_rules(codes: tuple[int, int, int, int]) -> None:
    index = ((codes[0] * P.NPAT + codes[1]) * P.NPAT + codes[2]) * P.NPAT + codes[3]
    assert CLASS_TABLE[index] == cell_class(codes) == naive.cell_class(codes)


def test_the_class_table_is_read_only() -> None:
    with pytest.raises(ValueError, match="read-only"):
        CLASS_TABLE[0] = 1


@st.composite
def boards(draw: st.DrawFn) -> State:
    """A gomoku-like position on a small board: random stones, no five on it yet."""
    n = draw(st.integers(6, 9))
    rule = draw(st.sampled_from([Rule.FREESTYLE, Rule.STANDARD]))
    state = State(n, 5, rule=rule)
    for move in draw(st.permutations(range(n * n)))[: draw(st.integers(0, n * n // 2))]:
        state.play(move)
        if state.is_over:
            state.undo()
            break
    return state


@pytest.mark.kernel
@given(boards(), st.sampled_from([1, 2]), st.sampled_from(list(CellClass)[1:]))
@settings(max_examples=80, deadline=None)
def test_threats_and_answers_equal_a_rescan_after_every_move(state: State, player: int, level: CellClass) -> None:
    cells, n, exact = state.cells.tolist(), state.n, state.rule is Rule.STANDARD
    board = PatternBoard(state)
    classes = naive.classes(cells, n, 5, exact, player)  # every cell's class, by a rescan
    for each in list(CellClass)[1:]:
        assert threats(board, player, each) == [cell for cell, value in classes.items() if value >= each]
    assert answers(board, player, level) == naive.answers(cells, n, 5, exact, player, level)
    assert board.cells.tolist() == cells  # every move was taken back


def test_an_open_three_is_answered_next_to_it_a_split_three_in_its_gap_too() -> None:
    rows = ["." * 11] * 4 + ["...XXX.....", "...O.......", "....O......"] + ["." * 11] * 4
    state = State.parse("/".join(rows), 5)
    board = PatternBoard(state)
    assert [state.name(c) for c in answers(board, 2, CellClass.OPEN_FOUR)] == ["c5", "g5"]
    rows = ["." * 11] * 4 + ["...XX.X....", "...O.......", "....O......"] + ["." * 11] * 4
    state = State.parse("/".join(rows), 5)
    assert [state.name(c) for c in answers(PatternBoard(state), 2, CellClass.OPEN_FOUR)] == ["c5", "f5", "h5"]


def test_a_four_three_threat_is_answered_on_its_cell_or_its_lines_and_fours_come_last() -> None:
    """X's b2 would make a four on row 2 (f2 blocks it) and an open three on column b: O must break one of them.

    b1 and b6 leave the three closed, b5 leaves the column no room for five, a2 the row none; b7 is too far.
    O's own fours (f9, i9, k9) answer nothing: they come last.
    """
    rows = ["", "..XXXO", ".X", ".X", "", "", "", "", "......OO.O."]
    state = State.parse("/".join(row.ljust(11, ".") for row in rows + [""] * 2), 5)
    board = PatternBoard(state)
    assert [state.name(c) for c in threats(board, 1, CellClass.FOUR_THREE)] == ["b2"]
    found = [state.name(c) for c in answers(board, 2, CellClass.FOUR_THREE)]
    assert found == ["b1", "a2", "b2", "b5", "b6", "f9", "i9", "k9"]


def test_with_no_threat_every_empty_cell_answers() -> None:
    state = State(7, 5)
    state.play(24)
    board = PatternBoard(state)
    assert threats(board, 1, CellClass.OPEN_FOUR) == []
    assert answers(board, 2, CellClass.OPEN_FOUR) == [c for c in range(49) if c != 24]


def test_bad_players_and_levels_are_refused() -> None:
    board = PatternBoard(State(7, 5))
    with pytest.raises(InvalidInputError, match="player must be 1 \\(X\\) or 2 \\(O\\), got 3"):
        threats(board, 3, CellClass.FOUR)
    with pytest.raises(InvalidInputError, match="level must be a cell class from TWO to FIVE, got 0"):
        answers(board, 1, 0)
    with pytest.raises(InvalidInputError, match="level must be a cell class from TWO to FIVE, got True"):
        answers(board, 1, True)
    assert np.array_equal(board.cells, np.zeros(49, dtype=np.int8))
