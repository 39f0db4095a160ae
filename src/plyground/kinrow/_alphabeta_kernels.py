"""Numba kernels of the k-in-a-row alpha-beta search: heuristic, candidate moves, negamax.

The heuristic looks at every *window* of k consecutive cells in a row, column or
diagonal. A window holding stones of one player only is worth :func:`_weight` of its
stone count to that player (1, 8, 64, ... : eight times more per stone, capped at 2**42
so that every value stays an exact integer in a float64); mixed and empty windows, and
windows through a blocked cell (3), are worth nothing. The value of a position is the
windows of the player to move minus those of the opponent. Putting a stone on a cell
changes only the windows through that cell, so the search keeps the value up to date
with :func:`_gain`, which also orders the moves.

The search is negamax with alpha-beta (fail-soft) over a transposition table: values are
for the player to move; a win ``p`` plies from the root is worth ``WIN - p`` (a loss the
opposite), so faster wins and slower losses are preferred; a full board is a draw (0).
Search values are int64. A win is decided by the rule (``rule``, a ``Rule`` number: 0
free-style, k or more; 1 standard, exactly k); the heuristic is the same for both.

Candidate moves are every empty cell when ``radius`` is 0; otherwise the empty cells
within ``radius`` (king steps) of a stone, kept in ``near`` (for each cell, the number of
stones within ``radius``), and the centre of an empty board (its first empty cell when the
centre is blocked).

State shared by one search lives in arrays owned by the caller:

* ``tt`` - the transposition table (:mod:`plyground.kinrow._table_kernels`), indexed by
  the low bits of the Zobrist key, always replaced. An entry holds the remaining depth it
  was searched to, its value (wins counted from the entry's position), its bound and the
  best move found. A value is reused only at the same remaining depth (so a search equals
  plain minimax); the move orders the search at any depth.
* ``stop`` - uint8 ``[flag]``, set by another thread when the time is up: the search
  unwinds at once, stores nothing more, and its result is meaningless.
* ``stats`` - int64 ``[nodes, tt_hits, best root move]``.

Kernels do no validation; :mod:`plyground.kinrow.alphabeta` does. Twins in
``tests/naive/kinrow.py`` (plain minimax: no pruning, no table).
"""

from __future__ import annotations

import numpy as np
from numba import types

from plyground._jit import kernel
from plyground.kinrow._kernels import _DC, _DR, _wins_at_rule
from plyground.kinrow._table_kernels import EXACT, LOWER, TABLE, UPPER, _bound, _find, _store, _value

NODES, TT_HITS, BEST = 0, 1, 2

WIN = 1 << 52
"""The value of a win on the spot; a win ``p`` plies ahead is worth ``WIN - p``."""
MAX_PLY = 1024
WON = WIN - MAX_PLY
"""Values at or above are wins (at or below ``-WON``: losses); the heuristic stays far below."""
INFINITY = WIN + MAX_PLY
_MAX_SHIFT = 42  # weights reach 2**42 at k >= 15: under 2**9 such windows on 20x20, so values stay below 2**51

# Eager signatures: one compiled version of each kernel (several versions of a recursive
# kernel in the on-disk cache can resolve the recursive call to the wrong one).
_CELLS = types.int8[::1]
_ZOBRIST = types.Array(types.uint64, 2, "C", readonly=True)
_NEGAMAX_SIGNATURE = types.int64(
    _CELLS, types.int64, types.int64, types.int64, types.int64, types.int32[::1], _ZOBRIST, types.uint64,
    types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    TABLE, types.uint8[::1], types.int64[::1],
)  # fmt: skip
_SEARCH_SIGNATURE = types.int64(
    _CELLS, types.int64, types.int64, types.int64, types.int64, types.int64, _ZOBRIST, types.int64, TABLE,
    types.uint8[::1], types.int64[::1],
)  # fmt: skip


@kernel("i8(i8)")
def _weight(count):
    """The worth of a window holding ``count`` stones of one player only: 0, 1, 8, 64, ... (at most 2**42)."""
    if count <= 0:
        return 0
    shift = 3 * (count - 1)
    if shift > _MAX_SHIFT:
        shift = _MAX_SHIFT
    return np.int64(1) << np.int64(shift)


