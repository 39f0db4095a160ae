"""Monte Carlo tree search (UCT) for k-in-a-row, sharing statistics between symmetric positions.

Each iteration walks down the tree choosing the child with the best
``wins / visits + c * sqrt(ln(parent visits) / visits)`` (an unvisited child first),
expands a leaf with all its empty cells, plays a random game out from the new position
(in numba), and adds the result to every position on the way. Statistics are kept per
*position* in a table keyed by the smallest Zobrist key of the position's 8 symmetric
images, so a position and its rotations and reflections share what was learnt, wherever
they occur in the tree; the tree's structure stays local. ``symmetry=False`` keys the
table by the plain position key instead. The move played is the most visited child.

**Patterns** (``patterns=True``, the default for k of 4 or 5 on boards from 9×9): the
tree's children and the playouts read the line patterns of
:mod:`plyground.kinrow.patterns`. A node's children are the cells near stones (only the
five, or the block of the opponent's five, or the answers to an open three, when there is
one), each with a prior from what the cell makes for both players; selection is PUCT,
``q + c * prior * sqrt(parent visits) / (1 + visits)``; playouts take fives, block fives
and answer threes, and otherwise pick near cells with probabilities proportional to their
worth (see :mod:`plyground.kinrow._mcts_pattern_kernels`). ``patterns=False`` is the plain
UCT above, on every cell.

Blocked cells are never children, and they are part of the keys: a symmetry that does not
map them onto themselves relates no two positions of the search, so only the symmetries
of the blocked cells are shared. Playouts and wins follow the state's rule, free-style or
standard (exactly k); renju, with its forbidden points, is refused.

>>> from plyground.kinrow import State
>>> state = State.parse("XX./OO./...", k=3)
>>> MCTS(iterations=200, seed=1).choose(state)   # the immediate win
2
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.core.seeding import resolve_seed
from plyground.core.symmetry import permutations
from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import _mcts_kernels as M
from plyground.kinrow import _mcts_pattern_kernels as PM
from plyground.kinrow._pattern_kernels import CHANGING
from plyground.kinrow.board import State, zobrist
from plyground.kinrow.budget import check_time_ms
from plyground.kinrow.patterns import MAX_K, PatternBoard
from plyground.kinrow.protocol import Player, SearchReport
from plyground.kinrow.rules import Rule

__all__ = ["MCTS", "SearchStats"]

_BATCH_SECONDS = 0.02  # a timed search checks the clock this often


@dataclass(frozen=True)
class SearchStats:
    """What the last search did: iterations, nodes, table entries, seconds, the root's children, patterns or not."""

    iterations: int
    nodes: int
    table_entries: int
    seconds: float
    visits: dict[int, float]
    win_rates: dict[int, float]
    patterns: bool = False


