"""Solve a formation exactly: the probability of building the target tile on its goal cell, from every state.

:func:`solve_formation` enumerates every state of the formation's region whose tiles are all
below the target (see :mod:`plyground.g2048._tablebase_kernels` for the values and the moves
allowed), and solves them by tile sum, from the largest down. The result, a :class:`Tablebase`,
answers a board of a game: its value, each allowed move's, and the best move.

>>> from plyground.g2048 import Board
>>> table = solve_formation(Formation.parse("xx/.T"), 8, p_four=0.0)
>>> table.move_values(Board.parse("64 32/4 4"))  # 4 + 4 -> 8: on the goal to the right, elsewhere to the left
{'right': 1.0, 'left': 0.0}
>>> table.value(Board.parse("64 32/2 2"))  # 2 + 2 -> 4, and a 2 beside it: stuck
0.0

Every state of the region is a row of the table: (levels)^cells of them, where the levels are
the exponents below the target and the empty cell (fewer in a cell with a cap: see
:meth:`~plyground.g2048.tablebase.formation.Formation.radix`), each at an index computed from its
tiles (no board is stored). A solve holds each value as a float64 (exact but for rounding), in memory or,
given a ``work`` folder, in files there that a solve killed at any point resumes from. A table on
disk holds each value as a 16-bit integer, the value times :data:`QUANTUM` rounded: within
:data:`VALUE_ERROR` of the solve's; its best moves are the solve's.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat
from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError, JobTooLargeError
from plyground.g2048 import _tablebase_kernels as TK
from plyground.g2048.board import DEFAULT_P_FOUR, DIRECTIONS, Board, check_p_four
from plyground.g2048.tablebase.formation import Formation

if TYPE_CHECKING:
    from plyground.core.run_many import Backend

__all__ = [
    "MAX_STATES",
    "QUANTUM",
    "SOLVE_BYTES",
    "STATES_PER_SECOND",
    "TABLE_BYTES",
    "VALUE_ERROR",
    "TableEstimate",
    "Tablebase",
    "estimate_formation",
    "first_best",
    "solve_formation",
]  # fmt: skip

MAX_STATES = 2**32 - 1
"""The most states a table holds (indices are 32-bit while solving)."""
SOLVE_BYTES = 13
"""Memory a state takes while solving: its value (8 bytes), best move (1) and place in the order of sums (4);
in a ``work`` folder, the value and best move are files (9 bytes a state of disk)."""
TABLE_BYTES = 3
"""Disk a state of a table takes: its value (2 bytes) and best move (1)."""
QUANTUM = 65535
"""A table on disk holds ``round(value * QUANTUM)`` as a 16-bit integer."""
VALUE_ERROR = 0.5 / QUANTUM
"""The most a value read from a table on disk (a state's or a move's) differs from the solve's."""
STATES_PER_SECOND = 2_000_000
"""About how many states a second one core solves (measured: 2.7 M a second on this project's 2-core machine)."""
SHARD_STATES = 1 << 14
"""The fewest states a thread of a parallel solve is given of one layer: smaller layers are solved by one thread."""
REMOTE_STATES = 1 << 20
"""The fewest states a shard sent to another process holds (a task costs milliseconds): the shards of smaller
layers are solved by this process's threads."""
CHECKPOINT_SECONDS = 30.0
"""How often a solve in a ``work`` folder writes down how far it got (and at its end)."""
PROGRESS_FORMAT = FileFormat("plyground.g2048.tablebase-progress", 1, "an endgame table's build", "progress")
"""``progress.json`` of a solve's ``work`` folder: what is solved, and the tile sums done (``below``)."""


@dataclass(frozen=True)
class TableEstimate:
    """What solving a formation for a target needs: its states, memory, disk (while building and kept), time."""

    states: int
    memory_bytes: int
    disk_bytes: int
    table_bytes: int
    seconds: float

    def describe(self) -> str:
        """One line: ``1,679,616 states: 21.8 MB of memory, 20.2 MB of disk while building (5.0 MB kept), ...``."""
        return (
            f"{self.states:,} states: {self.memory_bytes / 1e6:,.1f} MB of memory, {self.disk_bytes / 1e6:,.1f} MB "
            f"of disk while building ({self.table_bytes / 1e6:,.1f} MB kept), about {max(1, round(self.seconds)):,} s"
        )


