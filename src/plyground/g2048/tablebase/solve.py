"""Solve a formation exactly: the probability of building the target tile on its goal cell, from every state.

:func:`solve_formation` enumerates every state of the formation's region whose tiles are all
below the target (see :mod:`plyground.g2048._tablebase_kernels` for the values and the moves
allowed), and solves them by tile sum, from the largest down, in memory. The result, a
:class:`Tablebase`, answers a board of a game: its value and each allowed move's.

>>> from plyground.g2048 import Board
>>> table = solve_formation(Formation.parse("xx/.T"), 8, p_four=0.0)
>>> table.move_values(Board.parse("64 32/4 4"))  # 4 + 4 -> 8: on the goal to the right, elsewhere to the left
{'right': 1.0, 'left': 0.0}
>>> table.value(Board.parse("64 32/2 2"))  # 2 + 2 -> 4, and a 2 beside it: stuck
0.0

Every state of the region is a row of the table: (levels)^cells of them, where the levels are
the exponents below the target and the empty cell; :data:`MAX_STATES` bounds what is solved
here at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError, JobTooLargeError, PlygroundError
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048 import _tablebase_kernels as TK
from plyground.g2048.board import DEFAULT_P_FOUR, DIRECTIONS, Board, check_p_four
from plyground.g2048.tablebase.formation import Formation

__all__ = [
    "MAX_STATES",
    "STATES_PER_SECOND",
    "STATE_BYTES",
    "TableEstimate",
    "Tablebase",
    "estimate_formation",
    "first_best",
    "solve_formation",
]  # fmt: skip

MAX_STATES = 500_000_000
"""The most states :func:`solve_formation` solves in memory at once (:data:`STATE_BYTES` each: 8.5 GB)."""
STATE_BYTES = 17
"""Memory and disk a state takes: its board (8 bytes), value (8) and best move (1)."""
STATES_PER_SECOND = 1_000_000
"""About how many states a second one core solves (measured: 1.5 M a second on this project's 2-core machine)."""


@dataclass(frozen=True)
class TableEstimate:
    """What solving a formation for a target needs: its states, the memory and disk they take, the time."""

    states: int
    memory_bytes: int
    disk_bytes: int
    seconds: float

    def describe(self) -> str:
        """One line: ``1,679,616 states: 28.6 MB of memory and of disk, about 2 s``."""
        return (
            f"{self.states:,} states: {self.memory_bytes / 1e6:,.1f} MB of memory, {self.disk_bytes / 1e6:,.1f} MB "
            f"of disk, about {max(1, round(self.seconds)):,} s"
        )


def estimate_formation(formation: Formation, target: int) -> TableEstimate:
    """What :func:`solve_formation` of ``formation`` for ``target`` needs (every state of the region is solved).

    Raises:
        InvalidInputError: not a Formation, or a target that is not a tile from 4 to 32768.
    """
    if not isinstance(formation, Formation):
        raise InvalidInputError(f"expected a Formation, got {type(formation).__name__}")
    states = _target_exponent(target) ** formation.region_size
    return TableEstimate(states, states * STATE_BYTES + 64 * 2**20, states * STATE_BYTES, states / STATES_PER_SECOND)


def _target_exponent(target: object) -> int:
    if isinstance(target, bool) or not isinstance(target, int) or target < 4 or target & (target - 1):
        raise InvalidInputError(f"the target must be a tile, a power of two from 4 to 32768, got {target!r}")
    exponent = target.bit_length() - 1
    if exponent > 15:
        raise InvalidInputError(f"the target must be a tile, a power of two from 4 to 32768, got {target!r}")
    return exponent


class Tablebase:
    """The exact values of a formation's states for one target tile and spawn rule (see the module).

    Attributes:
        formation: the formation solved.
        target: the tile to build on its goal cell.
        p_four: the probability that a spawned tile is a 4.
    """

    def __init__(
        self,
        formation: Formation,
        target: int,
        p_four: float,
        codes: npt.NDArray[np.uint64],
        values: npt.NDArray[np.float64],
        best: npt.NDArray[np.int8],
        sums: dict[int, tuple[int, int]],
    ) -> None:
        """A table from its arrays: ``sums[s] = (start, count)``, the states of tile sum ``s`` (sorted codes), their
        values and best moves at ``start`` to ``start + count`` of ``codes``, ``values`` and ``best``."""
        self.formation, self.target, self.p_four = formation, target, p_four
        self.codes, self.values, self.best = codes, values, best
        self.sums = sums
        self._exponent = target.bit_length() - 1
        self._empty = (np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.float64))

    def _layer(self, s: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]:
        """The codes and values of the states of tile sum ``s`` (empty arrays where there are none)."""
        if s not in self.sums:
            return self._empty
        start, count = self.sums[s]
        return self.codes[start : start + count], self.values[start : start + count]

    def __repr__(self) -> str:
        formation, states = self.formation.to_text(), self.states
        return f"Tablebase({formation!r}, target={self.target}, p_four={self.p_four}, {states:,} states)"

    @property
    def states(self) -> int:
        """The states held: every board of the region with tiles below the target."""
        return int(self.codes.shape[0])

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

    def _after_value(self, after: int) -> float:
        s = int(SK._tile_sum(np.uint64(after)))
        codes_2, values_2 = self._layer(s + 2)
        codes_4, values_4 = self._layer(s + 4)
        formation = self.formation
        value = TK._after_value(
            np.uint64(after), formation.rows, formation.cols, np.uint64(formation.frozen_mask), formation.goal_shift,
            self._exponent, self.p_four, codes_2, values_2, codes_4, values_4,
        )  # fmt: skip
        if value < 0:
            raise CorruptFileError(f"the endgame table {self!r} is damaged: a spawned board is missing from it")
        return float(value)

    def move_values(self, board: Board) -> dict[str, float]:
        """Each allowed move's probability of building the target on the goal cell, by direction.

        Empty when no move is allowed (the board's value is 0 then).

        Raises:
            InvalidBoardError: ``board`` is not of the formation's size, or a frozen cell holds a tile below the
                target.
        """
        key = self._key(board)
        formation = self.formation
        moves: dict[str, float] = {}
        for d, direction in enumerate(DIRECTIONS):
            after = int(TK._formation_move(np.uint64(key), d, formation.rows, formation.cols,
                                           np.uint64(formation.frozen_mask)))  # fmt: skip
            if after != key:
                moves[direction] = self._after_value(after)
        return moves

    def value(self, board: Board) -> float:
        """The probability of building the target on the goal cell from ``board`` under optimal play.

        1 when the target stands on the goal cell, 0 when a tile of the target or more stands
        elsewhere in the region.

        Raises:
            InvalidBoardError: as :meth:`move_values`.
        """
        key = self._key(board)
        goal = (key >> self.formation.goal_shift) & 0xF
        if goal == self._exponent:
            return 1.0
        if any((key >> (16 * r + 4 * c)) & 0xF >= self._exponent for r, c in self.formation.region):
            return 0.0
        codes, values = self._layer(int(SK._tile_sum(np.uint64(key))))
        i = int(np.searchsorted(codes, np.uint64(key)))
        if i == codes.shape[0] or codes[i] != key:
            raise CorruptFileError(f"the endgame table {self!r} is damaged: it lacks the board {board.to_text()}")
        return float(values[i])

    def best_move(self, board: Board) -> str | None:
        """The first allowed move of the best value (in the order up, right, down, left); None when none is allowed.

        Raises:
            InvalidBoardError: as :meth:`move_values`.
        """
        moves = self.move_values(board)
        return first_best(moves)


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
) -> Tablebase:
    """Solve ``formation`` for the ``target`` tile on its goal cell, with 4s spawning with probability ``p_four``.

    ``on_layer(states solved, states)`` is called after each tile sum's layer.

    Raises:
        InvalidInputError: not a Formation, a target that is not a tile from 4 to 32768, or a bad ``p_four``.
        JobTooLargeError: more states than :data:`MAX_STATES`.
    """
    states = estimate_formation(formation, target).states
    exponent = _target_exponent(target)
    p_four = check_p_four(p_four)
    if states > MAX_STATES:
        raise JobTooLargeError(
            f"{formation.to_text()} with target {target} has {states:,} states: more than the {MAX_STATES:,} "
            "solved in memory at once"
        )
    shifts = np.array([16 * r + 4 * c for r, c in formation.region], dtype=np.int64)
    top = formation.region_size * (target // 2)
    counts = np.zeros(top // 2 + 1, dtype=np.int64)
    TK._region_states(shifts, exponent, counts, np.empty(0, dtype=np.uint64), counts)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    boards = np.empty(int(counts.sum()), dtype=np.uint64)
    TK._region_states(shifts, exponent, starts, boards, counts)
    frozen = np.uint64(formation.frozen_mask)
    values = np.empty(boards.shape[0], dtype=np.float64)
    best = np.empty(boards.shape[0], dtype=np.int8)
    sums = {2 * half: (int(starts[half]), int(counts[half])) for half in range(top // 2 + 1) if counts[half]}
    table = Tablebase(formation, target, p_four, boards, values, best, sums)
    done = 0
    for s in sorted(sums, reverse=True):
        start, count = sums[s]
        layer = slice(start, start + count)
        boards[layer].sort()
        (codes_2, values_2), (codes_4, values_4) = table._layer(s + 2), table._layer(s + 4)
        missing = TK._layer_values(
            boards[layer], formation.rows, formation.cols, frozen, formation.goal_shift, exponent, p_four,
            codes_2, values_2, codes_4, values_4, values[layer], best[layer],
        )  # fmt: skip
        if missing:  # pragma: no cover - the layers hold every board of their sums
            raise PlygroundError(f"{missing} spawned boards missing from the layers of {formation.to_text()}")
        done += count
        if on_layer is not None:
            on_layer(done, boards.shape[0])
    return table
