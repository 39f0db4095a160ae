"""The desktop 2048 game in a Tk window: ``plyground 2048 gui``.

The design keeps every part small and testable:

* The rules, the best score and the saves belong to
  :class:`~plyground.apps.play.PlayController`, which the terminal game drives too. Both games
  use the same save files, so a game left in one is resumed in the other.
* :class:`GameWindow` is the Tk layer. A status line, the board, a message line and a row of
  buttons. The board (:class:`~plyground.apps.tk_board.BoardCanvas`) is redrawn from the
  controller's state after every change and on ``<Configure>``, scaled to the window. The win,
  the game over and the new-game question are shown over the board, with buttons.
* AI mode runs :class:`~plyground.g2048.Expectimax` in a
  :class:`~plyground.apps.searcher.Searcher` thread. The window
  sends it the board, and the thread posts the decision on a queue. The Tk main thread polls
  that queue with ``after()`` and plays the move, so the window never waits for a search.
  The worker never calls Tk. Stopping AI mode or closing the window stops the worker.
* The AI values the leaves of its search with the heuristic or, when the window is given one
  (on 4×4 the network shipped with plyground, unless ``--evaluator`` says otherwise), an
  n-tuple network; a line under the buttons names the one in use, and ``e`` switches between
  them. The next line gives each move's value in the AI's last search: with a network the
  expected future score in points, with the heuristic in heuristic units. A window keeps its board size (a new game has
  the size of the last one), so the network always fits the board. Given endgame tables, the AI plays a table's
  move where one advises, unsearched, and that line names the table and the move's exact probability instead.
* ``--frames DIR`` writes one PNG per position (:class:`~plyground.apps.frames.FrameWriter`),
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
from pathlib import Path
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, Literal

from plyground.apps.frames import FrameWriter
from plyground.apps.play import KEYS_HELP, Mode, PlayController, action_for
from plyground.apps.render import DARK_TEXT
from plyground.apps.searcher import Answer, Searcher
from plyground.apps.text import counted, table_line, values_line
from plyground.apps.tk_board import FONT_FAMILY, PAGE, Announcement, BoardCanvas, hex_colour
from plyground.errors import InvalidInputError, PlygroundError
from plyground.g2048 import WIN_TILE, Expectimax
from plyground.g2048.evaluator import Evaluator
from plyground.g2048.heuristic import Heuristic

if TYPE_CHECKING:
    from plyground.g2048.tablebase import Advisor

__all__ = ["DEFAULT_DELAY_MS", "DEFAULT_TIME_MS", "GameWindow", "Overlay", "open_root"]

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

_POLL_MS = 10  # how often the main thread looks for the AI's decision

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


# ---------------------------------------------------------------------------- the window


class GameWindow:
    """The 2048 game in a Tk window: the player's keys, or the AI, play the controller's game.

    Args:
        controller: the game, best score and saves (see :meth:`PlayController.start`).
        root: the Tk main window to fill (default: a new one from :func:`open_root`). Closing
            the game destroys it.
        time_ms: the AI's time budget per move (None: a fixed ``depth``).
        depth: the AI's deepest search depth (with ``time_ms`` None: a fixed depth).
        workers: the AI's search threads (default: one per core, at most 4: one per root move).
        delay_ms: the pause between two AI moves.
        ai: start in AI mode.
        frames: a folder for one PNG per position (see :func:`~plyground.apps.frames.frame_path`), or None.
        evaluator: what values the AI's leaves (default: the heuristic with the weights
            shipped with plyground). Another evaluator than the heuristic, an n-tuple network,
            must play the game's board size; ``e`` then switches to the heuristic and back.
        tablebases: endgame tables, built for the game's ``p_four``, whose moves the AI plays where one advises.

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
        tablebases: Advisor | None = None,
    ) -> None:
        if not (isinstance(delay_ms, int) and delay_ms >= 0):
            raise InvalidInputError(f"delay_ms must be a non-negative integer, got {delay_ms!r}")
        p_four = controller.game.p_four
        heuristic = evaluator if evaluator is not None and evaluator.kind == "heuristic" else None
        leaves = heuristic if heuristic is not None else Heuristic()  # not Expectimax's default: the network on 4x4
        self.heuristic_engine = Expectimax(time_ms, depth, workers=workers, p_four=p_four, evaluator=leaves)
        """The AI's search with the heuristic at the leaves."""
        self.network_engine: Expectimax | None = None
        """The AI's search with the n-tuple network at the leaves (None without a network)."""
        if evaluator is not None and heuristic is None:
            evaluator.check_board(controller.game.board)
            self.network_engine = Expectimax(time_ms, depth, workers=workers, p_four=p_four, evaluator=evaluator)
        self.use_network = self.network_engine is not None
        self.tablebases = tablebases
        """Whether the AI searches with the network (else with the heuristic); ``e`` switches."""
        self.controller = controller
        self.root = root if root is not None else open_root()
        self.delay_ms = delay_ms
        self.frames = FrameWriter(frames) if frames is not None else None
        """Writes one PNG per position (None without ``frames``, or once a frame could not be written)."""
        self.closed = False
        self._interrupted = False
        self.failure: BaseException | None = None
        """An error met in a Tk callback: the window closes and :meth:`run` raises it."""

        self.ai_on = False
        self.ai_depth = 0
        self._values = ""
        self.searcher: Searcher | None = None
        self._searchers: list[Searcher] = []
        self._ai_times: collections.deque[float] = collections.deque(maxlen=16)
        self._after: dict[str, str] = {}

        self.win_pending = False
        self._game_seen = controller.game
        self._won_seen = controller.game.won

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
        self.status = _label(root, (FONT_FAMILY, 13, "bold"))
        self.status.pack(side="top", fill="x", padx=8, pady=(6, 0))
        self.board_view = BoardCanvas(root, board.rows, board.cols)
        """The board's drawing."""
        self.canvas = self.board_view.canvas
        self.canvas.pack(side="top", fill="both", expand=True)
        self.message = _label(root, (FONT_FAMILY, 11))
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
        self.evaluator_label = _label(root, (FONT_FAMILY, 10))
        self.evaluator_label.pack(side="top", fill="x", padx=8)
        self.values_label = _label(root, (FONT_FAMILY, 10))
        self.values_label.pack(side="top", fill="x", padx=8)
        switch = "   e network/heuristic" if self.network_engine is not None else ""
        keys = _label(root, (FONT_FAMILY, 9), text=f"{KEYS_HELP}   i/space AI{switch}")
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
        """The line that names the AI's evaluator: ``AI: heuristic`` or ``AI: n-tuple network NAME`` (and
        ``+ 2 endgame tables``)."""
        return str(self.evaluator_label.cget("text"))

    @property
    def values_text(self) -> str:
        """The line that gives each move's value in the AI's last search, with what the values count."""
        return str(self.values_label.cget("text"))

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
        return self.board_view.shown_rows(board.rows, board.cols)

    def running_searchers(self) -> list[Searcher]:
        """The AI worker threads still alive (one in AI mode; stopped ones end after their search)."""
        self._searchers = [searcher for searcher in self._searchers if searcher.thread.is_alive()]
        return list(self._searchers)

    @property
    def cell(self) -> int:
        """The side of a tile in pixels, as last drawn."""
        return self.board_view.cell

    def tile_font(self, text: str) -> tkfont.Font:
        """The font of a tile showing ``text`` at the current tile size (see :meth:`BoardCanvas.tile_font`)."""
        return self.board_view.tile_font(text)

    def font_size(self, text: str) -> int:
        """The pixel size of the font of a tile showing ``text``."""
        return self.board_view.font_size(text)

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
            self.searcher = Searcher(self.engine, self.tablebases)
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
            self.controller.message = "No n-tuple network was given: start with --evaluator ntuple:PATH."
        elif network != self.use_network:
            self.use_network = network
            if self.ai_on and self.searcher is not None:
                self.searcher.stop()
                self.searcher = Searcher(self.engine, self.tablebases)
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
        evaluator = self.engine.evaluator
        downgraded = answer.decision.searched is not None
        values = values_line(answer.decision.values.items(), evaluator.unit, downgraded=downgraded)
        self._values = table_line(answer.advice) if answer.advice is not None else values
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
            self.board_view.forget_fonts()

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
        tables = f" + {counted(len(self.tablebases), 'endgame table')}" if self.tablebases else ""
        self.evaluator_label.configure(text=f"AI: {self.evaluator_name}{tables}")
        self.values_label.configure(text=self._values)
        self._write_frame()
        self._draw()

    def _write_frame(self) -> None:
        if self.frames is None:
            return
        try:
            self.frames.write(self.controller.game)
        except OSError as exc:
            folder = self.frames.folder
            self.controller.message = f"cannot write frames in {folder}: {exc.strerror or exc}; frames stopped"
            self.frames = None

    def _draw(self) -> None:
        """Draw the board to fit the canvas, then the announcement over it, if any."""
        if self.closed:
            return
        self.message.configure(wraplength=max(200, self.canvas.winfo_width() - 16))
        self.board_view.draw(self.controller.game.board, self._announcement())

    def _announcement(self) -> Announcement | None:
        """What to show over the board, with its buttons (see :attr:`overlay`)."""
        overlay = self.overlay
        buttons = self.overlay_buttons
        if overlay == "confirm":
            return Announcement("New game?", "The current game will be lost.", (buttons["yes"], buttons["no"]))
        if overlay == "over":
            return Announcement("Game over", f"{self.controller.game.score} points", (buttons["new"], buttons["undo"]))
        if overlay == "won":
            return Announcement(f"You reached {WIN_TILE}!", "Play on for a bigger tile.", (buttons["keep"],))
        return None

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
        parent, text=text, font=font, background=PAGE, foreground=hex_colour(DARK_TEXT), anchor="w", justify="left"
    )
