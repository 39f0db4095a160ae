"""The exact values of a solved board size in memory: the value of many afterstates at once.

:class:`~plyground.g2048.solution.Solution` answers one board at a time and reads its layers from
disk as they are needed. :class:`ExactValues` reads every layer of a solved size once and keeps
them, one after the other (8 bytes of code and 8 of value a canonical state: 0.8 GB for the 48.7 M
states of 3×3), so that :meth:`ExactValues.afterstate_values` values an array of afterstates of any
ages in one kernel call, each as :meth:`~plyground.g2048.solution.Solution.afterstate_value` does:
the average, over the spawns, of the values of the states they lead to. Fitting a network to the
exact values (:mod:`plyground.g2048.ntuple.exact_fit`) reads them so, move after move.

>>> import tempfile
>>> from plyground.g2048 import Board
>>> from plyground.g2048.solver import solve
>>> with tempfile.TemporaryDirectory() as folder:
...     solution = solve(2, 2, directory=folder)
...     exact = ExactValues(solution)
...     board = Board.parse("4 0/2 0")
...     values = exact.afterstate_values(np.array([board.bits], dtype=np.uint64))
...     expected = solution.afterstate_value(board)
>>> exact.states, float(values[0]) == expected
(110, True)
"""

from __future__ import annotations

from typing import NoReturn

import numpy as np
import numpy.typing as npt

from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError, PlygroundError
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048.board import Board
from plyground.g2048.solution import Solution

__all__ = ["ExactValues"]

Codes = npt.NDArray[np.uint64]
Values = npt.NDArray[np.float64]

_MASK64 = (1 << 64) - 1


