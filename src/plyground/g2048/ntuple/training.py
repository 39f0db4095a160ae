"""Learning of an n-tuple network: the checks of its settings, the results, one thread or Hogwild threads.

:meth:`NTupleNetwork.learn <plyground.g2048.ntuple.NTupleNetwork.learn>` is the way in: it
hands :func:`learn` its arrays through :class:`Tables` (the only view of a network's
insides that this module gets) and the kernels of ``_ntuple_kernels`` update them in place.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.core.seeding import resolve_seed
from plyground.core.splitmix import GOLDEN_INT, MASK64, mix64
from plyground.errors import InvalidInputError
from plyground.g2048 import _ntuple_kernels as NK
from plyground.g2048.board import check_p_four

__all__ = [
    "MAX_HORIZON",
    "MAX_RESTARTS",
    "GameResults",
    "LearnStats",
    "Tables",
    "Training",
    "check_count",
    "check_expected_updates",
    "check_finite",
    "check_lambda",
    "check_positive_int",
    "check_restarts",
    "check_seed",
    "is_positive",
    "learn",
]

MAX_HORIZON = 64
"""The most moves an afterstate may wait for its TD(lambda) update."""
MAX_RESTARTS = 64
"""The most restarts after a game: past a few, episodes last a move or two."""


@dataclass(frozen=True)
class GameResults:
    """The outcome of a batch of games: one entry per game."""

    scores: npt.NDArray[np.int64]
    max_tiles: npt.NDArray[np.int64]
    moves: npt.NDArray[np.int64]

    @property
    def games(self) -> int:
        """The number of games."""
        return int(self.scores.shape[0])

    @property
    def total_moves(self) -> int:
        """The moves of all games."""
        return int(self.moves.sum())

    @property
    def mean_score(self) -> float:
        """The mean score (0 for no game)."""
        return float(self.scores.mean()) if self.games else 0.0

    @property
    def max_tile(self) -> int:
        """The largest tile reached in any game (0 for no game)."""
        return int(self.max_tiles.max()) if self.games else 0

    def reach_rate(self, tile: int) -> float:
        """The share of games that reached ``tile`` (0 for no game)."""
        return float((self.max_tiles >= tile).mean()) if self.games else 0.0


@dataclass(frozen=True)
class LearnStats:
    """What one call of :meth:`NTupleNetwork.learn` did so far: the games played and the time spent."""

    results: GameResults
    seconds: float

    @property
    def moves_per_second(self) -> float:
        """Training speed (moves played and learnt from per second)."""
        return self.results.total_moves / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Training:
    """The training a network has had in all, across saves and loads."""

    games: int = 0
    moves: int = 0
    seconds: float = 0.0


# ---------------------------------------------------------------------------------------
# Checks


def check_count(value: Any, name: str, minimum: int) -> int:
    """``value`` as an int, checked to be an integer of at least ``minimum``.

    Raises:
        InvalidInputError: it is not (the message names it ``name``).
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise InvalidInputError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_positive_int(value: Any, name: str) -> None:
    """Refuse a ``value`` that is not an integer of at least 1 (the message names it ``name``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInputError(f"{name} must be a positive integer, got {value!r}")


def is_positive(value: Any) -> bool:
    """Whether ``value`` is a finite number above 0 (not a bool)."""
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 < value < math.inf


def check_finite(value: Any, name: str) -> None:
    """Refuse a ``value`` that is not a finite number (the message names it ``name``)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInputError(f"{name} must be a finite number, got {value!r}")


def check_seed(seed: int | None) -> int:
    """The state of a stream of spawns from ``seed`` (None: from OS entropy).

    Raises:
        InvalidInputError: not an integer from 0 to 2**64 - 1.
    """
    seed = resolve_seed(seed)
    if seed >= 1 << 64:
        raise InvalidInputError(f"seed must be below 2**64, got {seed}")
    return seed


def check_lambda(td_lambda: Any, horizon: Any) -> tuple[float, int]:
    """``(td_lambda, horizon)`` checked: a number in [0, 1] and an integer in [1, MAX_HORIZON].

    >>> check_lambda(0, 1), check_lambda(0.5, 4)
    ((0.0, 1), (0.5, 4))

    Raises:
        InvalidInputError: either is out of range, or ``td_lambda`` is above 0 with a
            horizon of 1 (which would ignore it).
    """
    if isinstance(td_lambda, bool) or not isinstance(td_lambda, int | float) or not 0.0 <= td_lambda <= 1.0:
        raise InvalidInputError(f"td_lambda must be a number from 0 to 1, got {td_lambda!r}")
    if isinstance(horizon, bool) or not isinstance(horizon, int) or not 1 <= horizon <= MAX_HORIZON:
        raise InvalidInputError(f"horizon must be an integer from 1 to {MAX_HORIZON}, got {horizon!r}")
    if td_lambda > 0 and horizon == 1:
        raise InvalidInputError(f"td_lambda {td_lambda} needs a horizon of at least 2 (with 1 it is TD(0))")
    return float(td_lambda), horizon


