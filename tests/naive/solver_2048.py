"""Slow, obviously-correct brute-force solver of 2048 on small boards.

Built only on the reference engine in ``g2048.py`` and the standard library, to
check a fast solver against.  Boards are ints in the bit form of ``g2048``
(cell (r, c) holds its exponent at bit ``16 * r + 4 * c``), never reduced by
symmetry; boards of 2 to 4 rows and 2 to 4 columns are accepted.

Definitions:

* A *state* is a board before the player's move.  An *afterstate* is the board
  right after a legal move, before the spawn.  A move is legal when it changes
  the board.
* A *spawn* puts a 2 (probability ``1 - p_four``) or a 4 (``p_four``) on a
  uniformly chosen empty cell.  Outcomes of probability 0 never happen: with
  ``p_four == 0`` no 4 is ever spawned, with ``p_four == 1`` no 2 is.
* A game starts from the empty board with two independent spawns; the
  resulting two-tile boards are the *start states* (a one-tile board is never a
  state).  A *terminal* state has no legal move.
* The *age* of a board is the sum of its tile values.  A move keeps the age
  (merging a + a gives 2a) and a spawn raises it by 2 or 4.
* The value ``V`` of a state is its optimal expected *future* score::

      V(state) = max over legal moves of (points of the move + V(afterstate)), 0 if none
      V(afterstate) = mean over its empty cells of
                      (1 - p_four) * V(board with a 2 there) + p_four * V(board with a 4 there)

  Every value needed by a board of age ``a`` belongs to a board of age
  ``a + 2`` or ``a + 4``, so values are computed by decreasing age, in loops.

Arithmetic is exact (``fractions.Fraction``) when ``exact`` is true and uses
floats otherwise.  Measured on one core: a whole exact 2x2 solve takes 0.2 s;
a whole 2x3 (or 3x2) solve 12 to 20 s exact and 6 to 8 s with floats, most of it
in the engine's moves, so exact stays the default there too.  2x4 is out of
reach: a minute of search finds 900,000 states and is far from done, and a
float solve left running for 24 minutes had passed 11 GB without finishing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from .g2048 import DIRECTIONS, Grid, empty_cells, empty_grid, from_bits, move, to_bits

Board = int  # a board in bit form
Number = Fraction | float  # a probability or a value: Fraction when exact, float otherwise
Symmetry = Callable[[Grid], Grid]


# --------------------------------------------------------------------------
# Arguments
# --------------------------------------------------------------------------


def check_shape(rows: int, cols: int) -> None:
    """Raise ValueError unless both sides are between 2 and 4."""
    if not (2 <= rows <= 4 and 2 <= cols <= 4):
        raise ValueError(f"board shape {rows}x{cols} is not between 2x2 and 4x4")


def probability(p_four: float | Fraction, exact: bool) -> Number:
    """``p_four`` as a Fraction (floats read through ``str``, so 0.1 is 1/10) or as a float.

    >>> probability(0.1, True)
    Fraction(1, 10)
    """
    p: Number = (p_four if isinstance(p_four, Fraction) else Fraction(str(p_four))) if exact else float(p_four)
    if not 0 <= p <= 1:
        raise ValueError(f"p_four {p_four!r} is not between 0 and 1")
    return p


# --------------------------------------------------------------------------
# The game graph, on boards in bit form
# --------------------------------------------------------------------------


def age(board: Board, rows: int, cols: int) -> int:
    """Sum of the tile values of ``board``."""
    return sum(sum(row) for row in from_bits(board, rows, cols))


def moves(state: Board, rows: int, cols: int) -> list[tuple[str, Board, int]]:
    """``(direction, afterstate, points)`` for each legal move, in DIRECTIONS order."""
    grid = from_bits(state, rows, cols)
    result: list[tuple[str, Board, int]] = []
    for direction in DIRECTIONS:
        new_grid, points = move(grid, direction)
        if new_grid != grid:
            result.append((direction, to_bits(new_grid), points))
    return result


def tile_probabilities(p: Number) -> list[tuple[int, Number]]:
    """The tiles a spawn can place, with their probabilities; a tile of probability 0 is left out."""
    return [(tile, q) for tile, q in ((2, 1 - p), (4, p)) if q != 0]


def spawns(after: Board, rows: int, cols: int, p: Number) -> list[tuple[Board, Number]]:
    """``(state, probability)`` for each outcome of a spawn on ``after``, cells in reading order.

    ``p`` is p_four as returned by ``probability``.  Each outcome is a
    distinct board, and the probabilities sum to 1 (empty list on a full board).
    """
    grid = from_bits(after, rows, cols)
    cells = empty_cells(grid)
    result: list[tuple[Board, Number]] = []
    for r, c in cells:
        for tile, q in tile_probabilities(p):
            new_grid = [list(row) for row in grid]
            new_grid[r][c] = tile
            result.append((to_bits(new_grid), q / len(cells)))
    return result


def start_states(rows: int, cols: int, p_four: float | Fraction, exact: bool = True) -> dict[Board, Number]:
    """Every start state with its probability: two independent spawns on the empty board.

    A two-tile board arises in two orders (which tile came first); both are summed.
    """
    check_shape(rows, cols)
    p = probability(p_four, exact)
    result: dict[Board, Number] = {}
    for first, q1 in spawns(to_bits(empty_grid(rows, cols)), rows, cols, p):
        for second, q2 in spawns(first, rows, cols, p):
            result[second] = result.get(second, 0) + q1 * q2
    return result


@dataclass(frozen=True)
class Reachable:
    """The boards reachable from the start states (or from the given boards), not reduced by symmetry.

    Attributes:
        states: every reachable state, terminal ones included.
        afterstates: every reachable afterstate.
        terminal: the reachable states with no legal move.
    """

    rows: int
    cols: int
    states: frozenset[Board]
    afterstates: frozenset[Board]
    terminal: frozenset[Board]


@dataclass(frozen=True)
class GameGraph:
    """The reachable part of the game graph, with its edges.

    Attributes:
        moves: each reachable state -> ``moves(state)`` (empty for a terminal state).
        spawns: each reachable afterstate -> ``spawns(afterstate)``.
    """

    rows: int
    cols: int
    moves: dict[Board, list[tuple[str, Board, int]]]
    spawns: dict[Board, list[tuple[Board, Number]]]


def explore(
    rows: int, cols: int, p_four: float | Fraction, exact: bool = True, *, from_states: Iterable[Board] | None = None
) -> GameGraph:
    """Breadth-first search of the game graph from the start states.

    ``from_states`` replaces the start states by the given states (any
    boards), to explore the game below a hand-picked position.
    """
    check_shape(rows, cols)
    p = probability(p_four, exact)
    starts = start_states(rows, cols, p_four, exact) if from_states is None else from_states
    seen: set[Board] = set(starts)
    queue = deque(seen)
    state_edges: dict[Board, list[tuple[str, Board, int]]] = {}
    spawn_edges: dict[Board, list[tuple[Board, Number]]] = {}
    while queue:
        state = queue.popleft()
        state_edges[state] = moves(state, rows, cols)
        for _, after, _ in state_edges[state]:
            if after in spawn_edges:
                continue
            spawn_edges[after] = spawns(after, rows, cols, p)
            for child, _ in spawn_edges[after]:
                if child not in seen:
                    seen.add(child)
                    queue.append(child)
    return GameGraph(rows, cols, state_edges, spawn_edges)


def reachable(
    rows: int, cols: int, p_four: float | Fraction, *, from_states: Iterable[Board] | None = None
) -> Reachable:
    """The reachable states, afterstates and terminal states (see ``explore``)."""
    graph = explore(rows, cols, p_four, exact=True, from_states=from_states)
    return Reachable(
        rows,
        cols,
        states=frozenset(graph.moves),
        afterstates=frozenset(graph.spawns),
        terminal=frozenset(state for state, edges in graph.moves.items() if not edges),
    )


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """``V`` of every reachable state and afterstate (see the module docstring)."""

    rows: int
    cols: int
    p_four: Number
    states: dict[Board, Number]
    afterstates: dict[Board, Number]


def by_decreasing_age(boards: Iterable[Board], rows: int, cols: int) -> dict[int, list[Board]]:
    """``boards`` grouped by age, oldest group first."""
    groups: dict[int, list[Board]] = {}
    for board in boards:
        groups.setdefault(age(board, rows, cols), []).append(board)
    return {a: groups[a] for a in sorted(groups, reverse=True)}


def solve_all(
    rows: int,
    cols: int,
    p_four: float | Fraction,
    exact: bool = True,
    *,
    from_states: Iterable[Board] | None = None,
) -> Solution:
    """``V`` of every reachable state and afterstate.

    Boards are valued oldest first.  Within one age the afterstates come
    first: they need only states 2 or 4 older.  The states of that age come
    next: they need only afterstates of their own age.
    """
    p = probability(p_four, exact)
    zero: Number = Fraction(0) if exact else 0.0
    graph = explore(rows, cols, p_four, exact, from_states=from_states)
    state_values: dict[Board, Number] = {}
    after_values: dict[Board, Number] = {}
    after_by_age = by_decreasing_age(graph.spawns, rows, cols)
    state_by_age = by_decreasing_age(graph.moves, rows, cols)
    for a in sorted(after_by_age.keys() | state_by_age.keys(), reverse=True):
        for after in after_by_age.get(a, []):
            after_values[after] = sum((q * state_values[child] for child, q in graph.spawns[after]), zero)
        for state in state_by_age.get(a, []):
            state_values[state] = max(
                (points + after_values[after] for _, after, points in graph.moves[state]), default=zero
            )
    return Solution(rows, cols, p, state_values, after_values)


def solve(
    rows: int,
    cols: int,
    p_four: float | Fraction,
    exact: bool = True,
    *,
    from_states: Iterable[Board] | None = None,
) -> dict[Board, Number]:
    """Optimal expected future score ``V`` of every reachable state (see ``solve_all``).

    >>> values = solve(2, 2, 0.1)
    >>> values[to_bits([[2, 4], [4, 2]])]  # no legal move
    Fraction(0, 1)
    """
    return solve_all(rows, cols, p_four, exact, from_states=from_states).states


def afterstate_value(
    after: Board, values: dict[Board, Number], rows: int, cols: int, p_four: float | Fraction, exact: bool = True
) -> Number:
    """``V(after)`` from the state values ``values``: the mean over the spawns of the resulting state's value."""
    zero: Number = Fraction(0) if exact else 0.0
    return sum((q * values[child] for child, q in spawns(after, rows, cols, probability(p_four, exact))), zero)


