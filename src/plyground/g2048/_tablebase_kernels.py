"""Numba kernels of endgame tables: moves that keep a formation's frozen cells, a region's states, their values.

Boards are bitboards as in :mod:`plyground.g2048._kernels` (cell (r, c) at bit ``16 * r + 4 * c``);
the frozen cells of a formation (``frozen``: their bits) hold 0 in a table's boards, whatever tiles
stand there in a game. A frozen tile never merges (it is bigger than any tile of the region, and
two frozen tiles are taken as different), and a move is *allowed* only when it leaves every frozen
cell where it was (no frozen tile slides) and changes the board.

A state's value is the probability of a tile of exponent ``target`` on the goal cell (bit ``goal``)
under optimal play: 1 when it stands there; 0 when a tile of ``target`` or more stands elsewhere
in the region, or no move is allowed; else the best allowed move's expected value over the spawns
(a 2 or, with ``p_four``, a 4 on an empty cell of the region, each cell alike). Every move keeps
the region's tile sum and every spawn adds 2 or 4, so states are solved by sum, from the largest
down (the age layers of :mod:`plyground.g2048.solver`): a layer is the sorted array of the
boards of one sum whose tiles are all below ``target``.

Kernels do no validation; :mod:`plyground.g2048.tablebase` does. The slow twin is
``tests/naive/tablebase.py``.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel
from plyground.g2048._kernels import LEFT, RIGHT, UP
from plyground.g2048._solver_kernels import _find

_NIBBLE = np.uint64(0xF)


@kernel("UniTuple(i8, 2)(i8, i8, i8)", inline=True)
def _line_move(line, frozen, length):
    """Move the ``length`` cells of ``line`` (four bits a cell, cell 0 first: the tiles move towards it),
    the cells of bit i of ``frozen`` frozen: ``(the line after the move, 1)``, or ``(0, 0)`` when a frozen
    cell would move."""
    out = 0
    at = 0  # where the next tile lands
    last = 0  # the exponent of the tile that landed last, if it may still merge
    for i in range(length):
        if (frozen >> i) & 1:
            if at != i:  # a cell before it is left empty: the frozen tile would slide
                return 0, 0
            at = i + 1
            last = 0
            continue
        v = (line >> (4 * i)) & 0xF
        if v == 0:
            continue
        if v == last:
            out += 1 << (4 * (at - 1))  # the merged tile: one exponent up
            last = 0
        else:
            out |= v << (4 * at)
            last = v
            at += 1
    return out, 1


@kernel("u8(u8, i8, i8, i8, u8)")
def _formation_move(b, d, rows, cols, frozen):
    """``b`` after the move ``d`` (0 up, 1 right, 2 down, 3 left) on a ``rows`` x ``cols`` board whose
    ``frozen`` cells stay where they are; ``b`` itself when the move is not allowed."""
    across = d == LEFT or d == RIGHT
    lines = rows if across else cols
    length = cols if across else rows
    out = np.uint64(0)
    for k in range(lines):
        line = 0
        mask = 0
        for i in range(length):
            j = i if (d == LEFT or d == UP) else length - 1 - i
            shift = np.uint64(16 * k + 4 * j) if across else np.uint64(16 * j + 4 * k)
            line |= np.int64((b >> shift) & _NIBBLE) << (4 * i)
            if (frozen >> shift) & _NIBBLE:
                mask |= 1 << i
        moved, ok = _line_move(line, mask, length)
        if not ok:
            return b
        for i in range(length):
            j = i if (d == LEFT or d == UP) else length - 1 - i
            shift = np.uint64(16 * k + 4 * j) if across else np.uint64(16 * j + 4 * k)
            out |= np.uint64((moved >> (4 * i)) & 0xF) << shift
    return out


@kernel("i8(i8[::1], i8, i8[::1], u8[::1], i8[::1])")
def _region_states(shifts, levels, sums, out, counts):
    """The boards whose region cells (bits ``shifts``) hold exponents below ``levels`` (0: empty), by tile sum.

    With an empty ``out``, only counts: ``counts[s // 2]`` the boards of sum ``s``. Else writes them
    into ``out``, the boards of sum ``s`` from ``sums[s // 2]`` on (not sorted). Returns the number
    of boards (the empty board included, of sum 0).
    """
    k = shifts.shape[0]
    digits = np.zeros(k, dtype=np.int64)
    total = 0
    filling = out.shape[0] > 0
    at = sums.copy()
    while True:
        b = np.uint64(0)
        s = 0
        for i in range(k):
            if digits[i]:
                b |= np.uint64(digits[i]) << np.uint64(shifts[i])
                s += 1 << digits[i]
        if filling:
            out[at[s // 2]] = b
            at[s // 2] += 1
        else:
            counts[s // 2] += 1
        total += 1
        i = 0  # the next combination: digit 0 the fastest
        while i < k and digits[i] == levels - 1:
            digits[i] = 0
            i += 1
        if i == k:
            return total
        digits[i] += 1


@kernel("f8(u8, i8, i8, u8, i8, i8, f8, u8[::1], f8[::1], u8[::1], f8[::1])")
def _after_value(after, rows, cols, frozen, goal, target, p_four, codes_2, values_2, codes_4, values_4):
    """The value of the board ``after`` a move, before its spawn: 1 with the target on the goal, 0 with a tile
    of the target or more elsewhere, else the mean over the spawns of the values of the boards they make
    (``codes_2``/``values_2``: the layer two above ``after``'s sum, ``codes_4``/``values_4``: four above).
    -1 when a spawned board is missing from its layer (never, unless the layers are wrong)."""
    if np.int64((after >> np.uint64(goal)) & _NIBBLE) == target:
        return 1.0
    empty = 0
    for r in range(rows):
        for c in range(cols):
            shift = np.uint64(16 * r + 4 * c)
            if (frozen >> shift) & _NIBBLE:
                continue
            v = np.int64((after >> shift) & _NIBBLE)
            if v >= target:
                return 0.0
            if v == 0:
                empty += 1
    total = 0.0
    for r in range(rows):
        for c in range(cols):
            shift = np.uint64(16 * r + 4 * c)
            if (frozen >> shift) & _NIBBLE or (after >> shift) & _NIBBLE:
                continue
            for tile in range(1, 3):
                p = (1.0 - p_four) if tile == 1 else p_four
                if p == 0.0:
                    continue
                spawned = after | (np.uint64(tile) << shift)
                if tile >= target:  # a spawned target: on the goal a success, elsewhere a failure
                    total += p if 16 * r + 4 * c == goal else 0.0
                    continue
                codes = codes_2 if tile == 1 else codes_4
                values = values_2 if tile == 1 else values_4
                i = _find(codes, spawned)
                if i < 0:
                    return -1.0
                total += p * values[i]
    return total / empty


@kernel("i8(u8[::1], i8, i8, u8, i8, i8, f8, u8[::1], f8[::1], u8[::1], f8[::1], f8[::1], i1[::1])")
def _layer_values(states, rows, cols, frozen, goal, target, p_four, codes_2, values_2, codes_4, values_4, out, best):
    """The value of each board of a layer (``states``) into ``out`` and its best allowed move into ``best`` (-1:
    none), from the layers two and four above (see :func:`_after_value`). Returns the spawned boards missing
    from those (0 unless they are wrong)."""
    missing = 0
    for i in range(states.shape[0]):
        b = states[i]
        value = 0.0
        move = -1
        for d in range(4):
            after = _formation_move(b, d, rows, cols, frozen)
            if after == b:
                continue
            v = _after_value(after, rows, cols, frozen, goal, target, p_four, codes_2, values_2, codes_4, values_4)
            if v < 0.0:
                missing += 1
                continue
            if move < 0 or v > value:
                value = v
                move = d
        out[i] = value
        best[i] = move
    return missing