def check_restarts(restarts: Any) -> int:
    """``restarts`` checked: an integer in [0, MAX_RESTARTS].

    Raises:
        InvalidInputError: it is not.
    """
    if isinstance(restarts, bool) or not isinstance(restarts, int) or not 0 <= restarts <= MAX_RESTARTS:
        raise InvalidInputError(f"restarts must be an integer from 0 to {MAX_RESTARTS}, got {restarts!r}")
    return restarts


def check_expected_updates(expected: bool, horizon: int, restarts: int, *, td_lambda: float = 0.0) -> None:
    """Refuse expected updates with a ``td_lambda`` above 0, a ``horizon`` above 1 or ``restarts``: they are TD(0).

    >>> check_expected_updates(True, 1, 0)  # TD(0) over fresh games: fine
    >>> check_expected_updates(True, 1, 2, td_lambda=0.5)
    Traceback (most recent call last):
    ...
    plyground.errors.InvalidInputError: expected updates are TD(0): they take no td_lambda (0.5) and no restarts (2)

    Raises:
        InvalidInputError: they come with any of them (the message names those given).
    """
    if not expected:
        return
    given = [
        f"{name} ({value:g})"
        for name, value, clash in (
            ("td_lambda", td_lambda, td_lambda > 0),
            ("horizon above 1", horizon, horizon > 1),
            ("restarts", restarts, restarts > 0),
        )
        if clash
    ]
    if given:
        raise InvalidInputError(f"expected updates are TD(0): they take no {' and no '.join(given)}")


# ---------------------------------------------------------------------------------------
# Learning

_Int64s = npt.NDArray[Any]
"""A one-dimensional array that a kernel fills (int64 results, or the uint64 state of a stream)."""
_Play = Callable[[int, _Int64s, _Int64s, _Int64s, _Int64s], int]
"""Play and learn from ``n`` games on a stream: ``(n, rng, scores, tiles, moves) -> moves learnt from``."""


