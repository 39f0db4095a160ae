"""A learned evaluator: an n-tuple network trained by temporal-difference learning.

An *n-tuple* is a list of board cells; its table holds one weight for every way of
filling those cells with exponents (``16**n`` entries on 4×4; a smaller board, which
cannot hold every tile, has ``radix**n`` with :func:`compact_radix`, 11 on 3×3). The value of a board is the sum,
over every tuple and every *symmetric image* of it, of the weight that the image's cells
select. The images come from the symmetries that map the board onto itself: all 8 of
the square for a square board, and identity, rotate 180, mirror left-right and mirror
up-down for a rectangle. Images that visit the same cells in the same order are kept
once. Sharing one table between the images makes the value the same for a board and
each of its symmetric images.

The network learns by afterstate TD(0) (Szubert & Jaśkowski 2014): it plays whole
games, always taking the move with the largest ``points + V(afterstate)``, and moves the
value of each afterstate towards the points of the next move plus the value of the next
afterstate (towards 0 after the last move). ``alpha`` is the step of a board's value:
each of its lookups moves by ``alpha / lookups * error``. ``tc=True`` selects temporal
coherence (Jaśkowski 2018): each weight scales that step by ``|E| / A``, the ratio of the
sum of its errors to the sum of their absolute values (useful with ``alpha`` near 1).
``td_lambda`` with a ``horizon`` above 1 selects TD(lambda) with delayed updates (as in
Jaśkowski's delayed TC(lambda)): each afterstate waits ``horizon`` moves, then moves
towards its lambda-return truncated there, ``G = points + (1 - lambda) * V(next) +
lambda * G(next)`` along the next afterstates, ending in the target of TD(0) ``horizon``
moves on (or in 0 at the end of the game); the points and values are those of when the
moves were chosen.

A network of several *stages* (``stage_tiles``, multi-stage as in Yeh et al. 2016 and
Jaśkowski 2018) holds a set of tables per stage: a board whose largest tile is at least
the k-th stage tile is valued, and learnt, by the tables of stage k, so that the late
game, where the board holds the biggest tiles, is learnt apart from the early one. The
tables of a stage start as a copy of the stage before, weight by weight, when they are
first used (*weight promotion*: a weight still 0 stands for the one a stage before).
The kernels are in ``_ntuple_kernels.py``, which also describes the table layout.
``learn(..., workers=2)`` runs the learning kernel in two threads on the same weights
(lock-free updates, Hogwild-style): about twice the moves per second on two free cores,
but not reproducible, unlike one worker. Training runs that checkpoint and resume are
in :mod:`plyground.g2048.learning`.

>>> net = NTupleNetwork(2, 2, seed=3)
>>> stats = net.learn(200, alpha=0.1)
>>> stats.results.games, net.trained.games
(200, 200)

File format (:meth:`NTupleNetwork.save`): a numpy ``.npz`` archive, compressed, with

* ``header`` - uint8, UTF-8 JSON: ``{"format": "plyground.g2048.ntuple", "version": 1,
  "rows": 4, "cols": 4, "tuples": [[[0, 0], [0, 1], ...], ...], "stage_tiles": [], "radix": 16,
  "rng_state": 123, "tc": false, "training": {"games": 0, "moves": 0, "seconds": 0.0}}``
  (``stage_tiles`` may be missing: one stage; ``radix`` too: 16);
* ``weights`` - float32, the tables of all tuples one after the other, stage by stage;
* ``tc_errors`` and ``tc_abs_errors`` - float32 like ``weights``, only when ``tc`` is true.

A 4×4 network with the default tuples holds 4 × 16**6 weights (256 MiB in memory; the
file is much smaller while most weights are still 0).
"""

from __future__ import annotations

import functools
import json
import math
import os
import queue
import threading
import time
import zipfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from plyground.core.files import atomic_write
from plyground.core.seeding import resolve_seed
from plyground.core.symmetry import SYMMETRIES, Symmetry
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048 import _ntuple_kernels as NK
from plyground.g2048.board import DEFAULT_P_FOUR, Board, check_p_four
from plyground.g2048.evaluator import Evaluator, Explanation, MoveSearch, MoveValue

__all__ = [
    "DEFAULT_TUPLES",
    "MAX_HORIZON",
    "MAX_RESTARTS",
    "MAX_STAGES",
    "MAX_TUPLE_SIZE",
    "GameResults",
    "LearnStats",
    "NTupleNetwork",
    "Training",
    "check_expected_updates",
    "check_lambda",
    "check_restarts",
    "check_stage_tiles",
    "check_tuples",
    "compact_radix",
    "default_tuples",
]

Cell = tuple[int, int]
Tuples = tuple[tuple[Cell, ...], ...]

MAX_TUPLE_SIZE = NK.MAX_RUNS  # a lookup reads at most one run per cell
MAX_WEIGHTS = 1 << 30
"""The most weights a network may hold (4 GiB of float32)."""
MAX_HORIZON = 64
MAX_RESTARTS = 64
"""The most restarts after a game (:meth:`NTupleNetwork.learn`): past a few, episodes last a move or two."""
"""The most moves an afterstate may wait for its TD(lambda) update."""
MAX_STAGES = 8
"""The most stages a network may have."""

NETWORK_FORMAT = "plyground.g2048.ntuple"
NETWORK_VERSION = 1

DEFAULT_TUPLES: Tuples = (
    ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1)),
    ((1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1)),
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),
    ((1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)),
)
"""The four 6-tuples of Jaśkowski 2018 and Yeh et al. 2016 for the 4×4 board."""


def _transposed(tuples: Tuples) -> Tuples:
    return tuple(tuple((c, r) for r, c in cells) for cells in tuples)


