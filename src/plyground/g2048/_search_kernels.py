"""Numba kernels of the 2048 expectimax search, one search for every evaluator.

The search alternates chance nodes (a tile spawns on an empty cell) and move nodes (the
player picks the best move) over *afterstates*, the boards right after a move. Only chance
nodes are kernels: the move node is the loop over the four moves inside. The leaves are
valued by the evaluator's *leaf kernels* (:class:`LeafKernels`); :func:`search_kernel`
compiles this module's search for them, so there is one search, written once, and a compiled
copy of it for each kind of evaluator (the heuristic, the n-tuple network), each with its
leaf compiled in.

A leaf kernel values afterstates in two steps, so that the memory loads of several leaves
overlap: ``start(after, rows, cols, data, ints, floats, i)`` begins valuing ``after`` in the
scratch slot ``i`` (it may only ask for the loads it will need), ``value(data, ints, floats,
i)`` returns its value. ``data`` is the evaluator's tuple of tables and numbers; ``ints``
holds ``scratch`` int64 a slot, ``floats`` one float64 a slot. Its settings, compiled in:

* ``points`` - its values are the points still to come (an n-tuple network trained by
  afterstate TD): a move is then worth the points it scores plus the value of the afterstate
  it leaves; otherwise (the heuristic) the value of the afterstate alone.
* ``cached`` - the leaves' values are kept in the transposition table too, as entries of
  depth 0, read back only as a leaf's value (a searched entry is never taken for a leaf, nor
  a leaf for a searched one, so no value changes), and written only where they evict no
  searched entry of the current search. Worth it where a leaf costs more than a table read
  (the network: 70% of the leaves of a depth-3 search are repeats, a spawn that slides away
  leaving the same afterstate as its neighbour).

A move node whose children are all leaves (the last depth, or below the probability
cut-off) values its moves together (``_leaves``). A board with no legal move is worth
``lost`` (the heuristic's penalty; 0 more points for a network).

State shared by one search lives in arrays owned by the caller:

* ``tt`` - the transposition table, a record array (``TT_DTYPE``) indexed by a hash of
  the afterstate; an entry holds the board, its value, the depth it was searched to and
  the generation that wrote it. Bumping the generation clears the table for free.
* ``counters`` - int64 ``[nodes, tt_hits, evaluations, generation]`` of this worker: a node
  is a chance node entered or a leaf valued, an evaluation a leaf kernel's value.
* ``stop`` - uint8 ``[flag]``, set by another thread when the time budget is spent; the
  search then unwinds at once and its result is thrown away.

A decision searches its root moves in *jobs* (``_search_jobs``): a row of ``moves`` holds
the moves of one job (then -1s), searched one after another in the job's own table
(``tts[j]``, counters ``counters[j]``). Several threads may run ``_search_jobs`` at once
on the same arrays: each takes the next job not taken yet (``claim[0]``, with an atomic
add) until none is left, so the jobs are shared out between the threads that run, and a
thread that starts late takes none.

Kernels do no validation; :mod:`plyground.g2048.expectimax` does. The slow twins are
``tests/naive/expectimax_2048.py`` (the heuristic) and ``tests/naive/expectimax_ntuple.py``
(a network), with no table, no cut-off and no sampling.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import from_dtype, types

from plyground._jit import copy_template, fetch_add, kernel
from plyground.core.splitmix import GOLDEN
from plyground.g2048._kernels import _empty_bits, _mix64, _move, _pick_cell, _points, _popcount

TT_DTYPE = np.dtype([("key", np.uint64), ("value", np.float64), ("depth", np.int32), ("generation", np.int32)])
NODES, TT_HITS, EVALUATIONS, GENERATION = 0, 1, 2, 3

_TT = types.Array(from_dtype(TT_DTYPE), 1, "C")
_SCRATCH = (types.int64[::1], types.float64[::1], types.uint64[::1], types.float64[::1])
"""The scratch arrays of a search: the leaf kernels' ``ints`` and ``floats``, the afterstates of a move
node whose children are leaves, and the points of their moves."""
JOBS_STATE = (
    types.Array(from_dtype(TT_DTYPE), 2, "C"), types.int64[:, ::1], types.uint8[::1], types.float64[:, ::1],
    types.int64[::1],
)  # fmt: skip
"""A jobs kernel's tables, counters, stop flag, values (one row a job) and the count of the jobs taken."""

_ONE = np.uint64(1)


