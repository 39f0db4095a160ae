"""Hypothesis strategies for 2048 boards of every size, 32768 tiles included."""

from __future__ import annotations

from hypothesis import strategies as st

# Mostly small exponents so that merges are common, sometimes anything up to 15 (32768).
exponents = st.one_of(st.integers(0, 3), st.integers(0, 15), st.sampled_from([0, 14, 15]))
sizes = st.tuples(st.integers(2, 4), st.integers(2, 4))


@st.composite
def grids(draw: st.DrawFn, rows: int | None = None, cols: int | None = None) -> list[list[int]]:
    """A grid of tile values (0 for empty) of a random size from 2×2 to 4×4."""
    r = rows if rows is not None else draw(st.integers(2, 4))
    c = cols if cols is not None else draw(st.integers(2, 4))
    cells = draw(st.lists(exponents, min_size=r * c, max_size=r * c))
    return [[(1 << e) if e else 0 for e in cells[i * c : (i + 1) * c]] for i in range(r)]


words = st.integers(0, 2**64 - 1)
