"""Slow, obviously-correct fit of an n-tuple network to the exact values of a solved board.

Games are played on the splitmix64 stream of ``g2048.splitmix64`` (two spawns open a game, one follows every
move). At every state, the legal moves are the candidates, in the order up, right, down, left, each with its
afterstate, its points and its exact value (``exact_values.afterstate_value``). The greedy move is the first
candidate of largest ``points + V`` (the network's value, before this state's updates); the optimal one the first
of largest ``points + exact``. Then each candidate's afterstate, in order, takes a TD step towards its exact value
(``ntuple.td_update``, without TC). Then the move's draw: the stream steps once; when ``explore`` is above 0, the
optimal move is played instead of the greedy one if ``mix64(state ^ EXPLORE_SALT) >> 11`` is below
``explore * 2**53``; the spawn uses the draw's own output. Every 50th move played over the whole call (the first,
the 51st...) gives its afterstate to the sample, until it holds ``sample_size``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import g2048
from . import ntuple as naive_nt
from .exact_values import afterstate_value

EXPLORE_SALT = 0x5DEECE66D


def mix64(z: int) -> int:
    """The output function of SplitMix64 (what ``g2048.splitmix64`` returns for the state ``z``)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & g2048.MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & g2048.MASK64
    return z ^ (z >> 31)


def candidates(grid: g2048.Grid) -> list[tuple[int, int]]:
    """``(afterstate in bit form, points)`` of every legal move, in the order up, right, down, left."""
    found = []
    for direction in g2048.DIRECTIONS:
        after, points = g2048.move(grid, direction)
        if after != grid:
            found.append((g2048.to_bits(after), points))
    return found


def fit(
    games: int,
    rows: int,
    cols: int,
    p_four: float,
    tuples: naive_nt.Tuples,
    weights: np.ndarray,
    state: int,
    states: dict[int, float],
    *,
    alpha: float,
    explore: float,
    radix: int = 16,
    stages: Sequence[int] = (),
    sample_size: int = 300,
) -> tuple[list[int], int, float, int, list[int], int]:
    """Fit ``weights`` in place over ``games`` games; return (scores, updates, sum of squared errors, missing
    spawned boards, sample, final state)."""
    threshold = g2048.four_threshold(p_four)
    scores: list[int] = []
    updates, squares, missing, played = 0, 0.0, 0, 0
    sample: list[int] = []
    for _ in range(games):
        state, rnd = g2048.splitmix64(state)
        grid = g2048.spawn_with(g2048.empty_grid(rows, cols), rnd, threshold)
        state, rnd = g2048.splitmix64(state)
        grid = g2048.spawn_with(grid, rnd, threshold)
        score = 0
        while moves := candidates(grid):
            values = [
                points + naive_nt.value(after, rows, cols, tuples, weights, stages, radix) for after, points in moves
            ]
            greedy = values.index(max(values))
            exact = []
            for after, _ in moves:
                value, lacking = afterstate_value(after, rows, cols, p_four, states)
                exact.append(value)
                missing += lacking
            targets = [points + value for (_, points), value in zip(moves, exact, strict=True)]
            optimal = targets.index(max(targets))
            for (after, _), value in zip(moves, exact, strict=True):
                error = naive_nt.td_update(after, value, rows, cols, tuples, weights, alpha, None, stages, radix)
                updates += 1
                squares += error * error
            state, rnd = g2048.splitmix64(state)
            chosen = greedy
            if explore > 0.0 and (mix64(state ^ EXPLORE_SALT) >> 11) / 2**53 < explore:
                chosen = optimal
            if len(sample) < sample_size and played % 50 == 0:
                sample.append(moves[chosen][0])
            played += 1
            score += moves[chosen][1]
            grid = g2048.spawn_with(g2048.from_bits(moves[chosen][0], rows, cols), rnd, threshold)
        scores.append(score)
    return scores, updates, squares, missing, sample, state
