"""The engine's threat searches at the root, before its search: steps 2 to 4 of a move.

A :class:`RootThreats` holds one move's pattern board, the threat solver's table and line, and
the flag that stops everything, and counts the positions its searches enter. Its steps (see
:mod:`plyground.kinrow.engine` for the whole move):

2. :meth:`RootThreats.vcf` — a win by fours of the player to move;
3. :meth:`RootThreats.vcf_ban` — the moves after which the opponent still has a VCF, set aside;
3b. :meth:`RootThreats.vcf` / :meth:`RootThreats.vct` — a win by threes and fours, within a budget of nodes;
4. :meth:`RootThreats.vct_defence` — the moves that stop the opponent's VCT, if any does.

The threat solver does not know renju's forbidden moves: the engine skips the steps that would
attack for black under renju. The kernels are :mod:`plyground.kinrow._threat_kernels`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from plyground.kinrow import _threat_kernels as T
from plyground.kinrow.patterns import PatternBoard

__all__ = ["RootThreats"]


class RootThreats:
    """The threat searches of one move at the root (see the module).

    Args:
        board: the position, as a pattern board (searched on and restored).
        table: the threat solver's table (:mod:`plyground.kinrow._table_kernels`).
        stop: uint8 ``[flag]``: set, every search returns at once.
        line_length: cells of the line array (:attr:`line`), shared with the search after.
    """

    def __init__(
        self, board: PatternBoard, table: npt.NDArray[np.void], stop: npt.NDArray[np.uint8], line_length: int
    ) -> None:
        self.board = board
        self.arrays = board.arrays()
        self.table = table
        self.stop = stop
        self.line = np.zeros(line_length, dtype=np.int32)
        self.stats = np.zeros(2, dtype=np.int64)
        self.nodes = 0
        """Positions the searches entered so far."""

    def _vcf_found(self, player: int, depth: int) -> bool:
        self.stats[:] = 0
        found = T._vcf(self.arrays, self.table, self.line, self.stop, self.stats, player, depth, 0, -1, 0)
        self.nodes += int(self.stats[T.NODES])
        return bool(found)

    def _vct_found(self, player: int, depth: int, budget: int) -> bool:
        self.stats[:] = 0
        found = T._vct(self.arrays, self.table, self.line, self.stop, self.stats, player, depth, 0, budget)
        self.nodes += int(self.stats[T.NODES])
        return bool(found)

    def _found_line(self) -> tuple[int, ...]:
        return tuple(int(move) for move in self.line[: self.stats[T.LENGTH]])

    def vcf(self, player: int, depth: int) -> tuple[int, ...] | None:
        """``player``'s (to move) win by fours within ``depth`` of its moves, as its line; None if none."""
        return self._found_line() if self._vcf_found(player, depth) else None

    def vct(self, player: int, depth: int, budget: int) -> tuple[int, ...] | None:
        """``player``'s win by threes and fours within ``depth`` moves and ``budget`` nodes; None if none found."""
        if self._vct_found(player, depth, budget) and not self.stop[0]:
            return self._found_line()
        return None

    def vcf_ban(self, me: int, you: int, depth: int) -> npt.NDArray[np.uint8]:
        """1 on each move of ``me`` after which ``you`` has a VCF (none when every move leaves one)."""
        board = self.board
        ban = np.zeros(board.n * board.n, dtype=np.uint8)
        if not self._vcf_found(you, depth):
            return ban
        near = np.flatnonzero((board.cells == 0) & (board.near > 0)).tolist()
        for cell in near:
            board.place(cell, me)
            if self._vcf_found(you, depth):
                ban[cell] = 1
            board.remove(cell)
            if self.stop[0]:
                break
        if ban.sum() == len(near):
            ban[:] = 0  # every move loses to a VCF: let the search pick the longest resistance
        return ban

    def vct_defence(
        self,
        me: int,
        you: int,
        depth: int,
        budget: int,
        candidates: Callable[[list[int]], list[int]],
        give_up: float | None,
    ) -> list[int] | None:
        """The moves of ``me`` to keep against ``you``'s VCT (found within ``budget`` nodes), or None if it has none.

        ``candidates(line)`` orders the moves that may stop the VCT ``line``; each is checked by
        a VCT of the same budget after it. Kept: the moves shown to stop it, else those whose
        check ran out of nodes; and the moves not checked before ``give_up`` (a
        ``time.perf_counter()``). None also when nothing is kept or the search was stopped.
        """
        if not self._vct_found(you, depth, budget):
            return None
        threat = [int(move) for move in self.line[: self.stats[T.LENGTH]]]
        board = self.board
        safe: list[int] = []
        unknown: list[int] = []  # the opponent's VCT ran out of nodes: not shown to stop it
        unchecked: list[int] = []  # no time left to check them
        moves = candidates(threat)
        for i, cell in enumerate(moves):
            if give_up is not None and time.perf_counter() > give_up:
                unchecked = moves[i:]
                break
            board.place(cell, me)
            if not self._vct_found(you, depth, budget):
                (unknown if self.stats[T.NODES] > budget else safe).append(cell)
            board.remove(cell)
            if self.stop[0]:
                break
        keep = [*(safe or unknown), *unchecked]
        return keep if keep and not self.stop[0] else None
