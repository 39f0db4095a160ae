"""Numba kernels of the k-in-a-row engine: move generation, evaluation and principal-variation search.

The search reads a pattern board (:mod:`plyground.kinrow._pattern_kernels`) and is a
negamax with alpha-beta and principal-variation search (PVS: the first move with a full
window, the others with a null window and a re-search when they beat it), fail-soft,
values for the player to move. A win ``p`` plies from the root is worth ``WIN - p``.

**Threats first.** At every node, before anything else:

* the player to move has a cell that makes five: a win next ply;
* the opponent has one: the only move is to take it (two such cells: a loss); such a
  forced move does not use up depth (a four extends the search);
* the player to move can make an open four (an ``F4`` cell) and the opponent has no
  five to make: a win in three plies (the open four leaves two fives to stop);
* the opponent threatens an open four (it has an ``F4`` cell): the moves are the cells
  where the opponent's codes are ``B4`` or more (the ones that stop or shorten its
  three) and the player's own fours.

Otherwise the moves are the empty cells near stones (:data:`near`), at most ``width``
of them, best first by their *order score*: what the move makes for the player and
what it takes from the opponent (the ``weights`` of the cell's code combinations), less for
a move away from the last moves (:func:`_distance_discount`), the move of the transposition
table first, then the two killer moves of the ply, then by score plus history.

**Selectivity** (each can be turned off through ``params``):

* *move-count pruning* - from the root's grandchildren on, only the first
  :data:`MOVE_LIMITS` moves at the node's depth are searched (fewer while a player
  threatens an open four or a five), unless every one of them loses: a loss is only
  claimed once all ``width`` moves are searched, so the wins and losses the search
  returns are as sound as without the pruning;
* *late-move reductions* - later moves are searched shallower, ``ln(depth) * ln(i + 1) / 1.7``
  plies for the i-th, rounded (one less on the principal variation), or one ply after the third
  quiet move, and again at full depth if they beat alpha; the *adjusted* one is the logarithmic
  one moved by the move's history and the threats (:func:`_reduced`);
* *futility pruning and razoring* - below :data:`FUTILITY_DEPTH`, when no player threatens
  an open four or a five, a position whose static value is ``margin * depth`` above beta
  is worth its static value, and below :data:`RAZOR_DEPTH` one that far under alpha is
  worth its leaf search.

The values, the indices of ``stats`` and ``params``, the arrays of a search, the evaluation and the
threat quiescence are :mod:`plyground.kinrow._leaf_kernels`'s (imported here by their names).

**Evaluation** at depth 0 (:func:`_evaluate`): the sums the pattern board keeps of the
player's cells and the opponent's (``tot``; see :mod:`plyground.kinrow.evaluation`), the tempo
of the colour to move, and a bonus when the player can make a double threat that no four
of the opponent comes before.

**Transposition table**: ``tt``, a table of :mod:`plyground.kinrow._table_kernels` (the threat
solver's is ``ft``); an entry is replaced when the new one is of another position, as deep, or
the old one is from an earlier search (its age: ``params[GENERATION]``). With ``verify`` 1, a win
or a loss the table claims is not taken at a node searched with a full window (the principal
variation): the node is searched again.

Arrays of a search: ``killers`` int32 ``[MAX_PLY, 2]``, ``history`` int32 ``[n*n]``,
``moves``/``scores`` int32 ``[MAX_PLY, n*n]`` (each ply's list), ``ban`` uint8 ``[n*n]``
(root moves not to search), ``stop`` uint8 ``[flag]`` (set by another thread: the search
unwinds at once and its result is not used), ``stats`` int64 (see the indices below),
``params`` int64 ``[width, generation, leaf VCF depth, threat plies, reduce, same depth, renju, n,
tempo of X, tempo of O, hot bonus, prune, futility margin, distance, leaf VCF width, answers,
quiescence, verify]``
(``reduce`` 0: no late-move reduction, 1: one ply, 2: logarithmic, 3: adjusted; ``prune`` 1: move-count
pruning; ``futility margin`` 0: no futility pruning or razoring; ``distance`` 1: the distance
discount of the order; ``leaf VCF width`` 0: the full VCF at depth 0, else the quick one
with this many fours a node; ``same depth`` 1: table values are reused only at
the depth they were searched to, so that the search equals a plain minimax over the same
moves when ``width`` holds them all; ``renju`` 1: X's forbidden points are not moves, see
:func:`_allowed`; ``n`` the board side), the threat solver's arrays
(:mod:`plyground.kinrow._threat_kernels`), ``path`` int32 ``[PATH + MAX_PLY]``: the last
:data:`PATH` moves of the game (-1 where there are fewer), then the move of each ply, and
``scratch`` int32 ``[n*n]`` (the threatening cells while the answers are listed).

**Exact answers** (``answers`` 1, not under renju): when the opponent has a cell of class
``FOUR_THREE`` or more (:mod:`plyground.kinrow.cell_classes`; only looked for when it has an
``F4`` code or a hot cell), the moves are the exact answers to that threat
(:func:`~plyground.kinrow._defence_kernels._defences`: the cells after which it has none left,
at ``OPEN_FOUR`` if it has such a cell, else at ``FOUR_THREE``, then the player's fours), not
the cells that touch the threat; when none is left to play, the moves are as without.

**At depth 0**, before the evaluation: when the player to move has a four to play, the
VCF solver looks for a win by fours (to ``leaf VCF depth`` moves; by default the quick,
incomplete one, :func:`~plyground.kinrow._threat_kernels._vcf` with a width, as many moves as the
path has plies, ``leaf VCF width`` fours at a node, each next to the one before); when the opponent
threatens an open four, the search goes on through the defences, up to ``threat plies``
plies past depth 0. With ``quiescence`` above 0 (not under renju), depth 0 is instead the threat
quiescence of :func:`~plyground.kinrow._leaf_kernels._quiesce`, up to that many plies.

Kernels do no validation; :mod:`plyground.kinrow.engine` does. The naive twin of the
search (``tests/naive/engine.py``) is a plain minimax over the same move lists.
"""

