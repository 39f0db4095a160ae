"""The transposition table of k-in-a-row's searches: one layout and one set of kernels for all of them.

The engine's principal-variation search, the alpha-beta search and the threat solver's table of
positions shown not to win all keep their entries here. A table is a power-of-two array of
:data:`TABLE_DTYPE` records, 16 bytes each (four to a cache line):

* ``value`` int64: the value stored (a search's win values counted from the node, see
  :func:`_store`), the threat solver stores 0;
* ``check`` uint32: the key's high 32 bits; its low bits are the slot, so an entry is checked
  against ``32 + log2(size)`` bits of the key;
* ``move`` int16: the best move found (-1: none);
* ``depth`` int8: the depth searched (negative for the engine's threat plies);
* ``flags`` uint8: the bound (:data:`EXACT`, :data:`LOWER`, :data:`UPPER`) in bits 0-1,
  :data:`USED` in bit 2, the age of the search that wrote it in bits 3-7.

A slot holds one entry; :func:`_store` replaces it always (``keep_deeper`` 0) or, as the engine
does, only with a different position, a search as deep or deeper, or an entry of another search
(``keep_deeper`` 1). Kernels do no validation; the callers size and clear the tables. The naive
twin is ``tests/naive/table.py``.
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype, types

from plyground._jit import kernel

TABLE_DTYPE = np.dtype(
    [("value", np.int64), ("check", np.uint32), ("move", np.int16), ("depth", np.int8), ("flags", np.uint8)],
    align=True,
)
"""One entry: 16 bytes."""
EXACT, LOWER, UPPER = 0, 1, 2
"""The bounds: the value is exact, at least the value (a cut-off), at most the value (no move reached alpha)."""
USED = 4
"""The flag of a slot written at least once."""
AGES = 32
"""Ages are counted modulo this (bits 3-7 of the flags)."""

TABLE = types.Array(from_dtype(TABLE_DTYPE), 1, "C")
"""The numba type of a table, for the eager signatures of the searches."""


@kernel(types.int64(TABLE, types.uint64), inline=True)
def _find(table, key):
    """The slot of ``key``'s entry, or -1 when the table holds none."""
    slot = np.int64(key & np.uint64(table.shape[0] - 1))
    entry = table[slot]
    if entry["flags"] & USED and entry["check"] == np.uint32(key >> np.uint64(32)):
        return slot
    return -1


@kernel(types.int64(types.int64, types.int64, types.int64), inline=True)
def _to_table(value, ply, won):
    """``value`` of a node ``ply`` plies from the root as stored: a win or loss (past ``won``) counted from the node."""
    if value >= won:
        return value + ply
    if value <= -won:
        return value - ply
    return value


@kernel(types.int64(types.int64, types.int64, types.int64), inline=True)
def _from_table(value, ply, won):
    """A stored value read at a node ``ply`` plies from the root (the inverse of :func:`_to_table`)."""
    if value >= won:
        return value - ply
    if value <= -won:
        return value + ply
    return value


@kernel(types.int64(TABLE, types.int64, types.int64, types.int64), inline=True)
def _value(table, slot, ply, won):
    """The value of the entry in ``slot`` for a node ``ply`` plies from the root."""
    return _from_table(table[slot]["value"], ply, won)


@kernel(types.int64(TABLE, types.int64), inline=True)
def _bound(table, slot):
    """The bound of the entry in ``slot``."""
    return np.int64(table[slot]["flags"] & 3)


@kernel(
    types.void(
        TABLE, types.uint64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
        types.int64, types.int64,
    ),
    inline=True,
)  # fmt: skip
def _store(table, key, value, move, depth, bound, ply, won, age, keep_deeper):
    """Write an entry for ``key`` (its value at a node ``ply`` plies from the root) unless ``keep_deeper`` keeps one.

    With ``keep_deeper`` 1 the slot keeps an entry of the same position, written by a search of the
    same ``age``, searched deeper than ``depth``.
    """
    slot = np.int64(key & np.uint64(table.shape[0] - 1))
    entry = table[slot]
    check = np.uint32(key >> np.uint64(32))
    flags = entry["flags"]
    if (
        keep_deeper
        and flags & USED
        and entry["check"] == check
        and depth < entry["depth"]
        and np.int64(flags >> 3) == age % AGES
    ):
        return
    entry["value"] = _to_table(value, ply, won)
    entry["check"] = check
    entry["move"] = move
    entry["depth"] = depth
    entry["flags"] = np.uint8(bound | USED | ((age % AGES) << 3))