class MCTS(Player):
    """UCT search with random playouts, or PUCT with pattern priors and pattern-guided playouts.

    Args:
        iterations: iterations per move (with ``time_ms``: at most this many).
        time_ms: milliseconds per move (finite, up to an hour); may be changed between
            moves. With neither, 2,000 iterations.
        c: the exploration constant (√2 by default; with patterns, the weight of the priors).
        symmetry: share statistics between symmetric positions.
        patterns: guide the tree and the playouts by line patterns (k from 3 to 5); None (the
            default): on for k of 4 or 5 on boards of 9×9 and more, off otherwise.
        seed: seeds the playouts; the same seed gives the same moves at a fixed iteration count.

    Raises:
        InvalidInputError: a parameter out of range.
    """

    PATTERN_MIN_N = 9
    """The smallest board on which ``patterns=None`` turns patterns on (for k of 4 or 5)."""

    DEFAULT_ITERATIONS = 2000

    def __init__(
        self,
        iterations: int | None = None,
        *,
        time_ms: float | None = None,
        c: float = math.sqrt(2),
        symmetry: bool = True,
        patterns: bool | None = None,
        seed: int | None = None,
    ) -> None:
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise InvalidInputError(f"iterations must be a positive integer, got {iterations!r}")
        if not (isinstance(c, int | float) and c >= 0):
            raise InvalidInputError(f"c must be a non-negative number, got {c!r}")
        if patterns is not None and not isinstance(patterns, bool):
            raise InvalidInputError(f"patterns must be True, False or None, got {patterns!r}")
        self.name = "mcts"
        self.iterations = iterations
        self._time_ms = check_time_ms(time_ms)
        self.c = float(c)
        self.symmetry = bool(symmetry)
        self.patterns = patterns
        self.seed = resolve_seed(seed)
        self._rng = np.array([self.seed], dtype=np.uint64)
        self._stop = np.zeros(1, dtype=np.uint8)  # set by stop(), from any thread; cleared when a move is chosen
        self.last: SearchStats | None = None

    @property
    def time_ms(self) -> float | None:
        """Milliseconds per move, or None (``iterations`` per move)."""
        return self._time_ms

    @time_ms.setter
    def time_ms(self, time_ms: float | None) -> None:
        self._time_ms = check_time_ms(time_ms)

    def uses_patterns(self, state: State) -> bool:
        """Whether a search of ``state`` reads line patterns (see ``patterns``).

        Raises:
            InvalidInputError: ``patterns=True`` and k outside 3 to 5.
        """
        if self.patterns is None:
            return 4 <= state.k <= MAX_K and state.n >= self.PATTERN_MIN_N
        if self.patterns and not 3 <= state.k <= MAX_K:
            raise InvalidInputError(f"mcts patterns know lines of 3 to {MAX_K} stones, got k = {state.k}")
        return self.patterns

    def reset(self) -> None:
        """Nothing is kept between moves; the playout stream goes on."""

    def report(self) -> SearchReport:
        """The last search's iterations and time, and its visits of each root move (forced: no search ran)."""
        last = self.last
        if last is None:
            return SearchReport(forced=True)
        return SearchReport(figures={"iterations": last.iterations, "seconds": last.seconds}, visits=last.visits)

    def stop(self) -> None:
        """Make the search in progress, or the next one, end within about a millisecond.

        Safe to call from another thread (a driver that must answer now). The search ends
        after the iteration it is in (it runs at least one) and :meth:`choose` returns the
        most visited move so far; the request is used up when the move is chosen.
        """
        self._stop[0] = 1

    def choose(self, state: State) -> int:
        """The move to play: an immediate win, else a block, else the most visited root child.

        Raises:
            InvalidInputError: a renju game.
            IllegalMoveError: the game is over.
        """
        try:
            _check_rule(state)
            if state.is_over:
                raise IllegalMoveError("the game is over: there is no move to choose")
            forced = state.forced_move()
            if forced is not None:
                self.last = None
                return forced
            stats = self._search(state)
            return max(stats.visits, key=lambda move: (stats.visits[move], -move))
        finally:
            self._stop[0] = 0

    def search(self, state: State) -> SearchStats:
        """Run the search from ``state`` and return its statistics (the root's children and their visits)."""
        try:
            return self._search(state)
        finally:
            self._stop[0] = 0

    def _search(self, state: State) -> SearchStats:
        _check_rule(state)
        if state.is_over:
            raise IllegalMoveError("the game is over: there is nothing to search")
        limit = self.iterations
        if limit is None and self._time_ms is None:
            limit = self.DEFAULT_ITERATIONS
        deadline = time.perf_counter() + self._time_ms / 1000 if self._time_ms is not None else None
        tree = _Tree(state, self.symmetry, self.uses_patterns(state))
        start = time.perf_counter()
        done, batch = 0, 64
        while limit is None or done < limit:
            want = batch if limit is None else min(batch, limit - done)
            tree.make_room()
            t0 = time.perf_counter()
            done += tree.run(want, self.c, self._rng, self._stop)
            if self._stop[0]:
                break
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                spent = max(now - t0, 1e-6)  # aim for batches of about _BATCH_SECONDS, never past the deadline
                batch = max(1, min(int(want * _BATCH_SECONDS / spent) + 1, int(want * (deadline - now) / spent) + 1))
        self.last = tree.stats(done, time.perf_counter() - start)
        return self.last


def _check_rule(state: State) -> None:
    if state.rule is Rule.RENJU:
        raise InvalidInputError("mcts plays free-style and standard; use the engine player for renju")


