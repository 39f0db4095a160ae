"""A solved 2048 board size, read from its folder: the folder's files and the queries on them.

:func:`plyground.g2048.solver.solve` writes the folder; :class:`Solution` reads it, loading
layers when needed::

    solution.json            rows, cols, p_four, progress and the counts of every age
    states-0004.npy          canonical state codes of age 4, sorted (uint64)
    after-0004.npy           canonical afterstate codes of age 4, sorted
    values-0004.npy          V of each state of age 4 (float64)

Boards are stored once per symmetry class (8 symmetries on a square board, 4 on a
rectangle), as the smallest of their images' bitboards. With ``compact=True`` the code
arrays are stored Elias-Fano encoded (``*.ef.npy``) over the cells packed 4 bits each, as
the paper does.
"""

from __future__ import annotations

import itertools
import os
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat, atomic_write, data_dir
from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError, PlygroundError
from plyground.g2048 import _kernels as K
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048.board import DIRECTIONS, Board, Direction, check_p_four
from plyground.g2048.solver_estimate import FILE_BYTES, need_room

__all__ = [
    "FORMAT",
    "MAX_CELLS",
    "AgeCounts",
    "Solution",
    "StartClass",
    "check_values",
    "compact_codes",
    "default_directory",
    "max_score",
    "pack_codes",
]

FORMAT = "plyground.g2048.solution"
VERSION = 1
SOLUTION_FILE = FileFormat(FORMAT, VERSION, "a plyground solution", "solution")
"""``solution.json``: the size, ``p_four``, how far each pass got and the counts of every age."""
MAX_CELLS = 12
"""The solver takes boards of at most 12 cells (2×2 to 4×3 and 3×4)."""

Codes = npt.NDArray[np.uint64]
Values = npt.NDArray[np.float64]

_EMPTY = np.empty(0, dtype=np.uint64)
_NO_VALUES = np.empty(0, dtype=np.float64)


@dataclass(frozen=True)
class AgeCounts:
    """The boards of one age (or of all ages), per symmetry class and unreduced."""

    age: int
    states: int
    states_unreduced: int
    terminal: int
    terminal_unreduced: int
    afterstates: int
    afterstates_unreduced: int

    def __add__(self, other: AgeCounts) -> AgeCounts:
        return AgeCounts(
            max(self.age, other.age), *(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)[1:])
        )


@dataclass(frozen=True)
class StartClass:
    """A class of start states: a canonical two-tile board, its probability and its value."""

    board: Board
    probability: float
    value: float


def default_directory(rows: int, cols: int, p_four: float = 0.1) -> Path:
    """Where :func:`~plyground.g2048.solver.solve` keeps a solution unless told otherwise: the user data folder."""
    return data_dir() / "solutions" / f"{rows}x{cols}-p{p_four:g}"


def check_size(rows: Any, cols: Any) -> tuple[int, int]:
    """``(rows, cols)`` of a board the solver takes.

    Raises:
        InvalidInputError: not 2 to 4 rows and columns, or more than :data:`MAX_CELLS` cells.
    """
    if not all(isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 4 for n in (rows, cols)):
        raise InvalidInputError(f"a board has 2 to 4 rows and columns, got {rows!r}x{cols!r}")
    if rows * cols > MAX_CELLS:
        raise InvalidInputError(f"the solver takes boards of at most {MAX_CELLS} cells, got {rows}x{cols}")
    return rows, cols


# ---------------------------------------------------------------------------
# The folder's files
# ---------------------------------------------------------------------------


