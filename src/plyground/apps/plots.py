"""Pictures of what the game packages write as data: the learning curve of a training run, the curve of a tuning run.

The game packages write CSV and JSON; the command line draws them here as PNG files with
matplotlib (the ``tune`` extra), imported only when a picture is drawn.
:class:`Redraw` draws one now and then, and says once, on stderr, when matplotlib is missing.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

from plyground.apps.text import counted
from plyground.core.files import atomic_write
from plyground.errors import DependencyNotInstalled, install_command

__all__ = ["Redraw", "figure", "learning_curve", "save", "tuning_curve"]


def figure(width: float = 8, height: float = 5) -> Any:
    """A new matplotlib figure (not tied to any display).

    Raises:
        DependencyNotInstalled: matplotlib is missing.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise DependencyNotInstalled(f"plots need matplotlib: {install_command('tune')}") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def save(picture: Any, path: str | os.PathLike[str]) -> None:
    """Write a figure to ``path`` as PNG, atomically."""

    def write(handle: IO[bytes]) -> None:
        picture.savefig(handle, format="png")

    atomic_write(path, write)


def learning_curve(
    path: str | os.PathLike[str],
    games: Sequence[int],
    means: Sequence[float],
    reach: dict[int, Sequence[float]],
    *,
    title: str,
    window: int,
) -> None:
    """Draw a training run's curve: the mean score, then the share reaching each tile, against the games trained.

    Args:
        path: the PNG file.
        games: the games trained at each row of the curve.
        means: the mean score at each row, over the last ``window`` games.
        reach: tile -> its share at each row.
        title: the title of the picture.
        window: the games the means and shares are over.

    Raises:
        DependencyNotInstalled: matplotlib is missing.
    """
    picture = figure(8, 7)
    top, bottom = picture.subplots(2, 1, sharex=True)
    top.plot(games, means, color="tab:blue")
    top.set(title=title, ylabel=f"mean score, last {counted(window, 'game')}")
    for tile, shares in reach.items():
        bottom.plot(games, shares, label=str(tile))
    bottom.set(xlabel="games trained", ylabel=f"share reaching the tile, last {counted(window, 'game')}", ylim=(0, 1))
    if reach:
        bottom.legend(loc="upper left")
    save(picture, path)


def tuning_curve(path: str | os.PathLike[str], history: Sequence[tuple[int, int, float, Any]], *, games: int) -> None:
    """Draw a tuning run's curve: every candidate's mean score, each generation's mean and the best so far.

    Args:
        path: the PNG file.
        history: ``(generation, candidate, mean score, ...)`` for every evaluation.
        games: the games of each evaluation.

    Raises:
        DependencyNotInstalled: matplotlib is missing.
    """
    picture = figure()
    axes = picture.add_subplot()
    axes.scatter([g for g, *_ in history], [s for _, _, s, *_ in history], s=12, alpha=0.5, label="candidates")
    generations = sorted({g for g, *_ in history})
    best, running = [], -math.inf
    for generation in generations:
        running = max(running, *(s for g, _, s, *_ in history if g == generation))
        best.append((generation, running))
    axes.plot([g for g, _ in best], [s for _, s in best], color="black", marker="o", label="best so far")
    means = [(g, statistics.fmean(s for h, _, s, *_ in history if h == g)) for g in generations]
    axes.plot([g for g, _ in means], [m for _, m in means], color="tab:orange", label="generation mean")
    axes.set(title="CMA-ES tuning", xlabel="generation", ylabel=f"mean score over {counted(games, 'game')}")
    axes.legend()
    save(picture, path)


class Redraw:
    """Draw a picture at most every ``every`` seconds (or when forced); tell once when it cannot be drawn.

    Args:
        draw: draws the picture (raising DependencyNotInstalled without matplotlib).
        name: the picture, for the message (e.g. ``curve.png``).
        every: the fewest seconds between two drawings that are not forced.
        warn: where the message goes (default: one line on stderr).
    """

    def __init__(
        self,
        draw: Callable[[], None],
        *,
        name: str,
        every: float = 60.0,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self._draw, self._name, self._every = draw, name, every
        self._warn = warn if warn is not None else lambda text: print(text, file=sys.stderr)
        self._drawn = time.monotonic()
        self._missing = False

    def __call__(self, *, force: bool = False) -> None:
        """Draw the picture if forced or it is time; without matplotlib, say so the first time only."""
        if self._missing or not (force or time.monotonic() - self._drawn >= self._every):
            return
        try:
            self._draw()
        except DependencyNotInstalled as exc:
            self._missing = True
            self._warn(f"note: {self._name} is not drawn: {exc}")
        self._drawn = time.monotonic()
