"""Numba kernels of k-in-a-row: win detection through the last stone, winning moves.

A board is an ``int8`` array of its n*n cells, row-major (cell ``r * n + c``): 0 empty,
1 for X, 2 for O, 3 blocked (nobody plays there; it ends a line like the board's edge).
A free-style win is k *or more* stones of one player in a row, column or diagonal; the
``_rule`` kernels take the rule's number (see :mod:`plyground.kinrow.rules`).
Kernels do no validation; :mod:`plyground.kinrow.board` does. Twins in ``tests/naive/kinrow.py``.
"""

from __future__ import annotations

from plyground._jit import kernel

# Directions (dr, dc) of the four lines through a cell: row, column, diagonal, anti-diagonal.
_DR = (0, 1, 1, 1)
_DC = (1, 0, 1, -1)


@kernel("i8(i1[::1], i8, i8, i8, i8, i8, i8)")
def _run(cells, n, r, c, dr, dc, player):
    """The number of ``player`` stones next to (r, c) in direction (dr, dc), (r, c) itself excluded."""
    count = 0
    r += dr
    c += dc
    while 0 <= r < n and 0 <= c < n and cells[r * n + c] == player:
        count += 1
        r += dr
        c += dc
    return count


@kernel("b1(i1[::1], i8, i8, i8, i8)")
def _wins_at(cells, n, k, index, player):
    """Whether a ``player`` stone on ``index`` makes k or more in a line (whatever ``cells[index]`` holds)."""
    r = index // n
    c = index % n
    for d in range(4):
        dr = _DR[d]
        dc = _DC[d]
        if 1 + _run(cells, n, r, c, dr, dc, player) + _run(cells, n, r, c, -dr, -dc, player) >= k:
            return True
    return False


@kernel("i8(i1[::1], i8, i8, i8, i8[::1])")
def _winning_moves(cells, n, k, player, out):
    """Write the empty cells where ``player`` would win at once into ``out``; returns how many."""
    count = 0
    for i in range(n * n):
        if cells[i] == 0 and _wins_at(cells, n, k, i, player):
            out[count] = i
            count += 1
    return count


@kernel("b1(i1[::1], i8, i8, i8, i8, i8)")
def _wins_at_rule(cells, n, k, index, player, rule):
    """Whether a ``player`` stone on ``index`` wins under ``rule`` (a ``Rule`` number: 0, 1 or 4).

    Free-style (0): k or more in a line; standard (1): exactly k; renju (4): exactly k for
    X (1), k or more for O (2). ``cells[index]`` is not read.
    """
    exact = rule == 1 or (rule == 4 and player == 1)
    r = index // n
    c = index % n
    for d in range(4):
        dr = _DR[d]
        dc = _DC[d]
        length = 1 + _run(cells, n, r, c, dr, dc, player) + _run(cells, n, r, c, -dr, -dc, player)
        if length == k or (length > k and not exact):
            return True
    return False


@kernel("i8(i1[::1], i8, i8, i8, i8, i8[::1])")
def _winning_moves_rule(cells, n, k, player, rule, out):
    """:func:`_winning_moves` under ``rule`` (see :func:`_wins_at_rule`)."""
    count = 0
    for i in range(n * n):
        if cells[i] == 0 and _wins_at_rule(cells, n, k, i, player, rule):
            out[count] = i
            count += 1
    return count
