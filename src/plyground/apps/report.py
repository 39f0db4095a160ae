"""The report on a results store: one summary row per bench run, and plots (matplotlib PNG).

:func:`summarize_run` gives a run's statistics (a :class:`~plyground.core.stats.ScoreSummary`:
mean score with its 95% interval, median, the share of games reaching each tile its board
can hold), :func:`runs_table` the rich table that ``plyground 2048 report`` prints (one
table on a wide terminal, a table of settings and one of scores on a narrow one: nothing is
cut), :func:`runs_json` and :func:`runs_csv` the same for scripts, and :func:`write_plots`
the pictures:

* ``score_distribution.png`` - the score histograms of the last runs;
* ``max_tile_shares.png`` - for each run, the share of games ending on each largest tile;
* ``score_vs_time.png`` - the mean score (95% interval) against the time budget per move,
  one line per board size and evaluator (with the heuristic, per weights), where runs had
  a time budget;
* ``score_vs_depth.png`` - the same against the search depth, where runs had a fixed depth.

Every view names each run's evaluator (``heuristic``, ``network``, ``ntuple:PATH``). The
weights hash is that of the heuristic's weights, so it is shown for heuristic runs only: a
run with a network has ``-`` in the table, ``null`` in the JSON and an empty CSV field.

matplotlib is imported only by :func:`write_plots`, through :mod:`plyground.apps.plots` (the ``tune`` extra).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table

from plyground.apps import plots
from plyground.apps.results import RunRecord, RunSettings
from plyground.core.stats import REACH_TILES, ScoreSummary, reach_tiles, summarize_scores

__all__ = ["PLOTS", "RunsView", "runs_csv", "runs_json", "runs_table", "summarize_run", "write_plots"]

PLOTS: tuple[str, ...] = ("score_distribution.png", "max_tile_shares.png", "score_vs_time.png", "score_vs_depth.png")
"""The files :func:`write_plots` writes: the last two only for the runs with a time budget, with a fixed depth."""
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
    label = f"#{run.id} {settings.rows}x{settings.cols} {settings.budget}"
    return label if settings.uses_weights else f"{label} {settings.evaluator}"


_TABLE_TILES = (2048, 4096, 8192, 16384)
"""The tiles whose reach the table can show: those a board of the runs shown can hold (the JSON and CSV give
every tile of :data:`~plyground.core.stats.REACH_TILES`, empty where the run's board cannot hold it)."""


def runs_table(runs: Sequence[RunRecord], *, title: str | None = "2048 bench runs") -> RunsView:
    """The runs as rich prints them: when, board, budget, evaluator, weights, where it ran, games, scores, tile reach.

    The weights column shows the weights hash of heuristic runs and ``-`` for the others.
    """
    return RunsView(runs, title=title)


class RunsView:
    """One row per run; where one table is wider than the console, a table of settings and one of scores.

    Cells are never cut: the run ids, times, hashes and numbers keep their width, and
    longer texts (the evaluator, where a run ran) wrap between words.
    """

    def __init__(self, runs: Sequence[RunRecord], *, title: str | None = None) -> None:
        self.runs = list(runs)
        self.title = title
        held = {tile for run in self.runs for tile in reach_tiles(run.settings.rows, run.settings.cols)}
        self.tiles = [tile for tile in _TABLE_TILES if tile in held]
        """The reach columns: the tiles of :data:`_TABLE_TILES` that some run's board can hold."""
        self._scores = ("games", "mean score (95%)", "median", *(f"≥{tile}" for tile in self.tiles))
        self._rows = [_row(run) for run in self.runs]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = self.table(_SETTINGS + self._scores)
        natural = Measurement.get(console, options.update_width(1_000_000), wide).maximum
        if natural <= options.max_width:  # every row on one line
            yield wide
            return
        yield self.table(_SETTINGS, title=self.title, width=options.max_width)
        yield self.table(("run", *self._scores), title=None, width=options.max_width)

    def table(self, names: Sequence[str], *, title: str | None = "", width: int | None = None) -> Table:
        """A table of the columns ``names`` (of :data:`_COLUMNS`), within ``width`` characters if it is given.

        Within ``width``, the widest wrapping columns give way first, down to their longest
        word (:data:`_FOLD_AT` at most); the other columns keep their width.
        """
        table = Table(title=self.title if title == "" else title, title_justify="left")
        columns = []
        for name in names:
            right, whole = _COLUMNS[name]
            texts = [name, *(row[name] for row in self._rows)]
            natural = max(len(text) for text in texts)
            longest_word = max(len(word) for text in texts for word in text.split())
            least = natural if whole else min(_FOLD_AT, longest_word)  # else it wraps, and folds a long word
            columns.append((name, right, whole, least, natural))
        level = _level(columns, width) if width is not None else None
        for name, right, whole, least, natural in columns:
            table.add_column(
                name,
                justify="right" if right else "left",
                no_wrap=whole,
                min_width=least,
                max_width=natural if whole or level is None else max(least, min(natural, level)),
                overflow="fold",
            )
        for row in self._rows:
            table.add_row(*(row[name] for name in names))
        return table


def _level(columns: Sequence[tuple[str, bool, bool, int, int]], width: int) -> int:
    """The widest the wrapping columns may be for the table to fit in ``width`` (each keeps its least width).

    ``columns`` are (name, right-justified, whole, least width, natural width).
    """
    room = width - (3 * len(columns) + 1) - sum(least for _, _, whole, least, _ in columns if whole)  # 3: borders
    wrapping = [(least, natural) for _, _, whole, least, natural in columns if not whole]
    fits = (
        level
        for level in range(max((natural for _, natural in wrapping), default=0), -1, -1)
        if sum(max(least, min(natural, level)) for least, natural in wrapping) <= room
    )
    return next(fits, 0)


_FOLD_AT = 10
"""The width from which a word of a wrapping column (a network's path, an address) folds: at 80 columns every
setting still fits on one table."""

# Each column: right-justified, kept whole (else it wraps between words).
_COLUMNS: dict[str, tuple[bool, bool]] = {
    "run": (True, True),
    "started (UTC)": (False, False),
    "board": (False, True),
    "budget": (False, False),
    "evaluator": (False, False),
    "weights": (False, True),
    "ran on": (False, False),
    "games": (True, True),
    "mean score (95%)": (True, False),
    "median": (True, True),
    **{f"≥{tile}": (True, True) for tile in _TABLE_TILES},
}
_SETTINGS = ("run", "started (UTC)", "board", "budget", "evaluator", "weights", "ran on")


def _row(run: RunRecord) -> dict[str, str]:
    summary = summarize_run(run)
    if summary.interval is None:
        mean = f"{summary.mean_score:,.0f}" if summary.games else "-"
    else:
        mean = f"{summary.mean_score:,.0f} ({summary.interval[0]:,.0f} to {summary.interval[1]:,.0f})"
    settings = run.settings
    return {
        "run": str(run.id),
        "started (UTC)": run.started.replace("T", " ").removesuffix("+00:00"),
        "board": f"{settings.rows}x{settings.cols}",
        "budget": settings.budget,
        "evaluator": _evaluator(settings),
        "weights": run.weights_hash if run.weights_hash is not None else "-",
        "ran on": settings.backend,
        "games": str(summary.games),
        "mean score (95%)": mean,
        "median": f"{summary.median_score:,.0f}" if summary.games else "-",
        **{
            f"≥{tile}": f"{summary.reach[tile]:.0%}" if summary.games and tile in summary.reach else "-"
            for tile in _TABLE_TILES
        },
    }


def _evaluator(settings: RunSettings) -> str:
    """The evaluator of a run, and the endgame tables it consulted."""
    tables = len(settings.tablebases)
    return settings.evaluator + (f" + {tables} endgame table{'s' if tables != 1 else ''}" if tables else "")


def runs_json(runs: Sequence[RunRecord]) -> list[dict[str, Any]]:
    """The runs for scripts: settings, statistics (every reach tile) and each game.

    The settings include ``evaluator``, and ``weights_hash``: that of the heuristic's weights,
    None for a run with another evaluator.

    >>> from plyground.apps.results import GameRow, RunSettings
    >>> run = RunRecord(1, "2026-01-01T00:00:00+00:00", RunSettings(depth=2), "abc", (GameRow(7, 10, 8, 5, 0.5, 2.0),))
    >>> data = runs_json([run])[0]
    >>> data["run"], data["depth"], data["evaluator"], data["games"], data["mean_score"], data["results"][0]["seed"]
    (1, 2, 'heuristic', 1, 10.0, 7)
    """
    result = []
    for run in runs:
        summary = summarize_run(run)
        settings = run.settings
        result.append(
            {
                "run": run.id,
                "started": run.started,
                "rows": settings.rows,
                "cols": settings.cols,
                "time_ms": settings.time_ms,
                "depth": settings.depth,
                "p_four": settings.p_four,
                "evaluator": settings.evaluator,
                "weights_hash": run.weights_hash,
                "backend": settings.backend,
                "tablebases": list(settings.tablebases),
                "games": summary.games,
                "mean_score": summary.mean_score if summary.games else None,
                "interval": list(summary.interval) if summary.interval is not None else None,
                "median_score": summary.median_score if summary.games else None,
                "reach": {str(tile): share for tile, share in summary.reach.items()} if summary.games else None,
                "results": [
                    {
                        "seed": game.seed,
                        "score": game.score,
                        "max_tile": game.max_tile,
                        "moves": game.moves,
                        "seconds": game.seconds,
                        "mean_depth": game.mean_depth,
                        "table_moves": game.table_moves,
                    }
                    for game in run.games
                ],
            }
        )
    return result


def runs_csv(runs: Sequence[RunRecord]) -> str:
    """The runs as CSV for scripts: a header, then one line per run (its settings and statistics).

    The fields are those of :func:`runs_json` but the games; a field that is None there
    (``weights_hash`` without the heuristic, ``time_ms`` with a depth) is empty, and ``tablebases``
    is the tables' names separated by ``;`` (empty without tables).

    >>> from plyground.apps.results import GameRow, RunSettings
    >>> run = RunRecord(1, "2026-01-01T00:00:00+00:00", RunSettings(depth=2), "abc", (GameRow(7, 10, 8, 5, 0.5, 2.0),))
    >>> print(runs_csv([run]).splitlines()[1])
    1,2026-01-01T00:00:00+00:00,4,4,,2,0.1,heuristic,abc,local,,1,10.0,,,10.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["run", "started", "rows", "cols", "time_ms", "depth", "p_four", "evaluator", "weights_hash", "backend"]
    header += ["tablebases", "games", "mean_score", "interval_low", "interval_high", "median_score"]
    header += [f"reach_{t}" for t in REACH_TILES]
    writer.writerow(header)
    for data in runs_json(runs):
        low, high = data["interval"] or ("", "")
        reach = data["reach"] or {}
        data["tablebases"] = ";".join(data["tablebases"])
        writer.writerow(
            [data[name] if data[name] is not None else "" for name in header[:13]]
            + [low, high, data["median_score"] if data["median_score"] is not None else ""]
            + [reach.get(str(tile), "") for tile in REACH_TILES]
        )
    return buffer.getvalue()


def write_plots(runs: Sequence[RunRecord], folder: str | os.PathLike[str]) -> list[Path]:
    """Write the plots of :data:`PLOTS` that ``runs`` give into ``folder`` (created if needed); return their paths.

    The score against the time budget is drawn only where runs had a time budget, the score
    against the depth only where runs had a fixed depth; a plot of :data:`PLOTS` not drawn is
    removed from ``folder`` (an earlier report's picture would not show these runs).

    Raises:
        DependencyNotInstalled: matplotlib is missing.
    """
    target = Path(folder)
    played = [run for run in runs if run.games]
    written = [target / name for name in PLOTS[:2]]

    figure = plots.figure()
    axes = figure.add_subplot()
    for run in played[-_HISTOGRAM_RUNS:]:
        axes.hist([game.score for game in run.games], bins=20, histtype="step", linewidth=1.5, label=_label(run))
    axes.set(title="Score distribution (last runs)", xlabel="final score", ylabel="games")
    if played:
        axes.legend(fontsize="small")
    plots.save(figure, written[0])

    figure = plots.figure()
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
    plots.save(figure, written[1])

    timed = [(run, run.settings.time_ms) for run in played if run.settings.time_ms is not None]
    if timed:
        written.append(target / PLOTS[2])
        _score_against(timed, written[-1], "the time budget", "ms per move", log=True)
    searched = [(run, float(run.settings.depth)) for run in played if run.settings.depth is not None]
    if searched:
        written.append(target / PLOTS[3])
        _score_against(searched, written[-1], "the search depth", "depth", log=False)
    for name in PLOTS:
        if target / name not in written:
            (target / name).unlink(missing_ok=True)
    return written


def _score_against(runs: list[tuple[RunRecord, float]], path: Path, what: str, unit: str, *, log: bool) -> None:
    """The mean score (95% interval) of ``runs`` against their setting, one line per board size and evaluator."""
    figure = plots.figure()
    axes = figure.add_subplot()
    lines: dict[tuple[int, int, str], list[tuple[float, ScoreSummary]]] = {}
    for run, setting in runs:
        method = f"weights {run.weights_hash}" if run.settings.uses_weights else run.settings.evaluator
        method += " + endgame tables" if run.settings.tablebases else ""
        key = (run.settings.rows, run.settings.cols, method)
        lines.setdefault(key, []).append((setting, summarize_run(run)))
    for (rows, cols, method), points in sorted(lines.items()):
        points.sort(key=lambda point: point[0])
        settings = [setting for setting, _ in points]
        means = [summary.mean_score for _, summary in points]
        low = [summary.mean_score - (summary.interval or (summary.mean_score, 0))[0] for _, summary in points]
        high = [(summary.interval or (0, summary.mean_score))[1] - summary.mean_score for _, summary in points]
        axes.errorbar(settings, means, yerr=[low, high], marker="o", capsize=3, label=f"{rows}x{cols} {method}")
    axes.set(title=f"Mean score (95% interval) against {what}", xlabel=unit, ylabel="mean score")
    if log:
        axes.set_xscale("log")
    else:  # depths: whole numbers
        depths = sorted({setting for _, setting in runs})
        axes.set_xticks(depths)
        axes.set_xlim(depths[0] - 0.5, depths[-1] + 0.5)
    axes.legend(fontsize="small")
    plots.save(figure, path)
