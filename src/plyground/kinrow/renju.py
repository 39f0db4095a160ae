"""Renju's forbidden points: the moves that X (black) may not play under :attr:`~plyground.kinrow.rules.Rule.RENJU`.

A move of X that does not make exactly five is forbidden when it makes

* an *overline*: six or more X in a row;
* a *double-four*: two fours or more (a four is a line that one more stone turns into
  exactly five; ``X.XXX.X`` through the move is two fours in one line, a straight four
  ``.XXXX.`` is one);
* a *double-three*: two real threes or more (a three is a line that one more stone turns
  into a straight four; it is *real* only if such a stone would itself be allowed, which
  is decided by the same rules, recursively).

A move that makes five wins even when it also makes a double-four or a double-three.
O (white) has no forbidden points. Blocked cells end lines like the board's edge.

>>> from plyground.kinrow import State
>>> from plyground.kinrow.rules import Rule
>>> rows = "O.......O/........./....X..../....X..../..XX...../........./........./........./O.......O"
>>> state = State.parse(rows, 5, rule=Rule.RENJU)
>>> forbidden_reason(state, state.parse_move("e5"))  # two open threes: e3-e5 and c5-e5
'double-three'
>>> [state.name(move) for move in forbidden_moves(state)]
['e5']
"""

from __future__ import annotations

import numpy as np

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import _renju_kernels as R
from plyground.kinrow.board import EMPTY, FORBIDDEN_REASONS, State
from plyground.kinrow.rules import Rule

__all__ = ["REASONS", "forbidden_moves", "forbidden_reason"]

REASONS = FORBIDDEN_REASONS
"""The words for the kernels' reasons: 1 ``overline``, 2 ``double-four``, 3 ``double-three``."""


def _check(state: State, move: int) -> int:
    if not isinstance(state, State):
        raise InvalidInputError(f"expected a k-in-a-row State, got {type(state).__name__}")
    if state.rule is not Rule.RENJU:
        raise InvalidInputError(f"forbidden points are a renju rule; this game plays {state.rule.label}")
    cells = state.n * state.n
    if isinstance(move, bool) or not isinstance(move, int | np.integer) or not 0 <= move < cells:
        raise IllegalMoveError(f"move {move!r} is not a cell of the {state.n}x{state.n} board")
    return int(move)


def forbidden_reason(state: State, move: int) -> str | None:
    """Why X may not play ``move`` in ``state``: ``"overline"``, ``"double-four"``, ``"double-three"``, or None.

    The answer is for X whoever is to move (O has no forbidden points); a cell that is not
    empty has no reason (it cannot be played anyway).

    Raises:
        InvalidInputError: ``state`` is not a renju State.
        IllegalMoveError: ``move`` is not a cell of the board.
    """
    move = _check(state, move)
    if state.cells[move] != EMPTY:
        return None
    return REASONS.get(int(R._forbidden(np.array(state.cells), state.n, move)))


def forbidden_moves(state: State) -> list[int]:
    """The empty cells that X may not play in ``state``, in cell order (whoever is to move).

    Raises:
        InvalidInputError: ``state`` is not a renju State.
    """
    _check(state, 0)
    out = np.empty(state.n * state.n, dtype=np.int64)
    count = int(R._forbidden_moves(np.array(state.cells), state.n, out))
    moves: list[int] = out[:count].tolist()
    return moves
