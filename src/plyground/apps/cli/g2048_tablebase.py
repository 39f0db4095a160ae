"""``plyground 2048 tablebase``: build endgame tables of formations, list them, and ask them about a board.

Registered on the ``2048`` sub-app by :mod:`plyground.apps.cli.g2048`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from plyground.apps.cli import compile_kernels
from plyground.apps.cli.options import (
    DEFAULT_P_FOUR,
    DaskLocalOption,
    SchedulerOption,
    backend_from_options,
    core_threads,
    cores,
    number_option,
    p_four_option,
)
from plyground.apps.text import counted
from plyground.errors import InvalidInputError, JobTooLargeError

if TYPE_CHECKING:
    from plyground.g2048.tablebase import Tablebase

__all__ = ["app"]

app = typer.Typer(no_args_is_help=True, help="Endgame tables: exact odds of building a tile in a formation's cells.")

TablesOption = Annotated[
    Path | None,
    typer.Option(
        "--dir", metavar="DIR", help="The folder of the tables (default: tablebases in the user data folder)."
    ),
]
SizeOption = Annotated[
    str | None,
    typer.Option("--size", metavar="RxC", help="The board size of the standard set: 4x4 (default), 4x3, 3x4 or 3x3."),
]
_KERNELS = (
    ("plyground.g2048", "_kernels.py", "2048"),
    ("plyground.g2048", "_solver_kernels.py", "2048 solver"),
    ("plyground.g2048", "_tablebase_kernels.py", "endgame table"),
)


@app.command(short_help="Solve a formation exactly for a target tile, or the standard set.")
def build(
    formation_text: Annotated[
        str | None,
        typer.Argument(
            metavar="[FORMATION]",
            help="Rows of x (frozen), . (free), T (goal), 2 to e (a free cell capped at that exponent's tile): "
            '"xxxx/xxxx/...T/....", "xxxx/xx.T/7788/6677".',
        ),
    ] = None,
    target: Annotated[
        int | None, typer.Option("--target", metavar="T", help="The tile to build on the goal cell.")
    ] = None,
    standard: Annotated[
        bool, typer.Option("--standard", help="Build the standard set of tables (see 'tablebase standard').")
    ] = False,
    size: SizeOption = None,
    p_four: Annotated[float, p_four_option()] = DEFAULT_P_FOUR,
    directory: TablesOption = None,
    force: Annotated[bool, typer.Option("--force", help="Build even when the estimate exceeds the machine.")] = False,
    workers: Annotated[
        int | None,
        number_option(
            "--workers",
            help="Shards of each tile sum's states solved side by side, {range}: by as many threads, at most one "
            "per core (default: every core); with --dask-local or --scheduler, by the Dask workers.",
            low=1,
            high=None,
            integer=True,
        ),
    ] = None,
    dask_local: DaskLocalOption = None,
    scheduler: SchedulerOption = None,
) -> None:
    """Solve FORMATION exactly: each state's probability of building the target tile on the goal cell.

    The estimate (states, memory, disk, time) is printed first; a build this machine cannot hold
    is refused unless --force. The table is solved in a work folder inside its own folder under
    --dir, with a checkpoint every half minute: a build that is killed is run again with the
    same command and goes on from there. Its description is written last: until then there is
    no table. A formation whose image under a symmetry of the board is built already is not
    built again: the table of one serves every image. --standard builds each table of the
    standard set in turn (of 4x4 boards, or of --size RxC), those built already left as they are.

    With --dask-local N or --scheduler ADDRESS the shards of each tile sum go to Dask workers,
    which read and write the work folder's files: they must run on the machine that holds it.
    """
    from plyground.g2048.tablebase import Formation, default_directory

    if standard and (formation_text is not None or target is not None):
        raise InvalidInputError("--standard builds the standard set: give it without FORMATION and --target")
    if size is not None and not standard:
        raise InvalidInputError("--size names the standard set to build: give it with --standard")
    jobs = _standard_set(size)
    if not standard:
        if formation_text is None or target is None:
            raise InvalidInputError("give FORMATION and --target T, or --standard")
        jobs = [(formation_text, target)]
    root = directory if directory is not None else default_directory()
    backend = None
    if dask_local is not None or scheduler is not None:
        backend = backend_from_options(None, dask_local, scheduler)
        shards = workers or dask_local or cores()
    else:
        shards = core_threads(workers) or cores()
    for text, tile in jobs:
        _build_one(Formation.parse(text), tile, p_four, root, force, shards, backend)


def _build_one(formation: Any, target: int, p_four: float, root: Path, force: bool, workers: int, backend: Any) -> None:
    """Build one table under ``root`` (see :func:`build`)."""
    from plyground.g2048.solver_estimate import Machine
    from plyground.g2048.tablebase import estimate_formation, table_name

    estimate = estimate_formation(formation, target)
    folder = root / table_name(formation, target, p_four)
    if (folder / "tablebase.json").exists():
        typer.echo(f"already built: {folder}")
        return
    for image in formation.images()[1:]:
        other = root / table_name(image, target, p_four)
        if (other / "tablebase.json").exists():
            typer.echo(f"already built as its image {image.to_text()} (one table serves every image): {other}")
            return
    machine = Machine.current(root)
    short = []
    if machine.available_memory is not None and estimate.memory_bytes > machine.available_memory:
        short.append(f"{machine.available_memory / 1e6:,.0f} MB of memory available")
    if estimate.disk_bytes > machine.free_disk:
        short.append(f"{machine.free_disk / 1e6:,.0f} MB of disk free for {root}")
    typer.echo(f"{formation.to_text()} for {target} (p_four {p_four:g}): {estimate.describe()}", err=True)
    if short and not force:
        raise JobTooLargeError(
            f"{formation.to_text()} for {target} needs {estimate.describe()}, more than this machine has "
            f"({' and '.join(short)}); --force builds it anyway"
        )
    if (folder / "work" / "progress.json").exists():
        typer.echo(f"resuming the build in {folder / 'work'}", err=True)
    compile_kernels(*_KERNELS)
    seconds = _build(formation, target, p_four, estimate.states, folder, workers, backend)
    where = counted(workers, "thread")
    if backend is not None:
        where = f"{counted(workers, 'shard')} a layer on {backend.describe()}"
    typer.echo(f"built {formation.to_text()} for {target}: {estimate.states:,} states in {seconds:.1f} s on {where}, "
               f"{folder}")  # fmt: skip


@app.command(name="standard", short_help="The tables of the standard set and what they take.")
def standard_set(size: SizeOption = None) -> None:
    """The formations and targets 'build --standard' builds, each one's states, disk and time, and the total."""
    from plyground.g2048.tablebase import Formation, estimate_formation

    total_states = total_bytes = 0
    total_seconds = 0.0
    for text, target in _standard_set(size):
        estimate = estimate_formation(Formation.parse(text), target)
        total_states += estimate.states
        total_bytes += estimate.table_bytes
        total_seconds += estimate.seconds
        typer.echo(f"{text:<22} {target:>6} {estimate.states:>16,} states {estimate.table_bytes / 1e6:>10,.1f} MB "
                   f"{estimate.memory_bytes / 1e9:>6.1f} GB of memory")  # fmt: skip
    typer.echo(f"{'in all':<29} {total_states:>16,} states {total_bytes / 1e6:>10,.1f} MB, about "
               f"{total_seconds / 60:,.0f} min on one core")  # fmt: skip