def move_values(
    state: Board, values: dict[Board, Number], rows: int, cols: int, p_four: float | Fraction, exact: bool = True
) -> dict[str, Number]:
    """Points plus ``afterstate_value`` of each legal move from ``state``, in DIRECTIONS order.

    ``values`` are state values as returned by ``solve`` with the same arguments.
    """
    return {
        direction: points + afterstate_value(after, values, rows, cols, p_four, exact)
        for direction, after, points in moves(state, rows, cols)
    }


def expected_score(
    rows: int, cols: int, p_four: float | Fraction, exact: bool = True, *, values: dict[Board, Number] | None = None
) -> Number:
    """Expected total score of optimal play from the empty board (the start spawns score nothing).

    ``values`` may pass in the result of ``solve`` with the same arguments.
    """
    if values is None:
        values = solve(rows, cols, p_four, exact)
    zero: Number = Fraction(0) if exact else 0.0
    return sum((q * values[state] for state, q in start_states(rows, cols, p_four, exact).items()), zero)


# --------------------------------------------------------------------------
# Symmetry, on grids
# --------------------------------------------------------------------------


def flip_left_right(grid: Grid) -> Grid:
    """Mirror image in the vertical axis: column c becomes column cols - 1 - c."""
    return [row[::-1] for row in grid]


