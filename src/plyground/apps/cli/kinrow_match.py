"""How ``plyground kinrow selfplay`` shows a match: a line per game, the results table, JSON, CSV, saved files.

Used by :mod:`plyground.apps.cli.kinrow`'s ``selfplay``; like every module of the command
line, it imports only typer and the standard library at the top.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from plyground.kinrow.selfplay import GameRecord, MatchSummary

__all__ = [
    "game_line",
    "game_path",
    "match_data",
    "print_match",
    "results_table",
    "save_game",
    "score_line",
    "summary_path",
]


def game_line(i: int, games: int, record: GameRecord) -> str:
    """One game in a line: number, seed, players, result and mean time per move of each side."""
    width = len(str(games))
    return (
        f"game {i + 1:>{width}}/{games}  seed {record.seed}  X {record.x_name}, O {record.o_name}: "
        f"{record.describe()}  (ms/move: X {_mean(record.x_seconds)}, O {_mean(record.o_seconds)})"
    )


def _mean(seconds: tuple[float, ...]) -> str:
    return f"{1000 * sum(seconds) / len(seconds):,.2f}" if seconds else "-"


def results_table(summary: MatchSummary, title: str) -> Table:
    """Wins, draws, losses and mean milliseconds per move of each player."""
    from rich.table import Table

    table = Table(title=title)
    table.add_column("side")
    table.add_column("player")
    for name in ("wins", "draws", "losses", "games", "ms/move"):
        table.add_column(name, justify="right")
    sides = ("X then O", "O then X") if summary.swap else ("X", "O")
    for side, player in zip(sides, (summary.first, summary.second), strict=True):
        mean = "-" if math.isnan(player.mean_seconds) else f"{1000 * player.mean_seconds:,.2f}"
        table.add_row(side, player.name, *map(str, (player.wins, player.draws, player.losses, player.games)), mean)
    if summary.swap:
        table.caption = f"X won {summary.x_wins}, O won {summary.o_wins}, {summary.draws} drawn"
    return table


def score_line(summary: MatchSummary) -> str:
    """``score of engine against alphabeta: 75.0% (95% interval ...), Elo +191 (-40 to +422)``."""
    return f"score of {summary.first.name} against {summary.second.name}: {summary.score.text()}"


def match_data(summary: MatchSummary, title: str) -> dict[str, object]:
    """What ``--json`` prints and the saved summary holds: the title, then the match's ``match_json``."""
    from plyground.kinrow.selfplay import match_json

    return {"title": title, **match_json(summary)}


def print_match(console: Console, summary: MatchSummary, title: str, shown: str) -> None:
    """The match as a table and its score line, as one JSON object, or as CSV (``shown``), on stdout."""
    if shown == "json":
        print(json.dumps(match_data(summary, title)), flush=True)
    elif shown == "csv":
        from plyground.kinrow.selfplay import games_csv

        print(games_csv(summary), end="", flush=True)
    else:
        console.print(results_table(summary, title))
        console.print(score_line(summary), soft_wrap=True, markup=False)


def game_path(folder: Path, record: GameRecord) -> Path:
    """Where ``--save`` writes a game: ``DIR/kinrow-NxN-seedSEED.json``."""
    return folder / f"kinrow-{record.n}x{record.n}-seed{record.seed}.json"


def summary_path(folder: Path, n: int, seed: int) -> Path:
    """Where ``--save`` writes the match's summary: ``DIR/kinrow-NxN-match-seedSEED.json`` (the first game's seed)."""
    return folder / f"kinrow-{n}x{n}-match-seed{seed}.json"


def save_game(folder: Path, record: GameRecord, summary: MatchSummary, title: str, seed: int) -> None:
    """Write a finished game and the summary of the games so far in ``folder``, each file atomically."""
    from plyground.kinrow.selfplay import MATCH_FORMAT

    record.save(game_path(folder, record))
    MATCH_FORMAT.write(summary_path(folder, record.n, seed), match_data(summary, title))
