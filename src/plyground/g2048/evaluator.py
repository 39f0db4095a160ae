"""What values the leaves of a 2048 search: the :class:`Evaluator` interface and its parser.

An evaluator values boards for :class:`~plyground.g2048.expectimax.Expectimax`, explains a
board's value for a hint, and says which board size it plays. Two ship with plyground:

* :class:`Heuristic` - hand-made features of the board, weighted (any board size; its values
  are heuristic units, not points);
* :class:`~plyground.g2048.ntuple.NTupleNetwork` - a learned value of afterstates, the
  expected points still to come (the board size it was trained on).

Where a user names an evaluator by text (a command-line flag, a job sent to another
process), :func:`load_evaluator` parses it once into an object:

>>> load_evaluator("heuristic").name
'heuristic'
>>> load_evaluator("net.npz")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
plyground.g2048.evaluator.UnknownEvaluatorError: evaluator must be ... got 'net.npz'; did you mean 'ntuple:net.npz'?
"""

from __future__ import annotations

import abc
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from plyground.errors import InvalidBoardError, InvalidInputError
from plyground.g2048.board import Board, Direction
from plyground.g2048.heuristic import Weights, default_weights, evaluate, line_table, lost_value

__all__ = [
    "HEURISTIC",
    "NTUPLE_PREFIX",
    "Evaluator",
    "Explanation",
    "Heuristic",
    "MoveSearch",
    "MoveValue",
    "UnknownEvaluatorError",
    "load_evaluator",
    "network_path",
]

HEURISTIC = "heuristic"
"""The text that names the heuristic (with the weights shipped with plyground)."""
NTUPLE_PREFIX = "ntuple:"
"""The text before the path of an n-tuple network: ``ntuple:FILE``, ``ntuple:RUN_FOLDER``, ``ntuple:latest``."""
LATEST = "latest"
"""``ntuple:latest`` names the network of the newest training run in the data folder."""
NETWORK_FILE = "network.npz"
"""The network's file in a training run's folder."""

Unit: TypeAlias = Literal["heuristic units", "points"]

MoveSearch: TypeAlias = Callable[[int, int, Any, Any, Any], float]
"""``search(move, depth, tt, counters, stop)``: the value of one root move of a board, searched
``depth`` moves deep by the kernels, with a worker's transposition table and counters and the
search's stop flag (see ``_search_kernels``)."""


