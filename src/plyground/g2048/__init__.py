"""2048 on a 64-bit bitboard, for every board from 2×2 to 4×4, its expectimax AI and a strong solver.

``solve`` (:mod:`plyground.g2048.solver`) and ``Solution`` (:mod:`plyground.g2048.solution`) are
imported on first use, so that importing the package does not load the solver's kernels.

>>> from plyground.g2048 import Board
>>> Board.parse("2 2 2 0/0 0 0 0/0 0 0 0/0 0 0 0").move("left")[0].to_rows()[0]
[4, 2, 0, 0]
"""

from plyground.g2048.board import DIRECTIONS, MAX_TILE, Board, Direction, SpawnOutcome
from plyground.g2048.expectimax import Decision, Expectimax
from plyground.g2048.game import WIN_TILE, Game, Replay, Spawn
from plyground.g2048.heuristic import Evaluation, Weights, default_weights, evaluate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from plyground.g2048.solution import Solution
    from plyground.g2048.solver import solve

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


def __getattr__(name: str) -> object:
    if name == "solve":
        from plyground.g2048.solver import solve

        return solve
    if name == "Solution":
        from plyground.g2048.solution import Solution

        return Solution
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
