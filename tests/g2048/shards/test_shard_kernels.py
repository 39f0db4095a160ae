"""The sharded solver's kernels against their slow twins in ``tests/naive/shard_solver.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.g2048.shards import _shard_kernels as HK
from plyground.g2048.shards.tasks import _route
from tests.naive import shard_solver as naive

pytestmark = pytest.mark.kernel

codes_ = st.lists(st.integers(0, 2**64 - 1), max_size=80)
shards_ = st.integers(1, 40)


@given(codes_, shards_)
def test_owner_and_route_match_naive(codes: list[int], shards: int) -> None:
    array = np.array(codes, dtype=np.uint64)
    assert [int(HK._owner(np.uint64(c), shards)) for c in codes] == [naive.owner(c, shards) for c in codes]
    assert [part.tolist() for part in _route(array, shards)] == naive.route(codes, shards)


def test_owners_spread_evenly() -> None:
    codes = np.arange(1, 160_001, dtype=np.uint64) << np.uint64(4)  # codes of nearby boards
    counts = np.array([part.shape[0] for part in _route(codes, 16)])
    assert counts.min() > 0.95 * 10_000 and counts.max() < 1.05 * 10_000


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
