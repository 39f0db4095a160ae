"""Hand-checked tests of the brute-force 2048 solver (the reference for the fast one).

Full solves run on 2x2 only (about 0.2 s each); 2x3 and 3x2 are checked on
start states and on the small games below hand-picked late positions, so the
module stays well under 20 s.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest

from .g2048 import Grid, empty_cells, from_bits, legal_moves, move, to_bits
from .solver_2048 import (
    Board,
    Solution,
    afterstate_value,
    age,
    count_classes,
    expected_score,
    explore,
    images,
    move_values,
    reachable,
    solve,
    solve_all,
    start_states,
    symmetries,
)

TENTH = Fraction(1, 10)


def bits(*rows: list[int]) -> Board:
    """Board in bit form from its rows of tile values."""
    return to_bits([list(row) for row in rows])


def tiles(board: Board, rows: int, cols: int) -> list[int]:
    """All cell values of ``board`` in reading order (0 for empty)."""
    return [v for row in from_bits(board, rows, cols) for v in row]


@cache
def solved_2x2(p_four: Fraction) -> Solution:
    """Exact solution of the whole 2x2 game, computed once per p_four."""
    return solve_all(2, 2, p_four)


# --------------------------------------------------------------------------
# Arguments
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols"), [(1, 2), (2, 1), (5, 2), (2, 5)])
def test_bad_shape_is_refused(rows: int, cols: int) -> None:
    with pytest.raises(ValueError, match=f"{rows}x{cols}"):
        start_states(rows, cols, 0.1)


@pytest.mark.parametrize("p_four", [-0.1, 1.5])
def test_bad_probability_is_refused(p_four: float) -> None:
    with pytest.raises(ValueError, match=str(p_four)):
        start_states(2, 2, p_four)


def test_float_probability_is_read_as_its_decimal() -> None:
    assert start_states(2, 2, 0.1) == start_states(2, 2, TENTH)


# --------------------------------------------------------------------------
# Start states
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "cols", "p_four", "expected"),
    [
        # C(cells, 2) pairs of cells, times 4 tile choices (2 or 4 on each) when both tiles can spawn.
        (2, 2, 0.1, 6 * 4),
        (2, 3, 0.1, 15 * 4),
        (3, 2, 0.1, 15 * 4),
        (2, 4, 0.1, 28 * 4),
        (3, 3, 0.1, 36 * 4),
        (2, 2, 0, 6),  # only 2s
        (2, 3, 0, 15),
        (2, 2, 1, 6),  # only 4s
    ],
)
def test_number_of_start_states(rows: int, cols: int, p_four: float, expected: int) -> None:
    starts = start_states(rows, cols, p_four)
    assert len(starts) == expected
    assert sum(starts.values()) == 1
    assert all(len([v for v in tiles(s, rows, cols) if v]) == 2 for s in starts)


def test_start_state_probabilities_by_hand() -> None:
    starts = start_states(2, 2, TENTH)
    # Two orders, each (1/4 * 9/10) * (1/3 * 9/10).
    assert starts[bits([2, 2], [0, 0])] == Fraction(27, 200)
    # 2 first then 4, or 4 first then 2: (9/40)(1/30) + (1/40)(3/10).
    assert starts[bits([2, 4], [0, 0])] == Fraction(3, 200)
    assert starts[bits([0, 4], [4, 0])] == Fraction(1, 600)
    assert start_states(2, 2, 0.0)[bits([2, 0], [0, 2])] == Fraction(1, 6)


# --------------------------------------------------------------------------
# Reachable boards
# --------------------------------------------------------------------------


def test_reachable_sets_are_consistent() -> None:
    graph = reachable(2, 2, TENTH)
    assert set(start_states(2, 2, TENTH)) <= graph.states
    assert graph.terminal <= graph.states
    for state in graph.states:
        grid = from_bits(state, 2, 2)
        assert (state in graph.terminal) == (not legal_moves(grid))
        for direction in legal_moves(grid):
            after = to_bits(move(grid, direction)[0])
            assert after in graph.afterstates
            assert age(after, 2, 2) == age(state, 2, 2)
    for after in graph.afterstates:
        grid = from_bits(after, 2, 2)
        for r, c in empty_cells(grid):
            for tile in (2, 4):
                child = [list(row) for row in grid]
                child[r][c] = tile
                assert to_bits(child) in graph.states
    # No state has fewer than two tiles, and only start states have age 4 (two 2s).
    assert all(len([v for v in tiles(s, 2, 2) if v]) >= 2 for s in graph.states)
    assert min(age(s, 2, 2) for s in graph.states) == 4


def test_p_four_0_spawns_no_4_and_p_four_1_no_2() -> None:
    only_twos = reachable(2, 2, 0)
    only_fours = reachable(2, 2, 1)
    both = reachable(2, 2, TENTH)
    # Every state but a start state was just given a 2 (resp. a 4), and starts hold only 2s (resp. 4s).
    assert all(2 in tiles(s, 2, 2) for s in only_twos.states)
    assert all(4 in tiles(s, 2, 2) for s in only_fours.states)
    # With 4s only, merges make 8 and more: no 2 is ever on the board.
    assert not any(2 in tiles(s, 2, 2) for s in only_fours.states | only_fours.afterstates)
    assert only_twos.states < both.states
    assert only_fours.states < both.states
    assert bits([4, 4], [0, 0]) in both.states - only_twos.states


def test_explore_edges_match_the_engine() -> None:
    graph = explore(2, 2, TENTH)
    state = bits([2, 2], [0, 0])
    assert graph.moves[state] == [
        ("right", bits([0, 4], [0, 0]), 4),  # "up" changes nothing
        ("down", bits([0, 0], [2, 2]), 0),
        ("left", bits([4, 0], [0, 0]), 4),
    ]
    after = bits([4, 0], [0, 0])
    assert dict(graph.spawns[after]) == {
        bits([4, 2], [0, 0]): Fraction(3, 10),
        bits([4, 4], [0, 0]): Fraction(1, 30),
        bits([4, 0], [2, 0]): Fraction(3, 10),
        bits([4, 0], [4, 0]): Fraction(1, 30),
        bits([4, 0], [0, 2]): Fraction(3, 10),
        bits([4, 0], [0, 4]): Fraction(1, 30),
    }


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


def test_terminal_states_are_worth_0() -> None:
    graph = reachable(2, 2, TENTH)
    values = solved_2x2(TENTH).states
    assert bits([2, 4], [4, 2]) in graph.terminal
    assert {values[s] for s in graph.terminal} == {0}
    assert all(values[s] > 0 for s in graph.states - graph.terminal)


@pytest.mark.parametrize("p_four", [Fraction(0), TENTH, Fraction(1, 2), Fraction(1)])
def test_a_position_that_ends_after_one_or_two_merges(p_four: Fraction) -> None:
    # 2 2 / 32 16: only left and right are legal; both merge the 2s (+4) and leave one empty cell.
    # A spawned 2 ends the game (4 2 / 32 16 and 2 4 / 32 16 have no move).  A spawned 4 gives
    # 4 4 / 32 16, whose moves left and right both score 8 and leave one cell, where any spawn
    # ends the game.  So V = 4 + p_four * 8.
    state = bits([2, 2], [32, 16])
    values = solve(2, 2, p_four, from_states=[state])
    assert values[state] == 4 + 8 * p_four
    if p_four:
        assert values[bits([4, 4], [32, 16])] == 8
    else:
        assert bits([4, 4], [32, 16]) not in values
    assert move_values(state, values, 2, 2, p_four) == {"right": 4 + 8 * p_four, "left": 4 + 8 * p_four}
    assert afterstate_value(bits([4, 0], [32, 16]), values, 2, 2, p_four) == 8 * p_four


def test_the_hand_computed_position_is_reachable_and_agrees() -> None:
    state = bits([2, 2], [32, 16])
    assert solved_2x2(TENTH).states[state] == Fraction(24, 5)


def test_a_position_with_one_legal_move() -> None:
    # 8 4 / 0 0: only down moves anything, scores nothing, and leaves 0 0 / 8 4.
    state = bits([8, 4], [0, 0])
    solution = solved_2x2(TENTH)
    values = solution.states
    assert list(move_values(state, values, 2, 2, TENTH)) == ["down"]
    after = bits([0, 0], [8, 4])
    assert values[state] == solution.afterstates[after]
    # Two empty cells, each getting a 2 (9/10) or a 4 (1/10): four outcomes, written out.
    spawned = [
        (Fraction(9, 20), bits([2, 0], [8, 4])),
        (Fraction(1, 20), bits([4, 0], [8, 4])),
        (Fraction(9, 20), bits([0, 2], [8, 4])),
        (Fraction(1, 20), bits([0, 4], [8, 4])),
    ]
    assert values[state] == sum(q * values[s] for q, s in spawned)


def test_values_satisfy_the_bellman_equations() -> None:
    solution = solved_2x2(TENTH)
    for state, value in solution.states.items():
        assert value == max(move_values(state, solution.states, 2, 2, TENTH).values(), default=0)
    for after, value in solution.afterstates.items():
        assert value == afterstate_value(after, solution.states, 2, 2, TENTH)


def test_floats_agree_with_fractions() -> None:
    exact = solved_2x2(TENTH).states
    floats = solve(2, 2, 0.1, exact=False)
    assert floats.keys() == exact.keys()
    assert all(isinstance(v, float) for v in floats.values())
    assert all(abs(floats[s] - float(exact[s])) < 1e-9 * (1 + float(exact[s])) for s in exact)
    assert expected_score(2, 2, 0.1, exact=False) == pytest.approx(float(expected_score(2, 2, 0.1)), rel=1e-12)


def test_symmetric_boards_have_equal_values() -> None:
    values = solved_2x2(TENTH).states
    for state, value in values.items():
        for image in images(state, 2, 2):
            assert values[image] == value


@pytest.mark.parametrize(
    "grid",
    [
        # Late positions: the games below them have 500 to 1,500 states.
        [[128, 64, 0], [2, 4, 0]],
        [[64, 128, 8], [2, 0, 0]],
        [[2, 64, 4], [8, 16, 0]],
    ],
)
def test_symmetric_positions_on_2x3_and_3x2(grid: Grid) -> None:
    state = to_bits(grid)
    values = solve(2, 3, TENTH, from_states=[state])
    for image in images(state, 2, 3):
        assert solve(2, 3, TENTH, from_states=[image])[image] == values[state]
    transposed = to_bits([list(column) for column in zip(*grid, strict=True)])
    assert solve(3, 2, TENTH, from_states=[transposed])[transposed] == values[state]


def test_only_fours_is_the_only_twos_game_doubled() -> None:
    # With p_four = 1 every tile and every point is twice what it is with p_four = 0.
    twos = solved_2x2(Fraction(0)).states
    fours = solved_2x2(Fraction(1)).states

    def doubled(board: Board) -> Board:
        return to_bits([[2 * v for v in row] for row in from_bits(board, 2, 2)])

    assert {doubled(s) for s in twos} == set(fours)
    assert all(fours[doubled(s)] == 2 * v for s, v in twos.items())
    assert expected_score(2, 2, 1, values=fours) == 2 * expected_score(2, 2, 0, values=twos)


def test_expected_score_matches_optimal_play_simulated() -> None:
    # Play 2,000 seeded games with the engine, always taking a move of highest value: the mean
    # score must be within 4 standard errors of the expected score.
    solution = solved_2x2(TENTH)
    expected = float(expected_score(2, 2, TENTH, values=solution.states))
    policy: dict[Board, str] = {}
    for state in solution.states:
        choices = move_values(state, solution.states, 2, 2, TENTH)
        if choices:
            policy[state] = max(choices, key=lambda d: choices[d])
    rng = random.Random(2048)

    def spawn(grid: Grid) -> Grid:
        r, c = rng.choice(empty_cells(grid))
        grid = [list(row) for row in grid]
        grid[r][c] = 4 if rng.random() < 0.1 else 2
        return grid

    scores = []
    for _ in range(2000):
        grid = spawn(spawn([[0, 0], [0, 0]]))
        score = 0
        while legal_moves(grid):
            grid, points = move(grid, policy[to_bits(grid)])
            score += points
            grid = spawn(grid)
        scores.append(score)
    mean = sum(scores) / len(scores)
    spread = (sum((s - mean) ** 2 for s in scores) / len(scores)) ** 0.5
    assert abs(mean - expected) < 4 * spread / len(scores) ** 0.5


def test_2x2_totals() -> None:
    # Measured with this reference (not derived by hand): pins it against accidental change.
    graph = reachable(2, 2, TENTH)
    assert (len(graph.states), len(graph.afterstates), len(graph.terminal)) == (662, 464, 186)
    assert [count_classes(s, 2, 2) for s in (graph.states, graph.afterstates, graph.terminal)] == [110, 67, 36]
    assert float(expected_score(2, 2, TENTH, values=solved_2x2(TENTH).states)) == pytest.approx(66.96414945710126)


# --------------------------------------------------------------------------
# Symmetry classes
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols", "order"), [(2, 2, 8), (3, 3, 8), (4, 4, 8), (2, 3, 4), (3, 2, 4), (2, 4, 4)])
def test_symmetries_form_a_group(rows: int, cols: int, order: int) -> None:
    # A board whose cells all differ (one empty, then 2, 4, 8, ...) has a distinct image under each symmetry.
    grid = [[(1 << (r * cols + c)) if r * cols + c else 0 for c in range(cols)] for r in range(rows)]
    group = symmetries(rows, cols)
    keys = [to_bits(g(grid)) for g in group]
    assert len(group) == order == len(set(keys))
    assert keys[0] == to_bits(grid)
    for g in group:
        for h in group:
            assert to_bits(g(h(grid))) in keys


def test_rectangle_symmetries_by_hand() -> None:
    grid = [[2, 4, 8], [16, 32, 64]]
    assert [g(grid) for g in symmetries(2, 3)] == [
        [[2, 4, 8], [16, 32, 64]],
        [[8, 4, 2], [64, 32, 16]],
        [[16, 32, 64], [2, 4, 8]],
        [[64, 32, 16], [8, 4, 2]],
    ]


def test_class_counts_by_hand() -> None:
    # Two 2s on a 2x2: side by side (4 boards) or on a diagonal (2 boards).
    assert count_classes(start_states(2, 2, 0), 2, 2) == 2
    # Two 2s on a 2x3, by Burnside: (15 + 3 + 3 + 3) / 4 = 6.
    assert count_classes(start_states(2, 3, 0), 2, 3) == 6
    assert count_classes(start_states(3, 2, 0), 3, 2) == 6
    assert count_classes([], 2, 2) == 0
    board = bits([2, 4], [8, 0])
    assert count_classes(images(board, 2, 2), 2, 2) == 1


def test_class_count_of_a_closed_set() -> None:
    graph = reachable(2, 2, TENTH)
    for boards in (graph.states, graph.afterstates, graph.terminal):
        assert {image for board in boards for image in images(board, 2, 2)} == boards
        assert len(boards) <= 8 * count_classes(boards, 2, 2)
        assert count_classes(boards, 2, 2) < len(boards)
