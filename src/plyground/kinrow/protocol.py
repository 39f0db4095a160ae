"""The Player protocol: the core :class:`~plyground.core.agent.Agent` that plays k-in-a-row.

Its own module, so that the searching players (``mcts``, ``alphabeta``, ``engine``) can subclass it
while ``players`` makes them by name (importing them when asked for) without an import circle.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from plyground.core.agent import Agent, SearchReport
from plyground.kinrow.board import State

__all__ = ["Player", "SearchReport"]


@runtime_checkable
class Player(Agent[State], Protocol):
    """What a driver (play, self-play, the web lab, the Gomocup brain) needs from a player.

    An :class:`~plyground.core.agent.Agent` of :class:`~plyground.kinrow.board.State`s: its
    actions are cells. A player class subclasses it to take the defaults of :meth:`stop`,
    :meth:`prepare`, :meth:`set_memory` (nothing to do) and :meth:`report` (nothing searched),
    which a searching player overrides.
    """

    name: str
    time_ms: float | None

    def choose(self, state: State) -> int:
        """A legal move of ``state`` (a game not over) for the player to move."""
        ...

    def reset(self) -> None:
        """Forget what was learnt about the previous game."""
        ...
