"""``plyground 2048 gui`` as a user runs it: keys sent by xdotool to the real window, and no display."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plyground.apps.saves import Saves2048
from plyground.g2048 import Game
from tests.apps.conftest import missing
from tests.apps.test_cli import assert_one_line_error, run_module

XDOTOOL_KEYS = {"up": "Up", "right": "Right", "down": "Down", "left": "Left"}


def xdotool(*args: str, check: bool = True) -> str:
    done = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=60, check=check)
    return done.stdout


@pytest.mark.slow
def test_gui_plays_keys_from_xdotool_and_saves_on_q(xvfb_display: str, tmp_path: Path) -> None:
    if shutil.which("xdotool") is None:
        missing("xdotool (apt install xdotool)")
    twin = Game(seed=1)
    moves = [twin.board.legal_moves()[0]]
    twin.step(moves[0])
    moves.append(twin.board.legal_moves()[-1])
    twin.step(moves[1])

    env = {**os.environ, "DISPLAY": xvfb_display, "PLYGROUND_DATA_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    frames = tmp_path / "frames"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "plyground.apps.cli.main",
            "2048",
            "gui",
            "--seed",
            "1",
            "--new",
            "--frames",
            str(frames),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        window = xdotool("search", "--sync", "--name", "^plyground 2048$").split()[0]
        xdotool("windowfocus", "--sync", window)
        for move in moves:
            xdotool("key", "--window", window, XDOTOOL_KEYS[move])
            time.sleep(0.3)  # a key is played before the next one
        xdotool("key", "--window", window, "q", check=False)  # the window is gone before the key's release
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()

    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert "points after 2 moves" in out
    resumed = Saves2048(root=tmp_path).load().game
    assert resumed is not None
    assert [move for move, _ in resumed.replay.moves] == moves
    assert resumed.board == twin.board
    assert sorted(path.name for path in (frames / "2048-4x4-seed1").iterdir()) == [
        "00000.png",
        "00001.png",
        "00002.png",
    ]


def test_gui_without_a_display_is_a_one_line_error(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PLYGROUND_DATA_DIR"] = str(tmp_path)
    done = run_module("2048", "gui", "--new", env=env)
    assert done.returncode == 1
    assert_one_line_error(done.stderr, "cannot open the game window", "display")
    assert not (tmp_path / "2048").exists()  # --new did not replace a saved game: nothing was touched


def test_gui_frames_into_a_file_is_bad_input(tmp_path: Path) -> None:
    afile = tmp_path / "file"
    afile.write_text("")
    done = run_module("2048", "gui", "--frames", str(afile))
    assert done.returncode == 2
    assert_one_line_error(done.stderr, "cannot write frames", "not a folder")
