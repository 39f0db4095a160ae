"""Where a 2048 game went wrong: the last moves of its replay searched again, and what each move cost.

:func:`review` rebuilds the positions of a :class:`~plyground.g2048.game.Replay` as it plays it
(every move is checked; only the last ``last`` positions are kept, whatever the game's length)
and searches each with an :class:`~plyground.g2048.expectimax.Expectimax`. A move's *cost* is
the best move's value less the played move's, in the evaluator's units (points to come with a
network, heuristic units with the heuristic): 0 when the search would have played it too.

>>> from plyground.g2048.game import Game
>>> from plyground.g2048.expectimax import Expectimax
>>> from plyground.g2048.heuristic import Heuristic
>>> game = Game(2, 2, seed=3)
>>> for direction in ("left", "up", "right"):
...     if direction in game.board.legal_moves():
...         _ = game.step(direction)
>>> with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
...     reviewed = review(game.replay, ai, last=10)
>>> [row.number for row in reviewed], all(row.cost >= 0 for row in reviewed)
([1, 2, 3], True)
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from plyground.errors import InvalidInputError

if TYPE_CHECKING:
    from plyground.g2048.board import Board, Direction
    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.game import Replay

__all__ = ["MoveReview", "positions", "review"]


@dataclass(frozen=True)
class MoveReview:
    """One move of a game, searched again.

    Attributes:
        number: the move's number in the game, from 1.
        empty: the empty cells before it.
        max_tile: the largest tile before it.
        played: the move played.
        best: the move the search plays.
        cost: the best move's value less the played move's (0: the search plays it too).
    """

    number: int
    empty: int
    max_tile: int
    played: Direction
    best: Direction
    cost: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def positions(replay: Replay, last: int) -> list[tuple[int, Board, Direction]]:
    """The last ``last`` positions of ``replay`` a move was played from: (move number from 1, board, move).

    Raises:
        InvalidInputError: ``last`` under 1; a replay whose moves cannot be played (as :meth:`Replay.play`).
    """
    if isinstance(last, bool) or not isinstance(last, int) or last < 1:
        raise InvalidInputError(f"last must be a positive number of moves, got {last!r}")
    boards: collections.deque[Board] = collections.deque(maxlen=last + 1)
    replay.play(on_step=lambda game: boards.append(game.board))
    first = len(replay.moves) - (len(boards) - 1)
    return [(first + i + 1, boards[i], replay.moves[first + i][0]) for i in range(len(boards) - 1)]


def review(
    replay: Replay, ai: Expectimax, *, last: int = 300, on_move: Callable[[int, int], None] | None = None
) -> list[MoveReview]:
    """The last ``last`` moves of ``replay``, each searched again by ``ai``.

    ``on_move(done, total)`` is called after each move searched (a progress bar).

    Raises:
        InvalidInputError: as :func:`positions`.
        InvalidBoardError: ``ai``'s evaluator cannot search the replay's boards.
    """
    todo = positions(replay, last)
    reviewed = []
    for done, (number, board, played) in enumerate(todo, start=1):
        decision = ai.choose(board)
        best, values = decision.move, decision.values
        assert best is not None  # a move was played from this board: it has one
        cost = max(values.values()) - values[played]
        reviewed.append(MoveReview(number, len(board.empty_cells()), board.max_tile(), played, best, cost))
        if on_move is not None:
            on_move(done, len(todo))
    return reviewed
