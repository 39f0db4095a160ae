"""Numba kernels of threats and their exact answers, over the cell classes of a pattern board.

A cell's class (:mod:`plyground.kinrow.cell_classes`) is ``classes[combination]`` of the
player's four codes on it. A player *threatens at* a class when one of its empty cells has that
class or a stronger one; :func:`_defences` lists the exact answers of the other player to such a
threat: the cells after which the threatening player has no cell of the class or above left, then
the answering player's own fours (a four must be answered first: a counter-attack the search
follows).

Adding a stone never raises the other player's codes (it only takes cells from its lines), and
changes only the codes of the cells on its four lines within five cells. So a stone on ``c``
answers the threat iff every threatening cell is ``c`` itself or lies on one of ``c``'s lines
within five cells and falls below the class once the stone is placed: only those cells are
looked at again.

The kernels know no forbidden moves: under renju the caller leaves out X's forbidden points.
Kernels do no validation; :mod:`plyground.kinrow.defences` does. The twin is
``tests/naive/defences.py`` (a rescan of every cell after every move).
"""

from __future__ import annotations

from numba import types

from plyground._jit import kernel
from plyground.kinrow._pattern_kernels import B4, BOARD, F4, F5, _combination, _place, _remove

CLASSES = types.Array(types.uint8, 1, "C", readonly=True)
"""The numba type of :data:`plyground.kinrow.cell_classes.CLASS_TABLE`."""
REACH = 5
"""A stone changes the codes of the cells up to this far along its lines."""


@kernel(types.int64(BOARD, CLASSES, types.int64, types.int64, types.int32[::1]), refcount=False)
def _threats(board, classes, player, level, out):
    """Write into ``out`` the empty cells where ``player``'s class is ``level`` or above; returns how many."""
    cells, pat = board.cells, board.pat
    side = player - 1
    count = 0
    for cell in range(cells.shape[0]):
        if cells[cell] == 0 and classes[_combination(pat, side, cell)] >= level:
            out[count] = cell
            count += 1
    return count


@kernel(types.boolean(types.int64, types.int64, types.int64), inline=True)
def _in_reach(n, a, b):
    """Whether cells ``a`` and ``b`` lie on one line (row, column or diagonal) within :data:`REACH` cells."""
    dr = abs(a // n - b // n)
    dc = abs(a % n - b % n)
    return (dr == 0 and dc <= REACH) or (dc == 0 and dr <= REACH) or (dr == dc and dr <= REACH)


@kernel(types.int64(BOARD, CLASSES, types.int64, types.int64, types.int64, types.int32[::1], types.int32[::1]),
        refcount=False)  # fmt: skip
def _defences(board, classes, player, level, n, scratch, out):
    """The answers of ``player`` to the other player's threat at ``level``, into ``out``; returns how many.

    First every cell after which the other player has no cell of class ``level`` or above, in
    cell order, then ``player``'s cells that make a four (or more) and answer nothing, in cell
    order. With no threat at ``level``, every empty cell answers it. ``scratch`` (``n*n``) holds
    the threatening cells; the board is restored.
    """
    cells, pat = board.cells, board.pat
    me = player - 1
    you = 2 - player
    threats = _threats(board, classes, 3 - player, level, scratch)
    count = 0
    fours = 0
    for cell in range(cells.shape[0]):
        if cells[cell] != 0:
            continue
        answers = True
        for t in range(threats):
            if scratch[t] != cell and not _in_reach(n, scratch[t], cell):
                answers = False
                break
        if answers and threats > 0:
            _place(board, cell, player)
            for t in range(threats):
                if scratch[t] != cell and classes[_combination(pat, you, scratch[t])] >= level:
                    answers = False
                    break
            _remove(board, cell)
        if answers:
            out[count] = cell
            count += 1
    # then the fours that answer nothing
    for cell in range(cells.shape[0]):
        if cells[cell] != 0:
            continue
        four = False
        for d in range(4):
            code = pat[me, cell * 4 + d]
            if code == B4 or code == F4 or code == F5:
                four = True
        if four:
            listed = False
            for i in range(count):
                if out[i] == cell:
                    listed = True
                    break
            if not listed:
                out[count + fours] = cell
                fours += 1
    return count + fours
