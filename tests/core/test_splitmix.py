"""SplitMix64's constants are defined once, and the Python twin of the output function matches the kernel's."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from plyground.core import splitmix
from plyground.core.splitmix import GOLDEN, GOLDEN_INT, MIX_1, MIX_2, mix64

SRC = Path(splitmix.__file__).parents[1]


@given(st.integers(min_value=0, max_value=(1 << 64) - 1))
def test_mix64_matches_the_kernel(z: int) -> None:
    from plyground.g2048 import _kernels as K

    assert mix64(z) == int(K._mix64(np.uint64(z)))


def test_the_constants_are_defined_here_only() -> None:
    assert (int(GOLDEN), int(MIX_1), int(MIX_2)) == (GOLDEN_INT, splitmix.MIX_1_INT, splitmix.MIX_2_INT)
    constants = re.compile(r"0x9E3779B97F4A7C15|0xBF58476D1CE4E5B9|0x94D049BB133111EB", re.IGNORECASE)
    elsewhere = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if path.name != "splitmix.py" and constants.search(path.read_text(encoding="utf-8"))
    ]
    assert elsewhere == []


def test_the_search_kernels_name_their_counters() -> None:
    for name in ("_search_kernels.py", "_heuristic_kernels.py", "_ntuple_leaf_kernels.py"):
        text = (SRC / "g2048" / name).read_text(encoding="utf-8")
        assert not re.search(r"counters\[\d", text), name  # NODES, TT_HITS, EVALUATIONS, GENERATION
