"""The Tk desktop game: keys, AI mode off the main thread, resizing, saves, announcements, frames, screenshot,
and the AI searching with a (tiny) n-tuple network.

Every test runs on the private Xvfb screen of the ``xvfb_display`` fixture and drives the
window with ``event_generate`` and ``root.update()`` instead of ``mainloop()``.
"""

from __future__ import annotations

import gc
import os
import threading
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from plyground.apps import tk_board
from plyground.apps.frames import frame_path
from plyground.apps.play import PlayController
from plyground.apps.render import TILE_COLOURS, tile_colour
from plyground.apps.saves import Saves2048
from plyground.apps.tk import GameWindow
from plyground.errors import InvalidInputError
from plyground.g2048 import DIRECTIONS, Board, Decision, Expectimax, Game
from plyground.g2048.heuristic import Heuristic
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.registry import load_evaluator
from tests.apps.conftest import TABLE_BOARD, TABLE_FORMATION
from tests.g2048.positions import game_at

KEYSYM = {"up": "Up", "right": "Right", "down": "Down", "left": "Left"}
LETTER = {"up": "w", "right": "d", "down": "s", "left": "a"}
VIM = {"up": "k", "right": "l", "down": "j", "left": "h"}

OpenWindow = Callable[..., GameWindow]


@pytest.fixture
def open_window(xvfb_display: str) -> Iterator[OpenWindow]:
    """Open game windows (small AI budgets) on the Xvfb screen; close those left open."""
    windows: list[GameWindow] = []

    def open_(controller: PlayController, *, size: str = "420x560", **options: Any) -> GameWindow:
        root = tk.Tk()
        root.geometry(f"{size}+0+0")
        window = GameWindow(controller, root=root, **{"time_ms": 5, "workers": 1, "delay_ms": 0, **options})
        windows.append(window)
        pump(window)
        return window

    yield open_
    for window in windows:
        window.close()
        assert window.running_searchers() == []
    windows.clear()
    gc.collect()  # here, in the main thread: Tcl aborts when a Tk interpreter is freed from another thread


def pump(window: GameWindow, until: Callable[[], bool] | None = None, timeout: float = 10.0) -> None:
    """Run the window's event loop until ``until()`` holds (or, without it, until nothing is pending)."""
    deadline = time.monotonic() + timeout
    while not window.closed:
        window.root.update()
        if window.failure is not None:
            raise window.failure
        if until is None or until():
            return
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the window")
        time.sleep(0.002)


def press(window: GameWindow, keysym: str) -> None:
    """Type a key into the focused window, as X would deliver it."""
    window.root.event_generate("<KeyPress>", keysym=keysym)
    pump(window)


def test_keys_move_tiles_and_undo(open_window: OpenWindow) -> None:
    twin = Game(seed=1)
    window = open_window(PlayController(Game(seed=1)))
    assert window.shown_rows() == twin.board.to_rows()
    for keys in (KEYSYM, LETTER, VIM):
        direction = twin.board.legal_moves()[0]
        twin.step(direction)
        press(window, keys[direction])
        assert window.controller.game.board == twin.board
        assert window.shown_rows() == twin.board.to_rows()
    assert window.controller.game.move_count == 3
    assert "Moves 3" in window.status_text

    before = window.controller.game.board
    press(window, "u")
    assert window.controller.game.move_count == 2
    assert window.controller.game.board != before
    assert window.shown_rows() == window.controller.game.board.to_rows()


def test_new_game_asks_first_while_a_game_is_in_progress(open_window: OpenWindow) -> None:
    window = open_window(PlayController(Game(seed=2)))
    press(window, KEYSYM[window.controller.game.board.legal_moves()[0]])
    press(window, "n")
    assert window.overlay == "confirm"
    assert "New game?" in overlay_text(window)
    window.overlay_buttons["no"].invoke()
    pump(window)
    assert window.overlay is None and window.controller.game.move_count == 1
    press(window, "n")
    press(window, "y")
    assert window.overlay is None and window.controller.game.move_count == 0
    assert window.message_text == "New game."


class Ticker:
    """Sets :attr:`ticked` every 20 ms from the Tk event loop: a search that sees it set ran beside a live loop."""

    def __init__(self, root: tk.Tk) -> None:
        self.root = root
        self.ticked = threading.Event()
        self.tick()

    def tick(self) -> None:
        self.ticked.set()
        self.root.after(20, self.tick)


