"""Expectimax search for 2048: a time budget or a fixed depth, on every core.

>>> from plyground.g2048 import Board
>>> decision = Expectimax(depth=2, workers=1).choose(Board.parse("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 4"))
>>> decision.move in decision.values, decision.depth
(True, 2)

A *depth* counts moves: depth 1 values each move by the heuristic value of the board it
leaves, depth 2 adds every spawn and the best reply to it, and so on. The legal root moves
are searched in groups (:func:`root_groups`): the moves of a group one after another in one
transposition table, whose entries they share (two moves often lead to the same boards a few
moves on), in a fresh table of its own, the groups in parallel: one kernel call searches
them all, on as many threads (numba's ``prange``; on its OpenMP threading layer a parallel loop
starts in microseconds, where a hand-off between Python threads takes 50-100). The groups
depend on the board and the number of workers alone, so a fixed-depth decision is the same every
time for a given number of workers. A timed search stops when a thread of its own (the alarm) sets its
stop flag at the deadline.

The leaves are valued by an :class:`~plyground.g2048.evaluator.Evaluator`: the heuristic (the
default) or a trained n-tuple network (``evaluator=``). A network trained by afterstate TD values an
afterstate as the expected sum of the points still to come, so with a network the search
adds the points scored along the way: a move is worth ``points + V(afterstate)`` at depth
1 (the network's own greedy choice), and deeper searches take the expectation over
spawns of the best ``points + value`` of the next move, with ``V`` at the horizon. A
board with no legal move is then worth 0 more points. The heuristic search adds no points.
"""

from __future__ import annotations

import concurrent.futures
import functools
import itertools
import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from plyground.errors import InvalidInputError
from plyground.g2048 import _kernels as K
from plyground.g2048 import _search_kernels as S
from plyground.g2048.board import DEFAULT_P_FOUR, DIRECTIONS, Board, Direction, check_p_four
from plyground.g2048.evaluator import Evaluator
from plyground.g2048.evaluators import load_evaluator
from plyground.g2048.heuristic import Heuristic, Weights

__all__ = ["Decision", "Expectimax", "next_bank", "policy_depth", "root_groups"]

MAX_DEPTH = 30
MAX_WORKERS = len(DIRECTIONS)
"""The most threads a search uses: each searches one root move, and a board has at most four."""
DEFAULT_CUTOFF = 1e-4
DEFAULT_TT_BITS = 20
LONG_SECONDS = 0.25
"""A timed search with more time than this left searches its next depth on a helper thread (see ``_run``)."""
LONG_DEPTH = 6
"""A search of a fixed depth from this one up runs on a helper thread (see ``_run``)."""
BANK_MOVES = 4.0
"""With ``time_bank``, at most this many moves' budgets are saved up."""
BANK_DEBT = 0.5
"""With ``time_bank``, a move that overran its time leaves a debt of at most this share of a budget."""


def next_bank(bank_ms: float, budget_ms: float, used_ms: float) -> float:
    """The time saved up after a move that used ``used_ms`` of ``budget_ms + bank_ms``.

    What a move leaves goes to the next moves, so that the mean time a move stays at the budget: up to
    :data:`BANK_MOVES` budgets saved, down to a debt of :data:`BANK_DEBT` of one.

    >>> next_bank(0.0, 20.0, 14.0), next_bank(70.0, 20.0, 5.0), next_bank(0.0, 20.0, 45.0)
    (6.0, 80.0, -10.0)
    """
    return min(BANK_MOVES * budget_ms, max(-BANK_DEBT * budget_ms, bank_ms + budget_ms - used_ms))


@dataclass(frozen=True)
class Decision:
    """The outcome of one search.

    Attributes:
        move: the chosen direction, None when no move is legal.
        values: each legal move's value at the completed depth: the expected heuristic value,
            or with a network the expected points to come (the move's points included).
        depth: the deepest fully searched depth (0 when no move is legal).
        nodes: chance nodes visited (all depths, aborted ones included).
        tt_hits: transposition-table hits.
        evaluations: evaluations of leaves (heuristic or network).
        seconds: wall-clock time of the search.
        searched: the board the search played in the given board's place (a network's
            downgraded board: see :meth:`~plyground.g2048.Evaluator.searched_board`), or None
            when it searched the given board itself; the values are those of this board.
    """

    move: Direction | None
    values: dict[Direction, float] = field(default_factory=dict)
    depth: int = 0
    nodes: int = 0
    tt_hits: int = 0
    evaluations: int = 0
    seconds: float = 0.0
    searched: Board | None = None


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
    return list(_board_jobs(board, workers))


