"""Players of k-in-a-row: the simple players, and a factory of every kind.

A player follows :class:`~plyground.kinrow.protocol.Player` (imported here too): a ``name``, a
``time_ms`` (milliseconds per move, or None) that a driver may change between moves (the
Gomocup protocol does), ``choose(state) -> move``, ``reset()`` (a new game begins), ``stop()``
(another thread makes the search in progress answer at once: the Gomocup brain does on
``END``), ``prepare(state)`` (tables built before a clock runs) and ``set_memory(bytes)``. The
searching players live in :mod:`plyground.kinrow.engine` (the strongest, :data:`DEFAULT_KIND`),
:mod:`plyground.kinrow.mcts` and :mod:`plyground.kinrow.alphabeta`; every AI plays an immediate
win and blocks an immediate loss first (:meth:`~plyground.kinrow.board.State.forced_move`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

from plyground.core.seeding import make_rng, resolve_seed
from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow.board import State
from plyground.kinrow.budget import check_time_ms
from plyground.kinrow.limits import PLAYER_KINDS
from plyground.kinrow.protocol import Player

__all__ = [
    "DEFAULT_KIND",
    "ENGINE_TIME_MS",
    "PLAYER_KINDS",
    "FirstLegalPlayer",
    "HumanPlayer",
    "Player",
    "RandomPlayer",
    "forced_move",
    "make_player",
]

DEFAULT_KIND = "engine"
"""The strongest player, the default of every front end: :class:`~plyground.kinrow.engine.Engine`."""
ENGINE_TIME_MS = 1000.0
"""The engine's time per move when none is given."""


def forced_move(state: State) -> int | None:
    """An immediate win of the player to move, else the block of the opponent's immediate win, else None.

    The same as :meth:`State.forced_move() <plyground.kinrow.board.State.forced_move>`.
    """
    return state.forced_move()


class RandomPlayer(Player):
    """A uniformly random legal move, from a seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = resolve_seed(seed)
        self._rng = make_rng(self.seed)
        self.name = "random"
        self.time_ms: float | None = None

    def choose(self, state: State) -> int:
        moves = state.legal_moves()
        return moves[int(self._rng.integers(len(moves)))]

    def reset(self) -> None:
        pass


class FirstLegalPlayer(Player):
    """The first empty cell in reading order: a fixed, trivial opponent."""

    def __init__(self) -> None:
        self.name = "first_legal"
        self.time_ms: float | None = None

    def choose(self, state: State) -> int:
        return state.legal_moves()[0]

    def reset(self) -> None:
        pass


class HumanPlayer(Player):
    """Asks a person: ``ask(state)`` returns the text of a move (``c2`` or ``1,2``); asks again until legal.

    ``tell(message)`` reports a move that cannot be played.
    """

    def __init__(self, ask: Callable[[State], str], tell: Callable[[str], None] = print) -> None:
        self.ask, self.tell = ask, tell
        self.name = "human"
        self.time_ms: float | None = None

    def choose(self, state: State) -> int:
        while True:
            try:
                move = state.parse_move(self.ask(state))
            except IllegalMoveError as exc:
                self.tell(str(exc))
                continue
            if move in state.legal_moves():
                return move
            self.tell(f"{state.name(move)} is taken")

    def reset(self) -> None:
        pass


def make_player(
    kind: str,
    *,
    depth: int = 2,
    iterations: int | None = None,
    time_ms: float | None = None,
    symmetry: bool = True,
    patterns: bool | None = None,
    evaluation: str | None = None,
    selective: bool = True,
    root_vct: bool = True,
    answers: bool = False,
    quiescence: int = 0,
    next_depth_share: float | None = None,
    reduction: str | None = None,
    verify_wins: bool = False,
    c: float = math.sqrt(2),
    seed: int | None = None,
    ask: Callable[[State], str] | None = None,
) -> Player:
    """A player by name (one of :data:`PLAYER_KINDS`).

    ``time_ms`` is the searching players' budget per move in milliseconds (the engine thinks
    :data:`ENGINE_TIME_MS` without one);
    ``depth`` is the alpha-beta player's, ``symmetry`` and ``patterns`` MCTS's (see
    :class:`~plyground.kinrow.mcts.MCTS`), ``evaluation`` the engine's (``fitted``, ``symmetric`` or
    ``hand``, see :class:`~plyground.kinrow.engine.EngineSettings`), ``selective`` whether its search
    prunes and reduces (False: :data:`~plyground.kinrow.engine.PLAIN`), ``root_vct`` whether it
    looks for VCTs at the root, ``answers`` whether it answers threats by their exact answers,
    ``quiescence`` the plies of its threat quiescence at the leaves, ``next_depth_share`` the share
    of its time after which it starts no deeper iteration, ``reduction`` its late-move reduction (by
    default the settings' own, ``one`` when not ``selective``) and ``verify_wins`` whether it searches
    again the wins its table claims on the principal variation
    (:class:`~plyground.kinrow.engine.EngineSettings`);
    the other players move at once, but a bad budget is refused for every kind.

    Raises:
        InvalidInputError: an unknown kind (the message lists the known ones), or bad options.
    """
    time_ms = check_time_ms(time_ms)
    # The searching players are imported when asked for: importing one compiles its kernels on a first run.
    if kind == "engine":
        from plyground.kinrow.engine import PLAIN, Engine, EngineSettings

        settings = EngineSettings(root_vct=root_vct, answers=answers, quiescence=quiescence, verify_wins=verify_wins)
        if next_depth_share is not None:
            settings = dataclasses.replace(settings, next_depth_share=next_depth_share)
        if evaluation is not None:
            settings = dataclasses.replace(settings, evaluation=evaluation)
        if not selective:
            settings = dataclasses.replace(settings, **PLAIN)
        if reduction is not None:
            settings = dataclasses.replace(settings, reduction=reduction)
        return Engine(time_ms=ENGINE_TIME_MS if time_ms is None else time_ms, settings=settings)
    if kind == "mcts":
        from plyground.kinrow.mcts import MCTS

        return MCTS(iterations=iterations, time_ms=time_ms, c=c, symmetry=symmetry, patterns=patterns, seed=seed)
    if kind == "alphabeta":
        from plyground.kinrow.alphabeta import AlphaBeta

        return AlphaBeta(depth=depth, time_ms=time_ms)
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "first_legal":
        return FirstLegalPlayer()
    if kind == "human":
        if ask is None:
            raise InvalidInputError("a human player needs a way to ask for moves")
        return HumanPlayer(ask)
    raise InvalidInputError(f"unknown player {kind!r}; known players: {', '.join(PLAYER_KINDS)}")
