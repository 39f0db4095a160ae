"""Endgame tables inside the search: each leaf worth the evaluator's value plus a weight times a table's probability.

A search with :class:`TableLeaves` (``Expectimax(table_leaves=...)``, or ``SearchAgent(...,
table_use="leaves")``) asks the tables once a search, at its root, as an
:class:`~plyground.g2048.tablebase.Advisor` does: the table of the largest target that fits the
board with its goal cell continuing the chain of big tiles, the target not built yet and some
move still able to succeed. Where one does, every afterstate the search values at its horizon is
worth the evaluator's value plus ``weight`` times the table's probability of building the target
from it (the kernels: ``plyground.g2048._tablebase_leaf_kernels``):

* while the frozen cells hold the root's tiles, the table's exact value of the afterstate;
* once they do not, 1 when the target was built and merged down the chain (the tiles of the
  target or more add up to the root's plus the target), else 0 (a frozen tile slid).

The search still weighs the rest of the board (the evaluator), and the table only where it speaks:
where none fits, the leaves are the evaluator's alone. Where one does, the search plays the game's
board, not a network's downgraded one (:meth:`~plyground.g2048.Evaluator.searched_board`), whose
halved big tiles would merge with the region's as the game's never do.
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from plyground.errors import InvalidInputError
from plyground.g2048.board import Board
from plyground.g2048.evaluator import Leaf
from plyground.g2048.tablebase.advice import Advice, Advisor
from plyground.g2048.tablebase.formation import image_cell
from plyground.g2048.tablebase.solve import QUANTUM, Tablebase

__all__ = ["DEFAULT_WEIGHT", "TableLeaves"]

DEFAULT_WEIGHT = 20_000.0
"""Points a leaf gains per unit of a table's probability, by default."""

_OFF = (
    np.zeros(1, dtype=np.uint16), np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64),
    np.array([0, 0, 0, 0, -1], dtype=np.int64),
    np.zeros(2, dtype=np.uint64), np.zeros(4, dtype=np.float64),
)  # fmt: skip
"""The table part of the data of a search that no table joins (``on`` 0)."""


class TableLeaves:
    """Endgame tables weighed at a search's leaves (see the module).

    Args:
        advisor: the tables.
        weight: what a leaf gains per unit of probability, in the evaluator's units (points for a
            network): a finite number, 0 or more (0: the evaluator's values, unchanged).

    Raises:
        InvalidInputError: not an Advisor, or a weight that is negative or not finite.
    """

    def __init__(self, advisor: Advisor, weight: float = DEFAULT_WEIGHT) -> None:
        if not isinstance(advisor, Advisor):
            raise InvalidInputError(f"expected the tables as an Advisor, got {type(advisor).__name__}")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0.0 <= weight < math.inf:
            raise InvalidInputError(f"a table's weight at the leaves is a finite number, 0 or more, got {weight!r}")
        self.advisor = advisor
        self.weight = float(weight)
        self.last: Advice | None = None
        """The advice of the table that the last search weighed; None when none joined it."""
        self._values: dict[int, npt.NDArray[np.uint16]] = {}

    def __repr__(self) -> str:
        return f"TableLeaves({len(self.advisor)} tables, weight={self.weight:g})"

    def kernels(self, base: Leaf) -> Any:
        """The leaf kernels of a search with ``base`` (an evaluator's :class:`~plyground.g2048.evaluator.Leaf`)."""
        from plyground.g2048._tablebase_leaf_kernels import table_leaf

        return table_leaf(base.kernels)

    def leaf(self, board: Board, searched: Board, base: Leaf) -> Leaf:
        """The leaves of a search of ``board`` with the evaluator's leaf ``base`` and the table that joins, if any
        (:attr:`last`). ``searched`` is the board the evaluator would search (its
        :meth:`~plyground.g2048.Evaluator.searched_board`): with a table, the search plays ``board`` and the
        evaluator sees each leaf halved as ``searched`` is (the tiles above the same gap); no table joins where
        ``searched`` is not ``board`` so halved."""
        advice = self.advisor.advise(board) if self.weight > 0.0 else None
        gap = _gap(board, searched) if advice is not None else None
        self.last = advice if gap is not None else None
        arrays = self._arrays(advice, board, base, gap) if advice is not None and gap is not None else _OFF
        return Leaf(self.kernels(base), (base.data, *arrays), base.lost, base.scratch + 1)

    def _arrays(self, advice: Advice, board: Board, base: Leaf, gap: int) -> tuple[Any, ...]:
        """The table part of the data for ``advice`` on ``board``, the evaluator's view halved above ``gap``."""
        table = advice.table
        formation, k = table.formation, advice.answer.symmetry
        rows, cols = formation.rows, formation.cols

        def shift(cell: tuple[int, int]) -> int:
            r, c = image_cell(cell, k, rows, cols)
            return 16 * r + 4 * c

        frozen = [shift(cell) for cell in formation.frozen]
        mask = sum(0xF << s for s in frozen)
        settings = np.array([1, table.levels, shift(formation.goal), 4 * base.scratch, gap], dtype=np.int64)
        bits = np.array([mask, board.bits & mask], dtype=np.uint64)
        big = float(sum(1 << ((board.bits >> s) & 0xF) for s in frozen))
        numbers = np.array([self.weight, table.p_four, 1.0 / QUANTUM, big], dtype=np.float64)
        region = np.array([shift(cell) for cell in formation.region], dtype=np.int64)
        return self._stored(table), region, table.radix, settings, bits, numbers

    def _stored(self, table: Tablebase) -> npt.NDArray[np.uint16]:
        """``table``'s values as 16-bit integers times :data:`QUANTUM` (as on disk): a solve's are rounded, once."""
        values = table.values
        if values.dtype == np.uint16:
            return cast("npt.NDArray[np.uint16]", values)
        key = id(table)  # the advisor keeps its tables: an id is never another table's
        if key not in self._values:
            self._values[key] = np.rint(np.asarray(values) * QUANTUM).astype(np.uint16)
        return self._values[key]


def _gap(board: Board, searched: Board) -> int | None:
    """The exponent above which ``searched`` is ``board`` with every tile halved (-1: it is ``board``); None when
    it is not ``board`` so halved."""
    if searched.bits == board.bits:
        return -1
    exponents = [(board.bits >> (4 * k)) & 0xF for k in range(16)]
    changed = [e for k, e in enumerate(exponents) if (searched.bits >> (4 * k)) & 0xF != e]
    gap = min(changed) - 1
    halved = sum((e - 1 if e > gap else e) << (4 * k) for k, e in enumerate(exponents))
    return gap if halved == searched.bits and searched.shape == board.shape else None
