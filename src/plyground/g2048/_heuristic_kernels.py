"""Numba leaf kernels of the heuristic, and the expectimax search compiled for them.

The heuristic values an afterstate by a weighted line table (see ``heuristic.line_table``):
one table entry per row and per column, and a penalty on the slopes that break monotonicity.
Its data tuple is ``(table, w_mono)``; its values are heuristic units (no points added), and
not kept in the transposition table (a leaf costs about what a table read does). Importing
this module compiles the search for it (``search``; see ``_search_kernels``).

Kernels do no validation. The slow twin is ``tests/naive/heuristic_2048.py``.
"""

from __future__ import annotations

import numpy as np
from numba import types

from plyground._jit import kernel
from plyground.g2048._kernels import _transpose
from plyground.g2048._search_kernels import LeafKernels, search_kernel, signature_start, signature_value

_TABLE = types.float64[:, :, ::1]
DATA = types.Tuple((_TABLE, types.float64))
"""The numba type of the heuristic's data tuple: ``(table, w_mono)``."""

_ROW_MASK = np.uint64(0xFFFF)


@kernel(types.float64(types.uint64, types.int64, types.int64, _TABLE, types.float64), refcount=False)
def _evaluate(b, rows, cols, table, w_mono):
    """The heuristic value of an afterstate: one table entry per row and per column (see ``line_table``)."""
    t = _transpose(b)
    total = 0.0
    rows_slope = 0.0
    for i in range(4):  # lines beyond the board are empty and read (0, 0)
        line = (b >> np.uint64(16 * i)) & _ROW_MASK
        total += table[i, line, 0]
        rows_slope += table[i, line, 1]
    cols_slope = 0.0
    for j in range(4):
        line = (t >> np.uint64(16 * j)) & _ROW_MASK
        total += table[4, line, 0]
        cols_slope += table[4, line, 1]
    return total - w_mono * (max(0.0, rows_slope) + max(0.0, cols_slope))


@kernel(signature_start(DATA), inline=True)
def _start(after, rows, cols, data, ints, floats, i):
    """Value ``after`` into ``floats[i]`` (a handful of table reads: nothing to wait for)."""
    floats[i] = _evaluate(after, rows, cols, data[0], data[1])


@kernel(signature_value(DATA), inline=True)
def _value(data, ints, floats, i):
    """The value ``_start`` wrote."""
    return floats[i]


LEAF = LeafKernels("heuristic", _start, _value, DATA, points=False, cached=False)
search = search_kernel(LEAF)
"""The expectimax search with the heuristic at the leaves (``_search_kernels._search_jobs``)."""
