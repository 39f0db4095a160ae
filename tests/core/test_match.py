"""One match layer for every game: seeded games of any GameState by any agents, on this process or a pool."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from plyground.core.agent import Agent, RandomAgent
from plyground.core.match import GameRecord, play_game, play_match, random_agents, summarize
from plyground.errors import InvalidInputError, PlayerError
from plyground.g2048.agent import SearchAgent
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.heuristic import Heuristic
from plyground.g2048.state import State as State2048
from plyground.kinrow.board import State as KinrowState
from plyground.kinrow.players import make_player


def game(record: GameRecord) -> tuple[object, ...]:
    """A record less its times (which no two runs share)."""
    return record.seed, record.players, record.actions, record.returns


def replayed(state: Any, actions: tuple[int, ...]) -> Any:
    for action in actions:
        state.apply_action(action)
    return state


@pytest.mark.parametrize(
    "make_state", [partial(KinrowState, 3, 3), partial(KinrowState, 7, 4), partial(State2048, 2, 3)], ids=str
)
def test_a_seeded_random_game_is_the_same_again_and_its_record_replays(make_state: Any) -> None:
    players = make_state().num_players
    records = [play_game(make_state(), random_agents(players)(0), seed=5) for _ in range(2)]
    assert game(records[0]) == game(records[1]) and records[0].seed == 5
    end = replayed(make_state(), records[0].actions)
    assert end.is_terminal() and tuple(end.returns()) == records[0].returns
    assert records[0].players == ("random",) * players and all(seconds >= 0 for seconds in records[0].seconds)


def test_chance_follows_the_seed_and_the_agents_their_own() -> None:
    first = play_game(State2048(3, 3), [RandomAgent(seed=1)], seed=1)
    other_chance = play_game(State2048(3, 3), [RandomAgent(seed=1)], seed=2)
    assert first.actions != other_chance.actions


def test_a_kinrow_player_and_a_2048_search_are_agents_of_their_games() -> None:
    engine = make_player("engine", time_ms=20.0)
    record = play_game(KinrowState(5, 4), [engine, make_player("random", seed=1)], seed=0)
    assert record.returns[0] >= 0 and record.players == ("engine", "random")  # the engine never loses to random
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as search:
        record = play_game(State2048(2, 2), [SearchAgent(search)], seed=3)
    assert record.returns[0] > 0 and replayed(State2048(2, 2), record.actions).returns() == list(record.returns)


def test_until_stops_the_game_when_an_agent_is_to_move_and_it_holds() -> None:
    whole = play_game(State2048(3, 3), [RandomAgent(seed=1)], seed=4)
    stopped = play_game(State2048(3, 3), [RandomAgent(seed=1)], seed=4, until=lambda s: s.board.max_tile() >= 16)
    end = replayed(State2048(3, 3), stopped.actions)
    assert end.board.max_tile() == 16 and not end.is_terminal() and end.current_player == 0
    assert whole.actions[: len(stopped.actions)] == stopped.actions  # the same game, cut at its first 16
    assert replayed(State2048(3, 3), stopped.actions[:-2]).board.max_tile() < 16  # before the last move: none
    assert play_game(State2048(3, 3), [RandomAgent(seed=1)], seed=4, until=lambda s: True).actions == whole.actions[:2]


class Cheat(RandomAgent):
    def choose(self, state: Any) -> int:
        return -1


class Crash(RandomAgent):
    def choose(self, state: Any) -> int:
        raise ZeroDivisionError("boom")


def test_an_agent_that_cheats_or_crashes_is_named() -> None:
    with pytest.raises(PlayerError, match=r"random \(player 0\) chose -1, which is not legal"):
        play_game(KinrowState(3, 3), [Cheat(), RandomAgent()], seed=0)
    with pytest.raises(PlayerError, match=r"random \(player 1\) failed: ZeroDivisionError"):
        play_game(KinrowState(3, 3), [RandomAgent(), Crash()], seed=0)
    with pytest.raises(InvalidInputError, match="2 players, got 1 agents"):
        play_game(KinrowState(3, 3), [RandomAgent()], seed=0)


def test_a_match_on_a_pool_gives_the_games_of_one_process_in_order() -> None:
    here = play_match(partial(KinrowState, 4, 3), random_agents(2), games=6, seed=10, workers=1)
    seen: list[int] = []
    pooled = play_match(
        partial(KinrowState, 4, 3), random_agents(2), games=6, seed=10, workers=2, on_result=lambda i, r: seen.append(i)
    )
    assert (
        [game(r) for r in pooled] == [game(r) for r in here]
        and sorted(seen) == list(range(6))
        and [r.seed for r in here] == list(range(10, 16))
    )
    with pytest.raises(InvalidInputError, match="games must be"):
        play_match(partial(KinrowState, 3, 3), random_agents(2), games=0)


def test_the_summary_counts_the_first_players_results_and_the_mean_returns() -> None:
    records = play_match(partial(KinrowState, 3, 3), random_agents(2), games=20, seed=0, workers=1)
    summary = summarize(records)
    outcomes = [record.returns for record in records]
    assert summary.games == 20 and summary.wins == outcomes.count((1.0, -1.0))
    assert summary.losses == outcomes.count((-1.0, 1.0)) and summary.wins + summary.draws + summary.losses == 20
    assert summary.mean_returns[0] == pytest.approx((summary.wins - summary.losses) / 20)
    low, high = summary.intervals[0]  # type: ignore[misc]
    assert low <= summary.mean_returns[0] <= high
    with pytest.raises(InvalidInputError):
        summarize([])


def test_agents_follow_the_protocol() -> None:
    agents: list[Agent[Any]] = [RandomAgent(), make_player("mcts", seed=1), make_player("first_legal")]
    assert all(isinstance(agent, Agent) for agent in agents)
