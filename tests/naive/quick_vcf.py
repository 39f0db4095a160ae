"""Slow, obviously-correct twin of the quick VCF (``_vcf`` with a ``width`` in :mod:`plyground.kinrow._threat_kernels`).

The rules, in the words of the kernel's docstring, every code recomputed from the lines at
every step (:func:`tests.naive.engine.codes`) and no table:

- the attacker wins at once with a five (the first empty cell, in cell order, where he makes one);
- with one attacker move left, nothing more can be won;
- a defender with two cells that make five wins; with one, the attacker must take it, and it must be a four;
- an attacker who can make an open four (an ``F4`` code) wins: that four, a block, the five;
- otherwise the attacker tries his fours that *prepare* something (:func:`four_worth` above 0):
  the first anywhere on the board (in cell order), each later one on the ten cells of each of
  the four lines of the four before (in the order of the line keys: line by line, the cells
  from five before to five after); the ``width`` worth the most, the first met first among equals;
- after a four, the defender's answer is the cell where the attacker would make five (if there
  are two, the attacker wins: the line gives the last of them met on the four's lines).

The line is the attacker's moves and the forced answers, ending with the five.
"""

from __future__ import annotations

from tests.naive.engine import codes
from tests.naive.patterns import B3, B4, DIRECTIONS, F3, F4, F5

SLOTS = 10


def line_cells(n: int, cell: int) -> list[int]:
    """The cells of the four line keys of ``cell``, in key order (-1 off the board): five before, five after."""
    r, c = divmod(cell, n)
    out = []
    for dr, dc in DIRECTIONS:
        for s in range(SLOTS):
            offset = s - 5 if s < 5 else s - 4
            rr, cc = r + offset * dr, c + offset * dc
            out.append(rr * n + cc if 0 <= rr < n and 0 <= cc < n else -1)
    return out


def four_worth(board: list[int], n: int, k: int, exact: tuple[bool, bool], player: int, cell: int) -> int:
    """4 a four (B4, F4) of ``player`` on ``cell``, 3 an open three, 1 a three, less 4; 0 if it makes no four."""
    found = codes(board, n, k, exact, player, cell)
    fours = sum(code in (B4, F4) for code in found)
    if not fours:
        return 0
    return 4 * fours + 3 * found.count(F3) + found.count(B3) - 4


def quick_vcf(
    board: list[int], n: int, k: int, exact: tuple[bool, bool], player: int, depth: int, width: int, last: int = -1
) -> list[int] | None:
    """The line of the quick VCF of ``player`` (to move) within ``depth`` of his moves, or None."""
    you = 3 - player
    empty = [cell for cell in range(n * n) if board[cell] == 0]

    def codes_of(side: int):  # type: ignore[no-untyped-def]
        return lambda cell: codes(board, n, k, exact, side, cell)

    def makes(side: int, code: int) -> list[int]:
        return [cell for cell in empty if code in codes(board, n, k, exact, side, cell)]

    if depth <= 0:
        return None
    mine = makes(player, F5)
    if mine:
        return [mine[0]]
    if depth == 1:
        return None
    theirs = makes(you, F5)
    if len(theirs) >= 2:
        return None
    if not theirs and makes(player, F4):
        return open_four(board, n, k, exact, player)
    if theirs:
        only = theirs[0]
        best = [only] if {B4, F4} & set(codes(board, n, k, exact, player, only)) else []
    else:
        scan = list(range(n * n)) if last < 0 else line_cells(n, last)
        ranked = []
        for order, cell in enumerate(scan):
            if cell >= 0 and board[cell] == 0:
                worth = four_worth(board, n, k, exact, player, cell)
                if worth > 0:
                    ranked.append((-worth, order, cell))
        best = [cell for _, _, cell in sorted(ranked)[:width]]
    for cell in best:
        board[cell] = player
        mine = codes_of(player)
        fives = [t for t in line_cells(n, cell) if t >= 0 and board[t] == 0 and F5 in mine(t)]
        won = None
        if fives and not any(F5 in codes(board, n, k, exact, you, t) for t in range(n * n) if board[t] == 0):
            answer = fives[0]
            if len(set(fives)) >= 2:
                won = [cell, answer, [t for t in fives if t != answer][-1]]
            else:
                board[answer] = you
                rest = quick_vcf(board, n, k, exact, player, depth - 1, width, cell)
                board[answer] = 0
                if rest is not None:
                    won = [cell, answer, *rest]
        board[cell] = 0
        if won is not None:
            return won
    return None


def open_four(board: list[int], n: int, k: int, exact: tuple[bool, bool], player: int) -> list[int]:
    """The line of an open four: the first cell (in cell order) whose best code is ``F4``, a block, the other five."""
    for cell in range(n * n):
        if board[cell] != 0:
            continue
        found = [code for code in codes(board, n, k, exact, player, cell) if code != 10]  # an overline is no code here
        if max(found, default=0) == F4:
            board[cell] = player
            near = [t for t in line_cells(n, cell) if t >= 0 and board[t] == 0]
            first = next(t for t in near if F5 in codes(board, n, k, exact, player, t))
            second = next(
                t for t in range(n * n) if board[t] == 0 and t != first and F5 in codes(board, n, k, exact, player, t)
            )
            board[cell] = 0
            return [cell, first, second]
    raise AssertionError("no open four to make")