@kernel("i8(i1[::1], i8, i8, i8)")
def _evaluate(cells, n, k, player):
    """The heuristic value of the board for ``player``: its windows' weights minus the opponent's."""
    total = 0
    for r in range(n):
        for c in range(n):
            for d in range(4):
                dr = _DR[d]
                dc = _DC[d]
                end_r = r + (k - 1) * dr
                end_c = c + (k - 1) * dc
                if end_r >= n or end_c < 0 or end_c >= n:
                    continue
                own = 0
                other = 0
                dead = False
                for j in range(k):
                    v = cells[(r + j * dr) * n + c + j * dc]
                    if v == player:
                        own += 1
                    elif v == 3:
                        dead = True
                    elif v != 0:
                        other += 1
                if dead:
                    continue
                if other == 0:
                    total += _weight(own)
                elif own == 0:
                    total -= _weight(other)
    return total


@kernel("i8(i1[::1], i8, i8, i8, i8)")
def _gain(cells, n, k, index, player):
    """How much ``player``'s heuristic value grows when it puts a stone on the empty cell ``index``.

    Only the windows through ``index`` change: its own grow by one stone, the opponent's
    become mixed (worth nothing).
    """
    r = index // n
    c = index % n
    total = 0
    for d in range(4):
        dr = _DR[d]
        dc = _DC[d]
        back = 0  # cells on the board behind (r, c) in this direction, at most k - 1
        while back < k - 1:
            rr = r - (back + 1) * dr
            cc = c - (back + 1) * dc
            if rr < 0 or rr >= n or cc < 0 or cc >= n:
                break
            back += 1
        ahead = 0
        while ahead < k - 1:
            rr = r + (ahead + 1) * dr
            cc = c + (ahead + 1) * dc
            if rr < 0 or rr >= n or cc < 0 or cc >= n:
                break
            ahead += 1
        if back + ahead + 1 < k:
            continue
        own = 0
        other = 0
        dead = 0  # blocked cells in the window
        for t in range(-back, -back + k):  # the first window, offsets -back .. -back + k - 1
            v = cells[(r + t * dr) * n + c + t * dc]
            if v == player:
                own += 1
            elif v == 3:
                dead += 1
            elif v != 0:
                other += 1
        s = -back
        while True:
            if dead == 0:
                if other == 0:
                    total += _weight(own + 1) - _weight(own)
                elif own == 0:
                    total += _weight(other)
            if s + k - 1 >= ahead:
                break
            v = cells[(r + s * dr) * n + c + s * dc]  # slide: offset s leaves, offset s + k enters
            if v == player:
                own -= 1
            elif v == 3:
                dead -= 1
            elif v != 0:
                other -= 1
            v = cells[(r + (s + k) * dr) * n + c + (s + k) * dc]
            if v == player:
                own += 1
            elif v == 3:
                dead += 1
            elif v != 0:
                other += 1
            s += 1
    return total


@kernel("void(i8, i8, i8, i4[::1], i8)")
def _add_near(n, radius, index, near, step):
    """Add ``step`` to ``near`` on every cell within ``radius`` king steps of ``index`` (itself included)."""
    r = index // n
    c = index % n
    for rr in range(max(0, r - radius), min(n, r + radius + 1)):
        for cc in range(max(0, c - radius), min(n, c + radius + 1)):
            near[rr * n + cc] += step


@kernel("void(i1[::1], i8, i8, i4[::1])")
def _near_counts(cells, n, radius, near):
    """Fill ``near`` with the number of stones within ``radius`` of each cell (zeros when ``radius`` is 0)."""
    near[:] = 0
    if radius > 0:
        for i in range(n * n):
            if cells[i] == 1 or cells[i] == 2:
                _add_near(n, radius, i, near, 1)