def estimate_formation(formation: Formation, target: int) -> TableEstimate:
    """What building ``formation`` for ``target`` in a folder needs (every state of the region is solved).

    Raises:
        InvalidInputError: not a Formation, or a target that is not a tile from 4 to 32768.
    """
    if not isinstance(formation, Formation):
        raise InvalidInputError(f"expected a Formation, got {type(formation).__name__}")
    states = math.prod(formation.radix(_target_exponent(target)))
    disk = states * (TABLE_BYTES + 9)
    memory = states * SOLVE_BYTES + 64 * 2**20
    return TableEstimate(states, memory, disk, states * TABLE_BYTES, states / STATES_PER_SECOND)


def _target_exponent(target: object) -> int:
    if isinstance(target, bool) or not isinstance(target, int) or target < 4 or target & (target - 1):
        raise InvalidInputError(f"the target must be a tile, a power of two from 4 to 32768, got {target!r}")
    exponent = target.bit_length() - 1
    if exponent > 15:
        raise InvalidInputError(f"the target must be a tile, a power of two from 4 to 32768, got {target!r}")
    return exponent


class Tablebase:
    """The values of a formation's states for one target tile and spawn rule (see the module).

    Attributes:
        formation: the formation solved.
        target: the tile to build on its goal cell.
        p_four: the probability that a spawned tile is a 4.
        values: each state's value, by index: float64 (a solve), or uint16 times :data:`QUANTUM` (on disk).
        best: each state's first best allowed move (0 up, 1 right, 2 down, 3 left; -1: none).
    """

    def __init__(
        self,
        formation: Formation,
        target: int,
        p_four: float,
        values: npt.NDArray[np.float64] | npt.NDArray[np.uint16],
        best: npt.NDArray[np.int8],
    ) -> None:
        self.formation, self.target, self.p_four = formation, target, p_four
        self.values, self.best = values, best
        self.scale = 1.0 if values.dtype == np.float64 else 1.0 / QUANTUM
        self.shifts = np.array([16 * r + 4 * c for r, c in formation.region], dtype=np.int64)
        self.levels = target.bit_length() - 1
        self.radix = np.array(formation.radix(self.levels), dtype=np.int64)

    def __repr__(self) -> str:
        formation, states = self.formation.to_text(), self.states
        return f"Tablebase({formation!r}, target={self.target}, p_four={self.p_four}, {states:,} states)"

    @property
    def states(self) -> int:
        """The states held: every board of the region with tiles below the target."""
        return int(self.values.shape[0])

    @property
    def exact(self) -> bool:
        """Whether the values are the solve's float64s (else read from disk, within :data:`VALUE_ERROR`)."""
        return self.scale == 1.0

    def _key(self, board: Board) -> int:
        """The table's board of ``board``: its frozen cells emptied, after checking it fits the formation."""
        formation = self.formation
        if not isinstance(board, Board):
            raise InvalidBoardError(f"expected a Board, got {type(board).__name__}")
        if board.shape != (formation.rows, formation.cols):
            raise InvalidBoardError(
                f"a {board.rows}x{board.cols} board does not fit the {formation.rows}x{formation.cols} formation "
                f"{formation.to_text()}"
            )
        small = [cell for cell in formation.frozen if board[cell] < self.target]
        if small:
            r, c = small[0]
            raise InvalidBoardError(
                f"the frozen cell at row {r + 1}, column {c + 1} holds {board[small[0]] or 'no tile'}: the frozen "
                f"cells of {formation.to_text()} must hold tiles of {self.target} or more"
            )
        return board.bits & ~formation.frozen_mask

    def state(self, index: int) -> Board:
        """The state at ``index`` as a board of a game, its frozen cells holding the target.

        Raises:
            InvalidInputError: ``index`` is not one of the table's.
        """
        if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < self.states:
            raise InvalidInputError(f"a state's index is from 0 to {self.states - 1:,}, got {index!r}")
        formation = self.formation
        frozen = sum(self.levels << (16 * r + 4 * c) for r, c in formation.frozen)
        return Board(int(TK._board_of(int(index), self.shifts, self.radix)) | frozen, formation.rows, formation.cols)

    def _keys(self, boards: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        """The region boards of a batch of bitboards, after checking that every frozen cell holds the target or more."""
        array = np.ascontiguousarray(boards)
        if array.dtype != np.uint64 or array.ndim != 1:
            raise InvalidBoardError(
                f"expected a 1-d array of uint64 bitboards, got {array.dtype} of shape {array.shape}"
            )
        for r, c in self.formation.frozen:
            small = np.flatnonzero((array >> np.uint64(16 * r + 4 * c)) & np.uint64(0xF) < self.levels)
            if small.size:
                where = f"row {r + 1}, column {c + 1} of {self.formation.to_text()}"
                raise InvalidBoardError(f"board {small[0]} of the batch holds a tile below {self.target} on the "
                                        f"frozen cell at {where}")  # fmt: skip
        return array & np.uint64(~self.formation.frozen_mask & 0xFFFF_FFFF_FFFF_FFFF)

    def values_of(self, boards: npt.NDArray[np.uint64]) -> npt.NDArray[np.float64]:
        """:meth:`value` of each bitboard of ``boards`` (a board of the formation's size each), in one kernel call.

        Raises:
            InvalidBoardError: not a 1-d uint64 array, or a frozen cell of a board holds a tile below the target.
        """
        keys = self._keys(boards)
        out = np.empty(keys.shape[0], dtype=np.float64)
        TK._state_values(
            keys, self.shifts, self.radix, self.levels, self.formation.goal_shift, self.values, self.scale, out
        )
        return out

    def move_values_of(self, boards: npt.NDArray[np.uint64]) -> npt.NDArray[np.float64]:
        """:meth:`move_values` of each bitboard of ``boards`` in one kernel call: a row a board, a column a direction
        (up, right, down, left), -1 where the move is not allowed.

        Raises:
            InvalidBoardError: as :meth:`values_of`.
        """
        keys = self._keys(boards)
        formation = self.formation
        out = np.empty((keys.shape[0], 4), dtype=np.float64)
        TK._boards_move_values(
            keys, self.shifts, self.radix, self.levels, formation.rows, formation.cols,
            np.uint64(formation.frozen_mask), formation.goal_shift, self.p_four, self.values, self.scale, out,
        )  # fmt: skip
        return out

    def move_values(self, board: Board) -> dict[str, float]:
        """Each allowed move's probability of building the target on the goal cell, by direction.

        Empty when no move is allowed (the board's value is 0 then).

        Raises:
            InvalidBoardError: ``board`` is not of the formation's size, or a frozen cell holds a tile below the
                target.
        """
        key = self._key(board)
        formation, moves = self.formation, np.empty(4, dtype=np.float64)  # a call's own: threads share tables
        TK._move_values(
            np.uint64(key), self.shifts, self.radix, self.levels, formation.rows, formation.cols,
            np.uint64(formation.frozen_mask), formation.goal_shift, self.p_four, self.values, self.scale, moves,
        )  # fmt: skip
        return {direction: float(moves[d]) for d, direction in enumerate(DIRECTIONS) if moves[d] >= 0.0}

    def value(self, board: Board) -> float:
        """The probability of building the target on the goal cell from ``board`` under optimal play.

        1 when the target stands on the goal cell, 0 when a tile of the target or more stands
        elsewhere in the region.

        Raises:
            InvalidBoardError: as :meth:`move_values`.
        """
        key = self._key(board)
        return float(TK._state_value(np.uint64(key), self.shifts, self.radix, self.levels, self.formation.goal_shift,
                                     self.values, self.scale))  # fmt: skip

    def best_move(self, board: Board) -> str | None:
        """The first allowed move of the best value (in the order up, right, down, left); None when none is allowed.

        The solve's own choice where the board is a state of the table (its region's tiles below
        the target): exact, unlike a comparison of :meth:`move_values` read from disk.

        Raises:
            InvalidBoardError: as :meth:`move_values`.
        """
        key = self._key(board)
        index = int(TK._region_index(np.uint64(key), self.shifts, self.radix, self.levels, self.formation.goal_shift))
        if index < 0:  # the target built, a tile of it or more elsewhere, or one above its cap: not a state
            return first_best(self.move_values(board))
        move = int(self.best[index])
        if not -1 <= move <= 3:
            raise CorruptFileError(f"the endgame table {self!r} is damaged: a best move of {move} at {index:,}")
        return None if move < 0 else DIRECTIONS[move]


def first_best(moves: dict[str, float]) -> str | None:
    """The first move of the best value in the order up, right, down, left; None for no move."""
    names: list[str] = list(DIRECTIONS)
    return max(moves, key=lambda move: (moves[move], -names.index(move))) if moves else None


def solve_formation(
    formation: Formation,
    target: int,
    *,
    p_four: float = DEFAULT_P_FOUR,
    on_layer: Callable[[int, int], None] | None = None,
    work: str | os.PathLike[str] | None = None,
    workers: int = 1,
    backend: Backend | None = None,
) -> Tablebase:
    """Solve ``formation`` for the ``target`` tile on its goal cell, with 4s spawning with probability ``p_four``.

    A layer (the states of one tile sum) depends only on the layers above it, so ``workers``
    threads solve each layer's states in shards side by side (a shard of at least
    :data:`SHARD_STATES` states), each on a core: the values are the same for any number.
    With ``backend`` (a :class:`~plyground.core.run_many.Backend`: local processes or a Dask
    cluster) and ``work``, the shards of a layer are solved by its workers instead, ``workers``
    of them a layer (:mod:`plyground.g2048.tablebase.shards`), when each holds
    :data:`REMOTE_STATES` states or more (smaller ones by the threads); the workers must run on
    the machine that holds ``work``.
    ``on_layer(states solved, states)`` is called after each tile sum's layer. With ``work``, a
    folder, the values and best moves are files there and ``progress.json`` says, every
    :data:`CHECKPOINT_SECONDS` and at the end, which tile sums are done: a solve killed at any
    point and started again with the same folder goes on from there. The returned table reads
    those files (float64 values); the caller removes the folder when done with it.

    Raises:
        InvalidInputError: not a Formation, a target that is not a tile from 4 to 32768, a bad ``p_four``, a
            ``work`` folder holding another solve, ``workers`` not a positive integer, or a ``backend``
            without ``work``.
        JobTooLargeError: more states than :data:`MAX_STATES`, or, without ``work``, more memory than is available.
        CorruptFileError: a ``work`` folder whose files are damaged.
    """
    states = estimate_formation(formation, target).states
    levels = _target_exponent(target)
    p_four = check_p_four(p_four)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidInputError(f"workers is a number of threads from 1, got {workers!r}")
    if backend is not None and work is None:
        raise InvalidInputError("a solve on other processes needs a work folder, where they read and write")
    if states > MAX_STATES:
        raise JobTooLargeError(
            f"{formation.to_text()} with target {target} has {states:,} states: more than the {MAX_STATES:,} "
            "a table holds"
        )
    if work is None:
        from plyground.g2048.solver_estimate import Machine

        memory = Machine.current(".").available_memory
        if memory is not None and states * SOLVE_BYTES > memory:
            raise JobTooLargeError(
                f"{formation.to_text()} with target {target} needs {states * SOLVE_BYTES / 1e6:,.0f} MB to solve in "
                f"memory, {memory / 1e6:,.0f} MB are available: solve it into a work folder, or on a bigger machine"
            )
    radix = np.array(formation.radix(levels), dtype=np.int64)
    top = int(sum(1 << (r - 2) for r in radix))  # the largest tile sum, halved
    counts = np.zeros(top + 1, dtype=np.int64)
    TK._sum_order(radix, counts, np.empty(0, dtype=np.uint32), counts)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    what = {"formation": formation.to_text(), "target": target, "p_four": p_four, "states": states}
    folder = None if work is None else Path(work)
    if folder is None:
        values, best, below = np.empty(states, dtype=np.float64), np.empty(states, dtype=np.int8), top + 1
    else:
        values, best, below = _work_arrays(folder, what, top)
    order: Any
    if backend is not None and folder is not None:  # in a file, for the workers (made again on a resume)
        from plyground.g2048.tablebase.shards import ORDER_FILE

        order = np.lib.format.open_memmap(folder / ORDER_FILE, mode="w+", dtype=np.uint32, shape=(states,))
    else:
        order = np.empty(states, dtype=np.uint32)
    TK._sum_order(radix, starts, order, counts)
    if isinstance(order, np.memmap):
        order.flush()
    table = Tablebase(formation, target, p_four, values, best)
    frozen = np.uint64(formation.frozen_mask)
    done = int(counts[below:].sum())
    saved = time.monotonic()

    def solve_shard(bounds: tuple[int, int]) -> None:
        TK._layer_values(
            order[bounds[0] : bounds[1]], table.shifts, radix, levels, formation.rows, formation.cols, frozen,
            formation.goal_shift, p_four, values, best,
        )  # fmt: skip

    with contextlib.ExitStack() as stack:
        pool = stack.enter_context(ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tablebase"))

        def on_threads(bounds: list[tuple[int, int]]) -> None:
            list(pool.map(solve_shard, bounds))

        solve_layer: Callable[[list[tuple[int, int]]], None] = on_threads
        if backend is not None and folder is not None:
            solve_layer = _elsewhere(stack, backend, folder, what, on_threads)
        for half in range(below - 1, -1, -1):
            start, count = int(starts[half]), int(counts[half])
            if count:
                solve_layer(_shards(start, count, workers))
                done += count
            if folder is not None and (half == 0 or time.monotonic() - saved > CHECKPOINT_SECONDS):
                _checkpoint(folder, what, values, best, half)
                saved = time.monotonic()
            if on_layer is not None and count:
                on_layer(done, states)
    if on_layer is not None and below == 0:
        on_layer(states, states)
    return table


def _elsewhere(
    stack: contextlib.ExitStack,
    backend: Backend,
    work: Path,
    what: dict[str, Any],
    here: Callable[[list[tuple[int, int]]], None],
) -> Callable[[list[tuple[int, int]]], None]:
    """A layer's solver that sends its shards to ``backend``'s workers (started once, on ``stack``); a layer whose
    shards are smaller than :data:`REMOTE_STATES` is solved ``here``, saving the round trips."""
    from plyground.core.run_many import Pool
    from plyground.g2048.tablebase.shards import ShardJob, solve_shard

    pool = stack.enter_context(Pool(backend))
    folder = str(work.resolve())

    def solve_layer(bounds: list[tuple[int, int]]) -> None:
        if len(bounds) == 1 or min(b - a for a, b in bounds) < REMOTE_STATES:
            here(bounds)
            return
        jobs = [ShardJob(folder, what["formation"], what["target"], what["p_four"], a, b) for a, b in bounds]
        pool.map(solve_shard, jobs)

    return solve_layer


def _shards(start: int, count: int, workers: int) -> list[tuple[int, int]]:
    """The bounds, in the order of sums, of a layer's shards: ``workers`` of them, each of :data:`SHARD_STATES` or
    more (one for a small layer).

    >>> _shards(10, 5, 4), _shards(0, 3 * SHARD_STATES, 2)
    ([(10, 15)], [(0, 24576), (24576, 49152)])
    """
    pieces = max(1, min(workers, count // SHARD_STATES))
    edges = [start + count * i // pieces for i in range(pieces + 1)]
    return list(itertools.pairwise(edges))


def _work_arrays(work: Path, what: dict[str, Any], top: int) -> tuple[Any, Any, int]:
    """The value and best-move files of a solve in ``work`` (made, or reopened) and the halved tile sum from which
    on every layer is done (``top + 1``: none)."""
    states = what["states"]
    progress = work / "progress.json"
    if progress.exists():
        data = PROGRESS_FORMAT.read(progress)
        if {key: data.get(key) for key in what} != what:
            raise InvalidInputError(f"{work} holds the build of another table ({data.get('formation')} for "
                                    f"{data.get('target')}, p_four {data.get('p_four')}): remove it first")  # fmt: skip
        try:
            values = np.lib.format.open_memmap(work / "values.f8.npy", mode="r+")
            best = np.lib.format.open_memmap(work / "best.npy", mode="r+")
            below = int(data["below"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CorruptFileError(f"{work}: a build's files are damaged ({exc}): remove the folder") from None
        if values.dtype != np.float64 or values.shape != (states,) or best.dtype != np.int8 or best.shape != (states,):
            raise CorruptFileError(f"{work}: a build's files do not match its progress: remove the folder")
        return values, best, below
    work.mkdir(parents=True, exist_ok=True)
    values = np.lib.format.open_memmap(work / "values.f8.npy", mode="w+", dtype=np.float64, shape=(states,))
    best = np.lib.format.open_memmap(work / "best.npy", mode="w+", dtype=np.int8, shape=(states,))
    PROGRESS_FORMAT.write(progress, {**what, "below": top + 1})
    return values, best, top + 1


def _checkpoint(work: Path, what: dict[str, Any], values: Any, best: Any, below: int) -> None:
    """Flush the files of a solve in ``work``, then write that every layer from ``below`` (halved sum) up is done."""
    values.flush()
    best.flush()
    PROGRESS_FORMAT.write(work / "progress.json", {**what, "below": below})