@dataclass(frozen=True)
class LeafKernels:
    """An evaluator's leaf kernels (see the module), from which :func:`search_kernel` compiles its search.

    Attributes:
        name: names the compiled search (its functions and cache files): letters, digits and ``_``.
        start: ``start(after, rows, cols, data, ints, floats, i)``, a kernel.
        value: ``value(data, ints, floats, i) -> float``, a kernel.
        data_type: the numba type of the evaluator's ``data`` tuple.
        points: the values are points still to come (a move adds the points it scores).
        cached: the leaves' values are kept in the transposition table.
    """

    name: str
    start: Any
    value: Any
    data_type: Any
    points: bool
    cached: bool


def signature_start(data: Any) -> Any:
    """The numba signature of a leaf kernel's ``start`` for ``data`` (its data tuple's type).

    Leaf kernels are small and called at every leaf: they are compiled with ``inline=True`` (their
    body goes into the search, rather than a call that passes every array).
    """
    return types.void(types.uint64, types.int64, types.int64, data, types.int64[::1], types.float64[::1], types.int64)


def signature_value(data: Any) -> Any:
    """The numba signature of a leaf kernel's ``value`` for ``data``."""
    return types.float64(data, types.int64[::1], types.float64[::1], types.int64)


@kernel("i8(u8, i8)", inline=True)
def _slot(b, size):
    """The table slot of afterstate ``b`` in a table of ``size`` (a power of two) entries."""
    return np.int64((b * GOLDEN) >> np.uint64(40)) & (size - 1)


@kernel("u8(u8, i8, i8, u8)")
def _sample_cells(empty, n, k, rnd):
    """Keep ``k`` of the ``n`` empty cells of the mask ``empty``, drawn without replacement by ``rnd``."""
    kept = np.uint64(0)
    for _ in range(k):
        cell = _pick_cell(empty, n, rnd)
        kept |= cell
        empty ^= cell
        n -= 1
        rnd = _mix64(rnd + GOLDEN)
    return kept


# The search, written once: the functions below are templates, compiled by ``search_kernel``
# with the names in capitals bound to one evaluator's leaf kernels and settings.
_LEAF_START: Any = None
_LEAF_VALUE: Any = None
POINTS = False
CACHED = False


def _leaves(child, rows, cols, data, tt, generation, ints, floats, afters, points):
    """The legal moves of ``child``, every afterstate a leaf: ``(count, best value, evaluations)``.

    ``count`` is 0 when no move is legal. The best value is the first largest of the moves' values, in the
    order of DIRECTIONS. The leaf kernel starts valuing each afterstate as soon as it is known (its loads
    then overlap the next moves' work) unless the table holds its value.
    """
    count = 0
    missed = 0  # bit i: afterstate i is valued by the leaf kernel
    for d in range(4):
        after = _move(child, d, rows, cols)
        if after != child:
            afters[count] = after
            if POINTS:
                points[count] = _points(child, d, rows, cols)
            found = False
            if CACHED:
                entry = tt[_slot(after, tt.shape[0])]
                if entry["key"] == after and entry["generation"] == generation and entry["depth"] == 0:
                    floats[count] = entry["value"]
                    found = True
            if not found:
                missed |= 1 << count
                _LEAF_START(after, rows, cols, data, ints, floats, count)
            count += 1
    evaluations = 0
    best = 0.0
    for i in range(count):
        if missed & (1 << i):
            evaluations += 1
            floats[i] = _LEAF_VALUE(data, ints, floats, i)
            if CACHED:
                entry = tt[_slot(afters[i], tt.shape[0])]
                if entry["generation"] != generation or entry["depth"] == 0:  # never over a searched entry
                    entry["key"] = afters[i]
                    entry["value"] = floats[i]
                    entry["depth"] = 0
                    entry["generation"] = generation
        value = points[i] + floats[i] if POINTS else floats[i]
        if i == 0 or value > best:
            best = value
    return count, best, evaluations


