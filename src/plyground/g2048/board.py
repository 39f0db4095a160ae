"""The 2048 board: an immutable value over a 64-bit bitboard.

A board of R rows and C columns (2 <= R, C <= 4) stores each cell as a 4-bit exponent
(tile ``2**e``; 0 is empty) at bit ``16*r + 4*c`` of a 64-bit integer. Tiles go up
to 32768 (exponent 15); **two 32768 tiles never merge**, since a cell holds 4 bits.

>>> board = Board.parse("2 2 2 2/0 0 0 0/0 0 0 0/0 0 0 0")
>>> after, points = board.move("left")
>>> after.to_rows()[0], points
([4, 4, 0, 0], 8)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

import numpy as np

from plyground.errors import InvalidBoardError, InvalidInputError, UnknownDirectionError
from plyground.g2048 import _kernels as K
from plyground.g2048._tables import MAX_EXPONENT, VALID_CELLS

__all__ = [
    "DIRECTIONS",
    "MAX_TILE",
    "Board",
    "Direction",
    "RandomPlay",
    "SpawnOutcome",
    "direction_index",
    "random_play",
    "tile_exponent",
]

Direction = Literal["up", "right", "down", "left"]
DIRECTIONS: tuple[Direction, ...] = ("up", "right", "down", "left")
"""The four moves, in the order of their kernel indices 0, 1, 2, 3."""

MIN_SIDE, MAX_SIDE = 2, 4
MAX_TILE = 1 << MAX_EXPONENT
DEFAULT_P_FOUR = 0.1
MAX_RANDOM_MOVES = 2**62
"""The most moves one :func:`random_play` call plays."""

_DIRECTION_INDEX: dict[str, int] = {name: i for i, name in enumerate(DIRECTIONS)}
_CELL_SPLIT = re.compile(r"[\s,]+")
_ROW_SPLIT = re.compile(r"[/\n;]")


def direction_index(direction: str) -> int:
    """The kernel index (0 up, 1 right, 2 down, 3 left) of a direction name.

    Raises:
        UnknownDirectionError: ``direction`` is not one of :data:`DIRECTIONS`.
    """
    index = _DIRECTION_INDEX.get(direction.strip().lower()) if isinstance(direction, str) else None
    if index is not None:
        return index
    raise UnknownDirectionError(f"unknown direction {direction!r}: expected one of {', '.join(DIRECTIONS)}")


def tile_exponent(tile: int, where: str = "") -> int:
    """The exponent of a tile value (0 for an empty cell).

    Raises:
        InvalidBoardError: ``tile`` is not 0 nor a power of two from 2 to 32768.
    """
    if isinstance(tile, bool) or not isinstance(tile, int | np.integer):
        raise InvalidBoardError(f"invalid tile {tile!r}{where}: tiles are integers")
    value = int(tile)
    if value == 0:
        return 0
    if value < 2 or value > MAX_TILE or value & (value - 1):
        raise InvalidBoardError(
            f"invalid tile {value}{where}: tiles are 0 (empty) or powers of two from 2 to {MAX_TILE}"
        )
    return value.bit_length() - 1


def _check_size(rows: int, cols: int) -> None:
    for value in (rows, cols):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or not MIN_SIDE <= value <= MAX_SIDE:
            raise InvalidBoardError(
                f"a {rows}x{cols} board is not supported: "
                f"boards have {MIN_SIDE} to {MAX_SIDE} rows and {MIN_SIDE} to {MAX_SIDE} columns"
            )


class SpawnOutcome(NamedTuple):
    """One possible tile spawn: ``tile`` appears at ``cell`` with ``probability``."""

    cell: tuple[int, int]
    tile: int
    probability: float
    board: Board


class Board:
    """An immutable 2048 board of ``rows`` × ``cols`` cells.

    Boards compare equal when they have the same size and tiles, and are hashable.
    Build one with :meth:`from_rows`, :meth:`parse`, :meth:`empty` or from its bits.
    """

    __slots__ = ("_bits", "_cols", "_rows")

    def __init__(self, bits: int = 0, rows: int = 4, cols: int = 4) -> None:
        """A board from its 64-bit encoding.

        Raises:
            InvalidBoardError: the size is out of range, or bits lie outside the board.
        """
        _check_size(rows, cols)
        if isinstance(bits, bool) or not isinstance(bits, int | np.integer) or not 0 <= int(bits) < 1 << 64:
            raise InvalidBoardError(f"invalid board bits {bits!r}: expected an integer in [0, 2**64)")
        bits = int(bits)
        if bits & ~int(VALID_CELLS[rows, cols] * np.uint64(0xF)):
            raise InvalidBoardError(f"board bits {bits:#018x} have tiles outside a {rows}x{cols} board")
        self._bits = bits
        self._rows = rows
        self._cols = cols

    @classmethod
    def _trusted(cls, bits: int, rows: int, cols: int) -> Board:
        board = object.__new__(cls)
        board._bits, board._rows, board._cols = bits, rows, cols
        return board

    @classmethod
    def empty(cls, rows: int = 4, cols: int = 4) -> Board:
        """The empty board of the given size."""
        return cls(0, rows, cols)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]]) -> Board:
        """A board from its rows of tile values (0 for an empty cell).

        >>> Board.from_rows([[2, 0], [0, 4]]).max_tile()
        4

        Raises:
            InvalidBoardError: a bad tile value, rows of different lengths, or a bad size.
        """
        if isinstance(rows, str) or not isinstance(rows, Sequence):
            raise InvalidBoardError(f"expected a sequence of rows, got {type(rows).__name__}")
        lines = [list(row) if isinstance(row, Iterable) and not isinstance(row, str) else row for row in rows]
        n_rows = len(lines)
        for r, line in enumerate(lines):
            if not isinstance(line, list):
                raise InvalidBoardError(f"row {r + 1} is not a sequence of tiles: {line!r}")
        n_cols = len(lines[0]) if lines else 0
        for r, line in enumerate(lines):
            if len(line) != n_cols:
                raise InvalidBoardError(
                    f"row {r + 1} has {len(line)} cells but row 1 has {n_cols}: rows must have the same length"
                )
        _check_size(n_rows, n_cols)
        bits = 0
        for r, line in enumerate(lines):
            for c, tile in enumerate(line):
                bits |= tile_exponent(tile, f" at row {r + 1}, column {c + 1}") << (16 * r + 4 * c)
        return cls._trusted(bits, n_rows, n_cols)

    @classmethod
    def parse(cls, text: str) -> Board:
        """A board from text: rows separated by ``/`` or newlines, cells by spaces or commas.

        ``0`` or ``.`` marks an empty cell.

        >>> Board.parse("2 . 4/0,0,8") == Board.from_rows([[2, 0, 4], [0, 0, 8]])
        True

        Raises:
            InvalidBoardError: a cell that is not a tile, or any error of :meth:`from_rows`.
        """
        if not isinstance(text, str):
            raise InvalidBoardError(f"expected board text, got {type(text).__name__}")
        rows: list[list[int]] = []
        for line in _ROW_SPLIT.split(text):
            cells = [cell for cell in _CELL_SPLIT.split(line.strip()) if cell]
            if not cells:
                continue
            row = []
            for cell in cells:
                if cell == ".":
                    row.append(0)
                elif cell.isdigit():
                    row.append(int(cell))
                else:
                    raise InvalidBoardError(f"cannot read cell {cell!r} in row {len(rows) + 1} of {text!r}")
            rows.append(row)
        if not rows:
            raise InvalidBoardError(f"no rows in board text {text!r}")
        return cls.from_rows(rows)

    @property
    def bits(self) -> int:
        """The 64-bit encoding: exponent of cell (r, c) at bit ``16*r + 4*c``."""
        return self._bits

    @property
    def rows(self) -> int:
        """The number of rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """The number of columns."""
        return self._cols

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return self._rows, self._cols

    def exponent(self, row: int, col: int) -> int:
        """The exponent stored at a cell (0 for empty)."""
        self._check_cell(row, col)
        return (self._bits >> (16 * row + 4 * col)) & 0xF

    def __getitem__(self, cell: tuple[int, int]) -> int:
        """The tile value at ``(row, col)``, 0 for an empty cell."""
        exponent = self.exponent(*cell)
        return 1 << exponent if exponent else 0

    def to_rows(self) -> list[list[int]]:
        """The tile values row by row (0 for empty)."""
        return [[self[r, c] for c in range(self._cols)] for r in range(self._rows)]

    def to_text(self) -> str:
        """A one-line form that :meth:`parse` reads back: ``"2 0 0 0/0 4 0 0/..."``."""
        return "/".join(" ".join(str(tile) for tile in row) for row in self.to_rows())

    def __str__(self) -> str:
        rows = self.to_rows()
        width = max(len(str(tile)) for row in rows for tile in row)
        return "\n".join(" ".join((str(t) if t else ".").rjust(width) for t in row) for row in rows)

    def __repr__(self) -> str:
        return f"Board.parse({self.to_text()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self._bits, self._rows, self._cols) == (other._bits, other._rows, other._cols)

    def __hash__(self) -> int:
        return hash((self._bits, self._rows, self._cols))

    def move(self, direction: Direction | str) -> tuple[Board, int]:
        """Slide and merge towards ``direction``; return the new board and the points scored.

        An illegal move (one that changes nothing) returns the same board and 0; no
        tile is spawned here (see :class:`plyground.g2048.Game`).

        Raises:
            UnknownDirectionError: ``direction`` is not up, right, down or left.
        """
        d = direction_index(direction)
        b = np.uint64(self._bits)
        moved = int(K._move(b, d, self._rows, self._cols))
        if moved == self._bits:
            return self, 0
        return Board._trusted(moved, self._rows, self._cols), int(K._points(b, d, self._rows, self._cols))

    def legal_moves(self) -> list[Direction]:
        """The directions whose move changes the board, in the order up, right, down, left."""
        mask = int(K._legal_mask(np.uint64(self._bits), self._rows, self._cols))
        return [name for d, name in enumerate(DIRECTIONS) if mask >> d & 1]

    def is_terminal(self) -> bool:
        """True when no move is legal: the game is over."""
        return bool(K._is_terminal(np.uint64(self._bits), self._rows, self._cols))

    def max_tile(self) -> int:
        """The largest tile value (0 for an empty board)."""
        exponent = max(self.exponent(r, c) for r in range(self._rows) for c in range(self._cols))
        return 1 << exponent if exponent else 0

    def tile_sum(self) -> int:
        """The sum of all tiles (the board's "age": a move keeps it, a spawn adds 2 or 4)."""
        return sum(tile for row in self.to_rows() for tile in row)

    def empty_cells(self) -> list[tuple[int, int]]:
        """The empty cells as ``(row, col)``, in reading order."""
        return [(r, c) for r in range(self._rows) for c in range(self._cols) if not self.exponent(r, c)]

    def with_tile(self, cell: tuple[int, int], tile: int) -> Board:
        """A copy with ``tile`` placed on the empty ``cell``.

        Raises:
            InvalidBoardError: the cell is outside the board or not empty, or a bad tile.
        """
        row, col = cell
        if self.exponent(row, col):
            raise InvalidBoardError(f"cell ({row}, {col}) is not empty")
        exponent = tile_exponent(tile)
        if not exponent:
            raise InvalidBoardError("cannot place an empty tile")
        return Board._trusted(self._bits | exponent << (16 * row + 4 * col), self._rows, self._cols)

    def spawn_outcomes(self, p_four: float = DEFAULT_P_FOUR) -> list[SpawnOutcome]:
        """Every possible spawn: each empty cell × {2, 4}, with its probability.

        The cell is uniform among the empty cells; the tile is a 4 with probability
        ``p_four``, else a 2. Probabilities sum to 1 (an empty list for a full board).
        """
        p_four = check_p_four(p_four)
        cells = self.empty_cells()
        outcomes = []
        for cell in cells:
            outcomes.append(SpawnOutcome(cell, 2, (1.0 - p_four) / len(cells), self.with_tile(cell, 2)))
            outcomes.append(SpawnOutcome(cell, 4, p_four / len(cells), self.with_tile(cell, 4)))
        return outcomes

    def _check_cell(self, row: int, col: int) -> None:
        if not (0 <= row < self._rows and 0 <= col < self._cols):
            raise InvalidBoardError(f"cell ({row}, {col}) is outside a {self._rows}x{self._cols} board")


