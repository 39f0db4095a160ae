"""Numba kernels of pattern-guided MCTS for k-in-a-row: move lists, weighted playouts and PUCT over a pattern board.

The plain policy (:mod:`plyground.kinrow._mcts_kernels`) expands every empty cell and plays
uniformly random games; on a 15×15 board such games say almost nothing. These kernels read
a pattern board (:mod:`plyground.kinrow._pattern_kernels`) instead, for the tree and for
the playouts alike:

**Moves and weights** (:func:`_candidates`), for the player to move, from the top down:

* cells where the player makes five: only those (the game is won);
* cells where the opponent would make five: only those (the block);
* the opponent threatens an open four (it has an ``F4`` cell): the cells where its codes
  are ``B4`` or more (the ones that stop or shorten its three), and the player's own fours;
* otherwise the empty cells near stones (``near``: a stone within two cells along a line);
  with none, every empty cell, or on a board without stones the cells nearest the centre.

A move's *weight* is ``1 + own + theirs``: the worth (``weights``) of the cell's code
combination for the player, what the move makes, plus its worth for the opponent, what
it takes away.

**Playouts** (:func:`_playout`) pick each move among these with probability proportional
to its weight: a five is taken, a five is blocked, an open three is answered, and a
double threat (worth thousands) is nearly always made, instead of uniformly at random.

**Tree** (the search of :mod:`plyground.kinrow._mcts_kernels` with the policy :data:`PATTERNS`,
``_iterate_patterns``): a node's children are its moves, each with the prior
``weight / sum of weights``; selection is PUCT, the child with the best
``q + c * prior * sqrt(parent visits) / (1 + visits)``, where ``q`` is the child's win rate
for the player choosing, or for a child never visited the parent's own value (first-play
urgency). Statistics live in the same position table as the plain search, keyed by the
canonical key when symmetries are shared: a symmetric position has symmetric codes, so
its priors agree and pooling its statistics stays sound. A move wins when one of its codes
for the player is ``F5`` (five, or exactly k under the standard rule).

Randomness is the SplitMix64 stream of ``rng[0]`` (:func:`plyground.kinrow._mcts_kernels._below`);
weighted choices draw one integer below the sum of weights. Kernels do no validation;
:mod:`plyground.kinrow.mcts` does. Twins in ``tests/naive/mcts_patterns.py``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import types

from plyground._jit import kernel
from plyground.kinrow._mcts_kernels import Policy, _below, iterate_kernel
from plyground.kinrow._pattern_kernels import B4, BOARD, CHANGING, F4, F5, BoardArrays, _combination, _place

_MOVES = (types.int64[::1], types.int64[::1])
"""The move list and the weights, ``[n*n]`` each, that :func:`_candidates` fills."""


@kernel(types.boolean(types.uint8[:, ::1], types.int64, types.int64, types.int64, types.int64))
def _has(pat, side, cell, low, high):
    """Whether one of player ``side``'s (0 or 1) four codes on ``cell`` is from ``low`` to ``high``."""
    for d in range(4):
        code = pat[side, cell * 4 + d]
        if low <= code <= high:
            return True
    return False


@kernel(types.int64(BOARD, types.int64, *_MOVES))
def _candidates(board, player, moves, worth):
    """Fill ``moves`` and ``worth`` with ``player``'s moves and their weights, in cell order; returns how many.

    0 only on a full board.
    """
    cells, pat, near, cnt, weights = board.cells, board.pat, board.near, board.cnt, board.weights
    me = player - 1
    you = 2 - player
    size = cells.shape[0]
    m = 0
    for side in (me, you):  # a five to make, else one to block
        if cnt[side, F5] > 0:
            for cell in range(size):
                if cells[cell] == 0 and _has(pat, side, cell, F5, F5):
                    moves[m] = cell
                    worth[m] = 1
                    m += 1
            return m
    defend = cnt[you, F4] > 0
    stones = 0
    for cell in range(size):
        if cells[cell] != 0:
            if cells[cell] != 3:
                stones += 1
            continue
        if defend:
            if not (_has(pat, you, cell, B4, F5) or _has(pat, me, cell, B4, F4)):
                continue
        elif near[cell] == 0:
            continue
        moves[m] = cell
        worth[m] = 1 + weights[me, _combination(pat, me, cell)] + weights[you, _combination(pat, you, cell)]
        m += 1
    if m > 0:
        return m
    n = np.int64(math.sqrt(size) + 0.5)
    best = size  # without a near cell: every empty cell, or the ones nearest the centre of a board without stones
    for cell in range(size):
        if cells[cell] != 0:
            continue
        if stones == 0:
            r = cell // n
            c = cell % n
            far = max(abs(2 * r - (n - 1)), abs(2 * c - (n - 1)))
            if far > best:
                continue
            if far < best:
                best = far
                m = 0
        moves[m] = cell
        worth[m] = 1 + weights[me, _combination(pat, me, cell)] + weights[you, _combination(pat, you, cell)]
        m += 1
    return m


