"""Seeded games and matches of any game of the core protocol, on this process, a process pool or Dask.

:func:`play_game` plays one game from a :class:`~plyground.core.game.GameState` with one
:class:`~plyground.core.agent.Agent` per player: each agent chooses at its turns (its action
asked on a copy and checked against the legal ones: :func:`timed_choice`), chance draws its
outcomes from a generator seeded by ``seed``. It returns a :class:`GameRecord`: every action
(chance's too), the returns, the agents' names and the seconds each move took. :func:`play_match`
plays ``games`` of them, game ``i`` with seed ``seed + i`` and the agents ``make_agents(i)``
gives, over :func:`~plyground.core.run_many.run_many` (in order, whatever finished first);
:func:`summarize` gives each player's mean return with its 95% interval and, for two players,
the first player's wins, draws and losses.

>>> from functools import partial
>>> from plyground.core.agent import RandomAgent
>>> from plyground.kinrow.board import State
>>> records = play_match(partial(State, 3, 3), random_agents(2), games=4, seed=1, workers=1)
>>> [len(record.actions) >= 5 for record in records], summarize(records).games
([True, True, True, True], 4)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from plyground.core.agent import Agent, RandomAgent
from plyground.core.game import CHANCE, GameState
from plyground.core.run_many import Backend, run_many
from plyground.core.seeding import make_rng
from plyground.core.stats import mean_interval
from plyground.errors import InvalidInputError, PlayerError

__all__ = [
    "Ask", "Chance", "GameRecord", "MatchSummary", "draw_outcome", "play_game", "play_match", "random_agents",
    "summarize", "timed_choice",
]  # fmt: skip


@dataclass(frozen=True)
class GameRecord:
    """One game played.

    Attributes:
        seed: the seed of its chance outcomes (and of agents made for it).
        players: the agents' names, by player.
        actions: every action, chance's included, from the state the game started from.
        returns: each player's return at the end.
        seconds: each agent move's time, in the order played.
    """

    seed: int
    players: tuple[str, ...]
    actions: tuple[int, ...]
    returns: tuple[float, ...]
    seconds: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed, "players": list(self.players), "actions": list(self.actions),
            "returns": list(self.returns), "seconds": list(self.seconds),
        }  # fmt: skip


Chance = Callable[[Any, np.random.Generator], int]
"""How a game's chance outcome is drawn: ``chance(state, rng) -> action``. :func:`draw_outcome`, the
default, draws from :meth:`~plyground.core.game.GameState.chance_outcomes` by their weights; a game
may give its own (2048's is :func:`~plyground.g2048.state.draw_spawn`, the draw its
:class:`~plyground.g2048.game.Game` makes, so that a seed plays the same spawns either way)."""


def draw_outcome(state: GameState, rng: np.random.Generator) -> int:
    """A chance outcome of ``state`` drawn by its probability."""
    actions, weights = zip(*state.chance_outcomes(), strict=True)
    total = sum(weights)
    return int(rng.choice(actions, p=[weight / total for weight in weights]))


Ask = Callable[[Any, Any], tuple[int, float]]
"""How a driver asks an agent for its action: ``ask(agent, state) -> (action, seconds)``, checked
(:func:`timed_choice`, or a game's own with its own messages: ``kinrow.selfplay.timed_choice``)."""


def timed_choice(agent: Agent[Any], state: GameState) -> tuple[int, float]:
    """``agent``'s action in ``state`` (asked on a copy, so that it cannot change the game) and the seconds it took.

    Raises:
        PlayerError: the agent raised an error, or chose an action that is not legal (the message names it).
    """
    player = state.current_player
    began = time.perf_counter()
    try:
        action = agent.choose(state.clone())
    except Exception as error:
        raise PlayerError(f"{agent.name} (player {player}) failed: {type(error).__name__}: {error}") from error
    seconds = time.perf_counter() - began
    if isinstance(action, bool) or action not in state.legal_actions():
        raise PlayerError(f"{agent.name} (player {player}) chose {action!r}, which is not legal")
    return int(action), seconds


def play_game(
    state: GameState,
    agents: Sequence[Agent[Any]],
    *,
    seed: int,
    ask: Ask = timed_choice,
    on_move: Callable[[Any, int, float], None] | None = None,
    chance: Chance = draw_outcome,
    max_moves: int | None = None,
    until: Callable[[Any], bool] | None = None,
) -> GameRecord:
    """Play ``state`` to its end, player ``p`` by ``agents[p]``, chance by a generator seeded with ``seed``.

    Each agent is :meth:`~plyground.core.agent.Agent.reset` first; ``state`` is played on (not
    copied). An agent's action is asked with ``ask`` (:func:`timed_choice`, or a game's own, with
    its own messages); ``on_move(state, action, seconds)`` is called after each agent's move.
    Chance's actions are drawn by ``chance`` (see :data:`Chance`). With ``max_moves`` the game
    stops when an agent is to move after that many agents' moves (the returns are the state's then);
    with ``until``, when an agent is to move and ``until(state)`` holds (a 2048 game at its first 32768).

    Raises:
        InvalidInputError: not one agent per player, or a bad ``max_moves``.
        PlayerError: an agent raised, or chose an action that is not legal (as ``ask`` says).
    """
    if len(agents) != state.num_players:
        raise InvalidInputError(f"the game has {state.num_players} players, got {len(agents)} agents")
    if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 0):
        raise InvalidInputError(f"max_moves must be a non-negative whole number or None, got {max_moves!r}")
    rng = make_rng(seed)
    for agent in agents:
        agent.reset()
    start = len(state.history)
    seconds: list[float] = []
    while not state.is_terminal():
        player = state.current_player
        if player == CHANCE:
            state.apply_action(chance(state, rng))
            continue
        if max_moves is not None and len(seconds) >= max_moves:
            break
        if until is not None and until(state):
            break
        action, took = ask(agents[player], state)
        state.apply_action(action)
        seconds.append(took)
        if on_move is not None:
            on_move(state, action, took)
    return GameRecord(
        seed, tuple(agent.name for agent in agents), state.history[start:], tuple(state.returns()), tuple(seconds)
    )


