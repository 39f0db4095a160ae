"""Numba kernels of endgame tables: moves that keep a formation's frozen cells, a region's states, their values.

Boards are bitboards as in :mod:`plyground.g2048._kernels` (cell (r, c) at bit ``16 * r + 4 * c``);
the frozen cells of a formation (``frozen``: their bits) hold 0 in a table's boards, whatever tiles
stand there in a game. A frozen tile never merges (it is bigger than any tile of the region, and
two frozen tiles are taken as different), and a move is *allowed* only when it leaves every frozen
cell where it was (no frozen tile slides) and changes the board.

A table holds every board of the region (cells at bits ``shifts``) whose tiles are below the
target, the tile of exponent ``levels``, and below each cell's cap: cell i holds an exponent
e_i below ``radix[i]`` (``levels``, or one more than the cell's cap), so the table holds the
product of ``radix`` boards, the board of exponents e_i at the *index* sum(e_i * R_i), R_i the
product of the radices before i (:func:`_index`, :func:`_board_of`). A state's value is the
probability of the target on the goal cell (bit ``goal``) under optimal play: 1 when it stands
there; 0 when a tile of the target or more stands elsewhere in the region, a tile above its
cell's cap stands anywhere, or no move is allowed; else the best allowed move's expected value
over the spawns (a 2 or, with ``p_four``, a 4 on an empty cell of the region, each cell alike).
A cap is 4 or more (a spawned tile always fits) and the goal cell has none. Every move keeps the
region's tile sum and every spawn adds 2 or 4, so states are solved by sum, from the largest down
(the age layers of :mod:`plyground.g2048.solver`): :func:`_sum_order` sorts the indices by sum.

Values are read from float64 arrays (a solve) or uint16 ones (a table on disk: the value times
65535, rounded), each times ``scale``. Kernels do no validation; :mod:`plyground.g2048.tablebase`
does. The slow twin is ``tests/naive/tablebase.py``.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel
from plyground.g2048._kernels import LEFT, RIGHT, UP

_NIBBLE = np.uint64(0xF)
_VALUES = ("f8[::1]", "u2[::1]")


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


@kernel("i8(u8, i8[::1], i8[::1])", inline=True)
def _index(b, shifts, radix):
    """The index of the board ``b`` (its region's tiles all below the target and its cells' caps) in a table."""
    index = 0
    for i in range(shifts.shape[0] - 1, -1, -1):
        index = index * radix[i] + np.int64((b >> np.uint64(shifts[i])) & _NIBBLE)
    return index


@kernel("u8(i8, i8[::1], i8[::1])", inline=True)
def _board_of(index, shifts, radix):
    """The board at ``index`` of a table (its frozen cells empty)."""
    b = np.uint64(0)
    for i in range(shifts.shape[0]):
        b |= np.uint64(index % radix[i]) << np.uint64(shifts[i])
        index //= radix[i]
    return b


@kernel("i8(i8[::1], i8[::1], u4[::1], i8[::1])")
def _sum_order(radix, starts, out, counts):
    """The indices of a table of cells of radices ``radix``, by tile sum: with an empty ``out``, only counts them
    (``counts[s // 2]``: the boards of sum ``s``); else writes those of sum ``s`` into ``out`` from
    ``starts[s // 2]`` on, in increasing order. Returns the number of indices."""
    cells = radix.shape[0]
    digits = np.zeros(cells, dtype=np.int64)
    filling = out.shape[0] > 0
    at = starts.copy()
    half = 0  # the tile sum of the digits, halved
    total = 1
    for i in range(cells):
        total *= radix[i]
    for index in range(total):
        if filling:
            out[at[half]] = np.uint32(index)
            at[half] += 1
        else:
            counts[half] += 1
        i = 0  # the next index: digit 0 the fastest
        while i < cells and digits[i] == radix[i] - 1:
            half -= 1 << (radix[i] - 2)
            digits[i] = 0
            i += 1
        if i < cells:
            half += (1 << digits[i]) - ((1 << digits[i]) >> 1)  # h(d + 1) - h(d), h(d) = 2^d / 2 and h(0) = 0
            digits[i] += 1
    return total


_BUILT = -1
""":func:`_region_index` of a board with the target on the goal cell (its value is 1)."""
_LOST = -2
""":func:`_region_index` of a board with a tile of the target or more elsewhere in the region, or a tile above its
cell's cap (its value is 0)."""


@kernel("i8(u8, i8[::1], i8[::1], i8, i8)", inline=True)
def _region_index(b, shifts, radix, levels, goal):
    """The index of the region board ``b`` in a table, or :data:`_BUILT` / :data:`_LOST` for a board outside it."""
    if np.int64((b >> np.uint64(goal)) & _NIBBLE) == levels:
        return _BUILT
    index = 0
    for i in range(shifts.shape[0] - 1, -1, -1):
        v = np.int64((b >> np.uint64(shifts[i])) & _NIBBLE)
        if v >= radix[i]:  # the target or more (radix[i] <= levels), or above the cell's cap
            return _LOST
        index = index * radix[i] + v
    return index


@kernel([f"f8(u8, i8[::1], i8[::1], i8, i8, f8, {values}, f8)" for values in _VALUES], inline=True)
def _after_value(after, shifts, radix, levels, goal, p_four, values, scale):
    """The value of the board ``after`` a move, before its spawn: 1 with the target on the goal, 0 with a
    tile of the target or more elsewhere in the region or one above its cell's cap, else the mean over the
    spawns of the values of the boards they make (``values[i] * scale``: the value of the board at index i)."""
    index = _region_index(after, shifts, radix, levels, goal)
    if index < 0:
        return 1.0 if index == _BUILT else 0.0
    total = 0.0
    empty = 0
    power = 1
    for i in range(shifts.shape[0]):
        if (after >> np.uint64(shifts[i])) & _NIBBLE == 0:
            empty += 1
            if p_four < 1.0:
                total += (1.0 - p_four) * (values[index + power] * scale)
            if p_four > 0.0:
                if levels > 2:  # then every radix is 3 or more (a cap is 4 or more)
                    total += p_four * (values[index + 2 * power] * scale)
                elif shifts[i] == goal:  # a spawned 4 is the target: a success on the goal, else a failure
                    total += p_four
        power *= radix[i]
    return total / empty if empty else 0.0


@kernel([f"f8(u8, i8[::1], i8[::1], i8, i8, {values}, f8)" for values in _VALUES], inline=True)
def _state_value(b, shifts, radix, levels, goal, values, scale):
    """The value of the region board ``b`` (frozen cells empty): 1 with the target on the goal, 0 with a tile
    of the target or more elsewhere or one above its cell's cap, else its value in the table."""
    index = _region_index(b, shifts, radix, levels, goal)
    if index < 0:
        return 1.0 if index == _BUILT else 0.0
    return values[index] * scale


@kernel([f"void(u8[::1], i8[::1], i8[::1], i8, i8, {values}, f8, f8[::1])" for values in _VALUES])
def _state_values(boards, shifts, radix, levels, goal, values, scale, out):
    """:func:`_state_value` of each region board of ``boards`` into ``out``."""
    for i in range(boards.shape[0]):
        out[i] = _state_value(boards[i], shifts, radix, levels, goal, values, scale)


@kernel([f"f8(u8, i8[::1], i8[::1], i8, i8, i8, u8, i8, f8, {values}, f8, f8[::1])" for values in _VALUES],
        inline=True)  # fmt: skip
def _move_values(b, shifts, radix, levels, rows, cols, frozen, goal, p_four, values, scale, out):
    """Each move's value from the board ``b`` (frozen cells empty, region tiles below the target) into
    ``out`` (-1: not allowed); returns the board's value (0 when no move is allowed)."""
    best = 0.0
    for d in range(4):
        after = _formation_move(b, d, rows, cols, frozen)
        if after == b:
            out[d] = -1.0
            continue
        out[d] = _after_value(after, shifts, radix, levels, goal, p_four, values, scale)
        best = max(best, out[d])
    return best


@kernel([f"void(u8[::1], i8[::1], i8[::1], i8, i8, i8, u8, i8, f8, {values}, f8, f8[:, ::1])" for values in _VALUES])
def _boards_move_values(boards, shifts, radix, levels, rows, cols, frozen, goal, p_four, values, scale, out):
    """:func:`_move_values` of each region board of ``boards`` into the row of ``out`` of the same index."""
    for i in range(boards.shape[0]):
        _move_values(boards[i], shifts, radix, levels, rows, cols, frozen, goal, p_four, values, scale, out[i])


@kernel("i8(u4[::1], i8[::1], i8[::1], i8, i8, i8, u8, i8, f8, f8[::1], i1[::1])")
def _layer_values(order, shifts, radix, levels, rows, cols, frozen, goal, p_four, values, best):
    """The value of each board of a layer (the indices ``order``) into ``values`` and its first best allowed
    move (up, right, down, left order; -1: none) into ``best``, from the values of the layers two and
    four above. Returns the boards solved."""
    for j in range(order.shape[0]):
        index = np.int64(order[j])
        b = _board_of(index, shifts, radix)
        value = 0.0
        move = -1
        for d in range(4):
            after = _formation_move(b, d, rows, cols, frozen)
            if after == b:
                continue
            v = _after_value(after, shifts, radix, levels, goal, p_four, values, 1.0)
            if move < 0 or v > value:
                value = v
                move = d
        values[index] = value
        best[index] = move
    return order.shape[0]
