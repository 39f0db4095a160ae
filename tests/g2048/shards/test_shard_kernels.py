"""The sharded solver's kernels against their slow twins in ``tests/naive/shard_solver.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.g2048.shards import _shard_kernels as HK
from plyground.g2048.shards.store import owner_shift
from plyground.g2048.shards.tasks import _route
from tests.naive import shard_solver as naive

pytestmark = pytest.mark.kernel

codes_ = st.lists(st.integers(0, 2**64 - 1), max_size=80)
shards_ = st.integers(1, 40)


@given(codes_, shards_, st.sampled_from([owner_shift(r, c) for r, c in ((2, 2), (2, 3), (3, 3), (4, 3))]))
def test_owner_and_route_match_naive(codes: list[int], shards: int, shift: int) -> None:
    array = np.array(codes, dtype=np.uint64)
    assert [int(HK._owner(np.uint64(c), shards, shift)) for c in codes] == [
        naive.owner(c, shards, shift) for c in codes
    ]
    assert [part.tolist() for part in _route(array, shards, shift)] == naive.route(codes, shards, shift)


def test_owners_spread_evenly_and_keep_the_trailing_cells_together() -> None:
    shift = owner_shift(4, 3)
    codes = np.arange(160_000, dtype=np.uint64) << np.uint64(shift - 4)  # 10,000 blocks of 16 neighbours
    parts = _route(codes, 16, shift)
    counts = np.array([part.shape[0] for part in parts])
    assert counts.min() > 0.85 * 10_000 and counts.max() < 1.15 * 10_000  # 625 blocks a shard: within 4 sigma
    for part in parts:  # whole blocks: a code's block-mates are in its shard
        _, sizes = np.unique(part >> np.uint64(shift), return_counts=True)
        assert (sizes == 16).all()


@given(st.lists(st.integers(0, 2**64 - 1), unique=True, max_size=50), codes_)
def test_lookup_matches_naive(table: list[int], extra: list[int]) -> None:
    table.sort()
    values = [float(i) * 1.5 for i in range(len(table))]
    keys = table[::2] + extra
    out = np.empty(len(keys), dtype=np.float64)
    missing = HK._lookup(np.array(keys, dtype=np.uint64), np.array(table, dtype=np.uint64), np.array(values), out)
    expected = naive.lookup(keys, table, values)
    assert missing == sum(v is None for v in expected)
    assert [None if math.isnan(v) else v for v in out.tolist()] == expected
