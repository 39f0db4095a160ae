"""The constants of SplitMix64 (Steele, Lea & Flood 2014), the one generator of plyground's kernels.

A stream is ``mix64(state + k * GOLDEN)`` for ``k = 1, 2, ...``; ``GOLDEN`` (2**64 divided by
the golden ratio) also serves as a multiplicative hash. The ``np.uint64`` constants are for
kernels (numba compiles them in; ``_jit`` treats this module as part of every kernel
folder), the ``*_INT`` twins and :func:`mix64` for Python code.

>>> hex(mix64(GOLDEN_INT))
'0xe220a8397b1dcdaf'
"""

from __future__ import annotations

import numpy as np

__all__ = ["GOLDEN", "GOLDEN_INT", "MASK64", "MIX_1", "MIX_1_INT", "MIX_2", "MIX_2_INT", "mix64"]

GOLDEN_INT = 0x9E3779B97F4A7C15
"""The step of a stream (and the multiplier of a Fibonacci hash)."""
MIX_1_INT = 0xBF58476D1CE4E5B9
"""The first multiplier of the output function."""
MIX_2_INT = 0x94D049BB133111EB
"""The second multiplier of the output function."""
MASK64 = (1 << 64) - 1
"""The low 64 bits of a Python int."""

GOLDEN = np.uint64(GOLDEN_INT)
MIX_1 = np.uint64(MIX_1_INT)
MIX_2 = np.uint64(MIX_2_INT)


def mix64(z: int) -> int:
    """The SplitMix64 output function on a Python int (the kernels' ``_kernels._mix64``), modulo 2**64.

    >>> mix64(0), mix64(1) == mix64(1 + (1 << 64))
    (0, True)
    """
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX_1_INT) & MASK64
    z = ((z ^ (z >> 27)) * MIX_2_INT) & MASK64
    return z ^ (z >> 31)
