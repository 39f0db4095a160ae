"""``plyground 2048 learn``: train an n-tuple network by TD(0), in a run folder you can kill and resume.

The run lives in a folder (:mod:`plyground.g2048.ntuple`): ``run.json``, ``network.npz``
(checkpointed every ``--checkpoint-minutes``), ``curve.csv`` and ``curve.png``. Ctrl-C
checkpoints and exits with status 130, SIGTERM (``kill``) with 143; ``--resume`` goes on. Registered on the ``2048``
app by :mod:`plyground.apps.cli.g2048`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from plyground.apps.cli import compile_kernels
from plyground.apps.cli.options import (
    DEFAULT_P_FOUR,
    cols_option,
    core_threads,
    number_option,
    p_four_option,
    rows_option,
    seed_option,
)
from plyground.apps.cli.stopping import ctrl_c_stops
from plyground.apps.text import counted
from plyground.errors import InvalidInputError

if TYPE_CHECKING:
    from rich.console import Console

    from plyground.g2048.ntuple import NTupleNetwork, Report, TrainingRun, WarmStart

__all__ = ["learn"]

_PACKAGE = "plyground.g2048"
_DEFAULT_MINUTES = 10.0
_LOG_SECONDS = 60.0
"""When stderr is not a terminal (a run in the background), a progress line this often."""
_PLOT_SECONDS = 60.0
"""``curve.png`` is redrawn at a checkpoint when this long has gone since it was drawn (and at the end)."""


def _latest_run(root: Path) -> Path:
    runs = sorted(path for path in root.glob("*") if (path / "run.json").exists()) if root.is_dir() else []
    if not runs:
        raise InvalidInputError(f"no training run to resume in {root}: give --out DIR")
    return runs[-1]


def _duration(seconds: float) -> str:
    """``42.1 s``, ``12.5 min`` or ``3.2 h``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{seconds / 60:.1f} min" if seconds < 3600 else f"{seconds / 3600:.1f} h"


def _count(number: float, noun: str) -> str:
    """``1 game``, ``1,500 games``, ``0.5 minutes``: the number and the noun, plural unless the number is 1.

    >>> _count(1, "minute"), _count(1500, "game"), _count(0.5, "minute")
    ('1 minute', '1,500 games', '0.5 minutes')
    """
    text = f"{number:,}" if isinstance(number, int) else f"{number:,g}"
    return f"{text} {noun}" if number == 1 else f"{text} {noun}s"


def _shares(report: Report) -> str:
    """The shares of the four largest tiles reached (or the best tile, when none of the reach tiles was)."""
    reached = [f"{tile} {share:.1%}" for tile, share in report.reach.items() if share > 0][-4:]
    return " ".join(reached) or f"best tile {report.max_tile}"


def _describe(run: TrainingRun) -> str:
    games, minutes = run.goal
    goal = _count(games, "game") if games is not None else f"{_count(minutes or 0.0, 'minute')} of training"
    settings = run.settings
    steps = "".join(f", {rate:g} from game {games:,}" for games, rate in settings.alpha_steps)
    lam = f", lambda {settings.td_lambda:g} over {settings.horizon} moves" if settings.resolved_horizon > 1 else ""
    tiles = settings.stage_tiles
    stages = f", {len(tiles) + 1} stages (from {', '.join(map(str, tiles))})" if tiles else ""
    restarts = f", {_count(settings.restarts, 'restart')} a game" if settings.restarts else ""
    expected = ", expected updates" if settings.expected else ""
    start = settings.start
    warm = f" from {_network_name(start.network)} ({_count(start.games, 'game')})" if start is not None else ""
    return (
        f"{settings.rows}x{settings.cols}{warm}, {_count(len(settings.resolved_tuples), 'tuple')}{stages}, "
        f"alpha {settings.alpha:g}{steps}"
        f"{' with TC' if settings.tc else ''}{lam}{restarts}{expected}, seed {settings.seed}; goal {goal} in all"
    )


def _network_name(text: str) -> str:
    """``the shipped network`` for ``network``, else ``the network TEXT``."""
    return "the shipped network" if text == "network" else f"the network {text}"


