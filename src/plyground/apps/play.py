"""The 2048 game a person plays, without any screen: keys, moves, undo, new games, the best score and saves.

:class:`PlayController` maps a key to an action, plays it on the
:class:`~plyground.g2048.Game`, keeps the best score and saves after every change. It does
no I/O of its own, so both front ends drive it (the terminal game of
:mod:`plyground.apps.terminal`, drawn with curses, and the desktop game of
:mod:`plyground.apps.tk`), and it is tested without either. Given an :class:`Advisor`, it
answers :data:`HINT_KEYS` with the AI's suggested move, searched in a thread while the game
goes on answering keys.

>>> from plyground.g2048 import Game
>>> controller = PlayController(Game(seed=1))
>>> controller.handle_key("KEY_LEFT")
>>> controller.game.move_count
1
"""

from __future__ import annotations

import enum
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from plyground.apps.saves import Saves2048
from plyground.apps.text import counted, values_line
from plyground.errors import IllegalMoveError, NothingToUndoError
from plyground.g2048 import WIN_TILE, Board, Decision, Expectimax, Game

__all__ = [
    "HINT_HELP",
    "HINT_KEYS",
    "HINT_MS",
    "KEYS_HELP",
    "KEY_ACTIONS",
    "WON_BANNER",
    "Action",
    "Advisor",
    "Hint",
    "Mode",
    "PlayController",
    "action_for",
]

Action = Literal["up", "right", "down", "left", "undo", "new", "quit"]

KEY_ACTIONS: dict[str, Action] = {
    "KEY_UP": "up",
    "w": "up",
    "k": "up",
    "KEY_RIGHT": "right",
    "d": "right",
    "l": "right",
    "KEY_DOWN": "down",
    "s": "down",
    "j": "down",
    "KEY_LEFT": "left",
    "a": "left",
    "h": "left",
    "u": "undo",
    "n": "new",
    "q": "quit",
}
"""Key names (as curses names them: a character, or ``"KEY_UP"``...) and their actions."""

KEYS_HELP = "arrows/WASD/hjkl move   u undo   n new game   q quit"
WON_BANNER = f"You reached {WIN_TILE}! Keep going."

HINT_KEYS = ("?",)
"""The keys that ask an :class:`Advisor` for a hint (h is a move)."""
HINT_HELP = "? hint"
HINT_MS = 100.0
"""The time budget of a hint's search, in milliseconds: short, as the player waits for it."""


def action_for(key: str) -> Action | None:
    """The action of a key, or None for a key that does nothing.

    >>> action_for("KEY_LEFT"), action_for("W"), action_for("x")
    ('left', 'up', None)
    """
    if len(key) == 1:
        key = key.lower()
    return KEY_ACTIONS.get(key)


@dataclass(frozen=True)
class Hint:
    """What an :class:`Advisor` posts: the board it searched, the decision and its values' unit, or why it failed."""

    board: Board
    decision: Decision | None
    unit: str = "points"
    error: str = ""

    @property
    def text(self) -> str:
        """The hint in one line: the suggested move, then each move's value, best first.

        >>> from plyground.g2048 import Decision
        >>> board = Board.parse("2 2/0 4")
        >>> Hint(board, Decision("left", {"left": 8.5, "down": 6.0}, depth=2)).text
        'Hint: left   expected future score, in points: left 8 · down 6'
        >>> Hint(board, None, error="the AI failed: out of memory").text
        'No hint: the AI failed: out of memory'
        """
        if self.decision is None:
            return f"No hint: {self.error}"
        if self.decision.move is None:
            return "No hint: no move is left."
        values = values_line(self.decision.values.items(), self.unit, downgraded=self.decision.searched is not None)
        return f"Hint: {self.decision.move}   {values}"


