"""Options and loaders shared by the commands of ``plyground``.

The command modules (:mod:`~plyground.apps.cli.g2048`, ``g2048_runs``, ``g2048_solver``,
``g2048_learn``, ``web``...) take their common options and the loaders of what those
options name from here, and never import each other for them. Like every module of the
command line, this one imports only typer and the standard library at the top.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from plyground.apps.cli import compile_kernels
from plyground.errors import InvalidInputError

if TYPE_CHECKING:
    from plyground.core.run_many import Backend
    from plyground.g2048 import Weights
    from plyground.g2048.evaluator import Evaluator
    from plyground.g2048.game import Replay
    from plyground.g2048.tablebase import Advisor

__all__ = [
    "DEFAULT_P_FOUR",
    "MAX_DEPTH",
    "MAX_GAMES",
    "MAX_SEED",
    "MAX_TIME_MS",
    "SEARCH_THREADS",
    "ColsOption",
    "CsvOption",
    "DaskLocalOption",
    "DbOption",
    "DepthOption",
    "EvaluatorOption",
    "JsonOption",
    "NewOption",
    "NewPFourOption",
    "NewSeedOption",
    "PFourOption",
    "ProcessesOption",
    "RowsOption",
    "SchedulerOption",
    "SeedOption",
    "TablebasesOption",
    "ThreadsOption",
    "TimeOption",
    "WeightsOption",
    "announce_search",
    "backend_from_options",
    "bound_workers",
    "cols_option",
    "core_threads",
    "cores",
    "depth_option",
    "evaluator_name",
    "games_option",
    "load_evaluator_option",
    "load_replay",
    "load_tablebases",
    "load_weights",
    "number_check",
    "number_option",
    "output_format",
    "p_four_option",
    "range_text",
    "rows_option",
    "save_folder",
    "seed_limit",
    "seed_option",
    "tables_for",
    "time_option",
]

_PACKAGE = "plyground.g2048"

MAX_SEED = 2**63 - 1
"""The largest seed a command takes: seeds are 63-bit, like the random ones (and a results store's integers)."""
MAX_TIME_MS = 3_600_000.0
"""The largest time budget per move, in milliseconds: an hour."""
MAX_GAMES = 100_000
"""The most games one command plays."""
MAX_DEPTH = 30
"""The deepest search (the search's own limit)."""
SEARCH_THREADS = 4
"""The most threads that help a 2048 search: one per root move."""


# -- numbers ---------------------------------------------------------------------------


def _number_text(value: float) -> str:
    """``2**63-1``, ``3,600,000``, ``0.001``: a bound as the help and the errors write it."""
    if value >= 2**32 and float(value).is_integer() and (int(value) + 1).bit_count() == 1:
        return f"2**{(int(value) + 1).bit_length() - 1}-1"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:g}"


def range_text(low: float | None, high: float | None, *, above: bool = False) -> str:
    """The values from ``low`` (excluded when ``above``) to ``high``, in words.

    >>> range_text(0, 1), range_text(0, 3_600_000, above=True), range_text(1, None), range_text(0, 2**63 - 1)
    ('from 0 to 1', 'more than 0, at most 3,600,000', 'at least 1', 'from 0 to 2**63-1')
    """
    if low is None and high is None:
        return "any finite number"
    if low is None:
        return f"at most {_number_text(high)}"  # type: ignore[arg-type]
    if high is None:
        return f"{'more than' if above else 'at least'} {_number_text(low)}"
    if above:
        return f"more than {_number_text(low)}, at most {_number_text(high)}"
    return f"from {_number_text(low)} to {_number_text(high)}"


