"""Slow, obviously-correct twins of the cell classes and of the threat answers: every cell rescanned after every move.

A cell's class is named from how many of its lines hold each code, by a list of rules read top
down (the first that holds); the answers to a threat are found by playing each empty cell and
rescanning every empty cell of the board for the threatening player's classes.
"""

from __future__ import annotations

from collections import Counter

from tests.naive.patterns import B3, B4, F2, F3, F4, F5, line_code, line_of

NAMES = ("NONE", "TWO", "THREE", "TWO_TWOS", "THREE_PLUS", "OPEN_THREE", "OPEN_THREE_PLUS", "DOUBLE_THREE", "FOUR",
         "FOUR_PLUS", "FOUR_THREE", "OPEN_FOUR", "FIVE")  # fmt: skip
"""The classes, weakest first: a class is its index here."""

RULES: list[tuple[str, object]] = [
    ("FIVE", lambda h: h[F5] >= 1),
    ("OPEN_FOUR", lambda h: h[F4] >= 1 or h[B4] >= 2),
    ("FOUR_THREE", lambda h: h[B4] == 1 and h[F3] >= 1),
    ("FOUR_PLUS", lambda h: h[B4] == 1 and h[B3] + h[F2] >= 1),
    ("FOUR", lambda h: h[B4] == 1),
    ("DOUBLE_THREE", lambda h: h[F3] >= 2),
    ("OPEN_THREE_PLUS", lambda h: h[F3] == 1 and h[B3] + h[F2] >= 1),
    ("OPEN_THREE", lambda h: h[F3] == 1),
    ("THREE_PLUS", lambda h: h[B3] >= 2 or (h[B3] >= 1 and h[F2] >= 1)),
    ("TWO_TWOS", lambda h: h[F2] >= 2),
    ("THREE", lambda h: h[B3] == 1),
    ("TWO", lambda h: h[F2] == 1),
]


def cell_class(codes: tuple[int, ...]) -> int:
    """The class of a cell whose four codes are ``codes``: the first rule of :data:`RULES` that holds."""
    held = Counter(codes)
    for name, rule in RULES:
        if rule(held):  # type: ignore[operator]
            return NAMES.index(name)
    return 0


def classes(cells: list[int], n: int, k: int, exact: bool, player: int) -> dict[int, int]:
    """The class of ``player`` on each empty cell."""
    return {
        cell: cell_class(tuple(line_code(line_of(cells, n, cell, d), player, k, exact) for d in range(4)))
        for cell in range(n * n)
        if cells[cell] == 0
    }


def threats(cells: list[int], n: int, k: int, exact: bool, player: int, level: int) -> list[int]:
    """The empty cells where ``player``'s class is ``level`` or above."""
    return [cell for cell, value in classes(cells, n, k, exact, player).items() if value >= level]


def answers(cells: list[int], n: int, k: int, exact: bool, player: int, level: int) -> list[int]:
    """Every move after which the other player threatens below ``level``, then ``player``'s other fours."""
    other = 3 - player
    found = []
    for cell in range(n * n):
        if cells[cell] == 0:
            after = [*cells]
            after[cell] = player
            if not threats(after, n, k, exact, other, level):
                found.append(cell)
    mine = classes(cells, n, k, exact, player)
    fours = [cell for cell in mine if cell not in found and any(
        line_code(line_of(cells, n, cell, d), player, k, exact) in (B4, F4, F5) for d in range(4))]  # fmt: skip
    return found + fours
