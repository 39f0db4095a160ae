"""k-in-a-row as a PettingZoo AEC environment: ``kinrow_v0``, tic-tac-toe to gomoku (the ``marl`` extra).

PettingZoo has no registry: like its own games (``pettingzoo.classic.tictactoe_v3.env()``), the
module's :func:`env` makes the environment, wrapped in PettingZoo's order-enforcing wrapper,
and :class:`KinrowEnv` (also ``raw_env``) is the environment itself::

    from plyground.kinrow import env as kinrow_env

    env = kinrow_env.env(n=15, k=5)
    env.reset(seed=1)
    observation, reward, termination, truncation, info = env.last()
    env.step(int(observation["action_mask"].argmax()))

The agents are ``player_0`` (X, who moves first) and ``player_1`` (O), named as PettingZoo
recommends. An action is a cell ``row * n + col`` (``Discrete(n * n)``), as in
:class:`~plyground.kinrow.board.State`, whose ``rule`` and ``blocked`` cells the environment
takes too. Each agent observes a dict: ``"observation"``, ``int8`` of shape ``(n, n, 3)``, its
own stones in channel 0, its opponent's in channel 1 (the same network plays both sides) and the
blocked cells in channel 2, and ``"action_mask"``, ``int8`` of shape ``(n * n,)``, 1 on each
legal move (under renju, X's forbidden points are not legal), all 0 for the agent not to move
and once the game is over. The rewards come at the end:
+1 to the winner, -1 to the loser, 0 to both for a draw; a game ends by termination, never by
truncation. An illegal action raises :class:`~plyground.errors.IllegalMoveError` and changes
nothing; PettingZoo's ``TerminateIllegalWrapper(env, illegal_reward=-1)`` makes it lose the game
instead, as in PettingZoo's board games.

The game has no chance: ``reset(seed=s)`` seeds the environment's ``np_random``, which only the
``random_moves`` option draws from. ``reset(options={"moves": [...]})`` starts from the position
after those moves, then ``{"random_moves": m}`` plays ``m`` random moves that do not end the game
(fewer where only such moves are left); other keys are ignored, as PettingZoo's ``api_test`` requires.
``render_mode="ansi"`` makes :meth:`KinrowEnv.render` return the board as text, and ``"human"``
prints it after every move. :func:`play_episode` plays one game between plyground players.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.errors import DependencyNotInstalled, IllegalMoveError, InvalidInputError, install_command
from plyground.kinrow.board import BLOCKED, DRAW, O, State, X, player_name
from plyground.kinrow.players import Player
from plyground.kinrow.rules import Rule

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector, wrappers
except ImportError:  # pragma: no cover - exercised only without the extra
    raise DependencyNotInstalled(f"the PettingZoo environment needs pettingzoo: {install_command('marl')}") from None

__all__ = ["AGENTS", "ENV_NAME", "KinrowEnv", "env", "play_episode", "raw_env"]

ENV_NAME = "kinrow_v0"
AGENTS = ("player_0", "player_1")
"""The agents: ``player_0`` plays X (first), ``player_1`` plays O."""
_STONE = {AGENTS[0]: X, AGENTS[1]: O}
_RENDER_MODES = ("ansi", "human")

Observation = dict[str, npt.NDArray[np.int8]]


class KinrowEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """k-in-a-row for two agents: k stones in a row win on an n×n board (``n`` and ``k`` as :class:`State` takes them).

    Raises:
        InvalidInputError: a bad ``n``, ``k`` or render mode.
    """

    metadata = {  # noqa: RUF012 - PettingZoo's own class attribute
        "render_modes": list(_RENDER_MODES),
        "name": ENV_NAME,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        n: int = 3,
        k: int = 3,
        *,
        rule: Rule | str | int = Rule.FREESTYLE,
        blocked: Iterable[int] = (),
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        empty = State(n, k, rule=rule, blocked=blocked)  # refuses a bad size, rule or cell with State's message
        self.rule, self.blocked = empty.rule, empty.blocked
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise InvalidInputError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.n, self.k = n, k
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        board = spaces.Box(0, 1, shape=(n, n, 3), dtype=np.int8)
        mask = spaces.Box(0, 1, shape=(n * n,), dtype=np.int8)
        self.observation_spaces = {agent: spaces.Dict({"observation": board, "action_mask": mask}) for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(n * n) for agent in AGENTS}
        self.state_space = spaces.Box(0, 1, shape=(n, n, 3), dtype=np.int8)
        self.np_random, _ = seeding.np_random(None)
        self._selector = AgentSelector(self.possible_agents)
        self._state: State | None = None

    @property
    def game(self) -> State:
        """The position of the current game (X is ``player_0``).

        Raises:
            IllegalMoveError: before the first :meth:`reset`.
        """
        if self._state is None:
            raise IllegalMoveError("call reset() before step() or observe()")
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _planes(self, first: int) -> npt.NDArray[np.int8]:
        cells = self.game.cells.reshape(self.n, self.n)
        second = O if first == X else X
        return np.stack([cells == first, cells == second, cells == BLOCKED], axis=-1).astype(np.int8)

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees: its stones and its opponent's, and its legal moves."""
        mask = np.zeros(self.n * self.n, dtype=np.int8)
        if agent == self.agent_selection:
            mask[self.game.legal_moves()] = 1
        return {"observation": self._planes(_STONE[agent]), "action_mask": mask}

    def state(self) -> npt.NDArray[np.int8]:
        """The board as planes: X's stones in channel 0, O's in channel 1, the blocked cells in channel 2."""
        return self._planes(X)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: the empty board, or the position of the options ``moves`` and ``random_moves``.

        Raises:
            IllegalMoveError: an opening move that cannot be played.
            InvalidInputError: ``moves`` not a sequence, ``random_moves`` not a non-negative integer, or an
                opening that ends the game.
        """
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        options = options or {}
        state = State(self.n, self.k, rule=self.rule, blocked=self.blocked)
        moves = options.get("moves", ())
        if isinstance(moves, str) or not isinstance(moves, Sequence):
            raise InvalidInputError(f"moves must be a sequence of cells, got {moves!r}")
        for move in moves:
            state.play(move)
        count = options.get("random_moves", 0)
        if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
            raise InvalidInputError(f"random_moves must be a non-negative integer, got {count!r}")
        for _ in range(int(count)):
            quiet = sorted(set(state.legal_moves()) - set(state.winning_moves()))
            if not quiet or len(state.history) == self.n * self.n - len(self.blocked) - 1:  # wins only, or a full board
                break
            state.play(int(self.np_random.choice(quiet)))
        if state.is_over:
            raise InvalidInputError(
                f"the opening ends the game ({player_name(state.result or DRAW)}): {state.to_text()}"
            )
        self._state = state
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._selector.reinit(self.agents)
        self.agent_selection = self._selector.reset()
        if state.to_move == O:
            self.agent_selection = self._selector.next()
        if self.render_mode == "human":
            self._print()

    def step(self, action: Any) -> None:
        """Play ``action`` (a cell) for the agent to move; a finished agent must step ``None``.

        Raises:
            IllegalMoveError: the cell is off the board or taken (the game is unchanged), or before :meth:`reset`.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game
        state.play(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.is_over:
            if state.result != DRAW:
                for other in self.agents:
                    self.rewards[other] = 1.0 if _STONE[other] == state.result else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self._print()

    def _text(self) -> str:
        state = self.game
        if state.result == DRAW:
            status = "draw"
        elif state.result is not None:
            status = f"{player_name(state.result)} wins"
        else:
            status = f"{player_name(state.to_move)} to move"
        return f"{state}\n{status}\n"

    def _print(self) -> None:
        sys.stdout.write(self._text())

    def render(self) -> str | None:
        """The board and whose turn it is, as text (with ``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi" or self._state is None:
            return None
        return self._text()

    def close(self) -> None:
        """Nothing to release."""


raw_env = KinrowEnv


def env(
    n: int = 3,
    k: int = 3,
    *,
    rule: Rule | str | int = Rule.FREESTYLE,
    blocked: Iterable[int] = (),
    render_mode: str | None = None,
) -> Any:
    """A :class:`KinrowEnv` in PettingZoo's ``OrderEnforcingWrapper`` (the ``env()`` of PettingZoo's games).

    Raises:
        InvalidInputError: a bad ``n``, ``k``, rule, blocked cell or render mode.
    """
    return wrappers.OrderEnforcingWrapper(KinrowEnv(n, k, rule=rule, blocked=blocked, render_mode=render_mode))


def play_episode(
    game_env: Any,
    players: Mapping[str, Player],
    *,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, float]:
    """Play one game of ``game_env`` (a :class:`KinrowEnv`, wrapped or not) between plyground players.

    Each player (keyed by agent: ``{"player_0": ..., "player_1": ...}``) is reset, then chooses
    from a copy of the position whenever its agent is to move.

    Returns:
        Each agent's total reward: ``{"player_0": 1.0, "player_1": -1.0}`` when X wins.

    Raises:
        InvalidInputError: ``players`` not keyed by the two agents.
        IllegalMoveError: a player chose a move that cannot be played.

    >>> from plyground.kinrow.players import FirstLegalPlayer
    >>> play_episode(env(3, 3), {"player_0": FirstLegalPlayer(), "player_1": FirstLegalPlayer()})
    {'player_0': 1.0, 'player_1': -1.0}
    """
    if set(players) != set(AGENTS):
        raise InvalidInputError(f"players must be keyed by {' and '.join(AGENTS)}, got {sorted(players)}")
    game_env.reset(seed=seed, options=options)
    for player in players.values():
        player.reset()
    totals = dict.fromkeys(AGENTS, 0.0)
    state: State = game_env.unwrapped.game
    for agent in game_env.agent_iter():
        _, reward, terminated, truncated, _ = game_env.last(observe=False)
        totals[agent] += float(reward)
        game_env.step(None if terminated or truncated else players[agent].choose(state.copy()))
    return totals