def test_ai_mode_never_blocks_the_event_loop(open_window: OpenWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    search = Expectimax.choose
    window = open_window(PlayController(Game(seed=3)))
    ticker = Ticker(window.root)
    searches: list[tuple[bool, bool]] = []  # per search: on the main thread, the event loop ticked meanwhile

    def watched_search(engine: Expectimax, board: Board) -> Decision:
        if len(searches) < 3:
            ticker.ticked.clear()
            ticked = ticker.ticked.wait(30)  # never set while a search on the main thread holds the loop up
            searches.append((threading.current_thread() is threading.main_thread(), ticked))
        return search(engine, board)

    monkeypatch.setattr(Expectimax, "choose", watched_search)
    press(window, "i")
    pump(window, until=lambda: window.controller.game.move_count >= 3, timeout=120)
    assert searches == [(False, True)] * 3
    assert window.shown_rows() == window.controller.game.board.to_rows()


def test_ai_mode_plays_until_the_player_takes_over(open_window: OpenWindow) -> None:
    window = open_window(PlayController(Game(seed=3)))
    press(window, "i")
    assert window.ai_on and len(window.running_searchers()) == 1
    pump(window, until=lambda: window.controller.game.move_count >= 8, timeout=20)
    assert "AI depth" in window.status_text and "moves/s" in window.status_text
    assert window.moves_per_second > 0
    assert window.shown_rows() == window.controller.game.board.to_rows()
    assert window.values_text.startswith("expected value, in heuristic units (not points): ")

    press(window, "space")  # back to the player: the worker ends after its search
    assert not window.ai_on and "AI" not in window.status_text
    pump(window, until=lambda: not window.running_searchers(), timeout=5)
    moves = window.controller.game.move_count
    end = time.monotonic() + 0.2
    pump(window, until=lambda: time.monotonic() > end)
    assert window.controller.game.move_count == moves

    press(window, "i")  # AI mode again, then a move key: the player takes over at once
    pump(window, until=lambda: window.controller.game.move_count > moves, timeout=20)
    press(window, KEYSYM[window.controller.game.board.legal_moves()[0]])
    assert not window.ai_on
    pump(window, until=lambda: not window.running_searchers(), timeout=5)


def test_closing_the_window_in_ai_mode_stops_the_worker_and_saves(open_window: OpenWindow, tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    window = open_window(PlayController.start(saves, seed=4), ai=True)
    pump(window, until=lambda: window.controller.game.move_count >= 3, timeout=20)
    searchers = window.running_searchers()
    assert len(searchers) == 1
    window.root.tk.call(window.root.protocol("WM_DELETE_WINDOW"))  # what the window manager's close button runs
    assert window.closed
    assert not searchers[0].thread.is_alive()
    saved = saves.load().game
    assert saved is not None and saved.board == window.controller.game.board
    assert saved.move_count == window.controller.game.move_count >= 3


def tile_boxes(window: GameWindow) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int, int]]]:
    """(tile box, number box) of every numbered tile, as the canvas has them."""
    canvas = window.canvas
    boxes = []
    for item in canvas.find_withtag("number"):
        tag = next(tag for tag in canvas.gettags(item) if tag.startswith("number-"))
        boxes.append((canvas.bbox(tag.replace("number", "tile")), canvas.bbox(item)))
    return boxes


def test_tiles_and_fonts_follow_the_window_size(open_window: OpenWindow) -> None:
    game = game_at(Board.parse("2 16 128 1024/0 0 0 32768/0 0 0 0/0 0 0 4"), seed=5)
    window = open_window(PlayController(game), size="300x400")
    small_cell, small_font = window.cell, window.font_size("2")
    small_tile = tile_boxes(window)[0][0]

    window.root.geometry("760x900")
    pump(window, until=lambda: window.cell > small_cell)
    big_tile = tile_boxes(window)[0][0]
    assert big_tile[2] - big_tile[0] > 2 * (small_tile[2] - small_tile[0])
    assert window.font_size("2") > 2 * small_font
    assert window.shown_rows() == game.board.to_rows()

    for size in ("300x400", "760x900"):
        window.root.geometry(size)
        pump(window)
        # Longer numbers get smaller fonts, and every number lies inside its tile.
        sizes = [window.font_size(text) for text in ("2", "128", "1024", "32768", "65536")]
        assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]
        assert window.tile_font("65536").measure("65536") < window.cell
        for tile, number in tile_boxes(window):
            assert tile[0] <= number[0] and number[2] <= tile[2], (tile, number)
            assert tile[1] <= number[1] and number[3] <= tile[3], (tile, number)


