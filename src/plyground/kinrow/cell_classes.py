"""What a move on an empty cell makes for a player, all four lines together: the cell's *class*.

A cell's four codes (one a line, see :mod:`plyground.kinrow.patterns`) say what a stone there
makes on each line; its class says what they make together, the strongest first:

========================  ===============================================================
``FIVE``                  a five
``OPEN_FOUR``             an open four, or two fours (two fives to stop: a win in three plies)
``FOUR_THREE``            a four and an open three (the four's block is forced, the three becomes an open four)
``FOUR_PLUS``             a four and a three or an open two
``FOUR``                  a four alone
``DOUBLE_THREE``          two open threes
``OPEN_THREE_PLUS``       an open three and a three or an open two
``OPEN_THREE``            an open three alone
``THREE_PLUS``            two threes, or a three and an open two
``TWO_TWOS``              two open twos
``THREE``                 a three alone
``TWO``                   an open two alone
``NONE``                  less
========================  ===============================================================

An overline counts for nothing here (where only exactly five wins, the pattern codes say ``OL``).
The classes drive the engine's threat logic: a player *threatens* at the level of its best cell
(:data:`OPEN_FOUR`: it wins unless the opponent stops it now or has fours of its own), and the
moves that answer a threat are the cells after which the threatening player has no cell of that
level left (:mod:`plyground.kinrow.defences`). :data:`CLASS_TABLE` gives the class of each of the
``NPAT**4`` combinations of four codes, as the kernels read it.
"""

from __future__ import annotations

import enum

import numpy as np
import numpy.typing as npt

from plyground.kinrow.patterns import Pattern, code_multisets

__all__ = ["CLASS_TABLE", "CellClass", "cell_class"]


class CellClass(enum.IntEnum):
    """What a move makes on its four lines together, weakest first (see the module)."""

    NONE = 0
    TWO = 1
    THREE = 2
    TWO_TWOS = 3
    THREE_PLUS = 4
    OPEN_THREE = 5
    OPEN_THREE_PLUS = 6
    DOUBLE_THREE = 7
    FOUR = 8
    FOUR_PLUS = 9
    FOUR_THREE = 10
    OPEN_FOUR = 11
    FIVE = 12


def cell_class(codes: tuple[int, ...]) -> CellClass:
    """The class of a cell where a player's codes on its lines are ``codes`` (see the module)."""
    fours = codes.count(Pattern.B4)
    open_threes = codes.count(Pattern.F3)
    threes = codes.count(Pattern.B3)
    open_twos = codes.count(Pattern.F2)
    if Pattern.F5 in codes:
        return CellClass.FIVE
    if Pattern.F4 in codes or fours >= 2:
        return CellClass.OPEN_FOUR
    if fours == 1:
        if open_threes:
            return CellClass.FOUR_THREE
        return CellClass.FOUR_PLUS if threes or open_twos else CellClass.FOUR
    if open_threes >= 2:
        return CellClass.DOUBLE_THREE
    if open_threes == 1:
        return CellClass.OPEN_THREE_PLUS if threes or open_twos else CellClass.OPEN_THREE
    if threes >= 2 or (threes and open_twos):
        return CellClass.THREE_PLUS
    if open_twos >= 2:
        return CellClass.TWO_TWOS
    if threes:
        return CellClass.THREE
    return CellClass.TWO if open_twos else CellClass.NONE


def _class_table() -> npt.NDArray[np.uint8]:
    codes, inverse = code_multisets()  # the class depends on how many lines hold each code: one a multiset
    classes = np.array([cell_class(combo) for combo in codes], dtype=np.uint8)
    table = np.ascontiguousarray(classes[inverse])
    table.setflags(write=False)
    return table


CLASS_TABLE = _class_table()
"""``CLASS_TABLE[combination]``: the :class:`CellClass` of each combination of four codes
``((c0 * NPAT + c1) * NPAT + c2) * NPAT + c3`` (uint8, read-only)."""
