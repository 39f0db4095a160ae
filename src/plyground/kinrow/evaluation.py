"""The engine's static evaluation: features of each empty cell's codes, weighted by a fit to game outcomes.

A cell's four codes (one a line, see :mod:`plyground.kinrow.patterns`) give it
:data:`FEATURES`: how many of its lines hold each code from ``B1`` to ``B4``, and its
*combination classes*: the strongest double threat it makes (a double four, else a
four-three, else a double three), or else each lesser pair it holds (a four with a
three, an open three with an open two, ...). The value of a position for the player to move is

    sum over empty cells of (mover weights . player's features) + (waiter weights . opponent's features)
    + the tempo of the colour to move + a bonus when the player can make a double threat first

which the pattern board keeps as two extra pairs of sums (``tot[2:]``) as stones come and
go. For gomoku (k = 5, free-style or exactly five) the weights are
:data:`FITTED` — a logistic regression of who won on these features, over positions of
self-play games of a strong engine, in thousandths of a logit. They are read from the package's
data file ``plyground/kinrow/data/fitted_evaluation.json`` (:data:`FITTED_FILE`), which the
recipe ``recipes/gomoku_evaluation.py fit`` writes. Other lines and renju keep the hand-made worth
(:func:`plyground.kinrow.patterns.combination_value`) on both sides.

The ``symmetric`` evaluation is the fitted one averaged over the two sides to move: the position
as seen one ply and the next. A cell's features are worth ``(mover - waiter) / 2`` to its owner,
whoever is to move, the tempo term is the difference of the two colours' tempos, halved, and there
is no bonus for the double threat of the player to move: the value for one player is exactly the
negation of the value for the other, so that it does not swing from ply to ply as the side to move
changes (the fitted weights swing by about 2.7 logits). Who makes a threat first is left to the
search's threat plies and VCF at the leaves.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat, compact_json
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.kinrow import _pattern_kernels as P
from plyground.kinrow.patterns import Pattern, code_multisets, combination_values
from plyground.kinrow.rules import Rule

__all__ = [
    "EVALUATIONS",
    "FEATURES",
    "FITTED",
    "FITTED_FILE",
    "EvaluationTables",
    "FeatureWeights",
    "cell_features",
    "evaluation_for",
    "feature_table",
    "read_feature_weights",
    "write_feature_weights",
]

_SINGLES = (Pattern.B1, Pattern.F1, Pattern.B2, Pattern.F2, Pattern.B3, Pattern.F3, Pattern.B4)
FEATURES = (
    *(code.name for code in _SINGLES),
    "double four",  # an open four or two fours
    "four three",  # a four and an open three
    "double three",
    "four + three",  # a four and a closed three
    "open three + three",
    "four + open two",
    "open three + open two",
    "two threes",
    "two open twos",
    "three + open two",
)
"""What :func:`cell_features` counts: lines holding each single code, then the combination classes."""


def cell_features(codes: tuple[int, ...]) -> tuple[int, ...]:
    """The features of a cell where a player's four codes are ``codes`` (see :data:`FEATURES`).

    A five (``F5``) or an overline counts for nothing: the search never evaluates a
    position where the player to move has a five to make or must block one.
    """
    singles = [sum(code == single for code in codes) for single in _SINGLES]
    open_fours = codes.count(Pattern.F4)
    fours = codes.count(Pattern.B4)
    open_threes = codes.count(Pattern.F3)
    threes = codes.count(Pattern.B3)
    open_twos = codes.count(Pattern.F2)
    if Pattern.F5 in codes:
        return (0,) * len(FEATURES)
    double_four = open_fours > 0 or fours >= 2
    four_three = not double_four and fours == 1 and open_threes >= 1
    double_three = not double_four and not four_three and open_threes >= 2
    rest = not (double_four or four_three or double_three)
    classes = (
        double_four,
        four_three,
        double_three,
        rest and fours == 1 and threes >= 1,
        rest and open_threes == 1 and threes >= 1,
        rest and fours == 1 and open_twos >= 1,
        rest and open_threes == 1 and open_twos >= 1,
        rest and fours == 0 and open_threes == 0 and threes >= 2,
        rest and fours == 0 and open_threes == 0 and threes == 0 and open_twos >= 2,
        rest and fours == 0 and open_threes == 0 and threes >= 1 and open_twos >= 1,
    )
    return (*singles, *(int(c) for c in classes))


@functools.cache
def feature_table() -> npt.NDArray[np.int64]:
    """:func:`cell_features` of every combination of four codes, ``[NPAT**4, len(FEATURES)]`` (read-only)."""
    codes, inverse = code_multisets()  # features count codes: one row per multiset of four codes
    rows = np.array([cell_features(combo) for combo in codes], dtype=np.int64).reshape(-1, len(FEATURES))
    out = np.ascontiguousarray(rows[inverse])
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class FeatureWeights:
    """Weights of the features for the player to move and for the opponent, in thousandths of a logit."""

    mover: tuple[int, ...]
    waiter: tuple[int, ...]
    tempo_x: int
    tempo_o: int
    hot: int


FITTED_FILE = FileFormat("plyground.kinrow.fitted_evaluation", 1, "a gomoku evaluation file", "evaluation")
"""The format of the fitted weights' file: the weights of :class:`FeatureWeights` and the names of the
:data:`FEATURES` they weigh, in that order."""


def _integer(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptFileError(f"{key!r} must be an integer, got {value!r}")
    return value


def _weights(data: dict[str, Any], key: str) -> tuple[int, ...]:
    values = data.get(key)
    if not isinstance(values, list) or len(values) != len(FEATURES):
        raise CorruptFileError(f"{key!r} must be a list of {len(FEATURES)} integers, one a feature")
    return tuple(_integer({key: value}, key) for value in values)


def read_feature_weights(path: str | os.PathLike[str]) -> FeatureWeights:
    """The weights of a file of :data:`FITTED_FILE` (written by :func:`write_feature_weights`).

    Raises:
        FileNotFoundError: no such file.
        CorruptFileError: not such a file, weights of other features, or a weight that is not an
            integer (one line, naming the file).
    """
    data = FITTED_FILE.read(path)
    try:
        if data.get("features") != list(FEATURES):
            raise CorruptFileError(f"its features are not these: {', '.join(FEATURES)}")
        return FeatureWeights(
            _weights(data, "mover"),
            _weights(data, "waiter"),
            _integer(data, "tempo_x"),
            _integer(data, "tempo_o"),
            _integer(data, "hot"),
        )
    except CorruptFileError as exc:
        raise CorruptFileError(f"{path}: not {FITTED_FILE.what}: {exc}") from None


def write_feature_weights(path: str | os.PathLike[str], weights: FeatureWeights, *, note: str = "") -> None:
    """Write ``weights`` as a file of :data:`FITTED_FILE` (atomically), with ``note`` saying where they come from."""
    FITTED_FILE.write(
        path,
        {
            "note": note,
            "features": list(FEATURES),
            "mover": list(weights.mover),
            "waiter": list(weights.waiter),
            "tempo_x": weights.tempo_x,
            "tempo_o": weights.tempo_o,
            "hot": weights.hot,
        },
        dumps=compact_json,
    )


def _shipped() -> FeatureWeights:
    with resources.as_file(resources.files("plyground.kinrow").joinpath("data/fitted_evaluation.json")) as path:
        return read_feature_weights(path)


FITTED = _shipped()
"""The fitted weights for gomoku (see the module; the numbers are the fit's, rounded), read from the package's
``data/fitted_evaluation.json``."""

HAND_TEMPO = 30
HAND_HOT = 3_000
FITTED_MARGIN = 200
"""The engine's futility margin per ply with the fitted weights: about half an open two."""
HAND_MARGIN = 25
"""The same for the hand-made worth (about eight times smaller: an open three's cell is 15 there, 127 fitted)."""


@dataclass(frozen=True)
class EvaluationTables:
    """What the engine's evaluation reads: the board weights and the constants.

    Attributes:
        weights: ``[6, NPAT**4]``: rows 0-1 the worth of the move order and hot cells, rows
            2-3 the value of X's and O's cells for the player to move, rows 4-5 the value of
            X's and O's cells for the player who just moved (negative: they count against the
            player to move).
        tempo_x, tempo_o: added when X, or O, is to move.
        hot: added when the player to move can make a double threat and the opponent has no four to make first.
        fitted: whether the fitted weights are used (else the hand-made worth on both sides).
        margin: the search's futility margin per ply, in the units of the values.
    """

    weights: npt.NDArray[np.int64]
    tempo_x: int
    tempo_o: int
    hot: int
    fitted: bool
    margin: int


EVALUATIONS = ("fitted", "symmetric", "hand")
"""The engine's evaluations: ``fitted`` (the fit where there is one, else the hand-made worth), ``symmetric``
(the fit averaged over the two sides to move, where there is a fit) and ``hand``."""


@functools.lru_cache(maxsize=32)
def evaluation_for(k: int, rule: Rule, kind: str = "fitted", weights: FeatureWeights | None = None) -> EvaluationTables:
    """The evaluation of lines of ``k`` under ``rule`` (read-only tables, built once a process for the last 32 asked).

    ``kind`` ``fitted`` uses :data:`FITTED` (or ``weights``) for gomoku (k = 5, not renju) and the
    hand-made worth elsewhere; ``symmetric`` the same fit averaged over the two sides to move (see the
    module), the hand-made worth elsewhere; ``hand`` the hand-made worth everywhere.

    Raises:
        InvalidInputError: an unknown kind, or weights of other features.
    """
    if kind not in EVALUATIONS:
        raise InvalidInputError(f"unknown evaluation {kind!r}; the evaluations are {', '.join(EVALUATIONS)}")
    fit = FITTED if weights is None else weights
    if not isinstance(fit, FeatureWeights) or len(fit.mover) != len(FEATURES) or len(fit.waiter) != len(FEATURES):
        raise InvalidInputError(f"weights must be FeatureWeights of the {len(FEATURES)} features")
    rule = Rule(rule)
    worth = combination_values(rule)
    rows = np.zeros((6, P.NPAT**4), dtype=np.int64)
    rows[:2] = worth
    fitted = kind in ("fitted", "symmetric") and k == 5 and rule is not Rule.RENJU
    if fitted and kind == "symmetric":
        table = feature_table()
        own = table @ ((np.array(fit.mover, dtype=np.int64) - np.array(fit.waiter, dtype=np.int64)) // 2)
        rows[2], rows[3], rows[4], rows[5] = own, own, -own, -own
        tempo_x = (fit.tempo_x - fit.tempo_o) // 2
        tempo_o, hot = -tempo_x, 0
        margin = FITTED_MARGIN
    elif fitted:
        table = feature_table()
        mover = table @ np.array(fit.mover, dtype=np.int64)
        waiter = table @ np.array(fit.waiter, dtype=np.int64)
        rows[2], rows[3], rows[4], rows[5] = mover, mover, waiter, waiter
        tempo_x, tempo_o, hot = fit.tempo_x, fit.tempo_o, fit.hot
        margin = FITTED_MARGIN
    else:
        rows[2:4] = worth
        rows[4:6] = -worth
        tempo_x = tempo_o = HAND_TEMPO
        hot = HAND_HOT
        margin = HAND_MARGIN
    rows.setflags(write=False)
    return EvaluationTables(rows, tempo_x, tempo_o, hot, fitted, margin)
