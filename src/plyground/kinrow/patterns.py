"""Line patterns of k-in-a-row: what a stone on a cell makes in each of its four lines, from tables.

The four lines through a cell are read as small numbers (*line keys*: the ten cells around
it, two bits each) and looked up in precomputed tables, the same idea as the 2048 row
tables: a five, an open four, a four, an open three, a three, a two, ... for each player
under each rule (see :mod:`plyground.kinrow._pattern_kernels` for the definitions). A
:class:`PatternBoard` keeps every cell's codes up to date as stones are placed and
removed, which is what the engine's search, its threat solver and its evaluation read.

>>> from plyground.kinrow import State
>>> rows = ["." * 9] * 4 + ["..XXX....", "OO......."] + ["." * 9] * 3
>>> board = PatternBoard(State.parse("/".join(rows), 5))
>>> Pattern(board.code(4 * 9 + 1, player=1, direction=0)).name  # X on b5 makes an open four in the row
'F4'
>>> Pattern(board.code(4 * 9 + 5, player=1, direction=0)).name  # ...and so does f5
'F4'
>>> Pattern(board.code(4 * 9 + 5, player=2, direction=0)).name  # for O, no five fits in f5..i5
'NONE'
"""

from __future__ import annotations

import enum
import functools

import numpy as np
import numpy.typing as npt

from plyground.errors import InvalidInputError
from plyground.kinrow import _pattern_kernels as P
from plyground.kinrow.board import State, zobrist
from plyground.kinrow.rules import Rule

__all__ = ["DIRECTIONS", "WEIGHTS", "Pattern", "PatternBoard", "pattern_table", "tables_for"]

MAX_K = 5
"""The longest line the tables know: a key sees five cells on each side."""
DIRECTIONS = ("row", "column", "diagonal", "anti-diagonal")


class Pattern(enum.IntEnum):
    """What a stone makes on one line (weakest first, then the overline)."""

    NONE = P.NONE
    B1 = P.B1
    F1 = P.F1
    B2 = P.B2
    F2 = P.F2
    B3 = P.B3
    F3 = P.F3
    B4 = P.B4
    F4 = P.F4
    F5 = P.F5
    OL = P.OL


WEIGHTS = np.array([0, 1, 2, 5, 12, 20, 60, 70, 400, 2000, 0], dtype=np.int64)
"""The worth of one (empty cell, direction) pair of each code to its player, for the evaluation."""
WEIGHTS.setflags(write=False)


