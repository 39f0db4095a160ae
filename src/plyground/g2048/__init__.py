"""2048 on a 64-bit bitboard, for every board from 2×2 to 4×4.

>>> from plyground.g2048 import Board
>>> Board.parse("2 2 2 0/0 0 0 0/0 0 0 0/0 0 0 0").move("left")[0].to_rows()[0]
[4, 2, 0, 0]
"""

from plyground.g2048.board import DIRECTIONS, MAX_TILE, Board, Direction, SpawnOutcome
from plyground.g2048.game import WIN_TILE, Game, Replay, Spawn

__all__ = [
    "DIRECTIONS",
    "MAX_TILE",
    "WIN_TILE",
    "Board",
    "Direction",
    "Game",
    "Replay",
    "Spawn",
    "SpawnOutcome",
]
