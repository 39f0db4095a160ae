"""A 2048 board drawn on a Tk canvas, scaled to the canvas, with an announcement over it.

:class:`BoardCanvas` is the drawing of :class:`plyground.apps.tk.GameWindow`: tiles are
scaled to the canvas and each number gets the largest font that fits its tile; the colours
are the shared palette of :mod:`plyground.apps.render`. An :class:`Announcement` (the win,
the game over, the new-game question) is drawn with its buttons on an opaque banner across
the middle of the board, which is dimmed around it: no tile's number shows through the text.
"""

from __future__ import annotations

import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Sequence
from dataclasses import dataclass

from plyground.apps.render import BACKGROUND, DARK_TEXT, text_colour, tile_colour
from plyground.g2048 import Board

__all__ = ["FONT_FAMILY", "PAGE", "Announcement", "BoardCanvas", "hex_colour"]

PAGE = "#faf8ef"
"""The colour of the window around the board."""
FONT_FAMILY = "Helvetica"

_GAP = 0.12  # the gap between tiles, as a share of a tile's side
_MARGIN = 6  # pixels around the board
_TEXT_SHARE = 0.8  # a number takes at most this share of its tile's side


def hex_colour(rgb: tuple[int, int, int]) -> str:
    """A colour as Tk writes it.

    >>> hex_colour((250, 248, 239))
    '#faf8ef'
    """
    return "#{:02x}{:02x}{:02x}".format(*rgb)


@dataclass(frozen=True)
class Announcement:
    """What is shown over the board: a title, a line under it, and a row of buttons."""

    title: str
    detail: str
    buttons: Sequence[tk.Widget]


class BoardCanvas:
    """A canvas showing a board of ``rows`` x ``cols``; :meth:`draw` redraws it to fit the canvas.

    Args:
        parent: the widget that holds the canvas.
        rows: rows of the boards shown (for the canvas's first size).
        cols: columns of the boards shown.
    """

    def __init__(self, parent: tk.Misc, rows: int, cols: int) -> None:
        self.canvas = tk.Canvas(parent, width=110 * cols, height=110 * rows, background=PAGE, highlightthickness=0)
        self.cell = 0
        """The side of a tile in pixels, as last drawn."""
        self._fonts: dict[tuple[int, bool], tkfont.Font] = {}
        self._font_sizes: dict[tuple[int, str], int] = {}

    def draw(self, board: Board, announcement: Announcement | None = None) -> None:
        """Draw ``board`` to fit the canvas, then ``announcement`` over it, if any."""
        canvas = self.canvas
        canvas.delete("all")
        width, height = canvas.winfo_width(), canvas.winfo_height()
        rows, cols = board.rows, board.cols
        unit = min(
            (width - 2 * _MARGIN) / (cols + _GAP * (cols + 1)),
            (height - 2 * _MARGIN) / (rows + _GAP * (rows + 1)),
        )
        self.cell = cell = max(8, int(unit))
        gap = max(2, round(unit * _GAP))
        board_w, board_h = cols * cell + (cols + 1) * gap, rows * cell + (rows + 1) * gap
        left, top = (width - board_w) // 2, (height - board_h) // 2
        _rounded(canvas, left, top, left + board_w, top + board_h, gap, fill=hex_colour(BACKGROUND), tags=("board",))
        for r, row in enumerate(board.to_rows()):
            for c, value in enumerate(row):
                x0, y0 = left + gap + c * (cell + gap), top + gap + r * (cell + gap)
                fill, tags = hex_colour(tile_colour(value)), ("tile", f"tile-{r}-{c}")
                _rounded(canvas, x0, y0, x0 + cell, y0 + cell, max(2, cell // 14), fill=fill, tags=tags)
                if value:
                    canvas.create_text(
                        x0 + cell / 2,
                        y0 + cell / 2,
                        text=str(value),
                        fill=hex_colour(text_colour(value)),
                        font=self.tile_font(str(value)),
                        tags=("number", f"number-{r}-{c}"),
                    )
        if announcement is not None:
            self._announce(announcement, left, top, board_w, board_h)

    def _announce(self, announcement: Announcement, left: int, top: int, width: int, height: int) -> None:
        """The board dimmed, and over its middle an opaque banner with the title, the detail and the buttons."""
        canvas = self.canvas
        canvas.create_rectangle(
            left, top, left + width, top + height, fill=PAGE, stipple="gray50", outline="", tags=("overlay",)
        )
        title = announcement.title
        size = max(12, height // 8)
        while size > 10 and self._font(size).measure(title) > width * 0.8:  # the title fits the banner
            size -= 2
        title_font, detail_font = self._font(size), self._font(max(9, size // 2), bold=False)
        title_h, detail_h = title_font.metrics("linespace"), detail_font.metrics("linespace")
        button_h = max((button.winfo_reqheight() for button in announcement.buttons), default=0)
        pad = max(6, size // 3)
        banner_h = pad + title_h + detail_h + (pad + button_h if announcement.buttons else 0) + pad
        inset = max(2, width // 40)
        y0 = top + (height - banner_h) // 2
        _rounded(
            canvas, left + inset, y0, left + width - inset, y0 + banner_h, pad, fill=PAGE, tags=("overlay", "banner")
        )
        middle = left + width / 2
        dark = hex_colour(DARK_TEXT)
        y: float = y0 + pad
        canvas.create_text(middle, y, text=title, font=title_font, fill=dark, anchor="n", tags=("overlay",))
        y += title_h
        canvas.create_text(
            middle, y, text=announcement.detail, font=detail_font, fill=dark, anchor="n", tags=("overlay",)
        )
        y += detail_h + pad + button_h / 2
        widths = [button.winfo_reqwidth() for button in announcement.buttons]
        x = middle - (sum(widths) + pad * (len(widths) - 1)) / 2  # side by side, centred
        for button, button_w in zip(announcement.buttons, widths, strict=True):
            canvas.create_window(x + button_w / 2, y, window=button, tags=("overlay",))
            x += button_w + pad

    def shown_rows(self, rows: int, cols: int) -> list[list[int]]:
        """The board as the canvas shows it, read from its items (0 for an empty cell)."""
        shown = [[0] * cols for _ in range(rows)]
        for item in self.canvas.find_withtag("number"):
            tags = self.canvas.gettags(item)
            r, c = (int(part) for part in next(tag for tag in tags if tag.startswith("number-")).split("-")[1:])
            shown[r][c] = int(self.canvas.itemcget(item, "text"))  # type: ignore[no-untyped-call]
        return shown

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

    def forget_fonts(self) -> None:
        """Free the fonts (in the Tk thread: Tcl aborts when an interpreter's objects are freed elsewhere)."""
        self._fonts.clear()

    def _font(self, size: int, *, bold: bool = True) -> tkfont.Font:
        """The font of ``size`` pixels, bold unless asked otherwise."""
        key = (size, bold)
        if key not in self._fonts:
            self._fonts[key] = tkfont.Font(
                root=self.canvas, family=FONT_FAMILY, size=-size, weight="bold" if bold else "normal"
            )
        return self._fonts[key]


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
