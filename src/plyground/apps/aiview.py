"""Watching the 2048 AI with rich: the live view of a game, a progress bar over games, the results table.

:class:`LiveGame` holds what the live view shows; :func:`live_game` draws it with
:class:`rich.live.Live` while a game is played. :func:`summary_view` builds the table of
results that ``plyground 2048 ai`` and ``experiments/2026-11-30-strength-20ms/strength.py`` both print.

>>> from rich.console import Console
>>> from plyground.g2048 import Board
>>> console = Console(width=60, color_system=None)
>>> with console.capture() as capture:
...     console.print(board_grid(Board.parse("2 0/0 2048"), tall=False))
>>> print(capture.get().strip())
┌──────┬──────┐
│  2   │      │
├──────┼──────┤
│      │ 2048 │
└──────┴──────┘
"""

from __future__ import annotations

import csv
import io
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from plyground.apps.text import counted
from plyground.g2048 import Board, Decision
from plyground.g2048.autoplay import GameResult, Summary
from plyground.g2048.state import State

__all__ = [
    "LiveGame",
    "board_grid",
    "games_csv",
    "games_progress",
    "live_game",
    "result_line",
    "summary_json",
    "summary_view",
    "tile_style",
]

# Tile colours by exponent, 0 for an empty cell: the 256-colour palette of the terminal game.
_TILE_STYLES = (
    "color(244) on color(250)",
    "color(239) on color(255)",
    "bold color(239) on color(230)",
    "bold color(231) on color(215)",
    "bold color(231) on color(209)",
    "bold color(231) on color(203)",
    "bold color(231) on color(196)",
    "bold color(16) on color(222)",
    "bold color(16) on color(221)",
    "bold color(16) on color(220)",
    "bold color(231) on color(214)",
    "bold color(231) on color(208)",
    "bold color(231) on color(93)",
    "bold color(231) on color(57)",
    "bold color(231) on color(21)",
    "bold color(231) on color(16)",
)
_CELL_WIDTH = 6


def tile_style(exponent: int) -> str:
    """The rich style of a cell holding ``2**exponent`` (0: an empty cell)."""
    return _TILE_STYLES[max(0, min(exponent, len(_TILE_STYLES) - 1))]


def board_grid(board: Board, *, tall: bool = True) -> Table:
    """The board as a table of coloured cells, three lines high each when ``tall``."""
    grid = Table(show_header=False, show_lines=True, box=box.SQUARE, padding=0, pad_edge=False)
    for _ in range(board.cols):
        grid.add_column(width=_CELL_WIDTH, justify="center")
    for r in range(board.rows):
        cells = []
        for c in range(board.cols):
            exponent = board.exponent(r, c)
            label = str(1 << exponent) if exponent else ""
            cells.append(Text(f"\n{label}\n" if tall else label, style=tile_style(exponent), justify="center"))
        grid.add_row(*cells)
    return grid


def result_line(result: GameResult) -> str:
    """One line on a finished game: score, max tile, moves, time, speed, depth, the moves from tables and seed."""
    speed = result.moves / result.seconds if result.seconds > 0 else 0.0
    tables = f", {counted(result.table_moves, 'move')} from endgame tables" if result.table_moves else ""
    return (
        f"score {result.score:,}, max tile {result.max_tile}, {counted(result.moves, 'move')} "
        f"in {result.seconds:.1f} s "
        f"({speed:,.0f} moves/s), mean depth {result.mean_depth:.1f}{tables}, seed {result.seed}"
    )


def _interval_text(summary: Summary) -> str:
    if summary.interval is None:
        return f"{summary.mean_score:,.0f} (one game: no interval)"
    low, high = summary.interval
    return f"{summary.mean_score:,.0f} (95% interval {low:,.0f} to {high:,.0f})"


def summary_view(summary: Summary, *, title: str | None = "2048 AI games") -> Group:
    """The results: one row per game, then the mean score with its interval, the median and the reach.

    No cell is cut: each column is as wide as its widest cell (a 19-digit seed stays whole,
    to replay its game); headers wrap, which fits 80 columns.
    """
    rows = [
        (
            str(i),
            str(result.seed),
            f"{result.score:,}",
            str(result.max_tile),
            f"{result.moves:,}",
            f"{result.seconds:.2f}",
            f"{result.mean_depth:.2f}",
        )
        for i, result in enumerate(summary.results, start=1)
    ]
    games = Table(title=title, title_justify="left")
    for index, name in enumerate(("game", "seed", "score", "max tile", "moves", "seconds", "mean depth")):
        widest = max([len(row[index]) for row in rows] + [max(len(word) for word in name.split())])
        games.add_column(name, justify="right", min_width=widest, no_wrap=name == "seed")
    for row in rows:
        games.add_row(*row)
    overall = Table(show_header=False, box=box.SIMPLE, pad_edge=False)
    overall.add_column("measure")
    overall.add_column("value", justify="right")
    overall.add_row("games", str(summary.games))
    overall.add_row("mean score", _interval_text(summary))
    overall.add_row("median score", f"{summary.median_score:,.0f}")
    for tile, share in summary.reach.items():
        reached = round(share * summary.games)
        overall.add_row(f"reached {tile}", f"{share:.0%} ({reached}/{summary.games})")
    return Group(games, overall)


