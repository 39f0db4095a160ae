"""Slow, obviously-correct depths of VCF and VCT wins in k-in-a-row (free-style: k or more in a row wins).

The attacker is the player to move. A *five cell* of a player is an empty cell where his stone makes
k in a row at once. After a move of the attacker:

- a **four**: the attacker has a five cell;
- a **three**: the attacker has a move after which he has two five cells or more (an open or straight
  four, or two fours at once), whatever the defender does not prevent first.

A **VCF** (victory by continuous fours) of depth d wins by at most d attacker moves, every one a four
but the last, which makes k in a row. A **VCT** (victory by continuous threats) may also use threes.
The depth counts every attacker move, the final five included. The rules of the search, each of which
follows from what a five cell is:

- The attacker with a five cell wins with it (depth 1), whatever the defender threatens.
- Otherwise, a defender with two five cells wins; a defender with one forces the attacker to block it,
  and the block must itself be a four (VCF) or a four or three (VCT) for the attack to go on.
- After an attacker move the defender wins if he has a five cell. If the attacker has two five cells,
  the defender cannot block both: the attacker wins with his next move. If the attacker has one, the
  defender must block it (any other move loses to the five at once). After a three (no five cell), the
  defender may answer with *any* empty cell — every one is tried, which is what makes this a brute force
  and independent of any theory of which moves defend.

Two shortcuts are taken, both provable: a defender move never gives the attacker a five cell, so with
one attacker move left and fewer than two five cells the defender holds (whatever he plays); and with
two attacker moves left only fours can win (after a three that is no four the defender, having no five
cell to block, plays anywhere and the attacker has no five cell with his last move).

At depth 3 or less, VCT is no restriction: an attacker who wins within 3 moves against every defence
wins by a VCT of that depth (a winning first move leaves, for every defender reply, a move to two five
cells, so it is a four or a three; the second move makes two five cells, so it is a four). A VCT depth
of 3 or less is therefore the length of the fastest forced win, counted in attacker moves.

Five cells are read off the k-cell windows of the board (:func:`tests.naive.kinrow.windows`): a window
with k - 1 stones of a player and one empty cell, and no other stone, makes that cell a five cell; a
window with k - 2 stones and two empty cells makes each of them a five cell once the other is played
(:func:`scan`). Boards are lists of n*n cells, row-major: 0 empty, 1 X, 2 O (any other value is a cell
no line goes through).
"""

from __future__ import annotations

from collections.abc import Iterable

from plyground.kinrow.board import State

from .kinrow import windows

Scan = tuple[set[int], dict[int, set[int]]]
"""A player's five cells, and for each empty cell the five cells that its stone adds (see :func:`scan`)."""


def scan(cells: list[int], n: int, k: int, player: int) -> Scan:
    """``player``'s five cells, and for each empty cell c the cells that become five cells once c is his.

    After ``player`` plays c his five cells are :func:`fives_after` ``(scan, c)``: those he had
    (but c), and the other empty cell of every window holding k - 2 of his stones, c and it.
    """
    fives: set[int] = set()
    pairs: dict[int, set[int]] = {}
    for window in windows(n, k):
        own = 0
        empty: list[int] = []
        for i in window:
            if cells[i] == player:
                own += 1
            elif cells[i] == 0:
                empty.append(i)
            else:
                break
        else:
            if own == k - 1:
                fives.add(empty[0])
            elif own == k - 2:
                a, b = empty
                pairs.setdefault(a, set()).add(b)
                pairs.setdefault(b, set()).add(a)
    return fives, pairs


def fives_after(scanned: Scan, move: int) -> set[int]:
    """The five cells of the scanned player once he has played ``move`` (an empty cell not a five cell)."""
    fives, pairs = scanned
    return (fives - {move}) | pairs.get(move, set())


def empty_cells(cells: list[int]) -> list[int]:
    return [i for i, v in enumerate(cells) if v == 0]


def is_four(cells: list[int], n: int, k: int, player: int, move: int) -> bool:
    """Whether ``player`` has a five cell after playing the empty cell ``move``."""
    return bool(fives_after(scan(cells, n, k, player), move))


def is_three(cells: list[int], n: int, k: int, player: int, move: int) -> bool:
    """Whether ``player``, after playing the empty cell ``move``, has a move to two five cells or more."""
    board = list(cells)
    board[move] = player
    scanned = scan(board, n, k, player)
    return any(len(fives_after(scanned, c)) >= 2 for c in empty_cells(board))


def is_line_three(cells: list[int], n: int, k: int, player: int, move: int) -> bool:
    """Whether ``move`` makes a three *in one line*: a move c on a line through ``move`` then gives two five
    cells whose fives lie along that same line and hold both ``move`` and c (an open three, straight or
    broken, in the usual sense; a move that only prepares two fours on different lines is no line three).
    """
    board = list(cells)
    board[move] = player
    r0, c0 = divmod(move, n)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        steps = [(r0 + j * dr, c0 + j * dc) for j in range(-k + 1, k)]
        line = [r * n + c for r, c in steps if 0 <= r < n and 0 <= c < n]
        for c in line:
            if board[c] != 0:
                continue
            board[c] = player
            fives = set()
            for start in range(len(line) - k + 1):
                window = line[start : start + k]
                values = [board[i] for i in window]
                if move in window and c in window and values.count(player) == k - 1 and values.count(0) == 1:
                    fives.add(window[values.index(0)])
            board[c] = 0
            if len(fives) >= 2:
                return True
    return False


