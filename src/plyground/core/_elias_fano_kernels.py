"""Numba kernels of the Elias-Fano code of a sorted ``uint64`` array.

With ``L`` low bits, value ``i`` of ``n`` is split into its low part ``v & (2**L - 1)``
and its high part ``v >> L``:

* ``lows`` packs the ``n`` low parts, ``L`` bits each, one after another from bit 0
  (bit ``j`` of the stream is bit ``j % 64`` of word ``j // 64``);
* ``highs`` codes the high parts in unary: bit ``(v >> L) + i`` is set for value ``i``,
  in a stream of ``n + (max >> L) + 1`` bits.

The caller allocates zeroed words (``encode``) or the output (``decode``); kernels do
no validation, the public wrapper in :mod:`plyground.core.elias_fano` does. Every
kernel has a slow twin in ``tests/naive/elias_fano.py``.
"""

from __future__ import annotations

import numpy as np
from numba import types

from plyground._jit import kernel

# Input arrays may be read-only (loaded from disk, or held by a frozen value).
_WORDS_IN = types.Array(types.uint64, 1, "C", readonly=True)
_WORDS_OUT = types.Array(types.uint64, 1, "C")

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)

# Bit scan by De Bruijn multiplication (chessprogramming.org/BitScan): for a word with
# the single bit b set, ``(word * _DE_BRUIJN) >> 58`` is a distinct slot for every b,
# and _BIT_OF_SLOT maps the slot back to b (the inverse of the permutation b -> slot).
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_OF_SLOT = np.argsort([((0x03F79D71B4CB0A89 << b) & 0xFFFF_FFFF_FFFF_FFFF) >> 58 for b in range(64)])


@kernel(types.void(_WORDS_IN, types.int64, _WORDS_OUT, _WORDS_OUT))
def _encode(values, low_bits, lows, highs):
    """[1, 2, 7] with L=1 -> lows [0b101] (1, 0, 1), highs [0b100101] (bits 0+0, 1+1, 3+2)."""
    shift = np.uint64(low_bits)
    if low_bits > 0:
        mask = (np.uint64(1) << shift) - np.uint64(1)
        word = 0
        offset = 0
        acc = np.uint64(0)
        for i in range(values.size):
            low = values[i] & mask
            acc |= low << np.uint64(offset)
            offset += low_bits
            if offset >= 64:
                lows[word] = acc
                word += 1
                offset -= 64
                acc = low >> np.uint64(low_bits - offset)  # the bits that did not fit (none when offset == 0)
        if offset > 0:
            lows[word] = acc
    for i in range(values.size):
        position = (values[i] >> shift) + np.uint64(i)
        highs[position >> np.uint64(6)] |= np.uint64(1) << (position & np.uint64(63))


@kernel(types.void(_WORDS_IN, _WORDS_IN, types.int64, _WORDS_OUT))
def _decode(lows, highs, low_bits, out):
    """lows [0b101], highs [0b100101], L=1 -> [1, 2, 7]; ``highs`` holds exactly ``out.size`` set bits."""
    shift = np.uint64(low_bits)
    if low_bits > 0:
        mask = (np.uint64(1) << shift) - np.uint64(1)
        word = 0
        offset = 0
        for i in range(out.size):
            low = lows[word] >> np.uint64(offset)
            end = offset + low_bits
            if end > 64:
                low |= lows[word + 1] << np.uint64(64 - offset)
            out[i] = low & mask
            if end >= 64:
                word += 1
                end -= 64
            offset = end
    else:
        for i in range(out.size):
            out[i] = np.uint64(0)
    i = 0
    for k in range(highs.size):
        w = highs[k]
        while w != np.uint64(0):
            lowest = w & (~w + np.uint64(1))
            bit = _BIT_OF_SLOT[(lowest * _DE_BRUIJN) >> np.uint64(58)]
            out[i] |= np.uint64(64 * k + bit - i) << shift
            i += 1
            w ^= lowest


@kernel(types.int64(_WORDS_IN))
def _count_ones(words):
    """[0b1011, 2**63] -> 4."""
    total = 0
    for k in range(words.size):
        x = words[k]
        x = x - ((x >> np.uint64(1)) & _M1)
        x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
        x = (x + (x >> np.uint64(4))) & _M4
        total += np.int64((x * _H01) >> np.uint64(56))
    return total