_SMALL_TUPLES: dict[tuple[int, int], Tuples] = {
    (2, 2): (((0, 0), (0, 1), (1, 0), (1, 1)),),
    (2, 3): (((0, 0), (0, 1), (0, 2), (1, 0), (1, 1)),),
    (2, 4): (((0, 0), (0, 1), (0, 2), (0, 3), (1, 0)), ((0, 1), (0, 2), (1, 0), (1, 1), (1, 2))),
    (3, 3): (((0, 0), (0, 1), (0, 2), (1, 0), (1, 1)), ((1, 0), (1, 1), (1, 2), (2, 0), (2, 1))),
    (3, 4): DEFAULT_TUPLES,  # they use rows 0 to 2 only
}


def default_tuples(rows: int = 4, cols: int = 4) -> Tuples:
    """The default tuples of an R×C board.

    * 4×4 and 3×4: :data:`DEFAULT_TUPLES` (four 6-tuples);
    * 3×3: two 5-tuples, ``(0,0) (0,1) (0,2) (1,0) (1,1)`` and ``(1,0) (1,1) (1,2) (2,0) (2,1)``;
    * 2×4: two 5-tuples, row 0 with ``(1,0)``, and ``(0,1) (0,2) (1,0) (1,1) (1,2)``;
    * 2×3: one 5-tuple, ``(0,0) (0,1) (0,2) (1,0) (1,1)``;
    * 2×2: the whole board;
    * a taller board (4×3, 4×2, 3×2): the transposed tuples of the wider one.

    Boards smaller than 3×4 use tuples of at most 5 cells, so that their tables stay small
    (16**5 weights each).

    >>> default_tuples(2, 2)
    (((0, 0), (0, 1), (1, 0), (1, 1)),)

    Raises:
        InvalidBoardError: an unsupported board size.
    """
    Board.empty(rows, cols)  # checks the size
    if rows == 4 and cols == 4:
        return DEFAULT_TUPLES
    if rows <= cols:
        return _SMALL_TUPLES[rows, cols]
    return _transposed(_SMALL_TUPLES[cols, rows])


def _inverse_point(symmetry: Symmetry, n: int, row: int, col: int) -> Cell:
    return symmetry.inverse.point(row, col, n)


def _symmetries(rows: int, cols: int) -> list[tuple[int, Callable[[int, int], Cell]]]:
    """The symmetries that map an R×C board onto itself: ``(index in SYMMETRIES, inverse cell map)``."""
    if rows == cols:
        return [(s.index, functools.partial(_inverse_point, s, rows)) for s in SYMMETRIES]
    return [  # each is its own inverse
        (0, lambda r, c: (r, c)),  # identity
        (2, lambda r, c: (rows - 1 - r, cols - 1 - c)),  # rotate 180
        (4, lambda r, c: (r, cols - 1 - c)),  # mirror left-right
        (5, lambda r, c: (rows - 1 - r, c)),  # mirror up-down
    ]


def check_tuples(tuples: Any, rows: int = 4, cols: int = 4) -> Tuples:
    """Validate tuples for an R×C board; return them as tuples of ``(row, col)`` pairs.

    Raises:
        InvalidInputError: not a non-empty list of tuples, a tuple of 0 or more than
            :data:`MAX_TUPLE_SIZE` cells, a cell that is not a ``(row, col)`` pair of
            integers, a cell off the board or twice in one tuple (the message names it),
            or more than :data:`MAX_WEIGHTS` weights in all.
    """
    Board.empty(rows, cols)
    if isinstance(tuples, str | bytes) or not isinstance(tuples, Sequence) or not tuples:
        raise InvalidInputError(f"tuples must be a non-empty list of lists of (row, col) cells, got {tuples!r}")
    out = []
    for t, cells in enumerate(tuples):
        if isinstance(cells, str | bytes) or not isinstance(cells, Sequence):
            raise InvalidInputError(f"tuples[{t}] is not a list of (row, col) cells: {cells!r}")
        if not 1 <= len(cells) <= MAX_TUPLE_SIZE:
            raise InvalidInputError(f"tuples[{t}] has {len(cells)} cells: a tuple has 1 to {MAX_TUPLE_SIZE} cells")
        seen: list[Cell] = []
        for cell in cells:
            if (
                isinstance(cell, str | bytes)
                or not isinstance(cell, Sequence)
                or len(cell) != 2
                or not all(isinstance(x, int | np.integer) and not isinstance(x, bool) for x in cell)
            ):
                raise InvalidInputError(f"tuples[{t}] has cell {cell!r}: a cell is a (row, col) pair of integers")
            r, c = int(cell[0]), int(cell[1])
            if not (0 <= r < rows and 0 <= c < cols):
                raise InvalidInputError(f"tuples[{t}] has cell ({r}, {c}) outside the {rows}x{cols} board")
            if (r, c) in seen:
                raise InvalidInputError(f"tuples[{t}] has cell ({r}, {c}) twice")
            seen.append((r, c))
        out.append(tuple(seen))
    radix = compact_radix(rows, cols)
    total = sum(radix ** len(cells) for cells in out)
    if total > MAX_WEIGHTS:
        raise InvalidInputError(f"{len(out)} tuples need {total:,} weights: at most {MAX_WEIGHTS:,} are allowed")
    return tuple(out)


def check_stage_tiles(stage_tiles: Any, rows: int = 4, cols: int = 4) -> tuple[int, ...]:
    """Validate the tiles that start the stages of a network for an R×C board; return them as a tuple.

    A network with stage tiles ``t_1 < t_2 < ...`` values a board by the tables of stage
    ``k``, the number of them that are at most its largest tile (stage 0 below ``t_1``).

    Raises:
        InvalidInputError: not a list of increasing powers of two from 4 to the largest tile
            of the board (2**(rows*cols+1), at most 32768), or more than :data:`MAX_STAGES` - 1.
    """
    Board.empty(rows, cols)
    if isinstance(stage_tiles, str | bytes) or not isinstance(stage_tiles, Sequence):
        raise InvalidInputError(f"stage tiles must be a list of tiles, got {stage_tiles!r}")
    largest = 1 << min(rows * cols + 1, 15)
    out: list[int] = []
    for tile in stage_tiles:
        if (
            isinstance(tile, bool)
            or not isinstance(tile, int | np.integer)
            or not 4 <= tile <= largest
            or tile & (tile - 1)
        ):
            raise InvalidInputError(
                f"stage tile {tile!r} is not a power of two from 4 to {largest} (the largest tile of {rows}x{cols})"
            )
        if out and tile <= out[-1]:
            raise InvalidInputError(f"stage tiles must increase: {tile} comes after {out[-1]}")
        out.append(int(tile))
    if len(out) >= MAX_STAGES:
        raise InvalidInputError(f"{len(out)} stage tiles make {len(out) + 1} stages: at most {MAX_STAGES} are allowed")
    return tuple(out)


