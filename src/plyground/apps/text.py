"""Plain-text views of 2048 boards, for output that is read by people and by scripts alike, and counts in words.

>>> print(format_grid([[2, 0], [0, 16]]))
+----+----+
|  2 |  . |
+----+----+
|  . | 16 |
+----+----+
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plyground.g2048.tablebase import Advice

__all__ = ["counted", "format_grid", "table_json", "table_line", "values_line"]


def counted(count: int, noun: str) -> str:
    """``count`` (with thousands separators) and ``noun``, plural unless the count is 1.

    >>> counted(1, "move"), counted(0, "game"), counted(12345, "frame")
    ('1 move', '0 games', '12,345 frames')
    """
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


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


def values_line(values: Iterable[tuple[str, float]], unit: str, *, downgraded: bool = False) -> str:
    """Each move's value, best first, and what the values count (``downgraded``: a network searched the board
    with its tiles above the largest missing one halved, and the values are that board's).

    >>> values_line({"up": 1200.4, "left": 1500.0}.items(), "points")
    'expected future score, in points: left 1,500 · up 1,200'
    >>> values_line({"down": -3.2}.items(), "heuristic units")
    'expected value, in heuristic units (not points): down -3'
    >>> values_line({"up": 9.0}.items(), "points", downgraded=True)
    'expected future score of the board searched (tiles above the largest missing one halved), in points: up 9'
    """
    what = f"expected value, in {unit} (not points)"
    if unit == "points":
        searched = " of the board searched (tiles above the largest missing one halved)" if downgraded else ""
        what = f"expected future score{searched}, in points"
    ranked = sorted(values, key=lambda item: -item[1])
    return f"{what}: " + " · ".join(f"{move} {value:,.0f}" for move, value in ranked)


def table_line(advice: Advice) -> str:
    """An endgame table's move in one line: the table, the move, its exact probability of building the target, and
    the tile the big tiles then merge into.

    ``endgame table xxx/x.T/... for 16: up, which builds the 16 with probability 1.000000 (exact), to merge into 64``
    """
    target = advice.table.target
    return (
        f"endgame table {advice.formation} for {target}: {advice.move}, which builds the {target} with probability "
        f"{advice.probability:.6f} (exact), to merge into {advice.chain}"
    )


def table_json(advice: Advice) -> dict[str, Any]:
    """An endgame table's move for scripts and pages: the formation as it lies on the board, the target, the exact
    probability of the move and of each allowed move (``moves``), and the tile the chain then merges into
    (``chain``)."""
    return {
        "formation": advice.formation,
        "target": advice.table.target,
        "probability": advice.probability,
        "moves": dict(advice.answer.moves),
        "chain": advice.chain,
    }
