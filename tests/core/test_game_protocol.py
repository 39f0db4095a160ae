"""The game protocol's conformance checks (after pgx's api_test), run on every game plyground plays.

Random games from seeded starts: at every node, the player, the legal actions, the chance
outcomes and the returns agree with one another; every legal action applied to a clone and
undone gives the node back; an illegal action is refused and changes nothing; a clone is
independent. Both k-in-a-row (two players, no chance) and 2048 (one player, spawns as chance).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.core.game import CHANCE, TERMINAL, GameState
from plyground.errors import IllegalMoveError, NothingToUndoError
from plyground.g2048 import state as g2048
from plyground.kinrow.board import State as KinrowState

GAMES: dict[str, Callable[[], GameState]] = {
    "tic-tac-toe": lambda: KinrowState(3, 3),
    "k-in-a-row 7x7, 4": lambda: KinrowState(7, 4),
    "gomoku 9x9, standard": lambda: KinrowState(9, 5, rule="standard"),
    "renju 15x15": lambda: KinrowState(15, 5, rule="renju"),
    "blocked cells": lambda: KinrowState(5, 4, blocked=[0, 12, 24]),
    "2048 2x2": lambda: g2048.State(2, 2),
    "2048 3x3, fours only": lambda: g2048.State(3, 3, p_four=1.0),
    "2048 4x4": lambda: g2048.State(4, 4),
    "2048 2x4, twos only": lambda: g2048.State(2, 4, p_four=0.0),
}


def snapshot(state: GameState) -> tuple[object, ...]:
    """What a node is, as the protocol shows it."""
    return (
        state.current_player,
        state.history,
        state.is_terminal(),
        tuple(state.legal_actions()),
        tuple(state.chance_outcomes()),
        tuple(state.returns()),
    )


def check_node(state: GameState) -> None:
    player, legal, outcomes = state.current_player, state.legal_actions(), state.chance_outcomes()
    assert player in (*range(state.num_players), CHANCE, TERMINAL)
    assert state.is_terminal() == (player == TERMINAL) == (not legal)
    assert legal == sorted(set(legal)) and all(isinstance(action, int) and action >= 0 for action in legal)
    assert len(state.returns()) == state.num_players
    if player == CHANCE:
        assert [action for action, _ in outcomes] == legal
        assert all(probability > 0 for _, probability in outcomes)
        assert math.isclose(sum(probability for _, probability in outcomes), 1.0)
    else:
        assert outcomes == []
    if state.num_players == 2:
        assert sum(state.returns()) == 0 and (state.is_terminal() or state.returns() == [0.0, 0.0])


def check_actions(state: GameState, rng: random.Random) -> None:
    before = snapshot(state)
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        assert child.history == (*state.history, action)
        assert snapshot(state) == before  # the clone is independent
        check_node(child)
        child.undo_action()
        assert snapshot(child) == before
    legal = set(state.legal_actions())
    illegal = [action for action in (-1, max(legal, default=0) + 1000, rng.randrange(400)) if action not in legal]
    for action in illegal:
        with pytest.raises(IllegalMoveError):
            state.apply_action(action)
        assert snapshot(state) == before


def play_out(state: GameState, rng: random.Random, limit: int) -> int:
    """A random game from ``state`` (chance by its probabilities), checked at every node; the actions applied."""
    played = 0
    while not state.is_terminal() and played < limit:
        check_node(state)
        check_actions(state, rng)
        if state.current_player == CHANCE:
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(actions, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        played += 1
    check_node(state)
    return played


@pytest.mark.parametrize("name", list(GAMES))
def test_a_new_game_follows_the_protocol(name: str) -> None:
    state = GAMES[name]()
    assert isinstance(state, GameState)
    assert state.history == () and state.returns() == [0.0] * state.num_players and not state.is_terminal()
    with pytest.raises(NothingToUndoError):
        state.undo_action()


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(list(GAMES)), seed=st.integers(0, 2**32 - 1))
def test_random_games_follow_the_protocol_and_undo_to_the_start(name: str, seed: int) -> None:
    state = GAMES[name]()
    start = snapshot(state)
    played = play_out(state, random.Random(seed), limit=60)
    for _ in range(played):
        state.undo_action()
    assert snapshot(state) == start


@pytest.mark.parametrize("name", [name for name in GAMES if "2x2" in name or "tic" in name])
def test_games_played_to_the_end_are_over_and_refuse_more(name: str) -> None:
    state = GAMES[name]()
    play_out(state, random.Random(7), limit=10_000)
    assert state.is_terminal() and state.current_player == TERMINAL and state.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply_action(0)


def test_the_2048_return_is_the_score_of_the_merges() -> None:
    state = g2048.State.from_board(g2048.Board.parse("2 2/4 4"), score=10)
    state.apply_action(3)  # left: 2+2 and 4+4
    assert state.returns() == [10.0 + 4 + 8] and state.board.to_rows() == [[4, 0], [8, 0]]
