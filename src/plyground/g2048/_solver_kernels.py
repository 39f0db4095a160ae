"""Numba kernels of the strong solver: symmetry classes, age layers, backward values.

Boards are bitboards as in :mod:`plyground.g2048._kernels`. A board is stored once per
symmetry class, as its *canonical code*: the smallest bitboard among its images under
the symmetries of the R×C rectangle (4 of them; 8 when R == C, with the transposes).

Layer kernels work on one age layer at a time: sorted arrays of canonical codes, with
values as float64 arrays of the same length; :func:`_afterstate_values` reads the layers of
every age at once, laid one after the other (:mod:`plyground.g2048.exact_values`). Kernels do
no validation; the public functions of :mod:`plyground.g2048.solver` and
:mod:`plyground.g2048.exact_values` do. Every kernel has a slow twin in
``tests/naive/solver_2048.py`` or ``tests/naive/exact_values.py``, or is checked against the
first through the solver's results.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel
from plyground.g2048._kernels import _empty_bits, _move, _points
from plyground.g2048._kernels import _transpose as _transpose4
from plyground.g2048._tables import ROW_MIRROR

_ROW_MASK = np.uint64(0xFFFF)
_NIBBLE = np.uint64(0xF)


@kernel("u8(u8, i8, i8)")
def _mirror_cols(b, rows, cols):
    """Column c -> column ``cols - 1 - c`` (the left-right mirror image)."""
    out = np.uint64(0)
    for r in range(rows):
        shift = np.uint64(16 * r)
        out |= np.uint64(ROW_MIRROR[cols, (b >> shift) & _ROW_MASK]) << shift
    return out


@kernel("u8(u8, i8)")
def _mirror_rows(b, rows):
    """Row r -> row ``rows - 1 - r`` (the up-down mirror image)."""
    out = np.uint64(0)
    for r in range(rows):
        out |= ((b >> np.uint64(16 * r)) & _ROW_MASK) << np.uint64(16 * (rows - 1 - r))
    return out


@kernel("u8(u8, i8, i8)")
def _canonical(b, rows, cols):
    """The smallest image of ``b`` under the symmetries of the R×C board."""
    best = b
    m = _mirror_cols(b, rows, cols)
    best = min(best, m)
    x = _mirror_rows(b, rows)
    best = min(best, x)
    best = min(best, _mirror_rows(m, rows))
    if rows == cols:  # a square: the four transposed images too
        best = min(best, _transpose4(b))
        best = min(best, _transpose4(m))
        best = min(best, _transpose4(x))
        best = min(best, _transpose4(_mirror_rows(m, rows)))
    return best


@kernel("i8(u8, i8, i8)")
def _orbit_size(b, rows, cols):
    """The number of distinct boards among the images of ``b``: its class's unreduced size."""
    images = np.empty(8, dtype=np.uint64)
    m = _mirror_cols(b, rows, cols)
    images[0] = b
    images[1] = m
    images[2] = _mirror_rows(b, rows)
    images[3] = _mirror_rows(m, rows)
    n = 4
    if rows == cols:
        for i in range(4):
            images[4 + i] = _transpose4(images[i])
        n = 8
    distinct = 0
    for i in range(n):
        seen = False
        for j in range(i):
            if images[j] == images[i]:
                seen = True
                break
        if not seen:
            distinct += 1
    return distinct


@kernel("i8(u8[::1], i8, i8)")
def _orbit_total(codes, rows, cols):
    """The number of boards in all the classes of ``codes`` together."""
    total = 0
    for i in range(codes.shape[0]):
        total += _orbit_size(codes[i], rows, cols)
    return total


@kernel("i8(u8[::1], i8, i8)")
def _count_spawns(boards, rows, cols):
    """The number of empty cells over all ``boards``: the spawns of one tile value."""
    total = 0
    for i in range(boards.shape[0]):
        e = _empty_bits(boards[i], rows, cols)
        while e:
            e &= e - np.uint64(1)
            total += 1
    return total


@kernel("i8(u8[::1], u8, i8, i8, u8[::1])")
def _spawn_layer(boards, exponent, rows, cols, out):
    """Write the canonical code of every board with tile ``2**exponent`` on one of its empty cells.

    Returns the number of codes written (unsorted, with repeats).
    """
    n = 0
    for i in range(boards.shape[0]):
        b = boards[i]
        e = _empty_bits(b, rows, cols)
        while e:
            low = e & (~e + np.uint64(1))
            e ^= low
            out[n] = _canonical(b | (low * exponent), rows, cols)
            n += 1
    return n


@kernel("UniTuple(i8, 3)(u8[::1], i8, i8, u8[::1])")
def _move_layer(states, rows, cols, out):
    """Write the canonical code of the afterstate of every legal move of every state.

    Returns (codes written, terminal states, terminal boards unreduced).
    """
    n = 0
    terminal = 0
    terminal_boards = 0
    for i in range(states.shape[0]):
        s = states[i]
        legal = False
        for d in range(4):
            a = _move(s, d, rows, cols)
            if a != s:
                out[n] = _canonical(a, rows, cols)
                n += 1
                legal = True
        if not legal:
            terminal += 1
            terminal_boards += _orbit_size(s, rows, cols)
    return n, terminal, terminal_boards


@kernel("i8(u8[::1])")
def _unique_sorted(a):
    """Drop repeats from the sorted array ``a`` in place; returns the new length."""
    if a.shape[0] == 0:
        return 0
    n = 1
    for i in range(1, a.shape[0]):
        if a[i] != a[n - 1]:
            a[n] = a[i]
            n += 1
    return n