class LayerFiles:
    """The layer files of one solution folder: code and value arrays per age, written atomically."""

    def __init__(self, directory: Path, rows: int, cols: int, compact: bool) -> None:
        self.directory = directory
        self.rows, self.cols, self.compact = rows, cols, compact

    @property
    def meta_path(self) -> Path:
        return self.directory / "solution.json"

    def _path(self, kind: str, age: int) -> Path:
        suffix = ".ef.npy" if self.compact and kind != "values" else ".npy"
        return self.directory / f"{kind}-{age:04d}{suffix}"

    def save(self, kind: str, age: int, array: npt.NDArray[Any]) -> None:
        """Write a layer's array; an OSError (ENOSPC) first when the disk would not hold it."""
        if self.compact and kind != "values":
            array = _compact(array, self.rows, self.cols)
        name = "afterstates" if kind == "after" else kind
        need_room(self.directory, array.nbytes + FILE_BYTES, f"the {name} of age {age:,}")

        def write(handle: IO[bytes]) -> None:
            np.save(handle, array, allow_pickle=False)

        atomic_write(self._path(kind, age), write)

    def load(self, kind: str, age: int) -> npt.NDArray[Any]:
        """A layer's array, read whole; values are checked (:func:`check_values`) as they are read anyway.

        Raises:
            CorruptFileError: the file is missing, cannot be read, or is damaged (one line naming it).
        """
        path = self._path(kind, age)
        dtype = np.float64 if kind == "values" else np.uint64
        try:
            array = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise CorruptFileError(f"{path} is missing: the solution folder is incomplete") from None
        except (ValueError, OSError, EOFError) as exc:
            if isinstance(exc, OSError) and exc.errno is not None:  # permissions, a folder: not the file's fault
                raise CorruptFileError(f"{path} cannot be read ({exc.strerror or exc})") from None
            raise CorruptFileError(f"{path} is damaged: {_npy_problem(path, exc)}") from None
        if array.dtype != dtype or array.ndim != 1:
            raise CorruptFileError(
                f"{path} is damaged: it holds {array.dtype} of shape {array.shape}, expected a 1-D {dtype}"
            )
        if kind == "values":
            check_values(array, path, max_score(self.rows, self.cols))
        if self.compact and kind != "values":
            array = _expand(array, self.rows, self.cols, path)
        return np.ascontiguousarray(array)

    def nbytes(self, kind: str, age: int) -> int:
        return self._path(kind, age).stat().st_size


_NPY_MAGIC = b"\x93NUMPY"


