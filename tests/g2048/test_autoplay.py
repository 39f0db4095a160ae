"""Whole games played by the AI, and the statistics over them."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from plyground.core.stats import REACH_TILES, t_quantile
from plyground.errors import InvalidInputError
from plyground.g2048 import Board, Decision, Replay
from plyground.g2048.autoplay import GameResult, GameSpec, play_game, play_spec, summarize
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.ntuple import NTupleNetwork


@pytest.fixture(scope="module")
def depth_2() -> Iterator[Expectimax]:
    with Expectimax(depth=2, workers=1) as ai:
        yield ai


def test_the_same_seed_plays_the_same_game(depth_2: Expectimax) -> None:
    first = play_game(depth_2, rows=3, cols=3, seed=11)
    second = play_game(depth_2, rows=3, cols=3, seed=11)
    assert (first.seed, first.score, first.max_tile, first.moves) == (
        second.seed,
        second.score,
        second.max_tile,
        second.moves,
    )
    assert first.replay.to_dict() == second.replay.to_dict()
    assert first.moves > 0 and first.mean_depth == 2.0


def test_a_game_is_played_to_the_end_and_replays_exactly(depth_2: Expectimax) -> None:
    boards: list[Board] = []
    result = play_game(depth_2, rows=2, cols=3, seed=4, on_move=lambda game, _: boards.append(game.board))
    game = result.replay.play()
    assert game.over
    assert game.board == boards[-1] and len(boards) == result.moves
    assert (game.score, game.board.max_tile(), game.move_count) == (result.score, result.max_tile, result.moves)
    assert result.replay.score == result.score and result.replay.seed == 4
    assert Replay.from_json(result.replay.to_json()).play().board == game.board


def test_on_move_is_called_once_after_each_move(depth_2: Expectimax) -> None:
    calls: list[tuple[int, int, Decision]] = []
    result = play_game(
        depth_2, rows=3, cols=3, seed=2, on_move=lambda game, d: calls.append((game.move_count, game.score, d))
    )
    assert [count for count, _, _ in calls] == list(range(1, result.moves + 1))
    assert [d.move for _, _, d in calls] == [move for move, _ in result.replay.moves]
    assert calls[-1][1] == result.score
    assert all(d.depth == 2 for _, _, d in calls)


def test_max_moves_stops_the_game_early(depth_2: Expectimax) -> None:
    result = play_game(depth_2, rows=3, cols=3, seed=2, max_moves=5)
    assert result.moves == 5 and not result.replay.play().over
    assert play_game(depth_2, rows=3, cols=3, seed=2, max_moves=0).moves == 0


def test_stop_at_ends_the_game_where_the_tile_is_first_made(depth_2: Expectimax) -> None:
    whole = play_game(depth_2, rows=3, cols=3, seed=2)
    stopped = play_game(depth_2, rows=3, cols=3, seed=2, stop_at=32)
    game = stopped.replay.play()
    assert stopped.max_tile == game.board.max_tile() == 32 and not game.over
    assert stopped.replay.moves == whole.replay.moves[: stopped.moves]  # the same game, cut at its first 32
    assert stopped.replay.positions()[-2][0].max_tile() < 32  # the board before the last move
    spec = play_spec(GameSpec(seed=2, rows=3, cols=3, depth=2, stop_at=32))
    assert (spec.moves, spec.score) == (stopped.moves, stopped.score)
    with pytest.raises(InvalidInputError, match="stop_at"):
        play_game(depth_2, rows=2, cols=2, stop_at=1)


@pytest.mark.parametrize("bad", [-1, 2.5, True, "3"])
def test_a_bad_max_moves_is_refused(depth_2: Expectimax, bad: object) -> None:
    with pytest.raises(InvalidInputError, match="max_moves"):
        play_game(depth_2, rows=2, cols=2, max_moves=bad)  # type: ignore[arg-type]


def test_without_a_seed_the_fresh_seed_is_recorded() -> None:
    with Expectimax(depth=1, workers=1) as ai:
        result = play_game(ai, rows=2, cols=3, p_four=0.5)
        again = play_game(ai, rows=2, cols=3, seed=result.seed, p_four=0.5)
    assert result.replay.seed == result.seed and result.replay.p_four == 0.5
    assert again.replay.to_dict() == result.replay.to_dict()


def make_result(score: int, max_tile: int, seed: int = 0) -> GameResult:
    return GameResult(seed, score, max_tile, moves=10, seconds=1.0, mean_depth=2.0, replay=Replay())


def test_summarize_hand_made_results() -> None:
    results = [make_result(100, 1024), make_result(200, 2048), make_result(300, 4096), make_result(400, 16384)]
    summary = summarize(results)
    assert summary.games == 4 and summary.results == tuple(results)
    assert summary.mean_score == 250.0
    assert summary.median_score == 250.0
    half = t_quantile(0.975, 3) * math.sqrt(((150**2 + 50**2) * 2) / 3) / math.sqrt(4)  # Student's t, 3 degrees
    assert t_quantile(0.975, 3) == pytest.approx(3.182446, abs=1e-6)
    assert summary.interval is not None
    assert summary.interval[0] == pytest.approx(250.0 - half)
    assert summary.interval[1] == pytest.approx(250.0 + half)
    assert dict(summary.reach) == {
        256: 1.0, 512: 1.0, 1024: 1.0, 2048: 0.75, 4096: 0.5, 8192: 0.25, 16384: 0.25, 32768: 0.0,
    }  # fmt: skip
    assert tuple(summary.reach) == REACH_TILES and summary.max_tile == 16384


def test_summarize_an_odd_count_and_a_32768() -> None:
    summary = summarize([make_result(5, 32768), make_result(1, 8), make_result(9, 8192)])
    assert summary.median_score == 5.0 and summary.mean_score == 5.0
    assert summary.reach[32768] == pytest.approx(1 / 3) and summary.reach[8192] == pytest.approx(2 / 3)


def test_one_game_has_a_mean_and_no_interval() -> None:
    summary = summarize([make_result(1234, 2048)])
    assert (summary.mean_score, summary.median_score, summary.interval) == (1234.0, 1234.0, None)
    assert summary.reach[2048] == 1.0 and summary.reach[4096] == 0.0


def test_the_reach_lists_only_tiles_the_board_can_hold() -> None:
    def on(rows: int, cols: int, score: int, tile: int) -> GameResult:
        return GameResult(0, score, tile, moves=10, seconds=1.0, mean_depth=2.0, replay=Replay(rows, cols))

    assert tuple(summarize([on(3, 3, 5000, 512), on(3, 3, 100, 64)]).reach) == (256, 512, 1024)
    assert dict(summarize([on(2, 3, 900, 128)]).reach) == {}  # 6 cells hold tiles up to 128
    assert tuple(summarize([on(2, 4, 10, 8), on(4, 4, 10, 8)]).reach) == REACH_TILES  # the largest board's


def test_equal_scores_have_an_empty_interval() -> None:
    assert summarize([make_result(50, 4)] * 3).interval == (50.0, 50.0)


def test_summarize_nothing_is_an_error() -> None:
    with pytest.raises(InvalidInputError, match="zero games"):
        summarize([])


def test_a_spec_with_a_network_plays_as_expectimax_with_that_network(tmp_path: Path) -> None:
    network = NTupleNetwork(2, 3, seed=4)
    network.learn(200, alpha=0.1)
    path = tmp_path / "net.npz"
    network.save(path)
    spec = GameSpec(seed=8, rows=2, cols=3, depth=2, evaluator=f"ntuple:{path}")
    result = play_spec(spec)
    with Expectimax(depth=2, workers=1, evaluator=network) as ai:
        expected = play_game(ai, rows=2, cols=3, seed=8)
    assert (result.score, result.replay) == (expected.score, expected.replay)
    heuristic = play_spec(GameSpec(seed=8, rows=2, cols=3, depth=2))
    assert heuristic.replay != result.replay  # the network did choose the moves
    assert play_spec(spec).replay == result.replay  # read again from the process's cache


def test_a_spec_with_a_missing_network_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="does not exist"):
        play_spec(GameSpec(seed=1, rows=2, cols=2, depth=1, evaluator=f"ntuple:{tmp_path / 'none.npz'}"))


@pytest.mark.parametrize(("rows", "cols", "seed", "max_moves"), [(3, 3, 4, None), (4, 4, 9, 60), (2, 4, 1, None)])
def test_a_game_is_the_one_a_game_of_the_same_seed_plays_with_the_same_moves(
    depth_2: Expectimax, rows: int, cols: int, seed: int, max_moves: int | None
) -> None:
    """Played on the core match layer, a game spawns what :class:`Game` of its seed would, step by step."""
    from plyground.g2048 import Game

    seen: list[tuple[str, int, int]] = []
    result = play_game(
        depth_2, rows=rows, cols=cols, seed=seed, max_moves=max_moves,
        on_move=lambda state, decision: seen.append((state.board.to_text(), state.score, state.move_count)),
    )  # fmt: skip
    game = Game(rows, cols, seed=seed)
    expected = []
    while not game.over and (max_moves is None or game.move_count < max_moves):
        decision = depth_2.choose(game.board)
        assert decision.move is not None
        game.step(decision.move)
        expected.append((game.board.to_text(), game.score, game.move_count))
    assert seen == expected
    assert result.replay == game.replay and result.score == game.score and result.moves == game.move_count
    assert result.replay.play().board == game.board