class ExactValues:
    """Every state value of a solved board size, in memory, to value afterstates in bulk.

    Args:
        solution: a solved :class:`~plyground.g2048.solution.Solution`; its layers are read once.

    Raises:
        InvalidInputError: ``solution`` is not a Solution.
        PlygroundError: the solution holds no values yet (forward pass only).
        CorruptFileError: a layer file of the solution cannot be read, or holds another number of states than
            the solution's counts.
    """

    def __init__(self, solution: Solution) -> None:
        if not isinstance(solution, Solution):
            raise InvalidInputError(f"expected a Solution, got {type(solution).__name__}")
        if not solution.solved:
            raise PlygroundError(f"{solution.directory} holds no values yet (forward pass only): solve it first")
        self.rows, self.cols, self.p_four = solution.rows, solution.cols, solution.p_four
        self.directory = solution.directory
        self._largest_age = max(counts.age for counts in solution.counts())
        self._codes, self._values, self._starts = _all_layers(solution)

    def __repr__(self) -> str:
        return f"ExactValues({self.rows}x{self.cols}, p_four={self.p_four}, {self.states:,} states, {self.directory})"

    @property
    def states(self) -> int:
        """The number of state values held (one a canonical state)."""
        return int(self._codes.shape[0])

    @property
    def largest_age(self) -> int:
        """The largest age (tile sum) of a state of the size."""
        return self._largest_age

    def kernel_tables(self) -> tuple[Codes, Values, npt.NDArray[np.int64]]:
        """``(codes, values, starts)``: the arrays themselves, for a kernel of ``_solver_kernels._afterstate_values``'
        layout (the layer of age ``a`` from ``starts[a // 2]`` to ``starts[a // 2 + 1]``); kernels only read them."""
        return self._codes, self._values, self._starts

    def afterstate_values(self, boards: Codes) -> Values:
        """The optimal expected future score of each board of ``boards`` as an afterstate (a tile to spawn).

        Each is :meth:`Solution.afterstate_value <plyground.g2048.solution.Solution.afterstate_value>` of the
        board, computed the same way, for any of its symmetric images.

        Args:
            boards: a 1-D ``uint64`` array of bitboards of the size.

        Returns:
            A new float64 array of their values, in order.

        Raises:
            InvalidInputError: ``boards`` is not a 1-D numpy array of uint64.
            InvalidBoardError: a board has a tile outside the board, no empty cell, or spawns that lead to no
                reachable state of the size (the empty board among them); the message names the first.
        """
        boards = self._checked(boards)
        out = np.empty(boards.shape[0], dtype=np.float64)
        if self._value(boards, out):
            one = np.empty(1, dtype=np.float64)
            first = next(i for i in range(boards.shape[0]) if self._value(boards[i : i + 1], one))
            self._refuse(boards, first, f"does not lead to reachable {self.rows}x{self.cols} states")
        return out

    def _value(self, boards: Codes, out: Values) -> int:
        """Value ``boards`` into ``out``; return the spawned boards missing from the layers."""
        return int(SK._afterstate_values(boards, self.rows, self.cols, self.p_four, *self.kernel_tables(), out))

    def _checked(self, boards: object) -> Codes:
        """``boards`` as a C-contiguous array whose every board the kernel can value (or spots as unreachable)."""
        if not isinstance(boards, np.ndarray) or boards.ndim != 1 or boards.dtype != np.uint64:
            shown = (
                f"an array of {boards.dtype} of shape {boards.shape}"
                if isinstance(boards, np.ndarray)
                else repr(boards)
            )
            raise InvalidInputError(f"boards must be a 1-D numpy array of uint64, got {shown}")
        shifts = np.array([16 * r + 4 * c for r in range(self.rows) for c in range(self.cols)], dtype=np.uint64)
        inside = sum(0xF << int(shift) for shift in shifts)
        outside = np.flatnonzero(boards & np.uint64(_MASK64 ^ inside))
        if outside.size:
            i = int(outside[0])
            raise InvalidBoardError(
                f"boards[{i}] = {int(boards[i]):#x} has tiles outside a {self.rows}x{self.cols} board"
            )
        exponents = (boards[:, None] >> shifts) & np.uint64(0xF)
        full = np.flatnonzero(exponents.min(axis=1) > 0)
        if full.size:
            self._refuse(boards, int(full[0]), "has no empty cell to spawn on")
        ages = np.where(exponents > 0, np.uint64(1) << exponents, np.uint64(0)).sum(axis=1)
        too_old = np.flatnonzero(ages > self._largest_age)
        if too_old.size:
            self._refuse(boards, int(too_old[0]), f"does not lead to reachable {self.rows}x{self.cols} states")
        return np.require(boards, requirements=("C", "W"))  # what the kernel's signature takes

    def _refuse(self, boards: Codes, i: int, why: str) -> NoReturn:
        board = Board(int(boards[i]), self.rows, self.cols)
        raise InvalidBoardError(f"boards[{i}] ({board.to_text()}) {why}")


def _all_layers(solution: Solution) -> tuple[Codes, Values, npt.NDArray[np.int64]]:
    """Every layer of ``solution`` one after the other, and where the layer of each age starts.

    ``starts`` reaches ``largest age // 2 + 3``: the ends of the layers two and four above the oldest.
    The layers are copied one by one into arrays of the size the counts give.

    Raises:
        CorruptFileError: a layer does not hold as many states as the counts say.
    """
    counts = solution.counts()
    largest_age = max(count.age for count in counts)
    total = sum(count.states for count in counts)
    codes, values = np.empty(total, dtype=np.uint64), np.empty(total, dtype=np.float64)
    starts = np.zeros(largest_age // 2 + 4, dtype=np.int64)
    states = {count.age: count.states for count in counts}
    at = 0
    for age in range(0, largest_age + 2, 2):
        starts[age // 2] = at
        layer_codes, layer_values = solution.layer(age)
        n = layer_codes.shape[0]
        if n != states.get(age, 0) or layer_values is None:
            raise CorruptFileError(
                f"{solution.directory}: the layer of age {age} holds {n:,} states, its count {states.get(age, 0):,}"
            )
        codes[at : at + n], values[at : at + n] = layer_codes, layer_values
        at += n
    starts[largest_age // 2 + 1 :] = at  # the layers above the oldest are empty
    return codes, values, starts
