"""Numba kernels of the engine search's leaves: its arrays and settings, the evaluation, and the threat quiescence.

What :mod:`plyground.kinrow._engine_kernels` (the search) and the leaves share: the values (a win
``p`` plies from the root is worth ``WIN - p``), the indices of ``stats`` and ``params``, the
arrays of a search (:class:`SearchArrays`), whether a player may play a cell under renju
(:func:`_allowed`), the static evaluation (:func:`_evaluate`) and the class a player threatens at
(:func:`_threat_level`, over the cell classes of :mod:`plyground.kinrow.cell_classes`).

**The threat quiescence** (:func:`_quiesce`, ``params[QUIESCENCE]`` its most plies, 0: none) is
the search's leaf when it is on: a search of threats only, from the position at depth 0.

* the player to move has a five to make: a win next ply; the opponent has two: a loss; one: the
  block is the only move (it counts a ply of the quiescence, but is made even past its last);
* the player can make an open four: a win in three plies;
* the opponent has a cell of class ``OPEN_FOUR`` (an open three to make an open four, or two
  fours): the player must answer it, and its moves are the exact answers and its fours
  (:func:`~plyground.kinrow._defence_kernels._defences`); none at all is a loss in four plies;
  past the last ply, the static value;
* otherwise the player may *stand pat*: the position is worth at least its static value; past the
  last ply that is all, else its moves are its fours (cells that make a four), and the value is
  the best of standing pat and of the fours.

The value is that minimax over the threats, searched with alpha-beta (fail-soft). Its naive twin is
``quiesce`` in ``tests/naive/engine.py``. Not under renju (the engine turns it off there).

Kernels do no validation; :mod:`plyground.kinrow.engine` does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from numba import types

from plyground._jit import kernel
from plyground.kinrow._defence_kernels import _defences
from plyground.kinrow._pattern_kernels import B4, BOARD, F3, F4, F5, HOT, OL, _combination, _place, _remove
from plyground.kinrow._renju_kernels import _forbidden
from plyground.kinrow._table_kernels import TABLE
from plyground.kinrow.cell_classes import CLASS_TABLE, CellClass

WIN = 100_000_000
MAX_PLY = 128
WON = WIN - MAX_PLY
INFINITY = WIN + 1
NODES, TT_HITS, BEST, SELDEPTH = 0, 1, 2, 3
WIDTH, GENERATION, LEAF_VCF, THREAT_PLIES, REDUCE, SAME_DEPTH, RENJU, BOARD_N, TEMPO_X, TEMPO_O, HOT_BONUS = range(11)
PRUNE, FUTILITY, DISTANCE, LEAF_WIDTH, ANSWERS, QUIESCENCE, VERIFY = range(11, 18)
PARAMS = 18

PATH = 4
"""The path array holds the last :data:`PATH` moves of the game, then the move of each ply."""
OPEN_FOUR_CLASS = int(CellClass.OPEN_FOUR)
FOUR_THREE_CLASS = int(CellClass.FOUR_THREE)


class SearchArrays(NamedTuple):
    """The arrays of a search (see :mod:`plyground.kinrow._engine_kernels`), one argument of the search kernels;
    ``ft``, ``line`` and ``vstats`` are the threat solver's table, line and statistics."""

    tt: Any
    killers: Any
    history: Any
    moves: Any
    scores: Any
    ban: Any
    stop: Any
    stats: Any
    params: Any
    ft: Any
    line: Any
    vstats: Any
    path: Any
    scratch: Any


SEARCH = types.NamedTuple(
    (
        TABLE, types.int32[:, ::1], types.int32[::1], types.int32[:, ::1], types.int32[:, ::1], types.uint8[::1],
        types.uint8[::1], types.int64[::1], types.int64[::1], TABLE, types.int32[::1], types.int64[::1],
        types.int32[::1], types.int32[::1],
    ),
    SearchArrays,
)  # fmt: skip
"""The numba type of :class:`SearchArrays`."""


@kernel(types.boolean(types.uint8[:, ::1], types.int8[::1], types.int64[::1], types.int64, types.int64), inline=True)
def _allowed(pat, cells, params, player, cell):
    """Whether ``player`` may play the empty ``cell``: always, but for X's forbidden points under renju.

    Only cells whose codes could make one (an overline, an open four or two lines of three or
    more) are checked in full.
    """
    if player != 1 or params[RENJU] == 0:
        return True
    strong = 0
    suspect = False
    for d in range(4):
        code = pat[0, cell * 4 + d]
        if code == F5:
            return True
        if code == OL or code == F4:
            suspect = True
        if code == F3 or code == B4 or code == F4:
            strong += 1
    if not suspect and strong < 2:
        return True
    return _forbidden(cells, params[BOARD_N], cell) == 0


