"""A player's distance from optimal play, measured exactly on a board the solver has solved.

:func:`play_judged` plays one game on a :class:`~plyground.g2048.solution.Solution`'s board with
any player (a function from a board to a direction) and judges each move by the solution: a move's
*regret* is the best move's expected final score less the chosen move's (the solution's
:meth:`~plyground.g2048.solution.Solution.move_values`), 0 when the move is optimal (to a relative
1e-9). A game's regret sums its moves'; over many games, the mean regret is how much the player
loses to optimal play from the positions it reaches. :func:`search_player` and :func:`random_player`
are two players.

>>> from plyground.g2048.solver import solve
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     solution = solve(2, 2, directory=folder)
...     best = play_judged(solution, solution.best_move, seed=1)
...     judged = play_judged(solution, random_player(7), seed=1)
>>> best.regret, best.optimal_moves == best.moves, judged.regret >= 0
(0.0, True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from plyground.errors import PlayerError
from plyground.g2048.board import Board, Direction
from plyground.g2048.game import Game

if TYPE_CHECKING:
    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.solution import Solution

__all__ = ["JudgedGame", "Player", "play_judged", "random_player", "search_player"]

Player = Callable[[Board], Direction | None]
"""A player: the direction it plays on a board (None only on a board with no legal move)."""


@dataclass(frozen=True)
class JudgedGame:
    """One game judged by a solution.

    Attributes:
        seed: the seed of its spawns.
        score: its final score.
        moves: the moves played.
        regret: the sum of its moves' regrets (points of expected final score).
        optimal_moves: the moves whose regret was 0.
    """

    seed: int
    score: int
    moves: int
    regret: float
    optimal_moves: int


def play_judged(solution: Solution, player: Player, *, seed: int) -> JudgedGame:
    """Play one game on ``solution``'s board (its size and ``p_four``, spawns from ``seed``) with ``player``.

    Raises:
        PlayerError: the player chose a move that is not legal.
    """
    game = Game(solution.rows, solution.cols, seed=seed, p_four=solution.p_four)
    regret, optimal = 0.0, 0
    while not game.over:
        values = solution.move_values(game.board)
        best = max(values.values())
        move = player(game.board)
        if move not in values:
            raise PlayerError(f"the player chose {move!r} on {game.board.to_text()}: legal are {', '.join(values)}")
        loss = best - values[move]
        regret += loss
        optimal += loss <= 1e-9 * max(1.0, best)
        game.step(move)
    return JudgedGame(game.seed, game.score, game.move_count, regret, optimal)


def search_player(ai: Expectimax) -> Player:
    """The player that plays ``ai``'s move."""

    def choose(board: Board) -> Direction | None:
        return ai.choose(board).move

    return choose


def random_player(seed: int) -> Player:
    """A player that plays a legal move uniformly at random, from a generator seeded with ``seed``."""
    rng = np.random.default_rng(seed)

    def choose(board: Board) -> Direction | None:
        moves = board.legal_moves()
        return moves[int(rng.integers(len(moves)))] if moves else None

    return choose
