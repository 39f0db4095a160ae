"""``plyground 2048 solve`` and ``plyground 2048 optimal``: the strong solver on the command line.

Registered on the ``2048`` sub-app by :mod:`plyground.apps.cli.g2048`.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from plyground.apps.cli import compile_kernels
from plyground.apps.cli.options import (
    DEFAULT_P_FOUR,
    DaskLocalOption,
    PFourOption,
    SchedulerOption,
    backend_from_options,
    core_threads,
    number_option,
    output_format,
    p_four_option,
    parse_bytes,
)
from plyground.apps.text import counted
from plyground.errors import InvalidInputError, JobTooLargeError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID
    from rich.table import Table

    from plyground.g2048.solution import AgeCounts, Solution
    from plyground.g2048.solver import Progress as OnLayer

__all__ = ["ages_csv", "optimal", "parse_size", "solve", "summary_csv", "summary_json"]

_SIZE = re.compile(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*")

DirOption = Annotated[
    Path | None,
    typer.Option(
        "--dir", metavar="DIR", help="The solution folder (default: solutions/RxC-pP_FOUR in the user data folder)."
    ),
]


def parse_size(text: str) -> tuple[int, int]:
    """``"3x3"`` -> (3, 3).

    Raises:
        InvalidInputError: not of the form RxC.
    """
    match = _SIZE.fullmatch(text)
    if match is None:
        raise InvalidInputError(f"a board size is written RxC, like 3x3 or 2x4, got {text!r}")
    return int(match[1]), int(match[2])


def solve(
    size: Annotated[
        str, typer.Argument(metavar="SIZE", help="The board size, RxC with at most 12 cells: 2x2 ... 3x3, 2x4, 3x4.")
    ],
    directory: DirOption = None,
    p_four: PFourOption = DEFAULT_P_FOUR,
    forward_only: Annotated[
        bool, typer.Option("--forward-only", help="Only list and count the reachable boards, without values.")
    ] = False,
    max_age: Annotated[
        int | None,
        number_option(
            "--max-age",
            help="With --forward-only: stop after this age (sum of tiles), {range}.",
            low=4,
            high=None,
            integer=True,
        ),
    ] = None,
    compact: Annotated[
        bool, typer.Option("--compact", help="Store the board codes Elias-Fano encoded (a new folder only).")
    ] = False,
    workers: Annotated[
        int | None,
        number_option(
            "--workers",
            help="Threads, {range}; at most one per core helps (default: every core).",
            low=1,
            high=None,
            integer=True,
            callback=core_threads,
        ),
    ] = None,
    per_age: Annotated[bool, typer.Option("--per-age", help="Also print the counts of every age.")] = False,
    shards: Annotated[
        int | None,
        number_option(
            "--shards",
            help="Solve with the sharded solver: every age split into P shards, {range}; more shards, less memory "
            "a task (needs --dir; with --dask-local or --scheduler, on Dask).",
            low=1,
            high=4096,
            integer=True,
        ),
    ] = None,
    dask_local: DaskLocalOption = None,
    scheduler: SchedulerOption = None,
    values: Annotated[
        str | None,
        typer.Option(
            "--values",
            metavar="f64|f32",
            help="The sharded solver's stored values: f64 (exact, the default) or f32 (smaller; the error bound is in "
            "the docs).",
        ),
    ] = None,
    worker_memory: Annotated[
        str | None,
        typer.Option(
            "--worker-memory",
            metavar="SIZE",
            help="With --dask-local: the memory each worker may hold, as 4GiB or 500MB (Dask pauses a worker near it "
            "and restarts one past it; more --shards, less memory a task).",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Start even a solve that the estimate says this machine cannot finish."),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary (and with --per-age each age) as one JSON object.")
    ] = False,
    as_csv: Annotated[
        bool,
        typer.Option("--csv", help="Print the summary as CSV: a header and one line (with --per-age, a line per age)."),
    ] = False,
) -> None:
    """Solve a small board exactly: every reachable state's optimal expected score.

    A forward pass lists the reachable boards age by age (age = sum of the tiles), a backward
    pass values them from the largest age down. Every finished age is saved, so an interrupted
    solve resumes when run again, and a solved board is not solved twice. Ends with a table
    of counts (per symmetry class and unreduced) and the expected score of optimal play.

    A solve first prints what it needs (states, disk, memory, time), and is refused when
    this machine has too little disk or memory (4x3 and 3x4: about 10^12 states, tens of
    TiB); --force starts it anyway. It stops cleanly, resumable, when the disk fills up.

    --json and --csv print the summary for scripts (the progress stays on stderr).
    """
    shown = output_format(as_json, as_csv)
    rows, cols = parse_size(size)
    if max_age is not None and not forward_only:
        raise InvalidInputError("--max-age limits the forward pass: give it with --forward-only")
    if shards is not None or dask_local is not None or scheduler is not None:
        _solve_sharded(
            rows, cols, directory, p_four, forward_only, max_age, shards, workers, dask_local, scheduler, per_age,
            compact, values or "f64", worker_memory, shown,
        )  # fmt: skip
        return
    if worker_memory is not None:
        raise InvalidInputError("--worker-memory limits the workers of a local Dask cluster: give it with --dask-local")
    if values is not None:
        raise InvalidInputError("--values chooses how the sharded solver stores its values: give it with --shards")
    compile_kernels(
        ("plyground.g2048", "_kernels.py", "2048"), ("plyground.g2048", "_solver_kernels.py", "2048 solver")
    )
    from rich.console import Console

    from plyground.g2048.solution import default_directory
    from plyground.g2048.solver import estimate
    from plyground.g2048.solver import solve as run_solver
    from plyground.g2048.solver_estimate import Machine

    folder = directory if directory is not None else default_directory(rows, cols, p_four)
    needs = estimate(
        rows, cols, p_four=p_four, directory=folder, compact=compact, forward_only=forward_only, max_age=max_age,
        workers=workers,
    )  # fmt: skip
    reason = None if force else needs.refusal(Machine.current(folder))
    if reason is not None:
        raise JobTooLargeError(f"{reason}: --force starts it anyway")
    console = Console(stderr=True)
    if needs.to_list or needs.to_value:
        console.print(f"estimate: {needs.describe()}", highlight=False, soft_wrap=True)
    start = time.perf_counter()
    try:  # a Ctrl-C while the display is made (its imports) is the solve's too
        progress, on_layer = _progress(console)
        with progress:
            solution = run_solver(
                rows,
                cols,
                p_four=p_four,
                directory=folder,
                compact=compact,
                forward_only=forward_only,
                max_age=max_age,
                workers=workers,
                progress=on_layer,
                force=True,  # checked above
            )
    except KeyboardInterrupt:
        print(f"interrupted: every finished age is saved in {folder}; run the same command to resume", file=sys.stderr)
        raise typer.Exit(130) from None
    _print_summary(solution, time.perf_counter() - start, per_age=per_age, shown=shown)


def _solve_sharded(
    rows: int,
    cols: int,
    directory: Path | None,
    p_four: float,
    forward_only: bool,
    max_age: int | None,
    shards: int | None,
    workers: int | None,
    dask_local: int | None,
    scheduler: str | None,
    per_age: bool,
    compact: bool,
    values: str,
    worker_memory: str | None,
    shown: str,
) -> None:
    """``solve --shards/--dask-local/--scheduler``: the sharded solver, its tasks on processes or Dask."""
    if directory is None:
        raise InvalidInputError(
            "the sharded solver needs --dir: a folder that every worker sees at the same path (a shared file system "
            "on a cluster)"
        )
    if compact:
        raise InvalidInputError("--compact is for the in-memory solver: the sharded one always compresses its codes")
    if values not in ("f64", "f32"):
        raise InvalidInputError(f"--values is f64 (exact) or f32, got {values!r}")
    backend = backend_from_options(workers, dask_local, scheduler)
    if worker_memory is not None:
        if backend.dask_local is None:
            raise InvalidInputError(
                "--worker-memory limits the workers of a local Dask cluster: give it with --dask-local"
            )
        backend = dataclasses.replace(backend, memory_limit=parse_bytes(worker_memory, "--worker-memory"))
    compile_kernels(
        ("plyground.g2048", "_kernels.py", "2048"),
        ("plyground.g2048", "_solver_kernels.py", "2048 solver"),
        ("plyground.g2048.shards", "_codec_kernels.py", "shard codec"),
        ("plyground.g2048.shards", "_shard_kernels.py", "sharded solver"),
    )
    from rich.console import Console

    from plyground.g2048.shards.solution import ShardedSolution
    from plyground.g2048.shards.solver import solve_sharded

    console = Console(stderr=True)
    console.print(
        f"sharded solve in {directory}, {counted(shards or 16, 'shard')} an age, on {backend.describe()}",
        highlight=False,
    )
    start = time.perf_counter()
    try:  # a Ctrl-C while the display is made (its imports) is the solve's too
        progress, on_layer = _progress(console)
        with progress:
            solve_sharded(
                rows, cols, directory, backend=backend, shards=shards or 16, p_four=p_four, values=values,
                forward_only=forward_only, max_age=max_age, progress=on_layer,
            )  # fmt: skip
    except KeyboardInterrupt:
        print(
            f"interrupted: every finished task is saved in {directory}; run the same command to resume",
            file=sys.stderr,
        )
        raise typer.Exit(130) from None
    _print_summary(ShardedSolution(directory), time.perf_counter() - start, per_age=per_age, shown=shown)


def _print_summary(solution: Solution, seconds: float, *, per_age: bool, shown: str) -> None:
    """The summary of a solve on stdout: as tables (then the folder, whole), as JSON or as CSV."""
    if shown == "json":
        typer.echo(json.dumps(summary_json(solution, seconds, per_age=per_age)))
    elif shown == "csv":
        typer.echo(ages_csv(solution.counts()) if per_age else summary_csv(solution, seconds), nl=False)
    else:
        from rich.console import Console

        out = Console()
        out.print(summary_table(solution, seconds))
        out.print(f"folder: {solution.directory}", soft_wrap=True, highlight=False, markup=False)  # whole, never cut
        if per_age:
            out.print(ages_table(solution.counts()))


def _progress(console: Console) -> tuple[Progress, OnLayer]:
    """A rich progress display with a line per pass, and the callback that advances it."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description:<9}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[detail]}"),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )
    tasks: dict[str, TaskID] = {}
    states = [0]

    def on_layer(phase: str, age: int, counts: AgeCounts | None) -> None:
        if phase not in tasks:
            if phase == "backward" and "forward" in tasks:  # the forward pass is over: its bar is full
                progress.update(tasks["forward"], total=progress.tasks[tasks["forward"]].completed)
            # The forward pass does not know its last age; the backward pass goes down to age 4.
            tasks[phase] = progress.add_task(phase, total=None if phase == "forward" else age // 2 - 1, detail="")
        if counts is not None:
            states[0] += counts.states
            detail = f"age {age:,}: {counts.states:,} states, {counts.afterstates:,} afterstates ({states[0]:,} so far)"
        else:
            detail = f"age {age:,}"
        progress.update(tasks[phase], advance=1, detail=detail)

    return progress, on_layer


def summary_table(solution: Solution, seconds: float) -> Table:
    """Counts per symmetry class and unreduced, the expected score, the files and the time.

    The folder is not in the table, where a long path would be cut: ``solve`` prints it under.
    """
    from rich.table import Table

    totals = solution.totals()
    state = "solved" if solution.solved else "forward pass only" + ("" if solution.complete else ", unfinished")
    table = Table(title=f"2048 {solution.rows}x{solution.cols}, p_four {solution.p_four:g}: {state}")
    table.add_column("")
    table.add_column("per symmetry class", justify="right")
    table.add_column("unreduced", justify="right")
    table.add_row("states", f"{totals.states:,}", f"{totals.states_unreduced:,}")
    table.add_row("afterstates", f"{totals.afterstates:,}", f"{totals.afterstates_unreduced:,}")
    table.add_row("terminal states", f"{totals.terminal:,}", f"{totals.terminal_unreduced:,}")
    table.add_row("largest age", f"{totals.age:,}", "")
    if solution.solved:
        table.add_row("expected score", f"{solution.expected_score():,.3f}", "optimal play, random start")
    stored = solution.stored_bytes()
    codes = stored["states"] + stored["after"]
    per_code = codes / max(1, totals.states + totals.afterstates)
    detail = "Elias-Fano" if solution.compact else "8-byte codes"
    if hasattr(solution, "folder"):  # a sharded solution
        detail = f"{solution.folder.shards} shards, delta + varint + zstd"
    table.add_row("code files", f"{codes / 2**20:,.1f} MiB", f"{per_code:.2f} bytes per board, {detail}")
    table.add_row("time", f"{seconds:,.1f} s", "")
    return table


def summary_json(solution: Solution, seconds: float, *, per_age: bool = False) -> dict[str, Any]:
    """What :func:`summary_table` shows, for scripts; ``per_age`` adds the counts of every age (``"ages"``).

    ``expected_score`` is None until the solution is solved; ``code_bytes`` are the bytes of the
    state and afterstate codes on disk.
    """
    totals = solution.totals()
    stored = solution.stored_bytes()
    counts = dataclasses.asdict(totals)
    del counts["age"]
    answer: dict[str, Any] = {
        "rows": solution.rows,
        "cols": solution.cols,
        "p_four": solution.p_four,
        "solved": solution.solved,
        "complete": solution.complete,
        **counts,
        "largest_age": totals.age,
        "expected_score": solution.expected_score() if solution.solved else None,
        "code_bytes": stored["states"] + stored["after"],
        "seconds": seconds,
        "folder": str(solution.directory),
    }
    if per_age:
        answer["ages"] = [dataclasses.asdict(row) for row in solution.counts()]
    return answer


def summary_csv(solution: Solution, seconds: float) -> str:
    """The summary as CSV: a header, then one line (the keys and values of :func:`summary_json`).

    An unsolved solution has an empty ``expected_score``.
    """
    summary = summary_json(solution, seconds)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(summary)
    writer.writerow("" if value is None else value for value in summary.values())
    return buffer.getvalue()


def ages_csv(counts: list[AgeCounts]) -> str:
    """The counts of every age as CSV: a header, then one line per age."""
    from plyground.g2048.solution import AgeCounts

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(field.name for field in dataclasses.fields(AgeCounts))
    for row in counts:
        writer.writerow(dataclasses.astuple(row))
    return buffer.getvalue()


def ages_table(counts: list[AgeCounts]) -> Table:
    """The counts of every age."""
    from rich.table import Table

    table = Table(title="boards per age (per symmetry class)")
    for name in ("age", "states", "terminal", "afterstates", "states unreduced"):
        table.add_column(name, justify="right")
    for row in counts:
        table.add_row(
            str(row.age), f"{row.states:,}", f"{row.terminal:,}", f"{row.afterstates:,}", f"{row.states_unreduced:,}"
        )
    return table


def optimal(
    board: Annotated[str, typer.Argument(metavar="BOARD", help='The board, as for "show": "2 2 0/0 4 0/0 0 0".')],
    directory: DirOption = None,
    p_four: Annotated[
        float | None,
        p_four_option(
            f"Probability that a new tile is a 4, {{range}} (default: the --dir solution's, else {DEFAULT_P_FOUR:g})."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")] = False,
) -> None:
    """The optimal move on a board of a solved size, and each legal move's exact expected value.

    The size must have been solved with "plyground 2048 solve RxC" (same --dir and --p-four).
    A --p-four that is not the solution's is refused.
    """
    compile_kernels(
        ("plyground.g2048", "_kernels.py", "2048"), ("plyground.g2048", "_solver_kernels.py", "2048 solver")
    )
    from plyground.apps.text import format_grid
    from plyground.g2048 import DIRECTIONS, Board
    from plyground.g2048.shards.solution import open_solution
    from plyground.g2048.shards.store import is_sharded
    from plyground.g2048.solution import default_directory

    parsed = Board.parse(board)
    folder = (
        directory
        if directory is not None
        else default_directory(parsed.rows, parsed.cols, DEFAULT_P_FOUR if p_four is None else p_four)
    )
    if not (folder / "solution.json").exists() and not is_sharded(folder):
        size = f"{parsed.rows}x{parsed.cols}"
        command = f"plyground 2048 solve {size}" + (f" --dir {folder}" if directory is not None else "")
        command += f" --p-four {p_four:g}" if p_four is not None and p_four != DEFAULT_P_FOUR else ""
        raise InvalidInputError(f"no solution of {size} in {folder}: run '{command}'")
    solution = open_solution(folder)
    if p_four is not None and p_four != solution.p_four:
        raise InvalidInputError(
            f"{folder} holds the solution with p_four {solution.p_four:g}, not {p_four:g}: "
            f"give --p-four {solution.p_four:g} or the folder of a p_four {p_four:g} solution"
        )
    value = solution.value(parsed)
    values = solution.move_values(parsed)
    ranked = sorted(values.items(), key=lambda item: (-item[1], DIRECTIONS.index(item[0])))
    best = ranked[0][0] if ranked else None
    if as_json:
        answer = {"board": parsed.to_text(), "best": best, "value": value, "values": dict(ranked)}
        typer.echo(json.dumps(answer))
        return
    typer.echo(format_grid(parsed.to_rows()))
    if best is None:
        typer.echo("no legal move: the game is over (value 0)")
        return
    typer.echo(f"optimal move: {best}   expected future score: {value:,.4f}")
    typer.echo("  move    expected value (points + afterstate)")
    for move, move_value in ranked:
        typer.echo(f"  {move:<6}  {move_value:>14,.4f}{'  <- optimal' if move == best else ''}")
