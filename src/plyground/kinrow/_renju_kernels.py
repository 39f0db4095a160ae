"""Numba kernels of renju's forbidden points: overline, double-four and double-three for X (black).

A board is an ``int8`` array of n*n cells as in :mod:`plyground.kinrow._kernels` (0 empty,
1 X, 2 O, 3 blocked). Only X has forbidden points, and only where the move does not make
exactly five (a five always wins). Through the move, each of the four lines is read into
11 cells, offsets -5 to +5 from the move (index ``_C`` = 5): 1 for X, 0 for empty, 2 for
anything else (an O stone, a blocked cell, off the board). Every run of stones that the
rules look at contains the move, so 5 cells on each side are enough: a run that reaches
the end of the window is longer than five whatever lies beyond.

With X's stone on the move:

* a *five* is a run of exactly five X through the move; an *overline* a run of six or more;
* a *four* in a line is an empty cell that would make a five through the move there; a
  straight four (``.XXXX.``, two such cells five apart) counts once, other pairs
  (``X.XXX.X``, ``XX.XX.XX``, ``XXX.X.XXX``) twice;
* a *three* in a line without a four is an empty cell that would make a straight four
  through the move there, and that is itself not forbidden to X (checked recursively,
  with the move's stone on the board); a line has one three at most.

The move is forbidden by an overline (1), else by two fours or more (2), else by two threes
or more (3); 0 means allowed. Kernels do no validation; :mod:`plyground.kinrow.renju`
does. Twins in ``tests/naive/renju.py``.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel
from plyground.kinrow._kernels import _DC, _DR

NONE, OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = 0, 1, 2, 3
_C = 5  # the move's index in a line window
_WIDTH = 11


@kernel("void(i1[::1], i8, i8, i8, i8, i1[::1])")
def _read_line(cells, n, move, dr, dc, line):
    """Fill ``line`` with the cells at offsets -5..5 of ``move`` along (dr, dc): 0 empty, 1 X, 2 anything else."""
    r0 = move // n
    c0 = move % n
    for t in range(_WIDTH):
        r = r0 + (t - _C) * dr
        c = c0 + (t - _C) * dc
        if 0 <= r < n and 0 <= c < n:
            v = cells[r * n + c]
            line[t] = v if v <= 1 else 2
        else:
            line[t] = 2


@kernel("i8(i1[::1])")
def _run_length(line):
    """The length of the run of X through the window's centre (cut at the window's ends)."""
    length = 1
    t = _C - 1
    while t >= 0 and line[t] == 1:
        length += 1
        t -= 1
    t = _C + 1
    while t < _WIDTH and line[t] == 1:
        length += 1
        t += 1
    return length


@kernel("i8(i1[::1])")
def _fours(line):
    """The fours through the centre of a line window that holds no five: 0, 1 or 2."""
    first = -1
    count = 0
    for t in range(_C - 4, _C + 5):
        if line[t] == 0:
            line[t] = 1
            if _run_length(line) == 5:
                if count == 0:
                    first = t
                elif t - first == 5:  # the two ends of a straight four: one four
                    line[t] = 0
                    return 1
                count += 1
            line[t] = 0
    return count


@kernel("b1(i1[::1])")
def _straight_four(line):
    """Whether the run through the centre is four X with an empty cell at each end, each making exactly five."""
    start = _C
    while start > 0 and line[start - 1] == 1:
        start -= 1
    end = _C
    while end < _WIDTH - 1 and line[end + 1] == 1:
        end += 1
    if end - start != 3 or start < 2 or end > _WIDTH - 3:
        return False
    return line[start - 1] == 0 and line[end + 1] == 0 and line[start - 2] != 1 and line[end + 2] != 1


@kernel("i8(i1[::1], i8, i8)")
def _forbidden(cells, n, move):
    """Why X may not play on the empty cell ``move``: 0 it may, 1 overline, 2 double-four, 3 double-three.

    ``cells`` is changed during the call and restored.
    """
    line = np.empty(_WIDTH, dtype=np.int8)
    cells[move] = 1
    over = False
    for d in range(4):
        _read_line(cells, n, move, _DR[d], _DC[d], line)
        length = _run_length(line)
        if length == 5:
            cells[move] = 0
            return NONE
        if length > 5:
            over = True
    if over:
        cells[move] = 0
        return OVERLINE
    fours = 0
    open_lines = np.zeros(4, dtype=np.bool_)
    for d in range(4):
        _read_line(cells, n, move, _DR[d], _DC[d], line)
        f = _fours(line)
        fours += f
        open_lines[d] = f == 0
    if fours >= 2:
        cells[move] = 0
        return DOUBLE_FOUR
    threes = 0
    for d in range(4):
        if not open_lines[d]:
            continue
        dr = _DR[d]
        dc = _DC[d]
        _read_line(cells, n, move, dr, dc, line)
        for t in range(_C - 3, _C + 4):
            if line[t] != 0:
                continue
            line[t] = 1
            straight = _straight_four(line)
            line[t] = 0
            if straight and _forbidden(cells, n, move + (t - _C) * (dr * n + dc)) == NONE:
                threes += 1
                break
        if threes >= 2:
            cells[move] = 0
            return DOUBLE_THREE
    cells[move] = 0
    return NONE


@kernel("i8(i1[::1], i8, i8[::1])")
def _forbidden_moves(cells, n, out):
    """Write the empty cells forbidden to X into ``out`` in cell order; returns how many."""
    count = 0
    for i in range(n * n):
        if cells[i] == 0 and _forbidden(cells, n, i) != NONE:
            out[count] = i
            count += 1
    return count


@kernel("i8(i1[::1], i8)")
def _first_allowed(cells, n):
    """The first empty cell that X may play, or -1 when there is none."""
    for i in range(n * n):
        if cells[i] == 0 and _forbidden(cells, n, i) == NONE:
            return i
    return -1
