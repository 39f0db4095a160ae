"""Slow, obviously-correct reference of expectimax over points with an n-tuple network at the horizon.

Plain recursion: no transposition table, no probability cut-off, no sampling. A move is
worth the points it scores plus the expected worth of its afterstate; an afterstate
with no move left to search is worth the network's value ``V`` (the expected sum of the
points to come, as afterstate TD learns it); otherwise it is worth the expectation, over
the spawn, of the best move's worth, or 0 when no move is legal (the game is over).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import g2048
from . import ntuple as naive_nt
from .expectimax_2048 import with_tile

Grid = list[list[int]]
Tuples = Sequence[Sequence[tuple[int, int]]]


Value = Callable[[Grid], float]
"""The network's value ``V`` of an afterstate."""


def move_node(grid: Grid, depth: int, value: Value, p_four: float) -> float:
    """The best ``points + worth of the afterstate`` over the legal moves (0 when none is legal)."""
    values = [move_value(grid, d, depth, value, p_four) for d in g2048.legal_moves(grid)]
    return max(values) if values else 0.0


def move_value(grid: Grid, direction: str, depth: int, value: Value, p_four: float) -> float:
    """The points of the move plus the worth of its afterstate, ``depth`` moves searched (this one included)."""
    after, points = g2048.move(grid, direction)
    return points + chance_node(after, depth - 1, value, p_four)


def chance_node(after: Grid, depth: int, value: Value, p_four: float) -> float:
    """The worth of an afterstate: ``V`` at depth 0, else the expected best move after each spawn."""
    if depth <= 0:
        return value(after)
    cells = g2048.empty_cells(after)
    total = 0.0
    for cell in cells:
        two = move_node(with_tile(after, cell, 2), depth, value, p_four)
        four = move_node(with_tile(after, cell, 4), depth, value, p_four)
        total += (1 - p_four) * two + p_four * four
    return total / len(cells)


def root_values(
    grid: Grid,
    depth: int,
    tuples: Tuples,
    weights: np.ndarray,
    p_four: float = 0.1,
    stages: Sequence[int] = (),
    radix: int = 16,
) -> dict[str, float]:
    """The value of each legal direction, in DIRECTIONS order, with the network of ``tuples`` and ``weights``."""

    def value(after: Grid) -> float:
        return naive_nt.value(g2048.to_bits(after), len(after), len(after[0]), tuples, weights, stages, radix)

    return {d: move_value(grid, d, depth, value, p_four) for d in g2048.legal_moves(grid)}