def _npy_problem(path: Path, exc: Exception) -> str:
    """What is wrong with a ``.npy`` file that ``np.load`` refused, in words."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_NPY_MAGIC))
    except OSError:
        head = b""
    if head != _NPY_MAGIC:  # numpy then takes it for a pickle, and says so
        return "it is not a NumPy array file"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def max_score(rows: int, cols: int) -> int:
    """A bound on any score of an R×C game, so on any expected future score.

    A tile of rank ``r`` (``2**r``) brought ``(r - 1) * 2**r`` points at most, in the merges
    that made it; a cell holds rank 15 at most and the final board R×C tiles, so a score
    is at most ``R * C * 14 * 2**15`` (5,505,024 on 12 cells).

    >>> max_score(2, 2)
    1835008
    """
    return rows * cols * 14 * 2**15


def check_values(values: Values, path: str | os.PathLike[str], most: float) -> None:
    """Refuse values read from ``path`` that no solution holds: not finite, negative or above ``most``.

    Raises:
        CorruptFileError: one line naming the file and a bad value (the smallest or the largest).
    """
    if values.size == 0:
        return
    low, high = float(values.min()), float(values.max())  # NaN comes out of min() and fails both tests
    if low >= 0.0 and high <= most:
        return
    bad = low if not low >= 0.0 else high
    raise CorruptFileError(f"{path} is damaged: it holds {bad!r}, not an expected future score (0 to {most:,.0f})")


def pack_codes(codes: Codes, rows: int, cols: int) -> Codes:
    """Board codes with their cells packed 4 bits each, in the same order: what ``*.ef.npy`` files encode.

    Cell (r, c) moves from bit ``16*r + 4*c`` of a bitboard to bit ``4*(r*cols + c)``, so that
    the code of an R×C board takes ``4RC`` bits.

    >>> [hex(code) for code in pack_codes(np.array([0x0021_0001], dtype=np.uint64), 2, 2).tolist()]
    ['0x2101']

    Args:
        codes: a 1-D ``uint64`` array of ``rows``×``cols`` bitboards (every cell outside the board 0).
        rows: the board's rows, 2 to 4.
        cols: its columns, 2 to 4, at most :data:`MAX_CELLS` cells in all.

    Raises:
        InvalidInputError: a bad size, not a 1-D ``uint64`` array, or a code with a tile outside the
            board (the message names the first).
    """
    checked, rows, cols = _board_codes(codes, rows, cols)
    return _pack(checked, rows, cols)


def compact_codes(codes: Codes, rows: int, cols: int) -> Codes:
    """Sorted board codes as a compact solution stores them: the words of a ``*.ef.npy`` layer file.

    The Elias-Fano code of the :func:`pack_codes` of ``codes``, as one ``uint64`` array:
    ``[n, low bits, words of lows, lows..., highs...]`` (the file's ``.npy`` header aside, its
    size is ``8 * compact_codes(...).size`` bytes).

    >>> compact_codes(np.array([0x1, 0x11, 0x10001], dtype=np.uint64), 2, 2).tolist()
    [3, 6, 1, 5185, 67]

    Args:
        codes: as :func:`pack_codes`, and in non-decreasing order.
        rows: the board's rows, 2 to 4.
        cols: its columns, 2 to 4, at most :data:`MAX_CELLS` cells in all.

    Raises:
        InvalidInputError: as :func:`pack_codes`, or codes out of order (the message names the first).
    """
    checked, rows, cols = _board_codes(codes, rows, cols)
    drops = np.flatnonzero(checked[1:] < checked[:-1])
    if drops.size:
        i = int(drops[0]) + 1
        raise InvalidInputError(
            f"codes must be in non-decreasing order, got codes[{i}] = {int(checked[i]):#x} "
            f"< codes[{i - 1}] = {int(checked[i - 1]):#x}"
        )
    return _compact(checked, rows, cols)


def _board_codes(codes: object, rows: object, cols: object) -> tuple[Codes, int, int]:
    """``codes`` as a writable C-contiguous array of bitboards of the size, checked, with the size."""
    size = check_size(rows, cols)
    if not isinstance(codes, np.ndarray) or codes.ndim != 1 or codes.dtype != np.uint64:
        shown = f"an array of {codes.dtype} of shape {codes.shape}" if isinstance(codes, np.ndarray) else repr(codes)
        raise InvalidInputError(f"codes must be a 1-D numpy array of uint64, got {shown}")
    board = sum(((1 << 4 * size[1]) - 1) << 16 * r for r in range(size[0]))
    outside = np.flatnonzero(codes & np.uint64(((1 << 64) - 1) ^ board))
    if outside.size:
        i = int(outside[0])
        raise InvalidInputError(f"codes[{i}] = {int(codes[i]):#x} has tiles outside a {size[0]}x{size[1]} board")
    return np.require(codes, requirements=("C", "W")), *size


def _pack(codes: Codes, rows: int, cols: int) -> Codes:
    packed = np.empty_like(codes)
    SK._pack_dense(codes, rows, cols, packed)
    return packed


def _compact(codes: Codes, rows: int, cols: int) -> Codes:
    """Sorted codes of the size, unchecked, as :func:`compact_codes` gives them."""
    from plyground.core import elias_fano

    code = elias_fano.encode(_pack(codes, rows, cols))
    head = np.array([code.n, code.low_bits, code.lows.shape[0]], dtype=np.uint64)
    return np.concatenate([head, code.lows, code.highs])


def _expand(words: Codes, rows: int, cols: int, path: Path) -> Codes:
    """The codes stored by :func:`_compact`."""
    from plyground.core import elias_fano

    if words.shape[0] < 3 or int(words[2]) > words.shape[0] - 3:
        raise CorruptFileError(f"{path} is not an Elias-Fano code (its header is cut)")
    n, low_bits, n_lows = (int(w) for w in words[:3])
    arrays = {
        "n": np.array(n, dtype=np.int64),
        "low_bits": np.array(low_bits, dtype=np.int64),
        "lows": words[3 : 3 + n_lows],
        "highs": words[3 + n_lows :],
    }
    try:
        packed = elias_fano.EliasFano.from_arrays(arrays).decode()
    except CorruptFileError as exc:
        raise CorruptFileError(f"{path}: {exc}") from None
    codes = np.empty_like(packed)
    SK._unpack_dense(packed, rows, cols, codes)
    return codes


def read_meta(path: Path) -> dict[str, Any]:
    """The checked contents of a ``solution.json``.

    Raises:
        CorruptFileError: not a solution file of this version.
    """
    meta = SOLUTION_FILE.read(path)
    try:
        check_size(meta["rows"], meta["cols"])
        meta["p_four"] = check_p_four(meta["p_four"])
        for row in meta["ages"]:
            if len(row) != len(fields(AgeCounts)) or not all(isinstance(n, int) for n in row):
                raise CorruptFileError(f"{path} has a malformed count row {row!r}")
        bool(meta["compact"]), meta["forward"]["age"], meta["forward"]["complete"]
        meta["backward"]["age"], meta["backward"]["complete"]
    except (KeyError, TypeError, InvalidInputError) as exc:
        if isinstance(exc, CorruptFileError):
            raise
        raise CorruptFileError(f"{path} is not a valid solution file ({exc})") from None
    return meta


# ---------------------------------------------------------------------------
# The solution
# ---------------------------------------------------------------------------


class Solution:
    """A solved (or forward-counted) board size, read from its folder.

    Layers are loaded when needed and the last few are kept in memory.

    Raises:
        CorruptFileError: the folder holds no readable solution.
    """

    _CACHED_LAYERS = 12

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._meta = read_meta(self.directory / "solution.json")
        self.rows: int = self._meta["rows"]
        self.cols: int = self._meta["cols"]
        self.p_four: float = self._meta["p_four"]
        self.compact: bool = bool(self._meta["compact"])
        self._store = LayerFiles(self.directory, self.rows, self.cols, self.compact)
        self._layers: OrderedDict[int, tuple[Codes, Values | None]] = OrderedDict()
        self._ages = {row[0] for row in self._meta["ages"]}

    def __repr__(self) -> str:
        state = "solved" if self.solved else "forward pass only"
        return f"Solution({self.rows}x{self.cols}, p_four={self.p_four}, {state}, {self.directory})"

    @property
    def solved(self) -> bool:
        """Whether every state has its value."""
        return bool(self._meta["backward"]["complete"])

    @property
    def complete(self) -> bool:
        """Whether the forward pass listed every age."""
        return bool(self._meta["forward"]["complete"])

    def counts(self) -> list[AgeCounts]:
        """The boards of each age, per symmetry class and unreduced."""
        return [AgeCounts(*row) for row in self._meta["ages"]]

    def totals(self) -> AgeCounts:
        """The boards of all ages together (``age`` is the largest age)."""
        total = AgeCounts(0, 0, 0, 0, 0, 0, 0)
        for counts in self.counts():
            total = total + counts
        return total

    def stored_bytes(self) -> dict[str, int]:
        """Bytes on disk of the state codes, afterstate codes and values."""
        return {
            kind: sum(self._store.nbytes(kind, age) for age in sorted(self._ages))
            for kind in ("states", "after") + (("values",) if self.solved else ())
        }

    # -- lookups ----------------------------------------------------------

    def _layer(self, age: int) -> tuple[Codes, Values | None]:
        if age in self._layers:
            self._layers.move_to_end(age)
            return self._layers[age]
        if age not in self._ages:
            layer: tuple[Codes, Values | None] = (_EMPTY, _NO_VALUES)
        else:
            codes = self._store.load("states", age)
            values = self._store.load("values", age) if self.solved else None
            if values is not None and values.shape != codes.shape:
                raise CorruptFileError(f"{self.directory}: the values of age {age} do not match its states")
            layer = (codes, values)
        self._layers[age] = layer
        if len(self._layers) > self._CACHED_LAYERS:
            self._layers.popitem(last=False)
        return layer

    def _check(self, board: Board) -> np.uint64:
        if not isinstance(board, Board):
            raise InvalidInputError(f"expected a Board, got {type(board).__name__}")
        if (board.rows, board.cols) != (self.rows, self.cols):
            raise InvalidBoardError(
                f"this is the solution of {self.rows}x{self.cols}, not of a {board.rows}x{board.cols} board"
            )
        if not self.solved:
            raise PlygroundError(f"{self.directory} holds no values yet (forward pass only): solve it first")
        return np.uint64(board.bits)

    def _state_value(self, bits: np.uint64, age: int, board: Board) -> float:
        codes, values = self._layer(age)
        k = int(SK._find(codes, SK._canonical(bits, self.rows, self.cols)))
        if k < 0 or values is None:
            raise InvalidBoardError(f"{board.to_text()} is not a reachable {self.rows}x{self.cols} state")
        return float(values[k])

    def _spawn_values(self, boards: Codes, age: int, board: Board) -> Values:
        """V of boards of ``age`` before a spawn: the average over the spawns of the states they become.

        The empty board spawns one-tile boards, which spawn again (the start of a game).
        """
        if age == 0:  # the empty board
            cells = [1 << i for i in range(64) if int(K._empty_bits(boards[0], self.rows, self.cols)) >> i & 1]
            total = 0.0
            for exponent, p in ((1, 1.0 - self.p_four), (2, self.p_four)):
                if p:
                    one_tile = np.array([cell * exponent for cell in cells], dtype=np.uint64)
                    total += p * float(self._spawn_values(one_tile, 2 * exponent, board).sum())
            return np.array([total / len(cells)])
        out = np.empty(boards.shape[0], dtype=np.float64)
        layer_2, layer_4 = self._layer(age + 2), self._layer(age + 4)
        missing = SK._chance_values(
            boards, self.rows, self.cols, self.p_four, layer_2[0], layer_2[1], layer_4[0], layer_4[1], out
        )
        if missing:
            raise InvalidBoardError(f"{board.to_text()} does not lead to reachable {self.rows}x{self.cols} states")
        return out

    def value(self, board: Board) -> float:
        """The optimal expected future score of ``board`` as a state (the player to move).

        Raises:
            InvalidBoardError: the board is not a reachable state of this size.
        """
        bits = self._check(board)
        return self._state_value(bits, board.tile_sum(), board)

    def afterstate_value(self, board: Board) -> float:
        """The optimal expected future score of ``board`` as an afterstate (a tile to spawn).

        The empty board and one-tile boards are valued as the start of a game.
        """
        bits = self._check(board)
        if K._count_empty(bits, self.rows, self.cols) == 0:
            raise InvalidBoardError(f"{board.to_text()} has no empty cell to spawn on")
        return float(self._spawn_values(np.array([bits]), board.tile_sum(), board)[0])

    def move_values(self, board: Board) -> dict[Direction, float]:
        """Each legal move's points plus the value of its afterstate, in direction order."""
        bits = self._check(board)
        age = board.tile_sum()
        self._state_value(bits, age, board)  # reachable?
        moves = [d for d in range(4) if K._move(bits, d, self.rows, self.cols) != bits]
        after = np.array([K._move(bits, d, self.rows, self.cols) for d in moves], dtype=np.uint64)
        values = self._spawn_values(after, age, board) if moves else _NO_VALUES
        return {
            DIRECTIONS[d]: int(K._points(bits, d, self.rows, self.cols)) + float(value)
            for d, value in zip(moves, values, strict=True)
        }

    def best_move(self, board: Board) -> Direction | None:
        """An optimal move (the first in direction order among equals), None on a finished board."""
        values = self.move_values(board)
        return max(values.items(), key=lambda item: item[1])[0] if values else None

    def expected_score(self) -> float:
        """The expected final score of optimal play from the random start."""
        self._check(Board.from_rows([[0] * self.cols for _ in range(self.rows)]))
        return sum(start.probability * start.value for start in self.start_classes())

    def start_classes(self) -> list[StartClass]:
        """Every class of start states with its probability (they sum to 1) and value."""
        n = self.rows * self.cols
        tiles = ((1, 1.0 - self.p_four), (2, self.p_four))
        probability: dict[int, float] = {}
        for (i, (e1, p1)), (j, (e2, p2)) in itertools.product(
            itertools.product(range(n), tiles), itertools.product(range(n), tiles)
        ):
            if i == j or p1 == 0.0 or p2 == 0.0:
                continue
            bits = np.uint64(e1 << _shift(i, self.cols) | e2 << _shift(j, self.cols))
            code = int(SK._canonical(bits, self.rows, self.cols))
            probability[code] = probability.get(code, 0.0) + p1 / n * p2 / (n - 1)
        out = []
        for code, p in sorted(probability.items()):
            board = Board(code, self.rows, self.cols)
            out.append(StartClass(board, p, self.value(board)))
        return out

    def layer(self, age: int) -> tuple[Codes, Values | None]:
        """The canonical state codes of ``age`` (sorted bitboards) and their values (None before
        the backward pass), as read-only arrays; empty for an age no state has.

        Raises:
            InvalidInputError: ``age`` is not a non-negative integer.
        """
        if isinstance(age, bool) or not isinstance(age, int | np.integer) or age < 0:
            raise InvalidInputError(f"age must be a non-negative integer, got {age!r}")
        codes, values = self._layer(int(age))
        codes = codes.view()
        codes.flags.writeable = False
        if values is not None:
            values = values.view()
            values.flags.writeable = False
        return codes, values

    def boards(self, age: int) -> Iterator[tuple[Board, float | None]]:
        """The canonical states of ``age`` with their values (None before the backward pass).

        Raises:
            InvalidInputError: ``age`` is not a non-negative integer (when the first board is asked for).
        """
        codes, values = self.layer(age)
        for k, code in enumerate(codes):
            yield Board(int(code), self.rows, self.cols), (None if values is None else float(values[k]))


def _shift(cell: int, cols: int) -> int:
    return 16 * (cell // cols) + 4 * (cell % cols)
