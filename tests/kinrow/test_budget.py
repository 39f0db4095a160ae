"""Time budgets: milliseconds, one check for every player."""

from __future__ import annotations

import pytest

from plyground.errors import InvalidInputError
from plyground.kinrow.budget import MAX_TIME_MS, check_time_ms
from plyground.kinrow.players import make_player

BAD = [0, -1, -0.0, float("nan"), float("inf"), -float("inf"), MAX_TIME_MS + 1, "5", True]


@pytest.mark.parametrize("value", BAD)
def test_bad_budgets_are_one_line_errors_naming_the_parameter(value: object) -> None:
    with pytest.raises(
        InvalidInputError, match=r"^--time-ms must be a positive number of milliseconds up to 3,600,000 "
    ):
        check_time_ms(value, "--time-ms")


def test_good_budgets() -> None:
    assert check_time_ms(1) == 1.0 and check_time_ms(MAX_TIME_MS) == MAX_TIME_MS and check_time_ms(None) is None


@pytest.mark.parametrize("kind", ["mcts", "alphabeta", "random", "first_legal"])
def test_the_factory_checks_the_budget_of_every_kind(kind: str) -> None:
    assert make_player(kind, time_ms=100).name == kind
    with pytest.raises(InvalidInputError, match="time_ms"):
        make_player(kind, time_ms=float("inf"))


@pytest.mark.parametrize("kind", ["engine", "mcts", "alphabeta", "random", "first_legal"])
def test_every_player_keeps_the_protocol_stop_prepare_and_set_memory_included(kind: str) -> None:
    from plyground.kinrow.board import State
    from plyground.kinrow.players import Player

    player = make_player(kind, time_ms=50)
    assert isinstance(player, Player)
    state = State(9, 5)
    player.set_memory(4 << 20)
    player.prepare(state)
    player.stop()  # nothing in progress: the next search is not cut short by it
    move = player.choose(state)
    assert move in state.legal_moves()
