"""Numba kernels of pattern-guided MCTS for k-in-a-row: move lists, weighted playouts and PUCT over a pattern board.

The plain kernels (:mod:`plyground.kinrow._mcts_kernels`) expand every empty cell and play
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

**Tree** (:func:`_iterate`): a node's children are its moves, each with the prior
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
from plyground.kinrow._mcts_kernels import _below, _key, _slot, _toggle
from plyground.kinrow._pattern_kernels import B4, BOARD, F4, F5, _combination, _place

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


@kernel(types.int64(*BOARD, types.int64, *_MOVES))
def _candidates(cells, keys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob, player, moves, worth):
    """Fill ``moves`` and ``worth`` with ``player``'s moves and their weights, in cell order; returns how many.

    0 only on a full board.
    """
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


@kernel(types.int64(*BOARD, types.int64, types.uint64[::1], *_MOVES))
def _playout(cells, keys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob, player, rng, moves, worth):
    """Weighted moves from the position (``player`` to move) to the end of the game; the board is changed.

    Returns the result: 1 or 2 for a win, 3 for a draw.
    """
    while True:
        if cnt[player - 1, F5] > 0:
            return player
        m = _candidates(cells, keys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob, player, moves, worth)
        if m == 0:
            return 3
        move = moves[_pick(rng, worth, m)]
        _place(cells, keys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob, move, player)
        player = 3 - player


@kernel(
    types.int64(
        *BOARD, types.uint64[::1], types.int64, types.int64, types.int64, types.int64[:, ::1], types.uint64[:, ::1],
        types.float64, types.boolean, types.int64,
        types.int32[::1], types.int32[::1], types.int32[::1], types.int8[::1], types.int64[::1], types.uint64[::1],
        types.float64[::1], types.uint64[::1], types.float64[::1], types.float64[::1], types.int64[::1],
        types.uint64[::1], types.uint8[::1],
    )
)  # fmt: skip
def _iterate(
    root_cells,
    root_keys,
    root_pat,
    root_near,
    root_cnt,
    root_tot,
    root_hsh,
    nbr,
    tables,
    weights,
    zob_board,
    root_hashes,
    n,
    root_player,
    iterations,
    perm,
    zob,
    c,
    symmetry,
    max_nodes,
    node_move,
    node_first,
    node_count,
    node_result,
    node_slot,
    node_key,
    node_prior,
    keys,
    visits,
    wins,
    sizes,
    rng,
    stop,
):
    """Run up to ``iterations`` PUCT iterations from the root (node 0) of the pattern board; returns how many ran.

    The arrays are those of :func:`plyground.kinrow._mcts_kernels._iterate`, with
    ``node_prior`` (each child's prior) and the root's pattern board in place of its
    cells; ``zob_board`` is the board's Zobrist table, ``zob``/``perm`` the symmetric keys'.
    The run stops early as that kernel does (arrays full, or ``stop[0]`` set).
    Each iteration: select by PUCT (``c`` weighs the priors), expand a leaf's moves, play a
    weighted game out from the first new position, and add the result to every position on the path.
    """
    size = n * n
    cells = root_cells.copy()
    bkeys = root_keys.copy()
    pat = root_pat.copy()
    near = root_near.copy()
    cnt = root_cnt.copy()
    tot = root_tot.copy()
    hsh = root_hsh.copy()
    hashes = root_hashes.copy()
    path = np.empty(size + 2, dtype=np.int64)
    moves = np.empty(size, dtype=np.int64)
    worth = np.empty(size, dtype=np.int64)
    stones0 = 0
    for i in range(size):
        if root_cells[i] != 0:
            stones0 += 1
    done = 0
    while done < iterations:
        if sizes[0] + size > max_nodes or 2 * (sizes[1] + size + 2) > keys.shape[0]:
            break
        cells[:] = root_cells
        bkeys[:] = root_keys
        pat[:, :] = root_pat
        near[:] = root_near
        cnt[:, :] = root_cnt
        tot[:] = root_tot
        hsh[:] = root_hsh
        hashes[:] = root_hashes
        node = 0
        player = root_player  # to move at ``node``
        stones = stones0
        depth = 0
        path[0] = 0
        result = node_result[0]
        while result == 0:
            if node_count[node] == 0:  # a leaf: its children are its moves, with their priors
                if sizes[0] + size > max_nodes:
                    break  # no room to grow the tree in this run: play out from here
                m = _candidates(cells, bkeys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob_board, player,
                                moves, worth)  # fmt: skip
                total = 0.0
                for j in range(m):
                    total += worth[j]
                first = sizes[0]
                for j in range(m):
                    node_move[first + j] = moves[j]
                    node_first[first + j] = 0
                    node_count[first + j] = 0
                    node_slot[first + j] = -1
                    node_prior[first + j] = worth[j] / total
                node_first[node] = first
                node_count[node] = m
                sizes[0] += m
            # Select a child by PUCT; a child never visited is worth the parent's value.
            parent_visits = visits[node_slot[node]]
            if parent_visits > 0.0:
                fpu = 1.0 - wins[node_slot[node]] / parent_visits
            else:
                fpu = 0.5
            explore = c * math.sqrt(parent_visits if parent_visits > 1.0 else 1.0)
            best = -1
            best_score = -1.0
            for j in range(node_count[node]):
                child = node_first[node] + j
                slot = node_slot[child]
                v = visits[slot] if slot >= 0 else 0.0
                q = wins[slot] / v if v > 0.0 else fpu
                score = q + explore * node_prior[child] / (1.0 + v)
                if score > best_score:
                    best_score = score
                    best = child
            node = best
            move = np.int64(node_move[node])
            won = _has(pat, player - 1, move, F5, F5)
            _place(cells, bkeys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob_board, move, player)
            _toggle(hashes, move, player, perm, zob)
            stones += 1
            if node_slot[node] < 0:  # first look at this child: its position's key, slot and result
                node_key[node] = _key(hashes, symmetry)
                node_slot[node] = _slot(keys, node_key[node], sizes)
                if won:
                    node_result[node] = player
                elif stones == size:
                    node_result[node] = 3
                else:
                    node_result[node] = 0
            player = 3 - player
            depth += 1
            path[depth] = node
            result = node_result[node]
            if visits[node_slot[node]] == 0.0:  # a new position: play it out from here
                break
        if result == 0:
            result = _playout(cells, bkeys, pat, near, cnt, tot, hsh, nbr, tables, weights, zob_board, player, rng,
                              moves, worth)  # fmt: skip
        # Back up: each position scores for the player who moved into it.
        mover = 3 - root_player
        for d in range(depth + 1):
            slot = node_slot[path[d]]
            visits[slot] += 1.0
            if result == mover:
                wins[slot] += 1.0
            elif result == 3:
                wins[slot] += 0.5
            mover = 3 - mover
        done += 1
        if stop[0]:
            break
    return done
