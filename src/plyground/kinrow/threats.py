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

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import _threat_kernels as T
from plyground.kinrow._table_kernels import TABLE_DTYPE
from plyground.kinrow.board import State
from plyground.kinrow.patterns import MAX_K, PatternBoard
from plyground.kinrow.rules import Rule

__all__ = ["MAX_DEPTH", "VcfResult", "VcfSolver", "find_vcf", "find_vct"]

MAX_DEPTH = 40
"""The most attacker moves a search may be asked for."""
_TABLE_BITS = 17
"""A search's table: 2**17 entries of 16 bytes (2 MiB), made afresh for each search."""


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


def _check_width(width: object) -> int:
    """The kernel's width: 0 for the complete VCF (None), else the quick one's, checked."""
    if width is None:
        return 0
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= T.QUICK_WIDTH:
        raise InvalidInputError(f"width must be None or an integer from 1 to {T.QUICK_WIDTH}, got {width!r}")
    return width


@dataclass(frozen=True)
class VcfResult:
    """What one VCF search found, and what it cost.

    Attributes:
        line: the VCF as :func:`find_vcf` gives it; None if none was found.
        nodes: the positions the search entered.
        seconds: the time of the search itself, not that of reading the board into patterns.
    """

    line: list[int] | None
    nodes: int
    seconds: float


def _search_vcf(
    board: PatternBoard,
    player: int,
    depth: int,
    width: int,
    table: npt.NDArray[np.void],
) -> VcfResult:
    line = np.zeros(2 * depth + 8, dtype=np.int32)
    stats = np.zeros(2, dtype=np.int64)
    never = np.zeros(1, dtype=np.uint8)
    start = time.perf_counter()
    found = T._vcf(board.arrays(), table, line, never, stats, player, depth, 0, -1, width)
    seconds = time.perf_counter() - start
    return VcfResult(_line(line, int(stats[T.LENGTH])) if found else None, int(stats[T.NODES]), seconds)


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
    quick = _check_width(width)
    table = np.zeros(1 << _TABLE_BITS, dtype=TABLE_DTYPE)
    return _search_vcf(board, state.to_move, depth, quick, table).line


class VcfSolver:
    """VCF searches one after another in one table, with what each found and cost: for many searches in a row.

    :func:`find_vcf` makes a fresh table for each search; a solver makes its own once and clears
    it before each search, outside the time a :class:`VcfResult` reports. One search at a time.

    >>> from plyground.kinrow import State
    >>> state = State.parse("/".join(["." * 9] * 3 + [".XXX.....", ".O.O.....", "....O...."] + ["." * 9] * 3), 5)
    >>> result = VcfSolver().solve(state, max_depth=3)
    >>> [state.name(move) for move in result.line], result.nodes > 0
    (['e4', 'a4', 'f4'], True)
    """

    def __init__(self) -> None:
        self._table = np.zeros(1 << _TABLE_BITS, dtype=TABLE_DTYPE)

    def solve(self, state: State, *, max_depth: int = 16, width: int | None = None) -> VcfResult:
        """Search a VCF of the player to move, as :func:`find_vcf` does, with the nodes and time it took.

        Raises:
            InvalidInputError: as :func:`find_vcf`.
            IllegalMoveError: the game is over.
        """
        board, depth = _prepare(state, max_depth)
        quick = _check_width(width)
        self._table["flags"] = 0  # every slot unused
        return _search_vcf(board, state.to_move, depth, quick, self._table)


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
    if T._vct(board.arrays(), table, line, never, stats, state.to_move, depth, 0, max_nodes):
        return _line(line, int(stats[T.LENGTH]))
    return None
