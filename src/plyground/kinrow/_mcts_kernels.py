"""Numba kernels of Monte Carlo tree search (UCT) for k-in-a-row, with statistics shared by symmetric positions.

The tree is a set of flat arrays (one entry per node: its move, its children's block, its
result if the game ends there, its statistics slot); a node's children are the empty
cells, created together when the node is first expanded, each looked up in the table
(key, slot, whether the game ends there) only when it is first chosen. Statistics (visits, and wins of
the player who moved into the position, a draw counting half) live in an open-addressing
table keyed by a position key: the *canonical* key (the smallest Zobrist key among the 8
symmetric images) when sharing is on, so symmetric positions anywhere in the tree pool
their statistics, or the plain key otherwise. Tree structure stays local to each node.

Randomness comes from a SplitMix64 state passed in (``rng[0]``). ``stop`` is a uint8
``[flag]`` that another thread may set: the search then ends after the iteration it is in
(it always runs at least one). Kernels do no validation; :mod:`plyground.kinrow.mcts` does.
"""

from __future__ import annotations

import math

import numpy as np

from plyground._jit import kernel
from plyground.core.splitmix import GOLDEN, MIX_1, MIX_2
from plyground.kinrow._kernels import _wins_at_rule

_INV_SQRT = 1.0 / np.sqrt(np.arange(1 << 16, dtype=np.float64).clip(1.0))  # 1/sqrt(v) for small visit counts
_EMPTY_KEY = np.uint64(0)  # no position has key 0 (the empty board's key is 0: it is stored as 1)


@kernel("u8(u8[::1])")
def _next(rng):
    """The next 64-bit number of the SplitMix64 stream whose state is ``rng[0]``."""
    rng[0] += GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * MIX_1
    z = (z ^ (z >> np.uint64(27))) * MIX_2
    return z ^ (z >> np.uint64(31))


@kernel("i8(u8[::1], i8)")
def _below(rng, n):
    """A uniform integer in [0, n)."""
    return np.int64((_next(rng) >> np.uint64(33)) * np.uint64(n) >> np.uint64(31))


@kernel("u8(u8[::1], b1)")
def _key(hashes, symmetry):
    """The statistics key of a position from its 8 symmetric Zobrist keys (never 0)."""
    key = hashes[0]
    if symmetry:
        for s in range(1, 8):
            if hashes[s] < key:
                key = hashes[s]
    return key if key != _EMPTY_KEY else np.uint64(1)


@kernel("i8(u8[::1], u8, i8[::1])")
def _slot(keys, key, sizes):
    """The table slot of ``key``, claimed if new (counted in ``sizes[1]``; the table must have room)."""
    mask = np.uint64(keys.shape[0] - 1)
    i = np.int64((key * GOLDEN) >> np.uint64(20) & mask)
    while keys[i] != key:
        if keys[i] == _EMPTY_KEY:
            keys[i] = key
            sizes[1] += 1
            return i
        i = (i + 1) & np.int64(mask)
    return i


@kernel("void(u8[::1], i8, i8, i8[:, ::1], u8[:, ::1])")
def _toggle(hashes, move, player, perm, zob):
    """Add (or take away: XOR) ``player``'s stone on ``move`` to the 8 symmetric keys."""
    for s in range(8):
        hashes[s] ^= zob[perm[s, move], player]


@kernel("void(u8[::1], f8[::1], f8[::1], u8[::1], f8[::1], f8[::1], u8[::1], i8[::1], i8)")
def _rehash(keys, visits, wins, new_keys, new_visits, new_wins, node_key, node_slot, nodes):
    """Move the table into a bigger one and point the ``nodes`` first nodes at their new slots."""
    sizes = np.zeros(2, dtype=np.int64)
    for i in range(keys.shape[0]):
        if keys[i] != _EMPTY_KEY:
            j = _slot(new_keys, keys[i], sizes)
            new_visits[j] = visits[i]
            new_wins[j] = wins[i]
    for node in range(nodes):
        if node_slot[node] >= 0:
            node_slot[node] = _slot(new_keys, node_key[node], sizes)


