"""Slow, obviously-correct reference of the n-tuple network and its TD(0) learning.

Boards are ints in bit form (see ``g2048.py``). A network is a flat float32 numpy array
of weights (the tables of the tuples one after the other, ``16**len(tuple)`` entries
each) and its tuples; everything else is computed here from first principles:

* the symmetries are written out cell by cell (all 8 for a square board; identity,
  rotate 180 and the two mirrors for a rectangle), numbered as in ``core.symmetry``;
* a lookup reads the tuple's cells from the board moved by a symmetry; lookups that read
  the same board cells in the same order as an earlier symmetry are dropped; lookups are
  ordered by symmetry, then by tuple;
* a table index puts the first cell's exponent in the lowest digit, in base ``radix``
  (16 by default; a smaller radix reads an exponent it cannot hold as ``radix - 1``).

With ``stages`` (the stage tiles, increasing), the weights hold one set of tables per
stage; a board uses the tables of the stage whose tile count is the number of stage tiles
at most its largest tile, and a weight that is exactly 0 in a stage after the first reads
(and, when updated, starts from) the weight at the same place one stage before.

Floating point follows the kernels step by step: sums in float64 in lookup order, each
weight rounded to float32 after every change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import g2048

Cell = tuple[int, int]
Tuples = Sequence[Sequence[Cell]]


def cell_maps(rows: int, cols: int) -> dict[int, Callable[[int, int], Cell]]:
    """Symmetry number -> where it sends cell (r, c), for the symmetries of an R×C board."""
    if rows != cols:
        return {
            0: lambda r, c: (r, c),
            2: lambda r, c: (rows - 1 - r, cols - 1 - c),
            4: lambda r, c: (r, cols - 1 - c),
            5: lambda r, c: (rows - 1 - r, c),
        }
    n = rows
    return {
        0: lambda r, c: (r, c),
        1: lambda r, c: (c, n - 1 - r),
        2: lambda r, c: (n - 1 - r, n - 1 - c),
        3: lambda r, c: (n - 1 - c, r),
        4: lambda r, c: (r, n - 1 - c),
        5: lambda r, c: (n - 1 - r, c),
        6: lambda r, c: (c, r),
        7: lambda r, c: (n - 1 - c, n - 1 - r),
    }


def moved(grid: list[list[int]], symmetry: int) -> list[list[int]]:
    """The grid with each cell's content moved to where the symmetry sends the cell."""
    rows, cols = len(grid), len(grid[0])
    send = cell_maps(rows, cols)[symmetry]
    out = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            r2, c2 = send(r, c)
            out[r2][c2] = grid[r][c]
    return out


def lookups(rows: int, cols: int, tuples: Tuples) -> list[tuple[int, int, list[Cell]]]:
    """The lookups in kernel order: ``(tuple number, symmetry, board cells read in order)``."""
    labels = [[r * cols + c for c in range(cols)] for r in range(rows)]
    found: dict[int, list[tuple[int, list[Cell]]]] = {t: [] for t in range(len(tuples))}
    for symmetry in cell_maps(rows, cols):
        image = moved(labels, symmetry)
        for t, cells in enumerate(tuples):
            source = [divmod(image[r][c], cols) for r, c in cells]
            if all(source != seen for _, seen in found[t]):
                found[t].append((symmetry, source))
    out = [(t, s, source) for t in found for s, source in found[t]]
    return sorted(out, key=lambda item: item[1])  # stable: by symmetry, then tuple


def offsets(tuples: Tuples, radix: int = 16) -> list[int]:
    """Where each tuple's table starts in the flat weights."""
    out, total = [], 0
    for cells in tuples:
        out.append(total)
        total += radix ** len(cells)
    return out


def size(tuples: Tuples, radix: int = 16) -> int:
    """The number of weights of a network (of one stage)."""
    return sum(radix ** len(cells) for cells in tuples)


def exponent(bits: int, r: int, c: int) -> int:
    return (bits >> (16 * r + 4 * c)) & 0xF


def stage(bits: int, rows: int, cols: int, stages: Sequence[int]) -> int:
    """The stage of the board: how many stage tiles are at most its largest tile."""
    largest = max(2 ** exponent(bits, r, c) for r in range(rows) for c in range(cols))
    return sum(1 for tile in stages if largest >= tile)


def positions(
    bits: int, rows: int, cols: int, tuples: Tuples, stages: Sequence[int] = (), radix: int = 16
) -> list[int]:
    """The position in the flat weights of every lookup of the board."""
    starts = offsets(tuples, radix)
    first = stage(bits, rows, cols, stages) * size(tuples, radix)
    out = []
    for t, _, source in lookups(rows, cols, tuples):
        index = sum(min(exponent(bits, r, c), radix - 1) * radix**i for i, (r, c) in enumerate(source))
        out.append(first + starts[t] + index)
    return out


def weight(weights: np.ndarray, i: int, tuples: Tuples, radix: int = 16) -> float:
    """The weight at ``i``; a 0 in a stage after the first stands for the weight a stage before."""
    while weights[i] == 0 and i >= size(tuples, radix):
        i -= size(tuples, radix)
    return float(weights[i])


