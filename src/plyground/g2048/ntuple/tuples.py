"""The tuples of an n-tuple network: cells, the default tuples, their checks, and the kernels' lookup layout.

A tuple is a sequence of ``(row, col)`` cells. :func:`lookup_layout` turns the tuples of a
network into the ``lookups`` array that the kernels of ``_ntuple_kernels`` read (one row
per distinct symmetric image of a tuple; the columns are described there).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.core.symmetry import SYMMETRIES, Symmetry
from plyground.errors import InvalidInputError
from plyground.g2048 import _ntuple_kernels as NK
from plyground.g2048.board import Board

__all__ = [
    "DEFAULT_TUPLES",
    "MAX_STAGES",
    "MAX_TUPLE_SIZE",
    "MAX_WEIGHTS",
    "Cell",
    "Tuples",
    "check_stage_tiles",
    "check_tuples",
    "compact_radix",
    "default_tuples",
    "lookup_layout",
    "short_form",
]

Cell = tuple[int, int]
Tuples = tuple[tuple[Cell, ...], ...]

MAX_TUPLE_SIZE = NK.MAX_RUNS
"""The most cells of a tuple (a lookup reads at most one run per cell)."""
MAX_WEIGHTS = 1 << 30
"""The most weights a network may hold (4 GiB of float32)."""
MAX_STAGES = 8
"""The most stages a network may have."""

DEFAULT_TUPLES: Tuples = (
    ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1)),
    ((1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1)),
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),
    ((1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)),
)
"""The four 6-tuples of Jaśkowski 2018 and Yeh et al. 2016 for the 4×4 board."""


def _transposed(tuples: Tuples) -> Tuples:
    return tuple(tuple((c, r) for r, c in cells) for cells in tuples)


_SMALL_TUPLES: dict[tuple[int, int], Tuples] = {
    (2, 2): (((0, 0), (0, 1), (1, 0), (1, 1)),),
    (2, 3): (((0, 0), (0, 1), (0, 2), (1, 0), (1, 1)),),
    (2, 4): (((0, 0), (0, 1), (0, 2), (0, 3), (1, 0)), ((0, 1), (0, 2), (1, 0), (1, 1), (1, 2))),
    (3, 3): (((0, 0), (0, 1), (0, 2), (1, 0), (1, 1)), ((1, 0), (1, 1), (1, 2), (2, 0), (2, 1))),
    (3, 4): DEFAULT_TUPLES,  # they use rows 0 to 2 only
}


def default_tuples(rows: int = 4, cols: int = 4) -> Tuples:
    """The default tuples of an R×C board.

    * 4×4 and 3×4: :data:`DEFAULT_TUPLES` (four 6-tuples);
    * 3×3: two 5-tuples, ``(0,0) (0,1) (0,2) (1,0) (1,1)`` and ``(1,0) (1,1) (1,2) (2,0) (2,1)``;
    * 2×4: two 5-tuples, row 0 with ``(1,0)``, and ``(0,1) (0,2) (1,0) (1,1) (1,2)``;
    * 2×3: one 5-tuple, ``(0,0) (0,1) (0,2) (1,0) (1,1)``;
    * 2×2: the whole board;
    * a taller board (4×3, 4×2, 3×2): the transposed tuples of the wider one.

    Boards smaller than 3×4 use tuples of at most 5 cells, so that their tables stay small.

    >>> default_tuples(2, 2)
    (((0, 0), (0, 1), (1, 0), (1, 1)),)

    Raises:
        InvalidBoardError: an unsupported board size.
    """
    Board.empty(rows, cols)  # checks the size
    if rows == 4 and cols == 4:
        return DEFAULT_TUPLES
    if rows <= cols:
        return _SMALL_TUPLES[rows, cols]
    return _transposed(_SMALL_TUPLES[cols, rows])


def compact_radix(rows: int, cols: int) -> int:
    """The radix of the tables of a new network for the R×C board: one more than the largest exponent it can hold.

    A board of ``n`` cells holds tiles up to ``2**(n + 1)`` (and a bitboard cell up to ``2**15``).

    >>> compact_radix(3, 3), compact_radix(2, 4), compact_radix(4, 4)
    (11, 10, 16)
    """
    return min(rows * cols + 2, 16)


def check_tuples(tuples: Any, rows: int = 4, cols: int = 4) -> Tuples:
    """Validate tuples for an R×C board; return them as tuples of ``(row, col)`` pairs.

    Raises:
        InvalidInputError: not a non-empty list of tuples, a tuple of 0 or more than
            :data:`MAX_TUPLE_SIZE` cells, a cell that is not a ``(row, col)`` pair of
            integers, a cell off the board or twice in one tuple (the message names it),
            or more than :data:`MAX_WEIGHTS` weights in all.
    """
    Board.empty(rows, cols)
    if isinstance(tuples, str | bytes) or not isinstance(tuples, Sequence) or not tuples:
        raise InvalidInputError(f"tuples must be a non-empty list of lists of (row, col) cells, got {tuples!r}")
    out = []
    for t, cells in enumerate(tuples):
        if isinstance(cells, str | bytes) or not isinstance(cells, Sequence):
            raise InvalidInputError(f"tuples[{t}] is not a list of (row, col) cells: {cells!r}")
        if not 1 <= len(cells) <= MAX_TUPLE_SIZE:
            raise InvalidInputError(f"tuples[{t}] has {len(cells)} cells: a tuple has 1 to {MAX_TUPLE_SIZE} cells")
        seen: list[Cell] = []
        for cell in cells:
            if (
                isinstance(cell, str | bytes)
                or not isinstance(cell, Sequence)
                or len(cell) != 2
                or not all(isinstance(x, int | np.integer) and not isinstance(x, bool) for x in cell)
            ):
                raise InvalidInputError(f"tuples[{t}] has cell {cell!r}: a cell is a (row, col) pair of integers")
            r, c = int(cell[0]), int(cell[1])
            if not (0 <= r < rows and 0 <= c < cols):
                raise InvalidInputError(f"tuples[{t}] has cell ({r}, {c}) outside the {rows}x{cols} board")
            if (r, c) in seen:
                raise InvalidInputError(f"tuples[{t}] has cell ({r}, {c}) twice")
            seen.append((r, c))
        out.append(tuple(seen))
    radix = compact_radix(rows, cols)
    total = sum(radix ** len(cells) for cells in out)
    if total > MAX_WEIGHTS:
        raise InvalidInputError(f"{len(out)} tuples need {total:,} weights: at most {MAX_WEIGHTS:,} are allowed")
    return tuple(out)


def check_stage_tiles(stage_tiles: Any, rows: int = 4, cols: int = 4) -> tuple[int, ...]:
    """Validate the tiles that start the stages of a network for an R×C board; return them as a tuple.

    A network with stage tiles ``t_1 < t_2 < ...`` values a board by the tables of stage
    ``k``, the number of them that are at most its largest tile (stage 0 below ``t_1``).

    Raises:
        InvalidInputError: not a list of increasing powers of two from 4 to the largest tile
            of the board (2**(rows*cols+1), at most 32768), or more than :data:`MAX_STAGES` - 1.
    """
    Board.empty(rows, cols)
    if isinstance(stage_tiles, str | bytes) or not isinstance(stage_tiles, Sequence):
        raise InvalidInputError(f"stage tiles must be a list of tiles, got {stage_tiles!r}")
    largest = 1 << min(rows * cols + 1, 15)
    out: list[int] = []
    for tile in stage_tiles:
        if (
            isinstance(tile, bool)
            or not isinstance(tile, int | np.integer)
            or not 4 <= tile <= largest
            or tile & (tile - 1)
        ):
            raise InvalidInputError(
                f"stage tile {tile!r} is not a power of two from 4 to {largest} (the largest tile of {rows}x{cols})"
            )
        if out and tile <= out[-1]:
            raise InvalidInputError(f"stage tiles must increase: {tile} comes after {out[-1]}")
        out.append(int(tile))
    if len(out) >= MAX_STAGES:
        raise InvalidInputError(f"{len(out)} stage tiles make {len(out) + 1} stages: at most {MAX_STAGES} are allowed")
    return tuple(out)


def short_form(tuples: Tuples) -> str:
    """Tuples in a compact one-line form.

    >>> short_form((((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1))))
    '00-01-02/10-11'
    """
    return "/".join("-".join(f"{r}{c}" for r, c in cells) for cells in tuples)


# ---------------------------------------------------------------------------------------
# The kernels' lookup layout


def _inverse_point(symmetry: Symmetry, n: int, row: int, col: int) -> Cell:
    return symmetry.inverse.point(row, col, n)


def _symmetries(rows: int, cols: int) -> list[tuple[int, Callable[[int, int], Cell]]]:
    """The symmetries that map an R×C board onto itself: ``(index in SYMMETRIES, inverse cell map)``."""
    if rows == cols:
        return [(s.index, functools.partial(_inverse_point, s, rows)) for s in SYMMETRIES]
    return [  # each is its own inverse
        (0, lambda r, c: (r, c)),  # identity
        (2, lambda r, c: (rows - 1 - r, cols - 1 - c)),  # rotate 180
        (4, lambda r, c: (r, cols - 1 - c)),  # mirror left-right
        (5, lambda r, c: (rows - 1 - r, c)),  # mirror up-down
    ]


def _images(cells: tuple[Cell, ...], rows: int, cols: int) -> list[tuple[int, tuple[Cell, ...]]]:
    """The symmetric images of a tuple: ``(symmetry, cells of the board that it reads)``.

    Reading the tuple's cells from the board moved by a symmetry reads the cells of the
    inverse image from the board itself. Images that read the same cells in the same
    order as an earlier one are dropped.
    """
    images: list[tuple[int, tuple[Cell, ...]]] = []
    for index, inverse in _symmetries(rows, cols):
        image = tuple(inverse(r, c) for r, c in cells)
        if all(image != seen for _, seen in images):
            images.append((index, image))
    return images


def _runs(cells: tuple[Cell, ...], radix: int = 16) -> list[int]:
    """The ``(shift, mask, to)`` triples of a tuple.

    In radix 16, cells next to each other in the tuple and the bitboard merge into one run
    and ``to`` is a shift; in a smaller radix each cell is a run and ``to`` is ``radix**i``.
    """
    if radix != 16:
        return [x for i, (r, c) in enumerate(cells) for x in (16 * r + 4 * c, 0xF, radix**i)]
    runs: list[list[int]] = []
    for i, (r, c) in enumerate(cells):
        shift = 16 * r + 4 * c
        if runs and runs[-1][0] + 4 * runs[-1][1] == shift:
            runs[-1][1] += 1
        else:
            runs.append([shift, 1, 4 * i])
    return [x for shift, length, to in runs for x in (shift, (1 << (4 * length)) - 1, to)]


def lookup_layout(
    tuples: Tuples, rows: int, cols: int, stage_tiles: tuple[int, ...] = (), radix: int = 16
) -> tuple[npt.NDArray[np.int64], int]:
    """The kernels' ``lookups`` array for checked tuples (see ``_ntuple_kernels``) and the weights of one stage.

    >>> lookups, stride = lookup_layout(default_tuples(2, 2), 2, 2, radix=6)
    >>> lookups.shape[0], stride  # the 8 images of the whole 2x2 board, one table of 6**4 weights
    (8, 1296)
    """
    offsets = np.cumsum([0] + [radix ** len(cells) for cells in tuples])
    stride = int(offsets[-1])
    stages = [stride * sum(1 << e >= tile for tile in stage_tiles) for e in range(16)]
    lines = []
    for t, cells in enumerate(tuples):
        runs = _runs(cells, radix)
        for symmetry, _ in _images(cells, rows, cols):
            line = [int(offsets[t]), symmetry, len(runs) // 3, *runs]
            lines.append(line + [0] * (NK.STRIDE - len(line)) + [stride, *stages, radix])
    lines.sort(key=lambda line: line[NK.SYMMETRY])  # stable: by symmetry, then tuple
    return np.array(lines, dtype=np.int64), stride