def _draw_curve(run: TrainingRun) -> None:
    """Draw ``curve.png`` of the run from its curve (raises DependencyNotInstalled without matplotlib)."""
    from plyground.apps.plots import learning_curve

    learning_curve(
        run.folder / "curve.png",
        [row.games for row in run.curve],
        [row.mean_score for row in run.curve],
        {tile: [row.reach[tile] for row in run.curve] for tile in run.reach_tiles},
        title=f"n-tuple network, {run.settings.rows}x{run.settings.cols}",
        window=run.settings.window,
    )


def _summary(run: TrainingRun, report: Report) -> str:
    """The run's games, moves and time of training, its recent results and where its network is."""
    trained = run.network.trained
    return (
        f"{_count(trained.games, 'game')}, {_count(trained.moves, 'move')} "
        f"in {_duration(trained.seconds)} of training: "
        f"mean score {report.mean_score:,.0f} over the last {_count(report.window, 'game')}, {_shares(report)}; "
        f"network in {run.network_file}"
    )


def _train(run: TrainingRun, workers: int, console: Console) -> Report:
    """Train ``run`` to its goal with a progress bar (a log line a minute off a terminal); the last report.

    Ctrl-C or SIGTERM checkpoints, says how to go on and exits with 128 + the signal (130 at once, on a
    second Ctrl-C, keeping the last checkpoint).
    """
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    from plyground.apps.plots import Redraw

    folder = run.folder
    goal_games, goal_minutes = run.goal
    by_games = goal_games is not None
    total = float(goal_games) if goal_games is not None else 60 * (goal_minutes or 0.0)
    again = f" --workers {workers}" if workers > 1 else ""  # workers are not a setting of the run
    resume_hint = f"'plyground 2048 learn --resume --out {folder}{again}' goes on"
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(bar_width=20),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[note]}"),
    )

    def on_first() -> None:
        console.print("stopping: saving a checkpoint (Ctrl-C again to quit without it)", highlight=False)

    plot = Redraw(
        lambda: _draw_curve(run),
        name="curve.png",
        every=_PLOT_SECONDS,
        warn=lambda text: console.print(text, highlight=False, markup=False, soft_wrap=True),
    )

    try:
        with ctrl_c_stops(on_first) as stop, Progress(*columns, console=console) as progress:
            console.print(
                f"learning in {folder}: {_describe(run)}, {workers} worker{'s' if workers > 1 else ''}",
                highlight=False,
                soft_wrap=True,
            )
            task = progress.add_task("games" if by_games else "training", total=total, note="")
            last = [run.network.trained.moves, run.network.trained.seconds, 0.0]
            logged = [time.monotonic()]

            def on_progress(report: Report) -> None:
                moves, seconds, rate = last
                if report.seconds > seconds + 0.5:  # moves/s over the last half second or more
                    rate = (report.moves - moves) / (report.seconds - seconds)
                    last[:] = [report.moves, report.seconds, rate]
                note = (
                    f"{counted(report.games, 'game')}, mean {report.mean_score:,.0f}, {_shares(report)}, "
                    f"{rate / 1e6:.2f} M moves/s"
                )
                progress.update(task, completed=report.games if by_games else report.seconds, note=note)
                if not console.is_terminal and time.monotonic() - logged[0] >= _LOG_SECONDS:  # a log, not a bar
                    console.print(f"{_duration(report.seconds)} of training: {note}", highlight=False, soft_wrap=True)
                    logged[0] = time.monotonic()

            on_progress(run.report())
            report = run.run(workers=workers, stop=stop.is_set, on_progress=on_progress, on_checkpoint=plot)
            interrupted = stop.is_set()
        plot(force=True)
    except KeyboardInterrupt:
        print(f"interrupted; the last checkpoint ({run.network_file}) is kept; {resume_hint}", file=sys.stderr)
        raise typer.Exit(130) from None
    if interrupted:
        print(f"interrupted after {_summary(run, report)}; {resume_hint}", file=sys.stderr)
        raise typer.Exit(128 + stop.signum)
    return report


