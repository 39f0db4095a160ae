"""Plain-text views of 2048 boards, for output that is read by people and by scripts alike.

>>> print(format_grid([[2, 0], [0, 16]]))
+----+----+
|  2 |  . |
+----+----+
|  . | 16 |
+----+----+
"""

from __future__ import annotations

__all__ = ["format_grid"]


def format_grid(rows: list[list[int]]) -> str:
    """A board as an ASCII grid, ``.`` for an empty cell.

    >>> print(format_grid([[4, 2048]]))
    +------+------+
    |    4 | 2048 |
    +------+------+
    """
    width = max(len(str(tile)) for row in rows for tile in row)
    line = "+" + "+".join("-" * (width + 2) for _ in rows[0]) + "+"
    lines = [line]
    for row in rows:
        lines.append("|" + "|".join(f" {str(tile) if tile else '.':>{width}} " for tile in row) + "|")
        lines.append(line)
    return "\n".join(lines)
