"""The threat-space solver: wins by continuous fours (VCF) and by threes and fours (VCT).

A VCF is a sequence of fours, each answered by the only move that stops its five, ending
in a five (or in a four that leaves two fives to stop). A VCT also uses threes, and must
win against every defence the solver knows: the cells that stop or shorten the three,
and the defender's own fours (see :mod:`plyground.kinrow._threat_kernels`). The VCF is
exact for the moves it tries; the VCT is the usual threat-space approximation.

>>> from plyground.kinrow import State
>>> state = State.parse("/".join(["." * 9] * 3 + [".XXX.....", ".O.O.....", "....O...."] + ["." * 9] * 3), 5)
>>> [state.name(move) for move in find_vcf(state)]  # X's open three: an open four, then five
['e4', 'a4', 'f4']
"""

from __future__ import annotations

import numpy as np

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import _threat_kernels as T
from plyground.kinrow._table_kernels import TABLE_DTYPE
from plyground.kinrow.board import State
from plyground.kinrow.patterns import MAX_K, PatternBoard
from plyground.kinrow.rules import Rule

__all__ = ["MAX_DEPTH", "find_vcf", "find_vct"]

MAX_DEPTH = 40
"""The most attacker moves a search may be asked for."""
_TABLE_BITS = 18


def _prepare(state: State, depth: object) -> tuple[PatternBoard, int]:
    if not isinstance(state, State):
        raise InvalidInputError(f"expected a k-in-a-row State, got {type(state).__name__}")
    if state.is_over:
        raise IllegalMoveError("the game is over: there is nothing to solve")
    if state.k > MAX_K:
        raise InvalidInputError(f"the threat solver knows lines of 3 to {MAX_K} stones, got k = {state.k}")
    if getattr(state, "rule", Rule.FREESTYLE) is Rule.RENJU and state.to_move == 1:
        raise InvalidInputError("the threat solver does not know renju's forbidden moves: it cannot attack for X")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise InvalidInputError(f"max_depth must be an integer from 1 to {MAX_DEPTH}, got {depth!r}")
    return PatternBoard(state), depth


def _line(line: np.ndarray, length: int) -> list[int]:
    return [int(move) for move in line[:length]]


def find_vcf(state: State, *, max_depth: int = 16, width: int | None = None) -> list[int] | None:
    """A VCF of the player to move within ``max_depth`` of its moves, as the line of moves; None if there is none.

    The line alternates attacker and defender moves and ends with the attacker's five
    (or with its open four and the defender's block, then the five).

    ``width`` (1 to 4) makes it the quick, incomplete search the engine runs at its leaves: a
    four must also make a three or another four, each four after the first must lie on a line
    of the one before, and only the ``width`` most promising fours are tried at each step. A
    line it finds wins; None then means only that it found none.

    Raises:
        InvalidInputError: not a State, k over 5, X to attack under renju, or ``max_depth`` or
            ``width`` out of range.
        IllegalMoveError: the game is over.
    """
    board, depth = _prepare(state, max_depth)
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= T.QUICK_WIDTH):
        raise InvalidInputError(f"width must be None or an integer from 1 to {T.QUICK_WIDTH}, got {width!r}")
    line = np.zeros(2 * depth + 8, dtype=np.int32)
    stats = np.zeros(2, dtype=np.int64)
    table = np.zeros(1 << _TABLE_BITS, dtype=TABLE_DTYPE)
    never = np.zeros(1, dtype=np.uint8)
    if width is None:
        found = T._vcf(*board.arrays(), table, line, never, stats, state.to_move, depth, 0, -1, 0)
    else:
        found = T._vcf(*board.arrays(), table, line, never, stats, state.to_move, depth, 0, -1, width)
    if found:
        return _line(line, int(stats[T.LENGTH]))
    return None


def find_vct(state: State, *, max_depth: int = 6, max_nodes: int = 1_000_000) -> list[int] | None:
    """A VCT of the player to move within ``max_depth`` of its moves and ``max_nodes`` positions, or None.

    The line follows the first defence of each three; None also when the node limit ran out.

    Raises:
        InvalidInputError: as :func:`find_vcf`, or ``max_nodes`` not a positive integer.
        IllegalMoveError: the game is over.
    """
    board, depth = _prepare(state, max_depth)
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise InvalidInputError(f"max_nodes must be a positive integer, got {max_nodes!r}")
    line = np.zeros(2 * depth + 8, dtype=np.int32)
    stats = np.zeros(2, dtype=np.int64)
    table = np.zeros(1 << _TABLE_BITS, dtype=TABLE_DTYPE)
    never = np.zeros(1, dtype=np.uint8)
    if T._vct(*board.arrays(), table, line, never, stats, state.to_move, depth, 0, max_nodes):
        return _line(line, int(stats[T.LENGTH]))
    return None
