"""Numba kernels of the sharded solver: which shard owns a code, routing codes to their shards, lookups.

A canonical code belongs to shard ``mix64(code) mod P`` (the SplitMix64 output function of
:mod:`plyground.g2048._kernels`): the shards of an age get nearly equal shares of it whatever
the board. Kernels do no validation; :mod:`plyground.g2048.shards.tasks` calls them. Their
slow twins are in ``tests/naive/shard_solver.py``.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel
from plyground.g2048._kernels import _mix64
from plyground.g2048._solver_kernels import _find


@kernel("i8(u8, i8)")
def _owner(code, shards):
    """The shard of ``shards`` that owns the canonical code ``code``."""
    return np.int64(_mix64(code) % np.uint64(shards))


@kernel("void(u8[::1], i8, i8[::1])")
def _route_counts(codes, shards, counts):
    """Add to ``counts[s]`` the number of ``codes`` that shard ``s`` owns."""
    for i in range(codes.shape[0]):
        counts[_owner(codes[i], shards)] += 1


@kernel("void(u8[::1], i8, i8[::1], u8[::1])")
def _route(codes, shards, starts, out):
    """Write the ``codes`` grouped by owner into ``out``, each group in the order of ``codes``.

    ``starts[s]`` is where shard ``s``'s group begins (the running sum of :func:`_route_counts`);
    it is advanced past the group as the codes are written.
    """
    for i in range(codes.shape[0]):
        s = _owner(codes[i], shards)
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