def value(
    bits: int, rows: int, cols: int, tuples: Tuples, weights: np.ndarray, stages: Sequence[int] = (), radix: int = 16
) -> float:
    """The sum of the weights of all lookups (float64, in order)."""
    total = 0.0
    for i in positions(bits, rows, cols, tuples, stages, radix):
        total += weight(weights, i, tuples, radix)
    return total


def update(
    bits: int,
    rows: int,
    cols: int,
    tuples: Tuples,
    weights: np.ndarray,
    delta: float,
    stages: Sequence[int] = (),
    radix: int = 16,
) -> None:
    """Add ``delta`` to the weight of every lookup, rounding to float32 each time."""
    for i in positions(bits, rows, cols, tuples, stages, radix):
        weights[i] = np.float32(weight(weights, i, tuples, radix) + delta)


def td_update(
    bits: int,
    target: float,
    rows: int,
    cols: int,
    tuples: Tuples,
    weights: np.ndarray,
    alpha: float,
    tc: tuple[np.ndarray, np.ndarray] | None = None,
    stages: Sequence[int] = (),
    radix: int = 16,
) -> float:
    """One TD step: move the board's value towards ``target``; return the error.

    Plain TD moves each weight by ``alpha / n_lookups * error``; with ``tc = (E, A)``
    each weight's step is scaled by ``|E_i| / A_i`` (1 while ``A_i`` is 0), then
    ``E_i += error`` and ``A_i += |error|``.
    """
    where = positions(bits, rows, cols, tuples, stages, radix)
    error = target - value(bits, rows, cols, tuples, weights, stages, radix)
    step = alpha / len(where)
    for i in where:
        if tc is None:
            weights[i] = np.float32(weight(weights, i, tuples, radix) + step * error)
            continue
        errors, abs_errors = tc
        total = float(abs_errors[i])
        rate = abs(float(errors[i])) / total if total > 0.0 else 1.0
        weights[i] = np.float32(weight(weights, i, tuples, radix) + step * rate * error)
        errors[i] = np.float32(float(errors[i]) + error)
        abs_errors[i] = np.float32(total + abs(error))
    return error


def greedy_move(
    grid: list[list[int]], tuples: Tuples, weights: np.ndarray, stages: Sequence[int] = (), radix: int = 16
) -> tuple[str, list[list[int]], int, float] | None:
    """The legal move of largest ``points + V(afterstate)`` (the first of up, right, down, left on ties)."""
    rows, cols = len(grid), len(grid[0])
    best = None
    for direction in g2048.DIRECTIONS:
        after, points = g2048.move(grid, direction)
        if after == grid:
            continue
        v = points + value(g2048.to_bits(after), rows, cols, tuples, weights, stages, radix)
        if best is None or v > best[3]:
            best = (direction, after, points, v)
    return best


def max_tile(grid: list[list[int]]) -> int:
    return g2048.max_tile(grid)


