"""2048 on a 64-bit bitboard, for every board from 2×2 to 4×4, and its expectimax AI.

>>> from plyground.g2048 import Board
>>> Board.parse("2 2 2 0/0 0 0 0/0 0 0 0/0 0 0 0").move("left")[0].to_rows()[0]
[4, 2, 0, 0]
"""

from plyground.g2048.board import DIRECTIONS, MAX_TILE, Board, Direction, SpawnOutcome
from plyground.g2048.expectimax import Decision, Expectimax
from plyground.g2048.game import WIN_TILE, Game, Replay, Spawn
from plyground.g2048.heuristic import Evaluation, Weights, default_weights, evaluate

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
    "Spawn",
    "SpawnOutcome",
    "Weights",
    "default_weights",
    "evaluate",
]