@kernel(types.int64(BOARD, types.int64[::1], types.int64), inline=True)
def _evaluate(board, params, player):
    """The static value of the position for ``player`` (to move).

    The player's cells as the mover's (``tot[2 + me]``) plus the opponent's as the waiter's
    (``tot[4 + you]``; the six rows of weights of :mod:`plyground.kinrow.evaluation`), the
    tempo of the colour to move, and ``params[HOT_BONUS]`` when the player can make a double
    threat and the opponent has no four to play first.
    """
    cnt, tot = board.cnt, board.tot
    me = player - 1
    you = 2 - player
    value = tot[2 + me] + tot[4 + you]
    value += params[TEMPO_X] if player == 1 else params[TEMPO_O]
    if cnt[me, HOT] > 0 and cnt[you, B4] == 0 and cnt[you, F4] == 0:
        value += params[HOT_BONUS]
    return value


@kernel(types.int64(BOARD, types.int64), inline=True)
def _threat_level(board, side):
    """The class the player ``side`` (0 or 1) threatens at: ``OPEN_FOUR``, ``FOUR_THREE`` or 0 (neither)."""
    cells, pat = board.cells, board.pat
    level = 0
    for cell in range(cells.shape[0]):
        if cells[cell] == 0:
            found = CLASS_TABLE[_combination(pat, side, cell)]
            if found >= OPEN_FOUR_CLASS:
                return OPEN_FOUR_CLASS
            if found >= FOUR_THREE_CLASS:
                level = FOUR_THREE_CLASS
    return level


@kernel(types.int64(BOARD, SEARCH, types.int64, types.int64, types.int64, types.int64, types.int64), refcount=False)
def _quiesce(board, search, player, qply, ply, alpha, beta):
    """The threat quiescence's value of the position for ``player`` (to move), ``qply`` plies into it (the module)."""
    cells, pat, cnt = board.cells, board.pat, board.cnt
    moves, stop, stats, params = search.moves, search.stop, search.stats, search.params
    stats[NODES] += 1
    if ply > stats[SELDEPTH]:
        stats[SELDEPTH] = ply
    if stop[0] != 0:
        return 0
    me = player - 1
    you = 2 - player
    if cnt[me, F5] > 0:
        return WIN - ply - 1
    if ply >= MAX_PLY - 4:
        return _evaluate(board, params, player)
    if cnt[you, F5] > 0:  # the block is the only move; two blocks: lost
        block = -1
        for cell in range(cells.shape[0]):
            if cells[cell] == 0:
                for d in range(4):
                    if pat[you, cell * 4 + d] == F5:
                        if block >= 0 and block != cell:
                            return -(WIN - ply - 2)
                        block = cell
        _place(board, block, player)
        value = -_quiesce(board, search, 3 - player, qply + 1, ply + 1, -beta, -alpha)
        _remove(board, block)
        return value
    if cnt[me, F4] > 0:
        return WIN - ply - 3
    threatened = cnt[you, F4] > 0 or (cnt[you, HOT] > 0 and _threat_level(board, you) == OPEN_FOUR_CLASS)
    static = _evaluate(board, params, player)
    if qply >= params[QUIESCENCE]:
        return static
    count = 0
    best = -INFINITY
    if threatened:
        count = _defences(board, CLASS_TABLE, player, OPEN_FOUR_CLASS, params[BOARD_N], search.scratch, moves[ply])
        if count == 0:
            return -(WIN - ply - 4)
    else:
        if static >= beta:
            return static
        best = static
        if static > alpha:
            alpha = static
        for cell in range(cells.shape[0]):
            if cells[cell] == 0:
                for d in range(4):
                    if pat[me, cell * 4 + d] == B4:
                        moves[ply, count] = cell
                        count += 1
                        break
    for i in range(count):
        cell = moves[ply, i]
        _place(board, cell, player)
        value = -_quiesce(board, search, 3 - player, qply + 1, ply + 1, -beta, -alpha)
        _remove(board, cell)
        if stop[0] != 0:
            return 0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best