def test_a_saved_game_is_resumed_with_score_and_best(open_window: OpenWindow, tmp_path: Path) -> None:
    window = open_window(PlayController.start(Saves2048(root=tmp_path), seed=6, new=True))
    for _ in range(4):
        press(window, KEYSYM[window.controller.game.board.legal_moves()[0]])
    game = window.controller.game
    board, score, best = game.board, game.score, window.controller.best
    assert score > 0 and best == score
    window.root.event_generate("<KeyPress>", keysym="q")
    assert window.closed

    again = open_window(PlayController.start(Saves2048(root=tmp_path)))
    assert again.controller.game.board == board and again.controller.game.score == score
    assert again.controller.best == best
    assert again.shown_rows() == board.to_rows()
    assert again.status_text == f"Score {score}   Best {best}   Moves 4"
    assert "Resumed your 4x4 game after 4 moves" in again.message_text


def test_a_corrupt_save_is_reported_in_the_message_line(open_window: OpenWindow, tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    saves.current_path.parent.mkdir(parents=True)
    saves.current_path.write_text("{not json")
    window = open_window(PlayController.start(saves))
    assert window.message_text.startswith("warning: ")
    assert "moved it aside" in window.message_text
    assert window.controller.game.move_count == 0


def overlay_text(window: GameWindow) -> str:
    canvas = window.canvas
    texts = [item for item in canvas.find_withtag("overlay") if canvas.type(item) == "text"]
    return " ".join(str(canvas.itemcget(item, "text")) for item in texts)


def test_reaching_2048_is_announced_once_and_play_goes_on(open_window: OpenWindow) -> None:
    game = game_at(Board.parse("1024 1024 0 0/0 0 0 0/0 0 0 2/0 0 0 0"), seed=7)  # one merge from 2048
    window = open_window(PlayController(game))
    assert window.overlay is None and overlay_text(window) == ""
    press(window, "Left")
    assert window.overlay == "won"
    assert "You reached 2048!" in overlay_text(window)
    window.overlay_buttons["keep"].invoke()
    pump(window)
    assert window.overlay is None and overlay_text(window) == ""
    assert "2048" in window.message_text  # the terminal game's banner stays in the message line
    press(window, KEYSYM[window.controller.game.board.legal_moves()[0]])
    assert window.controller.game.move_count == 2
    assert window.overlay is None  # announced once


def inside(inner: tuple[int, ...], outer: tuple[int, ...]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


@pytest.mark.parametrize("size", ["420x560", "260x330"])
def test_an_announcement_is_written_on_an_opaque_banner_over_the_tiles(open_window: OpenWindow, size: str) -> None:
    game = game_at(Board.parse("2 4 8 16/256 128 64 32/512 1024 2048 4096/4 2 16 8192"), seed=9)  # game over
    window = open_window(PlayController(game), size=size)
    canvas = window.canvas
    assert window.overlay == "over"
    (banner,) = canvas.find_withtag("banner")
    assert canvas.itemcget(banner, "stipple") == "" and canvas.itemcget(banner, "fill") == tk_board.PAGE
    stacking = canvas.find_all()  # lowest first
    assert all(stacking.index(banner) > stacking.index(number) for number in canvas.find_withtag("number"))
    area = canvas.bbox(banner)
    texts = [item for item in canvas.find_withtag("overlay") if canvas.type(item) == "text"]
    assert len(texts) == 2 and all(inside(canvas.bbox(text), area) for text in texts)
    buttons = [window.overlay_buttons["new"], window.overlay_buttons["undo"]]
    boxes = [(b.winfo_x(), b.winfo_y(), b.winfo_x() + b.winfo_width(), b.winfo_y() + b.winfo_height()) for b in buttons]
    assert all(inside(box, area) for box in boxes) and boxes[0][2] <= boxes[1][0]  # side by side, apart


def play_to_the_end(window: GameWindow) -> None:
    while not window.controller.game.over:
        press(window, KEYSYM[window.controller.game.board.legal_moves()[0]])


def test_game_over_is_announced_with_new_game_and_undo(open_window: OpenWindow) -> None:
    window = open_window(PlayController(Game(2, 2, seed=14)))
    play_to_the_end(window)
    assert window.overlay == "over"
    assert f"Game over {window.controller.game.score} points" == overlay_text(window)
    moves = window.controller.game.move_count
    window.overlay_buttons["undo"].invoke()
    pump(window)
    assert window.overlay is None and window.controller.game.move_count == moves - 1

    play_to_the_end(window)
    press(window, "i")  # nothing left for the AI to play
    assert not window.ai_on and "game is over" in window.message_text
    window.overlay_buttons["new"].invoke()  # no confirmation: the game is over
    pump(window)
    assert window.overlay is None and window.controller.game.move_count == 0


def test_frames_are_one_png_per_position(open_window: OpenWindow, tmp_path: Path) -> None:
    from PIL import Image

    from plyground.apps.render import render_board

    folder = tmp_path / "frames"
    window = open_window(PlayController(Game(2, 3, seed=8)), frames=folder)
    for _ in range(3):
        press(window, KEYSYM[window.controller.game.board.legal_moves()[0]])
    game = window.controller.game
    pngs = sorted(path.name for path in (folder / "2048-2x3-seed8").iterdir())
    assert pngs == ["00000.png", "00001.png", "00002.png", "00003.png"]
    last = Image.open(frame_path(folder, game))
    assert last.size == render_board(game.board, score=game.score).size
    assert last.convert("RGB").tobytes() == render_board(game.board, score=game.score).tobytes()

    press(window, "u")  # the undone position's frame goes
    assert sorted(path.name for path in (folder / "2048-2x3-seed8").iterdir()) == pngs[:3]


def test_screenshot_shows_the_board_in_the_palette_colours(
    open_window: OpenWindow, screenshot_path: Callable[[str], Path]
) -> None:
    from PIL import ImageGrab

    board = Board.parse("2 4 8 16/256 128 64 32/512 1024 2048 4096/0 0 0 8192")
    # The score and moves of this board made from 2s (the screenshot shows them beside it): a tile 2**k scored
    # (k - 1) * 2**k over its merges, and a game starts with two 2s and gets one more after every move.
    tiles = [value for row in board.to_rows() for value in row if value]
    score = sum((value.bit_length() - 2) * value for value in tiles if value > 2)
    game = game_at(board, seed=9, score=score, moves=sum(tiles) // 2 - 2)
    shipped = load_evaluator("network")  # as 'plyground 2048 gui' plays 4x4
    window = open_window(PlayController(game), size="460x600", evaluator=shipped)
    assert window.evaluator_text == "AI: n-tuple network ntuple-4x4.pnet"
    assert window.status_text.startswith("Score 180228 ") and window.status_text.endswith("Moves 8189")
    root = window.root
    x, y, width, height = root.winfo_rootx(), root.winfo_rooty(), root.winfo_width(), root.winfo_height()
    image = ImageGrab.grab(bbox=(x, y, x + width, y + height), xdisplay=os.environ["DISPLAY"]).convert("RGB")
    image.save(screenshot_path("tk-2048.png"))

    assert image.size == (width, height)
    counts = image.getcolors(maxcolors=width * height)
    assert counts is not None
    colours = {colour for _, colour in counts}
    assert len(colours) > 20
    for value in (0, 2, 2048, 8192):
        assert tile_colour(value) in colours, value
    assert sum(colour in colours for colour in TILE_COLOURS) >= 14


# ---------------------------------------------------------------------------- the n-tuple network


def train_tiny_network(path: Path) -> Path:
    """Train a 4x4 network of two 3-cell tuples (8,192 weights) for a moment, and save it at ``path``."""
    network = NTupleNetwork(4, 4, tuples=[[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)]], seed=0)
    network.learn(300, alpha=0.1)
    network.save(path)
    return path


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> NTupleNetwork:
    return NTupleNetwork.load(train_tiny_network(tmp_path_factory.mktemp("net") / "net.npz"))


def test_ai_mode_searches_with_the_network(open_window: OpenWindow, network: NTupleNetwork) -> None:
    window = open_window(PlayController(Game(seed=10)), time_ms=None, depth=2, evaluator=network)
    assert window.evaluator_text == "AI: n-tuple network net.npz"
    assert "e network/heuristic" in label_texts(window)
    press(window, "i")
    assert window.searcher is not None and window.searcher.engine.evaluator is network
    pump(window, until=lambda: window.controller.game.move_count >= 6, timeout=30)
    press(window, "i")
    assert window.evaluator_text == "AI: n-tuple network net.npz"
    assert window.values_text.startswith("expected future score, in points: ")  # each move's value, best first
    shown = window.values_text.split(": ", 1)[1].split(" · ")
    assert shown and all(part.split()[0] in DIRECTIONS for part in shown)

    replay = window.controller.game.replay
    with Expectimax(depth=2, workers=1, evaluator=network) as search:
        for (board, _), (move, _) in zip(replay.positions()[:-1], replay.moves, strict=True):
            assert search.choose(board).move == move, board


def test_e_switches_between_the_network_and_the_heuristic(open_window: OpenWindow, network: NTupleNetwork) -> None:
    window = open_window(PlayController(Game(seed=11)), evaluator=network, ai=True)
    pump(window, until=lambda: window.controller.game.move_count >= 2, timeout=20)
    first = window.searcher
    assert first is not None and first.engine is window.network_engine

    press(window, "e")  # the heuristic, at once: a new worker searches with it
    assert window.evaluator_text == "AI: heuristic"
    assert window.message_text == "The AI now searches with the heuristic."
    assert window.ai_on and window.searcher is not first
    assert window.searcher is not None and window.searcher.engine is window.heuristic_engine
    assert isinstance(window.searcher.engine.evaluator, Heuristic)
    moves = window.controller.game.move_count
    pump(window, until=lambda: window.controller.game.move_count >= moves + 2, timeout=20)
    pump(window, until=lambda: not first.thread.is_alive(), timeout=5)

    press(window, "e")  # and back
    assert window.evaluator_text == "AI: n-tuple network net.npz"
    assert window.searcher is not None and window.searcher.engine is window.network_engine
    moves = window.controller.game.move_count
    pump(window, until=lambda: window.controller.game.move_count >= moves + 2, timeout=20)


def test_without_a_network_the_ai_uses_the_heuristic(open_window: OpenWindow) -> None:
    window = open_window(PlayController(Game(seed=12)))
    assert window.evaluator_text == "AI: heuristic"
    assert "e network/heuristic" not in label_texts(window)
    press(window, "e")
    assert window.evaluator_text == "AI: heuristic"
    assert "No n-tuple network was given" in window.message_text


def test_a_new_game_keeps_the_size_the_network_plays(open_window: OpenWindow, network: NTupleNetwork) -> None:
    window = open_window(PlayController(Game(seed=13)), evaluator=network, ai=True)
    assert window.evaluator_text == "AI: n-tuple network net.npz"
    pump(window, until=lambda: window.controller.game.move_count >= 2, timeout=20)
    press(window, "n")  # the player takes over, and is asked first
    press(window, "y")
    game = window.controller.game
    assert game.move_count == 0 and game.board.shape == network.shape
    press(window, "i")
    pump(window, until=lambda: window.controller.game.move_count >= 2, timeout=20)
    assert window.evaluator_text == "AI: n-tuple network net.npz" and "failed" not in window.message_text


def test_a_network_for_another_board_size_is_refused(xvfb_display: str, network: NTupleNetwork) -> None:
    root = tk.Tk()
    try:
        with pytest.raises(InvalidInputError, match=r"network net\.npz plays 4x4 boards, not 3x3 ones"):
            GameWindow(PlayController(Game(3, 3, seed=1)), root=root, evaluator=network)
    finally:
        root.destroy()


def label_texts(window: GameWindow) -> str:
    """The text of every label of the window."""
    labels = [widget for widget in window.root.winfo_children() if isinstance(widget, tk.Label)]
    return "\n".join(str(label.cget("text")) for label in labels)


def test_ai_mode_plays_an_endgame_tables_move_and_says_so(open_window: OpenWindow, tables_folder: Path) -> None:
    from plyground.apps.cli.options import load_tablebases

    tables = load_tablebases(str(tables_folder), 0.1)
    game = game_at(Board.parse(TABLE_BOARD), seed=1)
    window = open_window(PlayController(game), tablebases=tables, delay_ms=300)  # time to look between two moves
    assert window.evaluator_text == "AI: heuristic + 1 endgame table"
    press(window, "i")
    pump(window, until=lambda: window.controller.game.move_count >= 1, timeout=30)
    assert window.values_text == f"endgame table {TABLE_FORMATION} for 16: up, which builds the 16 with probability " \
        "1.000000 (exact), to merge into 256"  # fmt: skip
    assert window.controller.game.replay.moves[0][0] == "up" and window.controller.game.board[1, 2] == 16
    assert window.searcher is not None and window.searcher.tablebases is tables
    press(window, "i")