def _chance(
    b, depth, prob, rows, cols, data, p_four, cutoff, lost, max_cells, seed, tt, counters, stop, ints, floats,
    afters, points,
):  # fmt: skip
    """Expected value of the afterstate ``b`` with ``depth`` moves left to search.

    ``prob`` is the probability of reaching ``b``; below ``cutoff`` the board is a leaf.

    The recursion of the search (a chance node's value is the mean over the spawns of the
    best value of the chance nodes one move on) runs on an explicit stack of frames, one
    per open chance node: a call per node would pass every array again (dozens of words),
    which cost more than the node's own work. The nodes are visited, and the values
    summed, in the order of the plain recursion: spawn cells from the lowest, a 2 before
    a 4, then the moves in the order of DIRECTIONS.
    """
    # The frames of the open chance nodes, the root at 0: the board, its depth and table
    # slot, the empty cells not spawned on yet, their count and the probability of each,
    # the spawn in progress (cell, tile 1 or 2, the board it gives, its probability, the
    # next move to try (-1: none in progress), the points of the move searched, and the best
    # value so far, if any)
    # and the running sum over the spawns.
    f_board = np.empty(depth + 1, dtype=np.uint64)
    f_depth = np.empty(depth + 1, dtype=np.int64)
    f_slot = np.empty(depth + 1, dtype=np.int64)
    f_empty = np.empty(depth + 1, dtype=np.uint64)
    f_count = np.empty(depth + 1, dtype=np.int64)
    f_cell_prob = np.empty(depth + 1, dtype=np.float64)
    f_cell = np.empty(depth + 1, dtype=np.uint64)
    f_tile = np.empty(depth + 1, dtype=np.int64)
    f_child = np.empty(depth + 1, dtype=np.uint64)
    f_p = np.empty(depth + 1, dtype=np.float64)
    f_move = np.empty(depth + 1, dtype=np.int64)
    f_points = np.zeros(depth + 1, dtype=np.float64)
    f_best = np.empty(depth + 1, dtype=np.float64)
    f_found = np.empty(depth + 1, dtype=np.bool_)
    f_total = np.empty(depth + 1, dtype=np.float64)
    generation = counters[GENERATION]
    nodes = hits = evaluations = 0  # kept here, added to ``counters`` at the end
    top = -1
    while True:
        # Enter the chance node (b, depth, prob): a value at once, or a new frame.
        nodes += 1
        value = 0.0
        opened = False
        if depth <= 0 or prob < cutoff:  # a leaf (only at the root: below, move nodes value leaves together)
            evaluations += 1
            _LEAF_START(b, rows, cols, data, ints, floats, 0)
            value = _LEAF_VALUE(data, ints, floats, 0)
        elif not stop[0]:
            slot = _slot(b, tt.shape[0])
            entry = tt[slot]
            if entry["key"] == b and entry["generation"] == generation and entry["depth"] >= depth:
                hits += 1
                value = entry["value"]
            else:
                empty = _empty_bits(b, rows, cols)
                n = _popcount(empty)
                if max_cells > 0 and n > max_cells:
                    empty = _sample_cells(empty, n, max_cells, _mix64(b ^ seed))
                    n = max_cells
                top += 1
                f_board[top] = b
                f_depth[top] = depth
                f_slot[top] = slot
                f_empty[top] = empty
                f_count[top] = n
                f_cell_prob[top] = prob / n
                f_cell[top] = np.uint64(0)
                f_tile[top] = 2  # as if the last spawn were done: the next is the first cell's 2
                f_move[top] = -1  # no spawn in progress
                f_total[top] = 0.0
                opened = True
        # Go up, handing values to their frames, until a frame has a child to enter.
        while True:
            if not opened:
                if top < 0:
                    counters[NODES] += nodes
                    counters[TT_HITS] += hits
                    counters[EVALUATIONS] += evaluations
                    return value
                if POINTS:
                    value = f_points[top] + value
                if not f_found[top] or value > f_best[top]:
                    f_best[top] = value
                    f_found[top] = True
            opened = False
            # The next move of the spawn in progress, if any.
            d = f_move[top]
            if d >= 0:
                child = f_child[top]
                moved = child
                while d < 4:
                    moved = _move(child, d, rows, cols)
                    d += 1
                    if moved != child:
                        break
                if moved != child:
                    f_move[top] = d
                    if POINTS:
                        f_points[top] = _points(child, d - 1, rows, cols)
                    b = moved
                    depth = f_depth[top] - 1
                    prob = f_cell_prob[top] * f_p[top]
                    break
                f_total[top] += f_p[top] * (f_best[top] if f_found[top] else lost)  # the spawn is done
                f_move[top] = -1
            # The next spawn: the 4 of this cell, else the 2 of the next cell, skipping what cannot
            # come; a spawn whose moves all lead to leaves is valued here at once.
            cell = f_cell[top]
            tile = f_tile[top]
            while True:
                if tile == 1:
                    tile = 2
                else:
                    empty = f_empty[top]
                    if empty == np.uint64(0):
                        break
                    cell = empty & (~empty + _ONE)
                    f_empty[top] = empty ^ cell
                    tile = 1
                p = 1.0 - p_four if tile == 1 else p_four
                if p == 0.0:
                    continue
                child = f_board[top] | (cell * np.uint64(tile))
                if f_depth[top] <= 1 or f_cell_prob[top] * p < cutoff:
                    count, best, valued = _leaves(child, rows, cols, data, tt, generation, ints, floats, afters, points)
                    nodes += count
                    evaluations += valued
                    hits += count - valued
                    f_total[top] += p * (best if count > 0 else lost)
                    continue
                f_cell[top] = cell
                f_tile[top] = tile
                f_child[top] = child
                f_p[top] = p
                f_move[top] = 0
                f_found[top] = False
                opened = True  # look for its first move, with no value to hand over
                break
            if opened:
                continue
            # Every spawn is done: the frame's value, into the table, then to the frame below.
            value = f_total[top] / f_count[top]
            entry = tt[f_slot[top]]
            entry["key"] = f_board[top]
            entry["value"] = value
            entry["depth"] = f_depth[top]
            entry["generation"] = generation
            top -= 1


