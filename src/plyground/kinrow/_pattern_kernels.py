"""Numba kernels of line patterns: the pattern tables, and a board that keeps its pattern codes up to date.

**Line keys.** For a cell and one of the four directions (row, column, diagonal,
anti-diagonal), the *line key* holds the ten cells around it on that line, five on each
side, two bits each: 0 empty, 1 X, 2 O, 3 off the board or blocked. Slot ``s`` (bits
``2s, 2s + 1``) is the cell at offset ``s - 5`` for ``s < 5`` and ``s - 4`` for ``s >= 5``,
so the key is a 20-bit number and the cell itself is not in it.

**Pattern tables.** ``table[key]`` says what a stone of one player (*own*) on the cell
makes in that line, from the cells of the key alone (the lines through the cell in that
direction, up to five cells away), as one of the codes below, defined from the top down:

* ``F5`` - five: k in a row through the cell (k or more where overlines win);
* ``OL`` - an overline, where only exactly k wins (more than k in a row through the cell);
* ``F4`` - an open four: two or more empty cells of the line would each make ``F5``;
* ``B4`` - a four: exactly one would;
* ``F3`` - an open three: some empty cell would make ``F4``; ``B3`` - a three: some would make ``B4``;
* ``F2`` / ``B2`` - a two: some empty cell would make ``F3`` / ``B3``;
* ``F1`` / ``B1`` - one: some empty cell would make ``F2`` / ``B2``;
* ``NONE`` - no five can ever go through the cell on this line.

Each code of a key is defined by the codes of keys with one more own stone, so
:func:`_fill_table` fills the table from the keys with the most own stones down: one
pass over the keys, ten lookups per key. The tables depend on k, on the own player and
on whether overlines win; a five must go through the cell, so the cells five away are
enough to tell an exact five from an overline.

**The pattern board** (state owned by the caller, changed only by :func:`_place` and
:func:`_remove`):

* ``cells`` - int8 ``[n*n]``: 0 empty, 1 X, 2 O, 3 blocked;
* ``keys`` - uint32 ``[n*n*4]``: the line key of each cell and direction, kept for every
  cell (empty or not);
* ``pat`` - uint8 ``[2, n*n*4]``: ``tables[p][keys]`` for player ``p + 1``, valid on empty cells;
* ``near`` - int32 ``[n*n]``: stones at distance 1 or 2 along the four lines (candidate moves);
* ``cnt`` - int32 ``[2, NPAT + 1]``: for each player, how many (empty cell, direction) pairs
  have each code, and in column ``HOT`` how many empty cells are *hot* (a combination worth
  at least ``HOT_VALUE``: a move there makes a double threat);
* ``tot`` - int64 ``[rows]``: for each row ``r`` of ``weights``, the sum over the empty cells of
  ``weights[r, combination]``, the worth of the four codes of player ``r % 2 + 1`` on the
  cell together (the *combination* of codes ``c0..c3`` is the number
  ``((c0 * 11 + c1) * 11 + c2) * 11 + c3``); rows 0 and 1 are the worth the hot cells
  and the move order read, further pairs of rows are free (the engine's evaluation);
* ``hsh`` - uint64 ``[1]``: the Zobrist key of the stones and blocked cells (``zob[cell, value]``).

Static arrays: ``nbr`` - int32 ``[n*n*4*10]``, the cell at each slot of each key (-1 off
the board); ``tables`` - uint8 ``[3, 2**20]``, the tables of X and O under the rule, and in
row 2 both codes of a key in one byte (X's in the low four bits: a placed stone's forty keys
are looked up once each, from a table half the size of the two);
``weights`` - int64 ``[rows, NPAT**4]`` (an even number of rows). Placing or removing a stone
changes forty keys (ten per direction), and their codes, counts and totals: a few hundred operations.

Kernels do no validation; :mod:`plyground.kinrow.patterns` does. Twins in ``tests/naive/patterns.py``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import types

from plyground._jit import kernel

NONE, B1, F1, B2, F2, B3, F3, B4, F4, F5, OL = range(11)
NPAT = 11
HOT = NPAT
"""The column of ``cnt`` that counts a player's *hot* cells: combinations worth ``HOT_VALUE`` or more."""
HOT_VALUE = 2_500
MAX_ROWS = 6
"""The most rows of weights a board sums (the worth of X and O, and two more pairs)."""
SLOTS = 10
KEY_BITS = 2 * SLOTS
KEYS = 1 << KEY_BITS
WALL = 3

_DR = (0, 1, 1, 1)
_DC = (1, 0, 1, -1)


def _readonly(dtype: types.Type, ndim: int) -> types.Array:
    return types.Array(dtype, ndim, "C", readonly=True)


class BoardArrays(NamedTuple):
    """The arrays of a pattern board (see the module), one argument of every board kernel.

    The first seven change with the position (a search's playouts copy them), the last four
    are read-only: ``nbr``, ``tables``, ``weights`` and ``zob``.
    """

    cells: Any
    keys: Any
    pat: Any
    near: Any
    cnt: Any
    tot: Any
    hsh: Any
    nbr: Any
    tables: Any
    weights: Any
    zob: Any


