"""Hand-checked tests of the pure-Python 2048 heuristic and expectimax search."""

from __future__ import annotations

import math

import pytest

from .expectimax_2048 import best_move, chance_node, max_node, root_values
from .g2048 import DIRECTIONS, Grid, is_terminal, legal_moves, move, spawn_outcomes
from .heuristic_2048 import (
    FEATURES,
    MONO_POWER,
    RANK_POWER,
    Weights,
    columns,
    compacted,
    empty,
    evaluate,
    line_merges,
    line_monotonicity,
    merges,
    monotonicity,
    position,
    rank,
    rank_sum,
    rows,
    smoothness,
)

ZERO_MATRIX = [[0.0] * 4 for _ in range(4)]
# Cell (r, c) weighs 4 * r + c + 1: 1 2 3 4 / 5 6 7 8 / ...
COUNTING_MATRIX = [[float(4 * r + c + 1) for c in range(4)] for r in range(4)]


def only(**scalars: float) -> Weights:
    """Weights with every scalar at 0 except those given, and a zero position matrix."""
    weights: Weights = {"empty": 0.0, "merges": 0.0, "monotonicity": 0.0, "smoothness": 0.0, "rank_sum": 0.0}
    weights.update(scalars)
    weights["position"] = ZERO_MATRIX
    return weights


MIXED_WEIGHTS: Weights = {
    "empty": 10.0,
    "merges": 5.0,
    "monotonicity": -1.0,
    "smoothness": -2.0,
    "rank_sum": -0.5,
    "position": COUNTING_MATRIX,
}

# The 4x4 snake, values and ranks:
#   2048 1024 512 256      11 10  9  8
#     16   32  64 128       4  5  6  7
#      8    4   2   0       3  2  1  0
#      0    0   0   0       0  0  0  0
SNAKE: Grid = [
    [2048, 1024, 512, 256],
    [16, 32, 64, 128],
    [8, 4, 2, 0],
    [0, 0, 0, 0],
]


# --------------------------------------------------------------------------
# Ranks and lines
# --------------------------------------------------------------------------


def test_rank() -> None:
    assert [rank(v) for v in (0, 2, 4, 8, 1024, 32768)] == [0, 1, 2, 3, 10, 15]
    with pytest.raises(ValueError):
        rank(6)


def test_lines_on_a_2x3_board() -> None:
    grid = [[2, 0, 8], [0, 4, 16]]
    assert rows(grid) == [[1, 0, 3], [0, 2, 4]]
    assert columns(grid) == [[1, 0], [0, 2], [3, 4]]
    assert compacted([1, 0, 3]) == [1, 3]


# --------------------------------------------------------------------------
# Features
# --------------------------------------------------------------------------


def test_empty() -> None:
    assert empty([[2, 2], [8, 0]]) == 1
    assert empty(SNAKE) == 5
    assert empty([[0, 0, 0], [0, 0, 0]]) == 6


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([1, 1, 1], 3),
        ([1, 1, 2, 2], 4),
        ([1, 2, 1], 0),
        ([15, 15], 0),
        ([14, 15, 15, 14], 0),
        ([3, 3, 15, 15], 2),
        ([], 0),
        ([5], 0),
    ],
)
def test_line_merges(ranks: list[int], expected: int) -> None:
    assert line_merges(ranks) == expected


def test_merges_on_boards() -> None:
    # 2 2 / 8 0: row 0 compacts to [1, 1] -> 2; row 1 [3], column 0 [1, 3], column 1 [1] -> 0.
    assert merges([[2, 2], [8, 0]]) == 2
    # 2 0 2 / 0 0 0: the gap is ignored, row 0 compacts to [1, 1] -> 2.
    assert merges([[2, 0, 2], [0, 0, 0]]) == 2
    # 2 2 / 2 0: row 0 [1, 1] -> 2 and column 0 [1, 1] -> 2; tile (0, 0) counts in both.
    assert merges([[2, 2], [2, 0]]) == 4
    # 32768 32768 2 / 0 0 2: row 0 [15, 15, 1] -> 0 (15 never merges); column 2 [1, 1] -> 2.
    assert merges([[32768, 32768, 2], [0, 0, 2]]) == 2
    assert merges(SNAKE) == 0


def test_line_monotonicity() -> None:
    # [3, 1, 2]: 3 > 1 drops 81 - 1 = 80 into L; 1 <= 2 rises 16 - 1 = 15 into H.
    assert line_monotonicity([3, 1, 2]) == (80.0, 15.0)
    # Equal neighbours go to H with a zero rise; empty cells count as rank 0.
    assert line_monotonicity([2, 2, 0]) == (16.0, 0.0)
    assert MONO_POWER == 4.0


