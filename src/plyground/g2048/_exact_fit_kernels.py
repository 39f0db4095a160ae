"""Numba kernel of the fit of an n-tuple network to the exact values of a solved board size.

The network's arrays are those of ``_ntuple_kernels`` (``weights``, ``lookups``); the exact
values are the state layers of every age one after the other, as
``_solver_kernels._afterstate_values`` reads them (``codes``, ``values``, ``starts``).

The fit plays games and, at every state, moves the value of each legal move's afterstate
towards that afterstate's exact value: ``V += alpha * (exact - V)``, spread over its lookups as
a TD update is (``_ntuple_kernels._td_update`` without TC), candidate after candidate in the
order up, right, down, left. The move played is the network's greedy move as it was valued
before those updates (the first of largest ``points + V``), or, with probability ``explore``,
the optimal move (the first of largest ``points + exact``).

Randomness is the splitmix64 stream of ``_ntuple_kernels``, its state in a one-element array
owned by the caller: two draws open a game, one follows every move. The draw of a move
decides its spawn (``_mix64(state)``) and, when ``explore`` is above 0, whether the optimal
move is played: ``_mix64(state ^ EXPLORE_SALT) >> 11`` (53 bits) below ``explore * 2**53``.

Kernels do no validation; :mod:`plyground.g2048.ntuple.exact_fit` does. The slow twin is in
``tests/naive/exact_fit.py``.
"""

from __future__ import annotations

import numpy as np

from plyground._jit import kernel
from plyground.core.splitmix import GOLDEN
from plyground.g2048._kernels import _mix64, _spawn_with
from plyground.g2048._ntuple_kernels import STRIDE, _candidates, _new_game, _td_update
from plyground.g2048._solver_kernels import _afterstate_values

EXPLORE_SALT = np.uint64(0x5DEECE66D)
"""Mixed into a move's draw to decide whether it explores, apart from the draw of its spawn."""
SAMPLE_EVERY = 50
"""A fit keeps every 50th afterstate it plays, for a check of the exact values by another path."""

_FIT = (
    "Tuple((i8, f8, i8, i8))(i8, i8, i8, u8, f8, f4[::1], i8[:, ::1], f8, f8, u8[::1], f8[::1], i8[::1], u8[::1],"
    " i8[::1], u8[::1])"
)


@kernel(_FIT)
def _fit_exact(
    n_games, rows, cols, threshold, p_four, weights, lookups, alpha, explore, codes, values, starts, rng, scores, sample
):  # fmt: skip
    """Play ``n_games`` games on ``rows`` x ``cols``, moving every candidate afterstate's value towards its exact value.

    Fills ``scores``; keeps every :data:`SAMPLE_EVERY`-th afterstate played in ``sample``, up to
    its length. Returns ``(updates, sum of their squared errors, spawned boards missing from the
    layers (0 unless they are wrong), afterstates kept)``.
    """
    n = lookups.shape[0]
    stride = lookups[0, STRIDE]
    positions = np.empty(4 * n, dtype=np.int64)
    afters = np.empty(4, dtype=np.uint64)
    points = np.empty(4, dtype=np.int64)
    exact = np.empty(4, dtype=np.float64)
    no_sums = np.empty(0, dtype=np.float32)
    state = rng[0]
    updates = 0
    squares = 0.0
    missing = 0
    kept = 0
    played = 0
    for g in range(n_games):
        b = _new_game(state, threshold, rows, cols)
        state += GOLDEN + GOLDEN
        score = 0
        while True:
            count, best, _ = _candidates(b, rows, cols, weights, lookups, positions, afters, points)
            if best < 0:
                break
            missing += _afterstate_values(afters[:count], rows, cols, p_four, codes, values, starts, exact)
            optimal, optimal_value = 0, -np.inf
            for i in range(count):
                if points[i] + exact[i] > optimal_value:
                    optimal, optimal_value = i, points[i] + exact[i]
                error = _td_update(weights, positions, i * n, n, stride, exact[i], alpha, False, no_sums)
                updates += 1
                squares += error * error
            state += GOLDEN
            if explore > 0.0:
                draw = _mix64(state ^ EXPLORE_SALT) >> np.uint64(11)
                if np.float64(draw) * (1.0 / 9007199254740992.0) < explore:
                    best = optimal
            if kept < sample.shape[0] and played % SAMPLE_EVERY == 0:
                sample[kept] = afters[best]
                kept += 1
            played += 1
            score += points[best]
            b = _spawn_with(afters[best], _mix64(state), threshold, rows, cols)
        scores[g] = score
    rng[0] = state
    return updates, squares, missing, kept