def _images(cells: tuple[Cell, ...], rows: int, cols: int) -> list[tuple[int, tuple[Cell, ...]]]:
    """The symmetric images of a tuple: ``(symmetry, cells of the board that it reads)``.

    Reading the tuple's cells from the board moved by a symmetry reads the cells of the
    inverse image from the board itself. Images that read the same cells in the same
    order as an earlier one are dropped.
    """
    images: list[tuple[int, tuple[Cell, ...]]] = []
    for index, inverse in _symmetries(rows, cols):
        image = tuple(inverse(r, c) for r, c in cells)
        if all(image != seen for _, seen in images):
            images.append((index, image))
    return images


def compact_radix(rows: int, cols: int) -> int:
    """The radix of the tables of a new network for the R×C board: one more than the largest exponent it can hold.

    A board of ``n`` cells holds tiles up to ``2**(n + 1)`` (and a bitboard cell up to ``2**15``).

    >>> compact_radix(3, 3), compact_radix(2, 4), compact_radix(4, 4)
    (11, 10, 16)
    """
    return min(rows * cols + 2, 16)


def _runs(cells: tuple[Cell, ...], radix: int = 16) -> list[int]:
    """The ``(shift, mask, to)`` triples of a tuple.

    In radix 16, cells next to each other in the tuple and the bitboard merge into one run
    and ``to`` is a shift; in a smaller radix each cell is a run and ``to`` is ``radix**i``.
    """
    if radix != 16:
        return [x for i, (r, c) in enumerate(cells) for x in (16 * r + 4 * c, 0xF, radix**i)]
    runs: list[list[int]] = []
    for i, (r, c) in enumerate(cells):
        shift = 16 * r + 4 * c
        if runs and runs[-1][0] + 4 * runs[-1][1] == shift:
            runs[-1][1] += 1
        else:
            runs.append([shift, 1, 4 * i])
    return [x for shift, length, to in runs for x in (shift, (1 << (4 * length)) - 1, to)]


