"""The PettingZoo environment kinrow_v0: PettingZoo's checks, outcomes, masks, observations, options, rendering."""

from __future__ import annotations

import functools
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import DRAW, O, State, X
from plyground.kinrow.board import BLOCKED
from plyground.kinrow.players import FirstLegalPlayer, RandomPlayer

pettingzoo = pytest.importorskip("pettingzoo")
env_module = pytest.importorskip("plyground.kinrow.env")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402
from pettingzoo.test.state_test import test_state_space as check_state_space  # noqa: E402
from pettingzoo.utils.wrappers import TerminateIllegalWrapper  # noqa: E402

# What PettingZoo's api_test says of every board game with a dict observation (its tic-tac-toe too).
EXPECTED_WARNINGS = (
    "Observation numpy array is all zeros",  # the empty board
    "Observation space for each agent probably should be",  # a Dict of the board and the mask
    "Observation is not a NumPy array",  # the same dict
)


@contextmanager
def only_expected_warnings() -> Iterator[None]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert not unexpected, unexpected


@pytest.mark.parametrize(("n", "k"), [(3, 3), (5, 4), (15, 5)])
def test_the_pettingzoo_api_test_passes(n: int, k: int, capsys: pytest.CaptureFixture[str]) -> None:
    with only_expected_warnings():
        api_test(env_module.env(n, k), num_cycles=n * n)
    assert "Passed API test" in capsys.readouterr().out


@pytest.mark.parametrize(("n", "k"), [(4, 3), (7, 5)])
def test_the_pettingzoo_seed_test_passes(n: int, k: int) -> None:
    seed_test(functools.partial(env_module.env, n, k), num_cycles=50)


