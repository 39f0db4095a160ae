"""The desktop 2048 game in a Tk window: ``plyground 2048 gui``.

The design keeps every part small and testable:

* The rules, the best score and the saves belong to
  :class:`~plyground.apps.play.PlayController`, which the terminal game drives too. Both games
  use the same save files, so a game left in one is resumed in the other.
* :class:`GameWindow` is the Tk layer. A status line, a :class:`tkinter.Canvas`, a message line
  and a row of buttons. The canvas is redrawn from the controller's state after every change and
  on ``<Configure>``: tiles are scaled to the window and each number gets the largest font that
  fits its tile. The colours are the shared palette of :mod:`plyground.apps.render`. The win,
  the game over and the new-game question are shown over the board, with buttons.
* AI mode runs :class:`~plyground.g2048.Expectimax` in a :class:`Searcher` thread. The window
  sends it the board, and the thread posts the decision on a queue. The Tk main thread polls
  that queue with ``after()`` and plays the move, so the window never waits for a search.
  The worker never calls Tk. Stopping AI mode or closing the window stops the worker.
* The AI values the leaves of its search with the heuristic or, when the window is given one
  (``--evaluator ntuple:FILE``), a trained n-tuple network; a line under the buttons names the
  one in use, and ``e`` switches between them. A window keeps its board size (a new game has
  the size of the last one), so the network always fits the board.
* ``--frames DIR`` writes one PNG per position with :func:`plyground.apps.render.save_frame`,
  named like the frames of ``plyground 2048 ai``: ``DIR/2048-<R>x<C>-seed<seed>/00001.png``.

Tests drive a window without ``mainloop()``: they send events and call ``root.update()``.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import signal
import threading
import time
import tkinter as tk
import tkinter.font as tkfont
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, TracebackType
from typing import Literal

from plyground.apps.play import KEYS_HELP, Mode, PlayController, action_for
from plyground.apps.render import BACKGROUND, DARK_TEXT, text_colour, tile_colour
from plyground.errors import InvalidInputError, PlygroundError
from plyground.g2048 import WIN_TILE, Board, Decision, Expectimax, Game
from plyground.g2048.evaluator import Evaluator, Heuristic

__all__ = ["DEFAULT_DELAY_MS", "DEFAULT_TIME_MS", "GameWindow", "Overlay", "Searcher", "frame_path", "open_root"]

DEFAULT_TIME_MS = 50.0
"""The AI's default time budget per move, in milliseconds."""
DEFAULT_DELAY_MS = 50
"""The default pause between two AI moves, in milliseconds."""
TITLE = "plyground 2048"

KEYSYMS = {"Up": "KEY_UP", "Right": "KEY_RIGHT", "Down": "KEY_DOWN", "Left": "KEY_LEFT"}
"""Tk names of the arrow keys and the curses names :class:`PlayController` knows them by."""
AI_KEYS = ("i", " ")
EVALUATOR_KEYS = ("e",)
DISMISS_KEYS = ("Return", "KP_Enter", "Escape")

PAGE = "#faf8ef"
_GAP = 0.12  # the gap between tiles, as a share of a tile's side
_MARGIN = 6  # pixels around the board
_TEXT_SHARE = 0.8  # a number takes at most this share of its tile's side
_POLL_MS = 10  # how often the main thread looks for the AI's decision
_FONT_FAMILY = "Helvetica"

Overlay = Literal["won", "over", "confirm"]


def open_root() -> tk.Tk:
    """A new Tk main window.

    Raises:
        PlygroundError: no display can be opened (no ``DISPLAY``, or the X server refuses).
    """
    try:
        return tk.Tk(className="plyground")
    except tk.TclError as exc:
        raise PlygroundError(
            f"cannot open the game window ({exc}): the desktop game needs a graphical display"
        ) from None


def frame_path(folder: Path, game: Game, index: int | None = None) -> Path:
    """Where ``--frames`` puts the picture of ``game`` after ``index`` moves (default: now).

    >>> frame_path(Path("frames"), Game(2, 3, seed=4), 7).as_posix()
    'frames/2048-2x3-seed4/00007.png'
    """
    index = game.move_count if index is None else index
    return folder / f"2048-{game.board.rows}x{game.board.cols}-seed{game.seed}" / f"{index:05d}.png"


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