class Advisor:
    """The AI's suggested move on the player's board, searched in a thread of its own.

    The search is the ``hint`` command's (:class:`~plyground.g2048.Expectimax` with the default
    evaluator of the board size: on 4x4 the network shipped with plyground) with the short budget
    :data:`HINT_MS`. The thread starts on the first :meth:`ask` and makes the engine there
    (loading the network takes seconds), so a game that never asks pays nothing, and one that
    asks goes on answering keys. When boards are asked faster than they are searched, only
    the latest is searched.

    Args:
        make_engine: makes the search; called once, in the thread.
    """

    def __init__(self, make_engine: Callable[[], Expectimax]) -> None:
        self._make_engine = make_engine
        self._requests: queue.SimpleQueue[Board | None] = queue.SimpleQueue()
        self._answers: queue.SimpleQueue[Hint] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    @classmethod
    def for_game(cls, game: Game, *, time_ms: float = HINT_MS) -> Advisor:
        """The advisor of ``game``'s board size and ``p_four``, searching ``time_ms`` milliseconds a hint."""
        from plyground.g2048.registry import default_evaluator, load_evaluator

        rows, cols, p_four = game.board.rows, game.board.cols, game.p_four
        return cls(
            lambda: Expectimax(
                time_ms=time_ms, p_four=p_four, evaluator=load_evaluator(default_evaluator(rows, cols), reuse=True)
            )
        )

    def ask(self, board: Board) -> None:
        """Search ``board``; its :class:`Hint` comes from :meth:`answer`."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="plyground-2048-hint", daemon=True)
            self._thread.start()
        self._requests.put(board)

    def answer(self, timeout: float | None = 0.0) -> Hint | None:
        """The next hint, waiting for it at most ``timeout`` seconds (None: until it comes); None if none came."""
        try:
            if timeout == 0.0:
                return self._answers.get_nowait()
            return self._answers.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Make the thread end after the search in progress."""
        if self._thread is not None:
            self._requests.put(None)

    def _run(self) -> None:
        engine: Expectimax | None = None
        error = ""
        try:
            engine = self._make_engine()
        except Exception as exc:  # shown as the hint's message, the game goes on
            error = f"the AI cannot start: {exc}"
        while True:
            board = self._requests.get()
            while board is not None:  # only the latest board asked
                try:
                    board = self._requests.get_nowait()
                except queue.Empty:
                    break
            if board is None:
                break
            if engine is None:
                self._answers.put(Hint(board, None, error=error))
                continue
            try:
                decision = engine.choose(board)
            except Exception as exc:  # shown as the hint's message, the game goes on
                self._answers.put(Hint(board, None, error=f"the AI failed: {exc}"))
                continue
            self._answers.put(Hint(board, decision, engine.evaluator.unit))
        if engine is not None:
            engine.close()


class Mode(enum.Enum):
    """What the next key answers: a move in play, or the new-game confirmation."""

    PLAY = "play"
    CONFIRM_NEW = "confirm-new"