_Job = tuple[Callable[[], GameState], Callable[[int], Sequence[Agent[Any]]], int, int, Ask, Chance]


def _one_game(job: _Job) -> GameRecord:
    make_state, make_agents, index, seed, ask, chance = job
    return play_game(make_state(), make_agents(index), seed=seed, ask=ask, chance=chance)


def _random_agents(players: int, index: int) -> list[Agent[Any]]:
    return [RandomAgent(seed=1000 * index + player) for player in range(players)]


def random_agents(players: int) -> Callable[[int], list[Agent[Any]]]:
    """``make_agents`` for :func:`play_match`: a :class:`~plyground.core.agent.RandomAgent` a player, seeded by game."""
    return partial(_random_agents, players)


def play_match(
    make_state: Callable[[], GameState],
    make_agents: Callable[[int], Sequence[Agent[Any]]],
    *,
    games: int,
    seed: int = 0,
    backend: Backend | None = None,
    workers: int | None = None,
    ask: Ask = timed_choice,
    chance: Chance = draw_outcome,
    on_result: Callable[[int, GameRecord], None] | None = None,
) -> list[GameRecord]:
    """``games`` games, game ``i`` from ``make_state()`` by ``make_agents(i)`` with seed ``seed + i``, in order.

    On another process (a pool, Dask) ``make_state`` and ``make_agents`` travel there: module-level
    functions, or :func:`functools.partial` of them (and ``ask``, as :func:`play_game` takes it, a
    module-level function; ``chance`` too). ``on_result(i, record)`` is called as each game ends.

    Raises:
        InvalidInputError: ``games`` under 1, or a bad backend.
        PlayerError: as :func:`play_game`.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidInputError(f"games must be a positive whole number, got {games!r}")
    jobs = [(make_state, make_agents, index, seed + index, ask, chance) for index in range(games)]
    return run_many(_one_game, jobs, backend=backend, workers=workers, on_result=on_result)


@dataclass(frozen=True)
class MatchSummary:
    """The returns of a match.

    Attributes:
        games: the games.
        players: each player's agents' names, as the first game had them.
        mean_returns: each player's mean return.
        intervals: each player's 95% interval of the mean (None under two games).
        wins, draws, losses: for two players, the first player's (a return above, equal to, below the second's).
    """

    games: int
    players: tuple[str, ...]
    mean_returns: tuple[float, ...]
    intervals: tuple[tuple[float, float] | None, ...]
    wins: int = 0
    draws: int = 0
    losses: int = 0


def summarize(records: Sequence[GameRecord]) -> MatchSummary:
    """Each player's mean return and its interval, and for two players the first one's wins, draws and losses.

    Raises:
        InvalidInputError: no record, or records of different numbers of players.
    """
    if not records:
        raise InvalidInputError("no game to summarize")
    players = len(records[0].returns)
    if any(len(record.returns) != players for record in records):
        raise InvalidInputError("the records are of games with different numbers of players")
    columns = [[record.returns[p] for record in records] for p in range(players)]
    means = tuple(sum(column) / len(column) for column in columns)
    intervals = tuple(mean_interval(column) for column in columns)
    wins = draws = losses = 0
    if players == 2:
        wins = sum(record.returns[0] > record.returns[1] for record in records)
        draws = sum(record.returns[0] == record.returns[1] for record in records)
        losses = len(records) - wins - draws
    return MatchSummary(len(records), records[0].players, means, intervals, wins, draws, losses)
