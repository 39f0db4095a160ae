"""The settings of a training run (:class:`LearnSettings`), saved in its ``run.json``, and where it started."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from plyground.errors import InvalidInputError
from plyground.g2048.board import DEFAULT_P_FOUR, check_p_four
from plyground.g2048.ntuple.network import NTupleNetwork
from plyground.g2048.ntuple.training import (
    MAX_HORIZON,
    check_expected_updates,
    check_finite,
    check_lambda,
    check_positive_int,
    check_restarts,
    is_positive,
)
from plyground.g2048.ntuple.tuples import Tuples, check_stage_tiles, check_tuples, default_tuples

__all__ = ["TC_ALPHA", "LearnSettings", "WarmStart", "check_steps", "default_horizon"]


@dataclass(frozen=True)
class WarmStart:
    """The trained network a run started from (``plyground 2048 learn --from``), as ``run.json`` records it.

    Attributes:
        network: the network as ``--from`` named it (``network`` for the one shipped, else its path).
        weights_sha256: the SHA-256 of its weights as float32 bytes (for a packed network, its
            header's ``weights_sha256``): names the network whatever file holds it.
        games: the games it had been trained for; the run counts on from them.
        recipe: how it was made, from a packed network's header (empty when its file has none).
    """

    network: str
    weights_sha256: str
    games: int
    recipe: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.network, str) or not self.network:
            raise InvalidInputError(f"the network a run started from must be named, got {self.network!r}")
        if not isinstance(self.weights_sha256, str) or not re.fullmatch(r"[0-9a-f]{64}", self.weights_sha256):
            raise InvalidInputError(f"weights_sha256 must be 64 hexadecimal digits, got {self.weights_sha256!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise InvalidInputError(f"the games of the network a run started from must be >= 0, got {self.games!r}")
        if not isinstance(self.recipe, Mapping):
            raise InvalidInputError(f"the recipe of a start network must be an object, got {self.recipe!r}")
        try:
            object.__setattr__(self, "recipe", json.loads(json.dumps(dict(self.recipe), allow_nan=False)))
        except (TypeError, ValueError):
            raise InvalidInputError("the recipe of a network a run started from must be finite JSON") from None

    @classmethod
    def of(cls, network: NTupleNetwork, name: str, recipe: Mapping[str, Any] | None = None) -> WarmStart:
        """The record of a run that starts from ``network``, named ``name``, made by ``recipe``."""
        digest = hashlib.sha256(network.weights.data).hexdigest()
        return cls(name, digest, network.trained.games, dict(recipe or {}))


TC_ALPHA = 1.0
"""The learning rate with temporal coherence when none is given (it scales each weight's rate itself)."""


@dataclass(frozen=True)
class LearnSettings:
    """What a training run learns, and how often it reports and checkpoints; saved in ``run.json``.

    Attributes:
        rows, cols: the board (2 to 4 each).
        tuples: the network's tuples (None: :func:`~plyground.g2048.ntuple.default_tuples`;
            stored resolved).
        stage_tiles: the tiles that start the network's later stages (multi-stage; see
            :class:`~plyground.g2048.ntuple.NTupleNetwork`); empty for one stage, and for
            runs saved before stages existed.
        alpha: the learning rate (see :meth:`NTupleNetwork.learn`).
        alpha_steps: a schedule of later rates: ``(games, alpha)`` pairs, by increasing
            games; from the ``games``-th game trained (in all) on, the rate is ``alpha``.
            Counted in games, not time, so that a resumed run changes its rate at the same
            game as an uninterrupted one. Stored as lists in ``run.json``.
        tc: temporal coherence.
        td_lambda: TD(lambda) with delayed updates (0: TD(0); see :meth:`NTupleNetwork.learn`).
        horizon: the moves an afterstate waits for its update (None: 1 with ``td_lambda``
            0, else :func:`default_horizon`; stored resolved).
        restarts: episodes played again from the middle of each game (see
            :meth:`NTupleNetwork.learn`; 0 for none, and for runs saved before restarts).
        expected: learn by expected updates of every legal move (see
            :meth:`NTupleNetwork.learn`; TD(0) only; false for runs saved before them).
        p_four: the probability that a spawned tile is a 4.
        seed: the network's stream of spawns.
        initial_value: the value of every board before learning.
        checkpoint_minutes: wall-clock minutes between checkpoints (None: by games only).
        checkpoint_games: also checkpoint whenever the games trained reach a multiple of
            this (None: by time only); makes checkpoints happen at known game counts.
        report_games: a row of the curve every this many games.
        window: the curve's means and shares are over the last this many games.
        start: the trained network the run started from (None: from an untrained one; a dict, as
            ``run.json`` holds it, is read into a :class:`WarmStart`). Its games count in the run's
            games, so the alpha steps must come after them.
    """

    rows: int = 4
    cols: int = 4
    tuples: Tuples | None = None
    stage_tiles: tuple[int, ...] = ()
    alpha: float = 0.1
    alpha_steps: tuple[tuple[int, float], ...] = ()
    tc: bool = False
    td_lambda: float = 0.0
    horizon: int | None = None
    restarts: int = 0
    expected: bool = False
    p_four: float = DEFAULT_P_FOUR
    seed: int = 0
    initial_value: float = 0.0
    checkpoint_minutes: float | None = 5.0
    checkpoint_games: int | None = None
    report_games: int = 1000
    window: int = 1000
    start: WarmStart | None = None

    def __post_init__(self) -> None:
        tuples = default_tuples(self.rows, self.cols) if self.tuples is None else self.tuples
        object.__setattr__(self, "tuples", check_tuples(tuples, self.rows, self.cols))
        object.__setattr__(self, "stage_tiles", check_stage_tiles(self.stage_tiles, self.rows, self.cols))
        if not is_positive(self.alpha):
            raise InvalidInputError(f"alpha must be a positive number, got {self.alpha!r}")
        object.__setattr__(self, "alpha_steps", check_steps(self.alpha_steps))
        if not isinstance(self.tc, bool):
            raise InvalidInputError(f"tc must be true or false, got {self.tc!r}")
        horizon = asked_horizon = self.horizon  # None: the default of td_lambda, not one asked for
        if horizon is None:
            check_lambda(self.td_lambda, 2)  # a number from 0 to 1, before its default horizon
            horizon = 1 if self.td_lambda == 0 else default_horizon(self.td_lambda)
        td_lambda, horizon = check_lambda(self.td_lambda, horizon)
        object.__setattr__(self, "td_lambda", td_lambda)
        object.__setattr__(self, "horizon", horizon)
        check_restarts(self.restarts)
        if not isinstance(self.expected, bool):
            raise InvalidInputError(f"expected must be true or false, got {self.expected!r}")
        check_expected_updates(self.expected, asked_horizon or 1, self.restarts, td_lambda=td_lambda)
        check_p_four(self.p_four)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 1 << 64:
            raise InvalidInputError(f"seed must be an integer in [0, 2**64), got {self.seed!r}")
        check_finite(self.initial_value, "initial_value")
        if self.checkpoint_minutes is not None and not is_positive(self.checkpoint_minutes):
            raise InvalidInputError(f"checkpoint_minutes must be a positive number, got {self.checkpoint_minutes!r}")
        if self.checkpoint_games is not None:
            check_positive_int(self.checkpoint_games, "checkpoint_games")
        check_positive_int(self.report_games, "report_games")
        check_positive_int(self.window, "window")
        start = self.start
        if isinstance(start, Mapping):
            try:
                start = WarmStart(**start)
            except TypeError as exc:
                raise InvalidInputError(f"bad start: {exc}") from None
            object.__setattr__(self, "start", start)
        elif start is not None and not isinstance(start, WarmStart):
            raise InvalidInputError(f"start must be a WarmStart or None, got {start!r}")
        if start is not None and self.alpha_steps and self.alpha_steps[0][0] <= start.games:
            raise InvalidInputError(
                f"an alpha step must come after the {start.games:,} games of the network the run starts from, "
                f"not at game {self.alpha_steps[0][0]:,}"
            )

    @classmethod
    def from_options(cls, **given: Any) -> LearnSettings:
        """The settings with the ``given`` ones, where a None is the setting's default.

        The learning rate's default is :data:`TC_ALPHA` with temporal coherence (``tc``), else
        ``alpha``'s. What a command line passes through, so that it restates no default.

        >>> LearnSettings.from_options(tc=True, alpha=None, restarts=None).alpha
        1.0
        """
        chosen = {name: value for name, value in given.items() if value is not None}
        if "alpha" not in chosen and chosen.get("tc"):
            chosen["alpha"] = TC_ALPHA
        return cls(**chosen)

    @property
    def resolved_tuples(self) -> Tuples:
        """The tuples, never None."""
        assert self.tuples is not None  # resolved by __post_init__
        return self.tuples

    @property
    def resolved_horizon(self) -> int:
        """The horizon, never None."""
        assert self.horizon is not None  # resolved by __post_init__
        return self.horizon

    def alpha_at(self, games: int) -> float:
        """The learning rate of the game that follows ``games`` games trained."""
        alpha = self.alpha
        for start, rate in self.alpha_steps:
            if games >= start:
                alpha = rate
        return alpha

    def next_step(self, games: int) -> int | None:
        """The games trained at which the rate next changes after ``games`` (None: it does not)."""
        return next((start for start, _ in self.alpha_steps if start > games), None)

    def new_network(self) -> NTupleNetwork:
        """An untrained network of these settings.

        Raises:
            InvalidInputError: the settings start from a trained network, which they do not hold.
        """
        if self.start is not None:
            raise InvalidInputError(f"these settings start from the network {self.start.network}: none is made anew")
        return NTupleNetwork(
            self.rows,
            self.cols,
            self.resolved_tuples,
            seed=self.seed,
            initial_value=self.initial_value,
            stage_tiles=self.stage_tiles,
        )

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON data (tuples as lists of ``[row, col]``)."""
        data = asdict(self)
        data["tuples"] = [[list(cell) for cell in cells] for cells in self.resolved_tuples]
        data["alpha_steps"] = [list(step) for step in self.alpha_steps]
        data["stage_tiles"] = list(self.stage_tiles)
        if self.start is None:
            del data["start"]  # run.json as before warm starts
        return data


def default_horizon(td_lambda: float) -> int:
    """The horizon for ``td_lambda`` (0 < ``td_lambda`` < 1) when none is given.

    The fewest moves, at least 2, after which ``td_lambda ** moves`` (the weight the
    return would give to the moves beyond) is at most 0.1.

    >>> default_horizon(0.5), default_horizon(0.3), default_horizon(0.8)
    (4, 2, 11)

    Raises:
        InvalidInputError: ``td_lambda`` is not strictly between 0 and 1 (1 needs a horizon given).
    """
    if isinstance(td_lambda, bool) or not isinstance(td_lambda, int | float) or not 0.0 < td_lambda < 1.0:
        raise InvalidInputError(f"td_lambda {td_lambda!r} has no default horizon: give one (1 to {MAX_HORIZON})")
    return min(MAX_HORIZON, max(2, math.ceil(math.log(0.1) / math.log(td_lambda) - 1e-9)))


def check_steps(steps: Any) -> tuple[tuple[int, float], ...]:
    """``steps`` as a tuple of ``(games, alpha)`` pairs, by strictly increasing positive games.

    Raises:
        InvalidInputError: not a list of such pairs.
    """
    checked: list[tuple[int, float]] = []
    if isinstance(steps, str | bytes) or not isinstance(steps, Sequence):
        raise InvalidInputError(f"alpha_steps must be a list of [games, alpha] pairs, got {steps!r}")
    for step in steps:
        if isinstance(step, str | bytes) or not isinstance(step, Sequence) or len(step) != 2:
            raise InvalidInputError(f"an alpha step must be a pair [games, alpha], got {step!r}")
        games, alpha = step
        check_positive_int(games, "the games of an alpha step")
        if not is_positive(alpha):
            raise InvalidInputError(f"the alpha of an alpha step must be a positive number, got {alpha!r}")
        if checked and games <= checked[-1][0]:
            raise InvalidInputError(f"alpha steps must be by increasing games, got {games} after {checked[-1][0]}")
        checked.append((games, float(alpha)))
    return tuple(checked)
