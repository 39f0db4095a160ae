"""Slow, obviously-correct twins of the pattern kernels: a line's code by recursion, and a board's codes by rescans.

A line is the tuple of the eleven cells centred on the cell looked at (five on each side),
from one end to the other: 0 empty, 1 X, 2 O, 3 off the board or blocked. The code of an
``own`` stone on the centre follows the definitions of :mod:`plyground.kinrow._pattern_kernels`
word for word: count the stones in a row through the centre, then try every empty cell.
"""

from __future__ import annotations

import functools

NONE, B1, F1, B2, F2, B3, F3, B4, F4, F5, OL = range(11)
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
HALF = 5


@functools.cache
def line_code(line: tuple[int, ...], own: int, k: int, exact: bool) -> int:
    """The code of an ``own`` stone on the centre of ``line`` (eleven cells; the centre's value is ignored)."""
    line = (*line[:HALF], own, *line[HALF + 1 :])
    run = 1
    i = HALF - 1
    while i >= 0 and line[i] == own:
        run += 1
        i -= 1
    i = HALF + 1
    while i < len(line) and line[i] == own:
        run += 1
        i += 1
    if run == k or (run > k and not exact):
        return F5
    if run > k:
        return OL
    subs = [
        line_code((*line[:i], own, *line[i + 1 :]), own, k, exact)
        for i in range(len(line))
        if i != HALF and line[i] == 0
    ]
    fives = subs.count(F5)
    if fives >= 2:
        return F4
    if fives == 1:
        return B4
    for reached, code in ((F4, F3), (B4, B3), (F3, F2), (B3, B2), (F2, F1), (B2, B1)):
        if reached in subs:
            return code
    return NONE


def line_of(cells: list[int], n: int, cell: int, direction: int) -> tuple[int, ...]:
    """The eleven cells centred on ``cell`` in ``direction`` (0 row, 1 column, 2 diagonal, 3 anti-diagonal)."""
    dr, dc = DIRECTIONS[direction]
    r, c = divmod(cell, n)
    out = []
    for offset in range(-HALF, HALF + 1):
        rr, cc = r + offset * dr, c + offset * dc
        out.append(cells[rr * n + cc] if 0 <= rr < n and 0 <= cc < n else 3)
    return tuple(out)


def board_codes(cells: list[int], n: int, k: int, exact: tuple[bool, bool]) -> list[list[int]]:
    """``codes[p][cell * 4 + d]`` for player ``p + 1`` on every cell (as if the cell were empty)."""
    return [
        [line_code(line_of(cells, n, cell, d), player, k, exact[player - 1]) for cell in range(n * n) for d in range(4)]
        for player in (1, 2)
    ]


def near_counts(cells: list[int], n: int) -> list[int]:
    """For each cell, the stones at distance 1 or 2 along its four lines."""
    out = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        count = 0
        for dr, dc in DIRECTIONS:
            for step in (-2, -1, 1, 2):
                rr, cc = r + step * dr, c + step * dc
                if 0 <= rr < n and 0 <= cc < n and cells[rr * n + cc] in (1, 2):
                    count += 1
        out.append(count)
    return out
