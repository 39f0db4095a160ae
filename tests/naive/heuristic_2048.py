"""Slow, obviously-correct reference implementation of the 2048 board heuristic.

Every feature works on ranks (exponents): the rank of a tile of value 2**k is
k and the rank of an empty cell is 0.  The LINES of an R x C board are its R
rows, each read left to right, and its C columns, each read top to bottom.
The compacted form of a line is the list of its non-zero ranks, in order.

Features ``empty`` and ``merges`` are rewards; ``monotonicity``,
``smoothness`` and ``rank_sum`` are penalties (their weights are expected to
be negative); ``position`` is a weighted sum of the ranks.
"""

from __future__ import annotations

from typing import Any

from .g2048 import Grid

MONO_POWER = 4.0
RANK_POWER = 3.5

MAX_RANK = 15  # tiles of this rank never merge

SCALAR_FEATURES: tuple[str, ...] = ("empty", "merges", "monotonicity", "smoothness", "rank_sum")
FEATURES: tuple[str, ...] = (*SCALAR_FEATURES, "position")

Matrix = list[list[float]]
Weights = dict[str, Any]  # scalar features -> float, "position" -> 4x4 matrix


# --------------------------------------------------------------------------
# Ranks and lines
# --------------------------------------------------------------------------


def rank(value: int) -> int:
    """Exponent of a tile value: rank(2**k) = k, rank(0) = 0."""
    if value == 0:
        return 0
    exponent = value.bit_length() - 1
    if value != 1 << exponent:
        raise ValueError(f"invalid tile value {value}")
    return exponent


def rank_grid(grid: Grid) -> list[list[int]]:
    """The grid with every value replaced by its rank."""
    return [[rank(v) for v in row] for row in grid]


def rows(grid: Grid) -> list[list[int]]:
    """Rank lists of the rows, each read left to right."""
    return rank_grid(grid)


def columns(grid: Grid) -> list[list[int]]:
    """Rank lists of the columns, each read top to bottom."""
    ranks = rank_grid(grid)
    return [[ranks[r][c] for r in range(len(ranks))] for c in range(len(ranks[0]))]


def lines(grid: Grid) -> list[list[int]]:
    """All rows then all columns, as rank lists."""
    return rows(grid) + columns(grid)


def compacted(line: list[int]) -> list[int]:
    """The non-zero ranks of a line, in order."""
    return [r for r in line if r != 0]


# --------------------------------------------------------------------------
# Features
# --------------------------------------------------------------------------


def empty(grid: Grid) -> float:
    """Number of empty cells."""
    return float(sum(1 for row in grid for v in row if v == 0))


def line_merges(ranks: list[int]) -> int:
    """Tiles of a compacted line with an equal neighbour; rank MAX_RANK excluded."""
    count = 0
    for i, r in enumerate(ranks):
        if r == MAX_RANK:
            continue
        left_equal = i > 0 and ranks[i - 1] == r
        right_equal = i + 1 < len(ranks) and ranks[i + 1] == r
        if left_equal or right_equal:
            count += 1
    return count


def merges(grid: Grid) -> float:
    """Sum of line_merges over the compacted rows and columns."""
    return float(sum(line_merges(compacted(line)) for line in lines(grid)))


def line_monotonicity(line: list[int]) -> tuple[float, float]:
    """(L, H) of one raw rank line (empty cells count as rank 0).

    L sums the drops r[i-1]**p - r[i]**p where the line decreases, H the rises
    r[i]**p - r[i-1]**p where it does not decrease, with p = MONO_POWER.
    """
    lower = 0.0
    higher = 0.0
    for i in range(1, len(line)):
        a = float(line[i - 1]) ** MONO_POWER
        b = float(line[i]) ** MONO_POWER
        if line[i - 1] > line[i]:
            lower += a - b
        else:
            higher += b - a
    return lower, higher


def axis_monotonicity(axis_lines: list[list[int]]) -> float:
    """min(sum of L, sum of H) over the lines of one axis: one direction for the whole axis."""
    total_lower = 0.0
    total_higher = 0.0
    for line in axis_lines:
        lower, higher = line_monotonicity(line)
        total_lower += lower
        total_higher += higher
    return min(total_lower, total_higher)


def monotonicity(grid: Grid) -> float:
    """Horizontal penalty (rows) plus vertical penalty (columns)."""
    return axis_monotonicity(rows(grid)) + axis_monotonicity(columns(grid))


def smoothness(grid: Grid) -> float:
    """Sum over all lines of |a - b| for consecutive ranks of the compacted line."""
    total = 0.0
    for line in lines(grid):
        ranks = compacted(line)
        for i in range(1, len(ranks)):
            total += abs(ranks[i - 1] - ranks[i])
    return total


def rank_sum(grid: Grid) -> float:
    """Sum over all cells of rank**RANK_POWER."""
    return sum(float(r) ** RANK_POWER for row in rank_grid(grid) for r in row)


def position(grid: Grid, matrix: Matrix) -> float:
    """Sum over cells of matrix[r][c] * rank; an R x C board uses the top-left corner of the 4x4 matrix."""
    total = 0.0
    for r, row in enumerate(rank_grid(grid)):
        for c, value in enumerate(row):
            total += matrix[r][c] * value
    return total


SCALAR_FUNCTIONS = {
    "empty": empty,
    "merges": merges,
    "monotonicity": monotonicity,
    "smoothness": smoothness,
    "rank_sum": rank_sum,
}


def evaluate(grid: Grid, weights: Weights) -> tuple[float, dict[str, float]]:
    """(total, contributions) where each contribution is a weighted feature.

    Contributions come in the order empty, merges, monotonicity, smoothness,
    rank_sum, position; the total is their sum.
    """
    contributions: dict[str, float] = {}
    for name in SCALAR_FEATURES:
        contributions[name] = weights[name] * SCALAR_FUNCTIONS[name](grid)
    contributions["position"] = position(grid, weights["position"])
    total = 0.0
    for name in FEATURES:
        total += contributions[name]
    return total, contributions
