"""``plyground 2048 review``: where a saved game went wrong, its last moves searched again, deeper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from plyground.apps.cli.options import (
    EvaluatorOption,
    JsonOption,
    announce_search,
    depth_option,
    load_evaluator_option,
    load_replay,
    number_option,
)
from plyground.errors import CorruptFileError

__all__ = ["review"]


def review(
    replay: Annotated[
        Path, typer.Argument(metavar="REPLAY", help="A saved replay (from --save, the game's replay, or a match's).")
    ],
    last: Annotated[
        int, number_option("--last", help="Review the last N moves, {range}.", low=1, high=10**6, integer=True)
    ] = 300,
    depth: Annotated[int, depth_option("Search each position this deep, {range}.")] = 6,
    evaluator: EvaluatorOption = None,
    top: Annotated[
        int, number_option("--top", help="List the N costliest moves, {range}.", low=0, high=10**4, integer=True)
    ] = 10,
    as_json: JsonOption = False,
) -> None:
    """Where a saved game went wrong: its last moves searched again to --depth, the costliest listed.

    Each position of the game's last --last moves is searched with one worker at the fixed
    --depth by --evaluator (the default of the board's size; a network searches a late board
    downgraded, as 'ai' plays it). A move's cost is the best move's value less the played
    move's, in the evaluator's units (points to come with a network, heuristic units with the
    heuristic): the table lists the --top costliest, then how many moves the search would have
    played otherwise and the costs' sum. --json prints the same, with every move reviewed. The
    replay is played as it is read, every move checked (a damaged replay is refused in one line),
    and only the last positions are kept, however long the game.
    """
    game = load_replay(replay)
    size = (game.rows, game.cols)
    announce_search(evaluator, None, size)
    chosen = load_evaluator_option(evaluator, None, size=size)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.review import review as review_game

    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("", total=None)
        try:
            with Expectimax(depth=depth, workers=1, evaluator=chosen) as ai:
                rows = review_game(game, ai, last=last, on_move=lambda done, total: progress.update(
                    task, completed=done, total=total))  # fmt: skip
        except CorruptFileError as exc:  # found while its moves are played, before any search
            raise CorruptFileError(f"{replay}: {exc}") from None
    costly = sorted((row for row in rows if row.cost > 0), key=lambda row: (-row.cost, -row.number))[:top]
    others = sum(row.best != row.played for row in rows)
    total = sum(row.cost for row in rows)
    if as_json:
        summary = {
            "replay": str(replay), "moves": len(game.moves), "score": game.score, "reviewed": len(rows),
            "depth": depth, "evaluator": chosen.to_json(), "played_otherwise": others, "total_cost": total,
            "costliest": [row.to_json() for row in costly], "rows": [row.to_json() for row in rows],
        }  # fmt: skip
        typer.echo(json.dumps(summary))
        return
    title = f"{replay.name}: the last {len(rows)} moves of {len(game.moves):,}, {chosen.label}, depth {depth}"
    table = Table(title=title)
    for name in ("move", "empty", "largest", "played", "best", "cost"):
        table.add_column(name, justify="left" if name in ("played", "best") else "right")
    for row in costly:
        table.add_row(f"{row.number:,}", str(row.empty), str(row.max_tile), row.played, row.best, f"{row.cost:,.1f}")
    Console().print(table)
    typer.echo(
        f"the search would have played otherwise {others} times in {len(rows)} moves; the costs sum to {total:,.1f}"
    )