class _Tree:
    """The arrays of one search."""

    keys: npt.NDArray[np.uint64]
    visits: npt.NDArray[np.float64]
    wins: npt.NDArray[np.float64]

    def __init__(self, state: State, symmetry: bool, patterns: bool = False) -> None:
        n = state.n
        self.state, self.n, self.symmetry, self.patterns = state, n, symmetry, patterns
        self.board = PatternBoard(state) if patterns else None
        self.perm = permutations(n).copy()  # writable copies: the kernels' signatures take plain arrays
        self.zob = zobrist(n).copy()
        self.cells = state.cells.copy()
        self.hashes = np.zeros(8, dtype=np.uint64)
        for move in np.flatnonzero(self.cells):
            M._toggle(self.hashes, int(move), int(self.cells[move]), self.perm, self.zob)
        self.sizes = np.array([1, 0], dtype=np.int64)
        self._allocate_nodes(max(4096, 8 * n * n))
        self._allocate_table(1 << 14)
        self.node_key[0] = M._key(self.hashes, symmetry)
        self.node_slot[0] = M._slot(self.keys, self.node_key[0], self.sizes)
        self.node_result[0] = 0

    def _allocate_nodes(self, capacity: int) -> None:
        used = int(self.sizes[0]) if hasattr(self, "node_move") else 0

        def grown(name: str, dtype: type[np.generic]) -> npt.NDArray[Any]:
            new = np.zeros(capacity, dtype=dtype)
            if used:
                new[:used] = getattr(self, name)[:used]
            return new

        self.node_move = grown("node_move", np.int32)
        self.node_first = grown("node_first", np.int32)
        self.node_count = grown("node_count", np.int32)
        self.node_result = grown("node_result", np.int8)
        self.node_slot = grown("node_slot", np.int64)
        self.node_key = grown("node_key", np.uint64)
        self.node_prior = grown("node_prior", np.float64)

    def _allocate_table(self, capacity: int) -> None:
        keys = np.zeros(capacity, dtype=np.uint64)
        visits = np.zeros(capacity, dtype=np.float64)
        wins = np.zeros(capacity, dtype=np.float64)
        if hasattr(self, "keys"):
            old = (self.keys, self.visits, self.wins)
            M._rehash(*old, keys, visits, wins, self.node_key, self.node_slot, int(self.sizes[0]))
        self.keys, self.visits, self.wins = keys, visits, wins

    def make_room(self) -> None:
        """Grow the arrays so that a batch can run (the kernel stops early when they fill up)."""
        cells = self.n * self.n
        if self.sizes[0] + 64 * cells > self.node_move.shape[0]:
            self._allocate_nodes(2 * self.node_move.shape[0] + 64 * cells)
        if 2 * (self.sizes[1] + 64 * cells) > self.keys.shape[0]:
            self._allocate_table(1 << int(4 * (self.sizes[1] + 64 * cells) - 1).bit_length())

    def run(self, iterations: int, c: float, rng: npt.NDArray[np.uint64], stop: npt.NDArray[np.uint8]) -> int:
        """Run ``iterations`` iterations, growing the arrays; fewer (at least one) once ``stop[0]`` is set."""
        done = 0
        while done < iterations:
            ran = self._iterate(iterations - done, c, rng, stop)
            done += ran
            if done and stop[0]:
                break
            if done < iterations:
                cells = self.n * self.n
                self._allocate_nodes(2 * self.node_move.shape[0] + 64 * cells)
                self._allocate_table(1 << int(4 * (self.sizes[1] + 64 * cells) - 1).bit_length())
        return done

    def arrays(self) -> M.TreeArrays:
        """The tree's arrays, as the search kernel takes them (they change when the tree grows)."""
        return M.TreeArrays(
            self.node_move, self.node_first, self.node_count, self.node_result, self.node_slot, self.node_key,
            self.node_prior, self.keys, self.visits, self.wins, self.sizes,
        )  # fmt: skip

    def _iterate(self, iterations: int, c: float, rng: npt.NDArray[np.uint64], stop: npt.NDArray[np.uint8]) -> int:
        """One call of the search kernel, with the pattern policy or the plain one."""
        search: Any
        root: tuple[npt.NDArray[Any], ...]
        data: tuple[Any, ...]
        if self.board is not None:
            arrays = self.board.arrays()
            search, root, data = PM._iterate_patterns, arrays[:CHANGING], arrays[CHANGING:]
        else:
            search, root, data = M._iterate_plain, (self.cells,), (self.n, self.state.k, int(self.state.rule))
        return int(
            search(
                root, data, self.hashes, self.n, self.state.to_move, iterations, self.perm, self.zob, c,
                self.symmetry, self.node_move.shape[0], self.arrays(), rng, stop,
            )
        )  # fmt: skip

    def stats(self, iterations: int, seconds: float) -> SearchStats:
        first, count = int(self.node_first[0]), int(self.node_count[0])
        visits: dict[int, float] = {}
        win_rates: dict[int, float] = {}
        for i in range(first, first + count):
            move, slot = int(self.node_move[i]), int(self.node_slot[i])
            visits[move] = float(self.visits[slot]) if slot >= 0 else 0.0
            win_rates[move] = float(self.wins[slot] / self.visits[slot]) if slot >= 0 and self.visits[slot] else 0.0
        return SearchStats(
            iterations, int(self.sizes[0]), int(self.sizes[1]), seconds, visits, win_rates, self.patterns
        )
