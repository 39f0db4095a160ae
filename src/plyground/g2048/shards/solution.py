"""A sharded solution read as a :class:`~plyground.g2048.solution.Solution`: every query works on it.

A state's value reads the one shard that owns it; the queries that average over spawns
(``move_values``, ``afterstate_value``, ``expected_score``) read the whole layers above
the board, merged from their shards, and keep the last few in memory.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path

import numpy as np

from plyground.errors import CorruptFileError, InvalidBoardError
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048.board import Board
from plyground.g2048.shards import _shard_kernels as HK
from plyground.g2048.shards.store import Codes, ShardFolder, Values, is_sharded
from plyground.g2048.solution import Solution, check_values, max_score

__all__ = ["ShardedSolution", "open_solution"]


class ShardedSolution(Solution):
    """The solution in a sharded solver's folder (see :mod:`plyground.g2048.shards.store`).

    Raises:
        CorruptFileError: the folder holds no readable sharded solution.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.folder = ShardFolder.open(self.directory)
        self._meta = self.folder.meta
        self.rows, self.cols, self.p_four = self.folder.rows, self.folder.cols, self.folder.p_four
        self.compact = True
        self._layers: OrderedDict[int, tuple[Codes, Values | None]] = OrderedDict()
        self._ages = set(self.folder.ages)
        self._shard_cache: OrderedDict[tuple[int, int], tuple[Codes, Values]] = OrderedDict()

    def __repr__(self) -> str:
        state = "solved" if self.solved else "forward pass only"
        return f"ShardedSolution({self.rows}x{self.cols}, p_four={self.p_four}, {self.folder.shards} shards, {state})"

    def stored_bytes(self) -> dict[str, int]:
        kinds = ("states", "after") + (("values",) if self.solved else ())
        return {kind: sum(self.folder.layer_bytes(kind, age) for age in sorted(self._ages)) for kind in kinds}

    def _layer(self, age: int) -> tuple[Codes, Values | None]:
        if age in self._layers:
            self._layers.move_to_end(age)
            return self._layers[age]
        empty: tuple[Codes, Values | None] = (np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.float64))
        layer = self.folder.layer(age) if age in self._ages else empty
        if layer[1] is not None:
            try:
                check_values(layer[1], self.directory, max_score(self.rows, self.cols))
            except CorruptFileError:  # name the shard's file: read them again, one by one (a damaged folder only)
                for shard in range(self.folder.shards):
                    self._shard_values(age, shard, self.folder.read_codes(self._shard_path(age, shard), age).shape[0])
                raise
        self._layers[age] = layer
        if len(self._layers) > self._CACHED_LAYERS:
            self._layers.popitem(last=False)
        return layer

    def _state_value(self, bits: np.uint64, age: int, board: Board) -> float:
        """The value of one state: from the one shard that owns it."""
        if age not in self._ages:
            raise InvalidBoardError(f"{board.to_text()} is not a reachable {self.rows}x{self.cols} state")
        code = SK._canonical(bits, self.rows, self.cols)
        shard = int(HK._owner(code, self.folder.shards, self.folder.owner_shift))
        key = (age, shard)
        if key not in self._shard_cache:
            codes = self.folder.read_codes(self._shard_path(age, shard), age)
            self._shard_cache[key] = (codes, self._shard_values(age, shard, codes.shape[0]))
            if len(self._shard_cache) > 4 * self._CACHED_LAYERS:
                self._shard_cache.popitem(last=False)
        codes, values = self._shard_cache[key]
        k = int(SK._find(codes, code))
        if k < 0:
            raise InvalidBoardError(f"{board.to_text()} is not a reachable {self.rows}x{self.cols} state")
        return float(values[k])

    def _shard_path(self, age: int, shard: int, kind: str = "states") -> str:
        """The file of one shard of a layer."""
        return self.folder.layer_path(kind, age, shard)

    def _shard_values(self, age: int, shard: int, n: int) -> Values:
        """The values of one shard, checked: a shard's file is read whole, so all of them are."""
        path = self._shard_path(age, shard, "values")
        values = self.folder.read_values(path, n)
        check_values(values, path, max_score(self.rows, self.cols))
        return values


def open_solution(directory: str | os.PathLike[str]) -> Solution:
    """The solution in ``directory``, of the in-memory solver or the sharded one."""
    return ShardedSolution(directory) if is_sharded(directory) else Solution(directory)
