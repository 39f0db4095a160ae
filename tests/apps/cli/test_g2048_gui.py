"""``plyground 2048 gui`` as a user runs it: keys sent by xdotool to the real window, no display, a network."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plyground.apps.saves import Saves2048
from plyground.apps.tk import GameWindow
from plyground.g2048 import Game
from tests.apps.cli.test_main import assert_one_line_error, run_cli, run_module
from tests.apps.conftest import missing
from tests.apps.test_tk import pump, train_tiny_network

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
        # ... so release it: a key left down repeats into the next window on this screen and closes it.
        xdotool("keyup", "q")
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


@pytest.fixture(scope="module")
def network_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny trained 4x4 network."""
    return train_tiny_network(tmp_path_factory.mktemp("net") / "net.npz")


def test_gui_ai_searches_with_the_network_file(
    xvfb_display: str,
    tmp_path: Path,
    network_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path))
    shown: list[str] = []

    def run(window: GameWindow) -> None:  # instead of the event loop: three AI moves, then q
        pump(window, until=lambda: window.controller.game.move_count >= 3, timeout=30)
        assert not window.closed, "the window closed before the AI's third move"
        shown.append(window.evaluator_text)
        assert window.engine.evaluator.shape == (4, 4)
        window.close()

    monkeypatch.setattr(GameWindow, "run", run)
    args = ("--new", "--seed", "1", "--ai", "--time-ms", "5", "--delay-ms", "0", "--workers", "1")
    status, out, err = run_cli(capsys, "2048", "gui", *args, "--evaluator", f"ntuple:{network_file}")
    assert status == 0, err
    assert shown == ["AI: n-tuple network net.npz"]
    assert "2048 4x4: " in out and "points after" in out


def _corrupt(folder: Path) -> Path:
    path = folder / "bad.npz"
    path.write_bytes(b"not a network at all")
    return path


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["--evaluator", "ntuple:{tmp}/missing.npz"], ["does not exist", "missing.npz"]),
        (["--evaluator", "ntuple:{bad}"], ["is not a readable n-tuple network file", "bad.npz"]),
        (["--evaluator", "networks"], ["--evaluator must be 'network', 'heuristic' or 'ntuple:PATH'"]),
        (
            ["--rows", "3", "--cols", "3", "--evaluator", "ntuple:{net}"],
            ["plays 4x4 boards, not 3x3 ones: use --rows 4 --cols 4", "net.npz"],
        ),
        (["--weights", "w.json", "--evaluator", "ntuple:{net}"], ["--weights sets the heuristic"]),
    ],
)
def test_gui_bad_evaluator_is_a_one_line_error_before_any_window(
    tmp_path: Path,
    network_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    parts: list[str],
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)  # a window would fail with "cannot open the game window"
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path / "data"))
    values = {"tmp": tmp_path, "bad": _corrupt(tmp_path), "net": network_file}
    status, out, err = run_cli(capsys, "2048", "gui", "--new", *(arg.format(**values) for arg in args))
    assert status == 2
    assert out == ""
    assert_one_line_error(err, *parts)
    assert not (tmp_path / "data").exists()  # the saves were not touched


def test_gui_ai_plays_by_the_tables_of_the_games_p_four(
    xvfb_display: str,
    tmp_path: Path,
    tables_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path))
    shown: list[tuple[str, int]] = []

    def run(window: GameWindow) -> None:  # instead of the event loop: what the window plays by, then q
        shown.append((window.evaluator_text, len(window.tablebases or ())))
        window.close()

    monkeypatch.setattr(GameWindow, "run", run)
    args = ("--new", "--seed", "1", "--rows", "3", "--cols", "3", "--tablebases", str(tables_folder))
    for more in ((), ("--p-four", "0.5")):  # the table is built for 4s one time in ten: not for this game
        status, _, err = run_cli(capsys, "2048", "gui", *args, *more)
        assert status == 0, err
    assert shown == [("AI: heuristic + 1 endgame table", 1), ("AI: heuristic", 0)]


def test_gui_bad_tables_are_a_one_line_error_before_any_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)  # a window would fail with "cannot open the game window"
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path / "data"))
    status, out, err = run_cli(capsys, "2048", "gui", "--new", "--tablebases", str(tmp_path / "none"))
    assert status == 2 and out == ""
    assert_one_line_error(err, "no endgame table in", str(tmp_path / "none"))
    assert not (tmp_path / "data").exists()  # the saves were not touched
