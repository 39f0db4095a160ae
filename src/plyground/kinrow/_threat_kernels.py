"""Numba kernels of the threat-space solver: VCF (victory by continuous fours) and VCT (by threes and fours).

Both work on a pattern board (:mod:`plyground.kinrow._pattern_kernels`) for the
*attacker*, the player to move, and read only its codes:

* the attacker wins at once when one of its codes is ``F5`` (a cell that makes five);
* when the defender has an ``F5`` cell, the attacker must take that cell, and the move
  must itself be a threat for the attack to go on;
* a *four* is a move on a cell with a ``B4`` or ``F4`` code: the defender must answer on
  the cell that would make five (if the four leaves two such cells, it cannot);
* a *three* (VCT only) is a move on a cell with an ``F3`` code: it threatens an open
  four. The defender may answer on any cell where the attacker's codes are ``B4`` or
  above (the cells that stop or shorten the three) or with a four of its own, and the
  attack must win against every such answer. While the defender has an open three
  itself (an ``F4`` cell), a three must also stop it (leave the defender no ``F4`` cell),
  since its open four would come first. A forced block of the defender's five goes on as
  a three when the attacker's open three still stands (it still has an ``F4`` cell).

A search is depth-first to a number of attacker moves (the five included: an open four on
the board is a win in one move, an open three in two), with a table of positions that
were shown not to win to some depth for the attacker (``ft``, a table of
:mod:`plyground.kinrow._table_kernels`: the Zobrist key mixed with the attacker and the solver,
the depth shown; a slot is overwritten by any later failure). ``line`` receives the winning
line from ``ply`` on (attacker move, forced answer, ...; for VCT, the answers of the first
defence tried); ``stats`` is int64 ``[nodes, line length]``; ``stop`` uint8 ``[flag]`` ends the search at once.

Forbidden moves (renju) are not known here: the caller gives the rule's tables, and
for renju the solver is used only for the player without forbidden moves.
Kernels do no validation; :mod:`plyground.kinrow.threats` does. Twins in ``tests/naive/threats.py``.
"""

from __future__ import annotations

import numpy as np
from numba import types

from plyground._jit import kernel
from plyground.kinrow._pattern_kernels import B3, B4, BOARD, F3, F4, F5, SLOTS, _place, _remove
from plyground.kinrow._table_kernels import TABLE, UPPER, _find, _store

NODES, LENGTH = 0, 1
_ATTACKER_O = 0xD6E8FEB86659FD93
"""Mixed into the table key when O attacks: a position fails for one attacker, not for both."""
_VCT_SALT = 0xC2B2AE3D27D4EB4F
"""Mixed into the table key of the VCT: its failures are not the VCF's."""
_SEARCH = (TABLE, types.int32[::1], types.uint8[::1], types.int64[::1])


@kernel(types.int64(types.uint8[:, ::1], types.int64, types.int64), inline=True)
def _best_code(pat, side, cell):
    """The strongest code of player ``side`` (0 or 1) on ``cell`` over the four directions (F5 > F4 > B4 > ...)."""
    best = 0
    for d in range(4):
        code = pat[side, cell * 4 + d]
        if code != 10 and code > best:
            best = code
    return best


@kernel(types.int64(BOARD, types.int64, types.int64), refcount=False)
def _five_cell(board, side, skip):
    """An empty cell where player ``side`` (0 or 1) makes five, other than ``skip``; -1 if none."""
    cells, pat = board.cells, board.pat
    size = cells.shape[0]
    for cell in range(size):
        if cells[cell] != 0 or cell == skip:
            continue
        for d in range(4):
            if pat[side, cell * 4 + d] == F5:
                return cell
    return -1


@kernel(types.int64(BOARD, types.int64, types.int64), refcount=False)
def _five_cell_near(board, side, move):
    """An empty cell on the four lines of ``move`` where player ``side`` makes five (-1 if none)."""
    cells, pat, nbr = board.cells, board.pat, board.nbr
    for d in range(4):
        base = (move * 4 + d) * SLOTS
        for s in range(SLOTS):
            t = nbr[base + s]
            if t >= 0 and cells[t] == 0:
                for e in range(4):
                    if pat[side, t * 4 + e] == F5:
                        return t
    return -1


@kernel(types.void(BOARD, types.int32[::1], types.int64[::1], types.int64, types.int64), refcount=False)
def _open_four(board, line, stats, player, ply):
    """Write the line of an open four of ``player`` (it has an ``F4`` cell): the four, a block, the five."""
    cells, pat = board.cells, board.pat
    me = player - 1
    size = cells.shape[0]
    for cell in range(size):
        if cells[cell] == 0 and _best_code(pat, me, cell) == F4:
            _place(board, cell, player)
            first = _five_cell_near(board, me, cell)
            second = _five_cell(board, me, first)
            _remove(board, cell)
            line[ply] = cell
            line[ply + 1] = first
            line[ply + 2] = second
            stats[LENGTH] = ply + 3
            return


