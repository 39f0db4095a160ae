"""The transposition table's kernels against the naive twin, and its values across plies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.kinrow import _table_kernels as TK
from tests.naive.table import Table

SIZE = 16
WON = 1_000

operations = st.lists(
    st.one_of(
        st.tuples(
            st.just("store"),
            st.integers(0, 7),  # which key: a few positions, so that slots are shared and overwritten
            st.integers(-2 * WON, 2 * WON),
            st.integers(-1, 399),
            st.integers(-32, 64),
            st.integers(0, 2),
            st.integers(0, 30),
            st.integers(0, 70),
            st.booleans(),
        ),
        st.tuples(st.just("find"), st.integers(0, 7), st.integers(0, 30)),
    ),
    max_size=60,
)
KEYS = [
    (high << 32) | low
    for high, low in [(0, 3), (1, 3), (2, 19), (0xFFFF_FFFF, 3), (5, 4), (6, 4), (0x8000_0000, 7), (9, 0)]
]
"""Keys that differ in their high 32 bits, some sharing a slot (the low 4 bits)."""


@given(operations)
@settings(max_examples=200, deadline=None)
def test_the_kernels_keep_what_the_naive_table_keeps(ops: list[tuple]) -> None:
    table = np.zeros(SIZE, dtype=TK.TABLE_DTYPE)
    twin = Table(SIZE)
    for op in ops:
        if op[0] == "store":
            _, which, value, move, depth, bound, ply, age, keep = op
            key = KEYS[which]
            TK._store(table, np.uint64(key), value, move, depth, bound, ply, WON, age, int(keep))
            twin.store(key, value, move, depth, bound, ply, WON, age, keep)
        else:
            _, which, ply = op
            key = KEYS[which]
            slot = int(TK._find(table, np.uint64(key)))
            assert slot == twin.find(key)
            if slot >= 0:
                entry = twin.slots[slot]
                assert int(table[slot]["move"]) == entry["move"]
                assert int(table[slot]["depth"]) == entry["depth"]
                assert int(TK._bound(table, slot)) == entry["bound"]
                assert int(TK._value(table, slot, ply, WON)) == twin.value(slot, ply, WON)


def test_an_empty_table_finds_nothing_not_even_a_key_of_zeros() -> None:
    table = np.zeros(SIZE, dtype=TK.TABLE_DTYPE)
    assert int(TK._find(table, np.uint64(0))) == -1
    TK._store(table, np.uint64(0), 5, 1, 2, TK.EXACT, 0, WON, 0, 0)
    assert int(TK._find(table, np.uint64(0))) == 0
    assert int(TK._find(table, np.uint64(1 << 32))) == -1  # the same slot, another position


def test_an_entry_is_sixteen_bytes() -> None:
    assert TK.TABLE_DTYPE.itemsize == 16


@pytest.mark.kernel
@pytest.mark.parametrize("value", [0, 5, -5, WON, WON + 100, -WON, -WON - 100])
def test_table_values_round_trip(value: int) -> None:
    for ply in (0, 1, 7):
        assert int(TK._from_table(TK._to_table(value, ply, WON), ply, WON)) == value
    assert int(TK._to_table(WON + 95, 3, WON)) == WON + 98  # a win 5 plies from the root is 2 from a node at ply 3
