"""Slow, obviously-correct twin of renju's forbidden points (``plyground.kinrow._renju_kernels``).

A board is a list of its n*n cells, row-major: 0 empty, 1 X, 2 O, 3 blocked. Each line
through the move is taken whole, from edge to edge, and every question is answered by
putting stones on a copy of the board and measuring the run of X through the move again:

* a five is a run of exactly 5, an overline a run of 6 or more;
* a four is an empty cell of the line that gives a run of exactly 5; two of them with
  four X between them, five cells apart, are one straight four;
* a straight four is a run of exactly 4 whose two neighbours in the line are empty and
  each gives a run of exactly 5;
* a three is an empty cell of the line that gives a straight four holding that cell, and
  that is not itself forbidden once the move is on the board (recursion); a line with a
  four has no three.
"""

from __future__ import annotations

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
NONE, OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = 0, 1, 2, 3


def line(n: int, move: int, dr: int, dc: int) -> list[int]:
    """The cells of the whole line through ``move`` in direction (dr, dc), from one edge to the other."""
    r, c = divmod(move, n)
    while 0 <= r - dr < n and 0 <= c - dc < n:
        r, c = r - dr, c - dc
    cells = []
    while 0 <= r < n and 0 <= c < n:
        cells.append(r * n + c)
        r, c = r + dr, c + dc
    return cells


def run(board: list[int], cells: list[int], move: int) -> list[int]:
    """The positions (in ``cells``) of the run of X that holds ``move`` (empty when ``move`` holds no X)."""
    p = cells.index(move)
    if board[move] != 1:
        return []
    lo = hi = p
    while lo > 0 and board[cells[lo - 1]] == 1:
        lo -= 1
    while hi < len(cells) - 1 and board[cells[hi + 1]] == 1:
        hi += 1
    return list(range(lo, hi + 1))


def with_stone(board: list[int], cell: int) -> list[int]:
    out = list(board)
    out[cell] = 1
    return out


def fours(board: list[int], cells: list[int], move: int) -> int:
    """The fours of the line through ``move`` (X on it), a straight four counted once."""
    ends = [
        p for p, cell in enumerate(cells) if board[cell] == 0 and len(run(with_stone(board, cell), cells, move)) == 5
    ]
    if len(ends) == 2 and ends[1] - ends[0] == 5 and all(board[cells[p]] == 1 for p in range(ends[0] + 1, ends[1])):
        return 1
    return len(ends)


def straight_four(board: list[int], cells: list[int], move: int, cell: int) -> bool:
    """Whether the run through ``move`` is a straight four that holds ``cell``."""
    positions = run(board, cells, move)
    if len(positions) != 4 or cells.index(cell) not in positions:
        return False
    lo, hi = positions[0] - 1, positions[-1] + 1
    if lo < 0 or hi >= len(cells):
        return False
    return all(board[cells[p]] == 0 and len(run(with_stone(board, cells[p]), cells, move)) == 5 for p in (lo, hi))


def forbidden(board: list[int], n: int, move: int) -> int:
    """Why X may not play on the empty cell ``move``: 0 it may, 1 overline, 2 double-four, 3 double-three."""
    board = with_stone(board, move)
    lines = [line(n, move, dr, dc) for dr, dc in DIRECTIONS]
    lengths = [len(run(board, cells, move)) for cells in lines]
    if 5 in lengths:
        return NONE
    if max(lengths) > 5:
        return OVERLINE
    counts = [fours(board, cells, move) for cells in lines]
    if sum(counts) >= 2:
        return DOUBLE_FOUR
    threes = 0
    for cells, count in zip(lines, counts, strict=True):
        if count:
            continue
        threes += any(
            board[cell] == 0
            and straight_four(with_stone(board, cell), cells, move, cell)
            and forbidden(board, n, cell) == NONE
            for cell in cells
        )
    return DOUBLE_THREE if threes >= 2 else NONE


def forbidden_moves(board: list[int], n: int) -> list[int]:
    """The empty cells forbidden to X, in cell order."""
    return [i for i in range(n * n) if board[i] == 0 and forbidden(board, n, i) != NONE]
