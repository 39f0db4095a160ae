"""Pictures of 2048 boards with Pillow: one PNG frame per move, and videos of saved games.

One renderer draws a board for every front end: ``--frames DIR`` on ``plyground 2048 ai``
and ``plyground 2048 video`` (a replay to MP4, through imageio's ffmpeg, or to GIF). A video
is written a frame at a time, so that its memory does not grow with the game. Pillow and
imageio are the ``video`` extra (:func:`plyground.errors.install_command` says how to add it).
"""

from __future__ import annotations

import functools
import os
import struct
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from plyground.core.files import atomic_path, atomic_write
from plyground.errors import DependencyNotInstalled, InvalidInputError, install_command
from plyground.g2048.picture import (
    BACKGROUND,
    DARK_TEXT,
    EMPTY_COLOUR,
    LIGHT_TEXT,
    TILE_COLOURS,
    board_pixels,
    pillow,
    require_pillow,
    text_colour,
    tile_colour,
)

if TYPE_CHECKING:
    from PIL.Image import Image

    from plyground.g2048 import Board, Replay

__all__ = [
    "BACKGROUND",
    "DARK_TEXT",
    "EMPTY_COLOUR",
    "LIGHT_TEXT",
    "TILE_COLOURS",
    "check_video_path",
    "render_board",
    "render_replay",
    "require_pillow",
    "save_frame",
    "text_colour",
    "tile_colour",
    "video_positions",
]


def render_board(board: Board, *, cell: int = 96, gap: int = 8, score: int | None = None) -> Image:
    """An RGB picture of ``board``: ``cell`` pixels per tile, ``gap`` between tiles, the score above if given.

    Drawn by :func:`plyground.g2048.picture.board_pixels`, the Gymnasium environment's pictures too.
    """
    image_module = pillow()[0]
    picture: Image = image_module.fromarray(board_pixels(board, cell=cell, gap=gap, score=score))
    return picture


def save_frame(board: Board, path: str | os.PathLike[str], *, score: int | None = None, cell: int = 96) -> None:
    """Write ``board`` as a PNG (parent folders are created)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    render_board(board, cell=cell, score=score).save(target, format="PNG")


def video_positions(moves: int, *, every: int = 1, last: int | None = None) -> list[int]:
    """The positions a video of a game of ``moves`` moves shows (0 is the start, i the board after move i).

    ``last`` keeps only the last moves, ``every`` every Nth position of them; the final
    position is always shown.

    >>> video_positions(10, every=4)
    [0, 4, 8, 10]
    >>> video_positions(10, last=3)
    [7, 8, 9, 10]
    """
    first = 0 if last is None else max(0, moves - last)
    shown = list(range(first, moves + 1, every))
    if shown[-1] != moves:
        shown.append(moves)
    return shown


def check_video_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path when a video can be written there: ``.mp4`` or ``.gif``, not a folder, and in a folder
    that exists or can be made (:func:`render_replay` makes the missing ones).

    Raises:
        InvalidInputError: another suffix, a folder of that name, or a file where a folder should be.
    """
    target = Path(path)
    if target.suffix.lower() not in (".mp4", ".gif"):
        raise InvalidInputError(f"a video is written as .mp4 or .gif, got {target.name!r}")
    if target.is_dir():
        raise InvalidInputError(f"cannot write {target}: it is a folder")
    existing = target.parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InvalidInputError(f"cannot write {target}: {existing} is a file, not a folder")
    return target


