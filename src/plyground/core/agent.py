"""What plays a game of the core protocol: an agent chooses an action, and says what its search found.

An :class:`Agent` has a ``name``, a time budget per move (``time_ms``, None for none) that a driver
may change between moves, and :meth:`~Agent.choose`, which returns one of the state's legal
actions. The rest have defaults that an agent class takes by subclassing :class:`Agent` and a
searching agent overrides: :meth:`~Agent.reset` (a new game), :meth:`~Agent.stop` (end the search
in progress now, from any thread), :meth:`~Agent.prepare` (build tables before a clock runs),
:meth:`~Agent.set_memory` (bound the tables) and :meth:`~Agent.report` (what the last move was
found by, a :class:`SearchReport`). k-in-a-row's players are agents
(:class:`plyground.kinrow.protocol.Player`); for 2048 :class:`plyground.g2048.agent.SearchAgent`
makes one of an expectimax search. :class:`RandomAgent` plays either game.

>>> from plyground.kinrow.board import State
>>> state = State(3, 3)
>>> RandomAgent(seed=1).choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from plyground.core.seeding import make_rng, resolve_seed

if TYPE_CHECKING:
    from plyground.core.game import GameState

__all__ = ["Agent", "RandomAgent", "SearchReport"]

S_contra = TypeVar("S_contra", contravariant=True)


@dataclass(frozen=True)
class SearchReport:
    """What an agent's last move was found by, for a driver to show without knowing the kind of agent.

    Attributes:
        move: the action it is about (None: not said).
        forced: the move was forced (an immediate win or the block of one: no search ran).
        figures: the search's own figures, JSON values by name (``depth``, ``nodes``, ``seconds``,
            ``iterations``...).
        visits: how much the search looked at each action it could play (MCTS: its visits), or None.
        line: the line it expects, from the move played (a principal variation).
    """

    move: int | None = None
    forced: bool = False
    figures: Mapping[str, Any] = field(default_factory=dict)
    visits: Mapping[int, float] | None = None
    line: tuple[int, ...] = ()


@runtime_checkable
class Agent(Protocol[S_contra]):
    """What a driver (a match, a command, the web lab, the Gomocup brain) needs from whatever plays.

    An agent class subclasses it to take the defaults of :meth:`stop`, :meth:`prepare`,
    :meth:`set_memory` (nothing to do) and :meth:`report` (nothing searched).
    """

    name: str
    time_ms: float | None

    def choose(self, state: S_contra) -> int:
        """A legal action of ``state`` (a game not over, the agent's turn)."""
        ...

    def reset(self) -> None:
        """Forget what was learnt about the previous game."""
        ...

    def stop(self) -> None:
        """End the search in progress at once with the best move it has; safe from any thread (default: none)."""
        return None

    def prepare(self, state: S_contra) -> None:
        """Get ready for games like ``state`` (build tables) before a clock runs (default: nothing to build)."""
        return None

    def set_memory(self, memory: int) -> None:
        """Use at most ``memory`` bytes for tables (0: no limit) (default: no tables to bound)."""
        return None

    def report(self) -> SearchReport:
        """What the last move was found by (default: no search to report)."""
        return SearchReport()


class RandomAgent(Agent["GameState"]):
    """A uniformly random legal action of any game of the core protocol, from a seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = resolve_seed(seed)
        self._rng = make_rng(self.seed)
        self.name = "random"
        self.time_ms: float | None = None

    def choose(self, state: GameState) -> int:
        actions = state.legal_actions()
        return actions[int(self._rng.integers(len(actions)))]

    def reset(self) -> None:
        """Nothing to forget: the generator goes on."""