def number_check(
    low: float | None, high: float | None, *, above: bool = False, integer: bool = False
) -> Callable[[Any], Any]:
    """A typer callback that lets through only finite numbers in the range (None, the unset value, too).

    The one rule of every numeric option: not NaN, not infinite, from ``low`` (excluded when
    ``above``) to ``high``. A value out of range is a usage error, before any work.
    """
    text = range_text(low, high, above=above)
    kind = "an integer" if integer else "a number"

    def check_one(value: float) -> None:
        finite = isinstance(value, int) or math.isfinite(value)  # an int of any size is finite (and no float)
        ok = finite and (low is None or (value > low if above else value >= low)) and (high is None or value <= high)
        if not ok:
            shown = repr(value) if isinstance(value, float) else str(value)  # every digit: 3600000.5, not 3.6e+06
            raise typer.BadParameter(f"must be {kind} {text}, got {shown}")

    def check(value: Any) -> Any:
        if value is None:
            return None
        for one in value if isinstance(value, list | tuple) else (value,):
            check_one(one)
        return value

    return check


def number_option(
    *names: str,
    help: str,
    low: float | None,
    high: float | None,
    above: bool = False,
    integer: bool = False,
    metavar: str | None = None,
    callback: Callable[[Any], Any] | None = None,
    hidden: bool = False,
) -> Any:
    """A typer option for a number, checked by :func:`number_check`; ``{range}`` in ``help`` says the range.

    ``callback`` runs after the check (to bound ``--workers``, say); ``hidden`` keeps it out of ``--help``
    (an old spelling kept working).
    """
    if "{range}" not in help:
        raise ValueError(f"the help of a numeric option must say its range: {help!r}")
    check = number_check(low, high, above=above, integer=integer)
    checks = check if callback is None else lambda value: callback(check(value))
    return typer.Option(
        *names,
        help=help.replace("{range}", range_text(low, high, above=above)),
        metavar=metavar or ("N" if integer else "X"),
        callback=checks,
        hidden=hidden,
    )


def seed_limit(seed: int | None, games: int) -> None:
    """Check that the seeds ``seed`` to ``seed + games - 1`` of the games stay seeds (at most :data:`MAX_SEED`).

    Raises:
        InvalidInputError: the last game's seed would be too large.
    """
    if seed is not None and seed + games - 1 > MAX_SEED:
        raise InvalidInputError(
            f"--seed {seed} with --games {games}: the last game's seed would pass {_number_text(MAX_SEED)}"
        )


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def bound_workers(workers: int | None, most: int, why: str, option: str = "--workers") -> int | None:
    """``workers``, or ``most`` when more would not help (said in one line on stderr, with ``why``).

    >>> bound_workers(2, 4, "one per root move"), bound_workers(None, 4, "one per root move")
    (2, None)
    """
    if workers is not None and workers > most:
        print(f"{option} {workers}: using {most}, the most that can help ({why})", file=sys.stderr)
        return most
    return workers


def _search_threads(workers: int | None) -> int:
    if workers is None:
        return min(SEARCH_THREADS, cores())
    return bound_workers(workers, SEARCH_THREADS, "one thread per root move") or SEARCH_THREADS


def core_threads(workers: int | None) -> int | None:
    """The callback of a ``--workers`` of threads that each keep a core busy: at most one per core."""
    return bound_workers(workers, cores(), "one thread per core")


# -- options -------------------------------------------------------------------------------


def rows_option(help: str = "Rows of the board, {range}.") -> Any:
    """``--rows``: from 2 to 4."""
    return number_option("--rows", help=help, low=2, high=4, integer=True)


def cols_option(help: str = "Columns of the board, {range}.") -> Any:
    """``--cols``: from 2 to 4."""
    return number_option("--cols", help=help, low=2, high=4, integer=True)


def seed_option(help: str, high: int = MAX_SEED) -> Any:
    """``--seed``: from 0 to :data:`MAX_SEED` (or ``high``)."""
    return number_option("--seed", help=help, low=0, high=high, integer=True, metavar="SEED")


def time_option(help: str = "Time budget per move in milliseconds, {range} (with --depth: up to that depth).") -> Any:
    """``--time-ms``: more than 0, at most an hour."""
    return number_option("--time-ms", help=help, low=0, high=MAX_TIME_MS, above=True, metavar="MS")