@kernel("i8(i1[::1], i8, i8, i8, i8, u8[::1], i8[::1])")
def _playout(cells, n, k, rule, player, rng, empties):
    """Random moves from the position (``player`` to move) to the end of the game, wins as ``rule`` says.

    Returns the result: 1 or 2 for a win, 3 for a draw. ``cells`` is changed.
    """
    count = 0
    for i in range(n * n):
        if cells[i] == 0:
            empties[count] = i
            count += 1
    while count > 0:
        j = _below(rng, count)
        move = empties[j]
        count -= 1
        empties[j] = empties[count]
        cells[move] = player
        if _wins_at_rule(cells, n, k, move, player, rule):
            return player
        player = 3 - player
    return 3


@kernel(
    "i8(i1[::1], u8[::1], i8, i8, i8, i8, i8, i8[:, ::1], u8[:, ::1], f8, b1, i8,"
    " i4[::1], i4[::1], i4[::1], i1[::1], i8[::1], u8[::1],"
    " u8[::1], f8[::1], f8[::1], i8[::1], u8[::1], u1[::1])"
)
def _iterate(
    root_cells,
    root_hashes,
    n,
    k,
    rule,
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
    keys,
    visits,
    wins,
    sizes,
    rng,
    stop,
):
    """Run up to ``iterations`` UCT iterations from the root (node 0); returns how many ran.

    ``sizes`` holds [nodes used, table slots used]; the run stops early when another
    expansion might not fit in ``max_nodes`` nodes or would fill the table past half, and
    after any iteration that finds ``stop[0]`` set. Wins follow ``rule`` (a ``Rule``
    number: 0 free-style, 1 standard).
    Each iteration: select by UCT (``c`` the exploration constant; a child not looked at
    yet or never visited first, the first in cell order), expand a leaf's empty cells,
    play a random game out from the first new position, and add the result to every
    position on the path.
    """
    cells = np.empty(n * n, dtype=np.int8)
    hashes = np.empty(8, dtype=np.uint64)
    path = np.empty(n * n + 2, dtype=np.int64)
    empties = np.empty(n * n, dtype=np.int64)
    done = 0
    while done < iterations:
        if sizes[0] + n * n > max_nodes or 2 * (sizes[1] + n * n + 2) > keys.shape[0]:
            break
        cells[:] = root_cells
        hashes[:] = root_hashes
        node = 0
        player = root_player  # to move at ``node``
        stones = 0
        for i in range(n * n):
            if cells[i] != 0:
                stones += 1
        depth = 0
        path[0] = 0
        result = node_result[0]
        while result == 0:
            if node_count[node] == 0:  # a leaf: its children are its empty cells, looked at when first chosen
                if sizes[0] + n * n > max_nodes:
                    break  # no room to grow the tree in this run: play out from here
                first = sizes[0]
                m = 0
                for move in range(n * n):
                    if cells[move] == 0:
                        node_move[first + m] = move
                        node_first[first + m] = 0
                        node_count[first + m] = 0
                        node_slot[first + m] = -1
                        m += 1
                node_first[node] = first
                node_count[node] = m
                sizes[0] += m
            # Select a child by UCT; a child never looked at, or never visited, first.
            parent_visits = visits[node_slot[node]]
            explore = c * math.sqrt(math.log(parent_visits if parent_visits > 1.0 else 1.0))
            best = -1
            best_score = -1.0
            for j in range(node_count[node]):
                child = node_first[node] + j
                if node_slot[child] < 0:
                    best = child
                    break
                v = visits[node_slot[child]]
                if v == 0.0:
                    best = child
                    break
                inv_sqrt = _INV_SQRT[np.int64(v)] if v < 65536.0 else 1.0 / math.sqrt(v)
                score = (wins[node_slot[child]] * inv_sqrt + explore) * inv_sqrt
                if score > best_score:
                    best_score = score
                    best = child
            node = best
            move = node_move[node]
            cells[move] = player
            _toggle(hashes, move, player, perm, zob)
            stones += 1
            if node_slot[node] < 0:  # first look at this child: its position's key, slot and result
                node_key[node] = _key(hashes, symmetry)
                node_slot[node] = _slot(keys, node_key[node], sizes)
                if _wins_at_rule(cells, n, k, move, player, rule):
                    node_result[node] = player
                elif stones == n * n:
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
            result = _playout(cells, n, k, rule, player, rng, empties)
        # Back up: each position scores for the player who moved into it.
        mover = 3 - root_player  # moved into the root
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