def check_p_four(p_four: float) -> float:
    """Validate the probability that a spawned tile is a 4.

    Raises:
        InvalidInputError: ``p_four`` is not a number in [0, 1].
    """
    if isinstance(p_four, bool) or not isinstance(p_four, int | float | np.floating) or not 0.0 <= p_four <= 1.0:
        raise InvalidInputError(f"p_four must be a probability in [0, 1], got {p_four!r}")
    return float(p_four)


class RandomPlay(NamedTuple):
    """What :func:`random_play` played: the games that ended, the points of every move, and the last board."""

    games: int
    points: int
    board: Board


def random_play(moves: int, *, seed: int, rows: int = 4, cols: int = 4, p_four: float = DEFAULT_P_FOUR) -> RandomPlay:
    """Play ``moves`` random moves on the engine's kernels, a new game starting whenever one ends.

    Each of the ``moves`` steps draws a direction; an illegal draw falls back to the first
    legal direction (up, right, down, left), and on a board without one the step ends the game
    and starts the next instead. A tile spawns after every move, and two start each game. The
    draws come from a SplitMix64 stream started at ``seed``: the same seed gives the same play.
    It measures the engine's raw speed (``benchmarks/engine.py`` times it).

    >>> played = random_play(1000, seed=3, rows=2, cols=2)
    >>> played.games > 0, played == random_play(1000, seed=3, rows=2, cols=2)
    (True, True)

    Args:
        moves: the steps to play, 0 to :data:`MAX_RANDOM_MOVES`.
        seed: an integer in ``[0, 2**64)``.
        rows: the board's rows, 2 to 4.
        cols: the board's columns, 2 to 4.
        p_four: the probability that a spawned tile is a 4.

    Raises:
        InvalidInputError: ``moves``, ``seed`` or ``p_four`` out of range.
        InvalidBoardError: a size out of range.
    """
    if isinstance(moves, bool) or not isinstance(moves, int | np.integer) or not 0 <= moves <= MAX_RANDOM_MOVES:
        raise InvalidInputError(f"moves must be an integer from 0 to 2**62, got {moves!r}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 1 << 64:
        raise InvalidInputError(f"seed must be an integer in [0, 2**64), got {seed!r}")
    _check_size(rows, cols)
    threshold = min(int(check_p_four(p_four) * 2**32), 2**32)  # the low 32 bits of a draw below it spawn a 4
    games, points, bits = K._random_play(int(moves), np.uint64(seed), int(rows), int(cols), np.uint64(threshold))
    return RandomPlay(int(games), int(points), Board._trusted(int(bits), int(rows), int(cols)))
