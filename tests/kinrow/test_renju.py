"""Renju: X's forbidden points in known positions, and the kernels against the naive twin."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import O, State, X
from plyground.kinrow import _renju_kernels as R
from plyground.kinrow.renju import forbidden_moves, forbidden_reason
from plyground.kinrow.rules import Rule
from tests.naive import renju as naive

N = 13


def position(xs: str, os: str = "", n: int = N) -> State:
    """A renju position with X on the cells ``xs`` and O on ``os`` (names like ``e5``), X to move.

    O gets extra stones on the bottom row and the third row from the bottom (a, c, e, ...)
    until it has as many as X.
    """
    state = State(n, 5, rule=Rule.RENJU)
    x_cells = [state.parse_move(name) for name in xs.split()]
    o_cells = [state.parse_move(name) for name in os.split()]
    spare = iter([*range((n - 1) * n, n * n, 2), *range((n - 3) * n, (n - 2) * n, 2)])
    while len(o_cells) < len(x_cells):
        o_cells.append(next(spare))
    board = ["."] * (n * n)
    for cell in x_cells:
        board[cell] = "X"
    for cell in o_cells:
        board[cell] = "O"
    text = "/".join("".join(board[r * n : (r + 1) * n]) for r in range(n))
    state = State.parse(text, 5, rule=Rule.RENJU)
    assert state.to_move == X
    return state


def reason(state: State, name: str) -> str | None:
    return forbidden_reason(state, state.parse_move(name))


def naive_reason(state: State, name: str) -> int:
    return naive.forbidden(state.cells.tolist(), state.n, state.parse_move(name))


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("xs", "os", "move", "expected", "code"),
    [
        ("e3 e4 c5 d5", "", "e5", "double-three", 3),  # two open threes
        ("c5 d5 e5 f2 f3 f4", "", "f5", "double-four", 2),  # two straight fours in two lines
        ("b5 d5 f5 h5", "", "e5", "double-four", 2),  # X.XXX.X: two fours in one line
        ("a5 b5 e5 g5 h5", "", "d5", "double-four", 2),  # XX.XX.XX
        ("a5 b5 c5 g5 h5 i5", "", "e5", "double-four", 2),  # XXX.X.XXX
        ("c5 d5 e5 g5 h5", "", "f5", "overline", 1),  # six in a row
        ("c5 d5 e5 f5 h5 i5", "", "g5", "overline", 1),  # seven: c5..i5
        ("e3 e4 c5 d5", "b5", "e5", None, 0),  # one three is closed by O: a four-three is no double-three
        ("e3 e4 c5 d5", "e1", "e5", "double-three", 3),  # O one cell past e2: e2 still makes a straight four
        ("e3 e4 c5 d5", "e2", "e5", None, 0),  # O on e2: the column is no three
        ("c5 d5 e5 f3 f4", "", "f5", None, 0),  # a four and a three: allowed
        ("d5 e5 f5", "", "g5", None, 0),  # a straight four: one four only
    ],
)
def test_known_forbidden_points(xs: str, os: str, move: str, expected: str | None, code: int) -> None:
    state = position(xs, os)
    assert reason(state, move) == expected
    assert naive_reason(state, move) == code
    assert (state.parse_move(move) in state.forbidden_moves()) == (expected is not None)
    assert (state.parse_move(move) in state.legal_moves()) == (expected is None)


@pytest.mark.kernel
def test_a_five_wins_even_with_a_double_four() -> None:
    # g5 makes c5..g5 (five), and fours on the g column and on the d2-g5 diagonal.
    state = position("c5 d5 e5 f5 g2 g3 g4 d2 e3 f4")
    assert reason(state, "g5") is None
    without_five = position("d5 e5 f5 g2 g3 g4 d2 e3 f4")
    assert reason(without_five, "g5") == "double-four"
    state.play(state.parse_move("g5"))
    assert state.result == X


@pytest.mark.kernel
def test_a_false_three_does_not_count() -> None:
    # f5 makes the column f3-f5 (a real three) and the row d5-f5, which O's b5 leaves only g5 to
    # straighten; g5 would make a double-four (with g6 g7 g8), so the row is no real three.
    state = position("d5 e5 f3 f4 g6 g7 g8", "b5")
    after = np.array(state.cells)
    after[state.parse_move("f5")] = X
    assert R._forbidden(after, N, state.parse_move("g5")) == R.DOUBLE_FOUR  # once f5 is played
    assert reason(state, "f5") is None and naive_reason(state, "f5") == 0
    control = position("d5 e5 f3 f4", "b5")  # without the g column, g5 is allowed: a true double-three
    assert reason(control, "f5") == "double-three" and naive_reason(control, "f5") == 3


@pytest.mark.kernel
def test_blocked_cells_end_lines_like_the_edge() -> None:
    state = position("e3 e4 c5 d5")
    blocked = State(N, 5, rule=Rule.RENJU, blocked=[state.parse_move("e2")])
    for name in ("e3", "e4", "c5", "d5"):
        blocked.play(blocked.parse_move(name))
        blocked.play(blocked.parse_move(f"{'acegikm'[len(blocked.history) // 2 - 1]}13"))
    assert reason(state, "e5") == "double-three"
    assert reason(blocked, "e5") is None  # e2 blocked: the column e3-e5 can only become a closed four
    assert naive.forbidden(blocked.cells.tolist(), N, blocked.parse_move("e5")) == 0


def test_play_refuses_a_forbidden_point_naming_the_reason_and_o_may_play_it() -> None:
    state = position("e3 e4 c5 d5")
    with pytest.raises(IllegalMoveError, match=r"e5 is forbidden to X under renju \(double-three\)"):
        state.play(state.parse_move("e5"))
    assert state.history == position("e3 e4 c5 d5").history  # nothing changed
    state.play(state.parse_move("a1"))
    assert state.to_move == O and state.forbidden_moves() == [] and state.parse_move("e5") in state.legal_moves()
    state.play(state.parse_move("e5"))
    assert state.cells[state.parse_move("e5")] == O


def test_o_wins_with_an_overline_x_does_not() -> None:
    rows = ["." * 15] * 13
    state = State.parse("/".join(["X.X.X.X.X.X....", "OOO.OO.........", *rows]), 5, rule=Rule.RENJU)
    assert state.to_move == O
    state.play(state.parse_move("d2"))  # six O: O wins
    assert state.result == O
    state = State.parse("/".join(["XX.XXX.........", "O.O.O.O........", *rows]), 5, rule=Rule.RENJU)
    assert state.to_move == O
    assert state.winning_moves(X) == [] and forbidden_reason(state, state.parse_move("c1")) == "overline"


def test_forced_move_is_never_a_forbidden_point() -> None:
    # O threatens to win on e5 and j10 (the f6-i9 diagonal); e5 is a double-three for X.
    state = position("e3 e4 c5 d5", "f6 g7 h8 i9")
    assert state.winning_moves(O) == [state.parse_move("e5"), state.parse_move("j10")]
    assert reason(state, "e5") == "double-three"
    assert state.forced_move() == state.parse_move("j10")
    free = State.parse(state.to_text(), 5)
    assert free.forced_move() == free.parse_move("e5")


def test_renju_boundaries() -> None:
    with pytest.raises(InvalidInputError, match="renju is played with k = 5, got k = 4"):
        State(15, 4, rule="renju")
    with pytest.raises(InvalidInputError, match="forbidden points are a renju rule; this game plays freestyle"):
        forbidden_reason(State(15, 5), 0)
    with pytest.raises(IllegalMoveError, match="not a cell"):
        forbidden_reason(State(15, 5, rule=Rule.RENJU), 225)
    state = position("e3 e4 c5 d5")
    assert forbidden_reason(state, state.parse_move("e3")) is None  # taken: no reason
    assert forbidden_moves(state) == state.forbidden_moves() == [state.parse_move("e5")]


@st.composite
def boards(draw: st.DrawFn) -> tuple[list[int], int]:
    """Random boards, crowded with X so that fours and threes are common; some O and blocked cells."""
    n = draw(st.integers(5, 11))
    weights = [0] * 9 + [1] * 6 + [2] * 2 + [3]
    cells = draw(st.lists(st.sampled_from(weights), min_size=n * n, max_size=n * n))
    return cells, n


@pytest.mark.kernel
@given(boards())
def test_forbidden_points_match_the_naive_twin(board: tuple[list[int], int]) -> None:
    cells, n = board
    array = np.array(cells, dtype=np.int8)
    for move in range(n * n):
        if cells[move] == 0:
            assert R._forbidden(array, n, move) == naive.forbidden(cells, n, move), (n, cells, move)
    assert array.tolist() == cells  # restored
    out = np.empty(n * n, dtype=np.int64)
    count = R._forbidden_moves(array, n, out)
    assert out[:count].tolist() == naive.forbidden_moves(cells, n)
    first = R._first_allowed(array, n)
    allowed = [i for i in range(n * n) if cells[i] == 0 and i not in set(out[:count].tolist())]
    assert first == (allowed[0] if allowed else -1)


@pytest.mark.kernel
@settings(max_examples=25)
@given(st.integers(0, 2**32 - 1))
def test_games_of_random_legal_moves_follow_the_naive_rules(seed: int) -> None:
    rng = np.random.default_rng(seed)
    state = State(9, 5, rule=Rule.RENJU)
    while not state.is_over:
        if state.to_move == X:
            assert state.forbidden_moves() == naive.forbidden_moves(state.cells.tolist(), 9)
        moves = state.legal_moves()
        # crowd the centre so that patterns form: the legal move nearest a random centre cell
        target = rng.normal(4, 1.5, size=2)
        state.play(min(moves, key=lambda m: (m // 9 - target[0]) ** 2 + (m % 9 - target[1]) ** 2))