from __future__ import annotations

import numpy as np
from numba import types

from plyground._jit import kernel
from plyground.kinrow._defence_kernels import _defences
from plyground.kinrow._leaf_kernels import ANSWERS as ANSWERS
from plyground.kinrow._leaf_kernels import BEST as BEST
from plyground.kinrow._leaf_kernels import BOARD_N as BOARD_N
from plyground.kinrow._leaf_kernels import DISTANCE as DISTANCE
from plyground.kinrow._leaf_kernels import FUTILITY as FUTILITY
from plyground.kinrow._leaf_kernels import GENERATION as GENERATION
from plyground.kinrow._leaf_kernels import HOT_BONUS as HOT_BONUS
from plyground.kinrow._leaf_kernels import INFINITY as INFINITY
from plyground.kinrow._leaf_kernels import LEAF_VCF as LEAF_VCF
from plyground.kinrow._leaf_kernels import LEAF_WIDTH as LEAF_WIDTH
from plyground.kinrow._leaf_kernels import MAX_PLY as MAX_PLY
from plyground.kinrow._leaf_kernels import NODES as NODES
from plyground.kinrow._leaf_kernels import PARAMS as PARAMS
from plyground.kinrow._leaf_kernels import PATH as PATH
from plyground.kinrow._leaf_kernels import PRUNE as PRUNE
from plyground.kinrow._leaf_kernels import QUIESCENCE as QUIESCENCE
from plyground.kinrow._leaf_kernels import REDUCE as REDUCE
from plyground.kinrow._leaf_kernels import RENJU as RENJU
from plyground.kinrow._leaf_kernels import SAME_DEPTH as SAME_DEPTH
from plyground.kinrow._leaf_kernels import SEARCH as SEARCH
from plyground.kinrow._leaf_kernels import SELDEPTH as SELDEPTH
from plyground.kinrow._leaf_kernels import TEMPO_O as TEMPO_O
from plyground.kinrow._leaf_kernels import TEMPO_X as TEMPO_X
from plyground.kinrow._leaf_kernels import THREAT_PLIES as THREAT_PLIES
from plyground.kinrow._leaf_kernels import TT_HITS as TT_HITS
from plyground.kinrow._leaf_kernels import VERIFY as VERIFY
from plyground.kinrow._leaf_kernels import WIDTH as WIDTH
from plyground.kinrow._leaf_kernels import WIN as WIN
from plyground.kinrow._leaf_kernels import WON as WON
from plyground.kinrow._leaf_kernels import SearchArrays as SearchArrays
from plyground.kinrow._leaf_kernels import _allowed, _evaluate, _quiesce, _threat_level
from plyground.kinrow._pattern_kernels import B4, BOARD, F4, F5, HOT, _combination, _place, _remove
from plyground.kinrow._table_kernels import EXACT, LOWER, TABLE, UPPER, _bound, _find, _store, _value
from plyground.kinrow._threat_kernels import _vcf
from plyground.kinrow.cell_classes import CLASS_TABLE

