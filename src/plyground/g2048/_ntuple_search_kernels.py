"""Numba kernels of the 2048 expectimax search with an n-tuple network at the leaves.

An n-tuple network trained by afterstate TD (see ``_ntuple_kernels``) values an
*afterstate* (the board right after a move, before the spawn) as the expected sum of the
points still to come. So the search here values a move by the points it scores plus the
expected value of its afterstate, and an afterstate by the expectation, over the spawn,
of the best ``points + value`` of the next move; at the horizon (or below the probability
cut-off) the afterstate is worth the network's value ``V``. At depth 1 a move is worth
``points + V(afterstate)``: exactly the greedy choice of the training. A board with no
legal move has no future: it is worth 0 (the points scored on the way still count).

The value of an afterstate depends on the board alone, never on the path to it, so the
transposition table holds it as the heuristic search does. The arrays and the protocol
are those of ``_search_kernels``: ``tt`` (``TT_DTYPE``), ``counters`` (``[nodes,
tt_hits, evaluations, generation]``; each leaf is one node, and one evaluation unless the
table had its value) and the ``stop`` flag. ``weights`` and ``lookups`` are the network's
arrays (``_ntuple_kernels``).

Where every child of a move node is a leaf, the afterstates of its moves are valued
together by ``_leaves`` (the reads of the weights overlap). Most leaves come again and
again (a spawn that slides away leaves the same afterstate as its neighbour: 70% of the
leaves of a depth-3 search are repeats), so the table keeps leaf values too, as entries
of depth 0: the network's value ``V``, read back only as a leaf's value (a searched
entry is never taken for a leaf, nor a leaf for a searched one, so no value changes),
and written only where it evicts no searched entry of the current search.
``positions``, ``afters``, ``points`` and ``values`` are scratch arrays, allocated once
per root move.

Kernels do no validation; :mod:`plyground.g2048.expectimax` does. The slow twin is
``tests/naive/expectimax_ntuple.py`` (no table, no cut-off, no sampling).
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype, types

from plyground._jit import fetch_add, kernel
from plyground.core.splitmix import GOLDEN
from plyground.g2048._kernels import _empty_bits, _mix64, _move, _points, _popcount
from plyground.g2048._ntuple_kernels import STRIDE, _indices, _prefetch, _sum
from plyground.g2048._search_kernels import (
    EVALUATIONS,
    GENERATION,
    JOBS_ARGS,
    JOBS_STATE,
    NODES,
    TT_DTYPE,
    TT_HITS,
    _sample_cells,
)

# Eager signatures: one compiled version of each kernel (see ``_search_kernels``).
_NETWORK = (types.int64, types.int64, types.float32[::1], types.int64[:, ::1])  # rows, cols, weights, lookups
_SEARCH_ARGS = (
    *_NETWORK, types.float64, types.float64, types.int64, types.uint64,
    types.Array(from_dtype(TT_DTYPE), 1, "C"), types.int64[::1], types.uint8[::1],
)  # fmt: skip
_SCRATCH = (types.int64[::1], types.uint64[::1], types.int64[::1], types.float64[::1])
_LEAVES_SIGNATURE = types.Tuple((types.int64, types.float64))(
    types.uint64, *_NETWORK, types.Array(from_dtype(TT_DTYPE), 1, "C"), types.int64[::1], *_SCRATCH
)
_CHANCE_SIGNATURE = types.float64(types.uint64, types.int64, types.float64, *_SEARCH_ARGS, *_SCRATCH)
_SEARCH_MOVE_SIGNATURE = types.float64(types.uint64, types.int64, types.int64, *_SEARCH_ARGS)
_SEARCH_JOBS_SIGNATURE = types.void(types.uint64, *JOBS_ARGS, *_SEARCH_ARGS[:-3], *JOBS_STATE)

_ONE = np.uint64(1)


@kernel("i8(u8, i8)", inline=True)
def _slot(b, size):
    """The table slot of afterstate ``b`` in a table of ``size`` (a power of two) entries."""
    return np.int64((b * GOLDEN) >> np.uint64(40)) & (size - 1)


@kernel(_LEAVES_SIGNATURE)
def _leaves(b, rows, cols, weights, lookups, tt, counters, positions, afters, points, values):
    """The legal moves of ``b`` with every afterstate a leaf: ``(count, best points + V(afterstate))``.

    As ``_ntuple_kernels._candidates`` (the first candidate of largest value; ``count`` 0 when no
    move is legal), with each afterstate's ``V`` read from the table when it holds it (an entry of
    depth 0 in the current generation) and written there otherwise. Counts a node per candidate,
    an evaluation per network read and a table hit per value found.
    """
    n = lookups.shape[0]
    generation = counters[GENERATION]
    count = 0
    for d in range(4):
        after = _move(b, d, rows, cols)
        if after != b:
            afters[count] = after
            points[count] = _points(b, d, rows, cols)
            entry = tt[_slot(after, tt.shape[0])]
            if entry["key"] == after and entry["generation"] == generation and entry["depth"] == 0:
                values[count] = entry["value"]
                positions[count * n] = -1  # found: no read
            else:
                _indices(after, rows, cols, lookups, positions, count * n)
                _prefetch(weights, positions, count * n, n, 1)  # loads while the next candidates are computed
            count += 1
    counters[NODES] += count
    stride = lookups[0, STRIDE]
    best_value = 0.0
    for i in range(count):
        if positions[i * n] < 0:
            counters[TT_HITS] += 1
        else:
            counters[EVALUATIONS] += 1
            values[i] = _sum(weights, positions, i * n, n, stride)
            after = afters[i]
            entry = tt[_slot(after, tt.shape[0])]
            if entry["generation"] != generation or entry["depth"] == 0:  # never over a searched entry
                entry["key"] = after
                entry["value"] = values[i]
                entry["depth"] = 0
                entry["generation"] = generation
        value = points[i] + values[i]
        if i == 0 or value > best_value:
            best_value = value
    return count, best_value


@kernel(_CHANCE_SIGNATURE)
def _chance(
    b, depth, prob, rows, cols, weights, lookups, p_four, cutoff, max_cells, seed, tt, counters, stop,
    positions, afters, points, values,
):  # fmt: skip
    """Expected points to come from the afterstate ``b``, with ``depth`` moves left to search.

    ``prob`` is the probability of reaching ``b``; below ``cutoff`` the network values it.
    """
    counters[NODES] += 1
    if depth <= 0 or prob < cutoff:
        counters[EVALUATIONS] += 1
        _indices(b, rows, cols, lookups, positions, 0)
        return _sum(weights, positions, 0, lookups.shape[0], lookups[0, STRIDE])
    if stop[0]:
        return 0.0
    slot = _slot(b, tt.shape[0])
    generation = counters[GENERATION]
    entry = tt[slot]
    if entry["key"] == b and entry["generation"] == generation and entry["depth"] >= depth:
        counters[TT_HITS] += 1
        return entry["value"]
    empty = _empty_bits(b, rows, cols)
    n = _popcount(empty)
    if max_cells > 0 and n > max_cells:
        empty = _sample_cells(empty, n, max_cells, _mix64(b ^ seed))
        n = max_cells
    total = 0.0
    cell_prob = prob / n
    while empty:
        cell = empty & (~empty + _ONE)
        empty ^= cell
        for tile in range(1, 3):
            p = 1.0 - p_four if tile == 1 else p_four
            if p == 0.0:
                continue
            child = b | (cell * np.uint64(tile))
            child_prob = cell_prob * p
            best = 0.0  # no legal move: the game is over, nothing more to score
            if depth <= 1 or child_prob < cutoff:  # every afterstate of the child is a leaf
                count, value = _leaves(
                    child, rows, cols, weights, lookups, tt, counters, positions, afters, points, values
                )
                if count > 0:
                    best = value
            else:
                found = False
                for d in range(4):
                    moved = _move(child, d, rows, cols)
                    if moved != child:
                        value = _points(child, d, rows, cols) + _chance(
                            moved, depth - 1, child_prob, rows, cols, weights, lookups, p_four, cutoff, max_cells,
                            seed, tt, counters, stop, positions, afters, points, values,
                        )  # fmt: skip
                        if not found or value > best:
                            best = value
                            found = True
            total += p * best
    value = total / n
    entry["key"] = b
    entry["value"] = value
    entry["depth"] = depth
    entry["generation"] = generation
    return value


@kernel(_SEARCH_MOVE_SIGNATURE)
def _search_move(b, d, depth, rows, cols, weights, lookups, p_four, cutoff, max_cells, seed, tt, counters, stop):
    """``points(d) + `` the expected points to come after move ``d`` on ``b``, searched ``depth`` moves deep (>= 1).

    Searches in the table's current generation, as ``_search_kernels._search_move`` does.
    """
    positions = np.empty(4 * lookups.shape[0], dtype=np.int64)
    afters = np.empty(4, dtype=np.uint64)
    points = np.empty(4, dtype=np.int64)
    values = np.empty(4, dtype=np.float64)
    moved = _move(b, d, rows, cols)
    return _points(b, d, rows, cols) + _chance(
        moved, depth - 1, 1.0, rows, cols, weights, lookups, p_four, cutoff, max_cells, seed, tt, counters, stop,
        positions, afters, points, values,
    )  # fmt: skip


@kernel(_SEARCH_JOBS_SIGNATURE)
def _search_jobs(
    b, moves, depth, rows, cols, weights, lookups, p_four, cutoff, max_cells, seed, tts, counters, stop, values, claim
):
    """The root moves of ``b`` searched job by job, each job taken from ``claim[0]``, as
    ``_search_kernels._search_jobs`` does."""
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
            value = _search_move(
                b, d, depth, rows, cols, weights, lookups, p_four, cutoff, max_cells, seed, tts[j], counts, stop
            )
            if stop[0]:
                break  # cut short (see _search_kernels._search_jobs)
            values[j, k] = value
