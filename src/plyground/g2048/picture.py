"""Pictures of 2048 boards as arrays of pixels: the Gymnasium environment's ``rgb_array`` frames, and
every front end's colours and pictures (``plyground.apps.render`` makes its PNGs and videos of them).

:func:`board_pixels` draws a board in the classic game's colours, each tile with its number,
and returns an ``(height, width, 3)`` array of ``uint8``. The numbers are drawn with Pillow
(the ``video`` extra), imported on first use; without it, :func:`require_pillow` raises
:class:`~plyground.errors.DependencyNotInstalled` with the command that installs it. Each
tile is drawn once per value and size and then copied, so a frame costs little more than
its copying.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.errors import DependencyNotInstalled, InvalidInputError, install_command
from plyground.g2048.board import Board

__all__ = [
    "BACKGROUND",
    "DARK_TEXT",
    "EMPTY_COLOUR",
    "LIGHT_TEXT",
    "TILE_COLOURS",
    "board_pixels",
    "pillow",
    "require_pillow",
    "text_colour",
    "tile_colour",
]

Colour = tuple[int, int, int]

BACKGROUND: Colour = (187, 173, 160)
EMPTY_COLOUR: Colour = (205, 193, 180)
TILE_COLOURS: tuple[Colour, ...] = (
    EMPTY_COLOUR,  # 0: empty
    (238, 228, 218),  # 2
    (237, 224, 200),  # 4
    (242, 177, 121),  # 8
    (245, 149, 99),  # 16
    (246, 124, 95),  # 32
    (246, 94, 59),  # 64
    (237, 207, 114),  # 128
    (237, 204, 97),  # 256
    (237, 200, 80),  # 512
    (237, 197, 63),  # 1024
    (237, 194, 46),  # 2048
    (181, 137, 214),  # 4096
    (160, 110, 200),  # 8192
    (128, 80, 180),  # 16384
    (96, 60, 150),  # 32768
    (60, 40, 110),  # 65536
)
"""The colour of a tile ``2**e`` at index e, 0 for an empty cell; larger tiles take the last."""
DARK_TEXT: Colour = (119, 110, 101)
LIGHT_TEXT: Colour = (249, 246, 242)
"""The colours of the numbers: dark on the light tiles 2 and 4, light on the others."""


def tile_colour(value: int) -> Colour:
    """The fill colour of a tile (0 for an empty cell).

    >>> tile_colour(0) == EMPTY_COLOUR, tile_colour(2048)
    (True, (237, 194, 46))
    """
    exponent = value.bit_length() - 1 if value else 0
    return TILE_COLOURS[min(exponent, len(TILE_COLOURS) - 1)]


def text_colour(value: int) -> Colour:
    """The colour of a tile's number: dark on the light tiles 2 and 4, light on the others."""
    return DARK_TEXT if value <= 4 else LIGHT_TEXT


def require_pillow() -> None:
    """Check that Pillow is there, before any work that ends in a picture (an environment that will draw, a video).

    Raises:
        DependencyNotInstalled: Pillow is missing (the message gives the command that installs it).
    """
    pillow()


def pillow() -> Any:
    """Pillow's ``Image``, ``ImageDraw`` and ``ImageFont`` modules.

    Raises:
        DependencyNotInstalled: Pillow is missing (the message gives the command that installs it).
    """
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise DependencyNotInstalled(f"pictures of boards need Pillow: {install_command('video')}") from None
    return Image, ImageDraw, ImageFont


def board_pixels(board: Board, *, cell: int = 64, gap: int = 6, score: int | None = None) -> npt.NDArray[np.uint8]:
    """``board`` as an RGB picture: ``cell`` pixels a tile, ``gap`` between tiles, the score above if given.

    The array's shape is ``(header + gap + rows * (cell + gap), gap + cols * (cell + gap), 3)``,
    the header ``cell // 2`` pixels high with a score and 0 without.

    Raises:
        InvalidInputError: ``cell`` below 16 or ``gap`` below 0.
        DependencyNotInstalled: Pillow is missing.
    """
    if isinstance(cell, bool) or not isinstance(cell, int) or cell < 16:
        raise InvalidInputError(f"cell must be an integer of at least 16 pixels, got {cell!r}")
    if isinstance(gap, bool) or not isinstance(gap, int) or gap < 0:
        raise InvalidInputError(f"gap must be a non-negative integer, got {gap!r}")
    rows = board.to_rows()
    header = cell // 2 if score is not None else 0
    width = gap + len(rows[0]) * (cell + gap)
    height = header + gap + len(rows) * (cell + gap)
    pixels = np.empty((height, width, 3), dtype=np.uint8)
    pixels[:] = BACKGROUND
    if score is not None:
        pixels[:header] = _score_pixels(score, width, header)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            top, left = header + gap + r * (cell + gap), gap + c * (cell + gap)
            pixels[top : top + cell, left : left + cell] = _tile_pixels(value, cell)
    return pixels


@functools.lru_cache(maxsize=16)
def _font(size: int) -> Any:
    return pillow()[2].load_default(size=size)


@functools.lru_cache(maxsize=256)
def _tile_pixels(value: int, cell: int) -> npt.NDArray[np.uint8]:
    """One tile on the background, drawn once per value and size: its rounded square and its number."""
    image_module, draw_module, _ = pillow()
    image = image_module.new("RGB", (cell, cell), BACKGROUND)
    draw = draw_module.Draw(image)
    draw.rounded_rectangle((0, 0, cell - 1, cell - 1), radius=cell // 16, fill=tile_colour(value))
    if value:
        text = str(value)
        font = _font(max(8, int(cell * (0.45 if len(text) <= 2 else 1.4 / len(text)))))
        draw.text((cell / 2, cell / 2), text, fill=text_colour(value), font=font, anchor="mm")
    pixels = np.asarray(image, dtype=np.uint8)
    pixels.flags.writeable = False  # shared by every frame
    return pixels


def _score_pixels(score: int, width: int, height: int) -> npt.NDArray[np.uint8]:
    """The line ``score N`` centred on the background."""
    image_module, draw_module, _ = pillow()
    image = image_module.new("RGB", (width, height), BACKGROUND)
    font = _font(max(10, height // 2))
    draw_module.Draw(image).text((width / 2, height / 2), f"score {score:,}", fill=LIGHT_TEXT, font=font, anchor="mm")
    return np.asarray(image, dtype=np.uint8)