def results_arrays(games: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Zeroed scores, largest tiles and moves for ``games`` games, for a kernel to fill."""
    return np.zeros(games, np.int64), np.zeros(games, np.int64), np.zeros(games, np.int64)


@dataclass(frozen=True)
class Tables:
    """A network's arrays as learning changes them in place, and its training totals.

    Attributes:
        rows, cols: the board.
        weights, lookups: the network's tables and their layout (``_ntuple_kernels``).
        tc_sums: the temporal-coherence sums (empty when learning without TC).
        rng: the one-element state of the network's stream of spawns, moved on in place.
        trained: the network's training totals when learning starts.
        set_trained: records the network's new totals (called as games finish).
    """

    rows: int
    cols: int
    weights: npt.NDArray[np.float32]
    lookups: npt.NDArray[np.int64]
    tc_sums: npt.NDArray[np.float32]
    rng: npt.NDArray[np.uint64]
    trained: Training
    set_trained: Callable[[Training], None]


def learn(
    tables: Callable[[bool], Tables],
    games: int,
    *,
    alpha: float,
    tc: bool,
    td_lambda: float,
    horizon: int,
    restarts: int,
    expected: bool,
    p_four: float,
    batch: int,
    workers: int,
    stop: Callable[[], bool] | None,
    on_progress: Callable[[LearnStats], None] | None,
) -> LearnStats:
    """Check the arguments of :meth:`NTupleNetwork.learn`, then learn on ``tables(tc)`` as it describes.

    ``tables`` is called once the arguments are checked, so that bad ones change nothing.

    Raises:
        InvalidInputError: as :meth:`NTupleNetwork.learn`.
    """
    games = check_count(games, "games", 0)
    td_lambda, horizon = check_lambda(td_lambda, horizon)
    restarts = check_restarts(restarts)
    batch = check_count(batch, "batch", 1)
    workers = check_count(workers, "workers", 1)
    if not is_positive(alpha):
        raise InvalidInputError(f"alpha must be a positive number, got {alpha!r}")
    p_four = check_p_four(p_four)
    if not isinstance(expected, bool):
        raise InvalidInputError(f"expected must be True or False, got {expected!r}")
    check_expected_updates(expected, horizon, restarts, td_lambda=td_lambda)
    threshold = np.uint64(min(int(p_four * 2**32), 2**32))
    net = tables(bool(tc))
    network = (net.rows, net.cols, threshold, net.weights, net.lookups)

    def play(n: int, rng: _Int64s, scores: _Int64s, tiles: _Int64s, moves: _Int64s) -> int:
        if expected:
            return int(
                NK._learn_expected(n, *network, p_four, float(alpha), bool(tc), net.tc_sums, rng, scores, tiles, moves)
            )
        learning = (float(alpha), bool(tc), net.tc_sums, td_lambda, horizon, restarts)
        return int(NK._learn(n, *network, *learning, rng, scores, tiles, moves))

    if workers > 1 and games > 1:
        return _learn_in_threads(net, play, games, min(workers, games), batch, stop, on_progress)
    scores, tiles, moves = results_arrays(games)
    seconds = 0.0
    stats = LearnStats(GameResults(scores[:0], tiles[:0], moves[:0]), 0.0)
    done = net.trained
    for start in range(0, games, batch):
        if stop is not None and stop():
            break
        stop_at = min(start + batch, games)
        began = time.perf_counter()
        played = play(stop_at - start, net.rng, scores[start:stop_at], tiles[start:stop_at], moves[start:stop_at])
        spent = time.perf_counter() - began
        seconds += spent
        done = Training(done.games + stop_at - start, done.moves + int(played), done.seconds + spent)
        net.set_trained(done)
        stats = LearnStats(GameResults(scores[:stop_at], tiles[:stop_at], moves[:stop_at]), seconds)
        if on_progress is not None:
            on_progress(stats)
    return stats


def _learn_in_threads(
    net: Tables,
    play: _Play,
    games: int,
    workers: int,
    batch: int,
    stop: Callable[[], bool] | None,
    on_progress: Callable[[LearnStats], None] | None,
) -> LearnStats:
    """:func:`learn` with ``workers`` threads (2 or more) on the same weights.

    Each thread plays a stream of its own, derived from the network's, which then moves on
    by ``workers`` draws. Threads take ``min(batch, remaining // (2 * workers))`` games at a
    time (at least one), so that the chunks shrink towards the end and the last thread to
    finish makes the others wait for one short chunk at most. A finished chunk's results
    are copied, under a lock, after those finished before it; the calling thread then
    records the totals and calls ``on_progress``.
    """
    state = int(net.rng[0])
    streams = [mix64(state + (k + 1) * GOLDEN_INT) for k in range(workers)]
    net.rng[0] = np.uint64((state + workers * GOLDEN_INT) & MASK64)
    scores, tiles, moves = results_arrays(games)
    lock = threading.Lock()
    halt = threading.Event()
    finished: queue.SimpleQueue[tuple[int, int] | BaseException | None] = queue.SimpleQueue()
    taken = filled = 0

    def work(stream: int) -> None:
        nonlocal taken, filled
        rng = np.array([stream], dtype=np.uint64)
        own = results_arrays(batch)
        try:
            while not halt.is_set():
                with lock:
                    n = min(batch, max(1, (games - taken) // (2 * workers)), games - taken)
                    taken += n
                if n <= 0:
                    break
                played = play(n, rng, own[0][:n], own[1][:n], own[2][:n])
                with lock:
                    for out, part in zip((scores, tiles, moves), own, strict=True):
                        out[filled : filled + n] = part[:n]
                    filled += n
                    finished.put((filled, played))
        except BaseException as exc:  # handed to the calling thread, which raises it
            halt.set()
            finished.put(exc)
        finally:
            finished.put(None)

    threads = [threading.Thread(target=work, args=(s,), name=f"ntuple-learn-{k}") for k, s in enumerate(streams)]
    began = time.perf_counter()
    base = net.trained
    count, played_moves, running = 0, 0, len(threads)
    failure: BaseException | None = None
    for thread in threads:
        thread.start()
    try:
        while running:
            if stop is not None and not halt.is_set() and stop():
                halt.set()
            try:
                item = finished.get(timeout=0.05)
            except queue.Empty:
                continue
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                failure = failure or item
            else:
                count, played_moves = item[0], played_moves + item[1]
                seconds = time.perf_counter() - began
                net.set_trained(Training(base.games + count, base.moves + played_moves, base.seconds + seconds))
                if on_progress is not None:
                    on_progress(LearnStats(GameResults(scores[:count], tiles[:count], moves[:count]), seconds))
    finally:
        halt.set()
        for thread in threads:
            thread.join()
        while True:  # what finished after an exception in this thread
            try:
                item = finished.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, tuple):
                count, played_moves = item[0], played_moves + item[1]
        seconds = time.perf_counter() - began
        net.set_trained(Training(base.games + count, base.moves + played_moves, base.seconds + seconds))
    if failure is not None:
        raise failure
    return LearnStats(GameResults(scores[:count], tiles[:count], moves[:count]), seconds)