def test_monotonicity_2x2() -> None:
    # 2 2 / 8 0, ranks 1 1 / 3 0.
    # Rows: [1, 1] -> H += 0; [3, 0] -> L += 81.  min(L=81, H=0) = 0.
    # Columns: [1, 3] -> H += 81 - 1 = 80; [1, 0] -> L += 1.  min(L=1, H=80) = 1.
    assert monotonicity([[2, 2], [8, 0]]) == 1.0


def test_monotonicity_snake() -> None:
    # Rows: [11 10 9 8] L = 11^4 - 8^4 = 14641 - 4096 = 10545
    #       [4 5 6 7]   H = 7^4 - 4^4 = 2401 - 256 = 2145
    #       [3 2 1 0]   L = 81
    #       [0 0 0 0]   nothing
    #   min(L=10626, H=2145) = 2145.
    # Columns (top to bottom) [11 4 3 0], [10 5 2 0], [9 6 1 0], [8 7 0 0] all decrease:
    #   H = 0, so the vertical penalty is 0.
    assert monotonicity(SNAKE) == 2145.0


def test_monotonicity_is_per_axis_not_per_line() -> None:
    # 2 4 / 4 2, ranks 1 2 / 2 1.
    # Row [1, 2] rises: H = 16 - 1 = 15, L = 0.  Row [2, 1] drops: L = 15, H = 0.
    # Per axis: min(L = 15, H = 15) = 15.  (Per line it would be min(0, 15) + min(15, 0) = 0.)
    # Columns [1, 2] and [2, 1]: the same, 15.
    grid = [[2, 4], [4, 2]]
    assert monotonicity(grid) == 30.0
    per_line = sum(min(line_monotonicity(line)) for line in rows(grid) + columns(grid))
    assert per_line == 0.0


def test_smoothness() -> None:
    # 2 2 / 8 0: row [1, 1] -> 0; row [3] -> 0; column [1, 3] -> 2; column [1] -> 0.
    assert smoothness([[2, 2], [8, 0]]) == 2.0
    # 2 0 8 / 0 0 0: gaps are skipped, row 0 compacts to [1, 3] -> 2.
    assert smoothness([[2, 0, 8], [0, 0, 0]]) == 2.0
    # Snake rows: 1+1+1, 1+1+1, 1+1, 0 -> 8.
    # Snake columns: [11 4 3] 7+1, [10 5 2] 5+3, [9 6 1] 3+5, [8 7] 1 -> 25.
    assert smoothness(SNAKE) == 33.0


def test_rank_sum() -> None:
    assert RANK_POWER == 3.5
    # Ranks 1, 4, 9: 1 + 4^3.5 + 9^3.5 = 1 + 128 + 2187.
    assert rank_sum([[2, 16], [512, 0]]) == pytest.approx(2316.0)
    # Ranks 1, 1, 3: 2 + 3^3.5 = 2 + 27 * sqrt(3).
    assert rank_sum([[2, 2], [8, 0]]) == pytest.approx(2 + 27 * math.sqrt(3))
    assert rank_sum([[0, 0], [0, 0]]) == 0.0


def test_position_uses_top_left_corner() -> None:
    # 2x2 board 2 2 / 8 0 with weights 1 2 / 5 6: 1*1 + 2*1 + 5*3 + 6*0 = 18.
    assert position([[2, 2], [8, 0]], COUNTING_MATRIX) == 18.0
    # 2x3 board 0 4 2 / 16 0 8, weights 1 2 3 / 5 6 7: 2*2 + 3*1 + 5*4 + 7*3 = 48.
    assert position([[0, 4, 2], [16, 0, 8]], COUNTING_MATRIX) == 48.0
    # Snake: row 0 1*11+2*10+3*9+4*8 = 90; row 1 5*4+6*5+7*6+8*7 = 148; row 2 9*3+10*2+11*1 = 58.
    assert position(SNAKE, COUNTING_MATRIX) == 296.0


