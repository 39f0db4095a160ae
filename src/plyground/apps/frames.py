"""One PNG per position of a game played on screen: ``--frames DIR`` of ``plyground 2048 gui``.

The frames are named like those of ``plyground 2048 ai --frames``:
``DIR/2048-<R>x<C>-seed<seed>/00001.png``, the picture after move 1. :class:`FrameWriter`
writes the picture of a game after each change and removes the frames of undone moves;
the pictures are drawn by :func:`plyground.apps.render.save_frame` (Pillow).
"""

from __future__ import annotations

from pathlib import Path

from plyground.g2048 import Board, Game

__all__ = ["FrameWriter", "frame_path"]


def frame_path(folder: Path, game: Game, index: int | None = None) -> Path:
    """Where ``--frames`` puts the picture of ``game`` after ``index`` moves (default: now).

    >>> frame_path(Path("frames"), Game(2, 3, seed=4), 7).as_posix()
    'frames/2048-2x3-seed4/00007.png'
    """
    index = game.move_count if index is None else index
    return folder / f"2048-{game.board.rows}x{game.board.cols}-seed{game.seed}" / f"{index:05d}.png"


class FrameWriter:
    """Writes the picture of a game into ``folder`` whenever it changes (see :func:`frame_path`).

    Args:
        folder: the folder of the frames (created as needed).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._seen: tuple[Path, int, Board] | None = None  # the game's frame folder, moves, board

    def write(self, game: Game) -> None:
        """Write the frame of ``game`` as it is now, unless it is written already.

        After an undo, the frames of the undone moves are removed.

        Raises:
            OSError: a frame cannot be written.
        """
        path = frame_path(self.folder, game)
        seen = (path.parent, game.move_count, game.board)
        if seen == self._seen:
            return
        from plyground.apps.render import save_frame

        if self._seen is not None and self._seen[0] == path.parent:
            for index in range(game.move_count + 1, self._seen[1] + 1):  # undone moves
                frame_path(self.folder, game, index).unlink(missing_ok=True)
        save_frame(game.board, path, score=game.score)
        self._seen = seen