def _board_jobs(board: Board, workers: int) -> tuple[Job, ...]:
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
def _moves_array(jobs: tuple[Job, ...]) -> npt.NDArray[np.int64]:
    """The moves of ``jobs`` as the search kernels take them: a row a job, padded with -1 (never written)."""
    moves = np.full((len(jobs), len(DIRECTIONS)), -1, dtype=np.int64)
    for j, job in enumerate(jobs):
        moves[j, : len(job)] = job
    return moves


def _max_jobs(workers: int) -> int:
    """The most jobs :func:`root_groups` makes for ``workers`` threads (one table each)."""
    return 1 if workers == 1 else 2 if workers == 2 else len(DIRECTIONS)


class _Alarm:
    """Sets stop flags at their deadlines, from a thread of its own.

    A timed search runs in a kernel, which cannot read the clock: it stops when its flag is set.
    One daemon thread serves every search of the process.
    """

    def __init__(self) -> None:
        self._wake = threading.Condition()
        self._armed: dict[int, tuple[float, npt.NDArray[np.uint8]]] = {}
        self._thread: threading.Thread | None = None

    def arm(self, deadline: float, flag: npt.NDArray[np.uint8]) -> None:
        """Set ``flag[0] = 1`` at ``deadline`` (a :func:`time.perf_counter` time) unless disarmed before."""
        with self._wake:
            self._armed[id(flag)] = (deadline, flag)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="expectimax-alarm", daemon=True)
                self._thread.start()
            self._wake.notify()

    def disarm(self, flag: npt.NDArray[np.uint8]) -> None:
        """Forget ``flag``'s deadline."""
        with self._wake:
            self._armed.pop(id(flag), None)

    def _run(self) -> None:
        with self._wake:
            while True:
                now = time.perf_counter()
                for key, (deadline, flag) in list(self._armed.items()):
                    if deadline <= now:
                        flag[0] = 1
                        del self._armed[key]
                if self._armed:
                    self._wake.wait(min(deadline for deadline, _ in self._armed.values()) - now)
                else:
                    self._wake.wait()


_ALARM = _Alarm()


def policy_depth(board: Board) -> int:
    """The search depth for ``board`` when none is given: deeper as the board gets harder.

    Harder boards have more distinct tiles to keep in order; small boards need less.
    """
    distinct = len({board.exponent(r, c) for r in range(board.rows) for c in range(board.cols)} - {0})
    return max(2, min(distinct - 3, 8 if board.rows * board.cols >= 12 else 6))


