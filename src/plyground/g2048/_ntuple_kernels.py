"""Numba kernels of the n-tuple network: evaluation, update, TD learning and greedy play.

A network is two arrays built by :mod:`plyground.g2048.ntuple` (``tuples.lookup_layout``):

* ``weights`` - float32, the tables of all tuples one after the other; the table of a
  tuple of ``k`` cells has ``R**k`` entries, ``R`` the *radix* (16: a cell holds an
  exponent 0..15). The index into a table puts the exponents of the tuple's cells
  together, **the first cell least significant**: ``e_1 + R*e_2 + ... + R**(k-1)*e_k``.
* ``lookups`` - int64 of shape ``(n_lookups, RADIX + 1)``, one row per
  symmetric image of each tuple, ordered by symmetry (in the order of
  ``core.symmetry.SYMMETRIES``), then by tuple: ``[offset, symmetry, n_runs, (shift,
  mask, to) * n_runs, zeros...]`` (an unused run has mask 0). ``offset`` is where the tuple's table starts in
  ``weights``. The lookup reads the tuple's cells from the board moved by ``symmetry``
  (``ntuple.tuples._images``), which is the same as reading the image of the tuple under the
  inverse symmetry from the board itself. In radix 16 the cells are read as *runs*: cells
  that follow each other both in the tuple and in the bitboard are one run, so the index is
  ``sum(((image >> shift) & mask) << to)`` over the runs (the default 4×4 tuples need
  one or two runs each; the first run's ``to`` is 0). A board smaller than 4×4 cannot
  hold every tile (its largest is ``2**(cells + 1)``), so its network takes the radix
  ``cells + 2`` and tables of ``R**k`` entries instead of ``16**k`` (a 3×3 7-tuple:
  19 M weights instead of 268 M); then every cell is a run of its own and ``to`` is its
  weight ``R**i`` (:func:`_compact_indices`). Columns ``STRIDE`` and ``STAGE_OFFSETS`` on
  describe the *stages*, column ``RADIX`` the radix (the same in every row; see below).

A network of several *stages* (multi-stage, Yeh et al. 2016; Jaśkowski 2018) holds one
set of tables per stage, stage after stage, ``lookups[0, STRIDE]`` weights apart; the
stage of a board depends on its largest exponent ``e``, and its lookups read the tables
``lookups[0, STAGE_OFFSETS + e]`` weights on (0 for every ``e`` in a network of one
stage, whose ``STRIDE`` is the size of all its tables). *Weight promotion*: a weight of a
later stage that is still exactly 0 stands for the weight at the same place in the stage
before it (recursively), both when read and when updated, so that a stage starts as a
copy of the one before it, weight by weight, as it is first used.

The value of a board is the sum, in float64 and in ``lookups`` order, of the weight of
every lookup. An update by ``delta`` adds ``delta`` to the weight of every lookup (twice
to a weight that two lookups share), rounding the result to float32.

Learning is afterstate TD(0) (Szubert & Jaśkowski 2014): at each state the move with
the largest ``points + V(afterstate)`` is played (ties go to the first of up, right,
down, left), then the previous afterstate moves towards the new target:
``V(prev) += alpha * (points + V(after) - V(prev))``, with ``V(after)`` as it was when
the move was chosen and ``V(prev)`` read afresh; at the end of a game the last afterstate
moves towards 0. ``alpha`` is the step of the board's value: each of the ``n_lookups``
weights moves by ``alpha / n_lookups * error``. With temporal coherence (TC, Jaśkowski
2018) every weight ``i`` keeps the sums ``E_i`` of its errors and ``A_i`` of their absolute
values (float32), and moves by ``alpha / n_lookups * |E_i| / A_i * error``
(``|E_i| / A_i`` is 1 while ``A_i`` is 0); ``E_i`` and ``A_i`` are updated after the
weight, lookup by lookup. They lie side by side in one float32 array ``sums``: ``E_i`` at
``2 * i`` and ``A_i`` at ``2 * i + 1``, so that an update reads both with one cache miss.

TD(lambda) delays each update by ``horizon`` moves (``horizon`` 1 is the TD(0) above):
the kept afterstates wait in a ring, with the ``points + V`` and the ``V`` of their
moves as valued when chosen; ``horizon`` moves on, the oldest moves towards its
truncated lambda-return (:func:`_lambda_return`), with ``V(prev)`` read afresh as in
TD(0). At the end of a game the waiting afterstates move, oldest first, towards their
returns truncated at the end (the last one towards 0).

*Restarts* spend more of the learning on the late game, which greedy play rarely reaches
(Matsuzaki 2017 restarts training games from their later states; this is one such
scheme): when a game ends after ``T`` moves, the learner starts again from the state
before move ``T // 2`` (with the game's score there), plays that episode out with fresh
spawns (ending at move ``T'``), then starts again from move ``(T // 2 + T') // 2``, and
so on, each restart halfway between the last one and the end of the last episode, until
``restarts`` of them are played or an episode lasted one move or none. Every episode
learns as a game does (its waiting afterstates end in 0).

*Expected updates* (:func:`_learn_expected`) replace the sampled target by its expectation
and update every move, not only the one played: at each state of a greedy game, the
afterstate of every legal move moves towards the expected ``points + V`` of the greedy
move after each possible spawn (weighted by its probability; 0 where no move is left).
This is value iteration along the states greedy play visits (real-time dynamic
programming, Barto, Bradtke & Singh 1995) with the network as the table. A move never
played is still corrected, so greedy play needs no optimistic values to explore; each
move costs about ``8 * empty cells`` greedy choices more, which suits small boards.

For speed, the kernels first compute the indices of every candidate afterstate (pure
arithmetic), asking the processor to prefetch each candidate's weights as soon as its
indices are known; then they read the weights. The reads, mostly cache misses into tables
of hundreds of megabytes, then overlap each other and the arithmetic of the next
candidates (reading each weight as soon as its index is known was about 1.6 times as
slow). The indices of the chosen afterstate are kept for its TD update one move later
(with TC, its sums are prefetched meanwhile).

Randomness is a splitmix64 stream whose state lives in a one-element uint64 array owned
by the caller, so that it carries on from one call to the next. A game starts with two
spawns; every move is followed by one.

Kernels do no validation; :mod:`plyground.g2048.ntuple` does. The slow twins are in
``tests/naive/ntuple.py``.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel, prefetch
from plyground.core.splitmix import GOLDEN
from plyground.g2048._kernels import _empty_bits, _mix64, _move, _points, _spawn_with, _transpose

OFFSET, SYMMETRY, N_RUNS, FIRST_RUN = 0, 1, 2, 3
"""Columns of a row of ``lookups``; a run takes three columns (shift, mask, to) from ``FIRST_RUN`` on."""
MAX_RUNS = 8
"""The most runs a lookup may have (one per cell of the longest tuple)."""
STRIDE = FIRST_RUN + 3 * MAX_RUNS
"""Column of ``lookups``: the weights of one stage."""
STAGE_OFFSETS = STRIDE + 1
"""Columns of ``lookups``: from here on, where the tables of a board of largest exponent 0..15 start."""
RADIX = STAGE_OFFSETS + 16
"""Column of ``lookups``: the radix of the table indices (16, or fewer on a board too small for large tiles)."""

RESTART_HISTORY = 1 << 17
"""The moves of a game a restart can start from (later ones are not kept)."""

_NIBBLE = np.uint64(0xF)
# Masks of the cells by column (for the left-right mirror) and of the rows (for the up-down one).
_COL_0 = np.uint64(0x000F000F000F000F)
_COL_1 = np.uint64(0x00F000F000F000F0)
_COL_2 = np.uint64(0x0F000F000F000F00)
_COL_3 = np.uint64(0xF000F000F000F000)
_ROW_1 = np.uint64(0x00000000FFFF0000)
_ROW_2 = np.uint64(0x0000FFFF00000000)

_NETWORK = "f4[::1], i8[:, ::1]"
_TC = "b1, f4[::1]"
_LAMBDA = "f8, i8"
_RESULTS = "u8[::1], i8[::1], i8[::1], i8[::1]"


@kernel("u8(u8, i8)")
def _mirror_left_right(b, cols):
    """Cell (r, c) -> cell (r, cols - 1 - c)."""
    m = (
        ((b & _COL_0) << np.uint64(12))
        | ((b & _COL_1) << np.uint64(4))
        | ((b & _COL_2) >> np.uint64(4))
        | ((b & _COL_3) >> np.uint64(12))
    )
    return m >> np.uint64(4 * (4 - cols))  # the empty columns beyond the board come first: drop them


@kernel("u8(u8, i8)")
def _mirror_up_down(b, rows):
    """Cell (r, c) -> cell (rows - 1 - r, c)."""
    m = (b << np.uint64(48)) | ((b & _ROW_1) << np.uint64(16)) | ((b & _ROW_2) >> np.uint64(16)) | (b >> np.uint64(48))
    return m >> np.uint64(16 * (4 - rows))


@kernel("UniTuple(u8, 8)(u8, i8, i8)")
def _images(b, rows, cols):
    """The board moved by each symmetry of ``core.symmetry.SYMMETRIES``.

    On a rectangle (rows != cols) only identity, rotate 180 and the two mirrors (0, 2,
    4 and 5) map the board onto itself; the board itself stands in for the others.
    """
    lr = _mirror_left_right(b, cols)
    ud = _mirror_up_down(b, rows)
    half = _mirror_left_right(ud, cols)
    if rows != cols:
        return b, b, half, b, lr, ud, b, b
    t = _transpose(b)  # (r, c) -> (c, r)
    t_ud = _mirror_up_down(t, rows)  # (r, c) -> (n-1-c, r): rotate 270
    return b, _mirror_left_right(t, cols), half, t_ud, lr, ud, t, _mirror_left_right(t_ud, cols)


@kernel("i8(u8)")
def _top(b):
    """The largest exponent of ``b`` (0 for an empty board)."""
    top = np.uint64(0)
    for i in range(16):
        top = max(top, (b >> np.uint64(4 * i)) & _NIBBLE)
    return np.int64(top)


@kernel("u8(u8, i8, i8)")
def _downgrade(b, from_exponent, lowest_gap):
    """``b`` with its tiles above its highest missing exponent halved (tile-downgrading).

    Only when the largest exponent is at least ``from_exponent``: the highest exponent
    below it that no tile has, if it is at least ``lowest_gap``, is the gap; every tile
    above it drops one exponent. No two tiles become equal that were not, so the same
    moves are legal and merge the same tiles. ``b`` itself when there is no such gap, and
    when it has two 32768s (which never merge; halved, they would).
    """
    top = _top(b)
    if top < from_exponent:
        return b
    present = 0
    tops = 0
    for i in range(16):
        e = np.int64((b >> np.uint64(4 * i)) & _NIBBLE)
        present |= 1 << e
        tops += e == 15
    if tops > 1:
        return b
    gap = top - 1
    while gap >= lowest_gap and (present >> gap) & 1:
        gap -= 1
    if gap < lowest_gap:
        return b
    out = b
    for i in range(16):
        if np.int64((b >> np.uint64(4 * i)) & _NIBBLE) > gap:
            out -= np.uint64(1) << np.uint64(4 * i)
    return out


@kernel("void(UniTuple(u8, 8), i8[:, ::1], i8[::1], i8, i8, i8)")
def _compact_indices(images, lookups, out, base, stage, radix):
    """:func:`_indices` in a radix below 16: one run per cell, ``to`` its weight ``radix**i``.

    An exponent the radix cannot hold (a tile no game on the board reaches) reads as ``radix - 1``.
    """
    n = lookups.shape[0]
    top = np.uint64(radix - 1)
    j = 0
    for s in range(8):
        image = images[s]
        while j < n and lookups[j, SYMMETRY] == s:
            index = np.int64(0)
            for k in range(FIRST_RUN, FIRST_RUN + 3 * lookups[j, N_RUNS], 3):
                e = min((image >> np.uint64(lookups[j, k])) & _NIBBLE, top)
                index += np.int64(e) * lookups[j, k + 2]
            out[base + j] = lookups[j, OFFSET] + stage + index
            j += 1


@kernel("void(u8, i8, i8, i8[:, ::1], i8[::1], i8)")
def _indices(b, rows, cols, lookups, out, base):
    """Write the position in ``weights`` of each lookup of board ``b`` to ``out[base:]``.

    The lookups come symmetry by symmetry, so each image is taken once for a block of
    lookups; the first two runs are read without a loop (an unused run has mask 0).
    """
    images = _images(b, rows, cols)
    n = lookups.shape[0]
    stage = lookups[0, STAGE_OFFSETS + 15]  # the last stage's offset: 0 when there is one stage
    if stage != 0:
        stage = lookups[0, STAGE_OFFSETS + _top(b)]
    radix = lookups[0, RADIX]
    if radix != 16:
        _compact_indices(images, lookups, out, base, stage, radix)
        return
    j = 0
    for s in range(8):
        image = images[s]
        while j < n and lookups[j, SYMMETRY] == s:
            first = (image >> np.uint64(lookups[j, FIRST_RUN])) & np.uint64(lookups[j, FIRST_RUN + 1])  # to 0
            second = (image >> np.uint64(lookups[j, FIRST_RUN + 3])) & np.uint64(lookups[j, FIRST_RUN + 4])
            index = first | (second << np.uint64(lookups[j, FIRST_RUN + 5]))
            for k in range(FIRST_RUN + 6, FIRST_RUN + 3 * lookups[j, N_RUNS], 3):
                run = (image >> np.uint64(lookups[j, k])) & np.uint64(lookups[j, k + 1])
                index |= run << np.uint64(lookups[j, k + 2])
            out[base + j] = lookups[j, OFFSET] + stage + np.int64(index)
            j += 1


@kernel("void(f4[::1], i8[::1], i8, i8, i8)")
def _prefetch(array, positions, base, n, scale):
    """Start loading ``array[scale * p]`` into the cache for each ``p`` in ``positions[base:base + n]``.

    Scale 1 loads the weights at those positions, scale 2 their TC sums.
    """
    for j in range(base, base + n):
        prefetch(array, scale * positions[j])


@kernel("f4(f4[::1], i8, i8)")
def _weight(weights, i, stride):
    """The weight at ``i``, promoted: while it is 0 in a stage after the first, the one a stage before."""
    w = weights[i]
    while w == 0.0 and i >= stride:
        i -= stride
        w = weights[i]
    return w


@kernel("f8(f4[::1], i8[::1], i8, i8, i8)")
def _sum(weights, positions, base, n, stride):
    """The sum (float64, in order) of the (promoted) weights at ``positions[base:base + n]``."""
    total = 0.0
    for j in range(base, base + n):
        total += np.float64(_weight(weights, positions[j], stride))
    return total


@kernel(f"f8(u8, i8, i8, {_NETWORK})")
def _value(b, rows, cols, weights, lookups):
    """The value of board ``b``: the sum of the weights of all its lookups."""
    positions = np.empty(lookups.shape[0], dtype=np.int64)
    _indices(b, rows, cols, lookups, positions, 0)
    return _sum(weights, positions, 0, lookups.shape[0], lookups[0, STRIDE])


@kernel(f"void(u8, i8, i8, {_NETWORK}, f8)")
def _update(b, rows, cols, weights, lookups, delta):
    """Add ``delta`` to the (promoted) weight of every lookup of board ``b``."""
    positions = np.empty(lookups.shape[0], dtype=np.int64)
    _indices(b, rows, cols, lookups, positions, 0)
    stride = lookups[0, STRIDE]
    for i in positions:
        weights[i] = np.float32(np.float64(_weight(weights, i, stride)) + delta)


@kernel(f"f8(f4[::1], i8[::1], i8, i8, i8, f8, f8, {_TC})")
def _td_update(weights, positions, base, n, stride, target, alpha, tc, sums):
    """Move the value given by the weights at ``positions[base:base + n]`` towards ``target``; return the error.

    A weight still 0 in a later stage is promoted (it starts from the weight a stage
    before); its TC sums start from 0.
    """
    error = target - _sum(weights, positions, base, n, stride)
    step = alpha / n
    if not tc:
        delta = step * error
        for j in range(base, base + n):
            i = positions[j]
            weights[i] = np.float32(np.float64(_weight(weights, i, stride)) + delta)
        return error
    for j in range(base, base + n):
        i = positions[j]
        e_sum = np.float64(sums[2 * i])
        a_sum = np.float64(sums[2 * i + 1])
        rate = abs(e_sum) / a_sum if a_sum > 0.0 else 1.0
        weights[i] = np.float32(np.float64(_weight(weights, i, stride)) + step * rate * error)
        sums[2 * i] = np.float32(e_sum + error)
        sums[2 * i + 1] = np.float32(a_sum + abs(error))
    return error


@kernel(f"Tuple((i8, i8, f8))(u8, i8, i8, {_NETWORK}, i8[::1], u8[::1], i8[::1])")
def _candidates(b, rows, cols, weights, lookups, positions, afters, points):
    """The legal moves of ``b`` and the greedy choice among them.

    Candidate ``i`` (legal moves in the order up, right, down, left) gets its afterstate
    in ``afters[i]``, its points in ``points[i]`` and its lookups' positions in
    ``positions[i * n_lookups:]``. Returns ``(count, best, points + V(afterstate) of the
    best)``: the first candidate of largest value; ``best`` is -1 when no move is legal.
    """
    n = lookups.shape[0]
    count = 0
    for d in range(4):
        after = _move(b, d, rows, cols)
        if after != b:
            afters[count] = after
            points[count] = _points(b, d, rows, cols)
            _indices(after, rows, cols, lookups, positions, count * n)
            _prefetch(weights, positions, count * n, n, 1)  # loads while the next candidates are computed
            count += 1
    best = -1
    best_value = 0.0
    stride = lookups[0, STRIDE]
    for i in range(count):
        value = points[i] + _sum(weights, positions, i * n, n, stride)
        if best < 0 or value > best_value:
            best, best_value = i, value
    return count, best, best_value


@kernel("i8(u8)")
def _max_tile(b):
    """The largest tile value of ``b`` (0 for an empty board)."""
    top = _top(b)
    return 0 if top == 0 else 1 << top


@kernel("u8(u8, u8, i8, i8)")
def _new_game(state, threshold, rows, cols):
    """The board after the two opening spawns drawn with ``state + golden`` and ``state + 2 * golden``."""
    b = _spawn_with(np.uint64(0), _mix64(state + GOLDEN), threshold, rows, cols)
    return _spawn_with(b, _mix64(state + GOLDEN + GOLDEN), threshold, rows, cols)


@kernel("f8(f8[::1], f8[::1], i8, i8, f8, f8)")
def _lambda_return(targets, values, slot, steps, lam, last):
    """The truncated lambda-return of the waiting afterstate in ``slot``, ``steps`` moves after it was chosen.

    ``targets`` and ``values`` (rings of the same length) hold, for each waiting afterstate,
    the ``points + V`` and the ``V`` of its move as valued when it was chosen; ``last`` is
    the target of the move ``steps`` after (0 at the end of a game). From that target
    back to the afterstate that follows ``slot``: ``ret = (target - lam * V) + lam * ret``,
    i.e. ``points + (1 - lam) * V + lam * ret``; with ``steps`` 1 the return is ``last``.
    """
    h = targets.shape[0]
    ret = last
    for k in range(steps - 1, 0, -1):
        j = (slot + k) % h
        ret = (targets[j] - lam * values[j]) + lam * ret
    return ret


@kernel(f"i8(i8, i8, i8, u8, {_NETWORK}, f8, {_TC}, {_LAMBDA}, i8, {_RESULTS})")
def _learn(
    n_games, rows, cols, threshold, weights, lookups, alpha, tc, sums, lam, horizon, restarts, rng, scores,
    tiles, moves,
):  # fmt: skip
    """Play and learn from ``n_games`` games (afterstate TD); fill the per-game results; return the moves played.

    Each afterstate waits ``horizon`` moves for its update (towards its truncated
    lambda-return); with ``horizon`` 1 this is TD(0), whatever ``lam``.

    After each game, up to ``restarts`` more episodes start again from the middle of the
    last one: from the state halfway (rounded down) between the move the last episode
    started from and the move it ended at, with the score the game had there, so that
    each restart lies later in the game (see the module). The results are those of the
    fresh games; the moves returned count the restarts' too.
    """
    n = lookups.shape[0]
    stride = lookups[0, STRIDE]
    h = horizon
    positions = np.empty((4 + h) * n, dtype=np.int64)  # four candidates, then the ring of waiting afterstates
    targets = np.empty(h, dtype=np.float64)  # points + V of each waiting afterstate, as valued when chosen
    values = np.empty(h, dtype=np.float64)  # its V
    afters = np.empty(4, dtype=np.uint64)
    points = np.empty(4, dtype=np.int64)
    cap = RESTART_HISTORY if restarts > 0 else 0
    history = np.empty(cap, dtype=np.uint64)  # the state before each move of the game, for the restarts
    history_scores = np.empty(cap, dtype=np.int64)  # and the score then
    state = rng[0]
    total = 0
    for g in range(n_games):
        b = _new_game(state, threshold, rows, cols)
        state += GOLDEN + GOLDEN
        score = 0
        first = 0  # the move this episode starts from
        for episode in range(restarts + 1):
            played = first
            while True:
                if played < cap:
                    history[played] = b
                    history_scores[played] = score
                _, best, target = _candidates(b, rows, cols, weights, lookups, positions, afters, points)
                if best < 0:
                    break
                slot = played % h
                if played - first >= h:  # the afterstate chosen h moves ago has its return: update it, free its slot
                    ret = _lambda_return(targets, values, slot, h, lam, target)
                    _td_update(weights, positions, (4 + slot) * n, n, stride, ret, alpha, tc, sums)
                positions[(4 + slot) * n : (5 + slot) * n] = positions[best * n : (best + 1) * n]
                targets[slot] = target
                values[slot] = target - points[best]
                following = (4 + (played + 1) % h) * n  # the afterstate updated at the next move: load it meanwhile
                if h > 1:
                    _prefetch(weights, positions, following, n, 1)
                if tc:
                    _prefetch(sums, positions, following, n, 2)
                score += points[best]
                played += 1
                state += GOLDEN
                b = _spawn_with(afters[best], _mix64(state), threshold, rows, cols)
            for j in range(max(first, played - h), played):  # the waiting afterstates, oldest first: ends in 0
                slot = j % h
                ret = _lambda_return(targets, values, slot, played - j, lam, 0.0)
                _td_update(weights, positions, (4 + slot) * n, n, stride, ret, alpha, tc, sums)
            total += played - first
            if episode == 0:
                scores[g] = score
                tiles[g] = _max_tile(b)
                moves[g] = played
            restart = (first + played) // 2
            if restart == first or restart >= cap:  # too short an episode to restart within, or past the history
                break
            first = restart
            b = history[restart]
            score = history_scores[restart]
    rng[0] = state
    return total


@kernel(f"f8(u8, i8, i8, f8, {_NETWORK}, i8[::1], u8[::1], i8[::1])")
def _expected_target(after, rows, cols, p_four, weights, lookups, positions, afters, points):
    """The expected ``points + V`` of the greedy move after every spawn on ``after`` (0 where no move is left).

    The chance node of depth 1 of the search with a network (``_search_kernels._chance``,
    without its table, which would keep values the learning has since changed): cell by
    cell in reading order, ``(1 - p_four) * best(2 there) + p_four * best(4 there)``, the
    sum divided by the number of empty cells (0 on a full board). ``positions``, ``afters``
    and ``points`` are scratch space for :func:`_candidates`.
    """
    empty = _empty_bits(after, rows, cols)
    total = 0.0
    cells = 0
    while empty != np.uint64(0):
        cell = empty & (~empty + np.uint64(1))  # the lowest empty cell (its exponent's low bit)
        empty ^= cell
        cells += 1
        count, _, two = _candidates(after | cell, rows, cols, weights, lookups, positions, afters, points)
        two = two if count > 0 else 0.0
        count, _, four = _candidates(after | (cell + cell), rows, cols, weights, lookups, positions, afters, points)
        four = four if count > 0 else 0.0
        total += (1.0 - p_four) * two + p_four * four
    return total / cells if cells > 0 else 0.0


@kernel(f"i8(i8, i8, i8, u8, {_NETWORK}, b1, f8, f8, {_TC}, {_RESULTS})")
def _greedy_games(
    n_games, rows, cols, threshold, weights, lookups, expected, p_four, alpha, tc, sums, rng, scores, tiles, moves
):  # fmt: skip
    """Play ``n_games`` games by the greedy move; fill the per-game results; return the moves played.

    With ``expected``, learn by expected updates: at each state, once the greedy move is
    chosen, the afterstate of every legal move, in the order up, right, down, left, moves
    towards its expected target (:func:`_expected_target`, valued with the weights as they
    are then; a 4 weighs ``p_four``); then the greedy move is played. Without, nothing is
    learnt (and ``p_four``, ``alpha``, ``tc`` and ``sums`` are not read).
    """
    n = lookups.shape[0]
    stride = lookups[0, STRIDE]
    positions = np.empty(4 * n, dtype=np.int64)
    afters = np.empty(4, dtype=np.uint64)
    points = np.empty(4, dtype=np.int64)
    scratch = np.empty(4 * n if expected else 0, dtype=np.int64)  # for the candidates after each spawn
    scratch_afters = np.empty(4, dtype=np.uint64)
    scratch_points = np.empty(4, dtype=np.int64)
    state = rng[0]
    total = 0
    for g in range(n_games):
        b = _new_game(state, threshold, rows, cols)
        state += GOLDEN + GOLDEN
        score = 0
        played = 0
        while True:
            count, best, _ = _candidates(b, rows, cols, weights, lookups, positions, afters, points)
            if best < 0:
                break
            for i in range(count if expected else 0):
                target = _expected_target(
                    afters[i], rows, cols, p_four, weights, lookups, scratch, scratch_afters, scratch_points
                )
                _td_update(weights, positions, i * n, n, stride, target, alpha, tc, sums)
            score += points[best]
            played += 1
            state += GOLDEN
            b = _spawn_with(afters[best], _mix64(state), threshold, rows, cols)
        scores[g] = score
        tiles[g] = _max_tile(b)
        moves[g] = played
        total += played
    rng[0] = state
    return total


@kernel(f"i8(i8, i8, i8, u8, {_NETWORK}, f8, f8, {_TC}, {_RESULTS})")
def _learn_expected(
    n_games, rows, cols, threshold, weights, lookups, p_four, alpha, tc, sums, rng, scores, tiles, moves
):  # fmt: skip
    """Play ``n_games`` greedy games learning by expected updates (see :func:`_greedy_games`); return the moves."""
    return _greedy_games(
        n_games, rows, cols, threshold, weights, lookups, True, p_four, alpha, tc, sums, rng, scores, tiles, moves
    )


@kernel(f"i8(i8, i8, i8, u8, {_NETWORK}, {_RESULTS})")
def _play_greedy(n_games, rows, cols, threshold, weights, lookups, rng, scores, tiles, moves):
    """Play ``n_games`` games by the greedy move, learning nothing; fill the per-game results; return the moves."""
    no_sums = np.empty(0, dtype=np.float32)
    return _greedy_games(
        n_games, rows, cols, threshold, weights, lookups, False, 0.0, 0.0, False, no_sums, rng, scores, tiles, moves
    )
