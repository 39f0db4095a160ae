"""Pictures of 2048 boards with Pillow: one PNG frame per move, and videos of saved games.

One renderer draws a board for every front end: ``--frames DIR`` on ``plyground 2048 ai``
and ``plyground 2048 video`` (a replay to MP4 or GIF, through imageio and its ffmpeg).
Pillow and imageio are the ``video`` extra: ``pip install plyground[video]``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plyground.errors import DependencyNotInstalled, InvalidInputError

if TYPE_CHECKING:
    from PIL.Image import Image

    from plyground.g2048 import Board, Replay

__all__ = [
    "BACKGROUND",
    "DARK_TEXT",
    "EMPTY_COLOUR",
    "LIGHT_TEXT",
    "TILE_COLOURS",
    "render_board",
    "render_replay",
    "require_pillow",
    "save_frame",
    "text_colour",
    "tile_colour",
]

BACKGROUND = (187, 173, 160)
EMPTY_COLOUR = (205, 193, 180)
TILE_COLOURS: tuple[tuple[int, int, int], ...] = (
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
"""The colour of a tile ``2**e`` at index e, 0 for an empty cell, up to 65536."""
DARK_TEXT, LIGHT_TEXT = (119, 110, 101), (249, 246, 242)


def tile_colour(value: int) -> tuple[int, int, int]:
    """The fill colour of a tile (0 for an empty cell)."""
    exponent = value.bit_length() - 1 if value else 0
    return TILE_COLOURS[min(exponent, len(TILE_COLOURS) - 1)]


def text_colour(value: int) -> tuple[int, int, int]:
    """The colour of a tile's number: dark on the light tiles 2 and 4, light on the others."""
    return DARK_TEXT if value <= 4 else LIGHT_TEXT


def require_pillow() -> None:
    """Check that Pillow is installed, before any work that ends in a picture.

    Raises:
        DependencyNotInstalled: Pillow is missing.
    """
    _pillow()


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise DependencyNotInstalled("pictures need Pillow: pip install plyground[video]") from None
    return Image, ImageDraw, ImageFont


def render_board(board: Board, *, cell: int = 96, gap: int = 8, score: int | None = None) -> Image:
    """An RGB picture of ``board``: ``cell`` pixels per tile, ``gap`` between tiles, the score above if given."""
    image_module, draw_module, font_module = _pillow()
    rows = board.to_rows()
    header = cell // 2 if score is not None else 0
    width = gap + len(rows[0]) * (cell + gap)
    height = header + gap + len(rows) * (cell + gap)
    image: Image = image_module.new("RGB", (width, height), BACKGROUND)
    draw = draw_module.Draw(image)
    if score is not None:
        font = font_module.load_default(size=max(10, cell // 4))
        draw.text((width / 2, header / 2 + gap / 2), f"score {score:,}", fill=LIGHT_TEXT, font=font, anchor="mm")
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            x0, y0 = gap + c * (cell + gap), header + gap + r * (cell + gap)
            draw.rounded_rectangle((x0, y0, x0 + cell - 1, y0 + cell - 1), radius=cell // 16, fill=tile_colour(value))
            if value:
                text = str(value)
                font = font_module.load_default(size=max(8, int(cell * (0.45 if len(text) <= 2 else 1.4 / len(text)))))
                draw.text((x0 + cell / 2, y0 + cell / 2), text, fill=text_colour(value), font=font, anchor="mm")
    return image


def save_frame(board: Board, path: str | os.PathLike[str], *, score: int | None = None, cell: int = 96) -> None:
    """Write ``board`` as a PNG (parent folders are created)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    render_board(board, cell=cell, score=score).save(target, format="PNG")


def render_replay(replay: Replay, path: str | os.PathLike[str], *, fps: float = 4.0, cell: int = 96) -> int:
    """Render a saved game as a video, one frame per position (the start, then each move); returns the frames.

    The format follows the suffix: ``.mp4`` (H.264 through imageio's ffmpeg) or ``.gif``.

    Raises:
        InvalidInputError: another suffix, or a bad ``fps``.
        CorruptFileError: the replay cannot be played.
        DependencyNotInstalled: Pillow or imageio is missing.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".mp4", ".gif"):
        raise InvalidInputError(f"a video is written as .mp4 or .gif, got {target.name!r}")
    if not (isinstance(fps, int | float) and 0 < fps <= 120):
        raise InvalidInputError(f"fps must be a number in (0, 120], got {fps!r}")
    try:
        import imageio.v3 as iio
        import numpy as np
    except ImportError:
        raise DependencyNotInstalled("videos need imageio: pip install plyground[video]") from None
    positions = replay.positions()
    frames = []
    for board, score in positions:
        image = render_board(board, cell=cell, score=score)
        if suffix == ".mp4":  # H.264 wants even sides
            image = image.crop((0, 0, image.width // 2 * 2, image.height // 2 * 2))
        frames.append(np.asarray(image))
    target.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".gif":
        iio.imwrite(target, frames, extension=".gif", duration=1000 / fps, loop=0)
    else:
        iio.imwrite(target, frames, extension=".mp4", fps=fps, codec="libx264", macro_block_size=1)
    return len(frames)