def depth_option(help: str = "Search depth, {range} (fixed, unless --time-ms is given).") -> Any:
    """``--depth``: from 1 to 30."""
    return number_option("--depth", help=help, low=1, high=MAX_DEPTH, integer=True)


def games_option(help: str = "Games to play, {range}.", high: int = MAX_GAMES) -> Any:
    """``--games``: from 1 to :data:`MAX_GAMES` (or ``high``)."""
    return number_option("--games", help=help, low=1, high=high, integer=True)


DEFAULT_P_FOUR = 0.1
"""The default of ``--p-four``: ``plyground.g2048.board.DEFAULT_P_FOUR``, which ``--help`` may not import (it
loads numba); a test keeps the two equal."""


def p_four_option(help: str = "Probability that a new tile is a 4, {range}.") -> Any:
    """``--p-four``: from 0 to 1."""
    return number_option("--p-four", help=help, low=0, high=1, metavar="P")


# Options of the games a person plays (terminal and window): a saved game is resumed unless --new.
RowsOption = Annotated[int, rows_option()]
ColsOption = Annotated[int, cols_option()]
NewSeedOption = Annotated[int | None, seed_option("Seed of a new game, {range} (default: random).")]
NewPFourOption = Annotated[
    float | None,
    p_four_option(f"Probability that a new tile is a 4 in a new game, {{range}} (default {DEFAULT_P_FOUR:g})."),
]
NewOption = Annotated[bool, typer.Option("--new", help="Start a new game instead of resuming the saved one.")]

# Options of the AI commands.
TimeOption = Annotated[float | None, time_option()]
DepthOption = Annotated[int | None, depth_option()]
ThreadsOption = Annotated[
    int | None,
    number_option(
        "--workers",
        help="Threads searching root moves in parallel, {range}; more than 4 do not help, one per root move "
        "(default: one per core, at most 4).",
        low=1,
        high=None,
        integer=True,
        callback=_search_threads,
    ),
]
WeightsOption = Annotated[
    Path | None,
    typer.Option(
        metavar="FILE", help="A weights file for the heuristic (default: the weights shipped with plyground)."
    ),
]
PFourOption = Annotated[float, p_four_option()]
SeedOption = Annotated[
    int | None, seed_option("Seed of the first game, {range}; game i uses seed+i (default: random).")
]
EvaluatorOption = Annotated[
    str | None,
    typer.Option(
        metavar="network|heuristic|ntuple:PATH",
        help="What values the search's leaves: the n-tuple network shipped with plyground (the default on 4x4), "
        "the heuristic (the default on the other boards), or another n-tuple network (PATH: its file, the folder "
        "of its training run, or 'latest'). A network values the points still to come; the search then adds "
        "the points scored on the way.",
    ),
]
TablebasesOption = Annotated[
    str | None,
    typer.Option(
        metavar="DIR|built|none",
        help="Endgame tables to play by (built with 'plyground 2048 tablebase build'): the folder of the tables, "
        "built for those of the user data folder, or none (the default: taken blindly, the tables measured "
        "weaker than the search; see the docs).",
    ),
]

# Options of the commands that play many games on a process pool or Dask.
ProcessesOption = Annotated[
    int | None,
    number_option(
        "--workers",
        help="Local processes playing games at once, {range}; at most one per core and game helps "
        "(default: every core).",
        low=1,
        high=None,
        integer=True,
    ),
]
DaskLocalOption = Annotated[
    int | None,
    number_option(
        "--dask-local",
        help="Start a local Dask cluster of N worker processes for the run, {range}; at most one per core and "
        "game helps.",
        low=1,
        high=None,
        integer=True,
    ),
]
SchedulerOption = Annotated[
    str | None, typer.Option(metavar="ADDRESS", help="Run on the Dask cluster of this scheduler: tcp://host:8786.")
]
DbOption = Annotated[
    Path | None,
    typer.Option("--db", metavar="FILE", help="The results store (default: results.sqlite in the user data folder)."),
]


