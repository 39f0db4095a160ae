"""The report on a results store: one summary row per bench run, and plots (matplotlib PNG).

:func:`summarize_run` gives a run's statistics (a :class:`~plyground.core.stats.ScoreSummary`:
mean score with its 95% interval, median, the share of games reaching each tile its board
can hold), :func:`runs_table` the rich table that
``plyground 2048 report`` prints, and :func:`write_plots` three pictures:

* ``score_distribution.png`` - the score histograms of the last runs;
* ``max_tile_shares.png`` - for each run, the share of games ending on each largest tile;
* ``score_vs_time.png`` - the mean score (95% interval) against the time budget per move,
  one line per board size and weights.

matplotlib is imported only by :func:`write_plots` (the ``tune`` extra).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from rich.table import Table

from plyground.apps.results import RunRecord
from plyground.core.files import atomic_write
from plyground.core.stats import ScoreSummary, reach_tiles, summarize_scores
from plyground.errors import DependencyNotInstalled, install_command

__all__ = ["PLOTS", "runs_table", "summarize_run", "write_plots"]

PLOTS: tuple[str, ...] = ("score_distribution.png", "max_tile_shares.png", "score_vs_time.png")
"""The files :func:`write_plots` writes."""
_TABLE_TILES = (2048, 4096, 8192, 16384)
"""The tiles of the table's reach columns (those that a board of the runs shown can hold)."""
_HISTOGRAM_RUNS = 6


def summarize_run(run: RunRecord) -> ScoreSummary:
    """The mean, 95% interval of the mean, median and tile reach of a run (zeros and no interval without games).

    >>> from plyground.apps.results import GameRow, RunSettings
    >>> games = tuple(GameRow(i, score, tile, 0, 0.0, 0.0) for i, (score, tile) in enumerate([(10, 256), (30, 512)]))
    >>> summary = summarize_run(RunRecord(1, "", RunSettings(), "", games))
    >>> summary.mean_score, summary.median_score, summary.reach[512]
    (20.0, 20.0, 0.5)
    """
    tiles = reach_tiles(run.settings.rows, run.settings.cols)
    return summarize_scores([game.score for game in run.games], [game.max_tile for game in run.games], tiles=tiles)


def _label(run: RunRecord) -> str:
    settings = run.settings
    return f"#{run.id} {settings.rows}x{settings.cols} {settings.budget}"


def runs_table(runs: Sequence[RunRecord], *, title: str = "2048 bench runs") -> Table:
    """One row per run: when, board, budget, weights hash, where it ran, games, scores and tile reach.

    The reach columns are those of the tiles that the board of some run shown can hold; a run
    on a board that cannot hold the tile shows ``-``.
    """
    table = Table(title=title, title_justify="left")
    for name in ("run", "started (UTC)", "board", "budget", "weights", "ran on", "games", "mean score (95%)"):
        table.add_column(name, justify="right" if name in ("run", "games") else "left")
    table.add_column("median", justify="right")
    held = {tile for run in runs for tile in reach_tiles(run.settings.rows, run.settings.cols)}
    tiles = [tile for tile in _TABLE_TILES if tile in held]
    for tile in tiles:
        table.add_column(f"≥{tile}", justify="right")
    for run in runs:
        summary = summarize_run(run)
        if summary.interval is None:
            mean = f"{summary.mean_score:,.0f}" if summary.games else "-"
        else:
            mean = f"{summary.mean_score:,.0f} ({summary.interval[0]:,.0f} to {summary.interval[1]:,.0f})"
        settings = run.settings
        table.add_row(
            str(run.id),
            run.started.replace("T", " ").removesuffix("+00:00"),
            f"{settings.rows}x{settings.cols}",
            settings.budget,
            run.weights_hash,
            settings.backend,
            str(summary.games),
            mean,
            f"{summary.median_score:,.0f}" if summary.games else "-",
            *(f"{summary.reach[tile]:.0%}" if summary.games and tile in summary.reach else "-" for tile in tiles),
        )
    return table


def _figure() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise DependencyNotInstalled(f"plots need matplotlib: {install_command('tune')}") from None
    return Figure(figsize=(8, 5), dpi=100, layout="constrained")


def _save(figure: Any, path: Path) -> None:
    def write(handle: IO[bytes]) -> None:
        figure.savefig(handle, format="png")

    atomic_write(path, write)


def write_plots(runs: Sequence[RunRecord], folder: str | os.PathLike[str]) -> list[Path]:
    """Write the three plots of :data:`PLOTS` into ``folder`` (created if needed); return their paths.

    Raises:
        DependencyNotInstalled: matplotlib is missing.
    """
    target = Path(folder)
    played = [run for run in runs if run.games]
    paths = [target / name for name in PLOTS]

    figure = _figure()
    axes = figure.add_subplot()
    for run in played[-_HISTOGRAM_RUNS:]:
        axes.hist([game.score for game in run.games], bins=20, histtype="step", linewidth=1.5, label=_label(run))
    axes.set(title="Score distribution (last runs)", xlabel="final score", ylabel="games")
    if played:
        axes.legend(fontsize="small")
    _save(figure, paths[0])

    figure = _figure()
    axes = figure.add_subplot()
    tiles = sorted({game.max_tile for run in played for game in run.games})
    labels = [_label(run) for run in played]
    left = [0.0] * len(played)
    import matplotlib

    colormap = matplotlib.colormaps["viridis"]
    for i, tile in enumerate(tiles):
        shares = [sum(game.max_tile == tile for game in run.games) / len(run.games) for run in played]
        axes.barh(labels, shares, left=left, label=str(tile), color=colormap(i / max(1, len(tiles) - 1)))
        left = [a + b for a, b in zip(left, shares, strict=True)]
    axes.set(title="Largest tile at the end of the game", xlabel="share of games", xlim=(0, 1))
    if tiles:
        axes.legend(title="max tile", fontsize="small", loc="lower right")
    _save(figure, paths[1])

    figure = _figure()
    axes = figure.add_subplot()
    lines: dict[tuple[int, int, str], list[tuple[float, ScoreSummary]]] = {}
    for run in played:
        if run.settings.time_ms is not None:
            key = (run.settings.rows, run.settings.cols, run.weights_hash)
            lines.setdefault(key, []).append((run.settings.time_ms, summarize_run(run)))
    for (rows, cols, digest), points in sorted(lines.items()):
        points.sort(key=lambda point: point[0])
        times = [time for time, _ in points]
        means = [summary.mean_score for _, summary in points]
        low = [summary.mean_score - (summary.interval or (summary.mean_score, 0))[0] for _, summary in points]
        high = [(summary.interval or (0, summary.mean_score))[1] - summary.mean_score for _, summary in points]
        axes.errorbar(times, means, yerr=[low, high], marker="o", capsize=3, label=f"{rows}x{cols} weights {digest}")
    axes.set(title="Mean score (95% interval) against the time budget", xlabel="ms per move", ylabel="mean score")
    if lines:
        axes.set_xscale("log")
        axes.legend(fontsize="small")
    _save(figure, paths[2])
    return paths
