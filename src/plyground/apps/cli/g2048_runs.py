"""``plyground 2048 bench`` and ``report``: many AI games on every core or a Dask cluster, and their results.

``bench`` plays seeded games through :func:`plyground.core.run_many` (a local process pool,
or Dask with ``--dask-local N`` / ``--scheduler ADDR``) and appends each finished game to
the results store (:mod:`plyground.apps.results`); ``report`` prints the runs of a store
and draws its plots (:mod:`plyground.apps.report`). Registered on the ``2048`` app by
:mod:`plyground.apps.cli.g2048`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from plyground.apps.cli import announce_compilation
from plyground.apps.cli.options import (
    DEFAULT_P_FOUR,
    MAX_GAMES,
    ColsOption,
    CsvOption,
    DaskLocalOption,
    DbOption,
    EvaluatorOption,
    JsonOption,
    PFourOption,
    ProcessesOption,
    RowsOption,
    SchedulerOption,
    SeedOption,
    TablebasesOption,
    WeightsOption,
    announce_search,
    backend_from_options,
    cols_option,
    depth_option,
    evaluator_name,
    games_option,
    load_evaluator_option,
    load_tablebases,
    load_weights,
    number_option,
    output_format,
    p_four_option,
    rows_option,
    save_folder,
    seed_limit,
    seed_option,
    time_option,
)
from plyground.apps.text import counted
from plyground.errors import InvalidInputError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from plyground.apps.results import ResultsStore, RunRecord
    from plyground.core.run_many import Backend
    from plyground.g2048.autoplay import GameSpec
    from plyground.g2048.heuristic import Weights
    from plyground.g2048.tuning import Tuner

__all__ = ["bench", "report", "tune"]

_PACKAGE = "plyground.g2048"


def bench(
    games: Annotated[int, games_option()] = 20,
    time_ms: Annotated[float | None, time_option("Time budget per move in milliseconds, {range} (default 20).")] = None,
    depth: Annotated[int | None, depth_option("A fixed search depth instead of a time budget, {range}.")] = None,
    seed: SeedOption = None,
    rows: RowsOption = 4,
    cols: ColsOption = 4,
    p_four: PFourOption = DEFAULT_P_FOUR,
    weights: WeightsOption = None,
    evaluator: EvaluatorOption = None,
    workers: ProcessesOption = None,
    dask_local: DaskLocalOption = None,
    scheduler: SchedulerOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
    tablebases: TablebasesOption = None,
) -> None:
    """Play many seeded AI games, each searching on one core, and store every result.

    On 4x4 the leaves are valued by the n-tuple network shipped with plyground, on the other
    boards by the heuristic (with --weights, the heuristic everywhere); --evaluator heuristic,
    network or ntuple:PATH (a network of the board's size) chooses, and the run records it.
    Games run on a local process pool (--workers, default every core) or on Dask
    (--dask-local N starts a local cluster; --scheduler tcp://host:8786 uses a running one);
    the same seeds and --depth give the same games everywhere. Each game is appended to the
    results store as it finishes, so Ctrl-C keeps the finished games; 'plyground 2048 report'
    shows every run. Boards an endgame table advises on are played by the table's move
    (--tablebases); the run records the tables and each game the moves they played.
    """
    if time_ms is not None and depth is not None:
        raise InvalidInputError("give --time-ms or --depth, not both")
    shown = output_format(as_json, as_csv)
    seed_limit(seed, games)
    backend = backend_from_options(workers, dask_local, scheduler, jobs=games)
    announce_search(evaluator, weights, (rows, cols))
    load_evaluator_option(evaluator, weights, size=(rows, cols))  # bad input is said before any game
    name = _portable(evaluator_name(evaluator, weights, (rows, cols)))
    from rich.console import Console

    from plyground.apps.results import ResultsStore, RunSettings
    from plyground.core.seeding import resolve_seed
    from plyground.g2048.autoplay import GameSpec

    loaded = load_weights(weights)
    tables_folder, table_names = _tablebases(tablebases, p_four)
    if time_ms is None and depth is None:
        time_ms = 20.0
    first = resolve_seed(seed)
    specs = [
        GameSpec(
            seed=first + i,
            rows=rows,
            cols=cols,
            time_ms=time_ms,
            depth=depth,
            p_four=p_four,
            weights=loaded,
            evaluator=name,
            tablebases=tables_folder,
        )
        for i in range(games)
    ]
    settings = RunSettings(
        rows=rows,
        cols=cols,
        time_ms=time_ms,
        depth=depth,
        p_four=p_four,
        evaluator=name,
        weights=loaded,
        backend=backend.describe(),
        tablebases=table_names,
    )
    console = Console(stderr=True)
    with ResultsStore(db) as store:
        run_id = store.start_run(settings)
        console.print(
            f"run {run_id}: {counted(games, 'game')} of {rows}x{cols} at {settings.budget}, "
            f"seeds {first} to {first + games - 1}, "
            f"on {backend.describe()}, evaluator {name}; results in {store.path}",
            highlight=False,
            soft_wrap=True,
        )
        _play_into(store, run_id, specs, backend, console)
        record = next(run for run in store.runs() if run.id == run_id)
    _print_runs([record], shown, f"2048 bench run {run_id}")


def _play_into(store: ResultsStore, run_id: int, specs: list[GameSpec], backend: Backend, console: Console) -> None:
    """Play ``specs`` on ``backend`` under a progress bar, each game stored in run ``run_id`` as it ends.

    Ctrl-C keeps the games stored (a run with none is deleted) and exits with 130; a backend that
    fails before the first game leaves no empty run.
    """
    from plyground.apps.aiview import games_progress
    from plyground.core.run_many import run_many
    from plyground.g2048.autoplay import GameResult, play_spec

    games = len(specs)
    finished: list[GameResult] = []
    try:
        with games_progress(console) as progress:
            task = progress.add_task("games", total=games, mean="-", current="")

            def on_result(index: int, result: GameResult) -> None:
                store.add_game(run_id, result)
                finished.append(result)
                mean = sum(game.score for game in finished) / len(finished)
                best = max(game.max_tile for game in finished)
                progress.update(task, advance=1, mean=f"{mean:,.0f}", current=f"best tile {best}")

            run_many(play_spec, specs, backend=backend, on_result=on_result)
    except KeyboardInterrupt:
        stored = store.game_count(run_id)  # the store's count: a Ctrl-C may come between a game's store and its count
        if not stored:
            store.delete_run(run_id)
            print("interrupted before the first game finished: nothing stored", file=sys.stderr)
        else:
            print(
                f"interrupted: {stored} of {counted(games, 'game')} finished and stored (run {run_id})", file=sys.stderr
            )
        raise typer.Exit(130) from None
    except BaseException:
        if not finished:  # the backend failed (no Dask, no scheduler...): no empty run is left
            store.delete_run(run_id)
        raise


def _tablebases(option: str | None, p_four: float) -> tuple[str | None, tuple[str, ...]]:
    """The folder (absolute, for other processes and machines) and the names of the endgame tables of
    ``--tablebases`` for ``p_four``; (None, ()) when none is consulted."""
    advisor = load_tablebases(option, p_four)
    if advisor is None:
        return None, ()
    from plyground.g2048.tablebase import table_name

    names = tuple(table_name(table.formation, table.target, table.p_four) for table in advisor.tables)
    return str(advisor.folder), names


def _portable(evaluator: str) -> str:
    """The evaluator's name as other processes and machines read it: ``ntuple:PATH`` with PATH the absolute file.

    A training run's folder and ``latest`` become the network file they name here and now.
    """
    from plyground.g2048.registry import NTUPLE_PREFIX, network_path

    if not evaluator.startswith(NTUPLE_PREFIX):
        return evaluator
    return NTUPLE_PREFIX + str(network_path(evaluator.removeprefix(NTUPLE_PREFIX)).absolute())


def _print_runs(runs: list[RunRecord], shown: str, title: str) -> None:
    """The runs as a table (after ``title``), as JSON or as CSV, on stdout."""
    from rich.console import Console

    from plyground.apps.report import runs_csv, runs_json, runs_table

    if shown == "json":
        typer.echo(json.dumps({"runs": runs_json(runs)}))
    elif shown == "csv":
        typer.echo(runs_csv(runs), nl=False)
    else:
        console = Console()
        console.print(title, soft_wrap=True, highlight=False, markup=False)  # a path stays whole: never wrapped
        console.print(runs_table(runs, title=None))


def report(
    db: DbOption = None,
    plots: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Folder for the plots: score distribution, max-tile shares, score vs time (default: report in the "
            "user data folder).",
        ),
    ] = None,
    last: Annotated[
        int | None, number_option("--last", help="Only the last N runs, {range}.", low=1, high=None, integer=True)
    ] = None,
    no_plots: Annotated[bool, typer.Option("--no-plots", help="Print the table only.")] = False,
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
) -> None:
    """Print every bench run of the results store (mean score with its 95% interval, tile reach) and plot them.

    Each run shows its evaluator, and the hash of its weights when it used the heuristic (a
    network has none: '-'); runs stored before evaluators were recorded used the heuristic.
    With --json or --csv the runs are printed for scripts (and plotted unless --no-plots):
    JSON gives each run's settings, statistics and games, CSV a line per run.
    """
    from plyground.apps.report import write_plots
    from plyground.apps.results import ResultsStore, default_path
    from plyground.core.files import data_dir

    shown = output_format(as_json, as_csv)
    path = db if db is not None else default_path()
    if not path.exists():
        raise InvalidInputError(f"no results store at {path}: run 'plyground 2048 bench' first (or give --db)")
    with ResultsStore(path, read_only=True) as store:  # a report creates, upgrades and writes nothing
        stored = store.runs()
    plots = plots if plots is not None else data_dir() / "report"
    if not no_plots:  # once the store is read: a bad one leaves no folder behind
        save_folder(plots, "write the plots")  # before the table: a folder that cannot be written is said at once
    runs = [run for run in stored if run.games]  # a bench that failed before its first game left an empty run
    if last is not None:
        runs = runs[-last:]
    _print_runs(runs, shown, f"2048 bench runs in {path}")
    empty = sum(not run.games for run in stored)
    notes = sys.stdout if shown == "table" else sys.stderr  # stdout is for the data
    if empty:
        plural = "s" if empty > 1 else ""
        print(f"{empty} run{plural} without games not shown (a bench that failed at the start)", file=notes)
    if not no_plots:
        try:
            written = write_plots(runs, plots)
        except OSError as exc:
            raise InvalidInputError(f"cannot write the plots in {plots}: {exc.strerror or exc}") from None
        print(f"plots: {', '.join(str(p) for p in written)}", file=notes)


def _latest_run(root: Path) -> Path:
    runs = sorted(path for path in root.glob("*") if (path / "tune.json").exists()) if root.is_dir() else []
    if not runs:
        raise InvalidInputError(f"no tuning run to resume in {root}: give --out DIR")
    return runs[-1]


def tune(
    generations: Annotated[
        int | None,
        number_option(
            "--generations", help="CMA-ES generations, {range} (default 10).", low=1, high=10_000, integer=True
        ),
    ] = None,
    population: Annotated[
        int | None,
        number_option(
            "--population", help="Candidates per generation, {range} (default 8).", low=2, high=1000, integer=True
        ),
    ] = None,
    games: Annotated[
        int | None, games_option("Games per candidate, the same seeds for all, {range} (default 8).", high=1000)
    ] = None,
    time_ms: Annotated[float | None, time_option("Time budget per move of the games in milliseconds, {range}.")] = None,
    depth: Annotated[
        int | None, depth_option("A fixed search depth, {range} (default 2; reproducible, resumable).")
    ] = None,
    rows: Annotated[int | None, rows_option("Rows of the board, {range} (default 4).")] = None,
    cols: Annotated[int | None, cols_option("Columns of the board, {range} (default 4).")] = None,
    p_four: Annotated[
        float | None, p_four_option(f"Probability that a new tile is a 4, {{range}} (default {DEFAULT_P_FOUR:g}).")
    ] = None,
    seed: Annotated[int | None, seed_option("Seeds CMA-ES and the games, {range} (default 0).", high=9999)] = None,
    sigma: Annotated[
        float | None,
        number_option("--sigma", help="CMA-ES's initial step size, {range} (default 0.5).", low=0.001, high=5),
    ] = None,
    weights: Annotated[
        Path | None, typer.Option(metavar="FILE", help="Start from these weights (default: the shipped ones).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR", help="The run folder (default: a new folder under DATA/tuning, DATA the user data folder)."
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on with the run in --out (default: the latest run).")
    ] = False,
    validate: Annotated[
        int | None,
        number_option(
            "--validate",
            help="Then play the best and the default weights on N fresh seeds and compare them; N {range}.",
            low=2,
            high=MAX_GAMES,
            integer=True,
        ),
    ] = None,
    workers: ProcessesOption = None,
    dask_local: DaskLocalOption = None,
    scheduler: SchedulerOption = None,
) -> None:
    """Tune the heuristic weights with CMA-ES; every candidate plays the same seeds.

    The run folder gets evaluations.csv (every candidate), curve.png (with matplotlib), and best.json (a
    weights file for 'plyground 2048 ai --weights'). The state is saved after every
    evaluation: a killed run goes on with --resume (its settings come from the folder) and
    redoes no finished evaluation. --validate N compares the best weights with the default
    ones on N fresh seeds (paired, with a 95% interval).
    """
    backend = backend_from_options(workers, dask_local, scheduler)
    announce_compilation(_PACKAGE, "2048")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from plyground.apps.plots import Redraw, tuning_curve

    console = Console(stderr=True)
    options: dict[str, Any] = {
        "generations": generations, "population": population, "games": games, "time_ms": time_ms, "depth": depth,
        "rows": rows, "cols": cols, "p_four": p_four, "seed": seed, "sigma": sigma,
    }  # fmt: skip
    if resume:
        tuner, folder = _resumed_tuning(out, options, weights, console)
    else:
        tuner, folder = _new_tuning(out, options, weights, backend, console)
    settings = tuner.settings
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[note]}"),
    )
    try:
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("evaluations", total=tuner.evaluations_total, note="")
            progress.update(task, completed=tuner.evaluations_done)

            def on_evaluation(generation: int, candidate: int, score: float) -> None:
                best = tuner.best_weights()
                note = f"generation {generation + 1}: candidate {candidate} {score:,.0f}"
                if best is not None:
                    note += f", best {best[1]:,.0f}"
                progress.update(task, advance=1, note=note)

            plot = Redraw(
                lambda: tuning_curve(folder / "curve.png", tuner.state.history, games=settings.games),
                name="curve.png",
                every=0.0,
                warn=lambda text: console.print(text, highlight=False, markup=False, soft_wrap=True),
            )
            tuner.run(backend=backend, on_evaluation=on_evaluation, on_generation=lambda state: plot())
    except KeyboardInterrupt:
        print(
            f"interrupted after {tuner.evaluations_done} of {tuner.evaluations_total} evaluations; "
            f"'plyground 2048 tune --resume --out {folder}' goes on",
            file=sys.stderr,
        )
        raise typer.Exit(130) from None
    best = tuner.best_weights()
    assert best is not None  # every evaluation is done
    typer.echo(
        f"best mean score {best[1]:,.1f} over {counted(settings.games, 'game')}; weights in {folder / 'best.json'}"
    )
    if validate is not None:
        with Progress(*columns, console=console) as progress:
            _validate(tuner, best[0], validate, backend, progress)


_TUNE_OPTIONS = {
    "generations": "--generations", "population": "--population", "games": "--games", "time_ms": "--time-ms",
    "depth": "--depth", "rows": "--rows", "cols": "--cols", "p_four": "--p-four", "seed": "--seed",
    "sigma": "--sigma",
}  # fmt: skip
"""The options of ``tune`` that set a run's settings, by the name of the setting."""


def _resumed_tuning(
    out: Path | None, options: dict[str, Any], weights: Path | None, console: Console
) -> tuple[Tuner, Path]:
    """The tuning run in ``out`` (default: the latest), said so.

    Raises:
        InvalidInputError: a setting given (a resumed run keeps its own).
    """
    from plyground.core.files import data_dir
    from plyground.g2048.tuning import Tuner

    given = [_TUNE_OPTIONS[name] for name, value in options.items() if value is not None]
    if weights is not None:
        given.append("--weights")
    if given:
        raise InvalidInputError(f"a resumed run keeps its settings: drop {', '.join(given)}")
    folder = out if out is not None else _latest_run(data_dir() / "tuning")
    tuner = Tuner(folder)
    console.print(
        f"resuming {folder}: {tuner.evaluations_done} of {tuner.evaluations_total} evaluations done",
        highlight=False,
        soft_wrap=True,
    )
    return tuner, folder


def _new_tuning(
    out: Path | None, options: dict[str, Any], weights: Path | None, backend: Backend, console: Console
) -> tuple[Tuner, Path]:
    """A new tuning run of the settings ``options`` give (None: the default), in ``out`` or a new folder; said so.

    Raises:
        InvalidInputError: both a time budget and a depth, or bad settings.
    """
    import datetime

    from plyground.core.files import data_dir
    from plyground.g2048.tuning import Tuner, TuneSettings

    if options["time_ms"] is not None and options["depth"] is not None:
        raise InvalidInputError("give --time-ms or --depth, not both")
    settings = TuneSettings.from_options(**options)
    if out is None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = data_dir() / "tuning" / f"{stamp}-{settings.rows}x{settings.cols}-seed{settings.seed}"
    tuner = Tuner(out, settings, base=load_weights(weights))
    console.print(
        f"tuning in {out}: {counted(settings.generations, 'generation')} of {settings.population} candidates, "
        f"{counted(settings.games, 'game')} each at "
        f"{f'depth {settings.depth}' if settings.depth is not None else f'{settings.time_ms:g} ms/move'}, "
        f"on {backend.describe()}",
        highlight=False,
        soft_wrap=True,
    )
    return tuner, out


def _validate(tuner: Tuner, tuned: Weights, games: int, backend: Backend, progress: Progress) -> None:
    """Play the tuned and the default weights on ``games`` fresh seeds, paired, and print the difference."""
    from plyground.g2048 import default_weights
    from plyground.g2048.tuning import compare_weights

    settings = tuner.settings
    task = progress.add_task("validation games", total=2 * games, note="default vs tuned")
    comparison = compare_weights(
        default_weights(),
        tuned,
        settings,
        games=games,
        first_seed=settings.fresh_seed,
        backend=backend,
        on_game=lambda result: progress.update(task, advance=1),
    )
    low, high = comparison.interval
    verdict = (
        "the tuned weights are better"
        if comparison.b_is_better
        else "the tuned weights are worse"
        if high < 0
        else "no difference shown"
    )
    typer.echo(
        f"validation on {games} fresh seeds: default {comparison.mean_a:,.1f}, tuned {comparison.mean_b:,.1f}, "
        f"difference {comparison.difference:+,.1f} (95% interval {low:+,.1f} to {high:+,.1f}): {verdict}"
    )
