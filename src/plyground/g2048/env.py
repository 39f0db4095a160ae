"""2048 as a Gymnasium environment: ``plyground/2048-v0``.

Gymnasium's ``"module:env-id"`` form imports this module, which registers the environment
(the ``gym`` extra)::

    import gymnasium

    env = gymnasium.make("plyground.g2048.env:plyground/2048-v0", rows=4, cols=4)
    observation, info = env.reset(seed=1)
    observation, reward, terminated, truncated, info = env.step(info["action_mask"].argmax())

Once this module is imported (``import plyground.g2048.env``), ``gymnasium.make("plyground/2048-v0")``
works too. ``import plyground`` alone does not register it: that would import Gymnasium (a
quarter of a second) in every ``plyground`` command.

Actions are 0 up, 1 right, 2 down, 3 left (the order of :data:`~plyground.g2048.DIRECTIONS`).
The observation is the board one-hot by exponent: ``uint8`` of shape ``(rows, cols, 16)``,
channel 0 for an empty cell, channel e for a tile ``2**e``. The reward is the points the
move scored. ``info["action_mask"]`` (``int8``, 1 for a legal move) comes with every
observation; an illegal move changes nothing and scores 0. An episode ends (terminated)
when no move is legal. Each episode's spawns are drawn from the environment's
``np_random``: ``reset(seed=s)`` gives the same episode for the same actions.

Render modes: ``"ansi"`` gives the score and the board as text, ``"rgb_array"`` a picture of
them (``uint8`` of shape ``(height, width, 3)``, each tile in its colour with its number;
drawn by :func:`plyground.g2048.picture.board_pixels`, which needs Pillow, the ``video`` extra).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.errors import DependencyNotInstalled, IllegalMoveError, InvalidInputError, install_command
from plyground.g2048.board import DEFAULT_P_FOUR, DIRECTIONS, check_p_four
from plyground.g2048.game import Game
from plyground.g2048.picture import board_pixels, require_pillow

try:
    import gymnasium
    from gymnasium import spaces
except ImportError:  # pragma: no cover - exercised only without the extra
    raise DependencyNotInstalled(f"the Gymnasium environment needs gymnasium: {install_command('gym')}") from None

__all__ = ["CELL_PIXELS", "ENV_ID", "Game2048Env"]

ENV_ID = "plyground/2048-v0"
EXPONENTS = 16
CELL_PIXELS = 64
"""The side of a tile in an ``rgb_array`` frame, in pixels."""

Observation = npt.NDArray[np.uint8]
Frame = npt.NDArray[np.uint8]


class Game2048Env(gymnasium.Env[Observation, np.int64]):
    """The 2048 game on a ``rows`` × ``cols`` board (2 to 4 each), spawning a 4 with probability ``p_four``.

    ``render_mode="ansi"`` makes :meth:`render` return the board as text, ``"rgb_array"`` as a
    picture (:data:`CELL_PIXELS` a tile).

    Raises:
        InvalidInputError: a bad size, ``p_four`` or render mode.
        DependencyNotInstalled: ``render_mode="rgb_array"`` without Pillow.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's own attribute

    def __init__(
        self, rows: int = 4, cols: int = 4, p_four: float = DEFAULT_P_FOUR, render_mode: str | None = None
    ) -> None:
        for name, value in (("rows", rows), ("cols", cols)):
            if isinstance(value, bool) or value not in (2, 3, 4):
                raise InvalidInputError(f"{name} must be 2, 3 or 4, got {value!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = " or ".join(repr(mode) for mode in self.metadata["render_modes"])
            raise InvalidInputError(f"render_mode must be None, {modes}, got {render_mode!r}")
        if render_mode == "rgb_array":
            require_pillow()  # said now, not at the first frame
        self.rows, self.cols = rows, cols
        self.p_four = check_p_four(p_four)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(len(DIRECTIONS))
        self.observation_space = spaces.Box(0, 1, shape=(rows, cols, EXPONENTS), dtype=np.uint8)
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The game of the current episode.

        Raises:
            IllegalMoveError: before the first :meth:`reset`.
        """
        if self._game is None:
            raise IllegalMoveError("call reset() before step()")
        return self._game

    def _observation(self) -> Observation:
        board = self.game.board
        exponents = np.array(
            [[board.exponent(r, c) for c in range(self.cols)] for r in range(self.rows)], dtype=np.intp
        )
        return np.eye(EXPONENTS, dtype=np.uint8)[exponents]

    def _info(self) -> dict[str, Any]:
        legal = set(self.game.board.legal_moves())
        mask = np.array([direction in legal for direction in DIRECTIONS], dtype=np.int8)
        return {"action_mask": mask, "score": self.game.score, "max_tile": self.game.board.max_tile()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode: two tiles spawned from the environment's random generator."""
        super().reset(seed=seed)
        self._game = Game(self.rows, self.cols, seed=int(self.np_random.integers(2**62)), p_four=self.p_four)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (0 up, 1 right, 2 down, 3 left); the reward is the points it scored.

        Raises:
            InvalidInputError: an action outside 0-3.
            IllegalMoveError: before the first :meth:`reset`.
        """
        if not self.action_space.contains(action):
            raise InvalidInputError(f"action must be 0 (up), 1 (right), 2 (down) or 3 (left), got {action!r}")
        game = self.game
        direction = DIRECTIONS[int(action)]
        reward = 0
        if direction in game.board.legal_moves():
            reward = game.step(direction)
        return self._observation(), float(reward), game.over, False, self._info()

    def render(self) -> str | Frame | None:
        """The score and the board: as text with ``render_mode="ansi"``, as an RGB picture with ``"rgb_array"``
        (the same shape through the episodes of an environment); None without a render mode or before
        the first :meth:`reset`."""
        if self.render_mode is None or self._game is None:
            return None
        if self.render_mode == "rgb_array":
            return board_pixels(self._game.board, cell=CELL_PIXELS, score=self._game.score)
        return f"score {self._game.score}\n{self._game.board.to_text()}\n"


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="plyground.g2048.env:Game2048Env")