def test_the_pettingzoo_render_and_state_space_checks_pass(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(functools.partial(env_module.env, 3, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_state_space(env_module.env(3, 3))
    assert "X to move" in capsys.readouterr().out  # the human mode printed the board


def play(game_env: Any, moves: list[int]) -> list[tuple[str, float, bool]]:
    """Play ``moves``, then step every finished agent; (agent, reward, terminated) from each last()."""
    seen = []
    queue = list(moves)
    for agent in game_env.agent_iter():
        _, reward, terminated, truncated, _ = game_env.last()
        assert not truncated
        seen.append((agent, reward, terminated))
        game_env.step(None if terminated else queue.pop(0))
    assert not queue and not game_env.agents
    return seen


def test_a_win_of_x_ends_with_plus_one_and_minus_one() -> None:
    game_env = env_module.env(3, 3)
    game_env.reset()
    seen = play(game_env, [0, 3, 1, 4, 2])  # X takes the top row
    assert seen[:5] == [(agent, 0.0, False) for agent in ["player_0", "player_1"] * 2 + ["player_0"]]
    assert seen[5:] == [("player_1", -1.0, True), ("player_0", 1.0, True)]
    assert game_env.unwrapped.game.result == X


def test_a_win_of_o_and_a_draw() -> None:
    game_env = env_module.env(3, 3)
    game_env.reset()
    assert play(game_env, [0, 3, 1, 4, 8, 5])[6:] == [("player_0", -1.0, True), ("player_1", 1.0, True)]
    game_env.reset()
    draw = play(game_env, [4, 0, 2, 6, 3, 5, 1, 7, 8])
    assert draw[9:] == [("player_1", 0.0, True), ("player_0", 0.0, True)]
    assert game_env.unwrapped.game.result == DRAW


def test_the_rewards_of_the_last_move_are_in_the_rewards_dict() -> None:
    raw = env_module.KinrowEnv(4, 3)
    raw.reset()
    for move in (5, 0, 6, 1):
        raw.step(move)
        assert raw.rewards == {"player_0": 0.0, "player_1": 0.0}
    raw.step(7)  # X: b2 c2 d2
    assert raw.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert raw.terminations == {"player_0": True, "player_1": True}
    assert raw.truncations == {"player_0": False, "player_1": False}


@pytest.mark.parametrize(("n", "k", "seed"), [(3, 3, 0), (5, 4, 1), (9, 5, 2)])
def test_masks_and_observations_follow_the_board(n: int, k: int, seed: int) -> None:
    game_env = env_module.env(n, k)
    game_env.reset()
    rng = np.random.default_rng(seed)
    mirror = State(n, k)
    for agent in game_env.agent_iter():
        observation, _, terminated, _, _ = game_env.last()
        stone = X if agent == "player_0" else O
        cells = mirror.cells.reshape(n, n)
        assert observation["observation"].dtype == np.int8 and observation["action_mask"].dtype == np.int8
        assert np.array_equal(observation["observation"][:, :, 0], cells == stone)
        assert np.array_equal(observation["observation"][:, :, 1], cells == (O if stone == X else X))
        assert not observation["observation"][:, :, 2].any()
        assert np.flatnonzero(observation["action_mask"]).tolist() == mirror.legal_moves()
        other = "player_1" if agent == "player_0" else "player_0"
        if other in game_env.agents:
            assert not game_env.observe(other)["action_mask"].any()  # only the agent to move has moves
        assert np.array_equal(game_env.state(), np.stack([cells == X, cells == O, cells == BLOCKED], axis=-1))
        if terminated:
            game_env.step(None)
            continue
        assert stone == mirror.to_move
        move = int(rng.choice(mirror.legal_moves()))
        mirror.play(move)
        game_env.step(move)
    assert game_env.unwrapped.game.result == mirror.result is not None


@pytest.mark.parametrize(("action", "message"), [(4, "cell b2 is taken"), (9, "not a cell"), (1.5, "not a cell")])
def test_an_illegal_action_is_refused_and_changes_nothing(action: object, message: str) -> None:
    game_env = env_module.env(3, 3)
    game_env.reset()
    game_env.step(4)
    with pytest.raises(IllegalMoveError, match=message):
        game_env.step(action)
    assert game_env.agent_selection == "player_1" and game_env.unwrapped.game.history == (4,)
    game_env.step(np.int64(0))  # numpy integers are actions too
    assert game_env.unwrapped.game.history == (4, 0)


def test_the_terminate_illegal_wrapper_makes_an_illegal_action_lose(caplog: pytest.LogCaptureFixture) -> None:
    game_env = TerminateIllegalWrapper(env_module.KinrowEnv(3, 3), illegal_reward=-1)
    game_env.reset()
    game_env.step(4)
    game_env.step(4)
    assert "Illegal move" in caplog.text
    assert game_env.terminations == {"player_0": True, "player_1": True}
    assert game_env.rewards == {"player_0": 0, "player_1": -1}
    assert game_env.unwrapped.game.history == (4,)


def test_step_before_reset_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="reset"):
        env_module.KinrowEnv(3, 3).game  # noqa: B018 - the property raises


def test_an_opening_of_moves_and_seeded_random_moves() -> None:
    raw = env_module.KinrowEnv(9, 5)
    raw.reset(options={"moves": [40, 41]})
    assert raw.game.history == (40, 41) and raw.agent_selection == "player_0"
    raw.reset(seed=3, options={"moves": [40], "random_moves": 6})
    opening = raw.game.history
    assert len(opening) == 7 and opening[0] == 40 and raw.agent_selection == "player_1"
    raw.reset(options={"random_moves": 6})
    raw.reset(seed=3, options={"moves": [40], "random_moves": 6})
    assert raw.game.history == opening
    raw.reset(seed=4, options={"random_moves": 6})
    assert raw.game.history != opening[1:]
    raw.reset(options={"ignored": 1})
    assert raw.game.history == ()


def test_random_moves_never_end_the_game() -> None:
    raw = env_module.KinrowEnv(3, 3)
    for seed in range(20):
        raw.reset(seed=seed, options={"random_moves": 9})  # stops where only winning moves are left
        assert not raw.game.is_over and len(raw.game.history) < 9
    raw.reset(options={"moves": [4, 0, 2, 6, 3, 5, 1], "random_moves": 1})  # c3 would end in a draw, b3 not
    assert raw.game.history == (4, 0, 2, 6, 3, 5, 1, 7)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"moves": [0, 0]}, IllegalMoveError, "taken"),
        ({"moves": [0, 3, 1, 4, 2]}, InvalidInputError, "ends the game"),
        ({"moves": 4}, InvalidInputError, "moves must be a sequence"),
        ({"random_moves": -1}, InvalidInputError, "random_moves"),
        ({"random_moves": 1.5}, InvalidInputError, "random_moves"),
    ],
)
def test_bad_openings_are_refused(options: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        env_module.KinrowEnv(3, 3).reset(options=options)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 2}, "n must be"),
        ({"n": 30}, "n must be"),
        ({"n": 5, "k": 6}, "k must be"),
        ({"render_mode": "x"}, "render"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        env_module.KinrowEnv(**kwargs)


def test_rendering() -> None:
    game_env = env_module.env(3, 3, render_mode="ansi")
    game_env.reset()
    assert game_env.render().endswith("X to move\n")
    for move in (0, 3, 1, 4, 2):
        game_env.step(move)
    assert game_env.render() == f"{game_env.unwrapped.game}\nX wins\n"
    raw = env_module.KinrowEnv(3, 3)
    raw.reset()
    assert raw.render() is None  # no render mode


def test_the_human_mode_prints_every_position(capsys: pytest.CaptureFixture[str]) -> None:
    game_env = env_module.env(3, 3, render_mode="human")
    game_env.reset()
    game_env.step(4)
    assert game_env.render() is None
    out = capsys.readouterr().out
    assert out.count("a b c") == 2 and out.endswith(" 2 . X .\n 3 . . .\nO to move\n")


def test_play_episode_between_plyground_players() -> None:
    first = FirstLegalPlayer()
    assert env_module.play_episode(env_module.env(3, 3), {"player_0": first, "player_1": first}) == {
        "player_0": 1.0,
        "player_1": -1.0,
    }
    game_env = env_module.env(5, 4)
    for seed in range(3):
        totals = env_module.play_episode(game_env, {"player_0": RandomPlayer(seed), "player_1": RandomPlayer(seed + 9)})
        result = game_env.unwrapped.game.result
        assert totals == {DRAW: {"player_0": 0.0, "player_1": 0.0}, X: {"player_0": 1.0, "player_1": -1.0}}.get(
            result, {"player_0": -1.0, "player_1": 1.0}
        )
        replay = State.from_moves(5, 4, game_env.unwrapped.game.history)
        assert replay.result == result


def test_play_episode_needs_a_player_for_each_agent() -> None:
    with pytest.raises(InvalidInputError, match="player_0 and player_1"):
        env_module.play_episode(env_module.env(3, 3), {"X": FirstLegalPlayer(), "O": FirstLegalPlayer()})


DOCUMENTED = """from plyground.kinrow import env as kinrow_env

env = kinrow_env.env(n=15, k=5)
env.reset(seed=1)
observation, reward, termination, truncation, info = env.last()
env.step(int(observation["action_mask"].argmax()))
"""


def test_the_documented_lines_work_in_a_fresh_python() -> None:
    assert textwrap.indent(DOCUMENTED, "    ").replace("    \n", "\n") in env_module.__doc__
    script = DOCUMENTED + "print(env.agent_selection, observation['observation'].shape, env.unwrapped.game.history)\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["player_1", "(15,", "15,", "3)", "(0,)"]


def test_the_kinrow_package_does_not_import_pettingzoo() -> None:
    script = "import sys, plyground.kinrow\nprint('pettingzoo' in sys.modules)\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False"


def test_rule_and_blocked_cells_reach_the_game() -> None:
    """Blocked cells are the third plane and never legal; under renju X's forbidden points are not legal either."""
    game_env = env_module.env(9, 5, rule="renju", blocked=[0, 80])
    game_env.reset(options={"moves": [40, 0 + 1, 38, 9, 22, 17]})
    raw = game_env.unwrapped
    assert raw.game.rule.label == "renju" and raw.game.blocked == {0, 80}
    observation = game_env.observe("player_0")
    assert observation["observation"][0, 0, 2] == 1 and observation["observation"][8, 8, 2] == 1
    assert observation["observation"][:, :, 2].sum() == 2
    mask = observation["action_mask"]
    assert mask[0] == 0 and mask[80] == 0
    assert np.flatnonzero(mask).tolist() == raw.game.legal_moves()
    assert set(raw.game.forbidden_moves()).isdisjoint(np.flatnonzero(mask).tolist())
    with pytest.raises(InvalidInputError, match="renju"):
        env_module.env(9, 4, rule="renju")