def _search_jobs(
    b, moves, depth, rows, cols, data, p_four, cutoff, lost, max_cells, seed, scratch, tts, counters, stop, values,
    claim,
):  # fmt: skip
    """Search the root moves of ``b`` job by job (see the module), taking each next job from ``claim[0]``:
    ``values[j, k]`` becomes the value of the move ``moves[j, k]``, searched ``depth`` moves deep (>= 1) in a
    fresh generation of the table ``tts[j]``; a move whose search the stop flag cut short keeps the value it
    had. ``scratch`` is the leaf kernel's int64 a slot.

    The job's counts are added to ``counters[j]``, whose generation goes up by one first. The moves of a job
    search in the generation of the table its first move started, so they use the entries the others left.
    """
    ints = np.empty(4 * scratch, dtype=np.int64)
    floats = np.empty(4, dtype=np.float64)
    afters = np.empty(4, dtype=np.uint64)
    points = np.zeros(4, dtype=np.float64)
    while True:
        j = fetch_add(claim, 0, 1)
        if j >= moves.shape[0]:
            return
        counts = counters[j]
        counts[GENERATION] += 1
        for k in range(moves.shape[1]):
            d = moves[j, k]
            if d < 0:
                break
            value = _chance(
                _move(b, d, rows, cols), depth - 1, 1.0, rows, cols, data, p_four, cutoff, lost, max_cells, seed,
                tts[j], counts, stop, ints, floats, afters, points,
            )  # fmt: skip
            if POINTS:
                value = _points(b, d, rows, cols) + value
            if stop[0]:
                break  # the value may be cut short; one read after the search finished unstopped is not
            values[j, k] = value


_TEMPLATES = (_leaves, _chance, _search_jobs)


def _signatures(data: Any) -> dict[str, Any]:
    """The eager signature of each template compiled for a data tuple of type ``data``."""
    common = (types.int64, types.int64, data, types.float64, types.float64, types.float64, types.int64, types.uint64)
    return {
        "_leaves": types.Tuple((types.int64, types.float64, types.int64))(
            types.uint64, types.int64, types.int64, data, _TT, types.int64, *_SCRATCH
        ),
        "_chance": types.float64(
            types.uint64, types.int64, types.float64, *common, _TT, types.int64[::1], types.uint8[::1], *_SCRATCH
        ),
        "_search_jobs": types.void(types.uint64, types.int64[:, ::1], types.int64, *common, types.int64, *JOBS_STATE),
    }


@functools.cache
def search_kernel(leaf: LeafKernels) -> Any:
    """The search (``_search_jobs``) compiled for ``leaf``: once a process, and cached on disk as the other kernels.

    Each template is copied with the names in capitals bound to ``leaf``, under its own name
    (``_chance_heuristic``, ...), so that numba caches the copies of every evaluator apart. Leaf
    kernels from outside plyground's kernel files (an evaluator of a user's) compile their search
    anew in each process (see ``_jit.kernel``'s ``compiles_in``).
    """
    namespace = dict(globals())
    namespace.update(_LEAF_START=leaf.start, _LEAF_VALUE=leaf.value, POINTS=leaf.points, CACHED=leaf.cached)
    signatures = _signatures(leaf.data_type)
    for template in _TEMPLATES:
        copy = copy_template(template, namespace, f"{template.__name__}_{leaf.name}")
        inline = template is _leaves  # called at every move node of the last depth: its body, not a call
        leaves = (leaf.start, leaf.value)
        compiled = kernel(signatures[template.__name__], inline=inline, compiles_in=leaves)(copy)  # compiled now
        namespace[template.__name__] = compiled
    return namespace["_search_jobs"]
