"""The Player protocol: what a driver (play, self-play, the web lab, the Gomocup brain) needs of a player.

Its own module, so that the searching players (``mcts``, ``alphabeta``, ``engine``) can subclass it
while ``players`` makes them by name (importing them when asked for) without an import circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from plyground.kinrow.board import State

__all__ = ["Player", "SearchReport"]


@dataclass(frozen=True)
class SearchReport:
    """What a player's last move was found by, for a driver to show without knowing the kind of player.

    Attributes:
        move: the move it is about (None: not said).
        forced: the move was an immediate win or the block of one (no search ran).
        figures: the search's own figures, JSON values by name (``depth``, ``nodes``, ``seconds``,
            ``iterations``...).
        visits: how much the search looked at each cell it could play (MCTS: its visits), or None.
        line: the line it expects, from the move played (the engine's principal variation).
    """

    move: int | None = None
    forced: bool = False
    figures: Mapping[str, Any] = field(default_factory=dict)
    visits: Mapping[int, float] | None = None
    line: tuple[int, ...] = ()


@runtime_checkable
class Player(Protocol):
    """What a driver (play, self-play, the Gomocup brain) needs from a player.

    A player class subclasses it to take the defaults of :meth:`stop`, :meth:`prepare`,
    :meth:`set_memory` (nothing to do) and :meth:`report` (nothing searched), which a searching
    player overrides.
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

    def report(self) -> SearchReport:
        """What the last move was found by (default: no search to report)."""
        return SearchReport()
