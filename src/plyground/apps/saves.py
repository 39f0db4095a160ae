"""Where the terminal 2048 game keeps its files: the game in progress and the best scores.

The data folder is ``platformdirs.user_data_dir("plyground")``, or ``$PLYGROUND_DATA_DIR``
when set. Under it::

    2048/current-4x4.json   {"game": <Game.to_dict()>, "best": 12345}
    2048/best.json          {"4x4": 12345, "3x3": 2048}

There is one game in progress per board size. Every write is atomic. The best score of
a size is kept in both files, so that losing one never loses it.

A file that cannot be read is never overwritten nor deleted: it is renamed to
``<name>.corrupt-<timestamp>`` and a one-line warning says so.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plyground.core.files import DATA_DIR_ENV, data_dir, read_json, write_json
from plyground.errors import CorruptFileError, PlygroundError
from plyground.g2048 import Game

__all__ = ["DATA_DIR_ENV", "Resumed", "Saves2048", "data_dir", "set_aside"]

_CURRENT_NAME = re.compile(r"current-(\d+)x(\d+)\.json")
_SIZE_KEY = re.compile(r"\d+x\d+")

# What Game.from_dict may raise on a hand-edited or damaged file, besides
# InvalidInputError (a ValueError): such a file is set aside, never a crash.
_BAD_GAME_DATA = (ValueError, TypeError, KeyError, IndexError, OverflowError)


def set_aside(path: Path) -> Path:
    """Rename an unreadable file to ``<name>.corrupt-<timestamp>`` and return the new path.

    An existing set-aside file is never replaced: a counter is added to the name.

    Raises:
        PlygroundError: the file cannot be renamed (so it must not be written over).
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
        counter += 1
    try:
        path.rename(target)
    except OSError as exc:
        raise PlygroundError(f"cannot move the unreadable file {path} aside: {exc.strerror}") from None
    return target


@dataclass
class Resumed:
    """What :meth:`Saves2048.load` found: the saved game (or None), the best score, warnings."""

    game: Game | None
    best: int
    warnings: list[str] = field(default_factory=list)


class Saves2048:
    """The save files of 2048 games of one board size.

    Args:
        rows: rows of the board.
        cols: columns of the board.
        root: the data folder (default: :func:`data_dir`).
    """

    def __init__(self, rows: int = 4, cols: int = 4, *, root: str | os.PathLike[str] | None = None) -> None:
        self.rows = rows
        self.cols = cols
        self.folder = (Path(root) if root is not None else data_dir()) / "2048"
        # Warnings of save() (a best-score file set aside), for the caller to show and clear.
        self.warnings: list[str] = []
        self._recorded_best = -1

    @property
    def size(self) -> str:
        """The board size as in file names and best.json keys: ``"4x4"``."""
        return f"{self.rows}x{self.cols}"

    @property
    def current_path(self) -> Path:
        """The file of the game in progress."""
        return self.folder / f"current-{self.size}.json"

    @property
    def best_path(self) -> Path:
        """The file of the best score of every size."""
        return self.folder / "best.json"

    def load(self) -> Resumed:
        """Read the game in progress and the best score, setting aside unreadable files.

        The best score is the highest of best.json, the best recorded in the saved game,
        and the saved game's own score.

        Raises:
            PlygroundError: an unreadable file cannot be moved aside.
        """
        warnings: list[str] = []
        recorded = self._read_best(warnings).get(self.size, 0)
        self._recorded_best = recorded
        game, saved_best = self._read_current(warnings)
        best = max(recorded, saved_best, game.score if game is not None else 0)
        return Resumed(game, best, warnings)

    def save(self, game: Game, best: int) -> None:
        """Write the game in progress, and best.json when ``best`` beats the recorded best.

        Raises:
            ValueError: the game is not of this board size.
            OSError: the files cannot be written.
        """
        if game.board.shape != (self.rows, self.cols):
            raise ValueError(f"a {game.board.rows}x{game.board.cols} game cannot be saved as a {self.size} game")
        best = max(best, game.score)
        write_json(self.current_path, {"game": game.to_dict(), "best": best}, compact=True)
        if best > self._recorded_best:
            self._record_best(best)

    def _record_best(self, best: int) -> None:
        scores = self._read_best(self.warnings)
        if scores.get(self.size, 0) < best:
            scores[self.size] = best
            write_json(self.best_path, scores)
        self._recorded_best = scores.get(self.size, 0)

    def _read_best(self, warnings: list[str]) -> dict[str, int]:
        """best.json as a dictionary; an unreadable one is set aside and rebuilt from the saved games."""
        path = self.best_path
        try:
            return _check_best(read_json(path), path)
        except FileNotFoundError:
            return {}
        except CorruptFileError as exc:
            reason = str(exc)
        moved = set_aside(path)
        scores = self._recover_best()
        if scores:
            write_json(path, scores)
        warnings.append(
            f"warning: {reason}; moved it aside to {moved.name} and recovered the best scores from the saved games"
        )
        return scores

    def _recover_best(self) -> dict[str, int]:
        """The best score of each size, from the games in progress of every size."""
        scores: dict[str, int] = {}
        for path in sorted(self.folder.glob("current-*.json")):
            match = _CURRENT_NAME.fullmatch(path.name)
            if not match:
                continue
            try:
                data = read_json(path)
            except (OSError, CorruptFileError):
                continue  # dealt with when a game of that size is loaded
            found = [_count(data, "best"), _count(_dig(data, "game", "replay"), "score")]
            values = [value for value in found if value is not None]
            if values:
                scores[f"{match[1]}x{match[2]}"] = max(values)
        return scores

    def _read_current(self, warnings: list[str]) -> tuple[Game | None, int]:
        """The saved game and the best stored with it; an unreadable file is set aside."""
        path = self.current_path
        try:
            data = read_json(path)
        except FileNotFoundError:
            return None, 0
        except CorruptFileError as exc:
            reason = str(exc)
        else:
            try:
                return self._parse_current(data)
            except _BAD_GAME_DATA as exc:
                reason = f"{path}: {exc}"
        moved = set_aside(path)
        warnings.append(f"warning: {reason}; moved it aside to {moved.name} and started a new game")
        return None, 0

    def _parse_current(self, data: Any) -> tuple[Game, int]:
        if not isinstance(data, dict) or set(data) != {"game", "best"}:
            raise CorruptFileError("a saved game is a JSON object with exactly the fields 'game' and 'best'")
        best = _count(data, "best")
        if best is None:
            raise CorruptFileError(f"the best score must be a non-negative integer, got {data['best']!r}")
        game = Game.from_dict(data["game"])
        if game.board.shape != (self.rows, self.cols):
            raise CorruptFileError(f"holds a {game.board.rows}x{game.board.cols} game, expected {self.size}")
        return game, best


def _check_best(data: Any, path: Path) -> dict[str, int]:
    if not isinstance(data, dict):
        raise CorruptFileError(f'{path}: expected a JSON object such as {{"4x4": 12345}}')
    for key in data:
        if not _SIZE_KEY.fullmatch(key) or _count(data, key) is None:
            raise CorruptFileError(
                f"{path}: bad entry {key!r}: {data[key]!r}, expected a board size such as '4x4' "
                "and a non-negative integer score"
            )
    return dict(data)


def _count(data: Any, key: str) -> int | None:
    """``data[key]`` when ``data`` is a dictionary and the value a non-negative integer, else None."""
    value = data.get(key) if isinstance(data, dict) else None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data
