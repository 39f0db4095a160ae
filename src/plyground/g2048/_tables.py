"""Precomputed 65,536-entry row tables of the 2048 bitboard engine.

A row is 16 bits: four 4-bit exponents, cell 0 in the lowest nibble (the left-most
cell). Every table is built once at import, vectorised over all 65,536 rows, and bound
to an UPPER_CASE name that the kernels read as a compile-time constant.

* ``ROW_LEFT[row]``: the row slid and merged towards cell 0. Rows of a narrower board
  keep their unused cells empty, so one table serves every width.
* ``ROW_RIGHT[width, row]``: the row slid and merged towards cell ``width - 1``
  (widths 2, 3 and 4; cells at ``width`` and beyond are left as they are).
* ``ROW_POINTS[row]``: the points scored by merging the row. The same pairs merge in
  both directions along a line (runs of equal tiles split into the same number of
  pairs), so one table serves left and right.
* ``ROW_MIRROR[width, row]``: the first ``width`` cells of the row in reverse order
  (the left-right mirror image of a row of a board ``width`` cells wide).
* ``VALID_CELLS[rows, cols]``: the lowest bit of every cell of an R×C board.

Two 32768 tiles (exponent 15) never merge: a cell holds 4 bits, 15 is the largest.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["MAX_EXPONENT", "ROW_LEFT", "ROW_MIRROR", "ROW_POINTS", "ROW_RIGHT", "VALID_CELLS"]

MAX_EXPONENT = 15

_ROWS = np.arange(1 << 16, dtype=np.int64)


def _cells(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return np.stack([(rows >> (4 * i)) & 0xF for i in range(4)], axis=1)


def _pack(cells: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return cells[:, 0] | (cells[:, 1] << 4) | (cells[:, 2] << 8) | (cells[:, 3] << 12)


def _slide_left(cells: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Slide every row of ``cells`` towards cell 0; return the new cells and the points."""
    n_rows = cells.shape[0]
    index = np.arange(n_rows)
    out = np.zeros_like(cells)
    filled = np.zeros(n_rows, dtype=np.int64)  # cells written so far
    last = np.zeros(n_rows, dtype=np.int64)  # exponent of the last written, still mergeable tile
    points = np.zeros(n_rows, dtype=np.int64)
    for i in range(cells.shape[1]):
        v = cells[:, i]
        merge = (v != 0) & (v == last) & (v != MAX_EXPONENT)
        place = (v != 0) & ~merge
        out[index[merge], filled[merge] - 1] += 1
        points[merge] += np.left_shift(1, v[merge] + 1)
        last[merge] = 0
        out[index[place], filled[place]] = v[place]
        last[place] = v[place]
        filled[place] += 1
    return out, points


def _build_left() -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint32]]:
    slid, points = _slide_left(_cells(_ROWS))
    return _pack(slid).astype(np.uint16), points.astype(np.uint32)


def _build_right() -> npt.NDArray[np.uint16]:
    table = np.zeros((5, 1 << 16), dtype=np.uint16)
    cells = _cells(_ROWS)
    for width in (2, 3, 4):
        mirrored = np.zeros_like(cells)
        mirrored[:, :width] = cells[:, width - 1 :: -1]
        slid, _ = _slide_left(mirrored)
        result = cells.copy()  # cells beyond the width stay as they are
        result[:, :width] = slid[:, width - 1 :: -1]
        table[width] = _pack(result).astype(np.uint16)
    return table


def _build_mirror() -> npt.NDArray[np.uint16]:
    table = np.zeros((5, 1 << 16), dtype=np.uint16)
    cells = _cells(_ROWS)
    for width in (2, 3, 4):
        result = cells.copy()
        result[:, :width] = cells[:, width - 1 :: -1]
        table[width] = _pack(result).astype(np.uint16)
    return table


def _build_valid_cells() -> npt.NDArray[np.uint64]:
    table = np.zeros((5, 5), dtype=np.uint64)
    for rows in range(2, 5):
        for cols in range(2, 5):
            bits = 0
            for r in range(rows):
                for c in range(cols):
                    bits |= 1 << (16 * r + 4 * c)
            table[rows, cols] = bits
    return table


ROW_LEFT, ROW_POINTS = _build_left()
ROW_RIGHT = _build_right()
ROW_MIRROR = _build_mirror()
VALID_CELLS = _build_valid_cells()