def _start_network(text: str) -> tuple[NTupleNetwork, WarmStart]:
    """The trained network that ``--from`` names and the record of it that the run keeps.

    Its recipe comes from a packed file's header, or from the settings of the training run whose
    ``network.npz`` it is.

    Raises:
        InvalidInputError: nothing there, or a network of another board than 2048's 4x4 to 2x2.
        CorruptFileError: a file that is not a readable network.
    """
    from plyground.apps.cli.g2048_pack import recipe
    from plyground.g2048.ntuple import NTupleNetwork, TrainingRun, WarmStart
    from plyground.g2048.ntuple.packed import MAGIC, read_header
    from plyground.g2048.registry import NETWORK, NTUPLE_PREFIX, load_evaluator, network_path, shipped_network_path

    path = shipped_network_path() if text == NETWORK else network_path(text.removeprefix(NTUPLE_PREFIX))
    network = load_evaluator(NETWORK if text == NETWORK else f"{NTUPLE_PREFIX}{path}")
    assert isinstance(network, NTupleNetwork)  # what "network" and "ntuple:PATH" name
    with open(path, "rb") as handle:
        packed = handle.read(len(MAGIC)) == MAGIC
    made: dict[str, Any] = {}
    if packed:
        made = dict(read_header(path)["recipe"])
    elif path.name == "network.npz" and (path.parent / "run.json").is_file():
        made = recipe(network, TrainingRun(path.parent).settings)
    return network, WarmStart.of(network, text, made)


def _check_warm_options(
    network: NTupleNetwork,
    name: str,
    *,
    rows: int | None,
    cols: int | None,
    initial_value: float | None,
    stage_tile: list[int] | None,
) -> None:
    """Refuse the options that a run from ``network`` cannot follow: another size, an initial value, other stages.

    Raises:
        InvalidInputError: naming the option.
    """
    for option, value, own in (("--rows", rows, network.rows), ("--cols", cols, network.cols)):
        if value is not None and value != own:
            raise InvalidInputError(f"{option} {value}: {_network_name(name)} is {network.rows}x{network.cols}")
    if initial_value is not None:
        raise InvalidInputError("--initial-value sets an untrained network: a run --from one takes none")
    if network.stage_tiles and stage_tile and tuple(stage_tile) != network.stage_tiles:
        tiles = ", ".join(map(str, network.stage_tiles))
        raise InvalidInputError(f"{_network_name(name)} has stages from {tiles}: drop --stage-tile")


def _warm_goal(network: NTupleNetwork, name: str, games: int | None, minutes: float | None) -> float | None:
    """The ``--minutes`` of a run from ``network``: as given, else 10 more than it has; a goal reached is refused.

    Raises:
        InvalidInputError: ``--games`` or ``--minutes`` that the network has reached already.
    """
    trained = network.trained
    if games is not None and games <= trained.games:
        raise InvalidInputError(
            f"--games {games:,}: {_network_name(name)} has {counted(trained.games, 'game')} of training already, "
            "and --games counts them: give more"
        )
    if minutes is not None and minutes * 60 <= trained.seconds:
        raise InvalidInputError(
            f"--minutes {minutes:g}: {_network_name(name)} has {trained.seconds / 60:,.1f} minutes of training "
            "already, and --minutes counts them: give more"
        )
    if games is None and minutes is None:
        return round(trained.seconds / 60 + _DEFAULT_MINUTES, 1)
    return minutes


def _alpha_steps(options: list[str]) -> tuple[tuple[int, float], ...]:
    """The ``GAMES:ALPHA`` options as pairs (checked further by ``LearnSettings``)."""
    steps = []
    for option in options:
        games, sep, alpha = option.partition(":")
        try:
            if not sep:
                raise ValueError
            steps.append((int(games.replace("_", "").replace(",", "")), float(alpha)))
        except ValueError:
            raise InvalidInputError(f"--alpha-step must be GAMES:ALPHA, like 500000:0.02; got {option!r}") from None
    return tuple(steps)


