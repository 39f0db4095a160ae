"""Slow, obviously-correct twins of the k-in-a-row kernels: win check, heuristic, plain minimax.

A board is a list of its n*n cells, row-major: 0 empty, 1 X, 2 O, 3 blocked. Windows are
listed one by one (every k consecutive cells of a row, column or diagonal) and counted
afresh; a window through a blocked cell is worth nothing. :func:`minimax` has no pruning
and no table: it tries every candidate move to the given depth, with the heuristic at the
leaves and the same terminal values as the search (``WIN - ply`` for a win ``ply`` plies
from the root, 0 for a full board); ``rule`` 1 (standard) wins only with exactly k.
"""

from __future__ import annotations

import functools

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
WIN = 1 << 52
MAX_SHIFT = 42


@functools.cache
def windows(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every window: the cell numbers of k consecutive cells along a row, column or diagonal."""
    out = []
    for r in range(n):
        for c in range(n):
            for dr, dc in DIRECTIONS:
                cells = [(r + j * dr, c + j * dc) for j in range(k)]
                if all(0 <= rr < n and 0 <= cc < n for rr, cc in cells):
                    out.append(tuple(rr * n + cc for rr, cc in cells))
    return tuple(out)


def wins_at(cells: list[int], n: int, k: int, index: int, player: int) -> bool:
    """Whether a ``player`` stone on ``index`` fills a window with ``player``'s stones (k or more in a line)."""
    board = list(cells)
    board[index] = player
    return any(index in window and all(board[i] == player for i in window) for window in windows(n, k))


def wins_under(cells: list[int], n: int, k: int, index: int, player: int, rule: int) -> bool:
    """Whether a ``player`` stone on ``index`` wins under ``rule``: free-style (0) as :func:`wins_at`;
    standard (1) when a window through ``index`` is all ``player`` and the cells just past
    both its ends are not (exactly k); renju (4): exactly k for X, k or more for O."""
    if rule == 0 or (rule == 4 and player == 2):
        return wins_at(cells, n, k, index, player)
    board = list(cells)
    board[index] = player
    for window in windows(n, k):
        if index in window and all(board[i] == player for i in window):
            (r0, c0), (r1, c1) = divmod(window[0], n), divmod(window[-1], n)
            dr, dc = (r1 - r0) // (k - 1), (c1 - c0) // (k - 1)
            before, after = (r0 - dr, c0 - dc), (r1 + dr, c1 + dc)
            if not any(0 <= r < n and 0 <= c < n and board[r * n + c] == player for r, c in (before, after)):
                return True
    return False


def weight(count: int) -> int:
    """0 for an empty window, else 8 ** (count - 1), at most 2 ** MAX_SHIFT."""
    return 0 if count == 0 else 2 ** min(3 * (count - 1), MAX_SHIFT)


def evaluate(cells: list[int], n: int, k: int, player: int) -> int:
    """The weights of ``player``'s windows (no opponent stone) minus those of the opponent's."""
    total = 0
    for window in windows(n, k):
        values = [cells[i] for i in window]
        if 3 in values:
            continue
        own = values.count(player)
        other = sum(1 for v in values if v not in (0, player))
        if other == 0:
            total += weight(own)
        elif own == 0:
            total -= weight(other)
    return total


def candidates(cells: list[int], n: int, radius: int) -> list[int]:
    """The empty cells (radius 0), or those within ``radius`` king steps of a stone.

    With none near a stone (no stone yet, or every stone walled in by blocked cells) while the board
    has an empty cell: the centre, or the first empty cell when the centre is not empty.
    """
    empty = [i for i in range(n * n) if cells[i] == 0]
    if radius == 0:
        return empty
    stones = [divmod(i, n) for i in range(n * n) if cells[i] in (1, 2)]
    near = [i for i in empty if any(max(abs(i // n - r), abs(i % n - c)) <= radius for r, c in stones)]
    if near:
        return near
    centre = (n // 2) * n + n // 2
    return [centre] if cells[centre] == 0 else empty[:1]


def minimax(
    cells: list[int], n: int, k: int, player: int, depth: int, radius: int = 0, ply: int = 0, rule: int = 0
) -> int:
    """The negamax value for ``player`` (to move) of a live position, searching every candidate ``depth`` plies."""
    board = list(cells)
    best = None
    for move in candidates(board, n, radius):
        board[move] = player
        if wins_under(board, n, k, move, player, rule):
            value = WIN - (ply + 1)
        elif all(board):
            value = 0
        elif depth == 1:
            value = evaluate(board, n, k, player)
        else:
            value = -minimax(board, n, k, 3 - player, depth - 1, radius, ply + 1, rule)
        board[move] = 0
        best = value if best is None else max(best, value)
    assert best is not None, "minimax of a position without moves"
    return best
