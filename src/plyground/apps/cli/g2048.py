"""``plyground 2048``: look at a board, play in the terminal.

Game modules are imported inside the commands, so that ``--help`` stays fast.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from plyground.apps.cli import announce_compilation
from plyground.errors import DependencyNotInstalled, PlygroundError

__all__ = ["app", "format_grid"]

app = typer.Typer(
    name="2048",
    help="2048 on boards from 2x2 to 4x4: show a board, play in the terminal.",
    no_args_is_help=True,
)

_PACKAGE = "plyground.g2048"


def format_grid(rows: list[list[int]]) -> str:
    """A board as an ASCII grid, ``.`` for an empty cell.

    >>> print(format_grid([[2, 0], [0, 16]]))
    +----+----+
    |  2 |  . |
    +----+----+
    |  . | 16 |
    +----+----+
    """
    width = max(len(str(tile)) for row in rows for tile in row)
    line = "+" + "+".join("-" * (width + 2) for _ in rows[0]) + "+"
    lines = [line]
    for row in rows:
        lines.append("|" + "|".join(f" {str(tile) if tile else '.':>{width}} " for tile in row) + "|")
        lines.append(line)
    return "\n".join(lines)


@app.command()
def show(
    board: Annotated[
        str,
        typer.Argument(
            help='The board: rows separated by "/", cells by spaces, 0 or . for empty: "2 2 0 0/0 4 0 0/...".'
        ),
    ],
) -> None:
    """Print a board, its legal moves, max tile, tile sum and empty cells."""
    announce_compilation(_PACKAGE, "2048")
    from plyground.g2048 import Board

    parsed = Board.parse(board)
    legal = parsed.legal_moves()
    typer.echo(format_grid(parsed.to_rows()))
    typer.echo(f"legal moves: {', '.join(legal) if legal else 'none (game over)'}")
    typer.echo(
        f"max tile: {parsed.max_tile()}   tile sum: {parsed.tile_sum()}   empty cells: {len(parsed.empty_cells())}"
    )


@app.command()
def play(
    rows: Annotated[int, typer.Option(min=2, max=4, help="Rows of the board.")] = 4,
    cols: Annotated[int, typer.Option(min=2, max=4, help="Columns of the board.")] = 4,
    seed: Annotated[int | None, typer.Option(min=0, help="Seed of a new game (default: random).")] = None,
    p_four: Annotated[
        float | None,
        typer.Option(min=0.0, max=1.0, help="Probability that a new tile is a 4, for a new game (default 0.1)."),
    ] = None,
    new: Annotated[bool, typer.Option("--new", help="Start a new game instead of resuming the saved one.")] = False,
) -> None:
    """Play 2048 in the terminal; the game is saved after every move and resumed next time.

    Keys: arrows, WASD or hjkl move; u undoes; n starts a new game; q quits (the game is kept).
    Saves live in the user data folder, or in $PLYGROUND_DATA_DIR when set.
    """
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise PlygroundError("'plyground 2048 play' needs an interactive terminal (stdin and stdout must be a TTY)")
    try:
        import curses
    except ImportError:
        raise DependencyNotInstalled(
            "the terminal game needs the curses module (on Windows: pip install windows-curses)"
        ) from None
    announce_compilation(_PACKAGE, "2048")
    from plyground.apps.saves import Saves2048
    from plyground.apps.terminal import PlayController, run

    controller = PlayController.start(Saves2048(rows, cols), seed=seed, p_four=p_four, new=new)
    shown = len(controller.warnings)
    for warning in controller.warnings:
        print(warning, file=sys.stderr)
    try:
        run(controller)
    except curses.error as exc:
        raise PlygroundError(f"cannot run the terminal game: {exc}") from None
    for warning in controller.warnings[shown:]:  # met while playing
        print(warning, file=sys.stderr)
    game = controller.game
    if game.over:
        typer.echo(f"2048 {rows}x{cols}: game over with {game.score} points (best {controller.best}).")
    else:
        typer.echo(
            f"2048 {rows}x{cols}: {game.score} points after {game.move_count} moves (best {controller.best}); "
            "saved: 'plyground 2048 play' resumes it."
        )
