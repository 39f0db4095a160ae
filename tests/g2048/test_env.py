"""The Gymnasium environment plyground/2048-v0: the checker, rewards, masks, seeding, observations."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from plyground.errors import InvalidInputError
from plyground.g2048 import DIRECTIONS

gymnasium = pytest.importorskip("gymnasium")
env_module = pytest.importorskip("plyground.g2048.env")


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (2, 3), (3, 2)])
def test_the_gymnasium_checker_passes(rows: int, cols: int) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("plyground/2048-v0", rows=rows, cols=cols)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning fails the test
        check_env(env.unwrapped)
    assert env.observation_space.shape == (rows, cols, 16)


def play_out(seed: int, rows: int = 3, cols: int = 3) -> list[tuple[int, float, bool]]:
    env = gymnasium.make("plyground/2048-v0", rows=rows, cols=cols)
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    trace = []
    terminated = False
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        action = int(rng.choice(legal))
        before = env.unwrapped.game.board
        observation, reward, terminated, truncated, info = env.step(action)
        after_move, points = before.move(DIRECTIONS[action])
        assert reward == points and not truncated
        assert env.unwrapped.game.board.tile_sum() - after_move.tile_sum() in (2, 4)  # one spawn
        trace.append((action, reward, terminated))
        board = env.unwrapped.game.board
        expected = np.zeros((rows, cols, 16), dtype=np.uint8)
        for r in range(rows):
            for c in range(cols):
                expected[r, c, board.exponent(r, c)] = 1
        assert np.array_equal(observation, expected)
        assert info["action_mask"].tolist() == [int(d in board.legal_moves()) for d in DIRECTIONS]
    assert not info["action_mask"].any() and env.unwrapped.game.over
    assert sum(reward for _, reward, _ in trace) == env.unwrapped.game.score
    return trace


def test_rewards_masks_and_observations_follow_the_game() -> None:
    assert play_out(seed=5)


def test_the_same_seed_gives_the_same_episode() -> None:
    assert play_out(seed=11) == play_out(seed=11) != play_out(seed=12)


def test_an_illegal_action_changes_nothing() -> None:
    env = gymnasium.make("plyground/2048-v0", rows=2, cols=2)
    _, info = env.reset(seed=0)
    for _ in range(50):
        if not info["action_mask"].all():
            break
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    board, score = env.unwrapped.game.board, env.unwrapped.game.score
    _, reward, terminated, _, _ = env.step(illegal)
    assert (reward, terminated) == (0.0, False)
    assert (env.unwrapped.game.board, env.unwrapped.game.score) == (board, score)


@pytest.mark.parametrize("action", [4, -1, 1.5, "up"])
def test_bad_actions_are_refused(action: object) -> None:
    env = env_module.Game2048Env(rows=2, cols=2)
    env.reset(seed=0)
    with pytest.raises(InvalidInputError, match="action must be 0"):
        env.step(action)


@pytest.mark.parametrize(
    ("kwargs", "message"), [({"rows": 5}, "rows"), ({"p_four": 2}, "p_four"), ({"render_mode": "human"}, "render_mode")]
)
def test_bad_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        env_module.Game2048Env(**kwargs)


def test_ansi_rendering() -> None:
    env = env_module.Game2048Env(rows=2, cols=2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text is not None and text.startswith("score 0\n") and env.unwrapped.game.board.to_text() in text


def test_render_modes_are_listed_and_a_bad_one_names_them() -> None:
    assert env_module.Game2048Env.metadata["render_modes"] == ["ansi", "rgb_array"]
    with pytest.raises(InvalidInputError, match="render_mode must be None, 'ansi' or 'rgb_array', got 'rgb'"):
        env_module.Game2048Env(render_mode="rgb")


def test_the_gymnasium_checker_passes_with_rgb_array_frames() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("plyground/2048-v0", rows=3, cols=4, render_mode="rgb_array")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def cell_box(row: int, col: int, *, header: int) -> tuple[slice, slice]:
    """The pixels of the tile at (row, col) in an rgb_array frame."""
    cell, gap = env_module.CELL_PIXELS, 6
    top, left = header + gap + row * (cell + gap), gap + col * (cell + gap)
    return slice(top, top + cell), slice(left, left + cell)


def test_rgb_array_frames_show_each_tile_in_its_colour_with_its_number() -> None:
    from plyground.g2048.picture import BACKGROUND, DARK_TEXT, LIGHT_TEXT, tile_colour

    env = env_module.Game2048Env(rows=2, cols=3, render_mode="rgb_array")
    assert env.render() is None  # before reset
    _, info = env.reset(seed=4)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    cell, header = env_module.CELL_PIXELS, env_module.CELL_PIXELS // 2
    assert frame.shape == (header + 6 + 2 * (cell + 6), 6 + 3 * (cell + 6), 3)
    assert tuple(frame[0, 0]) == BACKGROUND

    board = env.game.board
    drawn: dict[int, np.ndarray] = {}
    for r, row in enumerate(board.to_rows()):
        for c, value in enumerate(row):
            tile = frame[cell_box(r, c, header=header)]
            assert tuple(tile[cell // 8, cell // 2]) == tile_colour(value)  # its colour, above its number
            ink = np.all(tile == (DARK_TEXT if value <= 4 else LIGHT_TEXT), axis=2)
            assert ink.any() == bool(value)  # a number on a tile, none on an empty cell
            drawn.setdefault(value, tile)
            assert np.array_equal(drawn[value], tile)  # the same value, the same picture
    assert len(drawn) > 1 and np.any(frame[:header] != BACKGROUND)  # the score line

    for _ in range(30):  # a later frame has the same shape and shows the new board
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
    later = env.render()
    assert isinstance(later, np.ndarray) and later.shape == frame.shape and not np.array_equal(later, frame)


def test_rgb_array_numbers_are_told_apart() -> None:
    from plyground.g2048 import Board
    from plyground.g2048.picture import BACKGROUND, board_pixels

    values = [2, 4, 8, 16, 128, 2048, 16384, 32768]
    board = Board.from_rows([values[:4], values[4:]])
    pixels = board_pixels(board, cell=64, gap=6)
    tiles = [pixels[cell_box(r, c, header=0)] for r in range(2) for c in range(4)]
    # What is neither the tile's fill nor the background (its rounded corners): the number.
    text = [np.any(tile != tile[2, 32], axis=2) & np.any(tile != BACKGROUND, axis=2) for tile in tiles]
    assert all(mask.sum() > 40 for mask in text)  # every number drawn big enough to read
    assert len({mask.tobytes() for mask in text}) == len(values)  # and each its own digits
    assert text[5][:, :4].sum() == 0 and text[5][:, -4:].sum() == 0  # 2048 fits inside its tile


def test_rgb_array_without_pillow_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from plyground.errors import DependencyNotInstalled

    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL fails
    with pytest.raises(DependencyNotInstalled, match=r"Pillow: .*pip install .*\[video\]"):
        env_module.Game2048Env(render_mode="rgb_array")
    env_module.Game2048Env(render_mode="ansi")  # the other modes need no Pillow


DOCUMENTED = """import gymnasium

env = gymnasium.make("plyground.g2048.env:plyground/2048-v0", rows=4, cols=4)
observation, info = env.reset(seed=1)
observation, reward, terminated, truncated, info = env.step(info["action_mask"].argmax())
"""


def test_the_documented_lines_work_in_a_fresh_python() -> None:
    assert textwrap.indent(DOCUMENTED, "    ").replace("    \n", "\n") in env_module.__doc__
    script = DOCUMENTED + "print(type(env.unwrapped).__name__, observation.shape, reward >= 0)\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Game2048Env", "(4,", "4,", "16)", "True"]


def test_plyground_itself_stays_light() -> None:
    script = "import sys, plyground\nprint('gymnasium' in sys.modules)\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False"  # the module:env-id form needs no registration on import