JsonOption = Annotated[bool, typer.Option("--json", help="Print the results as one JSON object, for scripts.")]
CsvOption = Annotated[bool, typer.Option("--csv", help="Print the results as CSV, for scripts.")]


def output_format(as_json: bool, as_csv: bool) -> str:
    """``"json"``, ``"csv"`` or ``"table"``, from the options ``--json`` and ``--csv`` (one at most).

    Raises:
        InvalidInputError: both options.
    """
    if as_json and as_csv:
        raise InvalidInputError("give --json or --csv, not both")
    return "json" if as_json else "csv" if as_csv else "table"


def load_replay(path: Path) -> Replay:
    """The 2048 replay in ``path``; a missing or unreadable file is bad input (a damaged one: CorruptFileError)."""
    from plyground.g2048.game import Replay

    try:
        return Replay.load(path)
    except FileNotFoundError:
        raise InvalidInputError(f"no replay at {path}") from None
    except OSError as exc:
        raise InvalidInputError(f"cannot read the replay {path}: {exc.strerror or exc}") from None


def load_weights(path: Path | None) -> Weights | None:
    """The weights in ``path`` (None: the default weights); a missing file is bad input."""
    if path is None:
        return None
    from plyground.g2048 import Weights

    try:
        return Weights.load(path)
    except FileNotFoundError:
        raise InvalidInputError(f"weights file {path} does not exist") from None
    except OSError as exc:
        raise InvalidInputError(f"cannot read weights file {path}: {exc.strerror or exc}") from None


def evaluator_name(evaluator: str | None, weights: Path | None, size: tuple[int, int] | None) -> str:
    """The evaluator ``--evaluator`` names; without it, the heuristic with ``--weights``, else the default of the size.

    The default (:func:`~plyground.g2048.registry.default_evaluator`) is the shipped network on its
    board (4x4, also when ``size`` is None) and the heuristic on the others.
    """
    from plyground.g2048.registry import HEURISTIC, SHIPPED_SHAPE, default_evaluator  # loads no kernel

    if evaluator is not None:
        return evaluator
    if weights is not None:
        return HEURISTIC
    return default_evaluator(*(size or SHIPPED_SHAPE))


def announce_search(evaluator: str | None, weights: Path | None, size: tuple[int, int] | None) -> None:
    """Compile the board's kernels and the search of the evaluator the options name, saying so once on a first run.

    Called before anything of 2048 is imported (an unknown name compiles the board alone: it is
    refused later, by :func:`load_evaluator_option`).
    """
    from plyground.g2048.registry import kernel_groups  # loads no kernel

    compile_kernels(*kernel_groups([evaluator_name(evaluator, weights, size)]))


def load_tablebases(option: str | None, p_four: float | None) -> Advisor | None:
    """The endgame tables of ``--tablebases`` of the game's ``p_four``: None without the option, for ``none``, or
    for ``built`` when the user data folder holds none (a folder given that holds no table is bad input).

    ``p_four`` None loads the tables of every ``p_four``, for a command that learns its game's later
    (:func:`tables_for` then keeps those of the game's).
    """
    if option is None or option.strip().lower() == "none":
        return None
    from plyground.g2048.tablebase import Advisor

    built = option.strip().lower() == "built"
    advisor = Advisor.load(None if built else Path(option), p_four=p_four)
    return advisor if len(advisor) else None


def tables_for(tablebases: Advisor | None, p_four: float) -> Advisor | None:
    """The tables of ``tablebases`` (of every ``p_four``, from :func:`load_tablebases`) built for ``p_four``; None
    when none is."""
    if tablebases is None:
        return None
    from plyground.g2048.tablebase import Advisor

    tables = [table for table in tablebases.tables if table.p_four == p_four]
    return Advisor(tables, tablebases.folder) if tables else None


