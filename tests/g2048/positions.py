"""Games put on a chosen position, for tests of what a position does or shows (play would take long to reach it)."""

from __future__ import annotations

from plyground.g2048 import Board, Game
from plyground.g2048.state import _Node


def game_at(board: Board, *, seed: int, score: int = 0, moves: int = 0) -> Game:
    """A game of ``seed`` (its two starting spawns drawn) then put on ``board`` with ``score`` after ``moves`` moves.

    Its generator goes on from the starting spawns; its replay still holds them and no move.
    """
    game = Game(board.rows, board.cols, seed=seed)
    game._state._node = _Node(board, score, 0, moves=moves)
    return game
