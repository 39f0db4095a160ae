"""Numba leaf kernels of an n-tuple network, and the expectimax search compiled for them.

An n-tuple network trained by afterstate TD (see ``_ntuple_kernels``) values an
*afterstate* (the board right after a move, before the spawn) as the expected sum of the
points still to come. So the search values a move by the points it scores plus the
expected value of its afterstate, and an afterstate by the expectation, over the spawn,
of the best ``points + value`` of the next move; at the horizon (or below the probability
cut-off) the afterstate is worth the network's value ``V``. At depth 1 a move is worth
``points + V(afterstate)``: exactly the greedy choice of the training. A board with no
legal move has no future: it is worth 0 (the points scored on the way still count).

The data tuple is ``(weights, lookups)``, the network's arrays; a leaf's scratch is the
position in ``weights`` of each of its lookups (``lookups.shape[0]`` of them). ``_start``
finds them and asks for the weights there, ``_value`` sums them once they have come; the
leaves' values are kept in the transposition table (a leaf reads a weight a lookup, scattered
over megabytes). Importing this module compiles the search for it (``search``; see
``_search_kernels``).

Kernels do no validation. The slow twin is ``tests/naive/expectimax_ntuple.py``.
"""

from __future__ import annotations

from numba import types

from plyground._jit import kernel
from plyground.g2048._ntuple_kernels import STRIDE, _indices, _prefetch, _sum
from plyground.g2048._search_kernels import LeafKernels, search_kernel, signature_start, signature_value

DATA = types.Tuple((types.float32[::1], types.int64[:, ::1]))
"""The numba type of a network's data tuple: ``(weights, lookups)``."""


@kernel(signature_start(DATA), inline=True)
def _start(after, rows, cols, data, ints, floats, i):
    """Write the weights' positions of ``after``'s lookups to slot ``i`` of ``ints`` and ask for those weights."""
    n = data[1].shape[0]
    _indices(after, rows, cols, data[1], ints, i * n)
    _prefetch(data[0], ints, i * n, n, 1)


@kernel(signature_value(DATA), inline=True)
def _value(data, ints, floats, i):
    """``V(after)``: the sum of the weights at the positions ``_start`` wrote."""
    lookups = data[1]
    n = lookups.shape[0]
    return _sum(data[0], ints, i * n, n, lookups[0, STRIDE])


LEAF = LeafKernels("ntuple", _start, _value, DATA, points=True, cached=True)
search = search_kernel(LEAF)
"""The expectimax search with an n-tuple network at the leaves (``_search_kernels._search_jobs``)."""