@kernel(types.int64(types.uint64[::1], types.int64[::1], types.int64))
def _pick(rng, worth, m):
    """An index below ``m``, each with probability proportional to ``worth``."""
    total = np.int64(0)
    for i in range(m):
        total += worth[i]
    r = _below(rng, total)
    i = 0
    while r >= worth[i]:
        r -= worth[i]
        i += 1
    return i


@kernel(types.int64(BOARD, types.int64, types.uint64[::1], *_MOVES))
def _playout(board, player, rng, moves, worth):
    """Weighted moves from the position (``player`` to move) to the end of the game; the board is changed.

    Returns the result: 1 or 2 for a win, 3 for a draw.
    """
    cnt = board.cnt
    while True:
        if cnt[player - 1, F5] > 0:
            return player
        m = _candidates(board, player, moves, worth)
        if m == 0:
            return 3
        move = moves[_pick(rng, worth, m)]
        _place(board, move, player)
        player = 3 - player


# The pattern policy: the state is the board's changing arrays, the data the ones it only reads.
_PATTERN_STATE = types.Tuple(BOARD.types[:CHANGING])
"""``(cells, keys, pat, near, cnt, tot, hsh)`` of a pattern board."""
_PATTERN_DATA = types.Tuple(BOARD.types[CHANGING:])
"""``(nbr, tables, weights, zob)`` of a pattern board."""


@kernel(_PATTERN_STATE(_PATTERN_STATE))
def _patterns_fresh(root):
    cells, keys, pat, near, cnt, tot, hsh = root
    return (cells.copy(), keys.copy(), pat.copy(), near.copy(), cnt.copy(), tot.copy(), hsh.copy())


@kernel(types.void(_PATTERN_STATE, _PATTERN_STATE))
def _patterns_reset(state, root):
    state[0][:] = root[0]
    state[1][:] = root[1]
    state[2][:, :] = root[2]
    state[3][:] = root[3]
    state[4][:, :] = root[4]
    state[5][:] = root[5]
    state[6][:] = root[6]


@kernel(BOARD(_PATTERN_STATE, _PATTERN_DATA), inline=True)
def _board(state, data):
    """The pattern board of the changing arrays ``state`` and the read-only ``data``."""
    cells, keys, pat, near, cnt, tot, hsh = state
    nbr, tables, weights, zob = data
    return BoardArrays(cells, keys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob)


@kernel(types.int64(_PATTERN_STATE, _PATTERN_DATA, types.int64, *_MOVES))
def _patterns_expand(state, data, player, moves, worth):
    return _candidates(_board(state, data), player, moves, worth)


@kernel(types.boolean(_PATTERN_STATE, _PATTERN_DATA, types.int64, types.int64, types.boolean))
def _patterns_play(state, data, move, player, look):
    board = _board(state, data)
    won = _has(board.pat, player - 1, move, F5, F5)
    _place(board, move, player)
    return won


@kernel(types.int64(_PATTERN_STATE, _PATTERN_DATA, types.int64, types.uint64[::1], *_MOVES))
def _patterns_playout(state, data, player, rng, moves, worth):
    return _playout(_board(state, data), player, rng, moves, worth)


PATTERNS = Policy("patterns", _PATTERN_STATE, _PATTERN_DATA, _patterns_fresh, _patterns_reset, _patterns_expand,
                  _patterns_play, _patterns_playout, priors=True)  # fmt: skip
"""PUCT over the pattern moves and their priors, with weighted playouts (state and data: a pattern board's arrays)."""

_iterate_patterns = iterate_kernel(PATTERNS)
