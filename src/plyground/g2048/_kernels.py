"""Numba kernels of the 2048 bitboard engine.

A board is a ``uint64``: cell (r, c) holds its 4-bit exponent at bit ``16*r + 4*c``
(tile ``2**e``, 0 for empty), so row r is the 16-bit word at ``16*r`` and cell (0, 0)
is the lowest nibble. An R×C board (2 <= R, C <= 4) uses the top-left corner and
keeps every other cell empty. Directions: 0 up, 1 right, 2 down, 3 left.

Kernels do no validation; the public wrappers in :mod:`plyground.g2048.board` do.
Every kernel has a slow twin in ``tests/naive/g2048.py``.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel
from plyground.core.splitmix import GOLDEN, MIX_1, MIX_2
from plyground.g2048._tables import ROW_LEFT, ROW_POINTS, ROW_RIGHT, VALID_CELLS

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3

_ROW_MASK = np.uint64(0xFFFF)
_LOW_32 = np.uint64(0xFFFFFFFF)
# Masks of the 4x4 transposition by bit shuffles (as in the classic bitboard engines).
_T_KEEP_1 = np.uint64(0xF0F00F0FF0F00F0F)
_T_UP_12 = np.uint64(0x0000F0F00000F0F0)
_T_DOWN_12 = np.uint64(0x0F0F00000F0F0000)
_T_KEEP_2 = np.uint64(0xFF00FF0000FF00FF)
_T_DOWN_24 = np.uint64(0x00FF00FF00000000)
_T_UP_24 = np.uint64(0x00000000FF00FF00)
_NIBBLE_LOW_2 = np.uint64(0x3333333333333333)


@kernel("u8(u8)")
def _transpose(b):
    """Cell (r, c) -> cell (c, r)."""
    a = (b & _T_KEEP_1) | ((b & _T_UP_12) << np.uint64(12)) | ((b & _T_DOWN_12) >> np.uint64(12))
    return (a & _T_KEEP_2) | ((a & _T_DOWN_24) >> np.uint64(24)) | ((a & _T_UP_24) << np.uint64(24))


@kernel("u8(u8)")
def _slide_rows_left(b):
    """Slide every row towards column 0 (an empty row stays empty, so any board size works)."""
    out = np.uint64(0)
    for i in range(4):
        shift = np.uint64(16 * i)
        out |= np.uint64(ROW_LEFT[(b >> shift) & _ROW_MASK]) << shift
    return out


@kernel("u8(u8, i8)")
def _slide_rows_right(b, width):
    """Slide every row towards column ``width - 1``."""
    out = np.uint64(0)
    for i in range(4):
        shift = np.uint64(16 * i)
        out |= np.uint64(ROW_RIGHT[width, (b >> shift) & _ROW_MASK]) << shift
    return out


@kernel("u8(u8, i8, i8, i8)")
def _move(b, d, rows, cols):
    """The board after moving in direction ``d``; the same board if the move is illegal."""
    if d == LEFT:
        return _slide_rows_left(b)
    if d == RIGHT:
        return _slide_rows_right(b, cols)
    t = _transpose(b)  # columns become rows of width ``rows``
    if d == UP:
        return _transpose(_slide_rows_left(t))
    return _transpose(_slide_rows_right(t, rows))


@kernel("i8(u8, i8, i8, i8)")
def _points(b, d, rows, cols):
    """The points scored by moving in direction ``d`` (0 for an illegal move)."""
    n_lines = rows
    if d == UP or d == DOWN:
        b = _transpose(b)
        n_lines = cols
    total = 0
    for i in range(n_lines):
        total += ROW_POINTS[(b >> np.uint64(16 * i)) & _ROW_MASK]
    return total


@kernel("i8(u8, i8, i8)")
def _legal_mask(b, rows, cols):
    """Bit ``d`` is set when direction ``d`` is a legal move."""
    mask = 0
    for d in range(4):
        if _move(b, d, rows, cols) != b:
            mask |= 1 << d
    return mask


@kernel("b1(u8, i8, i8)")
def _is_terminal(b, rows, cols):
    """No legal move is left."""
    for d in range(4):
        if _move(b, d, rows, cols) != b:
            return False
    return True


@kernel("u8(u8, i8, i8)")
def _empty_bits(b, rows, cols):
    """The lowest bit of every empty cell of the R×C board."""
    x = b | ((b >> np.uint64(2)) & _NIBBLE_LOW_2)
    x |= x >> np.uint64(1)
    return ~x & VALID_CELLS[rows, cols]


@kernel("i8(u8)")
def _popcount(x):
    """The number of set bits."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@kernel("i8(u8, i8, i8)")
