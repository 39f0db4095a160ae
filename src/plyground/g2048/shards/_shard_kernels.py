"""Numba kernels of the sharded solver: which shard owns a code, routing codes to their shards, lookups.

A canonical code belongs to shard ``mix64(code >> shift) mod P`` (the SplitMix64 output
function of :mod:`plyground.g2048._kernels`), ``shift`` leaving out the trailing half of the
cells (:func:`plyground.g2048.shards.store.owner_shift`): the shards of an age get nearly equal
shares of it, and the boards that differ only in those cells, neighbours in the sorted layer,
stay together, so that a shard's codes are as dense as the layer's where it matters for their
deltas (at 16 shards, 2.8 bits a 4×3 state of age 180 against 12.2 for a hash of the whole code).
Kernels do no validation; :mod:`plyground.g2048.shards.tasks` calls them. Their slow twins are
in ``tests/naive/shard_solver.py``.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel
from plyground.g2048._kernels import _mix64
from plyground.g2048._solver_kernels import _find


@kernel("i8(u8, i8, i8)")
def _owner(code, shards, shift):
    """The shard of ``shards`` that owns the canonical code ``code``."""
    return np.int64(_mix64(code >> np.uint64(shift)) % np.uint64(shards))


@kernel("void(u8[::1], i8, i8, i8[::1])")
def _route_counts(codes, shards, shift, counts):
    """Add to ``counts[s]`` the number of ``codes`` that shard ``s`` owns."""
    for i in range(codes.shape[0]):
        counts[_owner(codes[i], shards, shift)] += 1


@kernel("void(u8[::1], i8, i8, i8[::1], u8[::1])")
def _route(codes, shards, shift, starts, out):
    """Write the ``codes`` grouped by owner into ``out``, each group in the order of ``codes``.

    ``starts[s]`` is where shard ``s``'s group begins (the running sum of :func:`_route_counts`);
    it is advanced past the group as the codes are written.
    """
    for i in range(codes.shape[0]):
        s = _owner(codes[i], shards, shift)
        out[starts[s]] = codes[i]
        starts[s] += 1


@kernel("i8(u8[::1], u8[::1], f8[::1], f8[::1])")
def _lookup(keys, codes, values, out):
    """``out[i]`` = the value of ``keys[i]`` in the sorted ``codes``; returns the number of keys missing.

    A missing key gets NaN.
    """
    missing = 0
    for i in range(keys.shape[0]):
        k = _find(codes, keys[i])
        if k < 0:
            out[i] = np.nan
            missing += 1
        else:
            out[i] = values[k]
    return missing