NO_REDUCTION, ONE_PLY, LOGARITHMIC, ADJUSTED = 0, 1, 2, 3
"""The late-move reductions (``params[REDUCE]``): ``ADJUSTED`` is the logarithmic one adjusted by the
move's history and the threats (see :func:`_reduced`)."""
QUIET = 1_000
"""Moves with a smaller order score may be searched a ply shallower (the one-ply late-move reduction)."""
MOVE_LIMITS = np.array(
    [[min(round(5 * np.sqrt(depth) - 2), 8) for depth in range(64)],
     [min(round(15 * np.sqrt(depth) - 12), 32) for depth in range(64)]], dtype=np.int64
)  # fmt: skip
"""Move-count pruning: at ``depth`` (1 to 63), the moves searched past the root's children, when a
player threatens an open four or a five (row 0: ``5 sqrt(depth) - 2``, at most 8) or not (row 1:
``15 sqrt(depth) - 12``, at most 32), rounded; never more than ``params[WIDTH]``."""
FUTILITY_DEPTH = 7
"""Futility pruning (``params[FUTILITY]``: its margin per ply) is tried below this depth..."""
RAZOR_DEPTH = 5
"""...and razoring (a drop straight to the leaf search) below this one."""
REDUCTION_DIVISOR = 1.7
"""The logarithmic reduction of the i-th move (from 1) at ``depth``: ``ln(depth) * ln(i + 1) / 1.7``
plies, rounded (one less on the principal variation)."""
LOGS = np.log(np.arange(1, 1025, dtype=np.float64))
"""``LOGS[i] = ln(i + 1)``."""
FAR = 3
"""Distance ordering: a move farther than this (in rows or columns) from a recent move is far from it."""


@kernel(types.int64(*([types.int64] * 11)), inline=True)
def _distance_discount(r, c, r1, c1, r2, c2, r3, c3, r4, c4, score):
    """``score`` of the move on row ``r``, column ``c``, less for a move away from the last moves.

    ``r1, c1`` to ``r4, c4`` are the rows and columns of the last four moves before the ply, the
    latest first (far off the board where there is none: see :func:`_recent`). Far (more
    than :data:`FAR` rows or columns away) from both of the last two moves, the score is
    halved; far from the last four, quartered.
    """
    if abs(r1 - r) <= FAR and abs(c1 - c) <= FAR:
        return score
    if abs(r2 - r) <= FAR and abs(c2 - c) <= FAR:
        return score
    if (abs(r3 - r) <= FAR and abs(c3 - c) <= FAR) or (abs(r4 - r) <= FAR and abs(c4 - c) <= FAR):
        return score // 2
    return score // 4


@kernel(types.UniTuple(types.int64, 2)(types.int32[::1], types.int64, types.int64, types.int64), inline=True)
def _recent(path, n, ply, back):
    """The row and column of the move ``back`` plies before ``ply`` (``path[PATH + ply - back]``; far away if none)."""
    last = path[PATH + ply - back]
    if last < 0:
        return -1000, -1000
    return last // n, last % n


@kernel(types.int64(BOARD, types.int64[::1], types.int64, types.int64, types.int64, *([types.int64] * 8)), inline=True)
def _order_score(board, params, me, cell, n, r1, c1, r2, c2, r3, c3, r4, c4):
    """What a move on ``cell`` makes for player ``me`` (0 or 1) and takes from the other, less when far from the last
    moves (``r1, c1`` to ``r4, c4``: their rows and columns)."""
    weights, pat = board.weights, board.pat
    attack = weights[me, _combination(pat, me, cell)]
    defence = weights[1 - me, _combination(pat, 1 - me, cell)]
    score = min(attack * 5 + defence * 4, 100_000_000)
    if params[DISTANCE] != 0:
        r = cell // n
        score = _distance_discount(r, cell - r * n, r1, c1, r2, c2, r3, c3, r4, c4, score)
    return score


