"""Endgame tables of 2048: exact probabilities of building a tile in the cells the big tiles leave free.

:mod:`~plyground.g2048.tablebase.formation` names the part of the board a table solves (frozen big
tiles, a free region, a goal cell); :mod:`~plyground.g2048.tablebase.solve` solves it exactly for a
target tile and a spawn rule (:func:`solve_formation`, a :class:`Tablebase`).
"""

from plyground.g2048.tablebase.formation import Formation
from plyground.g2048.tablebase.solve import MAX_STATES, Tablebase, solve_formation

__all__ = ["MAX_STATES", "Formation", "Tablebase", "solve_formation"]
