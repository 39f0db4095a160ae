"""The heuristic evaluation of 2048 boards: named features, versioned weights, row tables.

Features, on the ranks (exponents) of the tiles; a board's *lines* are its rows (left to
right) and its columns (top to bottom); a *compacted* line is its non-empty ranks in order:

* ``empty`` - the number of empty cells;
* ``merges`` - over all lines, the tiles with an equal neighbour in their compacted line
  (rank 15 excluded: two 32768 tiles never merge);
* ``monotonicity`` - a penalty measured per axis over the whole board: along a line, each
  step down costs ``a**4 - b**4`` towards one direction, each step up towards the other;
  each axis adds the smaller of its two directions summed over *all* its lines, so the
  whole board, not each line, picks the direction;
* ``smoothness`` - over all lines, the sum of rank differences between consecutive tiles
  of the compacted line (a penalty);
* ``rank_sum`` - the sum of ``rank**3.5`` over all cells (a penalty on many big tiles);
* ``position`` - the sum of ``matrix[r][c] * rank`` over all cells: a positional weight
  matrix (corner or snake gradient); an R×C board uses the top-left corner of the 4×4 matrix.

The value of a board is the sum of the weighted features. Each feature is a sum over
lines, so it is precomputed for all 65,536 rows of every width; a board then evaluates
in one table lookup per line (:func:`line_table` builds the weighted table the search
kernels read).

Weights live in a versioned JSON file (``weights/default.json`` is the default)::

    {"format": "plyground.g2048.weights", "version": 1,
     "weights": {"empty": 540.0, "merges": 700.0, "monotonicity": -47.0, "smoothness": 0.0,
                 "rank_sum": -22.0, "position": [[0, 0, 0, 0], ...], "game_over": 0.0}}

``game_over`` (>= 0) is how far below the worst possible live board a lost board is valued.

Every weight lies within ±:data:`MAX_WEIGHT` (10^9). A board's raw features, in absolute
value and with every matrix entry counted, sum to less than 2^20 (1,019,765 at most on
4×4, nearly all of it monotonicity and ``rank_sum``), so every value the search computes -
a board's value, a lost board's, their averages - stays below 2^20 × 10^9 ≈ 1.05 × 10^15,
under 2^53: far from overflowing, and a float64 there still holds every whole unit. Only
the weights' ratios matter to the search, so larger weights can be scaled down to fit.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat
from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError
from plyground.g2048.board import Board
from plyground.g2048.evaluator import Evaluator, Explanation, Leaf

__all__ = [
    "FEATURES",
    "MAX_WEIGHT",
    "MONO_POWER",
    "RANK_POWER",
    "Evaluation",
    "Heuristic",
    "Weights",
    "default_weights",
    "evaluate",
    "line_table",
    "lost_value",
]

MONO_POWER = 4.0
RANK_POWER = 3.5
FEATURES: tuple[str, ...] = ("empty", "merges", "monotonicity", "smoothness", "rank_sum", "position")
"""The named features, in the order they are reported."""
MAX_WEIGHT = 1e9
"""The largest magnitude of a weight: every value the search computes then stays below 2**53 (see the module)."""

WEIGHTS_FILE = FileFormat("plyground.g2048.weights", 1, "a 2048 weights file", "weights")
"""The weights file: ``{"format": ..., "version": 1, "weights": {...}}``, with an optional ``note``."""
_SCALARS = ("empty", "merges", "monotonicity", "smoothness", "rank_sum", "game_over")
_KEYS = frozenset((*_SCALARS, "position"))

# Columns of the raw per-row feature tables.
_EMPTY, _MERGES, _MONO_DOWN, _MONO_UP, _SMOOTH, _RANKS = range(6)


@dataclass(frozen=True)
class Weights:
    """The weight of every feature and the 4×4 positional matrix.

    Build with :meth:`from_dict`, :meth:`load` or :func:`default_weights`; however they are
    built, every weight is checked to be a number within ±:data:`MAX_WEIGHT`.

    Raises:
        InvalidInputError: a weight out of range, a negative ``game_over``, a matrix not 4×4.
    """

    empty: float
    merges: float
    monotonicity: float
    smoothness: float
    rank_sum: float
    position: tuple[tuple[float, ...], ...]
    game_over: float = 0.0

    def __post_init__(self) -> None:
        """Check every weight, however the weights are made: the one place they are validated.

        Raises:
            InvalidInputError: a weight that is not a number within ±:data:`MAX_WEIGHT`, a
                negative ``game_over``, or a ``position`` that is not 4×4.
        """
        for name in _SCALARS:
            object.__setattr__(self, name, _weight(getattr(self, name), name))
        if self.game_over < 0:
            raise InvalidInputError(f"weight 'game_over' must be >= 0, got {self.game_over!r}")
        matrix = self.position
        if not (
            isinstance(matrix, list | tuple)
            and len(matrix) == 4
            and all(isinstance(row, list | tuple) and len(row) == 4 for row in matrix)
        ):
            raise InvalidInputError("weight 'position' must be a 4x4 matrix (a list of 4 lists of 4 numbers)")
        object.__setattr__(self, "position", tuple(tuple(_weight(v, "position") for v in row) for row in matrix))

    def to_dict(self) -> dict[str, Any]:
        """The ``weights`` object of the JSON file."""
        data: dict[str, Any] = {name: getattr(self, name) for name in _SCALARS}
        data["position"] = [list(row) for row in self.position]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Weights:
        """Weights from the ``weights`` object of a weights file.

        Raises:
            InvalidInputError: unknown or missing keys (all named), or a bad value (see the class).
        """
        if not isinstance(data, Mapping):
            raise InvalidInputError(f"weights must be a JSON object, got {type(data).__name__}")
        missing, unknown = sorted(_KEYS - data.keys()), sorted(data.keys() - _KEYS)
        if missing or unknown:
            parts = [
                f"missing {', '.join(missing)}" if missing else "",
                f"unknown {', '.join(unknown)}" if unknown else "",
            ]
            raise InvalidInputError(f"bad weight keys: {'; '.join(p for p in parts if p)}")
        return cls(**{name: data[name] for name in _KEYS})

    def to_json(self) -> str:
        """The weights file as JSON text."""
        return json.dumps(WEIGHTS_FILE.stamp({"weights": self.to_dict()}), indent=1)

    @classmethod
    def from_json_data(cls, data: Any) -> Weights:
        """Weights from a parsed weights file (with its format and version).

        Raises:
            InvalidInputError: not a weights file, an unsupported version, or bad weights.
        """
        return cls._from_file_data(WEIGHTS_FILE.check(data))

    @classmethod
    def _from_file_data(cls, data: Mapping[str, Any]) -> Weights:
        """Weights from the checked data of a weights file (raises InvalidInputError)."""
        extra = sorted(set(data) - {"format", "version", "weights", "note"})
        if extra:
            raise InvalidInputError(f"unknown keys in weights file: {', '.join(extra)}")
        return cls.from_dict(data.get("weights"))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Weights:
        """Read a weights file.

        Raises:
            FileNotFoundError: no such file.
            CorruptFileError: not JSON, or not valid weights (one line, naming the file once).
        """
        data = WEIGHTS_FILE.read(path)
        try:
            return cls._from_file_data(data)
        except InvalidInputError as exc:
            raise CorruptFileError(f"{path}: {exc}") from None

    def save(self, path: str | os.PathLike[str], *, note: str | None = None) -> None:
        """Write the weights file atomically (with ``note``, a line saying where they come from)."""
        WEIGHTS_FILE.write(
            path, {"weights": self.to_dict()} if note is None else {"note": note, "weights": self.to_dict()}
        )


def _weight(value: Any, name: str) -> float:
    """``value`` as a float, if it is a weight: a number within ±:data:`MAX_WEIGHT` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not abs(value) <= MAX_WEIGHT:  # NaN too
        raise InvalidInputError(
            f"weight {name!r} must be a finite number from {-MAX_WEIGHT:,.0f} to {MAX_WEIGHT:,.0f} "
            f"(only the weights' ratios matter: scale them all down), got {value!r}"
        )
    return float(value)