def _layout(
    tuples: Tuples, rows: int, cols: int, stage_tiles: tuple[int, ...] = (), radix: int = 16
) -> tuple[npt.NDArray[np.int64], int]:
    """The ``lookups`` array of the kernels (see ``_ntuple_kernels``) and the number of weights of one stage."""
    offsets = np.cumsum([0] + [radix ** len(cells) for cells in tuples])
    stride = int(offsets[-1])
    stages = [stride * sum(1 << e >= tile for tile in stage_tiles) for e in range(16)]
    lines = []
    for t, cells in enumerate(tuples):
        runs = _runs(cells, radix)
        for symmetry, _ in _images(cells, rows, cols):
            line = [int(offsets[t]), symmetry, len(runs) // 3, *runs]
            lines.append(line + [0] * (NK.STRIDE - len(line)) + [stride, *stages, radix])
    lines.sort(key=lambda line: line[NK.SYMMETRY])  # stable: by symmetry, then tuple
    return np.array(lines, dtype=np.int64), stride


@dataclass(frozen=True)
class GameResults:
    """The outcome of a batch of games: one entry per game."""

    scores: npt.NDArray[np.int64]
    max_tiles: npt.NDArray[np.int64]
    moves: npt.NDArray[np.int64]

    @property
    def games(self) -> int:
        """The number of games."""
        return int(self.scores.shape[0])

    @property
    def total_moves(self) -> int:
        """The moves of all games."""
        return int(self.moves.sum())

    @property
    def mean_score(self) -> float:
        """The mean score (0 for no game)."""
        return float(self.scores.mean()) if self.games else 0.0

    @property
    def max_tile(self) -> int:
        """The largest tile reached in any game (0 for no game)."""
        return int(self.max_tiles.max()) if self.games else 0

    def reach_rate(self, tile: int) -> float:
        """The share of games that reached ``tile`` (0 for no game)."""
        return float((self.max_tiles >= tile).mean()) if self.games else 0.0


@dataclass(frozen=True)
class LearnStats:
    """What one call of :meth:`NTupleNetwork.learn` did so far: the games played and the time spent."""

    results: GameResults
    seconds: float

    @property
    def moves_per_second(self) -> float:
        """Training speed (moves played and learnt from per second)."""
        return self.results.total_moves / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Training:
    """The training a network has had in all, across saves and loads."""

    games: int = 0
    moves: int = 0
    seconds: float = 0.0


_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
"""The step of the splitmix64 streams of spawns (as in the kernels)."""

_Int64s = npt.NDArray[Any]
"""A one-dimensional array that a kernel fills (int64 results, or the uint64 state of a stream)."""


def _splitmix64(z: int) -> int:
    """The splitmix64 output function (``_kernels._mix64``) on a Python int.

    >>> hex(_splitmix64(0x9E3779B97F4A7C15))
    '0xe220a8397b1dcdaf'
    """
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _results(games: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    return np.zeros(games, np.int64), np.zeros(games, np.int64), np.zeros(games, np.int64)


def check_lambda(td_lambda: Any, horizon: Any) -> tuple[float, int]:
    """``(td_lambda, horizon)`` checked: a number in [0, 1] and an integer in [1, MAX_HORIZON].

    Raises:
        InvalidInputError: either is out of range, or ``td_lambda`` is above 0 with a
            horizon of 1 (which would ignore it).
    """
    if isinstance(td_lambda, bool) or not isinstance(td_lambda, int | float) or not 0.0 <= td_lambda <= 1.0:
        raise InvalidInputError(f"td_lambda must be a number from 0 to 1, got {td_lambda!r}")
    if isinstance(horizon, bool) or not isinstance(horizon, int) or not 1 <= horizon <= MAX_HORIZON:
        raise InvalidInputError(f"horizon must be an integer from 1 to {MAX_HORIZON}, got {horizon!r}")
    if td_lambda > 0 and horizon == 1:
        raise InvalidInputError(f"td_lambda {td_lambda} needs a horizon of at least 2 (with 1 it is TD(0))")
    return float(td_lambda), horizon


def check_restarts(restarts: Any) -> int:
    """``restarts`` checked: an integer in [0, MAX_RESTARTS].

    Raises:
        InvalidInputError: it is not.
    """
    if isinstance(restarts, bool) or not isinstance(restarts, int) or not 0 <= restarts <= MAX_RESTARTS:
        raise InvalidInputError(f"restarts must be an integer from 0 to {MAX_RESTARTS}, got {restarts!r}")
    return restarts


def check_expected_updates(expected: bool, horizon: int, restarts: int) -> None:
    """Refuse expected updates with a ``horizon`` above 1 or ``restarts``: they are TD(0) over fresh games.

    Raises:
        InvalidInputError: they come with either.
    """
    if expected and (horizon > 1 or restarts > 0):
        raise InvalidInputError("expected updates are TD(0): they take neither a horizon above 1 nor restarts")


def _count(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise InvalidInputError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _seed64(seed: int | None) -> int:
    seed = resolve_seed(seed)
    if seed >= 1 << 64:
        raise InvalidInputError(f"seed must be below 2**64, got {seed}")
    return seed


class NTupleNetwork(Evaluator):
    """An n-tuple network for the R×C board: a value for every board, learnt by TD(0).

    As an :class:`~plyground.g2048.evaluator.Evaluator` it values the leaves of a search by
    the expected points still to come, on boards of its own size.

    Args:
        rows: the board's rows (2 to 4).
        cols: the board's columns (2 to 4).
        tuples: lists of ``(row, col)`` cells; None for :func:`default_tuples` of the size.
        seed: the start of the stream of spawns that :meth:`learn` plays (None: from OS entropy).
        initial_value: the value of every board before learning, spread evenly over the
            lookups (a positive value is *optimistic initialisation*).
        stage_tiles: the tiles that start new stages (multi-stage: a set of tables per
            stage; see :func:`check_stage_tiles`). The tables of a new stage start as a copy
            of those of the stage before, weight by weight, as they are first used (weight
            promotion; ``initial_value`` is that of the first stage).
        radix: the radix of the table indices, from :func:`compact_radix` of the size
            (the default) to 16; a larger one only makes the tables larger (files written
            before small boards had compact tables hold radix 16).

    Raises:
        InvalidInputError: a bad size, bad tuples (see :func:`check_tuples`), bad stage
            tiles, a bad seed, initial value or radix.
    """

    def __init__(
        self,
        rows: int = 4,
        cols: int = 4,
        tuples: Sequence[Sequence[Cell]] | None = None,
        *,
        seed: int | None = None,
        initial_value: float = 0.0,
        stage_tiles: Sequence[int] = (),
        radix: int | None = None,
    ) -> None:
        self._tuples = default_tuples(rows, cols) if tuples is None else check_tuples(tuples, rows, cols)
        self._rows, self._cols = rows, cols
        self._stage_tiles = check_stage_tiles(stage_tiles, rows, cols)
        compact = compact_radix(rows, cols)
        if radix is None:
            radix = compact
        elif isinstance(radix, bool) or not isinstance(radix, int | np.integer) or not compact <= radix <= 16:
            raise InvalidInputError(f"radix must be an integer from {compact} to 16 on {rows}x{cols}, got {radix!r}")
        self._radix = int(radix)
        self._lookups, size = _layout(self._tuples, rows, cols, self._stage_tiles, self._radix)
        stages = len(self._stage_tiles) + 1
        if size * stages > MAX_WEIGHTS:
            raise InvalidInputError(
                f"{stages} stages of {size:,} weights make {size * stages:,}: at most {MAX_WEIGHTS:,} are allowed"
            )
        if (
            isinstance(initial_value, bool)
            or not isinstance(initial_value, int | float)
            or not math.isfinite(initial_value)
        ):
            raise InvalidInputError(f"initial_value must be a finite number, got {initial_value!r}")
        self._weights = np.zeros(size * stages, dtype=np.float32)  # calloc'd: a stage costs nothing until used
        if initial_value:
            self._weights[:size].fill(initial_value / self._lookups.shape[0])
        # TC sums, side by side: the errors of weight i at 2 * i, their absolute values at 2 * i + 1
        self._tc: npt.NDArray[np.float32] | None = None
        self._rng = np.array([_seed64(seed)], dtype=np.uint64)
        self._trained = Training()
        self._path: Path | None = None

    @property
    def name(self) -> str:
        """``n-tuple network FILE`` (the file it was loaded from), or ``n-tuple network`` when it has none."""
        return f"n-tuple network {self._path}" if self._path is not None else "n-tuple network"

    @property
    def label(self) -> str:
        """``n-tuple network NAME``: the file's name (with its folder's when it is a training run's ``network.npz``)."""
        if self._path is None:
            return "n-tuple network"
        if self._path.name == "network.npz" and self._path.parent.name:
            return f"n-tuple network {self._path.parent.name}/{self._path.name}"
        return f"n-tuple network {self._path.name}"

    @property
    def path(self) -> Path | None:
        """The file it was loaded from (None for a network made in this process)."""
        return self._path

    @property
    def values_points(self) -> bool:
        """True: a network values an afterstate by the expected points still to come."""
        return True

    @property
    def rows(self) -> int:
        """The board's rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """The board's columns."""
        return self._cols

    @property
    def tuples(self) -> Tuples:
        """The tuples, as ``(row, col)`` cells."""
        return self._tuples

    @property
    def radix(self) -> int:
        """The radix of the table indices: a table of ``k`` cells has ``radix**k`` weights."""
        return self._radix

    @property
    def stage_tiles(self) -> tuple[int, ...]:
        """The tiles that start the stages after the first (empty for a network of one stage)."""
        return self._stage_tiles

    @property
    def n_lookups(self) -> int:
        """The number of weights summed to value a board (the tuples' distinct symmetric images)."""
        return int(self._lookups.shape[0])

    @property
    def weights(self) -> npt.NDArray[np.float32]:
        """A read-only view of all weights, stage by stage, tuple by tuple (``radix**len(tuple)`` each, first
        cell least significant); in a stage after the first, 0 stands for the weight a stage before."""
        view = self._weights.view()
        view.setflags(write=False)
        return view

    def set_weights(self, weights: npt.ArrayLike) -> None:
        """Replace every weight by those of ``weights`` (laid out as :attr:`weights`), e.g. to try given values.

        Raises:
            InvalidInputError: not an array of :attr:`weights`' shape, or values that are not finite.
        """
        array = np.asarray(weights)
        if array.shape != self._weights.shape or not np.issubdtype(array.dtype, np.number):
            raise InvalidInputError(
                f"weights must be numbers of shape {self._weights.shape}, got {array.dtype} of shape {array.shape}"
            )
        if not np.isfinite(array).all():
            raise InvalidInputError("weights must be finite numbers")
        self._weights[:] = array

    def kernel_tables(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        """``(weights, lookups)``: the network's own arrays, for a kernel of the ``_ntuple_kernels`` layout.

        They are the network itself, not copies: a kernel that learns updates the network in
        place. Anything else should read :attr:`weights` and :attr:`lookups` (read-only views).
        """
        return self._weights, self._lookups

    @property
    def lookups(self) -> npt.NDArray[np.int64]:
        """The kernels' description of the lookups (a read-only view; see ``_ntuple_kernels``)."""
        view = self._lookups.view()
        view.setflags(write=False)
        return view

    @property
    def rng_state(self) -> int:
        """The state of the stream of spawns that the next :meth:`learn` continues."""
        return int(self._rng[0])

    @property
    def trained(self) -> Training:
        """The games, moves and seconds of training in all."""
        return self._trained

    @property
    def uses_tc(self) -> bool:
        """Whether the network holds temporal-coherence sums (it was trained with ``tc=True``)."""
        return self._tc is not None

    def __repr__(self) -> str:
        stages = f", stages at {', '.join(map(str, self._stage_tiles))}" if self._stage_tiles else ""
        return (
            f"NTupleNetwork({self._rows}x{self._cols}, {len(self._tuples)} tuples{stages}, "
            f"{self._weights.shape[0]:,} weights, {self._trained.games:,} games trained)"
        )

    def with_stages(self, stage_tiles: Sequence[int]) -> NTupleNetwork:
        """A copy of this network of one stage, with later stages from ``stage_tiles``.

        Its tables (and TC sums) become the first stage; the later stages start empty, so
        that by weight promotion the copy values every board as this network does until it
        learns. The stream of spawns and the training totals are copied too.

        Raises:
            InvalidInputError: this network already has stages, or bad stage tiles.
        """
        if self._stage_tiles:
            raise InvalidInputError(f"the network already has stages (from {', '.join(map(str, self._stage_tiles))})")
        out = NTupleNetwork(self._rows, self._cols, self._tuples, seed=0, stage_tiles=stage_tiles, radix=self._radix)
        size = self._weights.shape[0]
        out._weights[:size] = self._weights
        if self._tc is not None:
            out._tc = np.zeros(2 * out._weights.shape[0], np.float32)
            out._tc[: 2 * size] = self._tc
        out._rng[0] = self._rng[0]
        out._trained = self._trained
        return out

    def value(self, board: Board) -> float:
        """The network's value of a board (meant for afterstates: the expected points still to come).

        Raises:
            InvalidBoardError: the board is not a Board of the network's size.
        """
        self.check_board(board)
        return float(NK._value(np.uint64(board.bits), self._rows, self._cols, self._weights, self._lookups))

    def explain(self, board: Board) -> Explanation:
        """Each legal move's value at depth 1: the points it scores plus V of the board it leaves.

        Raises:
            InvalidBoardError: the board is not a Board of the network's size.
        """
        self.check_board(board)
        moves = {}
        for move in board.legal_moves():
            after, points = board.move(move)
            moves[move] = MoveValue(points, self.value(after))
        return Explanation(self.name, self.unit, moves=moves)

    def move_search(self, board: Board, *, p_four: float, cutoff: float, max_cells: int, seed: int) -> MoveSearch:
        """The kernel search of ``board``'s root moves with this network at the leaves (see the Evaluator)."""
        from plyground.g2048 import _ntuple_search_kernels as NS  # here: learning does not load the search

        bits, rows, cols = np.uint64(board.bits), self._rows, self._cols
        # The kernels' signatures take writable arrays; the search only reads them.
        weights, lookups, sampling_seed = self._weights, self._lookups, np.uint64(seed)

        def search(move: int, depth: int, tt: Any, counters: Any, stop: Any) -> float:
            return float(
                NS._search_move(
                    bits, move, depth, rows, cols, weights, lookups, p_four, cutoff, max_cells, sampling_seed,
                    tt, counters, stop,
                )
            )  # fmt: skip

        return search

    def learn(
        self,
        games: int,
        *,
        alpha: float,
        tc: bool = False,
        td_lambda: float = 0.0,
        horizon: int = 1,
        restarts: int = 0,
        expected: bool = False,
        p_four: float = DEFAULT_P_FOUR,
        batch: int = 100,
        workers: int = 1,
        stop: Callable[[], bool] | None = None,
        on_progress: Callable[[LearnStats], None] | None = None,
    ) -> LearnStats:
        """Play ``games`` games by the greedy move and learn from every move (afterstate TD(0) or TD(lambda)).

        With one worker, the games continue the network's stream of spawns
        (:attr:`rng_state`), so learning in several calls, or saving and loading in between,
        gives the same weights as one call, bit for bit.

        With ``workers=W`` above 1, W threads play at once and update the same weights
        without locks (Hogwild: the kernel releases the GIL; an update that races with
        another may be lost, which TD learning shrugs off). Each thread draws its spawns
        from a stream of its own, derived from :attr:`rng_state`, which then moves on by W
        draws. The games of each stream are fixed, but which thread plays which game, and
        the order of the updates, depend on timing: the weights are **not** reproducible.
        Threads take a few games at a time, so that none waits long for the others.

        Args:
            games: the number of games.
            alpha: the learning rate (the step of a board's value; typically 0.01 to 0.1,
                or about 1 with ``tc``).
            tc: temporal coherence: per-weight adaptive rates (see the module).
            td_lambda: with ``horizon`` above 1, each afterstate moves towards its
                lambda-return truncated after ``horizon`` moves (0 to 1; see the module).
            horizon: the moves an afterstate waits for its update (1: TD(0), whatever
                ``td_lambda``; at most :data:`MAX_HORIZON`).
            restarts: after each game, learn from up to this many more episodes, each
                played out again from the state halfway between the last one's start and
                end, so that more of the learning lies late in the game (0 to
                :data:`MAX_RESTARTS`; see ``_ntuple_kernels``). The statistics are those of
                the games; :attr:`trained` counts the restarts' moves too.
            expected: learn by expected updates instead of sampled ones: at each state, the
                afterstate of every legal move moves towards the expected value of the
                greedy move after each possible spawn (TD(0) only: no ``horizon`` above 1,
                no ``restarts``; see ``_ntuple_kernels``). Each move then costs about
                ``8 * empty cells`` greedy choices more; greedy play needs no optimistic
                initial values to try every move.
            p_four: the probability that a spawned tile is a 4.
            batch: games per kernel call (with several workers, at most this many); with
                one worker, ``on_progress`` is called after each.
            workers: threads learning at once (1: reproducible; 2 for two cores); at most one
                per game, and a call of one game runs as with one worker.
            stop: called before each kernel call (with several workers, after each and
                every 50 ms); when it returns True, no new kernel call starts and the call
                returns the games finished.
            on_progress: called with the statistics of this call so far. With several
                workers it is called, in the calling thread, after every finished kernel
                call, while the other threads go on learning: it must not save the network.

        Returns:
            The statistics of the games of this call (with several workers, in the order
            they finished, and ``seconds`` is wall-clock time).

        Raises:
            InvalidInputError: a bad number of games, batch or workers, ``alpha``,
                ``td_lambda``, ``horizon``, ``restarts``, ``expected`` or ``p_four``, or
                ``expected`` with a horizon above 1 or restarts.
        """
        games = _count(games, "games", 0)
        td_lambda, horizon = check_lambda(td_lambda, horizon)
        restarts = check_restarts(restarts)
        batch = _count(batch, "batch", 1)
        workers = _count(workers, "workers", 1)
        if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0.0 < alpha < math.inf:
            raise InvalidInputError(f"alpha must be a positive number, got {alpha!r}")
        p_four = check_p_four(p_four)
        if not isinstance(expected, bool):
            raise InvalidInputError(f"expected must be True or False, got {expected!r}")
        check_expected_updates(expected, horizon, restarts)
        threshold = np.uint64(min(int(p_four * 2**32), 2**32))
        if tc and self._tc is None:
            # np.zeros, not zeros_like: calloc'd pages cost no memory until a weight there is updated
            self._tc = np.zeros(2 * self._weights.shape[0], np.float32)
        sums = self._tc if tc and self._tc is not None else _EMPTY

        def play(n: int, rng: _Int64s, scores: _Int64s, tiles: _Int64s, moves: _Int64s) -> int:
            network = (self._rows, self._cols, threshold, self._weights, self._lookups)
            if expected:
                return int(
                    NK._learn_expected(n, *network, p_four, float(alpha), bool(tc), sums, rng, scores, tiles, moves)
                )
            learning = (float(alpha), bool(tc), sums, td_lambda, horizon, restarts)
            return int(NK._learn(n, *network, *learning, rng, scores, tiles, moves))

        if workers > 1 and games > 1:
            return self._learn_in_threads(play, games, min(workers, games), batch, stop, on_progress)
        scores, tiles, moves = _results(games)
        seconds = 0.0
        stats = LearnStats(GameResults(scores[:0], tiles[:0], moves[:0]), 0.0)
        for start in range(0, games, batch):
            if stop is not None and stop():
                break
            stop_at = min(start + batch, games)
            began = time.perf_counter()
            played = play(stop_at - start, self._rng, scores[start:stop_at], tiles[start:stop_at], moves[start:stop_at])
            spent = time.perf_counter() - began
            seconds += spent
            done = self._trained
            self._trained = Training(done.games + stop_at - start, done.moves + int(played), done.seconds + spent)
            stats = LearnStats(GameResults(scores[:stop_at], tiles[:stop_at], moves[:stop_at]), seconds)
            if on_progress is not None:
                on_progress(stats)
        return stats

    def _learn_in_threads(
        self,
        play: Callable[[int, _Int64s, _Int64s, _Int64s, _Int64s], int],
        games: int,
        workers: int,
        batch: int,
        stop: Callable[[], bool] | None,
        on_progress: Callable[[LearnStats], None] | None,
    ) -> LearnStats:
        """:meth:`learn` with ``workers`` threads (2 or more) on the same weights; see there.

        Threads take ``min(batch, remaining // (2 * workers))`` games at a time (at least
        one), so that the chunks shrink towards the end and the last thread to finish
        makes the others wait for one short chunk at most. A finished chunk's results are
        copied, under a lock, after those finished before it; the calling thread then
        counts them in :attr:`trained` and calls ``on_progress``.
        """
        state = self.rng_state
        streams = [_splitmix64((state + (k + 1) * _GOLDEN) & _MASK64) for k in range(workers)]
        self._rng[0] = np.uint64((state + workers * _GOLDEN) & _MASK64)
        scores, tiles, moves = _results(games)
        lock = threading.Lock()
        halt = threading.Event()
        finished: queue.SimpleQueue[tuple[int, int] | BaseException | None] = queue.SimpleQueue()
        taken = filled = 0

        def work(stream: int) -> None:
            nonlocal taken, filled
            rng = np.array([stream], dtype=np.uint64)
            own = _results(batch)
            try:
                while not halt.is_set():
                    with lock:
                        n = min(batch, max(1, (games - taken) // (2 * workers)), games - taken)
                        taken += n
                    if n <= 0:
                        break
                    played = play(n, rng, own[0][:n], own[1][:n], own[2][:n])
                    with lock:
                        for out, part in zip((scores, tiles, moves), own, strict=True):
                            out[filled : filled + n] = part[:n]
                        filled += n
                        finished.put((filled, played))
            except BaseException as exc:  # handed to the calling thread, which raises it
                halt.set()
                finished.put(exc)
            finally:
                finished.put(None)

        threads = [threading.Thread(target=work, args=(s,), name=f"ntuple-learn-{k}") for k, s in enumerate(streams)]
        began = time.perf_counter()
        base = self._trained
        count, played_moves, running = 0, 0, len(threads)
        failure: BaseException | None = None
        for thread in threads:
            thread.start()
        try:
            while running:
                if stop is not None and not halt.is_set() and stop():
                    halt.set()
                try:
                    item = finished.get(timeout=0.05)
                except queue.Empty:
                    continue
                if item is None:
                    running -= 1
                elif isinstance(item, BaseException):
                    failure = failure or item
                else:
                    count, played_moves = item[0], played_moves + item[1]
                    seconds = time.perf_counter() - began
                    self._trained = Training(base.games + count, base.moves + played_moves, base.seconds + seconds)
                    if on_progress is not None:
                        on_progress(LearnStats(GameResults(scores[:count], tiles[:count], moves[:count]), seconds))
        finally:
            halt.set()
            for thread in threads:
                thread.join()
            while True:  # what finished after an exception in this thread
                try:
                    item = finished.get_nowait()
                except queue.Empty:
                    break
                if isinstance(item, tuple):
                    count, played_moves = item[0], played_moves + item[1]
            seconds = time.perf_counter() - began
            self._trained = Training(base.games + count, base.moves + played_moves, base.seconds + seconds)
        if failure is not None:
            raise failure
        return LearnStats(GameResults(scores[:count], tiles[:count], moves[:count]), seconds)

    def play_greedy(self, games: int, *, seed: int | None = None, p_four: float = DEFAULT_P_FOUR) -> GameResults:
        """Play ``games`` games by the greedy move (1-ply: largest ``points + V(afterstate)``), learning nothing.

        The games draw their spawns from ``seed``, not from the network's stream.

        Raises:
            InvalidInputError: a bad number of games, seed or ``p_four``.
        """
        games = _count(games, "games", 0)
        threshold = np.uint64(min(int(check_p_four(p_four) * 2**32), 2**32))
        rng = np.array([_seed64(seed)], dtype=np.uint64)
        scores, tiles, moves = _results(games)
        NK._play_greedy(
            games, self._rows, self._cols, threshold, self._weights, self._lookups, rng, scores, tiles, moves
        )
        return GameResults(scores, tiles, moves)

    # -----------------------------------------------------------------------------------
    # Files

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the network, its training totals and its stream state to a compressed file, atomically."""
        header = {
            "format": NETWORK_FORMAT,
            "version": NETWORK_VERSION,
            "rows": self._rows,
            "cols": self._cols,
            "tuples": [[list(cell) for cell in cells] for cells in self._tuples],
            "stage_tiles": list(self._stage_tiles),
            "radix": self._radix,
            "rng_state": self.rng_state,
            "tc": self._tc is not None,
            "training": {
                "games": self._trained.games,
                "moves": self._trained.moves,
                "seconds": self._trained.seconds,
            },
        }
        arrays = {
            "header": np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8),
            "weights": self._weights,
        }
        if self._tc is not None:
            arrays["tc_errors"], arrays["tc_abs_errors"] = self._tc[0::2], self._tc[1::2]

        def write(handle: IO[bytes]) -> None:
            np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]

        atomic_write(path, write)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        rows: int | None = None,
        cols: int | None = None,
        tuples: Sequence[Sequence[Cell]] | None = None,
        stage_tiles: Sequence[int] | None = None,
    ) -> NTupleNetwork:
        """Read a network written by :meth:`save`.

        Args:
            path: the file.
            rows: when given, the file must hold a network of this many rows,
            cols: of this many columns,
            tuples: with these tuples,
            stage_tiles: and with these stages.

        Raises:
            FileNotFoundError: no such file.
            CorruptFileError: not a network file, damaged, or a network of another size or
                other tuples than asked for (one line, naming the file).
        """
        header, arrays = _read_file(path)
        try:
            network = cls._from_parts(header, arrays)
        except InvalidInputError as exc:
            raise CorruptFileError(f"{path}: {exc}") from None
        network._path = Path(path)
        wanted_rows = network.rows if rows is None else rows
        wanted_cols = network.cols if cols is None else cols
        if (wanted_rows, wanted_cols) != network.shape:
            raise CorruptFileError(
                f"{path} holds a network for the {network.rows}x{network.cols} board, "
                f"not the {wanted_rows}x{wanted_cols} one"
            )
        if tuples is not None:
            try:
                wanted = check_tuples(tuples, network.rows, network.cols)
            except InvalidInputError as exc:
                raise CorruptFileError(f"{path}: the tuples asked for are not valid: {exc}") from None
            if wanted != network.tuples:
                raise CorruptFileError(
                    f"{path} holds a network with other tuples: {_short(network.tuples)}, not {_short(wanted)}"
                )
        if stage_tiles is not None and tuple(stage_tiles) != network.stage_tiles:
            raise CorruptFileError(
                f"{path} holds a network with stage tiles {list(network.stage_tiles)}, not {list(stage_tiles)}"
            )
        return network

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``: the network values boards of this size only."""
        return self._rows, self._cols

    @classmethod
    def _from_parts(cls, header: Mapping[str, Any], arrays: dict[str, npt.NDArray[Any]]) -> NTupleNetwork:
        """A network from a checked header and its arrays (raises InvalidInputError on any mismatch)."""
        network = cls(
            header["rows"],
            header["cols"],
            header["tuples"],
            seed=header["rng_state"],
            stage_tiles=header.get("stage_tiles", ()),
            radix=header.get("radix", 16),
        )
        expected = network._weights.shape
        names = ("weights", "tc_errors", "tc_abs_errors") if header["tc"] else ("weights",)
        extra = sorted(set(arrays) - set(names))
        if extra:
            raise InvalidInputError(f"unexpected arrays {', '.join(extra)} (the header says tc is {header['tc']})")
        for name in names:
            array = arrays.get(name)
            if array is None:
                raise InvalidInputError(f"no {name} array")
            if array.dtype != np.float32 or array.shape != expected:
                raise InvalidInputError(
                    f"{name} holds {array.dtype} of shape {array.shape}, expected float32 of shape {expected} "
                    "for these tuples"
                )
            if not np.isfinite(array).all():
                raise InvalidInputError(f"{name} holds values that are not finite")
        network._weights = np.ascontiguousarray(arrays["weights"])
        if header["tc"]:
            network._tc = np.empty(2 * expected[0], np.float32)
            network._tc[0::2] = arrays.pop("tc_errors")  # popped: each file array is freed once copied
            network._tc[1::2] = arrays.pop("tc_abs_errors")
        training = header["training"]
        network._trained = Training(training["games"], training["moves"], float(training["seconds"]))
        return network


_EMPTY = np.zeros(0, dtype=np.float32)
_HEADER_KEYS = frozenset({"format", "version", "rows", "cols", "tuples", "rng_state", "tc", "training"})
_OPTIONAL_HEADER_KEYS = frozenset({"stage_tiles", "radix"})  # files written before them: one stage, radix 16


def _read_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The checked header and the arrays of a network file (raises CorruptFileError, or FileNotFoundError)."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    try:
        with open(path, "rb") as handle:  # opened here, so that it is closed whatever numpy raises
            archive = np.load(handle, allow_pickle=False)
            if not isinstance(archive, np.lib.npyio.NpzFile):
                raise CorruptFileError(f"{path} is not an n-tuple network file: it holds one array, not an archive")
            names = set(archive.files)
            missing = sorted({"header", "weights"} - names)
            if missing:
                raise CorruptFileError(f"{path} is not an n-tuple network: no {', '.join(missing)}")
            header = _read_header(archive["header"])
            for name in ("weights", "tc_errors", "tc_abs_errors"):
                if name in names:
                    arrays[name] = archive[name]
    except (FileNotFoundError, CorruptFileError):
        raise
    except InvalidInputError as exc:
        raise CorruptFileError(f"{path}: {exc}") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        raise CorruptFileError(f"{path} is not a readable n-tuple network file ({_first_line(exc)})") from None
    return header, arrays


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _read_header(raw: npt.NDArray[Any]) -> dict[str, Any]:
    """The checked JSON header of a network file (raises InvalidInputError)."""
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise InvalidInputError(f"the header holds {raw.dtype} of shape {raw.shape}, expected bytes")
    try:
        header = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InvalidInputError("the header is not UTF-8 JSON") from None
    if not isinstance(header, dict) or header.get("format") != NETWORK_FORMAT:
        raise InvalidInputError(f"not an n-tuple network: expected format {NETWORK_FORMAT!r}")
    if header.get("version") != NETWORK_VERSION:
        raise InvalidInputError(f"unsupported version {header.get('version')!r}, expected {NETWORK_VERSION}")
    missing = sorted(_HEADER_KEYS - header.keys())
    unknown = sorted(header.keys() - _HEADER_KEYS - _OPTIONAL_HEADER_KEYS)
    if missing or unknown:
        raise InvalidInputError(f"bad header keys: missing {missing}, unknown {unknown}")
    for name in ("rows", "cols"):
        if isinstance(header[name], bool) or not isinstance(header[name], int):
            raise InvalidInputError(f"header {name!r} must be an integer, got {header[name]!r}")
    state = header["rng_state"]
    if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state < 1 << 64:
        raise InvalidInputError(f"header 'rng_state' must be an integer in [0, 2**64), got {state!r}")
    if not isinstance(header["tc"], bool):
        raise InvalidInputError(f"header 'tc' must be true or false, got {header['tc']!r}")
    training = header["training"]
    if not isinstance(training, dict) or set(training) != {"games", "moves", "seconds"}:
        raise InvalidInputError("header 'training' must hold games, moves and seconds")
    for name in ("games", "moves"):
        _count(training[name], f"training {name}", 0)
    seconds = training["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds < math.inf:
        raise InvalidInputError(f"training seconds must be a number >= 0, got {seconds!r}")
    return header


def _short(tuples: Tuples) -> str:
    """Tuples in a compact one-line form: ``00-01-02/10-11``."""
    return "/".join("-".join(f"{r}{c}" for r, c in cells) for cells in tuples)