def _count_empty(b, rows, cols):
    """The number of empty cells of the R×C board."""
    return _popcount(_empty_bits(b, rows, cols))


@kernel("i8(u8, i8, i8, i8)")
def _empty_after(b, d, rows, cols):
    """The empty cells of the board after the move ``d``; -1 if the move is illegal."""
    after = _move(b, d, rows, cols)
    return -1 if after == b else _count_empty(after, rows, cols)


@kernel("UniTuple(i8, 4)(u8, i8, i8)")
def _afterstate_empties(b, rows, cols):
    """The empty cells of the board after each move, in direction order (-1: the move is illegal)."""
    return (
        _empty_after(b, 0, rows, cols),
        _empty_after(b, 1, rows, cols),
        _empty_after(b, 2, rows, cols),
        _empty_after(b, 3, rows, cols),
    )


@kernel("u8(u8)")
def _mix64(z):
    """The splitmix64 output function; the stream is ``_mix64(seed + k * golden)``."""
    z = (z ^ (z >> np.uint64(30))) * MIX_1
    z = (z ^ (z >> np.uint64(27))) * MIX_2
    return z ^ (z >> np.uint64(31))


@kernel("u8(u8, i8, u8)")
def _pick_cell(cells, n, rnd):
    """One of the ``n`` cells of the mask ``cells``, picked uniformly by the high 32 bits of ``rnd``."""
    k = ((rnd >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32)
    for _ in range(k):
        cells &= cells - np.uint64(1)  # drop the lowest cell
    return cells & (~cells + np.uint64(1))


@kernel("u8(u8, u8, u8, i8, i8)")
def _spawn_with(b, rnd, four_threshold, rows, cols):
    """Spawn a tile chosen by the random word ``rnd``.

    The high 32 bits pick the empty cell (uniformly, reading order), the low 32 bits
    pick a 4 when below ``four_threshold`` (``p_four * 2**32``), else a 2.
    A full board is returned unchanged.
    """
    empty = _empty_bits(b, rows, cols)
    n = _popcount(empty)
    if n == 0:
        return b
    tile = np.uint64(2) if (rnd & _LOW_32) < four_threshold else np.uint64(1)
    return b | (_pick_cell(empty, n, rnd) * tile)


@kernel("UniTuple(u8, 3)(i8, u8, i8, i8, u8)")
def _random_play(n_moves, seed, rows, cols, four_threshold):
    """Play ``n_moves`` random moves (a new game starts when one ends).

    Each move draws a direction; an illegal draw falls back to the first legal
    direction. Returns (games ended, total points, final board).
    """
    state = seed
    state += GOLDEN
    b = _spawn_with(np.uint64(0), _mix64(state), four_threshold, rows, cols)
    state += GOLDEN
    b = _spawn_with(b, _mix64(state), four_threshold, rows, cols)
    games = np.uint64(0)
    points = np.uint64(0)
    for _ in range(n_moves):
        state += GOLDEN
        d = np.int64(_mix64(state) & np.uint64(3))
        moved = _move(b, d, rows, cols)
        if moved == b:
            for d in range(4):
                moved = _move(b, d, rows, cols)
                if moved != b:
                    break
            if moved == b:
                games += np.uint64(1)
                state += GOLDEN
                b = _spawn_with(np.uint64(0), _mix64(state), four_threshold, rows, cols)
                state += GOLDEN
                b = _spawn_with(b, _mix64(state), four_threshold, rows, cols)
                continue
        points += np.uint64(_points(b, d, rows, cols))
        state += GOLDEN
        b = _spawn_with(moved, _mix64(state), four_threshold, rows, cols)
    return games, points, b