CHANGING = 7
"""The arrays of a board that change with its position: the first seven of :class:`BoardArrays`."""
BOARD = types.NamedTuple(
    (
        types.int8[::1], types.uint32[::1], types.uint8[:, ::1], types.int32[::1], types.int32[:, ::1],
        types.int64[::1], types.uint64[::1],
        _readonly(types.int32, 1), _readonly(types.uint8, 2), _readonly(types.int64, 2), _readonly(types.uint64, 2),
    ),
    BoardArrays,
)  # fmt: skip
"""The numba type of :class:`BoardArrays`."""


@kernel("void(i8, i8, b1, u1[::1], i8[::1])")
def _fill_table(k, own, exact, table, order):
    """Set ``table[key]``, the code of an ``own`` stone, for each key of ``order``, in that order.

    The code of a key reads the codes of the keys with one more own stone, so ``order``
    lists keys with more own stones first (and holds those keys too).
    """
    for key in order:
        left = 0
        s = 4
        while s >= 0 and (key >> (2 * s)) & 3 == own:
            left += 1
            s -= 1
        right = 0
        s = 5
        while s < SLOTS and (key >> (2 * s)) & 3 == own:
            right += 1
            s += 1
        run = left + right + 1
        if run == k or (run > k and not exact):
            table[key] = F5
            continue
        if run > k:
            table[key] = OL
            continue
        n5 = 0
        n4f = 0
        n4b = 0
        n3f = 0
        n3b = 0
        n2f = 0
        n2b = 0
        for s in range(SLOTS):
            if (key >> (2 * s)) & 3 != 0:
                continue
            sub = table[key | (own << (2 * s))]
            if sub == F5:
                n5 += 1
            elif sub == F4:
                n4f += 1
            elif sub == B4:
                n4b += 1
            elif sub == F3:
                n3f += 1
            elif sub == B3:
                n3b += 1
            elif sub == F2:
                n2f += 1
            elif sub == B2:
                n2b += 1
        if n5 >= 2:
            table[key] = F4
        elif n5 == 1:
            table[key] = B4
        elif n4f > 0:
            table[key] = F3
        elif n4b > 0:
            table[key] = B3
        elif n3f > 0:
            table[key] = F2
        elif n3b > 0:
            table[key] = B2
        elif n2f > 0:
            table[key] = F1
        elif n2b > 0:
            table[key] = B1
        else:
            table[key] = NONE


@kernel(types.int64(types.uint8[:, ::1], types.int64, types.int64), inline=True)
def _combination(pat, side, cell):
    """The combination number of player ``side``'s (0 or 1) four codes on ``cell``."""
    base = cell * 4
    return ((np.int64(pat[side, base]) * NPAT + pat[side, base + 1]) * NPAT + pat[side, base + 2]) * NPAT + pat[
        side, base + 3
    ]


_COUNTS = (types.uint8[:, ::1], types.int32[:, ::1], types.int64[::1])
_PLACE_VALUE = np.array([NPAT**3, NPAT**2, NPAT, 1], dtype=np.int64)
"""What a code in each direction counts for in a combination number."""


@kernel(types.void(*_COUNTS, _readonly(types.int64, 2), types.int64, types.int64), inline=True)
def _count(pat, cnt, tot, weights, cell, sign):
    """Add (``sign`` 1) or take away (-1) the codes and combination worth of the empty ``cell`` in the counts."""
    for side in range(2):
        for d in range(4):
            cnt[side, pat[side, cell * 4 + d]] += sign
        combination = _combination(pat, side, cell)
        value = weights[side, combination]
        tot[side] += sign * value
        if value >= HOT_VALUE:
            cnt[side, HOT] += sign
        for row in range(side + 2, weights.shape[0], 2):
            tot[row] += sign * weights[row, combination]


@kernel("void(i8, i4[::1])")
def _build_neighbours(n, nbr):
    """Fill ``nbr`` with the cell at each slot of each line key of the n×n board (-1 off the board)."""
    for cell in range(n * n):
        r = cell // n
        c = cell % n
        for d in range(4):
            for s in range(SLOTS):
                off = s - 5 if s < 5 else s - 4
                rr = r + off * _DR[d]
                cc = c + off * _DC[d]
                if 0 <= rr < n and 0 <= cc < n:
                    nbr[(cell * 4 + d) * SLOTS + s] = rr * n + cc
                else:
                    nbr[(cell * 4 + d) * SLOTS + s] = -1


