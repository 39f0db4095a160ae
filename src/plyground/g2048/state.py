"""2048 as a state of the core game protocol: one player, and the spawns as chance nodes.

A :class:`State` is a board, the score so far and whose turn it is. The player's (0) actions
are the directions that change the board, numbered in the order of
:data:`~plyground.g2048.board.DIRECTIONS` (0 up, 1 right, 2 down, 3 left). Chance's actions are
the spawns, ``2 * cell + 1`` for a 4 and ``2 * cell`` for a 2 on ``cell = row * cols + col``,
each with its probability (the cell uniform among the empty ones, a 4 with ``p_four``); an
outcome of probability 0 is not one. A new game starts with two spawns; a state made from a
board (:meth:`State.from_board`) with the player's move. The game is over when the player has
no move, and its return is the score: the points of the merges. See :mod:`plyground.core.game`.

>>> state = State.from_board(Board.parse("2 2/0 0"))
>>> state.legal_actions()  # up does not change the board: right, down and left do
[1, 2, 3]
>>> state.apply_action(3)
>>> state.current_player == CHANCE, state.returns(), state.chance_outcomes()[:2]  # a 2 or a 4 on cell 1 (0, 1)
(True, [4.0], [(2, 0.3), (3, 0.03333333333333333)])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from plyground.core.game import CHANCE, TERMINAL, GameState
from plyground.errors import IllegalMoveError, InvalidBoardError, InvalidInputError, NothingToUndoError
from plyground.g2048.board import DEFAULT_P_FOUR, DIRECTIONS, Board, check_p_four

__all__ = ["State", "draw_spawn"]

START_SPAWNS = 2
"""The tiles spawned before the first move."""


class _Node:
    """A position of the game, never changed once made (states share them: a clone copies none)."""

    __slots__ = ("action", "board", "moves", "parent", "score", "spawns")

    def __init__(
        self, board: Board, score: int, spawns: int, parent: _Node | None = None, action: int = -1, moves: int = 0
    ) -> None:
        # A plain slotted class: a game's step makes two nodes, and this is four times as quick to make as a
        # frozen dataclass (which sets each field through object.__setattr__).
        self.board = board
        self.score = score
        self.spawns = spawns  # chance nodes still to come before the player moves
        self.parent = parent  # the node before the last action (None: where the state started)
        self.action = action  # the action that led here from the parent
        self.moves = moves  # the player's moves since the state started


class State:
    """A 2048 game as a node of the game tree (see the module).

    Args:
        rows: the board's rows, from 2 to 4 (the board starts empty: two spawns come first).
        cols: its columns, from 2 to 4.
        p_four: the probability that a spawned tile is a 4.

    Raises:
        InvalidBoardError: an unsupported board size.
        InvalidInputError: a bad ``p_four``.
    """

    num_players = 1
    """The one player; chance places the tiles."""

    def __init__(self, rows: int = 4, cols: int = 4, *, p_four: float = DEFAULT_P_FOUR) -> None:
        self.p_four = check_p_four(p_four)
        self._node = _Node(Board.empty(rows, cols), 0, START_SPAWNS)

    @classmethod
    def from_board(cls, board: Board, score: int = 0, *, p_four: float = DEFAULT_P_FOUR) -> State:
        """The player to move on ``board``, with ``score`` points so far.

        Raises:
            InvalidInputError: a negative or non-integer score, or a bad ``p_four``.
        """
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise InvalidInputError(f"score must be a whole number of points, got {score!r}")
        state = cls(board.rows, board.cols, p_four=p_four)
        state._node = _Node(board, score, 0)
        return state

    @property
    def board(self) -> Board:
        return self._node.board

    @property
    def score(self) -> int:
        return self._node.score

    # -- the game protocol (plyground.core.game.GameState) --------------------

    @property
    def current_player(self) -> int:
        """0 to move, :data:`~plyground.core.game.CHANCE` to spawn, :data:`~plyground.core.game.TERMINAL` at the end."""
        if self._node.spawns > 0:
            return CHANCE
        return TERMINAL if self._node.board.is_terminal() else 0

    @property
    def history(self) -> tuple[int, ...]:
        """Every action so far: the spawns' and the moves'."""
        actions = []
        node: _Node | None = self._node
        while node is not None and node.parent is not None:
            actions.append(node.action)
            node = node.parent
        return tuple(reversed(actions))

    @property
    def move_count(self) -> int:
        """The player's moves so far."""
        return self._node.moves

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def legal_actions(self) -> list[int]:
        player = self.current_player
        if player == CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        if player == TERMINAL:
            return []
        legal = set(self._node.board.legal_moves())
        return [action for action, direction in enumerate(DIRECTIONS) if direction in legal]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._node.spawns == 0:
            return []
        board = self._node.board
        outcomes = [
            (2 * (row * board.cols + col) + (tile == 4), probability)
            for (row, col), tile, probability, _ in board.spawn_outcomes(self.p_four)
            if probability > 0
        ]
        return sorted(outcomes)

    def apply_action(self, action: int) -> None:
        """Play ``action``: a direction's number, or a spawn's at a chance node.

        Raises:
            IllegalMoveError: not one of :meth:`legal_actions` (the message says why).
        """
        # One pass that checks and plays (a game's every move and spawn comes here): a legal action
        # returns as soon as its node is made, anything else falls through to the error.
        node = self._node
        board = node.board
        if isinstance(action, int) and not isinstance(action, bool):
            if node.spawns > 0:
                cell, four = divmod(action, 2)
                if 0 <= cell < board.rows * board.cols and self.p_four != (0.0 if four else 1.0):
                    try:
                        spawned = board.with_tile(divmod(cell, board.cols), 4 if four else 2)
                    except InvalidBoardError:  # the cell is taken
                        pass
                    else:
                        self._node = _Node(spawned, node.score, node.spawns - 1, node, action, node.moves)
                        return
            elif 0 <= action < len(DIRECTIONS):
                moved, points = board.move(DIRECTIONS[action])
                if moved != board:
                    self._node = _Node(moved, node.score + points, 1, node, action, node.moves + 1)
                    return
        legal = self.legal_actions()
        if not legal:
            raise IllegalMoveError("the game is over: no move is legal")
        what = "spawn" if self.current_player == CHANCE else "move"
        raise IllegalMoveError(f"{action!r} is not a legal {what} here; legal: {legal}")

    def undo_action(self) -> None:
        """Take back the last action.

        Raises:
            NothingToUndoError: no action has been applied.
        """
        parent = self._node.parent
        if parent is None:
            raise NothingToUndoError("no action to undo")
        self._node = parent

    def returns(self) -> list[float]:
        """The score so far."""
        return [float(self._node.score)]

    def clone(self) -> State:
        other = State.__new__(State)
        other.p_four, other._node = self.p_four, self._node  # nodes never change: the two share them
        return other

    def __repr__(self) -> str:
        return f"State({self._node.board.to_text()!r}, score={self.score}, player={self.current_player})"


def draw_spawn(state: State, rng: np.random.Generator) -> int:
    """The spawn action of a chance node, drawn from ``rng``: the one way a seed's spawns are drawn.

    A cell uniformly among the empty ones (``rng.integers``, in :meth:`Board.empty_cells`'
    order), then a 4 with ``p_four`` (``rng.random()``). :class:`~plyground.g2048.game.Game`
    draws its spawns with it, and so does :func:`plyground.core.match.play_game` given it as
    its ``chance``: with a generator of the same seed, the two spawn the same tiles after the
    same moves.
    """
    board = state.board
    cells = board.empty_cells()
    row, col = cells[int(rng.integers(len(cells)))]
    four = rng.random() < state.p_four
    return 2 * (row * board.cols + col) + int(four)


if TYPE_CHECKING:

    def _is_a_game_state(state: State) -> GameState:
        return state  # mypy checks that State follows the protocol