class PlayController:
    """The state and rules of the game a person plays, without I/O.

    Args:
        game: the game to play.
        best: the best score so far on this board size.
        saves: where to save after every move, undo and new game (None: nowhere).
        warnings: warnings met while loading, shown as the first message.
        advisor: what answers :data:`HINT_KEYS` (None: those keys do nothing).
    """

    def __init__(
        self,
        game: Game,
        *,
        best: int = 0,
        saves: Saves2048 | None = None,
        warnings: Sequence[str] = (),
        advisor: Advisor | None = None,
    ) -> None:
        self.game = game
        self.advisor = advisor
        self.hint_pending: Board | None = None
        """The board whose hint is awaited: set by a hint key, cleared by the next key or the hint."""
        self.best = max(best, game.score)
        self.saves = saves
        self.mode = Mode.PLAY
        self.running = True
        self.warnings = list(warnings)
        self.message = self.warnings[-1] if self.warnings else ""
        self.last_points = 0

    @classmethod
    def start(
        cls,
        saves: Saves2048,
        *,
        seed: int | None = None,
        p_four: float | None = None,
        new: bool = False,
    ) -> PlayController:
        """Resume the saved game of the saves' board size, or start a new one.

        Unreadable save files are set aside (see :mod:`plyground.apps.saves`); the
        warnings are in :attr:`warnings`. ``seed`` and ``p_four`` apply to a new game.

        Raises:
            InvalidInputError: a bad seed or ``p_four``.
            PlygroundError: an unreadable file cannot be set aside.
        """
        resumed = saves.load()
        if resumed.game is not None and not new:
            controller = cls(resumed.game, best=resumed.best, saves=saves, warnings=resumed.warnings)
            if not controller.message:
                note = (
                    " (--seed and --p-four apply to a new game: add --new)"
                    if seed is not None or p_four is not None
                    else ""
                )
                controller.message = (
                    f"Resumed your {saves.size} game after {counted(resumed.game.move_count, 'move')}{note}."
                )
            return controller
        game = _new_game(saves.rows, saves.cols, seed=seed, p_four=p_four)
        controller = cls(game, best=resumed.best, saves=saves, warnings=resumed.warnings)
        controller.save()
        return controller

    @property
    def in_progress(self) -> bool:
        """Moves were made and the game is not over: starting anew would lose it."""
        return self.game.move_count > 0 and not self.game.over

    @property
    def status(self) -> str:
        """Score (with the points of the last move), best score and move count."""
        gained = f" (+{self.last_points})" if self.last_points else ""
        return f"Score {self.game.score}{gained}   Best {self.best}   Moves {self.game.move_count}"

    @property
    def banner(self) -> str:
        """The congratulation shown once 2048 is reached, while play goes on."""
        return WON_BANNER if self.game.won and not self.game.over else ""

    @property
    def prompt(self) -> str:
        """The question the player must answer, if any."""
        if self.mode is Mode.CONFIRM_NEW:
            return "Start a new game? The current one will be lost. (y/n)"
        if self.game.over:
            return f"Game over with {self.game.score} points. n: new game   u: undo   q: quit"
        return ""

    def handle_key(self, key: str) -> None:
        """Play the action of ``key`` (a character, or a curses key name such as ``"KEY_UP"``)."""
        if key == "KEY_RESIZE":
            return
        self.message = ""
        self.last_points = 0
        self.hint_pending = None
        if self.mode is Mode.CONFIRM_NEW:
            self.mode = Mode.PLAY
            if key.lower() == "y":
                self.new_game()
            else:
                self.message = "Kept the current game."
            return
        if key in HINT_KEYS and self.advisor is not None:
            self.hint()
            return
        action = action_for(key)
        if action is None:
            self.message = f"The key {key!r} does nothing."
        elif action == "quit":
            self.quit()
        elif action == "undo":
            self.undo()
        elif action == "new":
            if self.in_progress:
                self.mode = Mode.CONFIRM_NEW
            else:
                self.new_game()
        else:
            self.move(action)

    def move(self, direction: Literal["up", "right", "down", "left"]) -> None:
        """Move; an illegal move or a finished game only sets :attr:`message`."""
        if self.game.over:
            self.message = "No move is left."
            return
        try:
            self.last_points = self.game.step(direction)
        except IllegalMoveError:
            self.message = f"Nothing moves {direction}."
            return
        self.best = max(self.best, self.game.score)
        self.save()

    def hint(self) -> None:
        """Ask the advisor for the AI's move on this board; :meth:`poll_hint` shows it when it comes."""
        if self.advisor is None:
            self.message = "No hints in this game."
            return
        if self.game.over:
            self.message = "No move is left."
            return
        self.hint_pending = self.game.board
        self.advisor.ask(self.game.board)
        self.message = "Thinking... (the AI searches for a hint)"

    def poll_hint(self, timeout: float | None = 0.0) -> bool:
        """Show the hint awaited in :attr:`message` if it has come, waiting at most ``timeout`` seconds for it
        (None: until it comes). True when it came; hints of boards no longer awaited are dropped."""
        if self.advisor is None:
            return False
        while self.hint_pending is not None:
            hint = self.advisor.answer(timeout)
            if hint is None:
                return False
            if hint.board == self.hint_pending:
                self.hint_pending = None
                self.message = hint.text
                return True
        while self.advisor.answer() is not None:  # no hint awaited: drop the late ones
            pass
        return False

    def undo(self) -> None:
        """Take back the last move (the best score stays)."""
        try:
            self.game.undo()
        except NothingToUndoError:
            self.message = "Nothing to undo."
            return
        self.save()

    def new_game(self) -> None:
        """Start a new game of the same size and rules (a fresh seed)."""
        board = self.game.board
        self.game = _new_game(board.rows, board.cols, seed=None, p_four=self.game.p_four)
        self.mode = Mode.PLAY
        self.message = "New game."
        self.save()

    def quit(self) -> None:
        """Save and stop; the game is resumed next time."""
        self.save()
        self.running = False

    def save(self) -> None:
        """Write the game and best score (nothing without saves)."""
        if self.saves is None:
            return
        self.saves.save(self.game, self.best)
        if self.saves.warnings:
            self.warnings.extend(self.saves.warnings)
            self.message = self.saves.warnings[-1]
            self.saves.warnings.clear()


def _new_game(rows: int, cols: int, *, seed: int | None, p_four: float | None) -> Game:
    if p_four is None:
        return Game(rows, cols, seed=seed)
    return Game(rows, cols, seed=seed, p_four=p_four)
