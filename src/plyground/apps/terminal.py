"""The interactive 2048 game in a terminal, drawn with curses.

The game itself (keys, moves, undo, saves, hints) is :class:`~plyground.apps.play.PlayController`;
this module draws its state and feeds it keys, and while a hint is awaited looks for it
between keys. :func:`run` is the whole curses layer.
"""

from __future__ import annotations

import contextlib
import curses
import os
import textwrap
from dataclasses import dataclass

from plyground.apps.play import HINT_HELP, KEYS_HELP, Advisor, PlayController

__all__ = ["Palette", "draw", "run"]


# ---------------------------------------------------------------------------- curses


def run(controller: PlayController) -> None:
    """Play in the terminal until the player quits; the game is saved as it goes.

    A controller without an :class:`~plyground.apps.play.Advisor` is given the default one of
    its game, so that ``?`` shows the AI's suggested move; the advisor is closed at the end.

    Raises:
        curses.error: the terminal cannot be driven by curses.
    """
    os.environ.setdefault("ESCDELAY", "25")  # a lone Esc must not stall the keyboard
    advisor = controller.advisor
    if advisor is None:
        advisor = controller.advisor = Advisor.for_game(controller.game)
    try:
        curses.wrapper(_loop, controller)
    finally:
        advisor.close()


def _loop(screen: curses.window, controller: PlayController) -> None:
    screen.keypad(True)
    with contextlib.suppress(curses.error):  # a terminal that cannot hide its cursor
        curses.curs_set(0)
    palette = Palette.create()
    while controller.running:
        draw(screen, controller, palette)
        screen.timeout(_POLL_MS if controller.hint_pending is not None else -1)  # a hint awaited: look for it
        try:
            key = screen.get_wch()
        except KeyboardInterrupt:
            controller.quit()
            break
        except curses.error:
            controller.poll_hint()
            continue  # no key after all (the poll's time ran out, or an interrupted read)
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
_TOP, _LEFT, _FOOTER = 3, 2, 6
_POLL_MS = 50
"""How often the screen looks for an awaited hint, in milliseconds."""


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
    message = textwrap.wrap(controller.message, max(1, width - _LEFT - 1)) or [""]  # a hint may take two lines
    if len(message) > 2:
        message = [message[0], textwrap.shorten(" ".join(message[1:]), max(10, width - _LEFT - 1))]
    for i, line in enumerate(message):
        _put(screen, y + 2 + i, _LEFT, line)
    keys = f"{KEYS_HELP}   {HINT_HELP}" if controller.advisor is not None else KEYS_HELP
    _put(screen, y + 4, _LEFT, keys, curses.A_DIM)
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
