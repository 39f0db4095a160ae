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
import itertools
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.errors import InvalidInputError
from plyground.kinrow import _pattern_kernels as P
from plyground.kinrow._pattern_kernels import BoardArrays
from plyground.kinrow.board import State, zobrist
from plyground.kinrow.limits import PATTERN_MAX_K
from plyground.kinrow.rules import Rule

__all__ = [
    "DIRECTIONS",
    "HOT",
    "NPAT",
    "Pattern",
    "PatternBoard",
    "code_multisets",
    "combination_value",
    "combination_values",
    "packed",
    "pattern_table",
    "tables_for",
]

MAX_K = PATTERN_MAX_K
"""The longest line the tables know: a key sees five cells on each side."""
DIRECTIONS = ("row", "column", "diagonal", "anti-diagonal")
NPAT = P.NPAT
"""How many codes a line can give a cell (:class:`Pattern`'s values are below it): a cell's four codes key the
tables as ``((c0 * NPAT + c1) * NPAT + c2) * NPAT + c3``."""
HOT = P.HOT
"""The column of :attr:`PatternBoard.cnt` that counts a player's *hot* cells (a move there makes a double threat)."""


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


_SINGLE = (0, 0, 0, 1, 2, 3, 15, 25, 120, 0, 0)
"""The worth of one code on its own: what the cell adds to the player's chances (fours and fives: below)."""


def combination_value(codes: tuple[int, ...], *, forbidden: bool = False) -> int:
    """The worth, for the evaluation and the move order, of an empty cell where a player's four codes are ``codes``.

    A move on a cell worth :data:`~plyground.kinrow._pattern_kernels.HOT_VALUE` or more
    makes a double threat (two fours, a four and an open three, or two open threes).
    ``forbidden``: the player is black under renju, for whom an overline, two fours or two
    open threes on one cell make a forbidden move (worth nothing here; the search checks).
    """
    fives = codes.count(Pattern.F5)
    open_fours = codes.count(Pattern.F4)
    fours = codes.count(Pattern.B4)
    open_threes = codes.count(Pattern.F3)
    if fives:
        return 10_000
    if forbidden and (Pattern.OL in codes or open_fours + fours >= 2 or open_threes >= 2):
        return 0
    if open_fours or fours >= 2:
        return 6_000
    if fours and open_threes:
        return 4_000
    if open_threes >= 2:
        return P.HOT_VALUE
    total = sum(_SINGLE[code] for code in codes)
    strong = sum(code >= Pattern.F3 for code in codes)
    if strong + sum(code == Pattern.B3 for code in codes) >= 2:
        total += 20 * strong + 5
    return total


def combination_values(rule: Rule = Rule.FREESTYLE) -> npt.NDArray[np.int64]:
    """:func:`combination_value` of every combination of four codes, for X (row 0) and O (row 1) under ``rule``."""
    return _combination_values(Rule(rule) is Rule.RENJU)  # only renju's forbidden points change a worth


@functools.cache
def _combination_values(forbidden: bool) -> npt.NDArray[np.int64]:
    codes, inverse = code_multisets()
    worth = [
        [combination_value(combo, forbidden=forbidden) for combo in codes],
        [combination_value(combo) for combo in codes],
    ]
    out = np.ascontiguousarray(np.array(worth, dtype=np.int64)[:, inverse])
    out.setflags(write=False)
    return out


@functools.cache
def code_multisets() -> tuple[list[tuple[int, ...]], npt.NDArray[np.intp]]:
    """The combinations of four codes up to their order, and the one of each of the ``NPAT**4`` combinations.

    A cell's worth and features depend on how many of its lines hold each code, not on
    which line holds which: a table over every combination is built from one value per
    multiset (1,001 of them, not 14,641), ``table = values[inverse]``.
    """
    combos = np.array(list(itertools.product(range(P.NPAT), repeat=4)), dtype=np.int64)
    ordered = np.sort(combos, axis=1)
    unique, inverse = np.unique(ordered, axis=0, return_inverse=True)
    return [tuple(int(code) for code in row) for row in unique], inverse.reshape(-1)


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
    P._fill_table(k, own, bool(exact), table, _key_order(own))
    table.setflags(write=False)
    return table


@functools.cache
def _key_order(own: int) -> npt.NDArray[np.int64]:
    """Every line key in :func:`fill_order` for ``own``: the same for every k and rule, made once (not to change)."""
    return fill_order(np.arange(P.KEYS, dtype=np.int64), own)


def fill_order(keys: npt.NDArray[np.int64], own: int) -> npt.NDArray[np.int64]:
    """``keys`` sorted by how many ``own`` stones they hold, most first: the order tables are filled in."""
    stones = np.zeros(keys.shape, dtype=np.int8)  # at most 10 (SLOTS): a small type sorts several times faster
    for slot in range(P.SLOTS):
        stones += (keys >> (2 * slot)) & 3 == own
    return np.ascontiguousarray(keys[np.argsort(-stones, kind="stable")])


