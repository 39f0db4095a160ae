"""A learned evaluator for 2048: an n-tuple network trained by temporal-difference learning.

A network values a board by summing, over a few *tuples* of cells and each symmetric image
of them, one table weight selected by the exponents in those cells; it learns by playing
greedy games and moving each afterstate's value towards what followed (TD(0), TD(lambda),
temporal coherence, restarts, expected updates; several stages of tables; Hogwild threads).
The method, its options and the results are explained on the docs' n-tuple page
(``docs/ntuple.md``); the exact rules the kernels follow, and the table layout, in
``g2048/_ntuple_kernels.py``. The docstrings here state contracts.

The modules: :mod:`~plyground.g2048.ntuple.tuples` (cells, default tuples, the kernels'
lookup layout), :mod:`~plyground.g2048.ntuple.network` (:class:`NTupleNetwork`: values,
the evaluator, greedy play), :mod:`~plyground.g2048.ntuple.training` (learning in one or
several threads, the checks of its settings, the results),
:mod:`~plyground.g2048.ntuple.fileformat` (the network's file),
:mod:`~plyground.g2048.ntuple.packed` (a trained network in a small file, as plyground ships one),
:mod:`~plyground.g2048.ntuple.settings` (:class:`LearnSettings`),
:mod:`~plyground.g2048.ntuple.curve` (the learning curve),
:mod:`~plyground.g2048.ntuple.run` (:class:`TrainingRun`: a folder that checkpoints and
resumes) and :mod:`~plyground.g2048.ntuple.exact_fit` (a fit to the exact values of a solved
board instead of TD; imported on its own, as it reads solutions).

>>> net = NTupleNetwork(2, 2, seed=3)
>>> stats = net.learn(200, alpha=0.1)
>>> stats.results.games, net.trained.games
(200, 200)
"""

from __future__ import annotations

from plyground.g2048.ntuple.curve import Report, read_curve
from plyground.g2048.ntuple.network import NTupleNetwork
from plyground.g2048.ntuple.run import TrainingRun, evaluation_seed, play_greedy_games
from plyground.g2048.ntuple.settings import LearnSettings, WarmStart, default_horizon
from plyground.g2048.ntuple.training import (
    MAX_HORIZON,
    MAX_RESTARTS,
    GameResults,
    LearnStats,
    Training,
    check_expected_updates,
    check_lambda,
    check_restarts,
)
from plyground.g2048.ntuple.tuples import (
    DEFAULT_TUPLES,
    MAX_STAGES,
    MAX_TUPLE_SIZE,
    MAX_WEIGHTS,
    Cell,
    Tuples,
    check_stage_tiles,
    check_tuples,
    compact_radix,
    default_tuples,
)

__all__ = [
    "DEFAULT_TUPLES",
    "MAX_HORIZON",
    "MAX_RESTARTS",
    "MAX_STAGES",
    "MAX_TUPLE_SIZE",
    "MAX_WEIGHTS",
    "Cell",
    "GameResults",
    "LearnSettings",
    "LearnStats",
    "NTupleNetwork",
    "Report",
    "Training",
    "TrainingRun",
    "Tuples",
    "WarmStart",
    "check_expected_updates",
    "check_lambda",
    "check_restarts",
    "check_stage_tiles",
    "check_tuples",
    "compact_radix",
    "default_horizon",
    "default_tuples",
    "evaluation_seed",
    "play_greedy_games",
    "read_curve",
]
