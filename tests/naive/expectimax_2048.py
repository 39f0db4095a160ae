"""Slow, obviously-correct reference implementation of depth-limited expectimax for 2048.

Plain recursion: no transposition table, no probability cut-off, no sampling.
A ply is one move followed by one spawn; the depth is decremented at the
move.  The value of a board is the heuristic alone (points scored by moves
are not counted).  A board with no legal move is worth ``lost``.
"""

from __future__ import annotations

from .g2048 import DIRECTIONS, Grid, empty_cells, legal_moves, move
from .heuristic_2048 import Weights, evaluate


def with_tile(grid: Grid, cell: tuple[int, int], value: int) -> Grid:
    """Copy of ``grid`` with ``value`` placed in ``cell``."""
    new_grid = [list(row) for row in grid]
    r, c = cell
    new_grid[r][c] = value
    return new_grid


def max_node(grid: Grid, depth: int, weights: Weights, p_four: float, lost: float) -> float:
    """Best value over the legal moves from ``grid`` (``lost`` when there is none)."""
    legal = legal_moves(grid)
    if not legal:
        return lost
    return max(chance_node(move(grid, d)[0], depth - 1, weights, p_four, lost) for d in legal)


def chance_node(after: Grid, depth: int, weights: Weights, p_four: float, lost: float) -> float:
    """Expected value of the board ``after`` a move, over the spawn that follows.

    At depth <= 0 the board is evaluated as it is.  Otherwise each empty cell
    has probability 1/n and receives a 2 with probability 1 - p_four, a 4 with
    probability p_four.
    """
    if depth <= 0:
        return evaluate(after, weights)[0]
    cells = empty_cells(after)
    if not cells:
        # A legal move always leaves an empty cell, so search never gets here.
        raise ValueError("chance node on a full board")
    total = 0.0
    for cell in cells:
        two = max_node(with_tile(after, cell, 2), depth, weights, p_four, lost)
        four = max_node(with_tile(after, cell, 4), depth, weights, p_four, lost)
        total += (1 - p_four) * two + p_four * four
    return total / len(cells)


def root_values(grid: Grid, depth: int, weights: Weights, p_four: float = 0.1, lost: float = -1e12) -> dict[str, float]:
    """Value of each legal direction, in DIRECTIONS order."""
    return {
        d: chance_node(move(grid, d)[0], depth - 1, weights, p_four, lost) for d in DIRECTIONS if d in legal_moves(grid)
    }


def best_move(grid: Grid, depth: int, weights: Weights, p_four: float = 0.1, lost: float = -1e12) -> str | None:
    """Legal direction of highest value, ties going to the first in DIRECTIONS order; None if none is legal."""
    best: str | None = None
    best_value = 0.0
    for d, value in root_values(grid, depth, weights, p_four, lost).items():
        if best is None or value > best_value:
            best = d
            best_value = value
    return best