@kernel(types.int64(BOARD, *_SEARCH, types.int64, types.int64, types.int64, types.int64))
def _vct(board, ft, line, stop, stats, player, depth, ply, budget):
    """Whether ``player`` (to move) wins by fours and threes within ``depth`` of its moves.

    ``budget``: at most this many nodes in all (``stats[NODES]``), then it gives up (no win).
    """
    cells, pat, near, cnt, hsh = board.cells, board.pat, board.near, board.cnt, board.hsh
    stats[NODES] += 1
    if stop[0] != 0 or stats[NODES] > budget:
        return 0
    me = player - 1
    you = 2 - player
    if depth <= 0:
        return 0
    if cnt[me, F5] > 0:
        line[ply] = _five_cell(board, me, -1)
        stats[LENGTH] = ply + 1
        return 1
    if depth == 1:  # a four and its five need two moves
        return 0
    key = hsh[0] ^ np.uint64(_VCT_SALT) ^ np.uint64(_ATTACKER_O if player == 2 else 0)
    slot = _find(ft, key)
    if slot >= 0 and ft[slot]["depth"] >= depth:
        return 0
    size = cells.shape[0]
    only = -1
    if cnt[you, F5] > 0:
        only = _five_cell(board, you, -1)
        if _five_cell(board, you, only) >= 0:
            return 0
    threes = only < 0
    blocking = cnt[you, F4] > 0  # the defender has an open three: a three must also stop it
    pending = only >= 0 and cnt[me, F4] > 0  # our open three still stands: a forced block keeps the threat
    if cnt[me, F4] > 0 and only < 0:  # an open four now: five next, whatever the answer
        _open_four(board, line, stats, player, ply)
        return 1
    replies = np.empty(size, dtype=np.int32)
    for cell in range(size):
        if only >= 0 and cell != only:
            continue
        if cells[cell] != 0 or near[cell] == 0:
            continue
        code = _best_code(pat, me, cell)
        four = code == B4 or code == F4
        if not four and not (threes and code == F3) and not pending:
            continue
        if not four and blocking and _best_code(pat, you, cell) < B4:
            continue
        _place(board, cell, player)
        won = 0
        if cnt[you, F5] == 0 and (four or cnt[you, F4] == 0):
            if four:
                answer = _five_cell_near(board, me, cell)
                if answer >= 0:
                    _place(board, answer, 3 - player)
                    won = _vct(board, ft, line, stop, stats, player, depth - 1, ply + 2, budget)
                    _remove(board, answer)
                    if won:
                        line[ply + 1] = answer
                else:
                    won = 0
            else:
                count = 0
                for t in range(size):
                    if cells[t] != 0 or near[t] == 0:
                        continue
                    mine = _best_code(pat, me, t)
                    theirs = _best_code(pat, you, t)
                    if mine >= B4 or theirs == B4 or theirs == F4:
                        replies[count] = t
                        count += 1
                won = 1
                first = -1
                for i in range(count):
                    answer = replies[i]
                    _place(board, answer, 3 - player)
                    ok = _vct(board, ft, line, stop, stats, player, depth - 1, ply + 2, budget)
                    _remove(board, answer)
                    if not ok:
                        won = 0
                        break
                    if first < 0:
                        first = answer
                if won and first >= 0:  # re-find the line of the first defence, for the caller to show
                    _place(board, first, 3 - player)
                    _vct(board, ft, line, stop, stats, player, depth - 1, ply + 2, budget + stats[NODES])
                    _remove(board, first)
                    line[ply + 1] = first
                elif won:
                    stats[LENGTH] = ply + 1
        _remove(board, cell)
        if won:
            line[ply] = cell
            return 1
        if stop[0] != 0 or stats[NODES] > budget:
            return 0
    _store(ft, key, 0, -1, depth, UPPER, 0, 1, 0, 0)
    return 0


_QUICK_SALT = 0x9E6C63D0676A9A99
"""Mixed into the table key of the quick VCF: its failures are not the full VCF's..."""
_QUICK_LAST = 0xA24BAED4963EE407
"""...and depend on the previous four and the width, mixed in times this odd number."""
QUICK_WIDTH = 4
"""The most fours a node of the quick VCF tries."""


@kernel(types.int64(types.uint8[:, ::1], types.int64, types.int64), inline=True)
def _four_worth(pat, side, cell):
    """What a four of player ``side`` (0 or 1) on ``cell`` prepares; 0 when it is no four.

    Each line of the cell counts: a four (``B4`` or ``F4``) 4, an open three 3, a three 1;
    less the 4 of the four itself. A four worth 0 makes nothing else, so after the forced
    block no next four can use its stone.
    """
    fours = 0
    worth = 0
    for d in range(4):
        code = pat[side, cell * 4 + d]
        if code == B4 or code == F4:
            fours += 1
            worth += 4
        elif code == F3:
            worth += 3
        elif code == B3:
            worth += 1
    if fours == 0:
        return 0
    return worth - 4


