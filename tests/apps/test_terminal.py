"""The terminal game: the controller's logic without a terminal, and one real run in a pseudo-terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from plyground.apps.play import HINT_MS, KEY_ACTIONS, WON_BANNER, Advisor, Hint, Mode, PlayController, action_for
from plyground.apps.saves import Saves2048
from plyground.g2048 import DIRECTIONS, Expectimax, Game
from plyground.g2048.heuristic import Heuristic

ARROWS = {"up": "KEY_UP", "right": "KEY_RIGHT", "down": "KEY_DOWN", "left": "KEY_LEFT"}
WASD = {"up": "w", "right": "d", "down": "s", "left": "a"}


def with_illegal_move() -> tuple[Game, str]:
    """A fresh game (the first seed that has one) with a direction that moves nothing."""
    for seed in range(100):
        game = Game(seed=seed)
        illegal = [d for d in DIRECTIONS if d not in game.board.legal_moves()]
        if illegal:
            return game, illegal[0]
    raise AssertionError("no seed below 100 starts with an illegal move")


def play_to_the_end(controller: PlayController) -> None:
    while not controller.game.over:
        controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])


@pytest.mark.parametrize(
    ("key", "action"),
    [
        ("KEY_UP", "up"), ("w", "up"), ("W", "up"), ("k", "up"),
        ("KEY_RIGHT", "right"), ("d", "right"), ("l", "right"),
        ("KEY_DOWN", "down"), ("s", "down"), ("j", "down"),
        ("KEY_LEFT", "left"), ("a", "left"), ("A", "left"), ("h", "left"),
        ("u", "undo"), ("n", "new"), ("q", "quit"), ("Q", "quit"),
        ("x", None), ("KEY_F1", None), ("\x1b", None), ("", None), ("key_up", None),
    ],
)  # fmt: skip
def test_keys_map_to_actions(key: str, action: str | None) -> None:
    assert action_for(key) == action


def test_every_direction_has_an_arrow_and_a_letter() -> None:
    for direction in DIRECTIONS:
        assert KEY_ACTIONS[ARROWS[direction]] == direction
        assert KEY_ACTIONS[WASD[direction]] == direction


@pytest.mark.parametrize("keys", [ARROWS, WASD])
def test_keys_move_the_game(keys: dict[str, str]) -> None:
    controller = PlayController(Game(seed=11))
    twin = Game(seed=11)
    for _ in range(5):
        direction = twin.board.legal_moves()[0]
        points = twin.step(direction)
        controller.handle_key(keys[direction])
        assert controller.game.board == twin.board
        assert controller.game.score == twin.score
        assert controller.last_points == points
    assert controller.game.move_count == 5
    assert controller.status == (f"Score {twin.score}{f' (+{points})' if points else ''}   Best {twin.score}   Moves 5")


def test_undo_restores_board_and_score() -> None:
    controller = PlayController(Game(seed=2))
    for _ in range(6):
        controller.handle_key(ARROWS[controller.game.board.legal_moves()[-1]])
    board, score = controller.game.board, controller.game.score
    controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    assert controller.game.move_count == 7

    controller.handle_key("u")

    assert controller.game.board == board
    assert controller.game.score == score
    assert controller.game.move_count == 6


def test_undo_with_nothing_to_undo_only_says_so() -> None:
    controller = PlayController(Game(seed=2))
    board = controller.game.board
    controller.handle_key("u")
    assert controller.game.board == board
    assert controller.message == "Nothing to undo."
    assert controller.running


def test_an_illegal_move_changes_nothing(tmp_path: Path) -> None:
    game, illegal = with_illegal_move()
    saves = Saves2048(root=tmp_path)
    controller = PlayController(game, saves=saves)
    controller.save()
    saved = saves.current_path.read_text()
    board = game.board

    controller.handle_key(ARROWS[illegal])

    assert controller.game.board == board
    assert controller.game.move_count == 0
    assert controller.message == f"Nothing moves {illegal}."
    assert saves.current_path.read_text() == saved
    assert controller.running


@pytest.mark.parametrize("key", ["x", "KEY_F1", "\x1b", "KEY_RESIZE", "1", " ", "é", "?"])  # ? without an advisor
def test_other_keys_do_nothing(key: str) -> None:
    controller = PlayController(Game(seed=4))
    controller.handle_key("KEY_LEFT" if "left" in controller.game.board.legal_moves() else "KEY_RIGHT")
    board, moves = controller.game.board, controller.game.move_count

    controller.handle_key(key)

    assert (controller.game.board, controller.game.move_count) == (board, moves)
    assert controller.mode is Mode.PLAY
    assert controller.running


def test_new_game_without_moves_needs_no_confirmation() -> None:
    controller = PlayController(Game(seed=5))
    first = controller.game
    controller.handle_key("n")
    assert controller.mode is Mode.PLAY
    assert controller.game is not first
    assert controller.game.move_count == 0


def test_new_game_in_progress_asks_first() -> None:
    controller = PlayController(Game(3, 3, seed=5, p_four=0.25))
    controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    game = controller.game

    controller.handle_key("n")
    assert controller.prompt == "Start a new game? The current one will be lost. (y/n)"
    controller.handle_key("n")  # no: the game goes on
    assert controller.mode is Mode.PLAY
    assert controller.game is game
    assert controller.message == "Kept the current game."

    controller.handle_key("n")
    controller.handle_key("KEY_LEFT")  # any key but y keeps the game, and does not move
    assert controller.game is game and controller.game.move_count == 1

    controller.handle_key("n")
    controller.handle_key("y")
    assert controller.mode is Mode.PLAY
    assert controller.game is not game
    assert controller.game.move_count == 0
    assert controller.game.board.shape == (3, 3)
    assert controller.game.p_four == 0.25
    assert controller.game.seed != game.seed or controller.game.board != game.board


def test_quit_saves_and_stops(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    controller = PlayController.start(saves, seed=6)
    for _ in range(4):
        controller.handle_key(WASD[controller.game.board.legal_moves()[0]])
    controller.handle_key("q")

    assert not controller.running
    resumed = Saves2048(root=tmp_path).load()
    assert resumed.game is not None
    assert resumed.game.board == controller.game.board
    assert resumed.game.move_count == 4


def test_every_change_is_saved(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    controller = PlayController.start(saves, seed=7)

    def saved_moves() -> int:
        return len(json.loads(saves.current_path.read_text())["game"]["replay"]["moves"])

    assert saved_moves() == 0  # the new game itself
    controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    assert saved_moves() == 1
    controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    assert saved_moves() == 2
    controller.handle_key("u")
    assert saved_moves() == 1


def test_best_score_is_updated_and_persisted(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    controller = PlayController.start(saves, seed=8)
    while controller.game.score < 20:
        controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    score = controller.game.score
    assert controller.best == score
    assert json.loads(saves.best_path.read_text()) == {"4x4": score}

    controller.handle_key("u")  # undo lowers the score, not the best
    assert controller.best == score
    controller.handle_key("n")
    controller.handle_key("y")
    assert controller.game.score == 0
    assert controller.best == score

    restarted = PlayController.start(Saves2048(root=tmp_path))
    assert restarted.best == score
    assert restarted.game.score == 0


def test_resume_gives_the_same_game(tmp_path: Path) -> None:
    controller = PlayController.start(Saves2048(root=tmp_path), seed=9)
    for _ in range(10):
        controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    controller.handle_key("q")

    resumed = PlayController.start(Saves2048(root=tmp_path), seed=123)

    assert resumed.game.board == controller.game.board
    assert resumed.game.score == controller.game.score
    assert resumed.game.move_count == 10
    assert resumed.message.startswith("Resumed your 4x4 game after 10 moves")
    assert "--new" in resumed.message  # the seed given applies to a new game only
    # same generator: the same next move spawns the same tile
    direction = resumed.game.board.legal_moves()[0]
    resumed.handle_key(ARROWS[direction])
    controller.handle_key(ARROWS[direction])
    assert resumed.game.board == controller.game.board


def test_new_flag_starts_over_but_keeps_the_best(tmp_path: Path) -> None:
    controller = PlayController.start(Saves2048(root=tmp_path), seed=10)
    while controller.game.score == 0:
        controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    controller.handle_key("q")

    fresh = PlayController.start(Saves2048(root=tmp_path), seed=10, new=True)

    assert fresh.game.move_count == 0
    assert fresh.game.board == Game(seed=10).board
    assert fresh.best == controller.best > 0


def test_a_corrupt_current_game_is_set_aside_and_a_new_game_starts(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    saves.folder.mkdir(parents=True)
    saves.current_path.write_text('{"game": "truncat')

    controller = PlayController.start(saves, seed=12)

    [aside] = saves.folder.glob("current-4x4.json.corrupt-*")
    assert aside.read_text() == '{"game": "truncat'
    assert controller.game.move_count == 0
    assert controller.game.board == Game(seed=12).board
    assert len(controller.warnings) == 1
    assert controller.message == controller.warnings[0]
    assert aside.name in controller.message
    # the new game is saved in its place
    assert Saves2048(root=tmp_path).load().game is not None


def test_a_corrupt_best_json_does_not_lose_the_best_score(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    controller = PlayController.start(saves, seed=13)
    while controller.game.score < 30:
        controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    best = controller.best
    controller.handle_key("n")
    controller.handle_key("y")  # the saved game now has score 0: the best lives in its "best"
    controller.handle_key("q")
    saves.best_path.write_text("\x00\x00\x00")

    again = PlayController.start(Saves2048(root=tmp_path))

    assert again.best == best
    assert len(list(saves.folder.glob("best.json.corrupt-*"))) == 1
    assert json.loads(saves.best_path.read_text()) == {"4x4": best}
    assert "best.json" in again.message


def test_game_over_prompts_and_n_starts_at_once() -> None:
    controller = PlayController(Game(2, 2, seed=14))
    play_to_the_end(controller)
    board = controller.game.board
    assert controller.prompt.startswith(f"Game over with {controller.game.score} points")
    assert controller.banner == ""

    for key in ("KEY_UP", "KEY_RIGHT", "KEY_DOWN", "KEY_LEFT"):
        controller.handle_key(key)
        assert controller.game.board == board
    assert controller.message == "No move is left."

    controller.handle_key("n")  # no game in progress: no confirmation
    assert controller.mode is Mode.PLAY
    assert controller.game.move_count == 0
    assert not controller.game.over
    assert controller.prompt == ""


def test_undo_after_game_over_plays_on() -> None:
    controller = PlayController(Game(2, 2, seed=15))
    play_to_the_end(controller)
    controller.handle_key("u")
    assert not controller.game.over
    assert controller.prompt == ""


def test_the_won_banner_shows_once_2048_is_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    controller = PlayController(Game(seed=16))
    assert controller.banner == ""
    monkeypatch.setattr(Game, "won", property(lambda self: True))
    assert controller.banner == WON_BANNER == "You reached 2048! Keep going."
    controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    assert controller.banner == WON_BANNER  # play goes on, the banner stays


# ----------------------------------------------------------------- hints

WAIT = 120.0
"""At most this long for a hint in a test (it comes in milliseconds; the bound only stops a broken test)."""


def depth_one() -> Expectimax:
    return Expectimax(depth=1, workers=1, evaluator=Heuristic())


def test_the_hint_key_shows_the_ais_move_and_the_values_of_the_moves() -> None:
    controller = PlayController(Game(seed=21), advisor=Advisor(depth_one))
    board, moves = controller.game.board, controller.game.move_count
    controller.handle_key("?")
    assert controller.hint_pending == board
    assert controller.message.startswith("Thinking")
    assert (controller.game.board, controller.game.move_count) == (board, moves)  # a hint plays nothing

    assert controller.poll_hint(timeout=WAIT)
    decision = depth_one().choose(board)
    assert controller.message == Hint(board, decision, "heuristic units").text
    assert controller.message.startswith(f"Hint: {decision.move}   expected value, in heuristic units")
    values = controller.message.split(": ", 1)[1].split(" · ")
    assert {value.split()[0] for value in values} == set(board.legal_moves())  # every legal move's value
    assert controller.hint_pending is None
    assert not controller.poll_hint()  # shown once


def test_a_key_pressed_while_the_hint_is_searched_drops_it() -> None:
    controller = PlayController(Game(seed=22), advisor=Advisor(depth_one))
    controller.handle_key("?")
    controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    assert controller.hint_pending is None
    assert not controller.poll_hint(timeout=0.0)
    moved = controller.game.board
    message = controller.message
    assert not message.startswith("Hint")

    controller.handle_key("?")  # the next hint is the new board's, whatever came of the first
    assert controller.poll_hint(timeout=WAIT)
    assert controller.message == Hint(moved, depth_one().choose(moved), "heuristic units").text


def test_no_hint_on_a_finished_game() -> None:
    controller = PlayController(Game(2, 2, seed=14), advisor=Advisor(depth_one))
    play_to_the_end(controller)
    controller.handle_key("?")
    assert controller.message == "No move is left."
    assert controller.hint_pending is None


def test_an_advisor_that_cannot_start_says_why_and_the_game_goes_on() -> None:
    def broken() -> Expectimax:
        raise OSError("no network file")

    controller = PlayController(Game(seed=23), advisor=Advisor(broken))
    controller.handle_key("?")
    assert controller.poll_hint(timeout=WAIT)
    assert controller.message == "No hint: the AI cannot start: no network file"
    controller.handle_key(ARROWS[controller.game.board.legal_moves()[0]])
    assert controller.game.move_count == 1


def test_the_default_advisor_searches_the_games_size_and_p_four() -> None:
    game = Game(3, 3, seed=24, p_four=0.25)
    advisor = Advisor.for_game(game)
    engine = advisor._make_engine()
    assert (engine.p_four, engine.time_ms, engine.evaluator.unit) == (0.25, HINT_MS, "heuristic units")
    controller = PlayController(game, advisor=advisor)
    controller.handle_key("?")
    assert controller.poll_hint(timeout=WAIT)
    assert controller.message.startswith("Hint: ") and "heuristic units" in controller.message
    advisor.close()


# ----------------------------------------------------------------- the real curses UI

ARROW_BYTES = {"up": b"\x1bOA", "right": b"\x1bOC", "down": b"\x1bOB", "left": b"\x1bOD"}
"""What an xterm sends for the arrows in keypad mode (which curses turns on)."""


class PtyReader:
    """Drains a pseudo-terminal's master side in a thread (a full pty would block the child)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.data = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.data += chunk

    def wait_for(self, text: bytes, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if text in self.data:
                    return True
            time.sleep(0.05)
        return False

    def text(self) -> str:
        with self._lock:
            return self.data.decode("utf-8", "replace")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_play_in_a_pseudo_terminal(tmp_path: Path) -> None:
    import fcntl
    import struct
    import termios

    twin = Game(seed=1)
    first = twin.board.legal_moves()[0]
    twin.step(first)
    second = twin.board.legal_moves()[-1]
    twin.step(second)

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PLYGROUND_DATA_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "plyground.apps.cli.main", "2048", "play", "--seed", "1", "--new"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    reader = PtyReader(master)
    try:
        assert reader.wait_for(b"plyground 2048", timeout=120), reader.text()
        for keys in (ARROW_BYTES[first], b"x", WASD[second].encode(), b"q"):
            time.sleep(0.2)
            os.write(master, keys)
        status = process.wait(timeout=30)
        reader.wait_for(b"resumes it", timeout=5)  # the last line, after curses ends
    finally:
        if process.poll() is None:
            os.killpg(process.pid, 9)
            process.wait()
        os.close(master)

    assert status == 0, reader.text()
    assert "Traceback" not in reader.text()
    assert "points after 2 moves" in reader.text()
    saved = json.loads((tmp_path / "2048" / "current-4x4.json").read_text())
    assert saved["game"]["replay"]["moves"] and len(saved["game"]["replay"]["moves"]) == 2
    resumed = Saves2048(root=tmp_path).load().game
    assert resumed is not None
    assert resumed.move_count == 2
    assert [move for move, _ in resumed.replay.moves] == [first, second]
    assert resumed.board == twin.board


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_the_hint_key_in_a_pseudo_terminal(tmp_path: Path) -> None:
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PLYGROUND_DATA_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    command = ["2048", "play", "--rows", "3", "--cols", "3", "--seed", "1", "--new"]
    process = subprocess.Popen(
        [sys.executable, "-m", "plyground.apps.cli.main", *command],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    reader = PtyReader(master)
    try:
        assert reader.wait_for(b"? hint", timeout=120), reader.text()
        os.write(master, b"?")
        assert reader.wait_for(b"Hint: ", timeout=120), reader.text()  # shown without another key
        os.write(master, b"q")
        status = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, 9)
            process.wait()
        os.close(master)

    assert status == 0, reader.text()
    assert "Traceback" not in reader.text()
