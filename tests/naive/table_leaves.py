"""Slow, obviously-correct reference of a search that weighs an endgame table at its leaves.

A leaf (an afterstate at the horizon) is worth the evaluator's value of it, seen halved above a gap when
one is given, plus ``weight`` times the table's probability of building its target from it: while the
frozen cells hold the root's tiles, the plain recursive value of :mod:`tests.naive.tablebase` over the
region (frozen tiles as :class:`~tests.naive.tablebase.Frozen` markers that never merge or move); once
they do not, 1 when the tiles of the target or more add up to the root's frozen tiles plus the target,
else 0. The search itself is the plain recursion of :mod:`tests.naive.expectimax_ntuple` (points to
come: a move adds its points, a board with no move is worth 0). Nothing shared with the kernels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import g2048
from . import tablebase as naive_tb
from .expectimax_ntuple import move_value

Grid = list[list[int]]
Cell = tuple[int, int]


def probability(
    after: Grid, root: Grid, frozen: Sequence[Cell], goal: Cell, target: int, p_four: float, caps: naive_tb.Caps = ()
) -> float:
    """The table's probability of building ``target`` on ``goal`` from the afterstate ``after`` (``caps``: the
    table's, as :mod:`tests.naive.tablebase` takes them)."""
    if all(after[r][c] == root[r][c] for r, c in frozen):
        marked = tuple(
            tuple(naive_tb.Frozen(frozen.index((r, c))) if (r, c) in frozen else tile for c, tile in enumerate(row))
            for r, row in enumerate(after)
        )
        return naive_tb.after_value(marked, goal, target, p_four, caps)
    big = sum(tile for row in after for tile in row if tile >= target)
    return 1.0 if big >= sum(root[r][c] for r, c in frozen) + target else 0.0


def halved(grid: Grid, gap: int | None) -> Grid:
    """``grid`` with every tile above ``2 ** gap`` halved (itself when ``gap`` is None)."""
    if gap is None:
        return grid
    return [[tile // 2 if tile > 1 << gap else tile for tile in row] for row in grid]


def root_values(
    grid: Grid,
    depth: int,
    value: Callable[[Grid], float],
    weight: float,
    frozen: Sequence[Cell],
    goal: Cell,
    target: int,
    table_p_four: float = 0.1,
    p_four: float = 0.1,
    gap: int | None = None,
    caps: naive_tb.Caps = (),
) -> dict[str, float]:
    """Each legal move's value, ``depth`` moves searched, the leaves worth ``value`` of the halved afterstate plus
    ``weight`` times the table's probability."""

    def leaf(after: Grid) -> float:
        chance = probability(after, grid, frozen, goal, target, table_p_four, caps)
        return value(halved(after, gap)) + weight * chance

    return {d: move_value(grid, d, depth, leaf, p_four) for d in g2048.legal_moves(grid)}
