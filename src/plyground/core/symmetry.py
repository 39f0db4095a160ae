"""The 8 symmetries of a square board (rotations and reflections), as paired point and board transforms.

A symmetry maps cell (r, c) of an n×n board to another cell; the board transform moves
every cell's content along that map, so that ``transform(board)[point(r, c)] ==
board[r, c]``. Cells are also numbered ``r * n + c`` (row-major), and
:func:`permutations` gives each symmetry as an index array for numpy and numba code.

>>> ROTATE_90.point(0, 0, 3)      # the top-left corner goes to the top-right one
(0, 2)
>>> ROTATE_90.inverse is ROTATE_270
True
>>> import numpy as np
>>> board = np.array([[1, 2], [0, 0]])
>>> ROTATE_90.board(board).tolist()
[[0, 1], [0, 2]]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

__all__ = [
    "ANTI_TRANSPOSE",
    "IDENTITY",
    "MIRROR_LEFT_RIGHT",
    "MIRROR_UP_DOWN",
    "ROTATE_90",
    "ROTATE_180",
    "ROTATE_270",
    "SYMMETRIES",
    "TRANSPOSE",
    "Symmetry",
    "canonical",
    "permutations",
]


@dataclass(frozen=True, eq=False)
class Symmetry:
    """One symmetry of the square: ``point`` maps a cell, ``board`` moves a whole board."""

    name: str
    _map: Callable[[int, int, int], tuple[int, int]] = field(repr=False)
    index: int = -1

    def point(self, row: int, col: int, n: int) -> tuple[int, int]:
        """Where cell (row, col) of an n×n board goes."""
        return self._map(row, col, n)

    def cell(self, index: int, n: int) -> int:
        """Where the cell numbered ``index`` (``r * n + c``) goes."""
        r, c = self._map(index // n, index % n, n)
        return r * n + c

    def board(self, board: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
        """The n×n array with each cell's content moved to where the symmetry maps the cell."""
        n = board.shape[0]
        out = np.empty_like(board)
        out.reshape(-1)[permutations(n)[self.index]] = board.reshape(-1)
        return out

    @property
    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one."""
        return SYMMETRIES[_INVERSE[self.index]]

    def __repr__(self) -> str:
        return f"Symmetry({self.name!r})"


def _make(name: str, map_: Callable[[int, int, int], tuple[int, int]], index: int) -> Symmetry:
    return Symmetry(name, map_, index)


IDENTITY = _make("identity", lambda r, c, n: (r, c), 0)
ROTATE_90 = _make("rotate 90", lambda r, c, n: (c, n - 1 - r), 1)  # clockwise
ROTATE_180 = _make("rotate 180", lambda r, c, n: (n - 1 - r, n - 1 - c), 2)
ROTATE_270 = _make("rotate 270", lambda r, c, n: (n - 1 - c, r), 3)
MIRROR_LEFT_RIGHT = _make("mirror left-right", lambda r, c, n: (r, n - 1 - c), 4)
MIRROR_UP_DOWN = _make("mirror up-down", lambda r, c, n: (n - 1 - r, c), 5)
TRANSPOSE = _make("transpose", lambda r, c, n: (c, r), 6)
ANTI_TRANSPOSE = _make("anti-transpose", lambda r, c, n: (n - 1 - c, n - 1 - r), 7)

SYMMETRIES: tuple[Symmetry, ...] = (
    IDENTITY,
    ROTATE_90,
    ROTATE_180,
    ROTATE_270,
    MIRROR_LEFT_RIGHT,
    MIRROR_UP_DOWN,
    TRANSPOSE,
    ANTI_TRANSPOSE,
)
"""The dihedral group of the square, identity first; ``SYMMETRIES[s].index == s``."""


def _inverses() -> tuple[int, ...]:
    n = 3  # a board where every symmetry is a different map
    maps = [tuple(s.cell(i, n) for i in range(n * n)) for s in SYMMETRIES]
    out = []
    for m in maps:
        back = tuple(sorted(range(n * n), key=lambda i: m[i]))  # the index map's inverse
        out.append(maps.index(back))
    return tuple(out)


_INVERSE = _inverses()


@functools.cache
def permutations(n: int) -> npt.NDArray[np.int64]:
    """An (8, n*n) array: ``permutations(n)[s][i]`` is where symmetry ``s`` sends cell ``i``."""
    table = np.array([[s.cell(i, n) for i in range(n * n)] for s in SYMMETRIES], dtype=np.int64)
    table.setflags(write=False)
    return table


def canonical(cells: npt.NDArray[np.int8], n: int) -> tuple[bytes, int]:
    """The canonical form of a board given as its n*n cells (row-major): the smallest image, and which symmetry.

    Returns ``(image.tobytes(), s)`` where ``image`` is the board under ``SYMMETRIES[s]``,
    the lexicographically smallest of the 8 images (the first such ``s``). Boards equal up
    to a symmetry have the same canonical bytes.
    """
    images = np.empty((8, n * n), dtype=cells.dtype)
    images[np.arange(8)[:, None], permutations(n)] = cells[None, :]
    best = min(range(8), key=lambda s: images[s].tobytes())
    return images[best].tobytes(), best