@functools.cache
def tables_for(k: int, rule: Rule) -> npt.NDArray[np.uint8]:
    """The tables of X (row 0) and O (row 1) under ``rule``, and both in one byte (row 2), as one ``[3, 2**20]`` array.

    Row 2 is :func:`packed`: the board's updates read both codes of a key in one look-up.
    """
    rule = Rule(rule)
    out = packed(np.stack([pattern_table(k, player, rule.exact(player)) for player in (1, 2)]))
    out.setflags(write=False)
    return out


def packed(tables: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``[X's, O's]`` tables (codes below 16) with a third row of both: X's code in the low four bits, O's above."""
    out = np.empty((3, P.KEYS), dtype=np.uint8)
    out[:2] = tables[:2]
    out[2] = tables[0] | (tables[1] << 4)
    return out


@functools.cache
def neighbours(n: int) -> npt.NDArray[np.int32]:
    """The cell at each slot of each line key of the n×n board (-1 off the board), flattened."""
    out = np.empty(n * n * 4 * P.SLOTS, dtype=np.int32)
    P._build_neighbours(n, out)
    out.setflags(write=False)
    return out


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``array`` when it is read-only, else a read-only copy (the board kernels take their fixed arrays read-only)."""
    if array.flags.writeable:
        array = array.copy()
        array.setflags(write=False)
    return array


class PatternBoard:
    """A position with its line keys and pattern codes, kept up to date by :meth:`place` and :meth:`remove`.

    Args:
        state: the position (its stones, blocked cells, k and rule); the board is a copy.
        weights: the worth of each combination of four codes for X and O (default:
            :func:`combination_values` of the rule), summed over the empty cells into :meth:`total`;
            further pairs of rows (X, O) are summed too, into ``tot[2:]`` (the engine's evaluation).
        tables: the ``[2, 2**20]`` tables of X and O to read codes from, codes below
            :data:`~plyground.kinrow._pattern_kernels.NPAT` (default: :func:`tables_for` the
            state's k and rule; tests give others).

    Raises:
        InvalidInputError: ``state.k`` over 5 (the tables see five cells on each side), or
            weights or tables of the wrong shape.
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
        self.cnt = np.zeros((2, P.NPAT + 1), dtype=np.int32)
        self.hsh = np.zeros(1, dtype=np.uint64)
        self.nbr = neighbours(n)
        if tables is None:
            self.tables = tables_for(self.k, self.rule)
        else:
            given = np.asarray(tables)
            if given.shape[-1:] != (P.KEYS,) or given.ndim != 2 or given.shape[0] < 2 or given[:2].max() >= P.NPAT:
                raise InvalidInputError(f"tables must be [2, {P.KEYS}] codes below {P.NPAT}, got shape {given.shape}")
            self.tables = _read_only(packed(given.astype(np.uint8)))
        given_weights = None if weights is None else np.ascontiguousarray(weights, dtype=np.int64)
        self.weights = combination_values(self.rule) if given_weights is None else _read_only(given_weights)
        rows = self.weights.shape[0] if self.weights.ndim == 2 else 0
        if self.weights.ndim != 2 or not 2 <= rows <= P.MAX_ROWS or rows % 2 or self.weights.shape[1] != P.NPAT**4:
            raise InvalidInputError(
                f"weights must have 2, 4 or {P.MAX_ROWS} rows of {P.NPAT**4} combinations, "
                f"got shape {self.weights.shape}"
            )
        self.tot = np.zeros(rows, dtype=np.int64)
        self.zob = zobrist(n)
        self._arrays = BoardArrays(
            self.cells, self.keys, self.pat, self.near, self.cnt, self.tot, self.hsh,
            self.nbr, self.tables, self.weights, self.zob,
        )  # fmt: skip
        P._init_board(self._arrays)

    def arrays(self) -> BoardArrays:
        """The arrays, as the board kernels take them (the last four read-only)."""
        return self._arrays

    def place(self, cell: int, player: int) -> None:
        """Put a ``player`` stone on the empty ``cell`` (no checks: the caller plays legal moves)."""
        P._place(self.arrays(), cell, player)

    def remove(self, cell: int) -> None:
        """Take the stone off ``cell`` (the last one placed there)."""
        P._remove(self.arrays(), cell)

    def code(self, cell: int, player: int, direction: int) -> int:
        """What a ``player`` stone on the empty ``cell`` makes in ``direction`` (0 row ... 3 anti-diagonal)."""
        return int(self.pat[player - 1, cell * 4 + direction])

    def codes(self, player: int) -> npt.NDArray[np.uint8]:
        """The codes of ``player`` as an ``[n, n, 4]`` array (meaningful on empty cells only)."""
        codes: npt.NDArray[np.uint8] = self.pat[player - 1].reshape(self.n, self.n, 4).copy()
        return codes

    def count(self, player: int, pattern: Pattern | int) -> int:
        """How many (empty cell, direction) pairs give ``player`` the code ``pattern``."""
        return int(self.cnt[player - 1, int(pattern)])

    def total(self, player: int) -> int:
        """The worth of ``player``'s code combinations, summed over the empty cells."""
        return int(self.tot[player - 1])

    @property
    def key(self) -> int:
        """The Zobrist key of the stones (the same as :attr:`State.key <plyground.kinrow.board.State.key>`)."""
        return int(self.hsh[0])
