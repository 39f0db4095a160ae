"""Slow, obviously-correct twins of the engine kernels: move lists, evaluation, and a plain minimax.

A position is a list of its n*n cells (0 empty, 1 X, 2 O, 3 blocked); every code is
recomputed from the lines (:mod:`tests.naive.patterns`) at every node. :func:`minimax`
follows the rules of :mod:`plyground.kinrow._engine_kernels` word for word, without
pruning, table, move order, width or reductions: its value is what the kernel's search
must return when those are turned off (``width`` holding every move, ``reduce`` 0,
``same depth`` 1, no VCF at the leaves).
"""

from __future__ import annotations

import math

from tests.naive import defences
from tests.naive.patterns import B4, DIRECTIONS, F4, F5, line_code, line_of

OPEN_FOUR = defences.NAMES.index("OPEN_FOUR")
FOUR_THREE = defences.NAMES.index("FOUR_THREE")

WIN = 100_000_000
TEMPO = 30
HOT_VALUE = 2_500
HOT_BONUS = 3_000


def codes(cells: list[int], n: int, k: int, exact: tuple[bool, bool], player: int, cell: int) -> tuple[int, ...]:
    """The four codes of ``player`` on ``cell``."""
    return tuple(line_code(line_of(cells, n, cell, d), player, k, exact[player - 1]) for d in range(4))


def combination(c: tuple[int, ...]) -> int:
    return ((c[0] * 11 + c[1]) * 11 + c[2]) * 11 + c[3]


def near(cells: list[int], n: int, cell: int) -> bool:
    """Whether a stone lies one or two steps from ``cell`` along one of its lines."""
    r, c = divmod(cell, n)
    for dr, dc in DIRECTIONS:
        for step in (-2, -1, 1, 2):
            rr, cc = r + step * dr, c + step * dc
            if 0 <= rr < n and 0 <= cc < n and cells[rr * n + cc] in (1, 2):
                return True
    return False


class Position:
    """A board with its rule data, for the twins."""

    def __init__(  # type: ignore[no-untyped-def]
        self, cells: list[int], n: int, k: int, exact: tuple[bool, bool], weights, tempo=(TEMPO, TEMPO), hot=HOT_BONUS
    ) -> None:
        self.cells, self.n, self.k, self.exact, self.weights = cells, n, k, exact, weights
        self.tempo, self.hot = tempo, hot

    def codes(self, player: int, cell: int) -> tuple[int, ...]:
        return codes(self.cells, self.n, self.k, self.exact, player, cell)

    def has(self, player: int, code: int) -> bool:
        return any(code in self.codes(player, cell) for cell in range(self.n * self.n) if self.cells[cell] == 0)

    def evaluate(self, player: int) -> int:
        """Both players' cells summed over the empty cells, the tempo, a bonus for a double threat to make.

        The six rows of weights: the player's cells are read in the mover's rows (2, 3), the
        opponent's in the waiter's (4, 5); rows 0 and 1 tell the hot cells.
        """
        rows = len(self.weights)
        totals = [0] * rows
        hot = [False, False]
        for cell in range(self.n * self.n):
            if self.cells[cell] == 0:
                for row in range(rows):
                    value = int(self.weights[row, combination(self.codes(row % 2 + 1, cell))])
                    totals[row] += value
                    if row < 2:
                        hot[row] |= value >= HOT_VALUE
        you = 3 - player
        bonus = self.hot if hot[player - 1] and not (self.has(you, B4) or self.has(you, F4)) else 0
        return totals[1 + player] + totals[3 + you] + self.tempo[player - 1] + bonus

    def moves(self, player: int, answers: bool = False) -> tuple[list[int], bool]:
        """The moves of ``player`` (as a set: in cell order) and whether they are forced blocks of a five.

        ``answers``: when the opponent has a cell of class ``FOUR_THREE`` or more, the exact answers
        to its threat (at ``OPEN_FOUR`` if it has such a cell), if there are any.
        """
        you = 3 - player
        empty = [cell for cell in range(self.n * self.n) if self.cells[cell] == 0]
        blocks = [cell for cell in empty if F5 in self.codes(you, cell)]
        if blocks:
            return blocks, True
        if answers:
            level = max(defences.classes(self.cells, self.n, self.k, self.exact[you - 1], you).values(), default=0)
            level = OPEN_FOUR if level >= OPEN_FOUR else FOUR_THREE if level >= FOUR_THREE else 0
            if level:
                found = defences.answers(self.cells, self.n, self.k, self.exact[you - 1], player, level)
                if found:
                    return sorted(found), False
        defend = self.has(you, F4)
        out = []
        for cell in empty:
            if not near(self.cells, self.n, cell):
                continue
            if defend:
                theirs, mine = self.codes(you, cell), self.codes(player, cell)
                if not ({B4, F4, F5} & set(theirs) or {B4, F4} & set(mine)):
                    continue
            out.append(cell)
        return (out or empty), False

    def order_score(self, player: int, cell: int, path: tuple[int, ...], ply: int) -> int:
        """How early the move on ``cell`` is searched: its worth to both players (rows 0-1), less when far."""
        you = 3 - player
        attack = int(self.weights[player - 1, combination(self.codes(player, cell))])
        defence = int(self.weights[you - 1, combination(self.codes(you, cell))])
        return distance_discount(self.n, path, ply, cell, min(attack * 5 + defence * 4, 100_000_000))