def downgraded(grid: list[list[int]], from_tile: int, lowest_gap: int) -> list[list[int]]:
    """Tile-downgrading, from its definition: when the largest tile is ``from_tile`` or more,
    find the largest tile value below it that is not on the board; if it is ``lowest_gap``
    or more, halve every tile larger than it. Not with two 32768s: the engine never merges
    them, and halved they would merge."""
    tiles = {v for row in grid for v in row if v}
    top = max(tiles, default=0)
    if top < from_tile or sum(row.count(32768) for row in grid) > 1:
        return [row[:] for row in grid]
    missing = [v for v in (1 << e for e in range(1, 16)) if lowest_gap <= v < top and v not in tiles]
    if not missing:
        return [row[:] for row in grid]
    gap = max(missing)
    return [[v // 2 if v > gap else v for v in row] for row in grid]


def lambda_return(later: list[tuple[float, float]], last: float, lam: float) -> float:
    """The truncated lambda-return ``G = (target - lam * V) + lam * G_next`` over ``later``, ending in ``last``.

    ``later`` holds the ``(points + V, V)`` of the moves after the afterstate's (nearest first), as valued
    when chosen; ``last`` is the target of the move after those (0 past the end of a game).
    """
    ret = last
    for target, v in reversed(later):
        ret = (target - lam * v) + lam * ret
    return ret


def play(
    games: int,
    rows: int,
    cols: int,
    p_four: float,
    tuples: Tuples,
    weights: np.ndarray,
    state: int,
    *,
    alpha: float | None = None,
    tc: tuple[np.ndarray, np.ndarray] | None = None,
    lam: float = 0.0,
    horizon: int = 1,
    stages: Sequence[int] = (),
    restarts: int = 0,
    history: int = 1 << 17,
    radix: int = 16,
) -> tuple[list[int], list[int], list[int], int, int]:
    """Play ``games`` greedy games, learning by afterstate TD when ``alpha`` is given.

    Every chosen afterstate waits for ``horizon`` more moves (1: TD(0)), then moves towards
    its lambda-return over those moves, ending in ``points + V(afterstate)`` of the last of
    them (as valued when choosing it). At the end of a game the waiting afterstates move,
    oldest first, towards their returns ending in 0. Spawns come from the splitmix64
    stream starting at ``state``: two per new game, one per move.

    After each game, up to ``restarts`` more episodes are played from a state of the game:
    the one before the move halfway (rounded down) between the move the last episode
    started from (0 for the game) and the move it ended at, unless that is the start itself
    or not among the first ``history`` moves. Only the game (not its restarts) is in the
    results.
    Returns (scores, max tiles, moves, moves of all episodes, final state).
    """
    threshold = g2048.four_threshold(p_four)
    scores, tiles, moves = [], [], []
    total = 0
    for _ in range(games):
        state, rnd = g2048.splitmix64(state)
        grid = g2048.spawn_with(g2048.empty_grid(rows, cols), rnd, threshold)
        state, rnd = g2048.splitmix64(state)
        grid = g2048.spawn_with(grid, rnd, threshold)
        before: list[tuple[list[list[int]], int]] = []  # (state, score) before each move of the game
        start, score = 0, 0
        for episode in range(restarts + 1):
            del before[start:]
            waiting: list[tuple[int, float, float]] = []  # (afterstate, points + V, V), oldest first
            played = start
            while True:
                before.append(([row[:] for row in grid], score))
                choice = greedy_move(grid, tuples, weights, stages, radix)
                if choice is None:
                    break
                _, after, points, target = choice
                if alpha is not None and len(waiting) == horizon:
                    oldest = waiting.pop(0)[0]
                    ret = lambda_return([(t, v) for _, t, v in waiting], target, lam)
                    td_update(oldest, ret, rows, cols, tuples, weights, alpha, tc, stages, radix)
                waiting.append((g2048.to_bits(after), target, target - points))
                score += points
                played += 1
                state, rnd = g2048.splitmix64(state)
                grid = g2048.spawn_with(after, rnd, threshold)
            while alpha is not None and waiting:
                oldest = waiting.pop(0)[0]
                ret = lambda_return([(t, v) for _, t, v in waiting], 0.0, lam)
                td_update(oldest, ret, rows, cols, tuples, weights, alpha, tc, stages, radix)
            total += played - start
            if episode == 0:
                scores.append(score)
                tiles.append(max_tile(grid))
                moves.append(played)
            middle = (start + played) // 2
            if middle == start or middle >= history:
                break
            start = middle
            grid = [row[:] for row in before[start][0]]
            score = before[start][1]
    return scores, tiles, moves, total, state


def expected_target(
    grid: list[list[int]], p_four: float, tuples: Tuples, weights: np.ndarray, stages: Sequence[int], radix: int
) -> float:
    """The chance node of depth 1 of the naive n-tuple expectimax: the mean over the spawns on ``grid`` of the
    greedy move's ``points + V`` (0 where no move is left); 0 on a full board."""
    from tests.naive import expectimax_ntuple  # here: it imports this module

    if not g2048.empty_cells(grid):
        return 0.0
    rows, cols = len(grid), len(grid[0])

    def network(after: list[list[int]]) -> float:
        return value(g2048.to_bits(after), rows, cols, tuples, weights, stages, radix)

    return expectimax_ntuple.chance_node(grid, 1, network, p_four)


def play_expected(
    games: int,
    rows: int,
    cols: int,
    p_four: float,
    tuples: Tuples,
    weights: np.ndarray,
    state: int,
    *,
    alpha: float,
    tc: tuple[np.ndarray, np.ndarray] | None = None,
    stages: Sequence[int] = (),
    radix: int = 16,
) -> tuple[list[int], list[int], list[int], int, int]:
    """Play ``games`` greedy games learning by expected updates.

    At each state the greedy move is chosen first; then every legal move's afterstate (up,
    right, down, left) moves towards :func:`expected_target`, computed with the weights as
    they are at that point; then the chosen move is played and a tile spawned from the
    splitmix64 stream at ``state``. Returns (scores, max tiles, moves, moves in all, final state).
    """
    threshold = g2048.four_threshold(p_four)
    scores, tiles, moves = [], [], []
    for _ in range(games):
        state, rnd = g2048.splitmix64(state)
        grid = g2048.spawn_with(g2048.empty_grid(rows, cols), rnd, threshold)
        state, rnd = g2048.splitmix64(state)
        grid = g2048.spawn_with(grid, rnd, threshold)
        score = played = 0
        while True:
            choice = greedy_move(grid, tuples, weights, stages, radix)
            if choice is None:
                break
            for direction in g2048.DIRECTIONS:
                after, _ = g2048.move(grid, direction)
                if after != grid:
                    target = expected_target(after, p_four, tuples, weights, stages, radix)
                    td_update(g2048.to_bits(after), target, rows, cols, tuples, weights, alpha, tc, stages, radix)
            _, after, points, _ = choice
            score += points
            played += 1
            state, rnd = g2048.splitmix64(state)
            grid = g2048.spawn_with(after, rnd, threshold)
        scores.append(score)
        tiles.append(max_tile(grid))
        moves.append(played)
    return scores, tiles, moves, sum(moves), state