@kernel("i8(i1[::1], i8, i8, i4[::1], i8[::1])")
def _candidates(cells, n, radius, near, out):
    """Write the candidate moves into ``out`` in cell order; returns how many (0 on a full board)."""
    count = 0
    for i in range(n * n):
        if cells[i] == 0 and (radius <= 0 or near[i] > 0):
            out[count] = i
            count += 1
    centre = (n // 2) * n + n // 2
    if count == 0 and cells[centre] == 0:  # none near a stone: no stone yet, or stones walled in by blocked cells
        out[0] = centre
        count = 1
    elif count == 0:  # and the centre not empty: the first empty cell (none on a full board)
        for i in range(n * n):
            if cells[i] == 0:
                out[0] = i
                count = 1
                break
    return count


@kernel(_NEGAMAX_SIGNATURE)
def _negamax(cells, n, k, rule, radius, near, zob, key, empty, value, player, depth, ply, alpha, beta, tt, stop, stats):
    """The value for ``player`` (to move) of a live position, searched ``depth`` >= 1 plies deep.

    ``key`` is the position's Zobrist key, ``empty`` its number of empty cells and ``value``
    its heuristic value for ``player``. Fail-soft: a result at or below ``alpha`` is an
    upper bound, at or above ``beta`` a lower bound. At the root (``ply`` 0) the best move
    is written to ``stats[BEST]``. ``cells`` and ``near`` are changed and restored.
    """
    stats[NODES] += 1
    if stop[0]:
        return 0
    slot = _find(tt, key)
    hint = -1
    if slot >= 0:
        hint = np.int64(tt[slot]["move"])
        if tt[slot]["depth"] == depth:
            stored = _value(tt, slot, ply, WON)
            flag = _bound(tt, slot)
            if flag == EXACT or (flag == LOWER and stored >= beta) or (flag == UPPER and stored <= alpha):
                stats[TT_HITS] += 1
                if ply == 0:
                    stats[BEST] = hint
                return stored

    moves = np.empty(n * n, dtype=np.int64)
    count = _candidates(cells, n, radius, near, moves)
    gains = np.empty(count, dtype=np.int64)
    for i in range(count):
        move = moves[i]
        if _wins_at_rule(cells, n, k, move, player, rule):  # the best possible value: no need to look further
            best = WIN - (ply + 1)
            _store(tt, key, best, move, depth, EXACT, ply, WON, 0, 0)
            if ply == 0:
                stats[BEST] = move
            return best
        gains[i] = _gain(cells, n, k, move, player)

    alpha_in = alpha
    best = -INFINITY
    best_move = moves[0]
    if depth == 1:
        for i in range(count):
            score = 0 if empty == 1 else value + gains[i]
            if score > best:
                best = score
                best_move = moves[i]
                if best >= beta:
                    break
    else:
        order = np.argsort(-gains, kind="mergesort")  # largest gain first, ties in cell order
        if hint >= 0:
            for j in range(count):
                if moves[order[j]] == hint:  # the table's move first, the others in order
                    first = order[j]
                    for t in range(j, 0, -1):
                        order[t] = order[t - 1]
                    order[0] = first
                    break
        opponent = 3 - player
        for j in range(count):
            i = order[j]
            move = moves[i]
            if empty == 1:
                score = 0
            else:
                cells[move] = player
                if radius > 0:
                    _add_near(n, radius, move, near, 1)
                score = -_negamax(
                    cells, n, k, rule, radius, near, zob, key ^ zob[move, player], empty - 1, -(value + gains[i]),
                    opponent, depth - 1, ply + 1, -beta, -max(alpha, best), tt, stop, stats,
                )  # fmt: skip
                cells[move] = 0
                if radius > 0:
                    _add_near(n, radius, move, near, -1)
                if stop[0]:
                    return 0
            if score > best:
                best = score
                best_move = move
                if best >= beta:
                    break

    bound = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
    _store(tt, key, best, best_move, depth, bound, ply, WON, 0, 0)
    if ply == 0:
        stats[BEST] = best_move
    return best


@kernel(_SEARCH_SIGNATURE)
def _search(cells, n, k, rule, radius, player, zob, depth, tt, stop, stats):
    """The value for ``player`` (to move) of the live position ``cells``, searched ``depth`` plies; see ``_negamax``."""
    near = np.zeros(n * n, dtype=np.int32)
    _near_counts(cells, n, radius, near)
    key = np.uint64(0)
    empty = 0
    for i in range(n * n):
        if cells[i] == 0:
            empty += 1
        else:
            key ^= zob[i, cells[i]]
    stats[BEST] = -1
    value = _evaluate(cells, n, k, player)
    return _negamax(
        cells, n, k, rule, radius, near, zob, key, empty, value, player, depth, 0, -INFINITY, INFINITY, tt, stop, stats
    )
