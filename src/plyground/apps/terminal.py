"""The interactive 2048 game in a terminal, drawn with curses.

:class:`PlayController` holds the logic: it maps a key to an action, plays it on the
:class:`~plyground.g2048.Game`, keeps the best score and saves after every change. It
does no terminal I/O, so it is tested without a terminal. :func:`run` is the thin
curses layer that draws the controller's state and feeds it keys.

>>> from plyground.g2048 import Game
>>> controller = PlayController(Game(seed=1))
>>> controller.handle_key("KEY_LEFT")
>>> controller.game.move_count
1
"""

from __future__ import annotations

import contextlib
import curses
import enum
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from plyground.apps.saves import Saves2048
from plyground.errors import IllegalMoveError, NothingToUndoError
from plyground.g2048 import WIN_TILE, Game

__all__ = ["KEY_ACTIONS", "Action", "Mode", "PlayController", "action_for", "run"]

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
    """The state and rules of the terminal game, without terminal I/O.

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


# ---------------------------------------------------------------------------- curses


def run(controller: PlayController) -> None:
    """Play in the terminal until the player quits; the game is saved as it goes.

    Raises:
        curses.error: the terminal cannot be driven by curses.
    """
    os.environ.setdefault("ESCDELAY", "25")  # a lone Esc must not stall the keyboard
    curses.wrapper(_loop, controller)


def _loop(screen: curses.window, controller: PlayController) -> None:
    screen.keypad(True)
    with contextlib.suppress(curses.error):  # a terminal that cannot hide its cursor
        curses.curs_set(0)
    palette = Palette.create()
    while controller.running:
        draw(screen, controller, palette)
        try:
            key = screen.get_wch()
        except KeyboardInterrupt:
            controller.quit()
            break
        except curses.error:
            continue  # no key after all (e.g. an interrupted read)
        controller.handle_key(curses.keyname(key).decode("ascii", "replace") if isinstance(key, int) else key)


# Tile colours as (foreground, background, bold) by exponent, 0 for an empty cell.
_COLORS_256 = (
    (244, 250, False),
    (239, 255, True),
    (239, 230, True),
    (231, 215, True),
    (231, 209, True),
    (231, 203, True),
    (231, 196, True),
    (16, 222, True),
    (16, 221, True),
    (16, 220, True),
    (231, 214, True),
    (231, 208, True),
    (231, 93, True),
    (231, 57, True),
    (231, 21, True),
    (231, 16, True),
)
_B, _R, _G, _Y = curses.COLOR_BLACK, curses.COLOR_RED, curses.COLOR_GREEN, curses.COLOR_YELLOW
_U, _M, _C, _W = curses.COLOR_BLUE, curses.COLOR_MAGENTA, curses.COLOR_CYAN, curses.COLOR_WHITE
_COLORS_8 = (
    (_W, _B, False),
    (_B, _W, False),
    (_B, _Y, False),
    (_W, _R, True),
    (_W, _M, True),
    (_B, _C, False),
    (_W, _B, True),
    (_B, _G, True),
    (_B, _Y, True),
    (_W, _R, True),
    (_W, _M, True),
    (_B, _C, True),
    (_W, _U, True),
    (_B, _G, True),
    (_B, _Y, True),
    (_W, _R, True),
)


@dataclass(frozen=True)
class Palette:
    """How cells are drawn: an attribute per tile exponent, and the text of an empty cell."""

    attrs: tuple[int, ...]
    empty: str

    @classmethod
    def create(cls) -> Palette:
        """Colour pairs when the terminal has colours (256 or 8), else reverse video."""
        if curses.has_colors():
            try:
                curses.start_color()
                with contextlib.suppress(curses.error):
                    curses.use_default_colors()
                scheme = _COLORS_256 if curses.COLORS >= 256 else _COLORS_8
                if len(scheme) < curses.COLOR_PAIRS:
                    attrs = []
                    for pair, (fg, bg, bold) in enumerate(scheme, start=1):
                        curses.init_pair(pair, fg, bg)
                        attrs.append(curses.color_pair(pair) | (curses.A_BOLD if bold else 0))
                    return cls(tuple(attrs), "")
            except curses.error:
                pass
        return cls((curses.A_NORMAL,) + (curses.A_REVERSE | curses.A_BOLD,) * 15, ".")


# Cell height, cell width, gap between rows, gap between columns: the largest that fits is used.
_LAYOUTS = ((3, 8, 1, 1), (1, 7, 0, 1))
_TOP, _LEFT, _FOOTER = 3, 2, 5


def draw(screen: curses.window, controller: PlayController, palette: Palette) -> None:
    """Draw the whole screen: title, status, board, prompts and keys."""
    screen.erase()
    height, width = screen.getmaxyx()
    board = controller.game.board
    layout = _fit(board.rows, board.cols, height, width)
    if layout is None:
        _put(screen, 0, 0, "Terminal too small: enlarge it (q quits).")
        screen.refresh()
        return
    cell_h, cell_w, gap_y, gap_x = layout
    _put(screen, 0, _LEFT, f"plyground 2048   {board.rows}x{board.cols}", curses.A_BOLD)
    _put(screen, 1, _LEFT, controller.status)
    for r, row in enumerate(board.to_rows()):
        for c, tile in enumerate(row):
            attr = palette.attrs[tile.bit_length() - 1 if tile else 0]
            text = (str(tile) if tile else palette.empty).center(cell_w)
            top, left = _TOP + r * (cell_h + gap_y), _LEFT + c * (cell_w + gap_x)
            for dy in range(cell_h):
                _put(screen, top + dy, left, text if dy == cell_h // 2 else " " * cell_w, attr)
    y = _TOP + board.rows * (cell_h + gap_y) - gap_y + 1
    _put(screen, y, _LEFT, controller.banner, curses.A_BOLD)
    _put(screen, y + 1, _LEFT, controller.prompt, curses.A_BOLD)
    _put(screen, y + 2, _LEFT, controller.message)
    _put(screen, y + 3, _LEFT, KEYS_HELP, curses.A_DIM)
    screen.refresh()


def _fit(rows: int, cols: int, height: int, width: int) -> tuple[int, int, int, int] | None:
    """The largest layout in which a board of ``rows`` × ``cols`` and the text fit the screen."""
    for cell_h, cell_w, gap_y, gap_x in _LAYOUTS:
        board_h, board_w = rows * (cell_h + gap_y) - gap_y, cols * (cell_w + gap_x) - gap_x
        if _TOP + board_h + _FOOTER <= height and _LEFT + board_w < width:
            return cell_h, cell_w, gap_y, gap_x
    return None


def _put(screen: curses.window, y: int, x: int, text: str, attr: int = 0) -> None:
    """Write ``text`` clipped to the screen; curses' error for the last cell is ignored."""
    height, width = screen.getmaxyx()
    if not text or not 0 <= y < height or x >= width:
        return
    with contextlib.suppress(curses.error):
        screen.addstr(y, x, text[: width - x], attr)
