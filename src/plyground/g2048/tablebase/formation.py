"""Formations: the part of a 2048 board an endgame table solves, and the cell where it builds its tile.

A formation splits the board into *frozen* cells (the big tiles: they never move or merge, and
their values do not matter, so one table serves every set of big tiles) and a free *region*,
with one *goal* cell in the region. It is written as the board's rows, ``x`` a frozen cell, ``.``
a free one and ``T`` the goal, rows separated by ``/``:

>>> formation = Formation.parse("xxxx/xxxx/..../...T")
>>> formation.region_size, formation.goal, formation.to_text()
(8, (3, 3), 'xxxx/xxxx/..../...T')

A free cell may also carry a *cap*: written as a hexadecimal digit from 2 to e, the exponent of the
largest tile it may hold (``7``: 128). A table solved with caps counts a tile above a cell's cap a
failure, as a tile of the target elsewhere than on the goal: its values are the probabilities of play
that keeps every cell under its cap, and it holds the product of each cell's tile values, far fewer
states than the same region uncapped:

>>> capped = Formation.parse("xxxx/xx.T/7788/6677")
>>> capped.region_size, capped.radix(9)  # for 512: the cells' radices, 8 to 9 levels instead of 9 each
(10, (9, 9, 8, 8, 9, 9, 7, 7, 8, 8))

The formation's images under the board's symmetries (:meth:`Formation.images`) are the same
formation seen from another side: a table solved for one serves them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from plyground.errors import InvalidInputError

__all__ = ["FREE", "FROZEN", "GOAL", "Formation", "image_cell", "image_direction"]

FROZEN, FREE, GOAL = "x", ".", "T"
"""The characters of a formation's text (and a cap's hexadecimal digit, 2 to e, on a free cell)."""
_CAPS = "23456789abcde"
"""The digits of a cap: the exponent of the largest tile the cell may hold, 2 (a 4) to 14 (16384)."""


@dataclass(frozen=True)
class Formation:
    """Frozen cells, a free region and a goal cell in it, on a board of ``rows`` x ``cols`` cells.

    Attributes:
        rows, cols: the board's size (2 to 4 each).
        frozen: the frozen cells, as ``(row, col)`` pairs in row order.
        goal: the goal cell, in the region.
        caps: the free cells with a cap, as ``((row, col), exponent)`` pairs in row order: the cell holds
            tiles up to ``2 ** exponent`` (2 to 14); none on the goal cell.

    Build one with :meth:`parse`; the constructor checks what it is given the same way.

    Raises:
        InvalidInputError: a size out of range, a goal outside the board or frozen, cells outside
            the board, or a region of no cell or of the whole board; a cap on the goal, a frozen cell or
            outside the board, or of an exponent outside 2 to 14.
    """

    rows: int
    cols: int
    frozen: tuple[tuple[int, int], ...]
    goal: tuple[int, int]
    caps: tuple[tuple[tuple[int, int], int], ...] = ()

    def __post_init__(self) -> None:
        for name, size in (("rows", self.rows), ("cols", self.cols)):
            if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 4:
                raise InvalidInputError(f"a formation's {name} must be from 2 to 4, got {size!r}")
        cells = set(self.frozen)
        if len(cells) != len(self.frozen) or not all(self._inside(cell) for cell in cells):
            raise InvalidInputError(f"frozen cells must be distinct cells of a {self.rows}x{self.cols} board")
        if not self._inside(self.goal):
            raise InvalidInputError(f"the goal cell {self.goal} is not on a {self.rows}x{self.cols} board")
        if self.goal in cells:
            raise InvalidInputError(f"the goal cell {self.goal} must be in the free region, not frozen")
        if not cells:
            raise InvalidInputError("a formation needs frozen cells: a region of the whole board is a plain game")
        object.__setattr__(self, "frozen", tuple(sorted(cells)))
        try:
            capped = dict(self.caps)
        except (TypeError, ValueError):
            raise InvalidInputError(f"caps are ((row, col), exponent) pairs, got {self.caps!r}") from None
        if len(capped) != len(self.caps):
            raise InvalidInputError("a cell has one cap at most")
        for cell, exponent in capped.items():
            if not self._inside(cell) or cell in cells or cell == self.goal:
                raise InvalidInputError(f"a cap must be on a free cell of the board other than the goal, got {cell}")
            if isinstance(exponent, bool) or not isinstance(exponent, int) or not 2 <= exponent <= 14:
                raise InvalidInputError(f"a cap is a tile's exponent from 2 (4) to 14 (16384), got {exponent!r}")
        object.__setattr__(self, "caps", tuple(sorted(capped.items())))

    def _inside(self, cell: object) -> bool:
        return (
            isinstance(cell, tuple)
            and len(cell) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
            and 0 <= cell[0] < self.rows
            and 0 <= cell[1] < self.cols
        )

    @classmethod
    def parse(cls, text: str) -> Formation:
        """A formation from its text: rows separated by ``/``, ``x`` frozen, ``.`` free, ``T`` the goal.

        Raises:
            InvalidInputError: not text, rows of different lengths, a character other than
                ``x``, ``.`` and ``T``, not exactly one ``T``, a region of no cell or of the whole
                board, or a size out of range.
        """
        if not isinstance(text, str):
            raise InvalidInputError(f"expected a formation's text, got {type(text).__name__}")
        lines = [line.strip() for line in text.strip().split("/")]
        shown = text.strip() or repr(text)
        if not all(lines) or len({len(line) for line in lines}) != 1:
            raise InvalidInputError(f"formation {shown}: rows of the same length are needed, like xxxx/xxxx/..../...T")
        frozen, goals, caps = [], [], []
        for r, line in enumerate(lines):
            for c, char in enumerate(line):
                if char == FROZEN:
                    frozen.append((r, c))
                elif char == GOAL:
                    goals.append((r, c))
                elif char.lower() in _CAPS:
                    caps.append(((r, c), _CAPS.index(char.lower()) + 2))
                elif char != FREE:
                    raise InvalidInputError(
                        f"formation {shown}: {char!r} is not a cell; use x (frozen), . (free), T (the goal) and 2 "
                        "to e (a free cell's cap)"
                    )
        if len(goals) != 1:
            raise InvalidInputError(f"formation {shown}: exactly one goal cell T is needed, found {len(goals)}")
        return cls(len(lines), len(lines[0]), tuple(frozen), goals[0], tuple(caps))

    def to_text(self) -> str:
        """The text :meth:`parse` reads back."""
        frozen, caps = set(self.frozen), dict(self.caps)

        def char(cell: tuple[int, int]) -> str:
            if cell == self.goal:
                return GOAL
            if cell in frozen:
                return FROZEN
            return _CAPS[caps[cell] - 2] if cell in caps else FREE

        return "/".join("".join(char((r, c)) for c in range(self.cols)) for r in range(self.rows))

    def __str__(self) -> str:
        return self.to_text()

    @property
    def region(self) -> tuple[tuple[int, int], ...]:
        """The free cells, the goal among them, in row order."""
        frozen = set(self.frozen)
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in frozen)

    def radix(self, levels: int) -> tuple[int, ...]:
        """The tile values each free cell (in :attr:`region`'s order) holds in a table for the target ``2 ** levels``,
        the empty cell included: ``levels``, or one more than the cell's cap when that is fewer."""
        caps = dict(self.caps)
        return tuple(min(levels, caps[cell] + 1) if cell in caps else levels for cell in self.region)

    @property
    def region_size(self) -> int:
        """The number of free cells."""
        return self.rows * self.cols - len(self.frozen)

    @property
    def frozen_mask(self) -> int:
        """The bits of the frozen cells in a bitboard (cell (r, c) at bit ``16 * r + 4 * c``, four bits each)."""
        return sum(0xF << (16 * r + 4 * c) for r, c in self.frozen)

    @property
    def goal_shift(self) -> int:
        """The bit of the goal cell in a bitboard."""
        return 16 * self.goal[0] + 4 * self.goal[1]

    @property
    def symmetries(self) -> int:
        """The symmetries of the board: 8 on a square, 4 on a rectangle (see :func:`image_cell`)."""
        return 8 if self.rows == self.cols else 4

    def image(self, k: int) -> Formation:
        """The formation under the symmetry ``k`` of the board (see :func:`image_cell`)."""
        rows, cols = self.rows, self.cols
        return Formation(
            rows,
            cols,
            tuple(image_cell(cell, k, rows, cols) for cell in self.frozen),
            image_cell(self.goal, k, rows, cols),
            tuple((image_cell(cell, k, rows, cols), exponent) for cell, exponent in self.caps),
        )

    def images(self) -> tuple[Formation, ...]:
        """The formation under each symmetry of the board (8 on a square, 4 on a rectangle), itself first, distinct."""
        found: list[Formation] = []
        for k in range(self.symmetries):
            other = self.image(k)
            if other not in found:
                found.append(other)
        return tuple(found)


def image_cell(cell: tuple[int, int], k: int, rows: int, cols: int) -> tuple[int, int]:
    """Where the symmetry ``k`` (0 to 7) of a ``rows`` x ``cols`` board takes ``cell``: a transpose first when
    ``k >= 4`` (square boards only), then the rows upside down when ``k & 2``, the columns mirrored when ``k & 1``."""
    r, c = cell
    if k >= 4:
        r, c = c, r
    return (rows - 1 - r if k & 2 else r), (cols - 1 - c if k & 1 else c)


_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left


def image_direction(d: int, k: int) -> int:
    """The move (0 up, 1 right, 2 down, 3 left) that the symmetry ``k`` makes of the move ``d``."""
    dr, dc = _STEPS[d]
    if k >= 4:
        dr, dc = dc, dr
    return _STEPS.index((-dr if k & 2 else dr, -dc if k & 1 else dc))
