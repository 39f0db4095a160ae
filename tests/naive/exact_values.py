"""Slow, obviously-correct exact value of an afterstate, looked up in a table of the solved states' values.

``states`` maps the canonical code (``solver_2048.canonical``: the smallest image under the board's symmetries)
of every solved state to its value ``V``. The value of a board before a spawn is the average, over its empty
cells, of ``(1 - p_four) * V(with a 2 there) + p_four * V(with a 4 there)``; a tile of probability 0 is never
looked up. The sum runs over the cells in reading order, the 2 before the 4, and is divided by the number of
cells at the end, as the kernel does, so that the two agree to the bit. A spawned board that ``states`` lacks is
counted as missing and adds nothing.
"""

from __future__ import annotations

from .g2048 import empty_cells, from_bits, to_bits
from .solver_2048 import canonical


def afterstate_value(board: int, rows: int, cols: int, p_four: float, states: dict[int, float]) -> tuple[float, int]:
    """``(V(board) before its spawn, spawned boards missing from states)``; 0 on a full board."""
    grid = from_bits(board, rows, cols)
    cells = empty_cells(grid)
    total, missing = 0.0, 0
    for r, c in cells:
        for tile, p in ((2, 1.0 - p_four), (4, p_four)):
            if p == 0.0:
                continue
            spawned = [list(row) for row in grid]
            spawned[r][c] = tile
            code = canonical(to_bits(spawned), rows, cols)
            if code in states:
                total += p * states[code]
            else:
                missing += 1
    return (total / len(cells) if cells else 0.0), missing
