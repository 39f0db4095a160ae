"""Expectimax search for 2048: a time budget or a fixed depth, on every core.

>>> from plyground.g2048 import Board
>>> decision = Expectimax(depth=2, workers=1).choose(Board.parse("2 2 0/0 0 0/0 0 4"))
>>> decision.move in decision.values, decision.depth
(True, 2)

A *depth* counts moves: depth 1 values each move by the heuristic value of the board it
leaves, depth 2 adds every spawn and the best reply to it, and so on. The legal root moves
are searched in groups (:func:`root_groups`): the moves of a group one after another in one
transposition table, whose entries they share (two moves often lead to the same boards a few
moves on), each group in a fresh table of its own.

**On every core, and on a busy machine.** A depth is shared out between the workers only where
that pays (:mod:`plyground.g2048.sharing`): a timed search shares out a depth predicted to take
half a millisecond or more and to finish in the time left, while sharing out has been measured to
gain; a fixed-depth search shares out from depth 4 on. Another depth runs on the calling thread
alone, every move in one table, as one worker would. A shared depth is searched by one kernel
called on the calling thread and on helper threads of :data:`~plyground.core.crew.CREW` at once:
each call takes the next group not taken yet, so a helper that the operating system does not run
(other programs want the cores) holds nothing up, and the calling thread does its groups itself.
The groups depend on the board, the number of workers and whether the depth is shared out (fixed
by the depth when no time is given), so a fixed-depth decision is the same every time for a given
number of workers.

A timed search deepens one depth at a time, the best moves of the last depth first, and stops
when a thread of its own (the alarm) sets its stop flag at the deadline. The moves that the depth
it was searching finished then keep their deeper values when they include the last depth's best
move and the best of them is still worth the most of all; otherwise the last depth's values
stand. Either way the move played is the one of the highest value (:attr:`Decision.move_depths`
says which values are one depth deeper).

The leaves are valued by an :class:`~plyground.g2048.evaluator.Evaluator` (``evaluator=``): the
heuristic or a trained n-tuple network; by default, as in the applications, the network shipped
with plyground on 4×4 and the heuristic on the other boards. A network trained by afterstate TD values an
afterstate as the expected sum of the points still to come, so with a network the search
adds the points scored along the way: a move is worth ``points + V(afterstate)`` at depth
1 (the network's own greedy choice), and deeper searches take the expectation over
spawns of the best ``points + value`` of the next move, with ``V`` at the horizon. A
board with no legal move is then worth 0 more points. The heuristic search adds no points.
"""

from __future__ import annotations

import functools
import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from plyground.core.crew import CREW
from plyground.errors import InvalidInputError
from plyground.g2048 import _search_kernels as S
from plyground.g2048.board import DEFAULT_P_FOUR, DIRECTIONS, Board, Direction, check_p_four
from plyground.g2048.evaluator import Evaluator, Leaf
from plyground.g2048.heuristic import Heuristic
from plyground.g2048.registry import NETWORK, SHIPPED_SHAPE, default_evaluator, load_evaluator
from plyground.g2048.sharing import Job, Rates, board_jobs, max_jobs, moves_array, root_groups, shares_out

if TYPE_CHECKING:
    from plyground.g2048.tablebase.leaves import TableLeaves

__all__ = ["Decision", "Expectimax", "next_bank", "policy_depth", "root_groups", "transposition_tables"]

JobsSearch: TypeAlias = Callable[[Any, int, Any, Any, Any, Any, Any], None]
"""``search(moves, depth, tts, counters, stop, values, claim)``: a board's root moves searched
``depth`` moves deep by the kernels, in jobs (see ``_search_kernels``): the moves of row ``j`` of
``moves`` (int64, then -1s) one after another in a fresh generation of the transposition table
``tts[j]``, their counts added to ``counters[j]``, their values into ``values[j]``; ``stop`` is the
search's stop flag. Each call takes the next job not taken yet (``claim[0]``) until none is left, so
several threads may call it at once to share the jobs out (``plyground.core.crew``)."""

