"""A player's regret on a solved board: zero for the solution's own moves, the sum of the losses otherwise."""

from __future__ import annotations

import pytest

from plyground.errors import PlayerError
from plyground.g2048 import Board, Game
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.regret import play_judged, random_player, search_player
from plyground.g2048.solution import Solution
from plyground.g2048.solver import solve


@pytest.fixture(scope="module")
def solution(tmp_path_factory: pytest.TempPathFactory) -> Solution:
    return solve(2, 3, directory=tmp_path_factory.mktemp("solution"))


def test_the_solutions_own_moves_have_no_regret(solution: Solution) -> None:
    for seed in range(3):
        judged = play_judged(solution, solution.best_move, seed=seed)
        assert judged.regret == 0.0 and judged.optimal_moves == judged.moves > 0


def test_a_games_regret_is_the_sum_of_what_each_move_lost(solution: Solution) -> None:
    for seed in range(3):
        judged = play_judged(solution, random_player(seed), seed=seed)
        game, again, lost, optimal = Game(2, 3, seed=seed, p_four=solution.p_four), random_player(seed), 0.0, 0
        while not game.over:  # the same game again, each loss taken from the solution's values directly
            values = solution.move_values(game.board)
            move = again(game.board)
            assert move is not None
            best = max(values.values())
            lost += best - values[move]
            optimal += best - values[move] <= 1e-9 * best  # optimal up to the float sums' rounding
            game.step(move)
        assert judged.regret == pytest.approx(lost) and judged.optimal_moves == optimal
        assert (judged.score, judged.moves, judged.seed) == (game.score, game.move_count, seed)


def test_a_search_player_plays_the_search_and_an_illegal_move_is_named(solution: Solution) -> None:
    with Expectimax(depth=2, workers=1) as ai:
        judged = play_judged(solution, search_player(ai), seed=4)
    assert judged.moves > 0 and 0 <= judged.optimal_moves <= judged.moves
    with pytest.raises(PlayerError, match="the player chose 'sideways'"):
        play_judged(solution, lambda board: "sideways", seed=1)  # type: ignore[arg-type,return-value]


def test_a_board_with_no_move_gets_none_from_the_random_player() -> None:
    assert random_player(1)(Board.parse("2 4/4 2")) is None
