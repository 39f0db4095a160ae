"""Alpha-beta search for k-in-a-row: depth-limited negamax with a transposition table and a line heuristic.

A *depth* counts plies: depth 1 values each move by the position it leaves, depth 2 adds
the opponent's best reply, and so on. Leaves are valued by a heuristic over every window
of k cells in a line (see :mod:`plyground.kinrow._alphabeta_kernels`); a win ``p`` plies
ahead is worth :data:`WIN_VALUE` ``- p`` (ply 1 is the move chosen), a loss the opposite,
so the search takes the fastest win and puts off a loss. Moves are searched best first
(the transposition table's move, then by how much they change the heuristic), and the
search deepens one ply at a time up to ``depth``; with a time budget (``time_ms``) it stops at the
deadline and keeps the deepest depth it finished.

On boards up to 6×6 every empty cell is a candidate move; on larger boards only the
empty cells within two steps of a stone (the centre on an empty board). Blocked cells are
never candidates and no window through one counts. The search plays free-style and
standard (an overline does not win); it refuses renju, whose forbidden points it does not
know.

>>> from plyground.kinrow import State
>>> AlphaBeta(depth=2).search(State.parse("XX./OO./...", k=3), 1)
(2, 4503599627370495.0)
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import _alphabeta_kernels as A
from plyground.kinrow._table_kernels import TABLE_DTYPE
from plyground.kinrow.board import State, zobrist
from plyground.kinrow.budget import check_time_ms
from plyground.kinrow.protocol import Player, SearchReport
from plyground.kinrow.rules import Rule

__all__ = ["WIN_VALUE", "AlphaBeta", "SearchInfo"]

WIN_VALUE = float(A.WIN)
"""The value of a win on the spot: a value of ``WIN_VALUE - p`` is a forced win in ``p`` plies."""
WON_VALUE = float(A.WON)
"""Values at or above are forced wins, at or below ``-WON_VALUE`` forced losses; the heuristic stays below."""
MAX_DEPTH = 64
FULL_WIDTH_N = 6
"""Up to this board side, every empty cell is a candidate move."""
NEAR_RADIUS = 2
"""On larger boards, the candidate moves are the empty cells within this many king steps of a stone."""


@dataclass(frozen=True)
class SearchInfo:
    """What the last search did.

    Attributes:
        move: the move chosen.
        value: its value at ``depth`` for the player to move (see :data:`WIN_VALUE`).
        depth: the deepest depth finished.
        nodes: positions searched (all depths, an interrupted one included).
        tt_hits: positions whose value the transposition table gave.
        seconds: wall-clock time of the search.
    """

    move: int
    value: float
    depth: int
    nodes: int
    tt_hits: int
    seconds: float


def _check_depth(depth: object, *, optional: bool) -> int | None:
    if depth is None and optional:
        return None
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise InvalidInputError(f"depth must be an integer from 1 to {MAX_DEPTH}, got {depth!r}")
    return depth


def _check_state(state: object) -> State:
    if not isinstance(state, State):
        raise InvalidInputError(f"expected a k-in-a-row State, got {type(state).__name__}")
    if state.rule is Rule.RENJU:
        raise InvalidInputError("alphabeta plays free-style and standard; use the engine player for renju")
    if state.is_over:
        raise IllegalMoveError("the game is over: there is no move to choose")
    return state


class AlphaBeta(Player):
    """Depth-limited negamax with alpha-beta pruning, move ordering and a transposition table.

    Args:
        depth: plies to search (with ``time_ms``: the deepest depth to try; None: no
            limit but the budget).
        time_ms: milliseconds per move (finite, up to an hour), or None; may be changed
            between moves.
        tt_bits: the transposition table has ``2**tt_bits`` entries (16 bytes each), kept
            from move to move and cleared by :meth:`reset`.

    Raises:
        InvalidInputError: a parameter out of range, or no depth and no time budget.
    """

    name = "alphabeta"

    def __init__(
        self,
        depth: int | None = 2,
        *,
        time_ms: float | None = None,
        tt_bits: int = 20,
    ) -> None:
        if isinstance(tt_bits, bool) or not isinstance(tt_bits, int) or not 8 <= tt_bits <= 26:
            raise InvalidInputError(f"tt_bits must be an integer from 8 to 26, got {tt_bits!r}")
        self._depth = _check_depth(depth, optional=True)
        self._time_ms = check_time_ms(time_ms)
        if self._depth is None and self._time_ms is None:
            raise InvalidInputError("an alpha-beta player needs a depth, a time budget or both")
        self.tt_bits = tt_bits
        self.last: SearchInfo | None = None
        self._tt: npt.NDArray[np.void] | None = None
        self._shape: tuple[int, int, Rule] | None = None
        self._stopping = False  # stop() was called: the search in progress, or the next one, ends now
        self._running: npt.NDArray[np.uint8] | None = None  # the stop flag of the search in progress

    @property
    def depth(self) -> int | None:
        """Plies to search (with a time budget: at most); None: as deep as the time budget allows."""
        return self._depth

    @depth.setter
    def depth(self, depth: int | None) -> None:
        depth = _check_depth(depth, optional=self._time_ms is not None)
        self._depth = depth

    @property
    def time_ms(self) -> float | None:
        """Milliseconds per move, or None (search ``depth`` plies, however long it takes)."""
        return self._time_ms

    @time_ms.setter
    def time_ms(self, time_ms: float | None) -> None:
        self._set_time_ms(check_time_ms(time_ms))

    def _set_time_ms(self, time_ms: float | None) -> None:
        if time_ms is None and self._depth is None:
            raise InvalidInputError("an alpha-beta player without a depth needs a time budget")
        self._time_ms = time_ms

    def reset(self) -> None:
        """Forget the previous game: the transposition table is let go (the next search makes a new one)."""
        self._tt = None

    def set_memory(self, memory: int) -> None:
        """Bound the transposition table to ``memory`` bytes (0: the default, 2**20 entries); from the next search.

        The table has the most entries that fit (a power of two, 2**8 to 2**26, 16 bytes each).

        Raises:
            InvalidInputError: not a whole number, negative, or under the smallest table (6 kB).
        """
        if isinstance(memory, bool) or not isinstance(memory, int) or memory < 0:
            raise InvalidInputError(f"memory must be a whole number of bytes, got {memory!r}")
        entry = TABLE_DTYPE.itemsize
        if 0 < memory < entry << 8:
            raise InvalidInputError(f"alpha-beta needs at least {entry << 8} bytes of table, got {memory}")
        self.tt_bits = 20 if memory == 0 else min((memory // entry).bit_length() - 1, 26)
        self._tt = None

    def report(self) -> SearchReport:
        """The last search's depth, nodes and time (forced: no search ran)."""
        last = self.last
        if last is None:
            return SearchReport(forced=True)
        return SearchReport(last.move, figures={"depth": last.depth, "nodes": last.nodes, "seconds": last.seconds})

    def stop(self) -> None:
        """Make the search in progress, or the next one, end within about a millisecond.

        Safe to call from another thread (a driver that must answer now). The search keeps
        the deepest depth it finished (depth 1 always finishes, in microseconds) and
        :meth:`choose` returns its move; the request is used up when the move is chosen.
        """
        self._stopping = True  # first, so that a search starting now sees it (see _deepen)
        running = self._running
        if running is not None:
            running[0] = 1

    def choose(self, state: State) -> int:
        """The move to play: an immediate win, else a block, else the best move found by the search.

        Raises:
            InvalidInputError: ``state`` is not a :class:`~plyground.kinrow.board.State`.
            IllegalMoveError: the game is over.
        """
        try:
            _check_state(state)
            forced = state.forced_move()
            if forced is not None:
                self.last = None
                return forced
            return self._deepen(state, self._depth or MAX_DEPTH, self._time_ms).move
        finally:
            self._stopping = False

    def search(self, state: State, depth: int) -> tuple[int, float]:
        """The best move of ``state`` and its value for the player to move, searched ``depth`` plies.

        No time budget and no forced-move shortcut: the search alone (it finds an immediate
        win at depth 1 and the block of one at depth 2). Equal to plain minimax over the
        same candidate moves, with the same heuristic at the leaves. After :meth:`stop`,
        the deepest depth finished instead.

        Raises:
            InvalidInputError: ``state`` is not a State, or ``depth`` out of range.
            IllegalMoveError: the game is over.
        """
        try:
            _check_state(state)
            checked = _check_depth(depth, optional=False)
            assert checked is not None
            info = self._deepen(state, checked, None)
            return info.move, info.value
        finally:
            self._stopping = False

    def _table(self, state: State) -> npt.NDArray[np.void]:
        """The transposition table, cleared when the board size, k or the rule changed."""
        if self._tt is None:
            self._tt = np.zeros(1 << self.tt_bits, dtype=TABLE_DTYPE)
            self._tt["depth"] = -1  # no entry is valid; also touches every page now, not during a search
        elif self._shape != (state.n, state.k, state.rule):
            self._tt["depth"] = -1
        self._shape = (state.n, state.k, state.rule)
        return self._tt

    def _deepen(self, state: State, max_depth: int, time_ms: float | None) -> SearchInfo:
        """Iterative deepening from depth 1 to ``max_depth`` (stopping early on a forced result or at the deadline)."""
        tt = self._table(state)
        start = time.perf_counter()
        n, k, player, rule = state.n, state.k, state.to_move, int(state.rule)
        cells = np.array(state.cells)  # the kernels play and undo on their own copy
        radius = 0 if n <= FULL_WIDTH_N else NEAR_RADIUS
        empty = int(np.count_nonzero(cells == 0))  # blocked cells are not empty
        zob = zobrist(n)
        stop = np.zeros(1, dtype=np.uint8)  # set at the deadline, or by stop()
        self._running = stop
        if self._stopping:  # after setting _running: a stop() at any moment is seen (it sets _stopping first)
            stop[0] = 1
        never = np.zeros(1, dtype=np.uint8)  # depth 1 always finishes
        stats = np.zeros(3, dtype=np.int64)
        nodes = hits = 0
        timer: threading.Timer | None = None
        move, value, finished = -1, 0, 0
        try:
            for depth in range(1, min(max_depth, empty) + 1):
                if time_ms is not None and depth == 2:  # depth 1 always finishes; deeper ones stop at the deadline
                    remaining = start + time_ms / 1000 - time.perf_counter()
                    if remaining <= 0:
                        break
                    timer = threading.Timer(remaining, stop.fill, args=(1,))
                    timer.daemon = True
                    timer.start()
                stats[:] = 0
                flag = never if depth == 1 else stop
                result = int(A._search(cells, n, k, rule, radius, player, zob, depth, tt, flag, stats))
                nodes += int(stats[A.NODES])
                hits += int(stats[A.TT_HITS])
                if flag[0]:
                    break
                move, value, finished = int(stats[A.BEST]), result, depth
                if abs(result) >= A.WON:  # a forced win or loss: deeper searches see the same
                    break
        finally:
            self._running = None
            if timer is not None:
                timer.cancel()
        if not (0 <= move < n * n and cells[move] == 0):
            raise AssertionError(f"alpha-beta chose {move}, not an empty cell of {state.to_text()}")
        self.last = SearchInfo(move, float(value), finished, nodes, hits, time.perf_counter() - start)
        return self.last
