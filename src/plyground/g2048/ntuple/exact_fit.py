"""Fitting an n-tuple network to the exact values of a solved board size, instead of learning them by TD.

:class:`ExactFit` plays games on the board of a network and, at every state, moves the value of
each legal move's afterstate towards its exact value (:class:`~plyground.g2048.exact_values.ExactValues`:
the average, over the spawns, of the solved states they lead to): ``V += alpha * (exact - V)``,
spread over the afterstate's lookups as a TD update is. The games are played by the network's
greedy move or, with probability ``explore`` at each move, by the optimal move (1: the states of
optimal play; between 0 and 1, the states that greedy play meets near those, as in DAgger). What a
network fitted so plays tells what its tuples can *represent*, apart from what TD *learns*; the
rules the kernel follows are in ``g2048/_exact_fit_kernels.py``.

>>> import tempfile
>>> from plyground.g2048.exact_values import ExactValues
>>> from plyground.g2048.ntuple import NTupleNetwork
>>> from plyground.g2048.solver import solve
>>> with tempfile.TemporaryDirectory() as folder:
...     exact = ExactValues(solve(2, 2, directory=folder))
>>> fit = ExactFit(NTupleNetwork(2, 2, seed=1), exact, seed=1)
>>> first = fit.play(100, alpha=0.1)
>>> later = fit.play(100, alpha=0.1)
>>> first.games, later.mean_squared_error < first.mean_squared_error
(100, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048 import _exact_fit_kernels as FK
from plyground.g2048.exact_values import ExactValues
from plyground.g2048.ntuple.network import NTupleNetwork
from plyground.g2048.ntuple.training import check_count, check_seed, is_positive

__all__ = ["SAMPLE_SIZE", "ExactFit", "FitResults"]

SAMPLE_SIZE = 300
"""The most afterstates a call of :meth:`ExactFit.play` keeps in :attr:`FitResults.sample`."""


@dataclass(frozen=True)
class FitResults:
    """What one call of :meth:`ExactFit.play` did.

    Attributes:
        scores: the score of each game (int64).
        updates: the afterstate values moved (one a legal move of every state met).
        squared_error: the sum, over those updates, of ``(exact - V)**2`` with ``V`` as it was before each.
        sample: the first of every 50 afterstates played, up to :data:`SAMPLE_SIZE` of them (uint64
            bitboards): where to check the exact values by another path.
    """

    scores: npt.NDArray[np.int64]
    updates: int
    squared_error: float
    sample: npt.NDArray[np.uint64]

    @property
    def games(self) -> int:
        """The number of games."""
        return int(self.scores.shape[0])

    @property
    def mean_score(self) -> float:
        """The mean score (0 for no game)."""
        return float(self.scores.mean()) if self.games else 0.0

    @property
    def mean_squared_error(self) -> float:
        """The mean of the updates' squared errors (0 with no update)."""
        return self.squared_error / max(self.updates, 1)


class ExactFit:
    """The fit of ``network`` to ``exact``, played in as many calls of :meth:`play` as wanted.

    The network's weights change in place; its training totals and its own stream of spawns
    (:attr:`NTupleNetwork.rng_state <plyground.g2048.ntuple.NTupleNetwork.rng_state>`) do not. The
    games draw their spawns and exploring moves from one stream over all the calls, started at
    ``seed``: the same seed and the same games at the same rates give the same weights, bit for
    bit, however they are split into calls.

    Args:
        network: an n-tuple network of the board of ``exact``.
        exact: the exact values of a solved board size.
        seed: the start of the stream (None: from OS entropy).

    Raises:
        InvalidInputError: not a network and exact values of one board size, or a bad seed.
    """

    def __init__(self, network: NTupleNetwork, exact: ExactValues, *, seed: int | None = None) -> None:
        if not isinstance(network, NTupleNetwork):
            raise InvalidInputError(f"expected an NTupleNetwork, got {type(network).__name__}")
        if not isinstance(exact, ExactValues):
            raise InvalidInputError(f"expected ExactValues, got {type(exact).__name__}")
        if (network.rows, network.cols) != (exact.rows, exact.cols):
            raise InvalidInputError(
                f"the network is of {network.rows}x{network.cols}, the exact values of {exact.rows}x{exact.cols}"
            )
        self.network, self.exact = network, exact
        self._rng = np.array([check_seed(seed)], dtype=np.uint64)

    def __repr__(self) -> str:
        return f"ExactFit({self.network!r}, {self.exact!r})"

    @property
    def rng_state(self) -> int:
        """The state of the stream that the next :meth:`play` continues."""
        return int(self._rng[0])

    def play(self, games: int, *, alpha: float, explore: float = 1.0) -> FitResults:
        """Play ``games`` games, moving every legal move's afterstate value towards its exact value.

        Args:
            games: the number of games.
            alpha: the rate: each update moves an afterstate's value by ``alpha * (exact - V)``.
            explore: the probability that a move is the optimal one rather than the greedy one.

        Raises:
            InvalidInputError: a bad number of games, ``alpha`` or ``explore`` (nothing is played).
            CorruptFileError: a board that a move spawned is missing from the exact values (their
                solution is damaged); the network has been fitted by these games all the same.
        """
        games = check_count(games, "games", 0)
        if not is_positive(alpha):
            raise InvalidInputError(f"alpha must be a positive number, got {alpha!r}")
        _check_explore(explore)
        exact = self.exact
        threshold = np.uint64(min(int(exact.p_four * 2**32), 2**32))
        weights, lookups = self.network.kernel_tables()
        scores = np.zeros(games, dtype=np.int64)
        sample = np.zeros(SAMPLE_SIZE, dtype=np.uint64)
        updates, squares, missing, kept = FK._fit_exact(
            games, exact.rows, exact.cols, threshold, exact.p_four, weights, lookups, float(alpha), float(explore),
            *exact.kernel_tables(), self._rng, scores, sample,
        )  # fmt: skip
        if missing:
            raise CorruptFileError(
                f"{int(missing):,} spawned boards are missing from the exact values of {exact.directory}: "
                "the solution is damaged"
            )
        return FitResults(scores, int(updates), float(squares), sample[: int(kept)])


def _check_explore(explore: Any) -> None:
    if isinstance(explore, bool) or not isinstance(explore, int | float) or not 0.0 <= explore <= 1.0:
        raise InvalidInputError(f"explore must be a number from 0 to 1, got {explore!r}")
