"""Slow, obviously-correct twins of the sharded solver's kernels (``g2048/shards/_shard_kernels.py``)."""

from __future__ import annotations

import bisect

MASK = (1 << 64) - 1


def mix64(z: int) -> int:
    """SplitMix64's output function (Steele, Lea & Flood 2014), on Python ints."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def owner(code: int, shards: int, shift: int) -> int:
    """The shard of a code: a hash of its bits above ``shift`` (its leading cells)."""
    return mix64(code >> shift) % shards


def route(codes: list[int], shards: int, shift: int) -> list[list[int]]:
    """The codes of each shard, in their order."""
    return [[c for c in codes if owner(c, shards, shift) == s] for s in range(shards)]


def lookup(keys: list[int], codes: list[int], values: list[float]) -> list[float | None]:
    """The value of each key in the sorted ``codes``, None where missing."""
    out: list[float | None] = []
    for key in keys:
        i = bisect.bisect_left(codes, key)
        out.append(values[i] if i < len(codes) and codes[i] == key else None)
    return out