PATH = 4
FAR = 3


def distance_discount(n: int, path: tuple[int, ...], ply: int, cell: int, score: int) -> int:
    """Halve the score of a move over ``FAR`` rows or columns from both last moves; quarter it if from all four."""

    def far(move: int) -> bool:
        return move < 0 or max(abs(move // n - cell // n), abs(move % n - cell % n)) > FAR

    recent = [path[PATH + ply - back] for back in range(1, 5)]
    if not far(recent[0]) or not far(recent[1]):
        return score
    return score // 4 if all(far(move) for move in recent) else score // 2


def quiesce(position: Position, player: int, qply: int, ply: int, plies: int) -> int:
    """The threat quiescence's value (``_leaf_kernels._quiesce``): a plain minimax over the threats, no pruning."""
    you = 3 - player
    empty = [cell for cell in range(position.n * position.n) if position.cells[cell] == 0]
    if position.has(player, F5):
        return WIN - ply - 1
    blocks = [cell for cell in empty if F5 in position.codes(you, cell)]
    if len(blocks) >= 2:
        return -(WIN - ply - 2)

    def after(cell: int) -> int:
        position.cells[cell] = player
        value = -quiesce(position, you, qply + 1, ply + 1, plies)
        position.cells[cell] = 0
        return value

    if blocks:
        return after(blocks[0])
    if position.has(player, F4):
        return WIN - ply - 3
    static = position.evaluate(player)
    if qply >= plies:
        return static
    exact = position.exact[you - 1]
    if max(defences.classes(position.cells, position.n, position.k, exact, you).values(), default=0) >= OPEN_FOUR:
        answers = defences.answers(position.cells, position.n, position.k, exact, player, OPEN_FOUR)
        return max((after(cell) for cell in answers), default=-(WIN - ply - 4))
    fours = [cell for cell in empty if B4 in position.codes(player, cell)]
    return max([static, *(after(cell) for cell in fours)])


def minimax(
    position: Position, player: int, depth: int, ply: int, threat_plies: int, answers: bool = False, quiescence: int = 0
) -> int:
    """The value of the position for ``player`` (to move), as the kernel's search defines it."""
    you = 3 - player
    if position.has(player, F5):
        return WIN - ply - 1
    forced = position.has(you, F5)
    if not forced and position.has(player, F4):
        return WIN - ply - 3
    if depth <= 0 and quiescence:
        return quiesce(position, player, 0, ply, quiescence)
    if depth <= 0 and not forced and (not position.has(you, F4) or depth <= -threat_plies):
        return position.evaluate(player)
    moves, forced = position.moves(player, answers)
    if forced and len(moves) >= 2:
        return -(WIN - ply - 2)
    if not moves:
        return 0
    best = -(WIN + 1)
    for cell in moves:
        position.cells[cell] = player
        value = -minimax(position, you, depth if forced else depth - 1, ply + 1, threat_plies, answers, quiescence)
        position.cells[cell] = 0
        best = max(best, value)
    return best


def reduced(
    mode: str, next_depth: int, i: int, principal: bool, quiet: bool, forced: bool, threatened: bool, history: int
) -> int:
    """The depth the ``i``-th move (from 1) is first searched to under the late-move reduction ``mode``
    (``none``, ``one``, ``log`` or ``adjusted``), as ``_reduced`` defines it."""
    if mode in ("log", "adjusted") and next_depth >= 2 and not forced:
        plies = math.floor(math.log(next_depth + 1) * math.log(i + 1) / 1.7 + 0.5)  # ln(depth): the node's
        if principal:
            plies = max(plies - 1, 0)
        if mode == "adjusted":
            plies -= (not quiet) + threatened + (history >= next_depth**2)
            if history == 0 and quiet and not principal:
                plies += 1
            plies = min(max(plies, 0), next_depth - 1)
        return max(1, next_depth - plies)
    if mode == "one" and i >= 3 and next_depth >= 2 and quiet and not forced:
        return next_depth - 1
    return next_depth