def learn(
    minutes: Annotated[
        float | None,
        number_option(
            "--minutes",
            help="Train until the network has this many minutes of training in all, {range} (default 10; "
            "with --from, 10 more than the network has).",
            low=0.001,
            high=1_000_000,
        ),
    ] = None,
    games: Annotated[
        int | None,
        number_option(
            "--games",
            help="Train until the network has played this many games in all, {range}.",
            low=1,
            high=10**12,
            integer=True,
        ),
    ] = None,
    workers: Annotated[
        int,
        number_option(
            "--workers",
            help="Threads learning at once on the same weights, {range}; at most one per core helps "
            "(2: both cores; not reproducible).",
            low=1,
            high=64,
            integer=True,
            callback=core_threads,
        ),
    ] = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR", help="The run folder (default: a new folder under DATA/ntuple, DATA the user data folder)."
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on with the run in --out (default: the latest run).")
    ] = False,
    start: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="NETWORK",
            help="Start from this trained network, not from zero: 'network' (the one shipped), a network file, a "
            "training run's folder or 'latest' (as --evaluator names them, 'ntuple:' optional). Its size, tuples "
            "and stages hold (--stage-tile adds stages to a network of one); its games and minutes count in "
            "--games, --minutes and --alpha-step.",
        ),
    ] = None,
    alpha: Annotated[
        float | None,
        number_option(
            "--alpha", help="Learning rate, {range} (default 0.1; 1.0 with --tc).", low=0, high=1000, above=True
        ),
    ] = None,
    alpha_step: Annotated[
        list[str] | None,
        typer.Option(
            metavar="GAMES:ALPHA",
            help="From this many games trained (in all) on, learn at this rate; repeatable. "
            "With --resume: replaces the steps not reached yet.",
        ),
    ] = None,
    tc: Annotated[
        bool | None, typer.Option("--tc/--no-tc", help="Temporal coherence: per-weight adaptive learning rates.")
    ] = None,
    td_lambda: Annotated[
        float | None,
        number_option(
            "--lambda",
            help="TD(lambda): each afterstate learns from its lambda-return over the next --horizon moves; "
            "lambda {range} (default 0: TD(0)).",
            low=0,
            high=1,
        ),
    ] = None,
    horizon: Annotated[
        int | None,
        number_option(
            "--horizon",
            help="Moves an afterstate waits for its TD(lambda) update, {range} (default: where lambda**moves <= 0.1, "
            "at least 2; 1 without --lambda).",
            low=1,
            high=64,
            integer=True,
        ),
    ] = None,
    restarts: Annotated[
        int | None,
        number_option(
            "--restarts",
            help="After each game, learn from this many more episodes, each played out again from halfway "
            "between the last one's start and end, so that more learning lies late in the game; {range} "
            "(default 0).",
            low=0,
            high=64,
            integer=True,
        ),
    ] = None,
    expected: Annotated[
        bool | None,
        typer.Option(
            "--expected",
            help="Expected updates: at each state every legal move's afterstate moves towards the mean, over "
            "every spawn, of the greedy move's value (TD(0) only; each move costs about 8 x empty cells "
            "greedy choices more: for small boards).",
        ),
    ] = None,
    stage_tile: Annotated[
        list[int] | None,
        number_option(
            "--stage-tile",
            metavar="TILE",
            help="Multi-stage network: boards holding this tile or a bigger one get tables of their own, "
            "which start as a copy of the stage before; repeatable, by increasing tile (e.g. 8192, 16384), "
            "{range}.",
            low=4,
            high=2**17,
            integer=True,
        ),
    ] = None,
    rows: Annotated[int | None, rows_option("Rows of the board, {range} (default 4).")] = None,
    cols: Annotated[int | None, cols_option("Columns of the board, {range} (default 4).")] = None,
    seed: Annotated[int | None, seed_option("Seed of the training games, {range} (default: random).")] = None,
    p_four: Annotated[
        float | None, p_four_option(f"Probability that a new tile is a 4, {{range}} (default {DEFAULT_P_FOUR:g}).")
    ] = None,
    initial_value: Annotated[
        float | None,
        number_option(
            "--initial-value",
            help="Every board's value before learning, {range} (optimistic if > 0; default 0).",
            low=-1e9,
            high=1e9,
        ),
    ] = None,
    checkpoint_minutes: Annotated[
        float | None,
        number_option(
            "--checkpoint-minutes", help="Minutes between checkpoints, {range} (default 5).", low=0.001, high=1_000_000
        ),
    ] = None,
    evaluate: Annotated[
        int | None,
        number_option(
            "--evaluate",
            help="Then play N seeded greedy games with the network and print how it does; N {range}.",
            low=2,
            high=10_000_000,
            integer=True,
        ),
    ] = None,
) -> None:
    """Train an n-tuple network for 2048 by TD(0), TD(lambda) or expected updates in self-play, checkpointing.

    The folder gets network.npz (the network; checkpointed every --checkpoint-minutes, at
    the end and on Ctrl-C), curve.csv and curve.png (the mean score and the share of games
    reaching each tile from 256 that the board holds, among the last 1,000 games; the plot
    needs matplotlib) and run.json (the settings). A killed
    run loses at most the last interval: --resume goes on (its settings come from the
    folder; --games and --minutes count in all). With --workers 1 a resumed run ends as an
    uninterrupted one, bit for bit; --workers 2 learns on both cores, not reproducibly.
    --from NETWORK starts from a trained network (its games and minutes count in all).
    """
    if minutes is not None and games is not None:
        raise InvalidInputError("give --minutes or --games, not both")
    compile_kernels((_PACKAGE, "_kernels.py", "2048"), (_PACKAGE, "_ntuple_kernels.py", "2048 n-tuple"))
    from rich.console import Console

    console = Console(stderr=True)
    options: dict[str, Any] = {
        "alpha": alpha, "tc": tc, "td_lambda": td_lambda, "horizon": horizon, "restarts": restarts,
        "expected": expected, "stage_tiles": tuple(stage_tile) if stage_tile else None, "rows": rows, "cols": cols,
        "seed": seed, "p_four": p_four, "initial_value": initial_value, "checkpoint_minutes": checkpoint_minutes,
    }  # fmt: skip
    if resume:
        run, folder = _resumed_run(out, start, options, alpha_step, console)
    else:
        run, folder, minutes = _new_run(out, start, options, alpha_step, games, minutes)
    if minutes is None and games is None and run.goal == (None, None):
        minutes = _DEFAULT_MINUTES
    if run.done(games=games, minutes=minutes):  # only a resumed run can be: --games and --minutes count in all
        trained = run.network.trained
        goal_games, goal_minutes = (games, minutes) if games is not None or minutes is not None else run.goal
        goal = _count(goal_games, "game") if goal_games is not None else _count(goal_minutes or 0.0, "minute")
        console.print(
            f"nothing to train: {folder} already has {_count(trained.games, 'game')} in "
            f"{_duration(trained.seconds)} of training, at or past the goal of {goal}",
            highlight=False,
            soft_wrap=True,
        )
        report = run.report()
    else:
        if minutes is not None or games is not None:
            run.set_goal(games=games, minutes=minutes)
        report = _train(run, workers, console)
    typer.echo(_summary(run, report))
    if evaluate is not None:
        _evaluate(run, evaluate, console)