def _standard_set(size: str | None) -> list[tuple[str, int]]:
    """The standard set of boards of ``size`` (RxC; None: 4x4).

    Raises:
        InvalidInputError: a size that is not RxC, or one with no standard set.
    """
    from plyground.apps.cli.g2048_solver import parse_size
    from plyground.g2048.tablebase import STANDARD_SETS

    if size is None:
        return list(STANDARD_SETS["4x4"])
    rows, cols = parse_size(size)
    if f"{rows}x{cols}" not in STANDARD_SETS:
        raise InvalidInputError(
            f"no standard set of {rows}x{cols} boards; there are sets of {', '.join(STANDARD_SETS)}"
        )
    return list(STANDARD_SETS[f"{rows}x{cols}"])


def _build(formation: Any, target: int, p_four: float, states: int, folder: Path, workers: int, backend: Any) -> float:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from plyground.g2048.tablebase import build_tablebase

    began = time.perf_counter()
    columns = (TextColumn("solving"), BarColumn(), TextColumn("{task.completed:,} of {task.total:,} states"))
    with Progress(*columns, TimeElapsedColumn(), console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("solve", total=states)

        def on_layer(done: int, _states: int) -> None:
            progress.update(task, completed=done)

        build_tablebase(formation, target, folder, p_four=p_four, on_layer=on_layer, workers=workers, backend=backend)
    return time.perf_counter() - began


def _tables(directory: Path | None) -> list[Tablebase]:
    from plyground.g2048.tablebase import load_tablebase, table_folders

    return [load_tablebase(folder) for folder in table_folders(directory)]


@app.command(short_help="The moves' odds on a board, from the tables that fit it.")
def query(
    board_text: Annotated[str, typer.Argument(metavar="BOARD", help='The board, as for "show".')],
    directory: TablesOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")] = False,
) -> None:
    """Each allowed move's exact probability of building the table's target on its goal cell.

    The table is the one of the largest target among those that fit BOARD under one of its
    symmetries: the formation's frozen cells hold tiles of the target or more. The moves are
    the board's, and only those that keep the frozen tiles still. "chain" is the tile the
    target then makes, merging down a path of frozen tiles that double from the goal on.
    """
    compile_kernels(*_KERNELS)
    from plyground.apps.text import format_grid
    from plyground.g2048 import Board
    from plyground.g2048.tablebase import answer, chain_tile, table_name

    board = Board.parse(board_text)
    tables = _tables(directory)
    fitting = sorted(
        ((table, found) for table in tables if (found := answer(table, board)) is not None),
        key=lambda pair: (-pair[0].target, pair[0].formation.to_text()),
    )
    if not fitting:
        where = directory if directory is not None else "the user data folder"
        raise InvalidInputError(
            f"no endgame table fits {board.to_text()} ({len(tables)} in {where}): a table fits when its formation's "
            "frozen cells hold tiles of its target or more; build one with 'plyground 2048 tablebase build'"
        )
    table, found = fitting[0]
    shown = table.formation.image(found.symmetry).to_text()
    chain = chain_tile(table, board, found.symmetry)
    if as_json:
        data = {
            "board": board.to_text(), "table": table_name(table.formation, table.target, table.p_four),
            "formation": shown, "target": table.target, "p_four": table.p_four, "value": found.value,
            "moves": found.moves, "best": found.best, "chain": chain,
        }  # fmt: skip
        typer.echo(json.dumps(data))
        return
    typer.echo(format_grid(board.to_rows()))
    typer.echo(f"table: {shown} for {table.target} (p_four {table.p_four:g}); value {found.value:.6f}")
    if chain > table.target:
        typer.echo(f"the {table.target} then merges down the chain into {chain}: {found.value:.6f} is its odds too")
    if found.best is None:
        typer.echo("no move keeps the frozen tiles still (value 0)")
    for move, value in sorted(found.moves.items(), key=lambda item: -item[1]):
        typer.echo(f"  {move:<6} {value:.6f}{'  <- best' if move == found.best else ''}")


@app.command(name="list", short_help="The tables built.")
def list_tables(directory: TablesOption = None) -> None:
    """The tables in --dir: formation, target, spawn rule, states and size on disk (builds under way, too)."""
    from plyground.g2048.tablebase import default_directory, table_folders

    folders = table_folders(directory)
    root = directory if directory is not None else default_directory()
    unfinished = sorted(path.parent.parent for path in root.glob("*/work/progress.json")) if root.is_dir() else []
    if not folders and not unfinished:
        typer.echo("no endgame table built yet: 'plyground 2048 tablebase build FORMATION --target T' builds one")
        return
    for folder, table in zip(folders, _tables(directory), strict=True):
        size = sum(path.stat().st_size for path in folder.iterdir() if path.is_file())
        typer.echo(
            f"{table.formation.to_text():<22} {table.target:>6}  p_four {table.p_four:<5g} {table.states:>14,} states "
            f"{size / 1e6:>10,.1f} MB  {folder.name}"
        )
    for folder in unfinished:
        if folder not in folders:
            typer.echo(f"unfinished build: {folder.name} (the same build command goes on with it)")


@app.command(short_help="What a table holds.")
def info(
    name: Annotated[str, typer.Argument(metavar="TABLE", help="The table's folder, or its name under --dir.")],
    directory: TablesOption = None,
) -> None:
    """A table's formation, target, spawn rule, states and size, after checking every byte against its checksums."""
    from plyground.g2048.tablebase import VALUE_ERROR, default_directory, verify_tablebase

    folder = Path(name)
    if not (folder / "tablebase.json").exists():
        folder = (directory if directory is not None else default_directory()) / name
    table = verify_tablebase(folder)
    formation = table.formation
    size = sum(path.stat().st_size for path in folder.iterdir() if path.is_file())
    typer.echo(f"folder:    {folder}")
    capped = f", {counted(len(formation.caps), 'cell')} with a cap" if formation.caps else ""
    typer.echo(f"formation: {formation.to_text()} ({formation.region_size} free cells{capped}, goal at row "
               f"{formation.goal[0] + 1}, column {formation.goal[1] + 1})")  # fmt: skip
    typer.echo(f"target:    {table.target}   p_four: {table.p_four:g}")
    typer.echo(f"states:    {table.states:,}, {size / 1e6:,.1f} MB (values within {VALUE_ERROR:.1e} of exact)")
    typer.echo("checksums: ok")