def summary_json(summary: Summary) -> dict[str, Any]:
    """The results for scripts: the statistics and each game (the keys of ``report --json``'s runs).

    >>> from plyground.g2048.autoplay import summarize
    >>> from plyground.g2048.game import Replay
    >>> data = summary_json(summarize([GameResult(9223372036854775807, 1234, 128, 90, 1.5, 2.0, Replay())]))
    >>> data["games"], data["mean_score"], data["interval"], data["results"][0]["seed"]
    (1, 1234.0, None, 9223372036854775807)
    """
    return {
        "games": summary.games,
        "mean_score": summary.mean_score,
        "interval": list(summary.interval) if summary.interval is not None else None,
        "median_score": summary.median_score,
        "reach": {str(tile): share for tile, share in summary.reach.items()},
        "results": [
            {
                "seed": result.seed,
                "score": result.score,
                "max_tile": result.max_tile,
                "moves": result.moves,
                "seconds": result.seconds,
                "mean_depth": result.mean_depth,
                "table_moves": result.table_moves,
            }
            for result in summary.results
        ],
    }


def games_csv(summary: Summary) -> str:
    """The games as CSV for scripts: a header, then one line per game.

    >>> from plyground.g2048.autoplay import summarize
    >>> from plyground.g2048.game import Replay
    >>> print(games_csv(summarize([GameResult(5, 1234, 128, 90, 1.5, 2.0, Replay())])), end="")
    game,seed,score,max_tile,moves,seconds,mean_depth,table_moves
    1,5,1234,128,90,1.5,2.0,0
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["game", "seed", "score", "max_tile", "moves", "seconds", "mean_depth", "table_moves"])
    for i, game in enumerate(summary_json(summary)["results"], start=1):
        writer.writerow([i, *game.values()])
    return buffer.getvalue()


def games_progress(console: Console) -> Progress:
    """A progress bar over games; its task's fields ``mean`` and ``current`` say how play goes."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("mean score {task.fields[mean]}   {task.fields[current]}"),
        console=console,
    )


class LiveGame:
    """What the live view of one game shows; :meth:`update` is the ``on_move`` of ``play_game``.

    The view is drawn from another thread (rich's refresh), so each update replaces one
    tuple that the drawing reads whole.
    """

    def __init__(self, title: str) -> None:
        self.title = title
        self._start = time.perf_counter()
        self._state: tuple[Board, int, int, Decision, float] | None = None
        self._depths = 0
        self._lock = threading.Lock()

    def update(self, game: State, decision: Decision) -> None:
        """Record the game after a move (and its spawn) and the decision that made it."""
        self._depths += decision.depth
        state = (game.board, game.score, game.move_count, decision, self._depths / max(1, game.move_count))
        with self._lock:
            self._state = state

    @property
    def last(self) -> tuple[Board, int, int] | None:
        """The board, score and move count after the last move (None before the first)."""
        with self._lock:
            state = self._state
        return None if state is None else state[:3]

    def renderable(self) -> RenderableType:
        """The board next to the score, moves, last decision, mean depth, speed and max tile."""
        with self._lock:
            state = self._state
        elapsed = time.perf_counter() - self._start
        if state is None:
            return Panel(Text("waiting for the first move..."), title=self.title, expand=False)
        board, score, moves, decision, mean_depth = state
        stats = Table(show_header=False, box=None, padding=(0, 1))
        stats.add_column(style="bold")
        stats.add_column(justify="right")
        stats.add_row("score", f"{score:,}")
        stats.add_row("moves", f"{moves:,}")
        stats.add_row("max tile", str(board.max_tile()))
        stats.add_row("last move", str(decision.move))
        stats.add_row("depth", str(decision.depth))
        stats.add_row("mean depth", f"{mean_depth:.2f}")
        stats.add_row("moves/s", f"{moves / elapsed:,.1f}" if elapsed > 0 else "-")
        stats.add_row("elapsed", f"{elapsed:,.1f} s")
        layout = Table.grid(padding=(0, 2))
        layout.add_row(board_grid(board), stats)
        return Panel(layout, title=self.title, expand=False)


@contextmanager
def live_game(console: Console, title: str) -> Iterator[LiveGame]:
    """Show a :class:`LiveGame` on ``console`` until the block ends (the view then disappears)."""
    view = LiveGame(title)
    with Live(console=console, get_renderable=view.renderable, refresh_per_second=10, transient=True):
        yield view
