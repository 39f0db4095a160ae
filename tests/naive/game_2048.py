"""Slow, obviously-correct reference of a seeded 2048 game: moves, spawns and undo on plain grids.

It draws its spawns as plyground's games always have, from a numpy ``Generator`` seeded
through ``SeedSequence(seed)``: for a spawn, first the cell, ``integers(len(cells))`` over the
empty cells in reading order, then the tile, a 4 when ``random() < p_four``. Two spawns start
a game and one follows every move. An undo takes the last move back (board and score) but
does not rewind the generator. The moves are :mod:`tests.naive.g2048`'s.
"""

from __future__ import annotations

import numpy as np

from .g2048 import DIRECTIONS, Grid, empty_cells, empty_grid, is_terminal, move

Spawn = tuple[int, int, int]  # (row, col, tile)


class NaiveGame:
    """A game on a ``rows`` × ``cols`` grid with the spawns of ``seed``."""

    def __init__(self, rows: int, cols: int, seed: int, p_four: float) -> None:
        self.rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
        self.p_four = p_four
        self.grid = empty_grid(rows, cols)
        self.score = 0
        self.start = [self._spawn(), self._spawn()]
        self.moves: list[tuple[str, Spawn]] = []
        self.history: list[tuple[Grid, int]] = []

    def _spawn(self) -> Spawn:
        cells = empty_cells(self.grid)
        row, col = cells[int(self.rng.integers(len(cells)))]
        tile = 4 if self.rng.random() < self.p_four else 2
        self.grid[row][col] = tile
        return row, col, tile

    def legal_moves(self) -> list[str]:
        return [d for d in DIRECTIONS if move(self.grid, d)[0] != self.grid]

    def over(self) -> bool:
        return is_terminal(self.grid)

    def step(self, direction: str) -> int:
        """Move (a legal ``direction``), spawn, and return the points."""
        moved, points = move(self.grid, direction)
        assert moved != self.grid, f"{direction} is not a legal move"
        self.history.append(([list(row) for row in self.grid], self.score))
        self.grid, self.score = moved, self.score + points
        self.moves.append((direction, self._spawn()))
        return points

    def undo(self) -> None:
        """Take the last move back (the generator goes on where it was)."""
        self.grid, self.score = self.history.pop()
        self.moves.pop()