def render_replay(
    replay: Replay,
    path: str | os.PathLike[str],
    *,
    fps: float = 4.0,
    cell: int = 96,
    every: int = 1,
    last: int | None = None,
    on_frame: Callable[[int, int], None] | None = None,
) -> int:
    """Render a saved game as a video, one frame per position (the start, then each move); returns the frames.

    The format follows the suffix: ``.mp4`` (H.264 through imageio's ffmpeg) or ``.gif``. The
    frames are written one at a time (memory does not grow with the game), to a temporary
    file that replaces ``path`` at the end; missing folders are made once the replay has been
    played. ``every`` and ``last`` choose the positions as :func:`video_positions` does;
    ``on_frame(done, total)`` is called after each frame.

    Raises:
        InvalidInputError: another suffix, a bad ``fps``, ``every`` or ``last``, or a path that cannot be written.
        CorruptFileError: the replay cannot be played.
        DependencyNotInstalled: Pillow or imageio is missing.
    """
    target = check_video_path(path)
    suffix = target.suffix.lower()
    if isinstance(fps, bool) or not (isinstance(fps, int | float) and 0 < fps <= 120):
        raise InvalidInputError(f"fps must be a number in (0, 120], got {fps!r}")
    for name, value in (("every", every), ("last", last)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise InvalidInputError(f"{name} must be a positive integer, got {value!r}")
    pillow()
    if suffix == ".mp4":
        try:
            import imageio_ffmpeg  # type: ignore[import-untyped]
        except ImportError:
            raise DependencyNotInstalled(f"MP4 videos need imageio's ffmpeg: {install_command('video')}") from None
    shown = video_positions(len(replay.moves), every=every, last=last)
    positions: list[tuple[Board, int]] = []
    wanted = iter(shown)
    counter = [0, next(wanted)]  # the position played, the next one shown

    def keep(game: Any) -> None:
        if counter[0] == counter[1]:
            positions.append((game.board, game.score))
            counter[1] = next(wanted, -1)
        counter[0] += 1

    replay.play(on_step=keep)

    def frames() -> Iterator[Image]:
        for i, (board, score) in enumerate(positions):
            image = render_board(board, cell=cell, score=score)
            if suffix == ".mp4":  # H.264 wants even sides
                image = image.crop((0, 0, image.width // 2 * 2, image.height // 2 * 2))
            yield image
            if on_frame is not None:
                on_frame(i + 1, len(positions))

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if suffix == ".gif":
            atomic_write(target, lambda handle: _write_gif(handle, frames(), fps))
        else:
            _write_mp4(imageio_ffmpeg, target, frames(), fps)
    except OSError as exc:
        raise InvalidInputError(f"cannot write {target}: {exc.strerror or exc}") from None
    return len(positions)


def _write_mp4(imageio_ffmpeg: Any, target: Path, frames: Iterator[Image], fps: float) -> None:
    """Send the frames one by one to ffmpeg, which writes a temporary file renamed to ``target`` at the end."""
    with atomic_path(target, suffix=".part.mp4") as part:
        first = next(frames)
        writer = imageio_ffmpeg.write_frames(
            str(part), first.size, fps=fps, codec="libx264", macro_block_size=1, pix_fmt_in="rgb24",
            output_params=["-y"],
        )  # fmt: skip
        writer.send(None)
        try:
            writer.send(first.tobytes())
            for image in frames:
                writer.send(image.tobytes())
        finally:
            writer.close()


@functools.cache
def _gif_palette() -> Any:
    """One palette for every frame: the colours drawn, and the blends of each text colour with its tiles."""
    image_module, _, _ = pillow()
    colours = [BACKGROUND, *TILE_COLOURS, DARK_TEXT, LIGHT_TEXT]
    pairs = [(DARK_TEXT, tile) for tile in TILE_COLOURS[1:3]]  # dark numbers on 2 and 4
    pairs += [(LIGHT_TEXT, fill) for fill in (*TILE_COLOURS[3:], BACKGROUND)]  # light ones, and the score
    levels = (256 - len(colours)) // len(pairs)
    for text, fill in pairs:
        for k in range(1, levels + 1):
            r, g, b = (round(f + (t - f) * k / (levels + 1)) for t, f in zip(text, fill, strict=True))
            colours.append((r, g, b))
    palette = image_module.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour] + [0] * 3 * (256 - len(colours)))
    return palette


def _write_gif(handle: IO[bytes], frames: Iterable[Image], fps: float) -> None:
    """Write an endlessly looping GIF a frame at a time: each frame only where it differs from the last.

    Every frame uses :func:`_gif_palette`, the file's one colour table; delays are in
    hundredths of a second, rounded so that the video keeps to ``fps`` overall.
    """
    from PIL import GifImagePlugin, Image, ImageChops

    palette = _gif_palette()
    previous: Any = None
    pending: list[Any] = []  # the frame written next: image, offset, delay (grown by identical frames)
    for index, image in enumerate(frames):
        delay = max(1, round((index + 1) * 100 / fps) - round(index * 100 / fps))
        frame = image.quantize(palette=palette, dither=Image.Dither.NONE)
        if previous is None:
            width, height = frame.size
            colours = palette.getpalette()[: 3 * 256]
            handle.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0) + bytes(colours))
            handle.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop for ever
            pending = [frame, (0, 0), delay]
        else:
            box = ImageChops.difference(frame, previous).getbbox()  # palette indices: one palette
            if box is None:
                pending[2] += delay
                continue
            _write_gif_frame(handle, GifImagePlugin, *pending)
            pending = [frame.crop(box), box[:2], delay]
        previous = frame
    if pending:
        _write_gif_frame(handle, GifImagePlugin, *pending)
    handle.write(b";")


def _write_gif_frame(handle: IO[bytes], gif: Any, frame: Any, offset: tuple[int, int], delay: int) -> None:
    for chunk in gif.getdata(frame, offset, duration=delay * 10):
        handle.write(chunk)
