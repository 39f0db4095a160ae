"""Numba kernels of the 2048 expectimax search.

The search alternates chance nodes (a tile spawns on an empty cell) and move nodes (the
player picks the best move). Values are heuristic values of the boards right after a
move ("afterstates"), read from a weighted line table (see ``heuristic.line_table``).
Only chance nodes are kernels: the move node is the loop over the four moves inside.

State shared by one search lives in arrays owned by the caller:

* ``tt`` - the transposition table, a record array (``TT_DTYPE``) indexed by a hash of
  the afterstate; an entry holds the board, its value, the depth it was searched to and
  the generation that wrote it. Bumping the generation clears the table for free.
* ``counters`` - int64 ``[nodes, tt_hits, evaluations, generation]`` of this worker.
* ``stop`` - uint8 ``[flag]``, set by another thread when the time budget is spent; the
  search then unwinds at once and its result is thrown away.

Kernels do no validation; :mod:`plyground.g2048.expectimax` does. The slow twin is
``tests/naive/expectimax_2048.py`` (no table, no cut-off, no sampling).
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype, types

from plyground._jit import kernel
from plyground.core.splitmix import GOLDEN
from plyground.g2048._kernels import _empty_bits, _mix64, _move, _pick_cell, _popcount, _transpose

TT_DTYPE = np.dtype([("key", np.uint64), ("value", np.float64), ("depth", np.int32), ("generation", np.int32)])
NODES, TT_HITS, EVALUATIONS, GENERATION = 0, 1, 2, 3

# Eager signatures: one compiled version of each kernel. (Several versions of a recursive
# kernel in the on-disk cache can resolve the recursive call to the wrong one.)
_TABLE = types.float64[:, :, ::1]
_SEARCH_ARGS = (
    types.int64, types.int64, _TABLE, types.float64, types.float64, types.float64, types.float64, types.int64,
    types.uint64, types.Array(from_dtype(TT_DTYPE), 1, "C"), types.int64[::1], types.uint8[::1],
)  # fmt: skip
_EVALUATE_SIGNATURE = types.float64(types.uint64, types.int64, types.int64, _TABLE, types.float64)
_CHANCE_SIGNATURE = types.float64(types.uint64, types.int64, types.float64, *_SEARCH_ARGS)
_SEARCH_MOVE_SIGNATURE = types.float64(types.uint64, types.int64, types.int64, *_SEARCH_ARGS)

_ROW_MASK = np.uint64(0xFFFF)
_ONE = np.uint64(1)


@kernel(_EVALUATE_SIGNATURE)
def _evaluate(b, rows, cols, table, w_mono):
    """The heuristic value of an afterstate: one table entry per row and per column (see ``line_table``)."""
    t = _transpose(b)
    total = 0.0
    rows_slope = 0.0
    for i in range(4):  # lines beyond the board are empty and read (0, 0)
        line = (b >> np.uint64(16 * i)) & _ROW_MASK
        total += table[i, line, 0]
        rows_slope += table[i, line, 1]
    cols_slope = 0.0
    for j in range(4):
        line = (t >> np.uint64(16 * j)) & _ROW_MASK
        total += table[4, line, 0]
        cols_slope += table[4, line, 1]
    return total - w_mono * (max(0.0, rows_slope) + max(0.0, cols_slope))


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


@kernel(_CHANCE_SIGNATURE)
def _chance(b, depth, prob, rows, cols, table, w_mono, p_four, cutoff, lost, max_cells, seed, tt, counters, stop):
    """Expected value of the afterstate ``b`` with ``depth`` moves left to search.

    ``prob`` is the probability of reaching ``b``; below ``cutoff`` the board is evaluated.
    """
    counters[NODES] += 1
    if depth <= 0 or prob < cutoff:
        counters[EVALUATIONS] += 1
        return _evaluate(b, rows, cols, table, w_mono)
    if stop[0]:
        return 0.0
    slot = np.int64((b * GOLDEN) >> np.uint64(40)) & (tt.shape[0] - 1)
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
            best = lost
            for d in range(4):
                moved = _move(child, d, rows, cols)
                if moved != child:
                    value = _chance(
                        moved,
                        depth - 1,
                        cell_prob * p,
                        rows,
                        cols,
                        table,
                        w_mono,
                        p_four,
                        cutoff,
                        lost,
                        max_cells,
                        seed,
                        tt,
                        counters,
                        stop,
                    )
                    if value > best:
                        best = value
            total += p * best
    value = total / n
    entry["key"] = b
    entry["value"] = value
    entry["depth"] = depth
    entry["generation"] = generation
    return value


@kernel(_SEARCH_MOVE_SIGNATURE)
def _search_move(b, d, depth, rows, cols, table, w_mono, p_four, cutoff, lost, max_cells, seed, tt, counters, stop):
    """The expected value of playing move ``d`` on ``b``, searched ``depth`` moves deep (>= 1).

    Starts a new table generation, so the result does not depend on earlier searches.
    """
    counters[GENERATION] += 1
    moved = _move(b, d, rows, cols)
    return _chance(
        moved, depth - 1, 1.0, rows, cols, table, w_mono, p_four, cutoff, lost, max_cells, seed, tt, counters, stop
    )