@kernel(types.int64(BOARD, SEARCH, types.int64, types.int64), refcount=False)
def _generate(board, search, player, ply):
    """Write the moves of ``player`` at ``ply`` with their order scores into ``moves[ply]``/``scores[ply]``.

    Returns how many, or minus that number when the moves are forced blocks of a five (a block
    that the player may not play counts as ``n*n`` blocks: a lost position either way).
    """
    cells, pat, near, cnt = board.cells, board.pat, board.near, board.cnt
    moves, scores, ban, params, path = search.moves, search.scores, search.ban, search.params, search.path
    me = player - 1
    you = 2 - player
    size = cells.shape[0]
    count = 0
    if cnt[you, F5] > 0:
        for cell in range(size):
            if cells[cell] != 0:
                continue
            for d in range(4):
                if pat[you, cell * 4 + d] == F5:
                    if _allowed(pat, cells, params, player, cell):
                        moves[ply, count] = cell
                        scores[ply, count] = 0
                        count += 1
                    else:
                        count += size  # a block that may not be played: as if there were two to make
                    break
        return -count
    n = params[BOARD_N]
    r1, c1 = _recent(path, n, ply, 1)
    r2, c2 = _recent(path, n, ply, 2)
    r3, c3 = _recent(path, n, ply, 3)
    r4, c4 = _recent(path, n, ply, 4)
    if params[ANSWERS] != 0 and params[RENJU] == 0 and (cnt[you, F4] > 0 or cnt[you, HOT] > 0):
        level = _threat_level(board, you)
        if level > 0:
            found = _defences(board, CLASS_TABLE, player, level, n, search.scratch, moves[ply])
            for i in range(found):
                cell = moves[ply, i]
                if ply == 0 and ban[cell] != 0:
                    continue
                moves[ply, count] = cell
                scores[ply, count] = np.int32(_order_score(board, params, me, cell, n, r1, c1, r2, c2, r3, c3, r4, c4))
                count += 1
            if count > 0:
                return count
    defend = cnt[you, F4] > 0
    check = player == 1 and params[RENJU] != 0  # tested once: a check in the loop slows the loop down
    for cell in range(size):
        if cells[cell] != 0:
            continue
        if near[cell] == 0:
            continue
        if ply == 0 and ban[cell] != 0:
            continue
        if defend:
            ok = False
            for d in range(4):
                theirs = pat[you, cell * 4 + d]
                mine = pat[me, cell * 4 + d]
                if theirs == B4 or theirs == F4 or theirs == F5 or mine == B4 or mine == F4:
                    ok = True
            if not ok:
                continue
        if check and not _allowed(pat, cells, params, player, cell):
            continue
        moves[ply, count] = cell
        scores[ply, count] = np.int32(_order_score(board, params, me, cell, n, r1, c1, r2, c2, r3, c3, r4, c4))
        count += 1
    if count == 0:  # no stone near any empty cell (an empty board): every empty cell, the centre first
        for cell in range(size):
            if cells[cell] == 0 and not (ply == 0 and ban[cell] != 0) and _allowed(pat, cells, params, player, cell):
                r = cell // n - n // 2
                c = cell % n - n // 2
                moves[ply, count] = cell
                scores[ply, count] = -(r * r + c * c)
                count += 1
    return count


@kernel(types.void(SEARCH, types.int64, types.int64, types.int64), inline=True)
def _order(search, ply, count, hash_move):
    """Raise the order score of each of the ``count`` moves at ``ply`` by its history, and the table's move
    (``hash_move``) and the ply's two killers above all others, in that order."""
    moves, scores, killers, history = search.moves, search.scores, search.killers, search.history
    for i in range(count):
        cell = moves[ply, i]
        bonus = 0
        if cell == hash_move:
            bonus = 1 << 30
        elif cell == killers[ply, 0]:
            bonus = 1 << 29
        elif cell == killers[ply, 1]:
            bonus = 1 << 28
        scores[ply, i] = np.int32(min(np.int64(scores[ply, i]) + history[cell] + bonus, 2_100_000_000))