@functools.cache
def default_weights() -> Weights:
    """The weights shipped with plyground (``plyground/g2048/weights/default.json``)."""
    text = resources.files("plyground.g2048").joinpath("weights/default.json").read_text(encoding="utf-8")
    return Weights.from_json_data(json.loads(text))


# ---------------------------------------------------------------------------------------
# Raw feature tables: for each width, six features of every 16-bit row (weights-free).


def _line_features(ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """The six raw features of lines given as an (n, width) array of ranks."""
    n, width = ranks.shape
    out = np.zeros((n, 6), dtype=np.float64)
    out[:, _EMPTY] = (ranks == 0).sum(axis=1)
    out[:, _RANKS] = (ranks.astype(np.float64) ** RANK_POWER).sum(axis=1)
    powered = ranks.astype(np.float64) ** MONO_POWER
    for i in range(1, width):
        step = powered[:, i - 1] - powered[:, i]
        out[:, _MONO_DOWN] += np.where(ranks[:, i - 1] > ranks[:, i], step, 0.0)
        out[:, _MONO_UP] += np.where(ranks[:, i - 1] > ranks[:, i], 0.0, -step)
    # Compacted lines: non-empty ranks moved to the front, in order.
    order = np.argsort(ranks == 0, axis=1, kind="stable")
    packed = np.take_along_axis(ranks, order, axis=1)
    count = (ranks != 0).sum(axis=1)
    can_merge = np.zeros((n, width), dtype=bool)
    for i in range(1, width):
        both = i < count
        pair = both & (packed[:, i] == packed[:, i - 1]) & (packed[:, i] != 15)
        can_merge[:, i] |= pair
        can_merge[:, i - 1] |= pair
        out[:, _SMOOTH] += np.where(both, np.abs(packed[:, i] - packed[:, i - 1]), 0)
    out[:, _MERGES] = can_merge.sum(axis=1)
    return out


@functools.cache
def _rank_rows() -> npt.NDArray[np.int64]:
    """The four ranks of every 16-bit row: ``ranks[row, cell]``."""
    rows = np.arange(1 << 16, dtype=np.int64)
    return np.stack([(rows >> (4 * i)) & 0xF for i in range(4)], axis=1)


@functools.cache
def _raw_tables() -> npt.NDArray[np.float64]:
    """``RAW[width, row, feature]`` for widths 2-4 (cells beyond the width are ignored)."""
    raw = np.zeros((5, 1 << 16, 6), dtype=np.float64)
    for width in (2, 3, 4):
        raw[width] = _line_features(_rank_rows()[:, :width])
    return raw


COLUMN_TABLE = 4
"""Index of the column entries in a :func:`line_table` (rows use indices 0-3)."""


def _additive_parts(weights: Weights, rows: int, cols: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each line's weighted features but monotonicity: ``(row_parts[i, row], column_part[column])``."""
    raw = _raw_tables()

    def additive(width: int, count_cells: bool) -> npt.NDArray[np.float64]:
        part = weights.merges * raw[width, :, _MERGES] + weights.smoothness * raw[width, :, _SMOOTH]
        if count_cells:  # cell features are counted on rows only, so each cell once
            part += weights.empty * raw[width, :, _EMPTY] + weights.rank_sum * raw[width, :, _RANKS]
        return part

    row_part = additive(cols, True)
    position = np.asarray(weights.position, dtype=np.float64)
    row_parts = np.stack([row_part + _rank_rows()[:, :cols] @ position[i, :cols] for i in range(rows)])
    return row_parts, additive(rows, False)


def line_table(weights: Weights, rows: int, cols: int) -> npt.NDArray[np.float64]:
    """The weighted table the search kernels read, for an R×C board.

    ``table[i, row]`` for the row at index ``i`` (0-3) and ``table[4, column]`` for a
    column (read top to bottom: a row of the transposed board) hold two numbers: the
    line's part of the value, and the difference ``down - up`` of its two monotonicity
    sums. As ``min(D, U) = D - max(0, D - U)``, a board's value is the sum of the parts
    minus ``monotonicity * (max(0, sum of the rows' differences) + max(0, sum of the
    columns' differences))``: two table reads per line.
    """
    raw = _raw_tables()
    row_parts, column_part = _additive_parts(weights, rows, cols)
    table = np.zeros((5, 1 << 16, 2), dtype=np.float64)
    for i in range(rows):
        table[i, :, 0] = row_parts[i] + weights.monotonicity * raw[cols, :, _MONO_DOWN]
        table[i, :, 1] = raw[cols, :, _MONO_DOWN] - raw[cols, :, _MONO_UP]
    table[COLUMN_TABLE, :, 0] = column_part + weights.monotonicity * raw[rows, :, _MONO_DOWN]
    table[COLUMN_TABLE, :, 1] = raw[rows, :, _MONO_DOWN] - raw[rows, :, _MONO_UP]
    return table


class Evaluation(NamedTuple):
    """A board's heuristic value and the contribution of each feature to it."""

    total: float
    contributions: dict[str, float]


def _board_features(board: Board) -> dict[str, float]:
    raw = _raw_tables()
    row_words = [(board.bits >> (16 * r)) & 0xFFFF for r in range(board.rows)]
    col_words = [sum(board.exponent(r, c) << (4 * r) for r in range(board.rows)) for c in range(board.cols)]
    rows = raw[board.cols, row_words]
    cols = raw[board.rows, col_words]
    return {
        "empty": float(rows[:, _EMPTY].sum()),
        "merges": float(rows[:, _MERGES].sum() + cols[:, _MERGES].sum()),
        "monotonicity": float(
            min(rows[:, _MONO_DOWN].sum(), rows[:, _MONO_UP].sum())
            + min(cols[:, _MONO_DOWN].sum(), cols[:, _MONO_UP].sum())
        ),
        "smoothness": float(rows[:, _SMOOTH].sum() + cols[:, _SMOOTH].sum()),
        "rank_sum": float(rows[:, _RANKS].sum()),
    }


def evaluate(board: Board, weights: Weights | None = None) -> Evaluation:
    """The heuristic value of ``board`` and each feature's weighted contribution.

    >>> value = evaluate(Board.parse("2 4/8 16"))
    >>> round(value.total, 6) == round(sum(value.contributions.values()), 6)
    True

    Raises:
        InvalidBoardError: ``board`` is not a :class:`~plyground.g2048.Board`.
        InvalidInputError: ``weights`` is not a :class:`Weights` object.
    """
    if not isinstance(board, Board):
        raise InvalidBoardError(f"expected a Board, got {type(board).__name__}")
    if weights is not None and not isinstance(weights, Weights):
        raise InvalidInputError(f"weights must be a Weights object, got {type(weights).__name__}")
    weights = weights if weights is not None else default_weights()
    features = _board_features(board)
    contributions = {name: getattr(weights, name) * features[name] for name in FEATURES[:-1]}
    contributions["position"] = float(
        sum(weights.position[r][c] * board.exponent(r, c) for r in range(board.rows) for c in range(board.cols))
    )
    return Evaluation(sum(contributions.values()), contributions)


def lost_value(weights: Weights, rows: int, cols: int) -> float:
    """The value of a lost board: below every live board, by ``weights.game_over`` more.

    A live board's value is at least the sum over its lines of each line's smallest
    possible part, plus the most negative the monotonicity term can be.
    """
    raw = _raw_tables()
    row_parts, column_part = _additive_parts(weights, rows, cols)
    low = float(row_parts.min(axis=1).sum() + cols * column_part.min())
    mono = slice(_MONO_DOWN, _MONO_UP + 1)
    mono_max = rows * raw[cols, :, mono].max() + cols * raw[rows, :, mono].max()
    low += min(0.0, weights.monotonicity * float(mono_max))
    return low - weights.game_over - 1.0


class Heuristic(Evaluator):
    """The hand-made heuristic (:mod:`plyground.g2048.heuristic`) with ``weights``.

    Args:
        weights: the weights (default: those shipped with plyground).

    >>> Heuristic().explain(Board.parse("2 4/8 16")).unit
    'heuristic units'
    """

    def __init__(self, weights: Weights | None = None) -> None:
        if weights is not None and not isinstance(weights, Weights):
            raise InvalidInputError(f"weights must be a Weights object, got {type(weights).__name__}")
        self.weights = weights if weights is not None else default_weights()
        """The weights of the features."""
        self._leaves: dict[tuple[int, int], Leaf] = {}

    @property
    def name(self) -> str:
        return "heuristic"

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
        self._leaves = {}

    def value(self, board: Board) -> float:
        self.check_board(board)
        return evaluate(board, self.weights).total

    def explain(self, board: Board) -> Explanation:
        self.check_board(board)
        evaluation = evaluate(board, self.weights)
        return Explanation(self.name, self.unit, evaluation.total, dict(evaluation.contributions))

    def leaf(self, rows: int, cols: int) -> Leaf:
        """The heuristic's leaf kernels, with its line table and lost value for ``rows`` x ``cols`` (once a size)."""
        key = (rows, cols)
        if key not in self._leaves:
            from plyground.g2048 import _heuristic_kernels as HK  # here: the search compiles on first use

            data = (line_table(self.weights, rows, cols), float(self.weights.monotonicity))
            self._leaves[key] = Leaf(HK.LEAF, data, lost_value(self.weights, rows, cols))
        return self._leaves[key]
