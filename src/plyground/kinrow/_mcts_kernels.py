"""Numba kernels of Monte Carlo tree search for k-in-a-row, with statistics shared by symmetric positions.

The search is written once, :func:`_iterate`, and compiled for each :class:`Policy` (what it
knows of the game: its moves and their priors, how a stone is played, how a game is played
out) by :func:`iterate_kernel`. Two policies: :data:`PLAIN` here (UCT over every empty cell,
uniformly random playouts) and ``PATTERNS`` in :mod:`plyground.kinrow._mcts_pattern_kernels`
(PUCT over the moves of a pattern board, weighted playouts).

The tree is a set of flat arrays (one entry per node: its move, its children's block, its
result if the game ends there, its statistics slot, its prior); a node's children are its
moves, created together when the node is first expanded, each looked up in the table
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

import functools
import math
from typing import Any, NamedTuple

import numpy as np
from numba import types

from plyground._jit import copy_template, kernel
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


class Policy(NamedTuple):
    """What a search needs to know of the game, as kernels: the one :func:`_iterate` runs on any of them.

    ``state`` is a tuple of arrays (the position the kernels change) and ``data`` a tuple of what
    they only read; ``state_type`` and ``data_type`` are their numba types. The kernels:

    * ``fresh(root) -> state``: a copy of the root's state to work on;
    * ``reset(state, root)``: the root's state copied into ``state``;
    * ``expand(state, data, player, moves, worth) -> m``: the ``m`` moves of ``player`` into
      ``moves`` (int64 ``[n*n]``) and, when ``priors``, their weights into ``worth`` (the
      children's priors are the weights over their sum);
    * ``play(state, data, move, player, look) -> won``: ``player``'s stone on ``move``; when
      ``look`` (the position is met for the first time), whether the move wins;
    * ``playout(state, data, player, rng, moves, worth) -> result``: a game played out to its
      end, ``player`` to move (1 or 2 for a win, 3 for a draw); ``moves`` and ``worth`` are
      scratch arrays.

    ``priors`` picks the selection: PUCT over the children's priors, or plain UCT (the priors
    are not computed).
    """

    name: str
    state_type: Any
    data_type: Any
    fresh: Any
    reset: Any
    expand: Any
    play: Any
    playout: Any
    priors: bool


# The search, written once: a template, compiled by ``iterate_kernel`` with the names in
# capitals bound to one policy's kernels.
_FRESH: Any = None
_RESET: Any = None
_EXPAND: Any = None
_PLAY: Any = None
_PLAYOUT: Any = None
PRIORS = False


def _iterate(
    root,
    data,
    root_hashes,
    n,
    root_player,
    iterations,
    perm,
    zob,
    c,
    symmetry,
    max_nodes,
    tree,
    rng,
    stop,
):
    """Run up to ``iterations`` iterations from the root (node 0); returns how many ran.

    The template of every search: :func:`iterate_kernel` compiles a copy of it for a
    :class:`Policy` (``_FRESH``, ``_RESET``, ``_EXPAND``, ``_PLAY``, ``_PLAYOUT`` and ``PRIORS``
    bound to the policy's). ``root`` is the policy's state of the position, ``data`` what its
    kernels read; ``root_hashes`` its 8 symmetric keys (``zob``/``perm``); ``tree`` the tree's and
    the position table's arrays (:class:`TreeArrays`).

    ``sizes`` holds [nodes used, table slots used]; the run stops early when another
    expansion might not fit in ``max_nodes`` nodes or would fill the table past half, and
    after any iteration that finds ``stop[0]`` set.
    Each iteration: select a child (``c`` the exploration constant) until a position met for
    the first time or the end of the game, expand a leaf's moves (with ``PRIORS``, each with
    its prior in ``node_prior``), play a game out from the first new position, and add the
    result to every position on the path. Selection is PUCT with ``PRIORS``: the child with the
    best ``q + c * prior * sqrt(parent visits) / (1 + visits)``, ``q`` its win rate for the
    player choosing, or for a child never visited the parent's own value (first-play urgency).
    Without, UCT: ``wins / visits + c * sqrt(ln(parent visits) / visits)``, a child not looked at
    yet or never visited first, the first in move order.
    """
    node_move, node_first, node_count, node_result, node_slot, node_key, node_prior, keys, visits, wins, sizes = tree
    size = n * n
    state = _FRESH(root)
    hashes = root_hashes.copy()
    path = np.empty(size + 2, dtype=np.int64)
    moves = np.empty(size, dtype=np.int64)
    worth = np.empty(size, dtype=np.int64)
    stones0 = 0
    for i in range(size):
        if root[0][i] != 0:
            stones0 += 1
    done = 0
    while done < iterations:
        if sizes[0] + size > max_nodes or 2 * (sizes[1] + size + 2) > keys.shape[0]:
            break
        _RESET(state, root)
        hashes[:] = root_hashes
        node = 0
        player = root_player  # to move at ``node``
        stones = stones0
        depth = 0
        path[0] = 0
        result = node_result[0]
        while result == 0:
            if node_count[node] == 0:  # a leaf: its children are its moves, looked at when first chosen
                if sizes[0] + size > max_nodes:
                    break  # no room to grow the tree in this run: play out from here
                m = _EXPAND(state, data, player, moves, worth)
                first = sizes[0]
                total = 0.0
                if PRIORS:
                    for j in range(m):
                        total += worth[j]
                for j in range(m):
                    node_move[first + j] = moves[j]
                    node_first[first + j] = 0
                    node_count[first + j] = 0
                    node_slot[first + j] = -1
                    if PRIORS:
                        node_prior[first + j] = worth[j] / total
                node_first[node] = first
                node_count[node] = m
                sizes[0] += m
            parent_visits = visits[node_slot[node]]
            best = -1
            best_score = -1.0
            if PRIORS:  # PUCT; a child never visited is worth the parent's value
                if parent_visits > 0.0:
                    fpu = 1.0 - wins[node_slot[node]] / parent_visits
                else:
                    fpu = 0.5
                explore = c * math.sqrt(parent_visits if parent_visits > 1.0 else 1.0)
                for j in range(node_count[node]):
                    child = node_first[node] + j
                    slot = node_slot[child]
                    v = visits[slot] if slot >= 0 else 0.0
                    q = wins[slot] / v if v > 0.0 else fpu
                    score = q + explore * node_prior[child] / (1.0 + v)
                    if score > best_score:
                        best_score = score
                        best = child
            else:  # UCT; a child never looked at, or never visited, first
                explore = c * math.sqrt(math.log(parent_visits if parent_visits > 1.0 else 1.0))
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
            move = np.int64(node_move[node])
            won = _PLAY(state, data, move, player, node_slot[node] < 0)
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
            result = _PLAYOUT(state, data, player, rng, moves, worth)
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


class TreeArrays(NamedTuple):
    """The arrays of a search's tree, one argument of the search: each node's move, first child, child count,
    result, table slot, key and prior; the position table's keys, visits and wins; ``sizes``, [nodes used, table
    slots used]."""

    node_move: Any
    node_first: Any
    node_count: Any
    node_result: Any
    node_slot: Any
    node_key: Any
    node_prior: Any
    keys: Any
    visits: Any
    wins: Any
    sizes: Any


TREE = types.NamedTuple(
    (
        types.int32[::1], types.int32[::1], types.int32[::1], types.int8[::1], types.int64[::1], types.uint64[::1],
        types.float64[::1], types.uint64[::1], types.float64[::1], types.float64[::1], types.int64[::1],
    ),
    TreeArrays,
)  # fmt: skip
"""The numba type of :class:`TreeArrays`."""


@functools.cache
def iterate_kernel(policy: Policy) -> Any:
    """The search (:func:`_iterate`) compiled for ``policy``: once a process, and cached on disk as the other kernels.

    The template is copied with the names in capitals bound to the policy's, under its own
    name (``_iterate_plain``, ...), so that numba caches the copy of every policy apart.
    """
    namespace = dict(globals())
    namespace.update(
        _FRESH=policy.fresh,
        _RESET=policy.reset,
        _EXPAND=policy.expand,
        _PLAY=policy.play,
        _PLAYOUT=policy.playout,
        PRIORS=policy.priors,
    )
    copy = copy_template(_iterate, namespace, f"_iterate_{policy.name}")
    signature = types.int64(
        policy.state_type, policy.data_type, types.uint64[::1], types.int64, types.int64, types.int64,
        types.int64[:, ::1], types.uint64[:, ::1], types.float64, types.boolean, types.int64, TREE, types.uint64[::1],
        types.uint8[::1],
    )  # fmt: skip
    kernels = (policy.fresh, policy.reset, policy.expand, policy.play, policy.playout)
    return kernel(signature, compiles_in=kernels)(copy)


# The plain policy: every empty cell is a move, playouts are uniformly random, wins as the rule says.
_PLAIN_STATE = types.UniTuple(types.int8[::1], 1)
"""The cells."""
_PLAIN_DATA = types.UniTuple(types.int64, 3)
"""``(n, k, rule)``: the board's side, the line to make, the ``Rule`` number (0 free-style, 1 standard)."""