@functools.cache
def pattern_table(k: int, own: int, exact: bool) -> npt.NDArray[np.uint8]:
    """The code of an ``own`` (1 or 2) stone for each of the ``2**20`` line keys (read-only, built once).

    ``exact``: only exactly ``k`` in a row wins (an overline is ``OL``).

    Raises:
        InvalidInputError: ``k`` not from 3 to 5, or ``own`` not 1 or 2.
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 3 <= k <= MAX_K:
        raise InvalidInputError(f"pattern tables know lines of 3 to {MAX_K} stones, got k = {k!r}")
    if own not in (1, 2):
        raise InvalidInputError(f"own must be 1 (X) or 2 (O), got {own!r}")
    table = np.zeros(P.KEYS, dtype=np.uint8)
    P._fill_table(k, own, bool(exact), table, fill_order(np.arange(P.KEYS, dtype=np.int64), own))
    table.setflags(write=False)
    return table


def fill_order(keys: npt.NDArray[np.int64], own: int) -> npt.NDArray[np.int64]:
    """``keys`` sorted by how many ``own`` stones they hold, most first: the order tables are filled in."""
    stones = np.zeros(keys.shape, dtype=np.int64)
    for slot in range(P.SLOTS):
        stones += (keys >> (2 * slot)) & 3 == own
    return np.ascontiguousarray(keys[np.argsort(-stones, kind="stable")])


@functools.cache
def tables_for(k: int, rule: Rule) -> npt.NDArray[np.uint8]:
    """The tables of X (row 0) and O (row 1) under ``rule``, as one ``[2, 2**20]`` array."""
    rule = Rule(rule)
    out = np.stack([pattern_table(k, player, rule.exact(player)) for player in (1, 2)])
    out.setflags(write=False)
    return out


@functools.cache
def neighbours(n: int) -> npt.NDArray[np.int32]:
    """The cell at each slot of each line key of the n×n board (-1 off the board), flattened."""
    out = np.empty(n * n * 4 * P.SLOTS, dtype=np.int32)
    P._build_neighbours(n, out)
    out.setflags(write=False)
    return out


class PatternBoard:
    """A position with its line keys and pattern codes, kept up to date by :meth:`place` and :meth:`remove`.

    Args:
        state: the position (its stones, blocked cells, k and rule); the board is a copy.
        weights: the worth of each code (default :data:`WEIGHTS`), summed into :meth:`total`.
        tables: the ``[2, 2**20]`` tables to read codes from (default: :func:`tables_for` the
            state's k and rule; tests give others).

    Raises:
        InvalidInputError: ``state.k`` over 5 (the tables see five cells on each side).
    """

    def __init__(
        self,
        state: State,
        weights: npt.NDArray[np.int64] | None = None,
        *,
        tables: npt.NDArray[np.uint8] | None = None,
    ) -> None:
        if state.k > MAX_K:
            raise InvalidInputError(f"pattern tables know lines of up to {MAX_K} stones, got k = {state.k}")
        n = state.n
        self.n, self.k = n, state.k
        self.rule: Rule = getattr(state, "rule", Rule.FREESTYLE)
        self.cells = np.array(state.cells, dtype=np.int8)
        self.keys = np.zeros(n * n * 4, dtype=np.uint32)
        self.pat = np.zeros((2, n * n * 4), dtype=np.uint8)
        self.near = np.zeros(n * n, dtype=np.int32)
        self.cnt = np.zeros((2, P.NPAT), dtype=np.int32)
        self.tot = np.zeros(2, dtype=np.int64)
        self.hsh = np.zeros(1, dtype=np.uint64)
        self.nbr = neighbours(n)
        self.tables = tables_for(self.k, self.rule) if tables is None else np.ascontiguousarray(tables, np.uint8)
        self.weights = WEIGHTS if weights is None else np.ascontiguousarray(weights, dtype=np.int64)
        self.zob = zobrist(n)
        P._init_board(*self.arrays())

    def arrays(self) -> tuple[npt.NDArray[np.generic], ...]:
        """The arrays in the order the board kernels take them."""
        return (
            self.cells, self.keys, self.pat, self.near, self.cnt, self.tot, self.hsh,
            self.nbr, self.tables, self.weights, self.zob,
        )  # fmt: skip

    def place(self, cell: int, player: int) -> None:
        """Put a ``player`` stone on the empty ``cell`` (no checks: the caller plays legal moves)."""
        P._place(*self.arrays(), cell, player)

    def remove(self, cell: int) -> None:
        """Take the stone off ``cell`` (the last one placed there)."""
        P._remove(*self.arrays(), cell)

    def code(self, cell: int, player: int, direction: int) -> int:
        """What a ``player`` stone on the empty ``cell`` makes in ``direction`` (0 row ... 3 anti-diagonal)."""
        return int(self.pat[player - 1, cell * 4 + direction])

    def codes(self, player: int) -> npt.NDArray[np.uint8]:
        """The codes of ``player`` as an ``[n, n, 4]`` array (meaningful on empty cells only)."""
        return self.pat[player - 1].reshape(self.n, self.n, 4).copy()

    def count(self, player: int, pattern: Pattern | int) -> int:
        """How many (empty cell, direction) pairs give ``player`` the code ``pattern``."""
        return int(self.cnt[player - 1, int(pattern)])

    def total(self, player: int) -> int:
        """The sum of the weights of ``player``'s codes over the empty cells."""
        return int(self.tot[player - 1])

    @property
    def key(self) -> int:
        """The Zobrist key of the stones (the same as :attr:`State.key <plyground.kinrow.board.State.key>`)."""
        return int(self.hsh[0])
