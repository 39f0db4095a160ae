"""What values the leaves of a 2048 search: the :class:`Evaluator` interface.

An evaluator values boards for :class:`~plyground.g2048.expectimax.Expectimax`, explains a
board's value for a hint, and says which board size it plays. Two ship with plyground:

* :class:`~plyground.g2048.heuristic.Heuristic` - hand-made features of the board, weighted
  (any board size; its values are heuristic units, not points);
* :class:`~plyground.g2048.ntuple.NTupleNetwork` - a learned value of afterstates, the
  expected points still to come (the board size it was trained on).

Where a user names one by text (a command-line flag, a job for another process),
:func:`plyground.g2048.registry.load_evaluator` parses the text once into an object.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from plyground.errors import InvalidBoardError
from plyground.g2048.board import Board, Direction

__all__ = ["Evaluator", "Explanation", "Leaf", "MoveValue", "Unit"]

Unit: TypeAlias = Literal["heuristic units", "points"]
"""What an evaluator's values count."""


@dataclass(frozen=True, eq=False)
class Leaf:
    """What a search needs of an evaluator to value its leaves on boards of one size.

    Attributes:
        kernels: the evaluator's leaf kernels (a ``_search_kernels.LeafKernels``), from which the
            search is compiled: it knows them, never the evaluator's type.
        data: the tables and numbers the kernels read (of the type ``kernels.data_type``); the search
            only reads them, so several searches may use them at once.
        lost: the value of a board with no legal move.
        scratch: the int64 scratch the kernels need for a leaf.
    """

    kernels: Any
    data: tuple[Any, ...]
    lost: float
    scratch: int = 0


@dataclass(frozen=True)
class MoveValue:
    """A move's value to a network at depth 1: the ``points`` it scores plus the value V of the board it leaves."""

    points: int
    value: float

    @property
    def total(self) -> float:
        """``points + value``: the move's value in a search of depth 1."""
        return self.points + self.value


@dataclass(frozen=True)
class Explanation:
    """Why an evaluator values a board as it does, for a hint.

    Attributes:
        evaluator: the evaluator's :attr:`~Evaluator.name`.
        unit: what its values count: ``"heuristic units"`` or ``"points"`` (to come).
        total: the board's value by the heuristic (None for a network, which values afterstates).
        contributions: the heuristic's value feature by feature (empty for a network).
        moves: a network's value of each legal move: points + V of the board it leaves (empty
            for the heuristic).
    """

    evaluator: str
    unit: Unit
    total: float | None = None
    contributions: Mapping[str, float] = field(default_factory=dict)
    moves: Mapping[Direction, MoveValue] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The hint's JSON parts: ``evaluation`` (the heuristic's ``total`` and ``contributions``) and
        ``afterstates`` (a network's ``points``, ``value`` and ``total`` of each move), the one that does
        not apply None; numbers that are not finite are None too (JSON has no infinities).

        >>> Explanation("n-tuple network", "points", moves={"up": MoveValue(4, 10.5)}).to_json()
        {'evaluation': None, 'afterstates': {'up': {'points': 4, 'value': 10.5, 'total': 14.5}}}
        """
        evaluation = None
        if self.total is not None:
            evaluation = {
                "total": _finite(self.total),
                "contributions": {name: _finite(value) for name, value in self.contributions.items()},
            }
        afterstates = None
        if self.moves:
            afterstates = {
                move: {"points": v.points, "value": _finite(v.value), "total": _finite(v.total)}
                for move, v in self.moves.items()
            }
        return {"evaluation": evaluation, "afterstates": afterstates}


def _finite(value: float) -> float | None:
    return value + 0.0 if math.isfinite(value) else None  # + 0.0: -0.0 reads as 0.0


class Evaluator(abc.ABC):
    """What values the leaves of an expectimax search (see the module).

    A subclass says its :attr:`name` and :attr:`kind`, the board size it plays (:attr:`shape`, None
    for every size), whether its values are points to come (:attr:`values_points`), and gives
    :meth:`value`, :meth:`explain` and :meth:`leaf`. Applications use only these (and
    :meth:`to_json`), never an evaluator's type.
    """

    @property
    @abc.abstractmethod
    def name(self) -> str:
        """The evaluator in words: ``heuristic``, or ``n-tuple network FILE``."""

    @property
    def kind(self) -> str:
        """Its kind, as commands and the web lab name it: ``heuristic`` or ``network`` (default: :attr:`name`)."""
        return self.name

    @property
    def label(self) -> str:
        """A short name for a window or a page (default: :attr:`name`)."""
        return self.name

    def to_json(self) -> dict[str, Any]:
        """What a page shows of it: its ``kind``, ``name``, ``label``, ``unit`` and the ``rows`` and ``cols`` it
        plays (None for every size)."""
        rows, cols = self.shape if self.shape is not None else (None, None)
        described: dict[str, Any] = {"kind": self.kind, "name": self.name, "label": self.label, "unit": self.unit}
        return described | {"rows": rows, "cols": cols}

    @property
    def shape(self) -> tuple[int, int] | None:
        """``(rows, cols)`` of the boards it values; None: boards of every size."""
        return None

    @property
    def values_points(self) -> bool:
        """Whether its values are expected points to come (a search then adds the points scored on the way)."""
        return False

    @property
    def unit(self) -> Unit:
        """What its values count."""
        return "points" if self.values_points else "heuristic units"

    def check_size(self, rows: int, cols: int) -> None:
        """Refuse boards of another size than :attr:`shape`.

        Raises:
            InvalidBoardError: a board of ``rows`` x ``cols`` cannot be valued (the message
                names both sizes).
        """
        shape = self.shape
        if shape is not None and (rows, cols) != shape:
            raise InvalidBoardError(f"the {self.label} plays {shape[0]}x{shape[1]} boards, not {rows}x{cols} ones")

    def check_board(self, board: Board) -> None:
        """Refuse what is not a :class:`~plyground.g2048.Board` of the evaluator's size.

        Raises:
            InvalidBoardError: not a board, or a board of another size.
        """
        if not isinstance(board, Board):
            raise InvalidBoardError(f"expected a Board, got {type(board).__name__}")
        self.check_size(board.rows, board.cols)

    @abc.abstractmethod
    def value(self, board: Board) -> float:
        """The evaluator's value of ``board`` (checked with :meth:`check_board`)."""

    @abc.abstractmethod
    def explain(self, board: Board) -> Explanation:
        """Why ``board`` (a state, before the player's move) is worth what it is worth."""

    def searched_board(self, board: Board) -> Board:
        """The board a search with this evaluator plays in ``board``'s place: ``board`` itself (a network
        downgrades late boards: see :meth:`~plyground.g2048.ntuple.NTupleNetwork.downgraded`)."""
        return board

    def prepare(self, rows: int, cols: int) -> None:
        """Build what searching boards of this size needs (:meth:`leaf`), before a timed search starts."""
        self.leaf(rows, cols)

    @abc.abstractmethod
    def leaf(self, rows: int, cols: int) -> Leaf:
        """Its leaf kernels and their data for boards of ``rows`` x ``cols`` (checked by the caller), built
        once a size: what :class:`~plyground.g2048.expectimax.Expectimax` searches with. Importing the
        kernels compiles the search for them (from numba's cache after the first run)."""