@kernel(_PLAIN_STATE(_PLAIN_STATE))
def _plain_fresh(root):
    return (root[0].copy(),)


@kernel(types.void(_PLAIN_STATE, _PLAIN_STATE))
def _plain_reset(state, root):
    state[0][:] = root[0]


@kernel(types.int64(_PLAIN_STATE, _PLAIN_DATA, types.int64, types.int64[::1], types.int64[::1]))
def _plain_expand(state, data, player, moves, worth):
    cells = state[0]
    m = 0
    for move in range(cells.shape[0]):
        if cells[move] == 0:
            moves[m] = move
            m += 1
    return m


@kernel(types.boolean(_PLAIN_STATE, _PLAIN_DATA, types.int64, types.int64, types.boolean))
def _plain_play(state, data, move, player, look):
    cells = state[0]
    cells[move] = player
    if look:
        return _wins_at_rule(cells, data[0], data[1], move, player, data[2])
    return False


@kernel(types.int64(_PLAIN_STATE, _PLAIN_DATA, types.int64, types.uint64[::1], types.int64[::1], types.int64[::1]))
def _plain_playout(state, data, player, rng, moves, worth):
    return _playout(state[0], data[0], data[1], data[2], player, rng, moves)


PLAIN = Policy("plain", _PLAIN_STATE, _PLAIN_DATA, _plain_fresh, _plain_reset, _plain_expand, _plain_play,
               _plain_playout, priors=False)  # fmt: skip
"""UCT over every empty cell with uniformly random playouts (state ``(cells,)``, data ``(n, k, rule)``)."""

_iterate_plain = iterate_kernel(PLAIN)