def test_evaluate_2x2() -> None:
    # 2 2 / 8 0: empty 1, merges 2, monotonicity 1, smoothness 2, rank_sum 2 + 27 sqrt(3), position 18.
    total, contributions = evaluate([[2, 2], [8, 0]], MIXED_WEIGHTS)
    assert list(contributions) == list(FEATURES)
    assert list(contributions) == ["empty", "merges", "monotonicity", "smoothness", "rank_sum", "position"]
    expected = {
        "empty": 10.0,
        "merges": 10.0,
        "monotonicity": -1.0,
        "smoothness": -4.0,
        "rank_sum": -0.5 * (2 + 27 * math.sqrt(3)),
        "position": 18.0,
    }
    assert contributions == pytest.approx(expected)
    assert total == pytest.approx(sum(expected.values()))


@pytest.mark.parametrize("grid", [SNAKE, [[2, 4], [4, 2]], [[0, 4, 2], [16, 0, 8]], [[32768, 2], [2, 0]]])
def test_evaluate_total_is_sum_of_contributions(grid: Grid) -> None:
    total, contributions = evaluate(grid, MIXED_WEIGHTS)
    assert total == pytest.approx(sum(contributions.values()))
    assert contributions["empty"] == 10.0 * empty(grid)
    assert contributions["merges"] == 5.0 * merges(grid)
    assert contributions["monotonicity"] == -monotonicity(grid)
    assert contributions["smoothness"] == -2.0 * smoothness(grid)
    assert contributions["rank_sum"] == -0.5 * rank_sum(grid)
    assert contributions["position"] == position(grid, COUNTING_MATRIX)


# --------------------------------------------------------------------------
# Expectimax
# --------------------------------------------------------------------------


@pytest.mark.parametrize("grid", [SNAKE, [[2, 4], [8, 0]], [[0, 2, 4], [8, 8, 2]], [[2, 2, 0, 4]] * 4])
def test_depth_1_evaluates_the_moved_boards(grid: Grid) -> None:
    values = root_values(grid, 1, MIXED_WEIGHTS)
    assert list(values) == legal_moves(grid)
    for d, value in values.items():
        assert value == evaluate(move(grid, d)[0], MIXED_WEIGHTS)[0]


def test_depth_2_one_empty_cell_by_hand() -> None:
    # Board 2 4 / 8 0, value = number of empty cells, lost = -100.
    # Legal: right and down (up and left change nothing).
    # right -> 2 4 / 0 8, spawn in (1, 0):
    #   a 2 (p 0.9): 2 4 / 2 8, up or down merges the 2s -> 1 empty cell: 1.
    #   a 4 (p 0.1): 2 4 / 4 8 has no move: lost = -100.
    #   value 0.9 * 1 + 0.1 * -100 = -9.1.
    # down -> 2 0 / 8 4, spawn in (0, 1):
    #   a 2: 2 2 / 8 4, left or right merges -> 1.  a 4: 2 4 / 8 4, up or down merges -> 1.
    #   value 1.
    grid = [[2, 4], [8, 0]]
    values = root_values(grid, 2, only(empty=1.0), p_four=0.1, lost=-100.0)
    assert values == pytest.approx({"right": -9.1, "down": 1.0})
    assert best_move(grid, 2, only(empty=1.0), p_four=0.1, lost=-100.0) == "down"


def test_depth_2_two_empty_cells_by_hand() -> None:
    # Board 4 2 / 0 0, move down -> 0 0 / 4 2, value = number of empty cells.
    # Spawn in (0, 0):
    #   a 2: 2 0 / 4 2, best move (up or right) leaves 1 empty cell.
    #   a 4: 4 0 / 4 2, up or down merges the 4s -> 2 empty cells.
    # Spawn in (0, 1):
    #   a 2: 0 2 / 4 2, up merges the 2s -> 4 4 / 0 0: 2 empty cells.
    #   a 4: 0 4 / 4 2, no merge is possible -> 1.
    # value = 1/2 (0.9 * 1 + 0.1 * 2) + 1/2 (0.9 * 2 + 0.1 * 1) = 0.55 + 0.95 = 1.5.
    values = root_values([[4, 2], [0, 0]], 2, only(empty=1.0), p_four=0.1)
    assert values["down"] == pytest.approx(1.5)
    assert chance_node([[0, 0], [4, 2]], 1, only(empty=1.0), 0.1, -1e12) == pytest.approx(1.5)


def test_points_are_not_counted() -> None:
    # Merging two 1024s scores 2048 points but, with only the empty weight, left and
    # right are both worth 3 empty cells, the same as any other sliding move.
    grid = [[1024, 1024], [0, 0]]
    values = root_values(grid, 1, only(empty=1.0))
    assert values == {"right": 3.0, "down": 2.0, "left": 3.0}