# ---------------------------------------------------------------------------- the AI worker


@dataclass(frozen=True)
class Answer:
    """What a :class:`Searcher` posts: the board it searched and the decision, or why it failed."""

    board: Board
    decision: Decision | None
    error: str = ""


class Searcher:
    """A worker thread that searches the boards it is sent and posts the decisions on :attr:`answers`.

    It never calls Tk: the window reads :attr:`answers` from the main thread. :meth:`stop` makes the
    thread end after the search in progress (at most about the engine's time budget).

    Args:
        engine: the search to run.
    """

    def __init__(self, engine: Expectimax) -> None:
        self.engine = engine
        self.answers: queue.SimpleQueue[Answer] = queue.SimpleQueue()
        self._requests: queue.SimpleQueue[Board | None] = queue.SimpleQueue()
        self._stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="plyground-2048-ai", daemon=True)
        self.thread.start()

    def ask(self, board: Board) -> None:
        """Search ``board``; its :class:`Answer` arrives on :attr:`answers`."""
        self._requests.put(board)

    def stop(self) -> None:
        """Ask the thread to end; answers not yet posted are dropped."""
        self._stopped.set()
        self._requests.put(None)

    def _run(self) -> None:
        while not self._stopped.is_set():
            board = self._requests.get()
            if board is None:
                return
            try:
                decision = self.engine.choose(board)
            except Exception as exc:  # shown by the window, which turns AI mode off
                self.answers.put(Answer(board, None, f"the AI failed: {exc}"))
                return
            if not self._stopped.is_set():
                self.answers.put(Answer(board, decision))


# ---------------------------------------------------------------------------- the window