class Search:
    """A VCF (``vct=False``) or VCT search of one attacker over boards of one size, with a table of results.

    :meth:`attack` and :meth:`defend` change ``cells`` while they search and leave it as it was.
    """

    def __init__(self, n: int, k: int, attacker: int, *, vct: bool) -> None:
        self.n, self.k, self.attacker, self.defender, self.vct = n, k, attacker, 3 - attacker, vct
        self.table: dict[tuple[bytes, int], bool] = {}
        self.nodes = 0

    def scan(self, cells: list[int], player: int) -> Scan:
        return scan(cells, self.n, self.k, player)

    def is_threat(self, cells: list[int], move: int, depth: int) -> bool:
        """Whether ``move`` is worth trying with ``depth`` moves left: a four, or (VCT, depth >= 3) a three."""
        if is_four(cells, self.n, self.k, self.attacker, move):
            return True
        return self.vct and depth >= 3 and is_three(cells, self.n, self.k, self.attacker, move)

    def candidates(self, cells: list[int], depth: int) -> list[int]:
        """The attacker's moves to try, the attacker having no five cell: the block of the defender's one
        five cell if it is a threat, none against two, else every threat (fours first)."""
        blocks = self.scan(cells, self.defender)[0]
        if len(blocks) >= 2:
            return []
        if blocks:
            return [c for c in blocks if self.is_threat(cells, c, depth)]
        empties = empty_cells(cells)
        scanned = self.scan(cells, self.attacker)
        fours = [c for c in empties if fives_after(scanned, c)]
        if not self.vct or depth < 3:
            return fours
        return fours + [c for c in empties if c not in fours and is_three(cells, self.n, self.k, self.attacker, c)]

    def attack(self, cells: list[int], depth: int) -> bool:
        """Whether the attacker, to move, wins within ``depth`` moves."""
        if depth <= 0:
            return False
        key = (bytes(cells), depth)
        if key in self.table:
            return self.table[key]
        self.nodes += 1
        if self.scan(cells, self.attacker)[0]:
            won = True
        elif depth == 1:
            won = False
        else:
            won = any(self._after(cells, move, depth) for move in self.candidates(cells, depth))
        self.table[key] = won
        return won

    def _after(self, cells: list[int], move: int, depth: int) -> bool:
        cells[move] = self.attacker
        try:
            return self.defend(cells, depth - 1)
        finally:
            cells[move] = 0

    def defend(self, cells: list[int], depth: int) -> bool:
        """Whether the attacker, who has just moved and has ``depth`` moves left, wins against every reply."""
        if self.scan(cells, self.defender)[0]:
            return False
        scanned = self.scan(cells, self.attacker)
        fives = scanned[0]
        if len(fives) >= 2:
            return depth >= 1
        if fives:
            replies = list(fives)  # any other reply loses to the five at once
        elif not self.vct or depth <= 1:
            return False  # no four in a VCF; no five cell for the last move, whatever the defender plays
        else:
            replies = self._every_reply(cells, scanned)
        if not replies:
            return False  # a full board: a draw
        for reply in replies:
            cells[reply] = self.defender
            try:
                if not self.attack(cells, depth):
                    return False
            finally:
                cells[reply] = 0
        return True

    def _every_reply(self, cells: list[int], scanned: Scan) -> list[int]:
        """Every empty cell, those on the attacker's and defender's windows first (an order, not a choice)."""
        near = set(scanned[1]) | set(self.scan(cells, self.defender)[1])
        empties = empty_cells(cells)
        return [c for c in empties if c in near] + [c for c in empties if c not in near]

    def winning_moves(self, cells: list[int], depth: int) -> list[int]:
        """Every first move of a win within ``depth`` attacker moves (the five cells if there are any)."""
        fives = self.scan(cells, self.attacker)[0]
        if fives:
            return sorted(fives)
        if depth < 2:
            return []
        return sorted(move for move in self.candidates(cells, depth) if self._after(cells, move, depth))


def _board(state: State) -> tuple[list[int], int, int, int]:
    if state.is_over:
        raise ValueError(f"the game is over: {state.to_text()}")
    return [int(v) for v in state.cells], state.n, state.k, state.to_move


def _depth(state: State, max_depth: int, *, vct: bool) -> int | None:
    cells, n, k, attacker = _board(state)
    search = Search(n, k, attacker, vct=vct)
    return next((d for d in range(1, max_depth + 1) if search.attack(cells, d)), None)


def vcf_depth(state: State, max_depth: int) -> int | None:
    """The fewest attacker moves of a VCF of the player to move, or None if none takes ``max_depth`` or fewer."""
    return _depth(state, max_depth, vct=False)


def vct_depth(state: State, max_depth: int) -> int | None:
    """The fewest attacker moves of a VCT of the player to move, or None if none takes ``max_depth`` or fewer."""
    return _depth(state, max_depth, vct=True)


def winning_moves(state: State, depth: int, *, vct: bool) -> list[int]:
    """Every first move of a VCF (or VCT) of the player to move within ``depth`` attacker moves."""
    cells, n, k, attacker = _board(state)
    return Search(n, k, attacker, vct=vct).winning_moves(cells, depth)


def names(state: State, moves: Iterable[int]) -> list[str]:
    """Moves as cell names (``h8``)."""
    return [state.name(m) for m in moves]