class Expectimax:
    """Expectimax search over moves and tile spawns, with a transposition table and cut-off.

    Args:
        time_ms: per-move time budget; the search deepens one depth at a time and keeps
            the deepest depth it finished (always at least depth 1).
        time_bank: make ``time_ms`` the mean time a move: the time a move leaves (it stops
            when its next depth would not finish) goes to the next moves, up to
            :data:`BANK_MOVES` budgets (see :func:`next_bank`). Without it a move uses
            less than its budget on average from about 20 ms up (0.8-0.9 of it), and more
            at a few milliseconds, where the first depth overruns.
        depth: a fixed depth (with ``time_ms``: the deepest depth to try). With neither,
            :func:`policy_depth` picks the depth from the board.
        weights: heuristic weights (default: :func:`~plyground.g2048.heuristic.default_weights`).
        workers: threads searching root moves in parallel (default: every core); at most
            :data:`MAX_WORKERS` are started, as a board has at most four root moves.
        p_four: the probability that a spawned tile is a 4.
        cutoff: boards reached with a smaller probability are evaluated, not searched.
        max_cells: search at most this many empty cells per spawn, drawn at random (None: all).
        tt_bits: each worker's transposition table has ``2**tt_bits`` entries.
        seed: seeds the cell sampling; the same seed gives the same decisions.
        evaluator: what values the leaves: an :class:`~plyground.g2048.evaluator.Evaluator`
            (the heuristic, the default, or an n-tuple network), or its name for
            :func:`~plyground.g2048.evaluators.load_evaluator` (``"heuristic"``,
            ``"ntuple:PATH"``). With a network, values are expected points to come: each
            move's points plus, at the horizon, the network's value of the afterstate, so
            depth 1 plays the network's greedy move. ``weights`` set the heuristic's weights
            and cannot come with another evaluator.

    Raises:
        InvalidInputError: a parameter out of range, an unknown evaluator, weights with a
            network, or a missing file.
        CorruptFileError: an unreadable network file.
    """

    def __init__(
        self,
        time_ms: float | None = None,
        depth: int | None = None,
        weights: Weights | None = None,
        workers: int | None = None,
        *,
        p_four: float = DEFAULT_P_FOUR,
        cutoff: float = DEFAULT_CUTOFF,
        max_cells: int | None = None,
        tt_bits: int = DEFAULT_TT_BITS,
        seed: int = 0,
        evaluator: Evaluator | str | None = None,
        time_bank: bool = False,
    ) -> None:
        if time_ms is not None and not (isinstance(time_ms, int | float) and 0 < time_ms < math.inf):
            raise InvalidInputError(f"time_ms must be a positive number of milliseconds, got {time_ms!r}")
        if time_bank and time_ms is None:
            raise InvalidInputError("time_bank needs a time budget: give time_ms")
        if depth is not None and not (isinstance(depth, int) and 1 <= depth <= MAX_DEPTH):
            raise InvalidInputError(f"depth must be an integer from 1 to {MAX_DEPTH}, got {depth!r}")
        if workers is not None and not (isinstance(workers, int) and workers >= 1):
            raise InvalidInputError(f"workers must be a positive integer, got {workers!r}")
        if not (isinstance(cutoff, int | float) and 0.0 <= cutoff < 1.0):
            raise InvalidInputError(f"cutoff must be a probability in [0, 1), got {cutoff!r}")
        if max_cells is not None and not (isinstance(max_cells, int) and max_cells >= 1):
            raise InvalidInputError(f"max_cells must be a positive integer or None, got {max_cells!r}")
        if not (isinstance(tt_bits, int) and 8 <= tt_bits <= 24):
            raise InvalidInputError(f"tt_bits must be an integer from 8 to 24, got {tt_bits!r}")
        if not (isinstance(seed, int) and seed >= 0):
            raise InvalidInputError(f"seed must be a non-negative integer, got {seed!r}")
        if weights is not None and not isinstance(weights, Weights):
            raise InvalidInputError(f"weights must be a Weights object, got {type(weights).__name__}")
        self.evaluator = load_evaluator(evaluator, weights=weights)
        """What values the leaves."""
        self.time_ms = time_ms
        self.time_bank = bool(time_bank)
        self.bank_ms = 0.0
        """With ``time_bank``: the time saved up by the moves so far (negative: a debt)."""
        self.depth = depth
        self.workers = min(workers if workers is not None else (os.cpu_count() or 1), MAX_WORKERS)
        """The threads that search (one per root move at most)."""
        self.p_four = check_p_four(p_four)
        self.cutoff = float(cutoff)
        self.max_cells = max_cells or 0
        self.seed = seed
        self._tt_bits = tt_bits
        self._tables: tuple[npt.NDArray[np.void], npt.NDArray[np.int64]] | None = None
        self._helper: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    @property
    def weights(self) -> Weights | None:
        """The heuristic's weights; None when another evaluator values the leaves."""
        return self.evaluator.weights if isinstance(self.evaluator, Heuristic) else None

    def _ensure_tables(self) -> tuple[npt.NDArray[np.void], npt.NDArray[np.int64]]:
        """A transposition table and counters for each job (see :func:`root_groups`), made on first use."""
        if self._tables is None:
            jobs = _max_jobs(self.workers)
            tts = np.zeros((jobs, 1 << self._tt_bits), dtype=S.TT_DTYPE)
            tts["generation"] = -1  # no entry is valid; also touches every page now, not during a timed search
            self._tables = tts, np.zeros((jobs, 4), dtype=np.int64)
        return self._tables

    def close(self) -> None:
        """Free the tables and stop the helper thread (a later :meth:`choose` makes them again)."""
        if self._helper is not None:
            self._helper.shutdown()
            self._helper = None
        self._tables = None

    def __enter__(self) -> Expectimax:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def choose(self, board: Board) -> Decision:
        """Search ``board`` and return the best move with every legal move's value.

        The first search of a board size also builds what the evaluator needs for it (the
        heuristic's table, the network's kernels: a fraction of a second), and the first
        search the transposition tables, outside the time budget.

        Raises:
            InvalidInputError: ``board`` is not a :class:`~plyground.g2048.Board`.
            InvalidBoardError: the evaluator does not play boards of this size.
        """
        if not isinstance(board, Board):
            raise InvalidInputError(f"expected a Board, got {type(board).__name__}")
        self.evaluator.check_size(board.rows, board.cols)
        self.evaluator.prepare(board.rows, board.cols)  # once per board size, outside the time budget
        with self._lock:
            self._ensure_tables()  # once, outside the time budget too
        start = time.perf_counter()
        searched = self.evaluator.searched_board(board)
        searched_or_none = searched if searched != board else None
        jobs = _board_jobs(board, self.workers)
        if not jobs:
            return Decision(None, seconds=time.perf_counter() - start, searched=searched_or_none)
        with self._lock:
            return self._search(board, jobs, start, searched_or_none)

    def _search(self, board: Board, jobs: tuple[Job, ...], start: float, searched: Board | None) -> Decision:
        tts, counters = self._ensure_tables()
        stop = np.zeros(1, dtype=np.uint8)
        search = self.evaluator.jobs_search(
            board, p_four=self.p_four, cutoff=self.cutoff, max_cells=self.max_cells, seed=self.seed
        )
        allowed_ms = None if self.time_ms is None else self.time_ms + (self.bank_ms if self.time_bank else 0.0)
        deadline = start + allowed_ms / 1000.0 if allowed_ms is not None else None
        if deadline is None:
            depths = [self.depth if self.depth is not None else policy_depth(board)]
        else:
            depths = list(range(1, (self.depth or MAX_DEPTH) + 1))
        if len(jobs) == 1 and len(jobs[0]) == 1:
            depths = depths[:1] if deadline is None else [1]  # nothing to choose: value it cheaply
        moves = _moves_array(jobs)
        found = np.zeros(moves.shape, dtype=np.float64)
        counters[:, : S.GENERATION] = 0  # the counts of this decision, all depths
        values: dict[Direction, float] = {}
        completed = 0
        previous_time = 0.0
        armed = False
        try:
            for depth in depths:
                depth_start = time.perf_counter()
                if deadline is not None and completed:
                    if depth_start + previous_time * 2.0 > deadline:
                        break  # the next depth would not finish in time
                    if not armed:  # the first depth always finishes; the others stop at the deadline
                        _ALARM.arm(deadline, stop)
                        armed = True
                long = depth >= LONG_DEPTH if deadline is None else deadline - depth_start > LONG_SECONDS
                self._run(functools.partial(search, moves, depth, tts, counters, stop, found, len(jobs)), stop, long)
                if stop[0]:
                    break  # out of time: this depth's values are not finished
                by_move = {d: float(found[j, k]) for j, job in enumerate(jobs) for k, d in enumerate(job)}
                values = {DIRECTIONS[d]: by_move[d] for d in sorted(by_move)}
                completed = depth
                previous_time = time.perf_counter() - depth_start
        finally:
            if armed:
                _ALARM.disarm(stop)
        totals = counters[: len(jobs)].sum(axis=0)
        best = max(values, key=lambda name: (values[name], -DIRECTIONS.index(name)))
        seconds = time.perf_counter() - start
        if self.time_bank and self.time_ms is not None:
            self.bank_ms = next_bank(self.bank_ms, self.time_ms, 1000.0 * seconds)
        return Decision(
            move=best,
            values=values,
            depth=completed,
            nodes=int(totals[S.NODES]),
            tt_hits=int(totals[S.TT_HITS]),
            evaluations=int(totals[S.EVALUATIONS]),
            seconds=seconds,
            searched=searched,
        )

    def _run(self, call: Callable[[], None], stop: npt.NDArray[np.uint8], long: bool) -> None:
        """Run one depth's search ``call()``: on this thread, or on the helper thread when it may be ``long``.

        A kernel running on this thread cannot be interrupted: Ctrl-C waits for it. A long search runs on
        the helper thread while this one waits, so that Ctrl-C stops it at once (through ``stop``).
        """
        if not long:
            call()
            return
        if self._helper is None:
            self._helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="expectimax")
        future = self._helper.submit(call)
        try:
            while True:
                try:  # a wait with a timeout, so that a Ctrl-C delivered to another thread is seen too
                    future.result(timeout=0.1)
                    return
                except TimeoutError:
                    pass
        except BaseException:  # Ctrl-C: the search stops at once too
            stop[0] = 1
            concurrent.futures.wait([future])
            raise
