"""The k-in-a-row state: rules, play and undo, keys, text, errors; the win kernels against the naive twin."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.core.symmetry import SYMMETRIES
from plyground.errors import IllegalMoveError, InvalidBoardError, InvalidInputError, NothingToUndoError
from plyground.kinrow import DRAW, O, State, X
from tests.naive import kinrow as naive


@st.composite
def positions(draw: st.DrawFn) -> State:
    """A position of a game in progress, reached by random moves."""
    n = draw(st.integers(3, 9))
    k = draw(st.integers(3, min(n, 6)))
    state = State(n, k)
    for move in draw(st.permutations(range(n * n)))[: draw(st.integers(0, n * n))]:
        if state.is_over:
            break
        state.play(move)
    return state


@pytest.mark.kernel
@given(positions())
def test_winning_moves_match_the_naive_twin(state: State) -> None:
    cells = state.cells.tolist()
    for player in (X, O):
        expected = [i for i in range(state.n**2) if cells[i] == 0 and naive.wins_at(cells, state.n, state.k, i, player)]
        assert state.winning_moves(player) == expected


@pytest.mark.kernel
@given(positions())
def test_result_follows_the_rules(state: State) -> None:
    cells = state.cells.tolist()
    if state.result in (X, O):
        last = state.history[-1]
        assert cells[last] == state.result and naive.wins_at(cells, state.n, state.k, last, state.result)
    elif state.result == DRAW:
        assert 0 not in cells
    else:
        assert 0 in cells and state.legal_moves() == [i for i, v in enumerate(cells) if v == 0]


@given(positions())
def test_undo_restores_everything_and_keys_follow_the_position(state: State) -> None:
    if not state.history:
        return
    before = state.copy()
    move = state.undo()
    assert move == before.history[-1] and state.result is None
    state.play(move)
    assert state.key == before.key and state.canonical_key == before.canonical_key
    assert np.array_equal(state.cells, before.cells) and state.result == before.result
    # The same stones in another order (X's first two moves swapped): the same key.
    if len(state.history) >= 4 and state.result is None:
        moves = list(state.history)
        moves[0], moves[2] = moves[2], moves[0]
        assert State.from_moves(state.n, state.k, moves).key == state.key


@given(positions())
def test_the_canonical_key_is_shared_by_the_8_images(state: State) -> None:
    n = state.n
    board = state.cells.reshape(n, n)
    keys = set()
    for symmetry in SYMMETRIES:
        image = symmetry.board(board)
        text = "/".join("".join(".XO"[v] for v in row) for row in image)
        other = State.parse(text, state.k)
        keys.add(other.canonical_key)
    assert keys == {state.canonical_key}


def test_a_game_of_tic_tac_toe() -> None:
    state = State(3, 3)
    for move in (4, 0, 8, 2):
        state.play(move)
    assert state.winning_moves() == [] and state.winning_moves(O) == [1]
    state.play(1)
    assert state.to_move == O and state.result is None
    state.play(6)
    state.play(7)
    assert state.result == X and state.is_over and state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.play(3)


def test_k_or_more_wins() -> None:
    state = State.parse("XX.XX/OOOO./...../...../.....", 4)  # O has four: the game is already won
    assert state.result == O
    state = State.parse("XX.XX/OOO../...O./...../.....", 5)
    state.play(2)  # five X in a row, also more than k = 4 would need
    assert state.result == X


def test_text_and_moves() -> None:
    state = State.parse("X../.O./...", 3)
    assert state.to_text() == "X../.O./..." and state.to_move == X
    assert str(state).splitlines() == ["   a b c", " 1 X . .", " 2 . O .", " 3 . . ."]
    assert state.parse_move("c2") == 5 == state.parse_move("1,2") == state.parse_move(" C2 ")
    assert state.name(5) == "c2" and state.coords(5) == (1, 2) and state.index(1, 2) == 5
    assert repr(state) == "State(n=3, k=3, 'X../.O./...')"


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: State(2, 2), InvalidInputError, "n must be"),
        (lambda: State(21, 5), InvalidInputError, "n must be"),
        (lambda: State(5, 6), InvalidInputError, "k must be"),
        (lambda: State(3, 3).play(9), IllegalMoveError, "not a cell"),
        (lambda: State(3, 3).play(True), IllegalMoveError, "not a cell"),
        (lambda: State.from_moves(3, 3, [4, 4]), IllegalMoveError, "b2 is taken"),
        (lambda: State(3, 3).undo(), NothingToUndoError, "no move"),
        (lambda: State(3, 3).parse_move("z9"), IllegalMoveError, "cannot read a move"),
        (lambda: State(3, 3).parse_move("d1"), IllegalMoveError, "off the 3x3 board"),
        (lambda: State.parse("XX/OO", 3), InvalidBoardError, "square of 3 to 20"),
        (lambda: State.parse("X../.../..Q", 3), InvalidBoardError, "got 'Q'"),
        (lambda: State.parse("XXX/.../...", 3), InvalidBoardError, "X has 3 stones and O 0"),
        (lambda: State.parse("XXX/OOO/X..", 3), InvalidBoardError, "both X and O"),
        (lambda: State.parse("X../.../...", 4), InvalidBoardError, "k must be"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        call()  # type: ignore[operator]


def test_forced_move_wins_first_then_blocks() -> None:
    assert State.parse("XX./OO./...", 3).forced_move() == 2  # X wins rather than block
    assert State.parse("X../OO./X..", 3).forced_move() == 5  # X blocks O's row
    assert State.parse("X../.../...", 3).forced_move() is None
    assert State.parse("XX./O../...", 3).forced_move() == 2  # O to move blocks X's row
    assert State.parse("XX./OXO/...", 3).forced_move() == 2  # X threatens 2, 7 and 8: the first is blocked


def test_docstring_examples() -> None:
    import doctest

    from plyground.kinrow import board

    result = doctest.testmod(board)
    assert result.attempted > 0 and result.failed == 0
