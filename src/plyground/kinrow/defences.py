"""Threats and their exact answers on a position: which cells threaten, which moves answer.

A player threatens at a :class:`~plyground.kinrow.cell_classes.CellClass` when one of its empty
cells has that class or a stronger one: at ``OPEN_FOUR`` (an open three, or a cell of two fours)
it wins in three plies unless the other player answers now; at ``FOUR_THREE`` in five. The
*answers* are the moves after which it has no cell of that class left, then the answering
player's own fours, which must be answered first. The kernels are
:mod:`plyground.kinrow._defence_kernels`.

>>> from plyground.kinrow import State
>>> state = State.parse("/".join(["." * 9] * 4 + ["..XXX....", "..O......", "...O....."] + ["." * 9] * 2), 5)
>>> board = PatternBoard(state)
>>> [state.name(cell) for cell in threats(board, 1, CellClass.OPEN_FOUR)]  # X's open three c5-e5
['b5', 'f5']
>>> [state.name(cell) for cell in answers(board, 2, CellClass.OPEN_FOUR)]  # a5 or g5 would leave X an open four
['b5', 'f5']
"""

from __future__ import annotations

import numpy as np

from plyground.errors import InvalidInputError
from plyground.kinrow import _defence_kernels as D
from plyground.kinrow.cell_classes import CLASS_TABLE, CellClass
from plyground.kinrow.patterns import PatternBoard

__all__ = ["CellClass", "PatternBoard", "answers", "threats"]


def _check(player: int, level: int) -> None:
    if player not in (1, 2):
        raise InvalidInputError(f"player must be 1 (X) or 2 (O), got {player!r}")
    if isinstance(level, bool) or not isinstance(level, int) or not CellClass.TWO <= level <= CellClass.FIVE:
        raise InvalidInputError(f"level must be a cell class from TWO to FIVE, got {level!r}")


def threats(board: PatternBoard, player: int, level: int) -> list[int]:
    """The empty cells where ``player``'s class is ``level`` or above, in cell order.

    Raises:
        InvalidInputError: a player other than 1 or 2, or a level that is no class above ``NONE``.
    """
    _check(player, level)
    out = np.zeros(board.n * board.n, dtype=np.int32)
    count = int(D._threats(board.arrays(), CLASS_TABLE, player, int(level), out))
    return [int(cell) for cell in out[:count]]


def answers(board: PatternBoard, player: int, level: int) -> list[int]:
    """The moves of ``player`` that answer the other player's threat at ``level`` (see the module).

    First the cells after which the other player has no cell of class ``level`` or above, in cell
    order, then ``player``'s fours that answer nothing, in cell order. Under renju, X's forbidden
    points are among them: the caller leaves them out.

    Raises:
        InvalidInputError: a player other than 1 or 2, or a level that is no class above ``NONE``.
    """
    _check(player, level)
    size = board.n * board.n
    scratch = np.zeros(size, dtype=np.int32)
    out = np.zeros(size, dtype=np.int32)
    count = int(D._defences(board.arrays(), CLASS_TABLE, player, int(level), board.n, scratch, out))
    return [int(cell) for cell in out[:count]]
