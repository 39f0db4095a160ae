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

A decision searches its root moves in *jobs* (``_search_jobs``): a row of ``moves`` holds
the moves of one job (then -1s), searched one after another in the job's own table
(``tts[j]``, counters ``counters[j]``). Several threads may run ``_search_jobs`` at once
on the same arrays: each takes the next job not taken yet (``claim[0]``, with an atomic
add) until none is left, so the jobs are shared out between the threads that run, and a
thread that starts late takes none.

Kernels do no validation; :mod:`plyground.g2048.expectimax` does. The slow twin is
``tests/naive/expectimax_2048.py`` (no table, no cut-off, no sampling).
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype, types

from plyground._jit import fetch_add, kernel
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
JOBS_ARGS = (types.int64[:, ::1], types.int64)  # moves, depth
JOBS_STATE = (
    types.Array(from_dtype(TT_DTYPE), 2, "C"), types.int64[:, ::1], types.uint8[::1], types.float64[:, ::1],
    types.int64[::1],
)  # fmt: skip
"""A jobs kernel's tables, counters, stop flag, values (one row a job) and the count of the jobs taken."""
_SEARCH_JOBS_SIGNATURE = types.void(types.uint64, *JOBS_ARGS, *_SEARCH_ARGS[:-3], *JOBS_STATE)

_ROW_MASK = np.uint64(0xFFFF)
_ONE = np.uint64(1)


@kernel(_EVALUATE_SIGNATURE, refcount=False)
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
    # next move to try and the best value so far) and the running sum over the spawns.
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
    f_best = np.empty(depth + 1, dtype=np.float64)
    f_total = np.empty(depth + 1, dtype=np.float64)
    generation = counters[GENERATION]
    nodes = hits = evaluations = 0  # kept here, added to ``counters`` at the end
    top = -1
    while True:
        # Enter the chance node (b, depth, prob): a value at once, or a new frame.
        nodes += 1
        value = 0.0
        opened = False
        if depth <= 0 or prob < cutoff:
            evaluations += 1
            value = _evaluate(b, rows, cols, table, w_mono)
        elif not stop[0]:
            slot = np.int64((b * GOLDEN) >> np.uint64(40)) & (tt.shape[0] - 1)
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
                f_move[top] = 4
                f_best[top] = lost
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
                if value > f_best[top]:
                    f_best[top] = value
            opened = False
            child = f_child[top]
            d = f_move[top]
            moved = child
            entered = False
            while d < 4:
                moved = _move(child, d, rows, cols)
                d += 1
                if moved != child:
                    entered = True
                    break
            if entered:
                f_move[top] = d
                b = moved
                depth = f_depth[top] - 1
                prob = f_cell_prob[top] * f_p[top]
                break
            if f_cell[top] != np.uint64(0):  # the spawn in progress is done
                f_total[top] += f_p[top] * f_best[top]
            # The next spawn: the 4 of this cell, else the 2 of the next cell, skipping what cannot come.
            cell = f_cell[top]
            tile = f_tile[top]
            p = 0.0
            started = False
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
                if p != 0.0:
                    started = True
                    break
            if started:
                f_cell[top] = cell
                f_tile[top] = tile
                f_child[top] = f_board[top] | (cell * np.uint64(tile))
                f_p[top] = p
                f_move[top] = 0
                f_best[top] = lost
                opened = True  # look for its first move, with no value to hand over
                continue
            # Every spawn is done: the frame's value, into the table, then to the frame below.
            value = f_total[top] / f_count[top]
            entry = tt[f_slot[top]]
            entry["key"] = f_board[top]
            entry["value"] = value
            entry["depth"] = f_depth[top]
            entry["generation"] = generation
            top -= 1


@kernel(_SEARCH_MOVE_SIGNATURE)
def _search_move(b, d, depth, rows, cols, table, w_mono, p_four, cutoff, lost, max_cells, seed, tt, counters, stop):
    """The expected value of playing move ``d`` on ``b``, searched ``depth`` moves deep (>= 1).

    Searches in the table's current generation: the entries that earlier searches of this
    generation left are used (as the root moves of one decision share theirs). A caller
    that wants a result independent of earlier searches starts a new generation first
    (``counters[GENERATION] += 1``).
    """
    moved = _move(b, d, rows, cols)
    return _chance(
        moved, depth - 1, 1.0, rows, cols, table, w_mono, p_four, cutoff, lost, max_cells, seed, tt, counters, stop
    )


@kernel(_SEARCH_JOBS_SIGNATURE)
def _search_jobs(
    b, moves, depth, rows, cols, table, w_mono, p_four, cutoff, lost, max_cells, seed, tts, counters, stop, values,
    claim,
):  # fmt: skip
    """Search the root moves of ``b`` job by job (see the module), taking each next job from ``claim[0]``:
    ``values[j, k]`` becomes the value of the move ``moves[j, k]``, searched ``depth`` moves deep in a fresh
    generation of the table ``tts[j]``; a move whose search the stop flag cut short keeps the value it had.

    The job's counts are added to ``counters[j]``, whose generation goes up by one first.
    """
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
                b, d, depth, rows, cols, table, w_mono, p_four, cutoff, lost, max_cells, seed, tts[j], counts, stop
            )
            if stop[0]:
                break  # the value may be cut short; one read after the search finished unstopped is not
            values[j, k] = value
