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
from plyground.kinrow.rules import Rule
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


def test_standard_wins_with_exactly_k_and_an_overline_goes_on() -> None:
    state = State.parse("XX.XX/OOO../...O./...../.....", 4, rule=Rule.STANDARD)
    assert state.winning_moves() == []  # c1 would make five, more than k = 4
    state.play(2)
    assert state.result is None and state.rule is Rule.STANDARD
    state = State.parse("XXX.X/OOO../...O./...../.....", 4, rule="standard")
    assert state.winning_moves() == []
    state = State.parse("XXX../OOO../...../...../.....", 4, rule="standard")
    assert state.winning_moves() == [3]  # d1 makes XXXX, exactly four
    state.play(3)
    assert state.result == X
    assert State.parse("XX.XX/OOOOO/...X./...../.....", 4, rule="standard").result is None  # O's five: no line


@pytest.mark.kernel
@given(positions(), st.sampled_from([Rule.FREESTYLE, Rule.STANDARD]))
def test_wins_under_a_rule_match_the_naive_run_lengths(state: State, rule: Rule) -> None:
    from plyground.kinrow import _kernels as K

    cells = state.cells.tolist()
    n, k = state.n, state.k
    for move in range(n * n):
        for player in (X, O):
            board = list(cells)
            board[move] = player
            longest = []
            for dr, dc in naive.DIRECTIONS:
                length = 1
                for sign in (1, -1):
                    r, c = divmod(move, n)
                    r, c = r + sign * dr, c + sign * dc
                    while 0 <= r < n and 0 <= c < n and board[r * n + c] == player:
                        length, r, c = length + 1, r + sign * dr, c + sign * dc
                longest.append(length)
            expected = k in longest if rule is Rule.STANDARD else max(longest) >= k
            assert K._wins_at_rule(state.cells.copy(), n, k, move, player, int(rule)) == expected


def test_blocked_cells_hold_no_stone_and_end_lines() -> None:
    state = State(5, 4, blocked=[2, 12])
    assert state.blocked == frozenset({2, 12}) and state.cells[2] == state.cells[12] == 3
    assert 2 not in state.legal_moves() and len(state.legal_moves()) == 23
    with pytest.raises(IllegalMoveError, match="cell c1 is blocked"):
        state.play(2)
    for move in (0, 5, 1, 6, 3, 7, 4):  # X: a1 b1 d1 e1 around the blocked c1
        state.play(move)
    assert state.result is None  # X X # X X: no line of four
    assert state.to_text() == "XX#XX/OOO../..#../...../....."
    assert str(state).splitlines()[3] == " 3 . . # . ."
    again = State.parse(state.to_text(), 4)
    assert again.blocked == state.blocked and again.key == state.key and again.to_text() == state.to_text()
    copy = state.copy()
    assert copy.blocked == state.blocked and copy.rule is state.rule and copy.key == state.key
    empty = State(5, 4)
    assert State(5, 4, blocked=[2]).key != empty.key  # blocked cells are part of the position


def test_a_board_full_but_for_blocked_cells_is_a_draw() -> None:
    state = State.from_moves(3, 3, [4, 0, 2, 6, 3, 5, 1, 7], blocked=[8])
    assert state.result == DRAW and state.legal_moves() == []
    assert State.parse("XOX/XOO/OX#", 3).result == DRAW


def test_the_canonical_key_moves_the_blocked_cells_too() -> None:
    n = 5
    base = State.parse("#..../.X.../...../..O../.....", 3)
    keys = set()
    for symmetry in SYMMETRIES:
        image = symmetry.board(base.cells.reshape(n, n))
        text = "/".join("".join(".XO#"[v] for v in row) for row in image)
        keys.add(State.parse(text, 3).canonical_key)
    assert keys == {base.canonical_key}
    # The same stones turned, the blocked corner left where it is: another position.
    turned = State.parse("#..../...X./...../.O.../.....", 3)
    assert turned.canonical_key != base.canonical_key


def test_boards_up_to_20_with_column_t() -> None:
    state = State(20, 5)
    assert state.parse_move("t20") == 399 and state.name(399) == "t20"
    assert str(state).splitlines()[0].endswith("s t")


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
        (lambda: State.parse("###/###/###", 3), InvalidBoardError, "every cell is blocked"),
        (lambda: State.parse("X../.../...", 3, rule="gomoku"), InvalidInputError, "unknown rule 'gomoku'"),
        (lambda: State(15, 6, rule=Rule.RENJU), InvalidInputError, "renju is played with k = 5, got k = 6"),
        (lambda: State(3, 3, blocked=[9]), InvalidInputError, "blocked cell 9 is not a cell of the 3x3 board"),
        (lambda: State(3, 3, blocked=[True]), InvalidInputError, "blocked cell True is not a cell"),
        (lambda: State(3, 3, blocked=5), InvalidInputError, "blocked must be a collection"),  # type: ignore[arg-type]
        (lambda: State(3, 3, blocked=range(9)), InvalidInputError, "every cell is blocked"),
        (lambda: State(3, 3, rule=2), InvalidInputError, "unknown rule '2'"),
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