_OPTION_NAMES = {
    "alpha": "--alpha", "tc": "--tc/--no-tc", "td_lambda": "--lambda", "horizon": "--horizon",
    "restarts": "--restarts", "expected": "--expected", "stage_tiles": "--stage-tile", "rows": "--rows",
    "cols": "--cols", "seed": "--seed", "p_four": "--p-four", "initial_value": "--initial-value",
    "checkpoint_minutes": "--checkpoint-minutes",
}  # fmt: skip
"""The options of ``learn`` that set a run's settings, by the name of the setting."""


def _resumed_run(
    out: Path | None, start: str | None, options: dict[str, Any], alpha_step: list[str] | None, console: Console
) -> tuple[TrainingRun, Path]:
    """The run in ``out`` (default: the latest), its schedule of rates changed by ``--alpha-step``, said so.

    Raises:
        InvalidInputError: a setting given (a resumed run keeps its own).
    """
    from plyground.core.files import data_dir
    from plyground.g2048.ntuple import TrainingRun

    given = [_OPTION_NAMES[name] for name, value in options.items() if value is not None]
    if start is not None:
        given.insert(0, "--from")
    if given:
        raise InvalidInputError(f"a resumed run keeps its settings: drop {', '.join(given)}")
    folder = out if out is not None else _latest_run(data_dir() / "ntuple")
    run = TrainingRun(folder)
    if alpha_step:
        run.reschedule(_alpha_steps(alpha_step))
    trained = run.network.trained
    console.print(
        f"resuming {folder}: {_count(trained.games, 'game')} trained in {_duration(trained.seconds)}",
        highlight=False,
        soft_wrap=True,
    )
    return run, folder


