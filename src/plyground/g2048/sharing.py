"""How a 2048 search shares its root moves out between threads, and when that pays.

The legal root moves are searched in *jobs* (:func:`root_groups`): the moves of a job one after
another in one transposition table of its own, the jobs on as many threads as the search has
workers (:mod:`plyground.g2048.expectimax` runs them on :data:`~plyground.core.crew.CREW`). A
depth is shared out only where that pays (:func:`shares_out`): a hand-off to another thread
costs tens of microseconds, more on a busy machine, and there each of two threads gets less of
the machine than one alone; what sharing out gains is measured as the search plays
(:class:`Rates`).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import numpy.typing as npt

from plyground.g2048 import _kernels as K
from plyground.g2048.board import DIRECTIONS, Board

__all__ = [
    "MIN_GROWTH",
    "MIN_SPEEDUP",
    "PAIR_SHARING",
    "RATE_SECONDS",
    "RATE_WEIGHT",
    "RETRY_EVERY",
    "SHARED_DEPTH",
    "SHARED_SECONDS",
    "SHARED_SPEEDUP",
    "Job",
    "Rates",
    "board_jobs",
    "max_jobs",
    "moves_array",
    "root_groups",
    "shares_out",
]

SHARED_SECONDS = 0.0005
"""A timed search shares out a depth predicted to take this long or more (see :func:`shares_out`)."""
SHARED_DEPTH = 4
"""A search of a fixed depth shares it out between its workers from this depth on (see :func:`shares_out`)."""
MIN_GROWTH = 4.0
"""The least growth of a search's time from one depth to the next that ``shares_out`` predicts."""
SHARED_SPEEDUP = 1.5
"""How much faster a depth shared out is taken to be, until a search has measured it (see :class:`Rates`)."""
MIN_SPEEDUP = 1.15
"""A timed search shares depths out only where that was measured to gain this much (see :class:`Rates`)."""
RETRY_EVERY = 20
"""Of the depths that sharing out would not gain enough on, every this many is shared out to measure again."""
RATE_SECONDS = 0.0005
"""Only the depths that took this long or more count towards a search's rates (see :class:`Rates`)."""
RATE_WEIGHT = 0.2
"""The weight of the last depth in a search's running mean of its rates."""

Job = tuple[int, ...]
"""Root moves (indices into DIRECTIONS) searched one after another in one table."""


PAIR_SHARING = 0.4
"""The part of the cheaper move's predicted cost that two opposite root moves save in one table.

See :func:`root_groups`."""


def root_groups(board: Board, workers: int) -> list[Job]:
    """How the legal root moves of ``board`` are split into jobs for ``workers`` threads.

    One worker searches every move in one table; three or more search each move alone. Two
    split the moves into the two jobs predicted to take the most equal times: a move is
    predicted to cost the square of the empty cells it leaves (where the tiles spawn, at the
    first chance node and, mostly, at the next), and two opposite moves (up and down, or right
    and left) in one job :data:`PAIR_SHARING` of the cheaper one's cost less than their sum,
    as they lead to many of the same boards, which the job's table then holds once (measured
    on positions of games: the longer job is then 0.56 of one worker's nodes at depth 3,
    against 0.62 when the vertical pair is always split from the horizontal one; the best split
    of each board, known only once it is searched, would give 0.54). The first job holds the
    first legal move; of two splits predicted alike, the one whose first job has fewer moves
    wins, then the one whose first job's moves come first. Within a job the moves keep the
    order of DIRECTIONS.
    """
    return list(board_jobs(board, workers))


def board_jobs(board: Board, workers: int) -> tuple[Job, ...]:
    """:func:`root_groups` as a tuple, from the cache."""
    return _jobs(K._afterstate_empties(np.uint64(board.bits), board.rows, board.cols), workers)