def test_max_node_of_a_lost_board() -> None:
    grid = [[2, 4], [4, 2]]
    assert is_terminal(grid)
    assert max_node(grid, 3, MIXED_WEIGHTS, 0.1, -123.0) == -123.0
    assert root_values(grid, 2, MIXED_WEIGHTS) == {}
    assert best_move(grid, 2, MIXED_WEIGHTS) is None


def test_best_move_avoids_a_certain_loss() -> None:
    # Board 0 2 4 / 8 8 2.  Legal: up, right, left.
    # up -> 8 2 4 / 0 8 2: the only empty cell gets a 2 (8 2 4 / 2 8 2) or a 4 (8 2 4 / 4 8 2),
    #   both without a move: lost after every spawn.
    # right -> 0 2 4 / 0 16 2 and left -> 2 4 0 / 16 2 0 keep two empty cells: never lost after one spawn.
    # A heavy weight on the top-left cell makes up (an 8 there) the best move at depth 1.
    grid = [[0, 2, 4], [8, 8, 2]]
    corner = [[100.0, 0.0, 0.0, 0.0], [0.0] * 4, [0.0] * 4, [0.0] * 4]
    weights = only(empty=1.0)
    weights["position"] = corner
    depth_1 = root_values(grid, 1, weights)
    # up: 100 * 3 + 1 empty; right: 0 + 2 empty; left: 100 * 1 + 2 empty.
    assert depth_1 == {"up": 301.0, "right": 2.0, "left": 102.0}
    assert best_move(grid, 1, weights) == "up"
    depth_2 = root_values(grid, 2, weights, lost=-1e12)
    assert depth_2["up"] == pytest.approx(-1e12)
    assert depth_2["right"] > 0
    assert depth_2["left"] > 0
    assert best_move(grid, 2, weights) == max(("right", "left"), key=depth_2.__getitem__)


def test_best_move_ties_go_to_the_first_direction() -> None:
    # Only the empty weight: on 2 0 / 0 0 every move leaves 3 empty cells.
    grid = [[2, 0], [0, 0]]
    assert legal_moves(grid) == ["right", "down"]
    assert best_move(grid, 1, only(empty=1.0)) == "right"
    assert best_move(grid, 2, only(empty=1.0)) == "right"
    # With all four legal and all equal, "up" comes first.
    centre = [[0, 0, 0], [0, 2, 0], [0, 0, 0]]
    assert legal_moves(centre) == list(DIRECTIONS)
    assert best_move(centre, 1, only(empty=1.0)) == "up"


def depth_2_by_outcomes(grid: Grid, direction: str, weights: Weights, p_four: float, lost: float) -> float:
    """Depth-2 value written with the engine's spawn_outcomes instead of the chance node."""
    after = move(grid, direction)[0]
    value = 0.0
    for (r, c), tile, probability in spawn_outcomes(after, p_four):
        spawned = [list(row) for row in after]
        spawned[r][c] = tile
        legal = legal_moves(spawned)
        best = max((evaluate(move(spawned, d)[0], weights)[0] for d in legal), default=lost)
        value += probability * best
    return value


@pytest.mark.parametrize(
    "grid",
    [
        [[2, 4], [8, 0]],
        [[4, 2], [0, 0]],
        [[0, 2, 4], [8, 8, 2]],
        [[2, 0, 4], [0, 8, 16]],
        [[2, 4, 8, 16], [4, 0, 0, 2], [0, 0, 2, 0], [0, 0, 0, 0]],
    ],
)
@pytest.mark.parametrize("p_four", [0.1, 0.5])
def test_depth_2_matches_spawn_outcomes(grid: Grid, p_four: float) -> None:
    values = root_values(grid, 2, MIXED_WEIGHTS, p_four=p_four, lost=-1e6)
    assert list(values) == legal_moves(grid)
    for d, value in values.items():
        assert value == pytest.approx(depth_2_by_outcomes(grid, d, MIXED_WEIGHTS, p_four, -1e6))


def test_depth_3_on_small_boards_returns_a_legal_move() -> None:
    for grid in ([[2, 4], [8, 0]], [[2, 0, 4], [0, 8, 16]], [[0, 2, 4], [8, 8, 2]]):
        direction = best_move(grid, 3, MIXED_WEIGHTS)
        assert direction in legal_moves(grid)
        assert direction in DIRECTIONS


def test_depth_2_on_the_snake_is_finite() -> None:
    values = root_values(SNAKE, 2, MIXED_WEIGHTS)
    assert list(values) == legal_moves(SNAKE)
    assert all(math.isfinite(v) and v > -1e12 for v in values.values())
