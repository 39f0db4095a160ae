"""One protocol for the games plyground plays, in OpenSpiel's shape: players, chance, actions, returns.

A game state is a node of the game tree. At a *decision* node :attr:`~GameState.current_player`
is the player to act (0, 1, ...); at a *chance* node it is :data:`CHANCE` and
:meth:`~GameState.chance_outcomes` gives each outcome's action with its probability (2048's
spawns); at the end it is :data:`TERMINAL`. Actions are integers: :meth:`~GameState.legal_actions`
lists those of the node (the chance outcomes' at a chance node), :meth:`~GameState.apply_action`
plays one and :meth:`~GameState.undo_action` takes the last back. :meth:`~GameState.returns`
gives each player's total so far (2048: the score; k-in-a-row: +1, -1 or 0 at the end, 0
before). :attr:`~GameState.history` is every action applied, chance ones included.

Both games implement it: :class:`plyground.kinrow.board.State` (two players, no chance) and
:class:`plyground.g2048.state.State` (one player, the spawns as chance nodes). A test runs the
same conformance checks on both (``tests/core/test_game_protocol.py``).
"""

from __future__ import annotations

from typing import Protocol, Self, runtime_checkable

__all__ = ["CHANCE", "TERMINAL", "GameState"]

CHANCE = -1
"""The :attr:`~GameState.current_player` of a chance node."""
TERMINAL = -4
"""The :attr:`~GameState.current_player` of a state where the game is over (OpenSpiel's value)."""


@runtime_checkable
class GameState(Protocol):
    """A node of a game: whose turn, the legal actions, the chance outcomes, the returns; apply and undo.

    ``apply_action`` of an action that is not legal raises
    :class:`~plyground.errors.IllegalMoveError` and changes nothing; ``undo_action`` with nothing
    to undo raises :class:`~plyground.errors.NothingToUndoError`.
    """

    @property
    def num_players(self) -> int:
        """The players of the game (chance is not one)."""
        ...

    @property
    def current_player(self) -> int:
        """The player to act (from 0), :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        ...

    @property
    def history(self) -> tuple[int, ...]:
        """Every action applied so far, chance outcomes included."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def legal_actions(self) -> list[int]:
        """The actions of this node, in increasing order (the chance outcomes' at a chance node; none at the end)."""
        ...

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome's action and probability at a chance node (they sum to 1); empty elsewhere."""
        ...

    def apply_action(self, action: int) -> None:
        """Play ``action``, one of :meth:`legal_actions`."""
        ...

    def undo_action(self) -> None:
        """Take back the last action applied."""
        ...

    def returns(self) -> list[float]:
        """Each player's total reward so far."""
        ...

    def clone(self) -> Self:
        """An independent copy."""
        ...