@kernel(types.void(SEARCH, types.int64, types.int64, types.int64), inline=True)
def _bring_best(search, ply, i, count):
    """Move the best-scored of the moves ``i`` to ``count - 1`` at ``ply`` to place ``i`` (a step of a selection sort:
    the moves after a cut-off are never sorted)."""
    moves, scores = search.moves, search.scores
    pick = i
    for j in range(i + 1, count):
        if scores[ply, j] > scores[ply, pick]:
            pick = j
    if pick != i:
        tmp = moves[ply, i]
        moves[ply, i] = moves[ply, pick]
        moves[ply, pick] = tmp
        tmp = scores[ply, i]
        scores[ply, i] = scores[ply, pick]
        scores[ply, pick] = tmp


@kernel(
    types.int64(
        types.int64[::1], types.int64, types.int64, types.boolean, types.boolean, types.boolean, types.boolean,
        types.int64,
    ),
    inline=True,
)  # fmt: skip
def _reduced(params, next_depth, i, principal, quiet, forced, threatened, history):
    """The depth the ``i``-th move (from 1) is first searched to: ``next_depth`` less its late-move reduction (one
    less on a ``principal`` node, a full window).

    The ``ADJUSTED`` reduction starts from the logarithmic one and reduces a ply less for a move that
    is not ``quiet`` (it makes or stops a three or a four), a ply less on a node where the opponent
    can make an open four (``threatened``), a ply less for a move whose ``history`` (its cut-offs, each
    ``depth**2``) reaches ``next_depth**2``, and a ply more for a quiet move off the principal
    variation that never cut off.
    """
    mode = params[REDUCE]
    if (mode == LOGARITHMIC or mode == ADJUSTED) and next_depth >= 2 and not forced:
        r = int(LOGS[next_depth] * LOGS[i] / REDUCTION_DIVISOR + 0.5)
        if principal and r > 0:
            r -= 1
        if mode == ADJUSTED:
            if not quiet:
                r -= 1
            if threatened:
                r -= 1
            if history >= next_depth * next_depth:
                r -= 1
            elif history == 0 and quiet and not principal:
                r += 1
            r = min(max(r, 0), next_depth - 1)
        return max(1, next_depth - r)
    if mode == ONE_PLY and i >= 3 and next_depth >= 2 and quiet and not forced:
        return next_depth - 1
    return next_depth