class GameWindow:
    """The 2048 game in a Tk window: the player's keys, or the AI, play the controller's game.

    Args:
        controller: the game, best score and saves (see :meth:`PlayController.start`).
        root: the Tk main window to fill (default: a new one from :func:`open_root`). Closing
            the game destroys it.
        time_ms: the AI's time budget per move (None: a fixed ``depth``).
        depth: the AI's deepest search depth (with ``time_ms`` None: a fixed depth).
        workers: the AI's search threads (default: every core).
        delay_ms: the pause between two AI moves.
        ai: start in AI mode.
        frames: a folder for one PNG per position (see :func:`frame_path`), or None.
        evaluator: what values the AI's leaves (default: the heuristic with the weights
            shipped with plyground). Another evaluator than the heuristic, an n-tuple network,
            must play the game's board size; ``e`` then switches to the heuristic and back.

    Raises:
        InvalidInputError: a bad ``time_ms``, ``depth``, ``workers`` or ``delay_ms``, or a
            evaluator for another board size than the game's.
        PlygroundError: no display (when ``root`` is not given).
    """

    def __init__(
        self,
        controller: PlayController,
        *,
        root: tk.Tk | None = None,
        time_ms: float | None = DEFAULT_TIME_MS,
        depth: int | None = None,
        workers: int | None = None,
        delay_ms: int = DEFAULT_DELAY_MS,
        ai: bool = False,
        frames: Path | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        if not (isinstance(delay_ms, int) and delay_ms >= 0):
            raise InvalidInputError(f"delay_ms must be a non-negative integer, got {delay_ms!r}")
        p_four = controller.game.p_four
        heuristic = evaluator if isinstance(evaluator, Heuristic) else None
        self.heuristic_engine = Expectimax(time_ms, depth, None, workers, p_four=p_four, evaluator=heuristic)
        """The AI's search with the heuristic at the leaves."""
        self.network_engine: Expectimax | None = None
        """The AI's search with the n-tuple network at the leaves (None without a network)."""
        if evaluator is not None and heuristic is None:
            evaluator.check_board(controller.game.board)
            self.network_engine = Expectimax(time_ms, depth, None, workers, p_four=p_four, evaluator=evaluator)
        self.use_network = self.network_engine is not None
        """Whether the AI searches with the network (else with the heuristic); ``e`` switches."""
        self.controller = controller
        self.root = root if root is not None else open_root()
        self.delay_ms = delay_ms
        self.frames = frames
        self.closed = False
        self._interrupted = False
        self.failure: BaseException | None = None
        """An error met in a Tk callback: the window closes and :meth:`run` raises it."""

        self.ai_on = False
        self.ai_depth = 0
        self.searcher: Searcher | None = None
        self._searchers: list[Searcher] = []
        self._ai_times: collections.deque[float] = collections.deque(maxlen=16)
        self._after: dict[str, str] = {}

        self.win_pending = False
        self._game_seen = controller.game
        self._won_seen = controller.game.won
        self._frame_seen: tuple[Path, int, Board] | None = None  # the game's frame folder, moves, board

        self.cell = 0
        """The side of a tile in pixels, as last drawn."""
        self._fonts: dict[int, tkfont.Font] = {}
        self._font_sizes: dict[tuple[int, str], int] = {}
        self._build()
        if len(controller.warnings) > 1:
            controller.message = "\n".join(controller.warnings)
        self.refresh()
        if ai:
            self.set_ai(True)

    # ------------------------------------------------------------------ widgets

    def _build(self) -> None:
        root = self.root
        root.title(TITLE)
        root.configure(background=PAGE)
        root.minsize(240, 300)
        root.protocol("WM_DELETE_WINDOW", self.close)
        root.report_callback_exception = self._report
        board = self.controller.game.board
        self.status = _label(root, (_FONT_FAMILY, 13, "bold"))
        self.status.pack(side="top", fill="x", padx=8, pady=(6, 0))
        self.canvas = tk.Canvas(
            root, width=110 * board.cols, height=110 * board.rows, background=PAGE, highlightthickness=0
        )
        self.canvas.pack(side="top", fill="both", expand=True)
        self.message = _label(root, (_FONT_FAMILY, 11))
        self.message.pack(side="top", fill="x", padx=8)
        bar = tk.Frame(root, background=PAGE)
        bar.pack(side="top", fill="x", padx=6, pady=4)
        self.buttons = {
            "new": tk.Button(bar, text="New game (n)", command=lambda: self.press("n")),
            "undo": tk.Button(bar, text="Undo (u)", command=lambda: self.press("u")),
            "ai": tk.Button(bar, text="AI: off (i)", command=lambda: self.set_ai(not self.ai_on)),
            "quit": tk.Button(bar, text="Save and quit (q)", command=self.close),
        }
        for button in self.buttons.values():
            button.configure(takefocus=0)
            button.pack(side="left", padx=2)
        self.evaluator_label = _label(root, (_FONT_FAMILY, 10))
        self.evaluator_label.pack(side="top", fill="x", padx=8)
        switch = "   e network/heuristic" if self.network_engine is not None else ""
        keys = _label(root, (_FONT_FAMILY, 9), text=f"{KEYS_HELP}   i/space AI{switch}")
        keys.pack(side="top", fill="x", padx=8, pady=(0, 6))
        # Buttons over the board, placed by _draw_overlay.
        self.overlay_buttons = {
            "keep": tk.Button(self.canvas, text="Keep playing", command=self.keep_playing),
            "new": tk.Button(self.canvas, text="New game", command=lambda: self.press("n")),
            "undo": tk.Button(self.canvas, text="Undo", command=lambda: self.press("u")),
            "yes": tk.Button(self.canvas, text="Yes, a new game", command=lambda: self.press("y")),
            "no": tk.Button(self.canvas, text="No, keep this one", command=lambda: self.press("n")),
        }
        for button in self.overlay_buttons.values():
            button.configure(takefocus=0)
        self.canvas.bind("<Configure>", lambda event: self._draw())
        root.bind("<Key>", self._on_key)
        root.focus_force()

    def _report(self, kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        """A Tk callback raised: keep the error for :meth:`run` and close (saving if possible)."""
        if self.failure is None:
            self.failure = error
        with contextlib.suppress(Exception):
            self.close()

    # ------------------------------------------------------------------ what tests and users read

    @property
    def overlay(self) -> Overlay | None:
        """What is shown over the board: the new-game question, the game over, the win, or nothing."""
        if self.controller.mode is Mode.CONFIRM_NEW:
            return "confirm"
        if self.controller.game.over:
            return "over"
        if self.win_pending:
            return "won"
        return None

    @property
    def status_text(self) -> str:
        """The status line: score, best, moves and, in AI mode, the last search's depth and the moves/s."""
        return str(self.status.cget("text"))

    @property
    def message_text(self) -> str:
        """The message line."""
        return str(self.message.cget("text"))

    @property
    def evaluator_text(self) -> str:
        """The line that names the AI's evaluator: ``AI: heuristic`` or ``AI: n-tuple network NAME``."""
        return str(self.evaluator_label.cget("text"))

    @property
    def engine(self) -> Expectimax:
        """The search the AI runs: with the network when :attr:`use_network`, else with the heuristic."""
        if self.use_network and self.network_engine is not None:
            return self.network_engine
        return self.heuristic_engine

    @property
    def evaluator_name(self) -> str:
        """What values the AI's leaves, in words: ``heuristic`` or ``n-tuple network NAME``."""
        return self.engine.evaluator.label

    @property
    def moves_per_second(self) -> float:
        """The AI's recent pace (0 until it has made two moves)."""
        times = self._ai_times
        if len(times) < 2 or times[-1] <= times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])

    def shown_rows(self) -> list[list[int]]:
        """The board as the canvas shows it, read from its items (0 for an empty cell)."""
        board = self.controller.game.board
        rows = [[0] * board.cols for _ in range(board.rows)]
        for item in self.canvas.find_withtag("number"):
            tags = self.canvas.gettags(item)
            r, c = (int(part) for part in next(tag for tag in tags if tag.startswith("number-")).split("-")[1:])
            rows[r][c] = int(self.canvas.itemcget(item, "text"))  # type: ignore[no-untyped-call]
        return rows

    def running_searchers(self) -> list[Searcher]:
        """The AI worker threads still alive (one in AI mode; stopped ones end after their search)."""
        self._searchers = [searcher for searcher in self._searchers if searcher.thread.is_alive()]
        return list(self._searchers)

    def tile_font(self, text: str) -> tkfont.Font:
        """The font of a tile showing ``text`` at the current tile size: the largest that fits.

        A number takes at most 80% of its tile's width and height, and at most half its
        height for one or two digits; longer numbers get smaller fonts.
        """
        return self._font(self.font_size(text))

    def font_size(self, text: str) -> int:
        """The pixel size of the font of a tile showing ``text`` (see :meth:`tile_font`)."""
        cell = max(self.cell, 8)
        key = (cell, text)
        if key not in self._font_sizes:
            room = cell * _TEXT_SHARE
            size = max(6, int(cell * 0.5))
            font = self._font(size)
            width = font.measure(text)
            if width > room:
                size = max(6, int(size * room / width))
            while size > 6 and (self._font(size).measure(text) > room or self._font(size).metrics("linespace") > room):
                size -= 1
            self._font_sizes[key] = size
        return self._font_sizes[key]

    def _font(self, size: int) -> tkfont.Font:
        if size not in self._fonts:
            self._fonts[size] = tkfont.Font(root=self.root, family=_FONT_FAMILY, size=-size, weight="bold")
        return self._fonts[size]

    # ------------------------------------------------------------------ actions

    def press(self, key: str) -> None:
        """Answer a key: a character, a curses arrow name (``"KEY_LEFT"``), or a Tk key name for Return/Escape.

        Moves, undo and new game are :class:`PlayController`'s keys. ``i`` or space toggles AI mode;
        a game key in AI mode hands the game back to the player first. ``q`` saves and closes.
        """
        if self.closed:
            return
        controller = self.controller
        if len(key) == 1:
            key = key.lower()
        if controller.mode is Mode.CONFIRM_NEW:
            controller.handle_key("y" if key == "y" else "n")
        elif key in AI_KEYS:
            self.set_ai(not self.ai_on)
            return
        elif key in EVALUATOR_KEYS:
            self.set_evaluator(network=not self.use_network)
            return
        elif key in DISMISS_KEYS:
            if self.win_pending:
                self.keep_playing()
            return
        else:
            action = action_for(key)
            if action == "quit":
                self.close()
                return
            if action is not None:
                self.set_ai(False)
                self.win_pending = False  # a move after the win is "keep playing"
            controller.handle_key(key)
        self.refresh()

    def keep_playing(self) -> None:
        """Dismiss the win announcement; play (or the AI) goes on."""
        self.win_pending = False
        self.refresh()
        if self.ai_on:
            self._schedule_search()

    def set_ai(self, on: bool) -> None:
        """Turn AI mode on or off; off stops the worker thread after its current search."""
        if on == self.ai_on or self.closed:
            return
        controller = self.controller
        if on:
            if controller.game.over:
                controller.message = "The game is over: start a new one (n) or undo (u) for the AI to play."
                self.refresh()
                return
            controller.mode = Mode.PLAY  # AI mode answers the new-game question: no
            self.win_pending = False
            self.searcher = Searcher(self.engine)
            self._searchers.append(self.searcher)
            self.ai_on = True
            self._ai_times.clear()
            controller.message = "AI mode: i or space hands the game back to you."
            self._schedule_search()
            self._after["poll"] = self.root.after(_POLL_MS, self._poll)
        else:
            self.ai_on = False
            if self.searcher is not None:
                self.searcher.stop()
                self.searcher = None
            for name in ("search", "poll"):
                if name in self._after:
                    self.root.after_cancel(self._after.pop(name))
            controller.message = "AI mode off: your move."
        self.refresh()

    def set_evaluator(self, *, network: bool) -> None:
        """Let the AI search with the network (True) or the heuristic (False).

        In AI mode the search in progress is dropped and the next one uses the new evaluator.
        Without a network the heuristic stays, and the message line says why.
        """
        if self.closed:
            return
        if network and self.network_engine is None:
            self.controller.message = "No n-tuple network was given: start with --evaluator ntuple:FILE."
        elif network != self.use_network:
            self.use_network = network
            if self.ai_on and self.searcher is not None:
                self.searcher.stop()
                self.searcher = Searcher(self.engine)
                self._searchers.append(self.searcher)
                self.ai_depth = 0
                self._ai_times.clear()
                self._schedule_search()
            self.controller.message = f"The AI now searches with the {self.evaluator_name}."
        self.refresh()

    def _schedule_search(self) -> None:
        if "search" in self._after:
            self.root.after_cancel(self._after.pop("search"))
        self._after["search"] = self.root.after(self.delay_ms, self._ask)

    def _ask(self) -> None:
        self._after.pop("search", None)
        if self.ai_on and self.searcher is not None and self.overlay is None:
            self.searcher.ask(self.controller.game.board)

    def _poll(self) -> None:
        """Play the AI's decision if it has come (main thread, every few milliseconds in AI mode)."""
        self._after.pop("poll", None)
        searcher = self.searcher
        if not self.ai_on or searcher is None:
            return
        try:
            answer = searcher.answers.get_nowait()
        except queue.Empty:
            pass
        else:
            self._play_answer(answer)
        if self.ai_on and not self.closed:
            self._after["poll"] = self.root.after(_POLL_MS, self._poll)

    def _play_answer(self, answer: Answer) -> None:
        controller = self.controller
        if answer.decision is None or answer.decision.move is None:
            self.set_ai(False)
            if answer.error:
                controller.message = answer.error
                self.refresh()
            return
        if answer.board != controller.game.board:
            return  # searched before the player changed the board
        controller.message = ""
        controller.move(answer.decision.move)
        self.ai_depth = answer.decision.depth
        self._ai_times.append(time.perf_counter())
        self.refresh()
        if controller.game.over:
            self.set_ai(False)
            controller.message = f"The AI has no move left: game over with {controller.game.score} points."
            self.refresh()
        elif self.ai_on:
            self._schedule_search()

    def close(self) -> None:
        """Save, stop the AI and destroy the window (what ``q`` and closing the window do)."""
        if self.closed:
            return
        self.closed = True
        self.ai_on = False
        for after_id in self._after.values():
            with contextlib.suppress(tk.TclError):
                self.root.after_cancel(after_id)
        self._after.clear()
        for searcher in self._searchers:
            searcher.stop()
        self.searcher = None
        try:
            if self.controller.running:
                self.controller.quit()
        finally:
            timeout = 2.0 + 4 * (self.engine.time_ms or 0) / 1000
            for searcher in self._searchers:
                searcher.thread.join(timeout)
            if not self.running_searchers():  # else a search is stuck: its daemon thread ends with the process
                for engine in (self.heuristic_engine, self.network_engine):
                    if engine is not None:
                        engine.close()
            with contextlib.suppress(tk.TclError):
                self.root.destroy()
            # Free the Tk objects here, in the main thread: the garbage collector may run in any
            # thread, and Tcl aborts the process when an interpreter is freed from another one.
            vars(self.root).pop("report_callback_exception", None)
            self._fonts.clear()

    def run(self) -> None:
        """Run the Tk event loop until the window is closed; Ctrl-C saves and closes.

        Raises:
            BaseException: what a Tk callback raised (the game was saved if possible).
        """
        previous = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGINT, self._on_interrupt)
        try:
            self._watch_interrupt()
            self.root.mainloop()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
            self.close()
        if self.failure is not None:
            raise self.failure

    def _on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        self._interrupted = True

    def _watch_interrupt(self) -> None:
        """Python runs signal handlers only while it runs: wake it up now and then, and close on Ctrl-C."""
        if self._interrupted:
            self.close()
        elif not self.closed:
            self.root.after(200, self._watch_interrupt)

    # ------------------------------------------------------------------ drawing

    def refresh(self) -> None:
        """Show the controller's state: announcements, status, message, board (and write a frame)."""
        if self.closed:
            return
        if not self.controller.running:
            self.close()
            return
        controller = self.controller
        game = controller.game
        if game is not self._game_seen:  # a new game
            self._game_seen, self._won_seen, self.win_pending = game, game.won, False
        elif game.won and not self._won_seen:
            self._won_seen = self.win_pending = True
        status = controller.status
        if self.ai_on:
            depth = f"depth {self.ai_depth}" if self.ai_depth else "thinking"
            status += f"   AI {depth}, {self.moves_per_second:.1f} moves/s"
        self.status.configure(text=status)
        message = controller.message or (controller.banner if not self.win_pending else "")
        self.message.configure(text=message)
        self.buttons["ai"].configure(text=f"AI: {'on' if self.ai_on else 'off'} (i)")
        self.evaluator_label.configure(text=f"AI: {self.evaluator_name}")
        self._write_frame()
        self._draw()

    def _write_frame(self) -> None:
        if self.frames is None:
            return
        game = self.controller.game
        path = frame_path(self.frames, game)
        seen = (path.parent, game.move_count, game.board)
        if seen == self._frame_seen:
            return
        from plyground.apps.render import save_frame

        try:
            if self._frame_seen is not None and self._frame_seen[0] == path.parent:
                for index in range(game.move_count + 1, self._frame_seen[1] + 1):  # undone moves
                    frame_path(self.frames, game, index).unlink(missing_ok=True)
            save_frame(game.board, path, score=game.score)
        except OSError as exc:
            self.controller.message = f"cannot write frames in {self.frames}: {exc.strerror or exc}; frames stopped"
            self.frames = None
            return
        self._frame_seen = seen

    def _draw(self) -> None:
        """Draw the board to fit the canvas, then the announcement over it, if any."""
        if self.closed:
            return
        canvas = self.canvas
        canvas.delete("all")
        width, height = canvas.winfo_width(), canvas.winfo_height()
        self.message.configure(wraplength=max(200, width - 16))
        board = self.controller.game.board
        rows, cols = board.rows, board.cols
        unit = min(
            (width - 2 * _MARGIN) / (cols + _GAP * (cols + 1)),
            (height - 2 * _MARGIN) / (rows + _GAP * (rows + 1)),
        )
        self.cell = cell = max(8, int(unit))
        gap = max(2, round(unit * _GAP))
        board_w, board_h = cols * cell + (cols + 1) * gap, rows * cell + (rows + 1) * gap
        left, top = (width - board_w) // 2, (height - board_h) // 2
        _rounded(canvas, left, top, left + board_w, top + board_h, gap, fill=_hex(BACKGROUND), tags=("board",))
        for r, row in enumerate(board.to_rows()):
            for c, value in enumerate(row):
                x0, y0 = left + gap + c * (cell + gap), top + gap + r * (cell + gap)
                tags = ("tile", f"tile-{r}-{c}")
                _rounded(
                    canvas, x0, y0, x0 + cell, y0 + cell, max(2, cell // 14), fill=_hex(tile_colour(value)), tags=tags
                )
                if value:
                    canvas.create_text(
                        x0 + cell / 2,
                        y0 + cell / 2,
                        text=str(value),
                        fill=_hex(text_colour(value)),
                        font=self.tile_font(str(value)),
                        tags=("number", f"number-{r}-{c}"),
                    )
        self._draw_overlay(left, top, board_w, board_h)

    def _draw_overlay(self, left: int, top: int, width: int, height: int) -> None:
        overlay = self.overlay
        if overlay is None:
            return
        controller = self.controller
        buttons: tuple[str, ...]
        if overlay == "confirm":
            title, detail, buttons = "New game?", "The current game will be lost.", ("yes", "no")
        elif overlay == "over":
            title, detail, buttons = "Game over", f"{controller.game.score} points", ("new", "undo")
        else:
            title, detail, buttons = f"You reached {WIN_TILE}!", "Play on for a bigger tile.", ("keep",)
        canvas = self.canvas
        canvas.create_rectangle(
            left, top, left + width, top + height, fill=PAGE, stipple="gray50", outline="", tags=("overlay",)
        )
        size = max(12, height // 8)
        while size > 10 and self._font(size).measure(title) > width * 0.9:  # the title fits the board
            size -= 2
        middle = left + width / 2
        canvas.create_text(
            middle, top + height * 0.3, text=title, font=self._font(size), fill=_hex(DARK_TEXT), tags=("overlay",)
        )
        canvas.create_text(
            middle,
            top + height * 0.3 + size * 1.2,
            text=detail,
            font=(_FONT_FAMILY, max(9, size // 2)),
            fill=_hex(DARK_TEXT),
            tags=("overlay",),
        )
        spacing = width / (len(buttons) + 1)
        for i, name in enumerate(buttons, start=1):
            canvas.create_window(
                left + spacing * i, top + height * 0.68, window=self.overlay_buttons[name], tags=("overlay",)
            )

    # ------------------------------------------------------------------ keys

    def _on_key(self, event: tk.Event[tk.Misc]) -> str | None:
        if event.keysym in KEYSYMS:
            key = KEYSYMS[event.keysym]
        elif event.keysym in DISMISS_KEYS:
            key = event.keysym
        elif len(event.char) == 1 and event.char.isprintable():
            key = event.char
        else:
            return None  # Shift, Control and other keys that type nothing
        self.press(key)
        return "break"


def _label(parent: tk.Misc, font: tuple[str, int] | tuple[str, int, str], text: str = "") -> tk.Label:
    return tk.Label(
        parent, text=text, font=font, background=PAGE, foreground=_hex(DARK_TEXT), anchor="w", justify="left"
    )


def _rounded(
    canvas: tk.Canvas, x0: float, y0: float, x1: float, y1: float, radius: float, *, fill: str, tags: tuple[str, ...]
) -> int:
    """A filled rectangle with rounded corners (a smoothed polygon: each corner point doubled)."""
    r = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    points = (
        x0 + r, y0, x0 + r, y0, x1 - r, y0, x1 - r, y0, x1, y0, x1, y0 + r, x1, y0 + r,
        x1, y1 - r, x1, y1 - r, x1, y1, x1 - r, y1, x1 - r, y1, x0 + r, y1, x0 + r, y1,
        x0, y1, x0, y1 - r, x0, y1 - r, x0, y0 + r, x0, y0 + r, x0, y0,
    )  # fmt: skip
    return canvas.create_polygon(points, smooth=True, fill=fill, outline="", tags=tags)
