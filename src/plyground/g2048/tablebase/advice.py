"""Endgame tables asked about the boards of a game: which table fits, under which symmetry, and its move.

A table *fits* a board under a symmetry ``k`` of the board when the board's cells under the
formation's image (:meth:`~plyground.g2048.tablebase.formation.Formation.image`) that are frozen
all hold tiles of the table's target or more. :func:`answer` gives the table's values for such a
board with its moves named as on the board. An :class:`Advisor` holds the tables built and picks
the move for a game: the table of the largest target that fits the board with its goal cell
*continuing the chain* of the big tiles (a frozen neighbour of the goal cell holds exactly the
target, so that the tile built there merges on), no two neighbouring frozen cells holding equal tiles (the game
merges them, a table never does), and only until the target stands there and while some move can still succeed.

The tile built on the goal cell then merges down the chain (:func:`chain_tile`): with frozen tiles of 16384,
8192, …, 256, 128 in a path of neighbouring cells from the goal's neighbour on, a 128 built there makes 32768, so
the table's probability is the exact probability of making 32768 by the formation's moves, the merges after it
aside (they are the game's, not the table's).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from plyground.errors import InvalidInputError
from plyground.g2048.board import DIRECTIONS, Board, Direction
from plyground.g2048.tablebase.formation import Formation, image_cell, image_direction
from plyground.g2048.tablebase.solve import Tablebase

__all__ = ["Advice", "Advisor", "Answer", "answer", "chain_tile", "fitting_symmetries", "formation_fits", "seen_as"]

_NAMES: list[str] = list(DIRECTIONS)


@dataclass(frozen=True)
class Answer:
    """A table's answer for a board of a game (:func:`answer`).

    Attributes:
        value: the probability of building the target on the goal cell from the board, under optimal play.
        moves: each allowed move's probability, by the board's directions.
        best: the table's best move (:meth:`~plyground.g2048.tablebase.solve.Tablebase.best_move`); None when none
            is allowed.
        symmetry: the symmetry of the board under which the formation fits it (0: as written).
    """

    value: float
    moves: dict[str, float]
    best: str | None
    symmetry: int


def fitting_symmetries(table: Tablebase, board: Board) -> list[int]:
    """The symmetries of the board under which ``table`` fits ``board`` (none for a board of another size)."""
    formation = table.formation
    if not isinstance(board, Board) or board.shape != (formation.rows, formation.cols):
        return []
    rows, cols = formation.rows, formation.cols
    return [
        k
        for k in range(formation.symmetries)
        if all(board[image_cell(cell, k, rows, cols)] >= table.target for cell in formation.frozen)
    ]


def seen_as(table: Tablebase, board: Board, k: int) -> Board:
    """``board`` as ``table`` sees it under the symmetry ``k``: the cell (r, c) of the result is the cell
    ``image_cell((r, c), k)`` of ``board``."""
    rows, cols = board.rows, board.cols
    bits = 0
    for r in range(rows):
        for c in range(cols):
            bits |= board.exponent(*image_cell((r, c), k, rows, cols)) << (16 * r + 4 * c)
    return Board(bits, rows, cols)


def answer(table: Tablebase, board: Board, symmetry: int | None = None) -> Answer | None:
    """``table``'s answer for ``board`` under ``symmetry`` (default: the first that fits), its moves named as on
    ``board``; None when the table does not fit the board so."""
    fitting = fitting_symmetries(table, board)
    k = fitting[0] if symmetry is None and fitting else symmetry
    if k is None or k not in fitting:
        return None
    seen = seen_as(table, board, k)
    moves = {_NAMES[image_direction(_NAMES.index(direction), k)]: value
             for direction, value in table.move_values(seen).items()}  # fmt: skip
    best = table.best_move(seen)
    return Answer(table.value(seen), moves, None if best is None else _NAMES[image_direction(_NAMES.index(best), k)], k)


@dataclass(frozen=True)
class Advice:
    """An advisor's move for a board (:meth:`Advisor.advise`).

    Attributes:
        move: the table's best move, as on the board.
        probability: its exact probability of building the table's target on the goal cell.
        table: the table that gave it.
        answer: the table's whole answer (every allowed move's probability, the symmetry).
        chain: the tile the big tiles merge into once the target is built (:func:`chain_tile`).
    """

    move: Direction
    probability: float
    table: Tablebase
    answer: Answer
    chain: int

    @property
    def formation(self) -> str:
        """The formation as it lies on the board (its image under the answer's symmetry)."""
        return self.table.formation.image(self.answer.symmetry).to_text()


class Advisor:
    """The endgame tables a game consults (see the module), the largest target first.

    Args:
        tables: the tables; those of another ``p_four`` than the game's are the caller's to leave out.
        folder: where they were read from (:meth:`load` sets it), for other processes to read them again.
    """

    def __init__(self, tables: Sequence[Tablebase], folder: Path | None = None) -> None:
        self.tables = sorted(tables, key=lambda table: (-table.target, table.formation.to_text()))
        self.folder = folder
        self._images = [(table, k, _frozen_cells(table, k)) for table in self.tables
                        for k in range(table.formation.symmetries)]  # fmt: skip
        """Each table under each symmetry, with its frozen cells (bit 4r + c): what :meth:`advise` tries, in order."""

    @classmethod
    def load(cls, directory: str | os.PathLike[str] | None = None, *, p_four: float | None = None) -> Advisor:
        """The tables built under ``directory`` (default: the user data folder's), of ``p_four`` when given.

        Raises:
            InvalidInputError: ``directory`` is given and holds no table.
            CorruptFileError: a table is damaged.
        """
        from plyground.g2048.tablebase.store import default_directory, load_tablebase, table_folders

        folders = table_folders(directory)
        if directory is not None and not folders:
            raise InvalidInputError(f"no endgame table in {directory}: build one with 'plyground 2048 tablebase build'")
        tables = [load_tablebase(folder) for folder in folders]
        root = Path(directory) if directory is not None else default_directory()
        return cls([table for table in tables if p_four is None or table.p_four == p_four], root.resolve())

    def __len__(self) -> int:
        return len(self.tables)

    def advise(self, board: Board) -> Advice | None:
        """The move of the first table (largest target first) that fits ``board`` with its goal cell continuing
        the chain, not yet holding the target, every free cell within its cap, and a move that can still succeed;
        None when no table does."""
        if not isinstance(board, Board):
            return None
        exponents = [(board.bits >> (4 * k)) & 0xF for k in range(16)]
        big: dict[int, int] = {}  # by exponent: the cells (bit 4r + c) that hold that tile or more
        for table, k, cells in self._images:
            levels, formation = table.levels, table.formation
            if levels not in big:
                big[levels] = sum(1 << i for i, e in enumerate(exponents) if e >= levels)
            if (formation.rows, formation.cols) != board.shape or cells & ~big[levels]:
                continue  # a frozen cell holds a tile below the target
            chain = _fitting_chain(formation, table.target, board, k)
            if chain is None:
                continue
            found = answer(table, board, k)
            if found is not None and found.best is not None and found.moves[found.best] > 0.0:
                return Advice(cast(Direction, found.best), found.moves[found.best], table, found, chain)
        return None


def _frozen_cells(table: Tablebase, k: int) -> int:
    """``table``'s frozen cells under the symmetry ``k``, as bits (cell (r, c) at bit 4r + c)."""
    formation = table.formation
    cells = (image_cell(cell, k, formation.rows, formation.cols) for cell in formation.frozen)
    return sum(1 << (4 * r + c) for r, c in cells)


def formation_fits(formation: Formation, target: int, board: Board) -> int | None:
    """The first symmetry of the board under which ``formation`` for ``target`` fits ``board`` as :class:`Advisor`
    asks a table to, no table needed: every frozen cell holds ``target`` or more, no two neighbouring ones hold equal
    tiles, the goal cell continues the chain (:func:`chain_tile`) and does not hold the target yet, and every free
    cell holds a tile below the target and within its cap. None when it fits under no symmetry (or ``board`` is of
    another size); how often a formation would speak, before building its table.

    >>> formation_fits(Formation.parse("xx/.T"), 8, Board.parse("16 8/2 0"))
    0
    """
    if not isinstance(board, Board) or board.shape != (formation.rows, formation.cols):
        return None
    rows, cols = formation.rows, formation.cols
    for k in range(formation.symmetries):
        if any(board[image_cell(cell, k, rows, cols)] < target for cell in formation.frozen):
            continue
        if any(board[image_cell(cell, k, rows, cols)] >= target for cell in formation.region):
            continue  # a tile of the target off the goal: not counted (an advisor lets the moves' values decide)
        if _fitting_chain(formation, target, board, k) is not None:
            return k
    return None


def _fitting_chain(formation: Formation, target: int, board: Board, k: int) -> int | None:
    """The tile the target makes down the chain (:func:`chain_tile`) where ``formation`` for ``target``, its
    frozen cells holding the target or more under the symmetry ``k``, fits ``board`` as the advisor asks: no two
    neighbouring frozen tiles equal, the goal continuing the chain and not holding the target yet, every free cell
    within its cap. None where it does not."""
    rows, cols, caps = formation.rows, formation.cols, dict(formation.caps)
    if board[image_cell(formation.goal, k, rows, cols)] >= target or _frozen_pair(formation, board, k):
        return None  # built already, or big tiles that can merge: the table knows neither
    if any(board[image_cell(cell, k, rows, cols)] > 1 << cap for cell, cap in caps.items()):
        return None  # a tile above its cell's cap: not a board of the table
    chain = _chain(formation, target, board, k)
    return None if chain == target else chain  # the target itself: no frozen neighbour of the goal holds it


def _frozen_pair(formation: Formation, board: Board, k: int) -> bool:
    """Whether two neighbouring frozen cells (under the symmetry ``k``) hold equal tiles: a move of the game merges
    them, a table's move never does."""
    cells = {image_cell(cell, k, formation.rows, formation.cols) for cell in formation.frozen}
    return any(board[r, c] == board[r + dr, c + dc] for r, c in cells for dr, dc in ((0, 1), (1, 0))
               if (r + dr, c + dc) in cells)  # fmt: skip


def chain_tile(table: Tablebase, board: Board, k: int) -> int:
    """The tile that the target, built on the goal cell (under the symmetry ``k``), makes as it merges down the chain.

    From the goal cell, each step goes to a frozen neighbour not passed yet that holds the tile made so far, which
    doubles it: a path of 128, 256, …, 16384 from the goal's neighbour makes 32768 of a 128 built on the goal. The
    merged tile is taken to stand in the frozen cell it merged into. The target itself when no neighbour holds it.

    >>> from plyground.g2048.tablebase import Formation, solve_formation
    >>> table = solve_formation(Formation.parse("xx/.T"), 4)
    >>> chain_tile(table, Board.parse("8 4/0 0"), 0), chain_tile(table, Board.parse("16 4/0 0"), 0)
    (16, 8)
    """
    return _chain(table.formation, table.target, board, k)


def _chain(formation: Formation, target: int, board: Board, k: int) -> int:
    """:func:`chain_tile` of ``formation`` for ``target``."""
    rows, cols = formation.rows, formation.cols
    frozen = {image_cell(cell, k, rows, cols) for cell in formation.frozen}
    cell, tile, passed = image_cell(formation.goal, k, rows, cols), target, set()
    while True:
        r, c = cell
        step = next(
            (n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in frozen and n not in passed
             and board[n] == tile),
            None,
        )  # fmt: skip
        if step is None:
            return tile
        passed.add(step)
        cell, tile = step, 2 * tile