@kernel(types.int64(BOARD, SEARCH, types.int64, types.int64, types.int64, types.int64, types.int64), refcount=False)
def _negamax(board, search, player, depth, ply, alpha, beta):
    """The negamax value of the position for ``player`` (to move), ``depth`` plies deep (threats extend it)."""
    cells, pat, cnt, hsh = board.cells, board.pat, board.cnt, board.hsh
    tt, killers, history, moves, scores, _, stop, stats, params, ft, line, vstats, path, _ = search
    stats[NODES] += 1
    if ply > stats[SELDEPTH]:
        stats[SELDEPTH] = ply
    if stop[0] != 0:
        return 0
    me = player - 1
    you = 2 - player
    if cnt[me, F5] > 0:
        return WIN - ply - 1
    forced = cnt[you, F5] > 0
    if not forced and cnt[me, F4] > 0:
        if ply > 0 and (player != 1 or params[RENJU] == 0):
            return WIN - ply - 3
        for cell in range(cells.shape[0]):  # at the root, the move is needed too
            if cells[cell] == 0 and _allowed(pat, cells, params, player, cell):
                for d in range(4):
                    if pat[me, cell * 4 + d] == F4:
                        if ply == 0:
                            stats[BEST] = cell
                        return WIN - ply - 3
    if ply >= MAX_PLY - 4:
        return _evaluate(board, params, player)
    if depth <= 0 and params[QUIESCENCE] > 0:
        return _quiesce(board, search, player, 0, ply, alpha, beta)
    key = hsh[0]
    slot = _find(tt, key)
    hash_move = -1
    if slot >= 0:
        hash_move = np.int64(tt[slot]["move"])
        entry_depth = np.int64(tt[slot]["depth"])
        if ply > 0 and (entry_depth == depth or (entry_depth > depth and params[SAME_DEPTH] == 0)):
            value = _value(tt, slot, ply, WON)
            bound = _bound(tt, slot)
            if params[VERIFY] != 0 and beta - alpha > 1 and (value >= WON or value <= -WON):
                pass  # a win or loss claimed on the principal variation is searched again, not taken on trust
            elif bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
                stats[TT_HITS] += 1
                return value
    threatened = cnt[you, F4] > 0  # the opponent threatens an open four
    if depth <= 0 and not forced:
        settle = not threatened or depth <= -params[THREAT_PLIES]
        static = 0
        if settle:
            static = _evaluate(board, params, player)
            if static >= beta:  # a VCF could only raise it: the cut-off stands without one
                return static
        if cnt[me, B4] > 0 and params[LEAF_VCF] > 0 and (player != 1 or params[RENJU] == 0):
            vstats[0] = 0
            reach = params[LEAF_VCF]
            if params[LEAF_WIDTH] > 0:  # the quick VCF, as long as the path so far and no longer than the line has room
                reach = min(reach, ply + 1, (line.shape[0] - ply - 4) // 2)
            won = _vcf(board, ft, line, stop, vstats, player, reach, ply, -1, params[LEAF_WIDTH])
            stats[NODES] += vstats[0]
            if won:
                return WIN - vstats[1]
        if settle:
            return static
    if params[FUTILITY] > 0 and ply > 0 and 0 < depth < FUTILITY_DEPTH and not forced and not threatened:
        static = _evaluate(board, params, player)
        margin = params[FUTILITY] * depth
        if static - margin >= beta:  # so far ahead that no move is searched
            return static
        if depth < RAZOR_DEPTH and static + margin <= alpha:  # so far behind: only the leaf search
            return _negamax(board, search, player, depth - depth, ply, alpha, beta)
    count = _generate(board, search, player, ply)
    if count < 0:
        count = -count
        if count >= 2:
            if ply == 0:
                stats[BEST] = moves[ply, 0]
            return -(WIN - ply - 2)
        next_depth = depth
    else:
        next_depth = depth - 1
    if count == 0:
        return 0
    _order(search, ply, count, hash_move)
    width = params[WIDTH] if ply > 0 else count
    if width > count:
        width = count
    limit = width
    if params[PRUNE] != 0 and ply >= 2:
        quiet_node = cnt[0, F4] == 0 and cnt[1, F4] == 0 and cnt[0, F5] == 0 and cnt[1, F5] == 0
        limit = MOVE_LIMITS[1 if quiet_node else 0, max(1, min(depth, 63))]
    best = -INFINITY
    best_move = -1
    a = alpha
    for i in range(width):
        if i >= limit and best > -WON:  # pruned: but while every move so far loses, the others are tried
            break
        _bring_best(search, ply, i, count)
        cell = moves[ply, i]
        quiet = scores[ply, i] < QUIET
        path[PATH + ply] = cell
        _place(board, cell, player)
        if i == 0:
            value = -_negamax(board, search, 3 - player, next_depth, ply + 1, -beta, -a)
        else:
            reduced = _reduced(params, next_depth, i, beta - alpha > 1, quiet, forced, threatened, history[cell])
            value = -_negamax(board, search, 3 - player, reduced, ply + 1, -a - 1, -a)
            if value > a and (reduced < next_depth or value < beta):
                value = -_negamax(board, search, 3 - player, next_depth, ply + 1, -beta, -a)
        _remove(board, cell)
        if stop[0] != 0:
            return 0
        if value > best:
            best = value
            best_move = cell
            if ply == 0:
                stats[BEST] = cell
            if value > a:
                a = value
                if a >= beta:
                    if scores[ply, i] < (1 << 28) and killers[ply, 0] != cell:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = cell
                    history[cell] += depth * depth
                    break
    bound = EXACT
    if best <= alpha:
        bound = UPPER
    elif best >= beta:
        bound = LOWER
    _store(tt, key, best, best_move, depth, bound, ply, WON, params[GENERATION], 1)
    return best


@kernel(types.int64(BOARD, TABLE, types.int64, types.int32[::1]), refcount=False)
def _principal_variation(board, tt, player, out):
    """Follow the table's moves from the position (then undo them); returns how many were written to ``out``."""
    cells, pat, hsh = board.cells, board.pat, board.hsh
    length = 0
    side = player
    while length < out.shape[0]:
        slot = _find(tt, hsh[0])
        if slot < 0:
            break
        cell = np.int64(tt[slot]["move"])
        if cell < 0 or cells[cell] != 0:
            break
        out[length] = cell
        length += 1
        five = False
        for d in range(4):
            if pat[side - 1, cell * 4 + d] == F5:
                five = True
        _place(board, cell, side)
        side = 3 - side
        if five:
            break
    for i in range(length - 1, -1, -1):
        _remove(board, out[i])
    return length