MAX_DEPTH = 30
MAX_WORKERS = len(DIRECTIONS)
"""The most threads a search uses: each searches one root move, and a board has at most four."""
DEFAULT_CUTOFF = 1e-4
DEFAULT_TT_BITS = 20
LONG_SECONDS = 0.25
"""A timed search with more time than this left searches its next depth on helper threads (see ``_run_depth``)."""
LONG_DEPTH = 6
"""A search of a fixed depth from this one up runs on helper threads (see ``_run_depth``)."""
BANK_MOVES = 4.0
"""With ``time_bank``, at most this many moves' budgets are saved up."""
BANK_DEBT = 0.5
"""With ``time_bank``, a move that overran its time leaves a debt of at most this share of a budget."""


def transposition_tables(jobs: int, tt_bits: int = DEFAULT_TT_BITS) -> npt.NDArray[np.void]:
    """Fresh transposition tables for the search's jobs: one row of ``2**tt_bits`` entries a job, none valid.

    The ``tts`` of a :data:`JobsSearch` (:meth:`Expectimax.jobs_search`): a structured array of
    shape ``(jobs, 2**tt_bits)`` whose entries hold a board's key, value, depth and generation.
    Every page is written here (each entry marked invalid), so that none is first touched in a
    timed search.

    >>> tables = transposition_tables(2, 8)
    >>> tables.shape, sorted(tables.dtype.names), int(tables["generation"].max())
    ((2, 256), ['depth', 'generation', 'key', 'value'], -1)

    Raises:
        InvalidInputError: ``jobs`` not an integer from 1 to :data:`MAX_WORKERS`, or ``tt_bits``
            not one from 8 to 24.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_WORKERS:
        raise InvalidInputError(f"jobs must be an integer from 1 to {MAX_WORKERS}, got {jobs!r}")
    _check_tt_bits(tt_bits)
    tables = np.zeros((jobs, 1 << tt_bits), dtype=S.TT_DTYPE)
    tables["generation"] = -1
    return tables


def _check_tt_bits(tt_bits: object) -> None:
    if isinstance(tt_bits, bool) or not isinstance(tt_bits, int) or not 8 <= tt_bits <= 24:
        raise InvalidInputError(f"tt_bits must be an integer from 8 to 24, got {tt_bits!r}")


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
        depth: the deepest depth searched for every legal move (0 when no move is legal).
        move_depths: the depth of each legal move's value: ``depth``, or one more for the moves a
            search out of time had finished at the next depth (it searches the best moves first;
            see the module for when it keeps them). ``move`` is always the move of the highest value.
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
    move_depths: dict[Direction, int] = field(default_factory=dict)
    nodes: int = 0
    tt_hits: int = 0
    evaluations: int = 0
    seconds: float = 0.0
    searched: Board | None = None


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
            the deepest depth it finished (always at least depth 1), and of the depth it
            was searching the best moves it finished (see the module).
        time_bank: make ``time_ms`` the mean time a move: the time a move leaves (it stops
            when its next depth would not finish) goes to the next moves, up to
            :data:`BANK_MOVES` budgets (see :func:`next_bank`). Without it a move uses
            less than its budget on average from about 20 ms up (0.8-0.9 of it), and more
            at a few milliseconds, where the first depth overruns.
        depth: a fixed depth (with ``time_ms``: the deepest depth to try). With neither,
            :func:`policy_depth` picks the depth from the board.
        workers: threads searching root moves in parallel (default: every core); at most
            :data:`MAX_WORKERS`, as a board has at most four root moves. Depths that take
            less than half a millisecond run on the calling thread alone (see the module).
        p_four: the probability that a spawned tile is a 4.
        cutoff: boards reached with a smaller probability are evaluated, not searched.
        max_cells: search at most this many empty cells per spawn, drawn at random (None: all).
        tt_bits: each worker's transposition table has ``2**tt_bits`` entries.
        seed: seeds the cell sampling; the same seed gives the same decisions.
        evaluator: what values the leaves: an :class:`~plyground.g2048.evaluator.Evaluator`
            object (``Heuristic(weights)``, an n-tuple network; a name such as ``"ntuple:PATH"``
            is parsed by :func:`~plyground.g2048.registry.load_evaluator`). By default (None)
            the applications' default: the network shipped with plyground on 4×4 boards, read
            once a process when first needed, and the heuristic on the others
            (:meth:`evaluator_for`). With a network, values are expected points to come: each
            move's points plus, at the horizon, the network's value of the afterstate, so depth 1
            plays the network's greedy move.
        table_leaves: endgame tables weighed at the leaves
            (:class:`~plyground.g2048.tablebase.TableLeaves`): where a table fits the board
            searched, each leaf is worth the evaluator's value plus the table's weight times its
            probability of building its target. Settable between searches.

    Raises:
        InvalidInputError: a parameter out of range, or an evaluator that is not an Evaluator.
    """

    def __init__(
        self,
        time_ms: float | None = None,
        depth: int | None = None,
        *,
        workers: int | None = None,
        p_four: float = DEFAULT_P_FOUR,
        cutoff: float = DEFAULT_CUTOFF,
        max_cells: int | None = None,
        tt_bits: int = DEFAULT_TT_BITS,
        seed: int = 0,
        evaluator: Evaluator | None = None,
        time_bank: bool = False,
        table_leaves: TableLeaves | None = None,
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
        _check_tt_bits(tt_bits)
        if not (isinstance(seed, int) and seed >= 0):
            raise InvalidInputError(f"seed must be a non-negative integer, got {seed!r}")
        if evaluator is not None and not isinstance(evaluator, Evaluator):
            hint = f" (parse a name with load_evaluator({evaluator!r}))" if isinstance(evaluator, str) else ""
            raise InvalidInputError(f"evaluator must be an Evaluator object, got {type(evaluator).__name__}{hint}")
        if table_leaves is not None and not _is_table_leaves(table_leaves):
            raise InvalidInputError(f"table_leaves must be a TableLeaves, got {type(table_leaves).__name__}")
        self._evaluator = evaluator
        self.table_leaves = table_leaves
        self._heuristic: Heuristic | None = None
        self._shape = SHIPPED_SHAPE
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
        self._rates = Rates()
        self._lock = threading.Lock()

    @property
    def evaluator(self) -> Evaluator:
        """What values the leaves: the evaluator given, or by default :meth:`evaluator_for` the board size searched
        last (4×4 before any search)."""
        return self.evaluator_for(*self._shape)

    def evaluator_for(self, rows: int, cols: int) -> Evaluator:
        """What values the leaves on boards of ``rows`` x ``cols``: the evaluator given, or by default the
        network shipped with plyground on the board it plays (read once a process, on first use), the
        heuristic elsewhere (see :func:`~plyground.g2048.registry.default_evaluator`).

        Raises:
            InvalidInputError: the shipped network is needed and missing.
            CorruptFileError: the shipped network is needed and unreadable.
        """
        if self._evaluator is not None:
            return self._evaluator
        if default_evaluator(rows, cols) == NETWORK:
            return load_evaluator(NETWORK, reuse=True)
        if self._heuristic is None:
            self._heuristic = Heuristic()
        return self._heuristic

    def _ensure_tables(self) -> tuple[npt.NDArray[np.void], npt.NDArray[np.int64]]:
        """A transposition table and counters for each job (see :func:`root_groups`), made on first use."""
        if self._tables is None:
            jobs = max_jobs(self.workers)
            self._tables = transposition_tables(jobs, self._tt_bits), np.zeros((jobs, 4), dtype=np.int64)
        return self._tables

    def close(self) -> None:
        """Free the tables (a later :meth:`choose` makes them again)."""
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
        evaluator = self.evaluator_for(board.rows, board.cols)
        evaluator.check_size(board.rows, board.cols)
        evaluator.prepare(board.rows, board.cols)  # once per board size, outside the time budget
        if self.table_leaves is not None:  # its search compiled (or read from the cache) outside the budget too
            S.search_kernel(self.table_leaves.kernels(evaluator.leaf(board.rows, board.cols)))
        with self._lock:
            self._ensure_tables()  # once, outside the time budget too
            self._shape = (board.rows, board.cols)
        start = time.perf_counter()
        if not board_jobs(board, 1):
            searched = evaluator.searched_board(board)
            return Decision(None, seconds=time.perf_counter() - start, searched=searched if searched != board else None)
        with self._lock:
            return self._search(board, evaluator, start)

    def plan(self, board: Board, evaluator: Evaluator) -> tuple[Board, Leaf]:
        """The board a search of ``board`` plays and its leaves: the evaluator's
        :meth:`~plyground.g2048.evaluator.Evaluator.searched_board` (a network's downgraded board: the same
        moves are legal) and leaf; with :attr:`table_leaves` and a table that fits ``board``, ``board`` itself (a
        downgraded board's halved tiles would merge with the region's) and the leaf that weighs the table and
        shows the evaluator each leaf downgraded as the root is
        (see :class:`~plyground.g2048.tablebase.TableLeaves`)."""
        leaf, searched = evaluator.leaf(board.rows, board.cols), evaluator.searched_board(board)
        if self.table_leaves is not None:
            leaf = self.table_leaves.leaf(board, searched, leaf)
            if self.table_leaves.last is not None:
                return board, leaf
        return searched, leaf

    def jobs_search(self, board: Board, evaluator: Evaluator, planned: tuple[Board, Leaf] | None = None) -> JobsSearch:
        """The kernel search of ``board``'s root moves with ``evaluator`` at the leaves and this AI's settings.

        It searches the board and leaves of :meth:`plan` (``planned``: what it gave). The board is checked by
        the caller.
        """
        searched, leaf = planned if planned is not None else self.plan(board, evaluator)
        kernel = S.search_kernel(leaf.kernels)
        bits, rows, cols = np.uint64(searched.bits), board.rows, board.cols
        data, lost, scratch = leaf.data, leaf.lost, leaf.scratch
        p_four, cutoff, max_cells, seed = self.p_four, self.cutoff, self.max_cells, np.uint64(self.seed)

        def search(moves: Any, depth: int, tts: Any, counters: Any, stop: Any, values: Any, claim: Any) -> None:
            kernel(
                bits, moves, depth, rows, cols, data, p_four, cutoff, lost, max_cells, seed, scratch, tts, counters,
                stop, values, claim,
            )  # fmt: skip

        return search

    def _search(self, board: Board, evaluator: Evaluator, start: float) -> Decision:
        counters = self._ensure_tables()[1]
        stop = np.zeros(1, dtype=np.uint8)
        planned = self.plan(board, evaluator)
        search = self.jobs_search(board, evaluator, planned)
        allowed_ms = None if self.time_ms is None else self.time_ms + (self.bank_ms if self.time_bank else 0.0)
        deadline = start + allowed_ms / 1000.0 if allowed_ms is not None else None
        if deadline is None:
            depths = [self.depth if self.depth is not None else policy_depth(board)]
        else:
            depths = list(range(1, (self.depth or MAX_DEPTH) + 1))
        alone = board_jobs(board, 1)  # one job: every legal move, in one table
        shared = board_jobs(board, self.workers)
        if len(alone[0]) == 1:
            depths = depths[:1] if deadline is None else [1]  # nothing to choose: value it cheaply
        counters[:, : S.GENERATION] = 0  # the counts of this decision, all depths
        values: dict[int, float] = {}  # by index into DIRECTIONS, at the completed depth
        move_depths: dict[int, int] = {}
        completed = 0
        times: list[float] = []
        armed = False
        try:
            for depth in depths:
                depth_start = time.perf_counter()
                if deadline is not None and completed:
                    if depth_start + times[-1] * 2.0 > deadline:
                        break  # the next depth would not finish in time
                    if not armed:  # the first depth always finishes; the others stop at the deadline
                        _ALARM.arm(deadline, stop)
                        armed = True
                left = None if deadline is None else deadline - depth_start
                share = len(shared) > 1 and shares_out(depth, times, left, self._rates.speedup)
                if share and left is not None and not self._rates.pays:  # measured not to pay: now and then, again
                    share = self._rates.retry()
                jobs = shared if share else alone
                if values:  # the best moves first: a depth cut short has searched them
                    jobs = _best_first(jobs, values)
                long = depth >= LONG_DEPTH if deadline is None else deadline - depth_start > LONG_SECONDS
                nodes = int(counters[:, S.NODES].sum())
                found = self._run_depth(search, jobs, depth, stop, long)
                if left is not None:
                    nodes = int(counters[:, S.NODES].sum()) - nodes
                    self._rates.record(share, nodes, time.perf_counter() - depth_start)
                searched_moves = {d: value for d, value in found.items() if not math.isnan(value)}
                if len(searched_moves) < len(found):  # out of time: keep what this depth finished, if it says more
                    merged = values | searched_moves
                    if _best(values) in searched_moves and _best(merged) in searched_moves:
                        values = merged
                        move_depths.update(dict.fromkeys(searched_moves, depth))
                    break
                values, move_depths = searched_moves, dict.fromkeys(searched_moves, depth)
                completed = depth
                times.append(time.perf_counter() - depth_start)
        finally:
            if armed:
                _ALARM.disarm(stop)
        totals = counters.sum(axis=0)
        best = _best(values)
        seconds = time.perf_counter() - start
        if self.time_bank and self.time_ms is not None:
            self.bank_ms = next_bank(self.bank_ms, self.time_ms, 1000.0 * seconds)
        return Decision(
            move=DIRECTIONS[best],
            values={DIRECTIONS[d]: values[d] for d in sorted(values)},
            depth=completed,
            move_depths={DIRECTIONS[d]: move_depths[d] for d in sorted(move_depths)},
            nodes=int(totals[S.NODES]),
            tt_hits=int(totals[S.TT_HITS]),
            evaluations=int(totals[S.EVALUATIONS]),
            seconds=seconds,
            searched=planned[0] if planned[0] != board else None,
        )

    def _run_depth(
        self, search: JobsSearch, jobs: tuple[Job, ...], depth: int, stop: npt.NDArray[np.uint8], long: bool
    ) -> dict[int, float]:
        """Search the root moves of ``jobs`` ``depth`` moves deep: each move's value (NaN: cut short by ``stop``).

        The calling thread searches, and up to one helper a job more join it (:data:`~plyground.core.crew.CREW`);
        a search that may be ``long`` runs on helpers alone while this thread waits, so that Ctrl-C stops it
        at once (through ``stop``): a kernel running on this thread cannot be interrupted.
        """
        tts, counters = self._ensure_tables()
        moves = moves_array(jobs)
        found = np.full(moves.shape, np.nan)
        claim = np.zeros(1, dtype=np.int64)
        threads = min(len(jobs), self.workers)

        def interrupt() -> None:
            stop[0] = 1

        CREW.run(
            functools.partial(search, moves, depth, tts, counters, stop, found, claim),
            threads if long else threads - 1,
            join=not long,
            on_interrupt=interrupt,
        )
        return {d: float(found[j, k]) for j, job in enumerate(jobs) for k, d in enumerate(job)}


def _best(values: dict[int, float]) -> int:
    """The move (an index into DIRECTIONS) of the highest value; of equal values, the first in DIRECTIONS."""
    return max(values, key=lambda d: (values[d], -d))


def _best_first(jobs: tuple[Job, ...], values: dict[int, float]) -> tuple[Job, ...]:
    """``jobs`` with each job's moves from the best by ``values`` to the worst, the job of the best move first."""
    ordered = [tuple(sorted(job, key=lambda d: (-values[d], d))) for job in jobs]
    return tuple(sorted(ordered, key=lambda job: (-values[job[0]], job[0])))


def _is_table_leaves(value: object) -> bool:
    from plyground.g2048.tablebase.leaves import TableLeaves  # here: a search without tables never loads them

    return isinstance(value, TableLeaves)
