"""The 2048 game a person plays, without any screen: keys, moves, undo, new games, the best score and saves.

:class:`PlayController` maps a key to an action, plays it on the
:class:`~plyground.g2048.Game`, keeps the best score and saves after every change. It does
no I/O of its own, so both front ends drive it (the terminal game of
:mod:`plyground.apps.terminal`, drawn with curses, and the desktop game of
:mod:`plyground.apps.tk`), and it is tested without either.

>>> from plyground.g2048 import Game
>>> controller = PlayController(Game(seed=1))
>>> controller.handle_key("KEY_LEFT")
>>> controller.game.move_count
1
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Literal

from plyground.apps.saves import Saves2048
from plyground.errors import IllegalMoveError, NothingToUndoError
from plyground.g2048 import WIN_TILE, Game

__all__ = ["KEYS_HELP", "KEY_ACTIONS", "WON_BANNER", "Action", "Mode", "PlayController", "action_for"]

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


def action_for(key: str) -> Action | None:
    """The action of a key, or None for a key that does nothing.

    >>> action_for("KEY_LEFT"), action_for("W"), action_for("x")
    ('left', 'up', None)
    """
    if len(key) == 1:
        key = key.lower()
    return KEY_ACTIONS.get(key)


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
    """

    def __init__(
        self,
        game: Game,
        *,
        best: int = 0,
        saves: Saves2048 | None = None,
        warnings: Sequence[str] = (),
    ) -> None:
        self.game = game
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
                controller.message = f"Resumed your {saves.size} game after {resumed.game.move_count} moves{note}."
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
        if self.mode is Mode.CONFIRM_NEW:
            self.mode = Mode.PLAY
            if key.lower() == "y":
                self.new_game()
            else:
                self.message = "Kept the current game."
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
