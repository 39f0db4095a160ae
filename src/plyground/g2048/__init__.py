"""2048 on a 64-bit bitboard, for every board from 2×2 to 4×4, its expectimax AI and a strong solver.

The names below are loaded, with their kernels, when one is first used: importing a light
module of the package (:mod:`~plyground.g2048.registry`) loads no kernel, so that a command
can read what it needs to compile and say so first.

>>> from plyground.g2048 import Board
>>> Board.parse("2 2 2 0/0 0 0 0/0 0 0 0/0 0 0 0").move("left")[0].to_rows()[0]
[4, 2, 0, 0]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plyground.g2048.board import DIRECTIONS, MAX_TILE, Board, Direction, SpawnOutcome
    from plyground.g2048.expectimax import Decision, Expectimax
    from plyground.g2048.game import WIN_TILE, Game, Replay, Spawn
    from plyground.g2048.heuristic import Evaluation, Weights, default_weights, evaluate
    from plyground.g2048.solution import Solution
    from plyground.g2048.solver import solve

_HOMES = {
    "board": ("DIRECTIONS", "MAX_TILE", "Board", "Direction", "SpawnOutcome"),
    "expectimax": ("Decision", "Expectimax"),
    "game": ("WIN_TILE", "Game", "Replay", "Spawn"),
    "heuristic": ("Evaluation", "Weights", "default_weights", "evaluate"),
    "solution": ("Solution",),
    "solver": ("solve",),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "DIRECTIONS",
    "MAX_TILE",
    "WIN_TILE",
    "Board",
    "Decision",
    "Direction",
    "Evaluation",
    "Expectimax",
    "Game",
    "Replay",
    "Solution",
    "Spawn",
    "SpawnOutcome",
    "Weights",
    "default_weights",
    "evaluate",
    "solve",
]


def __getattr__(name: str) -> Any:
    """The package's names, each loaded from its module on first use."""
    if name in _HOME:
        value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
        globals()[name] = value  # found directly from now on
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
