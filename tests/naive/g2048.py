"""Slow, obviously-correct reference implementation of the 2048 game.

A grid is a ``list[list[int]]`` of tile values (0 = empty, else 2, 4, ...,
32768) with between 2 and 4 rows and between 2 and 4 columns.  Row 0 is the
top row ("up" slides towards it) and column 0 the leftmost one ("left" slides
towards it).

A board in bit form is an int below 2**64 whose nibble at shift
``16 * r + 4 * c`` holds the exponent of the tile in cell (r, c).
"""

from __future__ import annotations

DIRECTIONS: tuple[str, str, str, str] = ("up", "right", "down", "left")

MAX_TILE = 32768  # 2**15: the largest exponent a nibble can hold
MASK64 = (1 << 64) - 1

Grid = list[list[int]]


# --------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------


def slide_left(line: list[int]) -> tuple[list[int], int]:
    """Slide one line towards index 0, merging equal neighbours once.

    Returns the new line and the points scored (the sum of the new tiles).
    Two tiles of MAX_TILE never merge.
    """
    tiles = [v for v in line if v != 0]
    result: list[int] = []
    points = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] != MAX_TILE:
            merged = tiles[i] * 2
            result.append(merged)
            points += merged
            i += 2
        else:
            result.append(tiles[i])
            i += 1
    result += [0] * (len(line) - len(result))
    return result, points


def transpose(grid: Grid) -> Grid:
    """Swap rows and columns."""
    return [[grid[r][c] for r in range(len(grid))] for c in range(len(grid[0]))]


def mirror(grid: Grid) -> Grid:
    """Reverse every row (left becomes right)."""
    return [list(reversed(row)) for row in grid]


def move_left(grid: Grid) -> tuple[Grid, int]:
    """Apply slide_left to every row."""
    new_grid: Grid = []
    points = 0
    for row in grid:
        new_row, row_points = slide_left(row)
        new_grid.append(new_row)
        points += row_points
    return new_grid, points


def move(grid: Grid, direction: str) -> tuple[Grid, int]:
    """Return (new grid, points scored) after moving in ``direction``.

    The input grid is not modified.  An illegal move returns an equal grid
    and 0 points.
    """
    if direction == "left":
        return move_left(grid)
    if direction == "right":
        moved, points = move_left(mirror(grid))
        return mirror(moved), points
    if direction == "up":
        moved, points = move_left(transpose(grid))
        return transpose(moved), points
    if direction == "down":
        moved, points = move_left(mirror(transpose(grid)))
        return transpose(mirror(moved)), points
    raise ValueError(f"unknown direction {direction!r}")


def legal_moves(grid: Grid) -> list[str]:
    """Directions (in DIRECTIONS order) whose move changes the grid."""
    return [d for d in DIRECTIONS if move(grid, d)[0] != grid]


def is_terminal(grid: Grid) -> bool:
    """True when no move changes the grid."""
    return not legal_moves(grid)


def max_tile(grid: Grid) -> int:
    """Largest tile value on the grid (0 for an empty grid)."""
    return max(max(row) for row in grid)


def empty_cells(grid: Grid) -> list[tuple[int, int]]:
    """Coordinates of the empty cells in reading order."""
    return [(r, c) for r in range(len(grid)) for c in range(len(grid[r])) if grid[r][c] == 0]


def empty_grid(rows: int, cols: int) -> Grid:
    """A grid with no tiles."""
    return [[0] * cols for _ in range(rows)]


# --------------------------------------------------------------------------
# Bit form
# --------------------------------------------------------------------------


def to_bits(grid: Grid) -> int:
    """Pack a grid into a 64-bit int, 4 bits of exponent per cell."""
    bits = 0
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            exponent = value.bit_length() - 1 if value else 0
            if value and (value != 1 << exponent or not 1 <= exponent <= 15):
                raise ValueError(f"invalid tile value {value}")
            bits |= exponent << (16 * r + 4 * c)
    return bits


def from_bits(bits: int, rows: int, cols: int) -> Grid:
    """Unpack a 64-bit int into a rows x cols grid of tile values."""
    grid = empty_grid(rows, cols)
    for r in range(rows):
        for c in range(cols):
            exponent = (bits >> (16 * r + 4 * c)) & 0xF
            grid[r][c] = 0 if exponent == 0 else 1 << exponent
    return grid


# --------------------------------------------------------------------------
# Random stream and spawning
# --------------------------------------------------------------------------


def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: returns (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def four_threshold(p_four: float) -> int:
    """Lower 32 bits of a random number below this value spawn a 4."""
    return min(int(p_four * 2**32), 2**32)


def spawn_with(grid: Grid, rnd: int, threshold: int) -> Grid:
    """Copy of ``grid`` with one tile placed using the 64-bit number ``rnd``.

    The high 32 bits choose the empty cell, the low 32 bits choose 2 or 4.
    """
    new_grid = [list(row) for row in grid]
    cells = empty_cells(grid)
    n = len(cells)
    if n == 0:
        return new_grid
    k = ((rnd >> 32) * n) >> 32
    r, c = cells[k]
    new_grid[r][c] = 4 if (rnd & 0xFFFFFFFF) < threshold else 2
    return new_grid


def spawn_outcomes(grid: Grid, p_four: float = 0.1) -> list[tuple[tuple[int, int], int, float]]:
    """Every possible spawn as ((row, col), tile, probability)."""
    cells = empty_cells(grid)
    n = len(cells)
    outcomes: list[tuple[tuple[int, int], int, float]] = []
    for cell in cells:
        outcomes.append((cell, 2, (1 - p_four) / n))
        outcomes.append((cell, 4, p_four / n))
    return outcomes


def random_play(n_moves: int, seed: int, rows: int, cols: int, p_four: float) -> tuple[int, int, int]:
    """Play ``n_moves`` random moves, restarting finished games.

    Returns (games ended, total points, final board in bit form).
    """
    state = seed & MASK64
    threshold = four_threshold(p_four)

    def draw() -> int:
        nonlocal state
        state, rnd = splitmix64(state)
        return rnd

    def new_game() -> Grid:
        grid = spawn_with(empty_grid(rows, cols), draw(), threshold)
        return spawn_with(grid, draw(), threshold)

    games_ended = 0
    total_points = 0
    grid = new_game()
    for _ in range(n_moves):
        direction = DIRECTIONS[draw() & 3]
        new, points = move(grid, direction)
        if new == grid:
            legal = legal_moves(grid)
            if not legal:
                games_ended += 1
                grid = new_game()
                continue
            new, points = move(grid, legal[0])
        total_points += points
        grid = spawn_with(new, draw(), threshold)
    return games_ended, total_points, to_bits(grid)


# --------------------------------------------------------------------------
# Text form used by the fixture file
# --------------------------------------------------------------------------


def parse_grid(text: str) -> Grid:
    """Parse rows separated by '/' and cells separated by spaces."""
    return [[int(cell) for cell in row.split()] for row in text.strip().split("/")]


def format_grid(grid: Grid) -> str:
    """Inverse of parse_grid."""
    return "/".join(" ".join(str(v) for v in row) for row in grid)


def parse_cases(text: str) -> list[tuple[Grid, str, Grid, int]]:
    """Parse lines ``board | direction | result | points``; '#' starts a comment."""
    cases: list[tuple[Grid, str, Grid, int]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        board, direction, result, points = (part.strip() for part in line.split("|"))
        cases.append((parse_grid(board), direction, parse_grid(result), int(points)))
    return cases