class UnknownEvaluatorError(InvalidInputError):
    """A text that names no evaluator; the message says what would."""


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

    A subclass says its :attr:`name`, the board size it plays (:attr:`shape`, None for every
    size), whether its values are points to come (:attr:`values_points`), and gives
    :meth:`value`, :meth:`explain` and :meth:`move_search`.
    """

    @property
    @abc.abstractmethod
    def name(self) -> str:
        """The evaluator in words: ``heuristic``, or ``n-tuple network FILE``."""

    @property
    def label(self) -> str:
        """A short name for a window or a page (default: :attr:`name`)."""
        return self.name

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

    def prepare(self, rows: int, cols: int) -> None:  # noqa: B027 - an optional hook
        """Build what searching boards of this size needs, before a timed search starts (default: nothing)."""

    @abc.abstractmethod
    def move_search(self, board: Board, *, p_four: float, cutoff: float, max_cells: int, seed: int) -> MoveSearch:
        """The kernel search of ``board``'s root moves with this evaluator at the leaves.

        The board is checked by the caller; the returned function only reads the
        evaluator's tables, so that several threads may run it at once.
        """


class Heuristic(Evaluator):
    """The hand-made heuristic (:mod:`plyground.g2048.heuristic`) with ``weights``.

    Args:
        weights: the weights (default: those shipped with plyground).

    >>> heuristic = Heuristic()
    >>> heuristic.explain(Board.parse("2 4/8 16")).unit
    'heuristic units'
    """

    def __init__(self, weights: Weights | None = None) -> None:
        if weights is not None and not isinstance(weights, Weights):
            raise InvalidInputError(f"weights must be a Weights object, got {type(weights).__name__}")
        self.weights = weights if weights is not None else default_weights()
        """The weights of the features."""
        self._tables: dict[tuple[int, int], tuple[npt.NDArray[np.float64], float]] = {}

    @property
    def name(self) -> str:
        return HEURISTIC

    def __repr__(self) -> str:
        return f"Heuristic({self.weights!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Heuristic) and other.weights == self.weights

    def __hash__(self) -> int:
        return hash((Heuristic, self.weights.to_json()))

    def __getstate__(self) -> dict[str, Any]:
        return {"weights": self.weights}  # the tables (5 MB a size) are rebuilt where they are needed

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.weights = state["weights"]
        self._tables = {}

    def value(self, board: Board) -> float:
        self.check_board(board)
        return evaluate(board, self.weights).total

    def explain(self, board: Board) -> Explanation:
        self.check_board(board)
        evaluation = evaluate(board, self.weights)
        return Explanation(self.name, self.unit, evaluation.total, dict(evaluation.contributions))

    def prepare(self, rows: int, cols: int) -> None:
        self._table(rows, cols)

    def _table(self, rows: int, cols: int) -> tuple[npt.NDArray[np.float64], float]:
        key = (rows, cols)
        if key not in self._tables:
            self._tables[key] = (line_table(self.weights, rows, cols), lost_value(self.weights, rows, cols))
        return self._tables[key]

    def move_search(self, board: Board, *, p_four: float, cutoff: float, max_cells: int, seed: int) -> MoveSearch:
        from plyground.g2048 import _search_kernels as S

        bits, rows, cols = np.uint64(board.bits), board.rows, board.cols
        table, lost = self._table(rows, cols)
        monotonicity, sampling_seed = self.weights.monotonicity, np.uint64(seed)

        def search(move: int, depth: int, tt: Any, counters: Any, stop: Any) -> float:
            return float(
                S._search_move(
                    bits, move, depth, rows, cols, table, monotonicity, p_four, cutoff, lost, max_cells,
                    sampling_seed, tt, counters, stop,
                )
            )  # fmt: skip

        return search


def network_path(text: str | os.PathLike[str], *, data_folder: Path | None = None) -> Path:
    """The network file that ``text`` names: a file, a training run's folder, or ``latest``.

    ``~`` is expanded. A folder names the ``network.npz`` of the training run it holds;
    ``latest`` names that of the newest training run under ``<data folder>/ntuple``.

    Raises:
        InvalidInputError: nothing there, a folder without a network, or no training run yet.
    """
    if str(text) == LATEST:
        from plyground.core.files import data_dir

        root = (data_folder if data_folder is not None else data_dir()) / "ntuple"
        runs = sorted(path for path in root.glob("*") if (path / NETWORK_FILE).is_file()) if root.is_dir() else []
        if not runs:
            raise InvalidInputError(f"no trained network in {root} yet: train one with 'plyground 2048 learn'")
        return runs[-1] / NETWORK_FILE
    path = Path(text).expanduser()
    if path.is_dir():
        if not (path / NETWORK_FILE).is_file():
            raise InvalidInputError(f"{path} holds no {NETWORK_FILE}: it is not a training run's folder")
        return path / NETWORK_FILE
    if not path.exists():
        raise InvalidInputError(f"n-tuple network file {path} does not exist")
    return path


def load_evaluator(
    evaluator: Evaluator | str | None = None, *, weights: Weights | None = None, reuse: bool = False
) -> Evaluator:
    """The evaluator that ``evaluator`` names, parsed once.

    Args:
        evaluator: an :class:`Evaluator` (returned as it is); None or ``"heuristic"``: the
            heuristic; ``"ntuple:PATH"``: the n-tuple network in PATH, a file written by
            :meth:`~plyground.g2048.ntuple.NTupleNetwork.save`, a training run's folder, or
            ``latest`` (see :func:`network_path`).
        weights: the heuristic's weights (only with the heuristic).

    Raises:
        InvalidInputError: an unknown evaluator (the message suggests the right form),
            ``weights`` with a network, or a missing file.
        CorruptFileError: a file that is not a readable network (one line, naming the file).
    """
    if isinstance(evaluator, Evaluator):
        if weights is not None and not (isinstance(evaluator, Heuristic) and evaluator.weights == weights):
            raise InvalidInputError("weights set the heuristic: they cannot be used with another evaluator")
        return evaluator
    if evaluator is not None and not isinstance(evaluator, str):
        raise UnknownEvaluatorError(f"evaluator must be an Evaluator or its name, got a {type(evaluator).__name__}")
    if evaluator is None or evaluator == HEURISTIC:
        return Heuristic(weights)
    if not evaluator.startswith(NTUPLE_PREFIX) or evaluator == NTUPLE_PREFIX:
        raise UnknownEvaluatorError(
            "evaluator must be 'heuristic' or 'ntuple:PATH' (a network file, a training run's folder, or "
            f"'latest'), got {evaluator!r}{_suggestion(evaluator)}"
        )
    if weights is not None:
        raise InvalidInputError("weights set the heuristic: they cannot be used with an n-tuple network")
    from plyground.g2048.ntuple import NTupleNetwork  # here: the heuristic alone does not load the network's kernels

    path = network_path(evaluator.removeprefix(NTUPLE_PREFIX))
    try:
        if not reuse:
            return NTupleNetwork.load(path)
        stat = path.stat()
        key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
        if key not in _REUSED:
            _REUSED.clear()
            _REUSED[key] = NTupleNetwork.load(path)
        return _REUSED[key]
    except FileNotFoundError:
        raise InvalidInputError(f"n-tuple network file {path} does not exist") from None
    except IsADirectoryError:
        raise InvalidInputError(f"{path} is a folder, not an n-tuple network file") from None
    except PermissionError:
        raise InvalidInputError(f"cannot read n-tuple network file {path}: permission denied") from None


_REUSED: dict[tuple[str, int, int], Evaluator] = {}
"""The network that :func:`load_evaluator` with ``reuse`` read last, by (path, size, mtime)."""


def _suggestion(text: str) -> str:
    """``"; did you mean ..."`` for a near miss of an evaluator's name, else ``""``."""
    import difflib

    stripped = text.strip()
    if stripped.lower() == HEURISTIC or difflib.get_close_matches(stripped.lower(), [HEURISTIC], cutoff=0.75):
        return f"; did you mean {HEURISTIC!r}?"
    head, sep, tail = stripped.partition(":")
    if sep and tail and difflib.get_close_matches(head.lower(), ["ntuple", "n-tuple", "network"], cutoff=0.6):
        return f"; did you mean {NTUPLE_PREFIX + tail!r}?"
    if stripped.endswith(".npz") or os.sep in stripped or stripped == LATEST:
        return f"; did you mean {NTUPLE_PREFIX + stripped!r}?"
    return ""
