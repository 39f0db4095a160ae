"""The learning curve of a training run: where training stands (:class:`Report`), ``curve.csv``.

``curve.csv`` has one row per report: ``games, moves, seconds, mean_score``, then one
``reach_TILE`` column per reach tile of the run (the tiles its board can hold, from 256;
runs started before then have 2048 to 16384), the means and shares over the last
``window`` games.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.core.stats import summarize_scores
from plyground.errors import CorruptFileError
from plyground.g2048.ntuple.training import GameResults, Training

__all__ = ["RecentGames", "Report", "curve_csv", "read_curve", "read_curve_and_tiles"]

_CURVE_COLUMNS = ["games", "moves", "seconds", "mean_score"]
"""The first columns of ``curve.csv``; a column ``reach_TILE`` follows for each reach tile of the run."""


@dataclass(frozen=True)
class Report:
    """Where training stands: the totals of the network and the results of its last ``window`` games.

    Attributes:
        games, moves, seconds: the network's training in all.
        window: the games the means and shares are over (fewer than the setting at the start).
        mean_score: the mean score of those games (0 without a game).
        reach: tile -> the share of those games that reached it, for the run's reach tiles
            (:attr:`~plyground.g2048.ntuple.TrainingRun.reach_tiles`).
        max_tile: the largest tile of those games.
    """

    games: int
    moves: int
    seconds: float
    window: int
    mean_score: float
    reach: dict[int, float]
    max_tile: int

    def csv_row(self) -> list[str]:
        """The row of ``curve.csv``."""
        shares = [f"{share:.6g}" for share in self.reach.values()]
        return [str(self.games), str(self.moves), f"{self.seconds:.3f}", f"{self.mean_score:.3f}", *shares]


class RecentGames:
    """The scores and largest tiles of the last ``size`` games, oldest first, and the tiles whose reach counts."""

    def __init__(self, size: int, reach: Sequence[int], scores: Sequence[int] = (), tiles: Sequence[int] = ()) -> None:
        self.size = size
        self.reach = tuple(reach)
        self.scores = np.asarray(scores, dtype=np.int64)[-size:]
        self.tiles = np.asarray(tiles, dtype=np.int64)[-size:]

    def add(self, results: GameResults) -> None:
        """Add the games of ``results`` (keeping the last ``size``)."""
        self.scores, self.tiles = self._with(results)

    def _with(self, results: GameResults) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        scores = np.concatenate([self.scores, results.scores[-self.size :]])[-self.size :]
        tiles = np.concatenate([self.tiles, results.max_tiles[-self.size :]])[-self.size :]
        return scores, tiles

    def report(self, done: Training, pending: GameResults | None = None) -> Report:
        """A report of a network trained ``done`` with these games (and ``pending`` ones, not added)."""
        scores, tiles = (self.scores, self.tiles) if pending is None else self._with(pending)
        summary = summarize_scores(scores.tolist(), tiles.tolist(), tiles=self.reach)
        return Report(
            games=done.games,
            moves=done.moves,
            seconds=done.seconds,
            window=summary.games,
            mean_score=summary.mean_score,
            reach=dict(summary.reach),
            max_tile=summary.max_tile,
        )

    def to_json(self, games: int) -> dict[str, Any]:
        """The games as the entry of ``recent.json`` for a checkpoint at ``games`` games."""
        return {"games": games, "scores": self.scores.tolist(), "tiles": self.tiles.tolist()}


def curve_csv(curve: Sequence[Report], tiles: Sequence[int]) -> str:
    """The text of ``curve.csv`` with these rows, whose reach is over ``tiles``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*_CURVE_COLUMNS, *(f"reach_{tile}" for tile in tiles)])
    writer.writerows(row.csv_row() for row in curve)
    return out.getvalue()


def read_curve(folder: str | os.PathLike[str]) -> list[Report]:
    """The learning curve of the run in ``folder`` (its ``curve.csv``; empty when there is none yet).

    The rows carry the running means and shares, not the window or the largest tile
    (``window`` and ``max_tile`` are 0); the reach is over the tiles of the file's columns.

    Raises:
        CorruptFileError: a file that is not such a curve.
    """
    return read_curve_and_tiles(folder)[0]


def read_curve_and_tiles(folder: str | os.PathLike[str]) -> tuple[list[Report], tuple[int, ...] | None]:
    """The rows of ``curve.csv`` in ``folder`` and the tiles of its reach columns (None without a file).

    Raises:
        CorruptFileError: a file that is not such a curve.
    """
    path = Path(folder) / "curve.csv"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], None
    except UnicodeDecodeError:
        raise CorruptFileError(f"{path} is not UTF-8 text") from None
    rows = list(csv.reader(io.StringIO(text)))
    tiles = _reach_columns(rows[0]) if rows else None
    if tiles is None:
        raise CorruptFileError(f"{path}: not the curve of a training run (its header is {rows[:1]!r})")
    curve = []
    for number, row in enumerate(rows[1:], start=2):
        try:
            games, moves, seconds, mean, *shares = row
            curve.append(
                Report(
                    games=int(games),
                    moves=int(moves),
                    seconds=float(seconds),
                    window=0,
                    mean_score=float(mean),
                    reach=dict(zip(tiles, map(float, shares), strict=True)),
                    max_tile=0,
                )
            )
        except ValueError:
            raise CorruptFileError(f"{path}: line {number} is not a row of the curve") from None
    return curve, tiles


def _reach_columns(header: list[str]) -> tuple[int, ...] | None:
    """The tiles of the ``reach_TILE`` columns of a curve's header (None: not a curve's header)."""
    if header[: len(_CURVE_COLUMNS)] != _CURVE_COLUMNS:
        return None
    tiles: list[int] = []
    for name in header[len(_CURVE_COLUMNS) :]:
        tile = name.removeprefix("reach_")
        if not tile.isdigit() or int(tile) < 2 or int(tile) & (int(tile) - 1) or (tiles and int(tile) <= tiles[-1]):
            return None  # not a power of two, or not after the tile before
        tiles.append(int(tile))
    return tuple(tiles)
