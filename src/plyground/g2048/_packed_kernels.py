"""Numba kernel that unpacks a packed n-tuple network's weights (see :mod:`plyground.g2048.ntuple.packed`).

The body, after its 8-byte length, is the positions of the weights kept as LEB128 varints of
the differences of consecutive positions (``index_length`` bytes), then ``count`` zigzag
words, one byte plane after another (low bytes first). Unpacking reads each position and its
word and writes ``word * step`` into the weights, in one pass and without temporary arrays.
The slow twin is ``tests/naive/packed.py``.
"""

from __future__ import annotations

import numpy as np
from numba import types

from plyground._jit import kernel

LARGEST = 1 << 24
"""The most steps a weight may take (as :data:`plyground.g2048.ntuple.packed._LARGEST`)."""
OK, MALFORMED = 0, 1


_BYTES = types.Array(types.uint8, 1, "C", readonly=True)  # a view of the decompressed bytes


@kernel(types.int64(_BYTES, types.int64, types.int64, types.float64, types.float32[::1]))
def _unpack(data, index_length, count, step, weights):
    """Write the ``count`` packed weights of ``data`` into ``weights`` (all 0 before); return OK or MALFORMED.

    MALFORMED: the body is not one that ``pack`` writes (a varint cut short or longer than 5
    bytes, a repeated position or one past ``weights``, bytes left over, a weight of more than
    LARGEST steps). ``data`` must hold ``index_length + 4 * count`` bytes (the caller checks).
    """
    size = weights.shape[0]
    i = 0
    position = 0
    planes = index_length
    for k in range(count):
        delta = 0
        shift = 0
        while True:
            if i >= index_length or shift > 28:
                return MALFORMED
            byte = np.int64(data[i])
            i += 1
            delta |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        if k > 0 and delta == 0:
            return MALFORMED
        position += delta
        if position >= size:
            return MALFORMED
        word = (
            np.int64(data[planes + k])
            | (np.int64(data[planes + count + k]) << 8)
            | (np.int64(data[planes + 2 * count + k]) << 16)
            | (np.int64(data[planes + 3 * count + k]) << 24)
        )
        q = (word >> 1) ^ -(word & 1)
        if q > LARGEST or q < -LARGEST:
            return MALFORMED
        weights[position] = q * step
    if i != index_length:
        return MALFORMED
    return OK