def load_evaluator_option(
    evaluator: str | None, weights: Path | None, size: tuple[int, int] | None = None, *, board_given: bool = False
) -> Evaluator:
    """The evaluator of ``--evaluator`` (with the heuristic, the weights of ``--weights``); bad input says why.

    Without ``--evaluator``, :func:`evaluator_name` chooses. With ``size``, an evaluator for
    boards of another size is bad input too; its message points to ``--rows`` and ``--cols``, or
    with ``board_given`` (the size is that of a board given, not of options) to the heuristic.
    Shared by the commands that take ``--evaluator``
    (``ai``, ``hint``, ``gui``, ``bench`` and ``web``).
    """
    from plyground.errors import InvalidBoardError
    from plyground.g2048.registry import (  # loads no kernel
        HEURISTIC,
        UnknownEvaluatorError,
        kernel_groups,
        kind_of,
        load_evaluator,
    )

    evaluator = evaluator_name(evaluator, weights, size)
    if evaluator != HEURISTIC and weights is not None:
        raise InvalidInputError(f"--weights sets the heuristic: it cannot be used with --evaluator {evaluator}")
    if kind_of(evaluator) is not None:  # a name of no kind is refused below, before anything compiles
        compile_kernels(*kernel_groups([evaluator]))  # the board and the search of its kind
    try:
        chosen = load_evaluator(evaluator, weights=load_weights(weights))
    except UnknownEvaluatorError as exc:
        raise InvalidInputError(f"--{exc}") from None
    if size is not None:
        try:
            chosen.check_size(*size)
        except InvalidBoardError as exc:
            rows, cols = chosen.shape or size
            remedy = (f"search it with --evaluator heuristic, or give a {rows}x{cols} board" if board_given
                      else f"use --rows {rows} --cols {cols}")  # fmt: skip
            raise InvalidInputError(f"{exc}: {remedy}") from None
    return chosen


_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}  # fmt: skip


def parse_bytes(text: str, option: str) -> int:
    """A size such as ``4GiB``, ``500MB`` or ``2e9`` (bytes) as a number of bytes.

    Raises:
        InvalidInputError: not a finite positive number with one of the units B, kB, MB, GB, TB, KiB ... TiB.
    """
    number = text.strip().rstrip("bBiIkKmMgGtT")
    unit = text.strip()[len(number) :].lower()
    try:
        value = float(number)
    except ValueError:
        value = math.nan
    if unit not in _UNITS or not math.isfinite(value) or value <= 0:
        raise InvalidInputError(f"{option} is a size such as 4GiB or 500MB, got {text!r}")
    return int(value * _UNITS[unit])


def save_folder(path: Path | None, what: str = "save replays") -> Path | None:
    """Create the folder ``path`` (None: none) before any work, so that a bad one fails first.

    ``what`` says what the folder is for in the error: ``cannot save replays in X: ...``.
    """
    if path is None:
        return None
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InvalidInputError(f"cannot {what} in {path}: it is a file, not a folder") from None
    except OSError as exc:
        raise InvalidInputError(f"cannot {what} in {path}: {exc.strerror or exc}") from None
    return path


def backend_from_options(
    workers: int | None, dask_local: int | None, scheduler: str | None, *, jobs: int | None = None
) -> Backend:
    """Where to run jobs, from the options ``--workers``, ``--dask-local`` and ``--scheduler`` (one at most).

    Local processes are bounded by what can help: one per core, and one per job when the
    command knows how many it has (``jobs``); a larger ``--workers`` or ``--dask-local`` is
    lowered, and a line on stderr says so.

    Raises:
        InvalidInputError: more than one of the options.
    """
    from plyground.core.run_many import Backend

    given = [
        name
        for name, value in (("--workers", workers), ("--dask-local", dask_local), ("--scheduler", scheduler))
        if value is not None
    ]
    if len(given) > 1:
        raise InvalidInputError(f"choose one of --workers, --dask-local and --scheduler, got {' and '.join(given)}")
    most, why = cores(), "one process per core"
    if jobs is not None and jobs < most:
        most, why = jobs, "one process per game"
    workers = bound_workers(workers, most, why)
    dask_local = bound_workers(dask_local, most, why, option="--dask-local")
    return Backend(workers=workers, dask_local=dask_local, scheduler=scheduler)
