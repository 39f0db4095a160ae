"""The Player protocol: what a driver (play, self-play, the web lab, the Gomocup brain) needs of a player.

Its own module, so that the searching players (``mcts``, ``alphabeta``, ``engine``) can subclass it
while ``players`` makes them by name (importing them when asked for) without an import circle.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from plyground.kinrow.board import State

__all__ = ["Player"]


@runtime_checkable
class Player(Protocol):
    """What a driver (play, self-play, the Gomocup brain) needs from a player.

    A player class subclasses it to take the defaults of :meth:`stop`, :meth:`prepare` and
    :meth:`set_memory` (nothing to do), which a searching player overrides.
    """

    name: str
    time_ms: float | None

    def choose(self, state: State) -> int:
        """A legal move of ``state`` (a game not over) for the player to move."""
        ...

    def reset(self) -> None:
        """Forget what was learnt about the previous game."""
        ...

    def stop(self) -> None:
        """End the search in progress at once with the best move it has; safe from any thread (default: none)."""
        return None

    def prepare(self, state: State) -> None:
        """Get ready for games like ``state`` (build tables) before a clock runs (default: nothing to build)."""
        return None

    def set_memory(self, memory: int) -> None:
        """Use at most ``memory`` bytes for tables (0: no limit) (default: no tables to bound)."""
        return None