def _new_run(
    out: Path | None,
    start: str | None,
    options: dict[str, Any],
    alpha_step: list[str] | None,
    games: int | None,
    minutes: float | None,
) -> tuple[TrainingRun, Path, float | None]:
    """A new run of the settings ``options`` give (None: the default), from the network ``--from`` names.

    Returns the run, its folder (``out``, or a new one in the data folder) and the minutes to
    train for (``--from``: counted on from the network's).

    Raises:
        InvalidInputError: options that do not go together, or that a network started from fixes.
    """
    import datetime

    from plyground.core.files import data_dir
    from plyground.core.seeding import resolve_seed
    from plyground.g2048.ntuple import LearnSettings, TrainingRun

    if options["expected"]:  # name the options, as LearnSettings cannot
        clashes = [
            name
            for name, clash in (
                ("--lambda", bool(options["td_lambda"])),
                ("--horizon", options["horizon"] is not None and options["horizon"] > 1),
                ("--restarts", bool(options["restarts"])),
            )
            if clash
        ]
        if clashes:
            raise InvalidInputError(f"expected updates are TD(0): --expected takes no {' and no '.join(clashes)}")
    warm, warm_start = (None, None) if start is None else _start_network(start)
    chosen = dict(options, alpha_steps=_alpha_steps(alpha_step or []), seed=resolve_seed(options["seed"]))
    if warm is not None and start is not None:
        _check_warm_options(
            warm, start, rows=options["rows"], cols=options["cols"], initial_value=options["initial_value"],
            stage_tile=list(options["stage_tiles"] or ()),
        )  # fmt: skip
        chosen.update(rows=warm.rows, cols=warm.cols, tuples=warm.tuples, start=warm_start)
        if warm.stage_tiles:
            chosen["stage_tiles"] = warm.stage_tiles
        minutes = _warm_goal(warm, start, games, minutes)
    settings = LearnSettings.from_options(**chosen)
    if out is None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = data_dir() / "ntuple" / f"{stamp}-{settings.rows}x{settings.cols}-seed{settings.seed}"
    run = TrainingRun(out, settings, start=warm)
    return run, out, minutes  # the run learns on a copy: the network it started from is let go here


def _evaluate(run: TrainingRun, games: int, console: Console) -> None:
    """Play ``games`` seeded greedy games with the run's network and print how it does."""
    from plyground.g2048.ntuple import evaluation_seed, play_greedy_games

    console.print(f"playing {games:,} greedy games...", highlight=False)
    seed, p_four = evaluation_seed(run.settings), run.settings.p_four
    result = play_greedy_games(run.network, games, seed=seed, p_four=p_four)
    assert result.interval is not None  # two games at least
    low, high = result.interval
    reach = ", ".join(f"{tile} in {share:.1%}" for tile, share in result.reach.items())
    typer.echo(
        f"greedy 1-ply play, {counted(result.games, 'game')}: mean score {result.mean_score:,.1f} "
        f"(95% interval {low:,.1f} to {high:,.1f}); {f'reached {reach}; ' if reach else ''}"
        f"max tile {result.max_tile}"
    )
