"""Endgame tables of 2048: exact probabilities of building a tile in the cells the big tiles leave free.

:mod:`~plyground.g2048.tablebase.formation` names the part of the board a table solves (frozen big
tiles, a free region, a goal cell); :mod:`~plyground.g2048.tablebase.solve` solves it exactly for a
target tile and a spawn rule (:func:`solve_formation`, a :class:`Tablebase`);
:mod:`~plyground.g2048.tablebase.store` keeps tables on disk; :mod:`~plyground.g2048.tablebase.advice`
asks them about the boards of a game; :mod:`~plyground.g2048.tablebase.leaves` weighs them at a search's leaves.
"""

from plyground.g2048.tablebase.advice import Advice, Advisor, Answer, answer, chain_tile, formation_fits
from plyground.g2048.tablebase.formation import Formation
from plyground.g2048.tablebase.leaves import DEFAULT_WEIGHT, TableLeaves
from plyground.g2048.tablebase.solve import MAX_STATES, VALUE_ERROR, Tablebase, estimate_formation, solve_formation
from plyground.g2048.tablebase.store import (
    STANDARD_SETS,
    STANDARD_TABLES,
    build_tablebase,
    default_directory,
    load_tablebase,
    save_tablebase,
    table_folders,
    table_name,
    verify_tablebase,
)

__all__ = [
    "DEFAULT_WEIGHT",
    "MAX_STATES",
    "STANDARD_SETS",
    "STANDARD_TABLES",
    "VALUE_ERROR",
    "Advice",
    "Advisor",
    "Answer",
    "Formation",
    "TableLeaves",
    "Tablebase",
    "answer",
    "build_tablebase",
    "chain_tile",
    "default_directory",
    "estimate_formation",
    "formation_fits",
    "load_tablebase",
    "save_tablebase",
    "solve_formation",
    "table_folders",
    "table_name",
    "verify_tablebase",
]  # fmt: skip