@functools.cache
def _jobs(empties: tuple[int, ...], workers: int) -> tuple[Job, ...]:
    """The jobs of :func:`root_groups` for a board whose moves leave ``empties`` empty cells (-1: illegal)."""
    legal = tuple(d for d in range(len(DIRECTIONS)) if empties[d] >= 0)
    if workers == 1 or len(legal) <= 1:
        return (legal,) if legal else ()
    if workers > 2:
        return tuple((d,) for d in legal)
    cost = {d: empties[d] * empties[d] for d in legal}

    def job_cost(job: Job) -> float:
        total = float(sum(cost[d] for d in job))
        if len(job) == 2 and (job[1] - job[0]) % 2 == 0:  # opposite moves (DIRECTIONS: up, right, down, left)
            total -= PAIR_SHARING * min(cost[d] for d in job)
        return total

    splits = []
    for size in range(1, len(legal)):
        for rest in itertools.combinations(legal[1:], size - 1):
            first = (legal[0], *rest)
            splits.append((first, tuple(d for d in legal if d not in first)))
    return min(splits, key=lambda split: max(job_cost(job) for job in split))


@functools.cache
def moves_array(jobs: tuple[Job, ...]) -> npt.NDArray[np.int64]:
    """The moves of ``jobs`` as the search kernels take them: a row a job, padded with -1 (never written)."""
    moves = np.full((len(jobs), len(DIRECTIONS)), -1, dtype=np.int64)
    for j, job in enumerate(jobs):
        moves[j, : len(job)] = job
    return moves


def max_jobs(workers: int) -> int:
    """The most jobs :func:`root_groups` makes for ``workers`` threads (one table each)."""
    return 1 if workers == 1 else 2 if workers == 2 else len(DIRECTIONS)


class Rates:
    """How fast a timed search's depths went, in nodes a second: on the calling thread alone, and shared out.

    Each is a running mean (weight :data:`RATE_WEIGHT`) over the depths that took
    :data:`RATE_SECONDS` or more. Their ratio is what sharing a depth out gains on this machine now:
    about 1.6 on two idle cores, less where other programs take them.
    """

    def __init__(self) -> None:
        self.alone: float | None = None
        self.shared: float | None = None
        self.declined = 0

    @property
    def speedup(self) -> float:
        """The shared rate over the rate alone; :data:`SHARED_SPEEDUP` before both are measured."""
        if self.alone is None or self.shared is None:
            return SHARED_SPEEDUP
        return self.shared / self.alone

    @property
    def pays(self) -> bool:
        """Whether sharing out gains at least :data:`MIN_SPEEDUP`."""
        return self.speedup >= MIN_SPEEDUP

    def retry(self) -> bool:
        """Whether to share out once more a depth that :attr:`pays` declines: every :data:`RETRY_EVERY`, to measure
        again (the other programs may have ended)."""
        self.declined += 1
        if self.declined < RETRY_EVERY:
            return False
        self.declined = 0
        return True

    def record(self, shared: bool, nodes: int, seconds: float) -> None:
        """Count a depth of ``nodes`` nodes that took ``seconds``, shared out or not."""
        if seconds < RATE_SECONDS or nodes <= 0:
            return
        rate = nodes / seconds
        before = self.shared if shared else self.alone
        after = rate if before is None else before + RATE_WEIGHT * (rate - before)
        if shared:
            self.shared = after
        else:
            self.alone = after


def shares_out(depth: int, times: list[float], left: float | None, speedup: float = SHARED_SPEEDUP) -> bool:
    """Whether the search of ``depth`` is shared out between the workers, or runs on the calling thread alone.

    A search of a fixed depth (``left`` None) shares out from :data:`SHARED_DEPTH` on, so that its
    values depend on the board, the depth and the workers alone. A timed search, with ``left``
    seconds left, shares out a depth predicted to take :data:`SHARED_SECONDS` or more (a hand-off to
    another thread costs tens of microseconds, more on a busy machine) when the threads, ``speedup``
    times as fast as one, could finish it in time; a depth that cannot finish is searched the best move first by
    one thread, whose moves finished are what the search keeps, and which no other thread of the search
    slows down where the cores are busy. The prediction is the time of the last depth (``times``, one a
    completed depth) times the growth from the one before (at least :data:`MIN_GROWTH`).
    """
    if left is None:
        return depth >= SHARED_DEPTH
    if not times:
        return False
    growth = max(MIN_GROWTH, times[-1] / times[-2]) if len(times) >= 2 and times[-2] > 0 else MIN_GROWTH
    predicted = times[-1] * growth
    return predicted >= SHARED_SECONDS and predicted <= speedup * left