@kernel("i8(u8[::1], u8[::1], u8[::1])")
def _merge_unique(a, b, out):
    """Merge the sorted repeat-free arrays ``a`` and ``b`` into ``out`` without repeats; returns its length."""
    i = 0
    j = 0
    n = 0
    while i < a.shape[0] and j < b.shape[0]:
        if a[i] < b[j]:
            out[n] = a[i]
            i += 1
        elif b[j] < a[i]:
            out[n] = b[j]
            j += 1
        else:
            out[n] = a[i]
            i += 1
            j += 1
        n += 1
    while i < a.shape[0]:
        out[n] = a[i]
        i += 1
        n += 1
    while j < b.shape[0]:
        out[n] = b[j]
        j += 1
        n += 1
    return n


@kernel("i8(u8[::1], u8)")
def _find(codes, key):
    """The index of ``key`` in the sorted array ``codes``, or -1."""
    lo = 0
    hi = codes.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if codes[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < codes.shape[0] and codes[lo] == key:
        return lo
    return -1


@kernel("i8(u8[::1], i8, i8, f8, u8[::1], f8[::1], u8[::1], f8[::1], f8[::1])")
def _chance_values(boards, rows, cols, p_four, codes_2, values_2, codes_4, values_4, out):
    """The value of each board before a spawn: the average over its empty cells of
    ``(1 - p_four) * V(with a 2) + p_four * V(with a 4)``, the V looked up in the state layers
    two and four above. A probability of 0 skips its lookups.

    Returns the number of spawned boards missing from their layer (0 unless the layers are wrong).
    """
    missing = 0
    p_two = 1.0 - p_four
    for i in range(boards.shape[0]):
        b = boards[i]
        e = _empty_bits(b, rows, cols)
        total = 0.0
        cells = 0
        while e:
            low = e & (~e + np.uint64(1))
            e ^= low
            cells += 1
            if p_two > 0.0:
                k = _find(codes_2, _canonical(b | low, rows, cols))
                if k < 0:
                    missing += 1
                else:
                    total += p_two * values_2[k]
            if p_four > 0.0:
                k = _find(codes_4, _canonical(b | (low << np.uint64(1)), rows, cols))
                if k < 0:
                    missing += 1
                else:
                    total += p_four * values_4[k]
        out[i] = total / cells if cells else 0.0
    return missing


@kernel("i8(u8)")
def _tile_sum(b):
    """The sum of the tiles of ``b``, its age: ``2 2 / 4 .`` -> 8."""
    total = 0
    for i in range(16):
        e = (b >> np.uint64(4 * i)) & _NIBBLE
        if e:
            total += 1 << np.int64(e)
    return total


@kernel("i8(u8[::1], i8, i8, f8, u8[::1], f8[::1], i8[::1], f8[::1])")
def _afterstate_values(boards, rows, cols, p_four, codes, values, starts, out):
    """The value of each board before a spawn (:func:`_chance_values`), whatever its age, into ``out``.

    The state layers of all ages lie one after the other in ``codes`` and ``values``: the layer
    of age ``a`` from ``starts[a // 2]`` to ``starts[a // 2 + 1]``, and ``starts`` reaches
    ``age // 2 + 3`` for the age of every board. Returns the number of spawned boards missing
    from their layer (0 unless a board leads to no reachable state or the layers are wrong).
    """
    missing = 0
    for i in range(boards.shape[0]):
        half = _tile_sum(boards[i]) // 2
        lo2, hi2 = starts[half + 1], starts[half + 2]
        lo4, hi4 = starts[half + 2], starts[half + 3]
        missing += _chance_values(
            boards[i : i + 1], rows, cols, p_four, codes[lo2:hi2], values[lo2:hi2], codes[lo4:hi4], values[lo4:hi4],
            out[i : i + 1],
        )  # fmt: skip
    return missing


@kernel("i8(u8[::1], i8, i8, u8[::1], f8[::1], f8[::1])")
def _state_values(states, rows, cols, after_codes, after_values, out):
    """The value of each state: the best, over its legal moves, of points + V(afterstate); 0 with none.

    Returns the number of afterstates missing from ``after_codes`` (0 unless the layers are wrong).
    """
    missing = 0
    for i in range(states.shape[0]):
        s = states[i]
        best = 0.0
        for d in range(4):
            a = _move(s, d, rows, cols)
            if a != s:
                k = _find(after_codes, _canonical(a, rows, cols))
                if k < 0:
                    missing += 1
                    continue
                value = _points(s, d, rows, cols) + after_values[k]
                if value > best:
                    best = value
        out[i] = best
    return missing


@kernel("void(u8[::1], i8, i8, u8[::1])")
def _pack_dense(codes, rows, cols, out):
    """Cell (r, c) from bit ``16*r + 4*c`` to bit ``4*(r*cols + c)``: codes of ``4*rows*cols`` bits, same order."""
    for i in range(codes.shape[0]):
        b = codes[i]
        packed = np.uint64(0)
        for r in range(rows):
            row = (b >> np.uint64(16 * r)) & _ROW_MASK
            packed |= row << np.uint64(4 * cols * r)
        out[i] = packed


@kernel("void(u8[::1], i8, i8, u8[::1])")
def _unpack_dense(packed, rows, cols, out):
    """The inverse of :func:`_pack_dense`."""
    row_mask = (np.uint64(1) << np.uint64(4 * cols)) - np.uint64(1)
    for i in range(packed.shape[0]):
        p = packed[i]
        b = np.uint64(0)
        for r in range(rows):
            b |= ((p >> np.uint64(4 * cols * r)) & row_mask) << np.uint64(16 * r)
        out[i] = b