@kernel(types.int64(BOARD, *_SEARCH, types.int64, types.int64, types.int64, types.int64, types.int64), refcount=False)
def _vcf(board, ft, line, stop, stats, player, depth, ply, last, width):
    """Whether ``player`` (to move) wins by fours within ``depth`` of its moves; the line is written from ``ply``.

    ``width`` 0: the complete VCF, every four tried in cell order (a failure proves there is
    none within ``depth``). ``width`` 1 to :data:`QUICK_WIDTH`: the *quick*, incomplete VCF. A four
    must prepare something (:func:`_four_worth` above 0), each four after the first must lie on
    one of the four lines of the one before (``last``, its ten cells on each; -1: the first,
    anywhere), and only the ``width`` worth the most are tried, the first found first among
    equals (by cell at the first four, by line and place on the line after). A win it finds is
    a win; a failure proves nothing. Its table keys hold ``last`` and ``width``, so what it
    caches is exact. (``last`` is not read by the complete VCF: pass -1.)
    """
    cells, pat, near, cnt, hsh, nbr = board.cells, board.pat, board.near, board.cnt, board.hsh, board.nbr
    stats[NODES] += 1
    if stop[0] != 0:
        return 0
    me = player - 1
    you = 2 - player
    if depth <= 0:
        return 0
    if cnt[me, F5] > 0:
        line[ply] = _five_cell(board, me, -1)
        stats[LENGTH] = ply + 1
        return 1
    if depth == 1:  # a four and its five need two moves
        return 0
    key = hsh[0] ^ np.uint64(_ATTACKER_O if player == 2 else 0)
    if width > 0:
        key ^= np.uint64(_QUICK_SALT) ^ np.uint64((last + 2) * 8 + width) * np.uint64(_QUICK_LAST)
    slot = _find(ft, key)
    if slot >= 0 and ft[slot]["depth"] >= depth:
        return 0
    only = -1
    if cnt[you, F5] > 0:
        only = _five_cell(board, you, -1)
        if _five_cell(board, you, only) >= 0:
            return 0  # two fives to stop: the defender wins
    if cnt[me, F4] > 0 and only < 0:  # an open four now: five next, whatever the answer
        _open_four(board, line, stats, player, ply)
        return 1
    # the quick VCF's fours to try, best first, in four slots (no array to allocate at each node)
    c0 = c1 = c2 = c3 = -1
    w0 = w1 = w2 = w3 = -1
    if width > 0:
        if only >= 0:
            code = _best_code(pat, me, only)
            if code == B4 or code == F4:
                c0 = only
        else:
            scan = cells.shape[0] if last < 0 else 4 * SLOTS
            for i in range(scan):
                cell = i if last < 0 else nbr[last * 4 * SLOTS + i]
                if cell < 0 or cells[cell] != 0:
                    continue
                worth = _four_worth(pat, me, cell)
                if worth <= 0:
                    continue
                if worth > w0:
                    c3, w3, c2, w2, c1, w1, c0, w0 = c2, w2, c1, w1, c0, w0, cell, worth
                elif worth > w1:
                    c3, w3, c2, w2, c1, w1 = c2, w2, c1, w1, cell, worth
                elif worth > w2:
                    c3, w3, c2, w2 = c2, w2, cell, worth
                elif worth > w3:
                    c3, w3 = cell, worth
    for i in range(cells.shape[0] if width == 0 else width):
        if width == 0:  # every four, in cell order (only the block when there is a five to stop)
            cell = i
            if (only >= 0 and cell != only) or cells[cell] != 0 or near[cell] == 0:
                continue
            code = _best_code(pat, me, cell)
            if code != B4 and code != F4:
                continue
        else:
            cell = c0 if i == 0 else c1 if i == 1 else c2 if i == 2 else c3
            if cell < 0:
                break
        _place(board, cell, player)
        answer = _five_cell_near(board, me, cell)
        won = 0
        if answer >= 0 and cnt[you, F5] == 0:
            second = -1
            for d in range(4):
                for s in range(SLOTS):
                    t = nbr[(cell * 4 + d) * SLOTS + s]
                    if t >= 0 and t != answer and cells[t] == 0:
                        for e in range(4):
                            if pat[me, t * 4 + e] == F5:
                                second = t
            if second >= 0:
                line[ply + 1] = answer
                line[ply + 2] = second
                stats[LENGTH] = ply + 3
                won = 1
            else:
                _place(board, answer, 3 - player)
                won = _vcf(board, ft, line, stop, stats, player, depth - 1, ply + 2, cell if width > 0 else -1, width)
                _remove(board, answer)
                if won:
                    line[ply + 1] = answer
        _remove(board, cell)
        if won:
            line[ply] = cell
            return 1
        if stop[0] != 0:
            return 0
    _store(ft, key, 0, -1, depth, UPPER, 0, 1, 0, 0)
    return 0