def flip_up_down(grid: Grid) -> Grid:
    """Mirror image in the horizontal axis: row r becomes row rows - 1 - r."""
    return [list(row) for row in grid[::-1]]


def transpose_grid(grid: Grid) -> Grid:
    """Mirror image in the main diagonal: cell (r, c) becomes cell (c, r)."""
    return [[grid[r][c] for r in range(len(grid))] for c in range(len(grid[0]))]


def symmetries(rows: int, cols: int) -> list[Symmetry]:
    """The symmetries of a rows x cols board, identity first.

    The 8 of the square (4 rotations, 4 reflections) when rows == cols; else
    the 4 of a rectangle: identity, left-right mirror, up-down mirror and the
    180-degree rotation.
    """
    check_shape(rows, cols)

    def identity(g: Grid) -> Grid:
        return [list(row) for row in g]

    def rotate_180(g: Grid) -> Grid:
        return flip_up_down(flip_left_right(g))

    rectangle: list[Symmetry] = [identity, flip_left_right, flip_up_down, rotate_180]
    if rows != cols:
        return rectangle

    def rotate_clockwise(g: Grid) -> Grid:
        return flip_left_right(transpose_grid(g))

    def rotate_anticlockwise(g: Grid) -> Grid:
        return flip_up_down(transpose_grid(g))

    def anti_transpose(g: Grid) -> Grid:
        return rotate_180(transpose_grid(g))

    return [*rectangle, rotate_clockwise, rotate_anticlockwise, transpose_grid, anti_transpose]


def images(board: Board, rows: int, cols: int) -> Iterator[Board]:
    """``board`` under each symmetry, in the order of ``symmetries``."""
    grid = from_bits(board, rows, cols)
    for symmetry in symmetries(rows, cols):
        yield to_bits(symmetry(grid))


def canonical(board: Board, rows: int, cols: int) -> Board:
    """The smallest int among the images of ``board``: one representative per class."""
    return min(images(board, rows, cols))


def count_classes(boards: Iterable[Board], rows: int, cols: int) -> int:
    """Number of symmetry classes among ``boards`` (boards equal up to a symmetry form one class)."""
    return len({canonical(board, rows, cols) for board in boards})