@kernel(types.void(BOARD))
def _init_board(board):
    """Set every key, code, count and total from ``cells`` (the other arrays' contents are ignored)."""
    cells, keys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob = board
    size = cells.shape[0]
    cnt[:, :] = 0
    tot[:] = 0
    hsh[0] = np.uint64(0)
    for cell in range(size):
        near[cell] = 0
        for d in range(4):
            key = 0
            for s in range(SLOTS):
                t = nbr[(cell * 4 + d) * SLOTS + s]
                v = WALL if t < 0 else np.int64(cells[t])
                key |= v << (2 * s)
                if t >= 0 and 3 <= s <= 6 and (cells[t] == 1 or cells[t] == 2):
                    near[cell] += 1
            keys[cell * 4 + d] = np.uint32(key)
    for cell in range(size):
        v = cells[cell]
        if v != 0:
            hsh[0] ^= zob[cell, v]
        for side in range(2):
            for d in range(4):
                pat[side, cell * 4 + d] = tables[side, keys[cell * 4 + d]]
        if v == 0:
            _count(pat, cnt, tot, weights, cell, 1)


@kernel(
    types.void(
        types.int8[::1], types.uint32[::1], types.uint8[:, ::1], types.int32[::1], *_COUNTS[1:],
        _readonly(types.int32, 1), _readonly(types.uint8, 2), _readonly(types.int64, 2),
        types.int64, types.int64, types.boolean,
    ),
    inline=True,
)  # fmt: skip
def _relines(cells, keys, pat, near, cnt, tot, nbr, tables, weights, cell, player, place):
    """Put (``place``) or take away the ``player`` stone of ``cell`` in the keys of its four lines.

    Each empty cell of those lines gets the codes of its new key, and the counts and totals
    follow. A cell is on one line through ``cell`` only, so one of its codes changes at
    most; its combination number changes by the code's place value. The totals are summed
    in locals and written once (``weights`` has at most :data:`MAX_ROWS` rows).
    """
    rows = weights.shape[0]
    t0 = np.int64(0)
    t1 = np.int64(0)
    t2 = np.int64(0)
    t3 = np.int64(0)
    t4 = np.int64(0)
    t5 = np.int64(0)
    hot0 = 0
    hot1 = 0
    for d in range(4):
        base = (cell * 4 + d) * SLOTS
        step = _PLACE_VALUE[d]
        for s in range(SLOTS):
            t = nbr[base + s]
            if t < 0:
                continue
            index = t * 4 + d
            shift = 2 * (SLOTS - 1 - s)
            if place:
                keys[index] |= np.uint32(player << shift)
                if 3 <= s <= 6:
                    near[t] += 1
            else:
                keys[index] &= np.uint32(~(3 << shift) & (KEYS - 1))
                if 3 <= s <= 6:
                    near[t] -= 1
            if cells[t] != 0:
                continue
            both = tables[2, keys[index]]
            old = pat[0, index]
            new = both & 15
            if old != new:
                was = _combination(pat, 0, t)
                now = was + (np.int64(new) - np.int64(old)) * step
                pat[0, index] = new
                cnt[0, old] -= 1
                cnt[0, new] += 1
                before = weights[0, was]
                after = weights[0, now]
                t0 += after - before
                if after >= HOT_VALUE:
                    hot0 += 1
                if before >= HOT_VALUE:
                    hot0 -= 1
                if rows > 2:
                    t2 += weights[2, now] - weights[2, was]
                    if rows > 4:
                        t4 += weights[4, now] - weights[4, was]
            old = pat[1, index]
            new = both >> 4
            if old != new:
                was = _combination(pat, 1, t)
                now = was + (np.int64(new) - np.int64(old)) * step
                pat[1, index] = new
                cnt[1, old] -= 1
                cnt[1, new] += 1
                before = weights[1, was]
                after = weights[1, now]
                t1 += after - before
                if after >= HOT_VALUE:
                    hot1 += 1
                if before >= HOT_VALUE:
                    hot1 -= 1
                if rows > 2:
                    t3 += weights[3, now] - weights[3, was]
                    if rows > 4:
                        t5 += weights[5, now] - weights[5, was]
    tot[0] += t0
    tot[1] += t1
    if rows > 2:
        tot[2] += t2
        tot[3] += t3
        if rows > 4:
            tot[4] += t4
            tot[5] += t5
    cnt[0, HOT] += hot0
    cnt[1, HOT] += hot1


@kernel(types.void(BOARD, types.int64, types.int64), refcount=False)
def _place(board, cell, player):
    """Put a ``player`` stone (1 or 2) on the empty ``cell``, updating keys, codes, counts and totals."""
    cells, keys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob = board
    _count(pat, cnt, tot, weights, cell, -1)
    cells[cell] = player
    hsh[0] ^= zob[cell, player]
    _relines(cells, keys, pat, near, cnt, tot, nbr, tables, weights, cell, player, True)


@kernel(types.void(BOARD, types.int64), refcount=False)
def _remove(board, cell):
    """Take the stone off ``cell``: the exact inverse of :func:`_place`."""
    cells, keys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob = board
    player = np.int64(cells[cell])
    cells[cell] = 0
    hsh[0] ^= zob[cell, player]
    _relines(cells, keys, pat, near, cnt, tot, nbr, tables, weights, cell, player, False)
    for side in range(2):
        for d in range(4):
            pat[side, cell * 4 + d] = tables[side, keys[cell * 4 + d]]
    _count(pat, cnt, tot, weights, cell, 1)
