"""Slow, obviously-correct reference of endgame tables: a plain recursive expectimax over a formation's region.

A grid is a ``list[list[int]]`` of tile values (0 empty). Frozen cells hold a distinct object each
(``Frozen(i)``), which never merges and whose place is checked after every move: a move is
allowed when no frozen cell moved and the grid changed. A state's value is the probability of the
target tile on the goal cell under optimal play (1 when it is there; 0 when a tile of the target or
more is elsewhere, a tile above its cell's cap stands anywhere, or no move is allowed), each spawn
a 2 or 4 (``p_four``) on an empty free cell, the cells alike. ``caps`` holds ``((row, col), tile)``
pairs: the largest tile each capped cell may hold. Memoised on the grid; nothing shared with the
kernels.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

DIRECTIONS = ("up", "right", "down", "left")


@dataclass(frozen=True)
class Frozen:
    """A frozen tile: equal only to itself."""

    index: int


Cell = int | Frozen
Grid = tuple[tuple[Cell, ...], ...]


def slide_towards_start(line: list[Cell]) -> list[Cell]:
    """One line moved towards index 0: each tile slides over empty cells, equal numbers merge once."""
    tiles = [cell for cell in line if cell != 0]
    out: list[Cell] = []
    i = 0
    while i < len(tiles):
        first = tiles[i]
        if i + 1 < len(tiles) and isinstance(first, int) and tiles[i + 1] == first:
            out.append(first * 2)
            i += 2
        else:
            out.append(first)
            i += 1
    return out + [0] * (len(line) - len(out))


def move(grid: Grid, direction: str) -> Grid:
    """``grid`` after the move in the real game (frozen tiles move like any other)."""
    rows, cols = len(grid), len(grid[0])
    cells = [list(row) for row in grid]
    if direction in ("left", "right"):
        for r in range(rows):
            line = cells[r] if direction == "left" else cells[r][::-1]
            moved = slide_towards_start(line)
            cells[r] = moved if direction == "left" else moved[::-1]
    else:
        for c in range(cols):
            line = [cells[r][c] for r in range(rows)]
            line = line if direction == "up" else line[::-1]
            moved = slide_towards_start(line)
            moved = moved if direction == "up" else moved[::-1]
            for r in range(rows):
                cells[r][c] = moved[r]
    return tuple(tuple(row) for row in cells)


def allowed(before: Grid, after: Grid) -> bool:
    """The move changed the grid and left every frozen tile where it was."""
    if before == after:
        return False
    for r, row in enumerate(before):
        for c, cell in enumerate(row):
            if isinstance(cell, Frozen) and after[r][c] != cell:
                return False
    return True


Caps = tuple[tuple[tuple[int, int], int], ...]


def value(grid: Grid, goal: tuple[int, int], target: int, p_four: float, caps: Caps = ()) -> float:
    """The exact value of ``grid`` (the player to move)."""
    return _value(grid, goal, target, p_four, caps)


@functools.cache
def _value(grid: Grid, goal: tuple[int, int], target: int, p_four: float, caps: Caps) -> float:
    ended = _ended(grid, goal, target, caps)
    if ended is not None:
        return ended
    values = move_values(grid, goal, target, p_four, caps)
    return max(values.values()) if values else 0.0


def _ended(grid: Grid, goal: tuple[int, int], target: int, caps: Caps) -> float | None:
    if grid[goal[0]][goal[1]] == target:
        return 1.0
    if any(isinstance(cell, int) and cell >= target for row in grid for cell in row):
        return 0.0
    if any(isinstance(grid[r][c], int) and grid[r][c] > tile for (r, c), tile in caps):
        return 0.0
    return None


def move_values(grid: Grid, goal: tuple[int, int], target: int, p_four: float, caps: Caps = ()) -> dict[str, float]:
    """Each allowed move's value: the mean over its spawns of the grids they make."""
    out = {}
    for direction in DIRECTIONS:
        after = move(grid, direction)
        if allowed(grid, after):
            out[direction] = after_value(after, goal, target, p_four, caps)
    return out


def after_value(after: Grid, goal: tuple[int, int], target: int, p_four: float, caps: Caps = ()) -> float:
    """The value of a grid after a move, before its spawn."""
    ended = _ended(after, goal, target, caps)
    if ended is not None:
        return ended
    empty = [(r, c) for r, row in enumerate(after) for c, cell in enumerate(row) if cell == 0]
    total = 0.0
    for r, c in empty:
        for tile, p in ((2, 1.0 - p_four), (4, p_four)):
            if p == 0.0:
                continue
            cells = [list(row) for row in after]
            cells[r][c] = tile
            total += p * _value(tuple(tuple(row) for row in cells), goal, target, p_four, caps)
    return total / len(empty)


def caps_of(text: str) -> Caps:
    """The caps of a formation's text: a hexadecimal digit d on a free cell holds tiles up to ``2 ** d``."""
    return tuple(((r, c), 1 << int(char, 16)) for r, line in enumerate(text.split("/"))
                 for c, char in enumerate(line) if char not in "x.T")  # fmt: skip


def grid_of(text: str, tiles: dict[tuple[int, int], int]) -> Grid:
    """The grid of a formation's text (``x`` frozen, ``.``, a cap's digit and ``T`` free) with ``tiles`` on its
    free cells."""
    rows = text.split("/")
    frozen = 0
    grid = []
    for r, line in enumerate(rows):
        row: list[Cell] = []
        for c, char in enumerate(line):
            if char == "x":
                row.append(Frozen(frozen))
                frozen += 1
            else:
                row.append(tiles.get((r, c), 0))
        grid.append(tuple(row))
    return tuple(grid)
