"""Options and loaders shared by the commands of ``plyground``.

The command modules (:mod:`~plyground.apps.cli.g2048`, ``g2048_runs``, ``g2048_solver``,
``g2048_learn``, ``web``...) take their common options and the loaders of what those
options name from here, and never import each other for them. Like every module of the
command line, this one imports only typer and the standard library at the top.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from plyground.apps.cli import announce_compilation
from plyground.errors import InvalidInputError

if TYPE_CHECKING:
    from plyground.core.run_many import Backend
    from plyground.g2048 import Weights
    from plyground.g2048.evaluator import Evaluator

__all__ = [
    "ColsOption",
    "DaskLocalOption",
    "DbOption",
    "DepthOption",
    "EvaluatorOption",
    "NewOption",
    "NewPFourOption",
    "NewSeedOption",
    "PFourOption",
    "ProcessesOption",
    "RowsOption",
    "SchedulerOption",
    "ThreadsOption",
    "TimeOption",
    "WeightsOption",
    "backend_from_options",
    "load_evaluator_option",
    "load_weights",
    "save_folder",
]

_PACKAGE = "plyground.g2048"

# Options of the games a person plays (terminal and window): a saved game is resumed unless --new.
RowsOption = Annotated[int, typer.Option(min=2, max=4, help="Rows of the board.")]
ColsOption = Annotated[int, typer.Option(min=2, max=4, help="Columns of the board.")]
NewSeedOption = Annotated[int | None, typer.Option(min=0, help="Seed of a new game (default: random).")]
NewPFourOption = Annotated[
    float | None,
    typer.Option(min=0.0, max=1.0, help="Probability that a new tile is a 4, for a new game (default 0.1)."),
]
NewOption = Annotated[bool, typer.Option("--new", help="Start a new game instead of resuming the saved one.")]

# Options of the AI commands.
TimeOption = Annotated[
    float | None,
    typer.Option("--time-ms", help="Time budget per move, in milliseconds (with --depth: up to that depth)."),
]
DepthOption = Annotated[
    int | None, typer.Option(min=1, max=30, help="Search depth (fixed, unless --time-ms is given).")
]
ThreadsOption = Annotated[
    int | None, typer.Option(min=1, help="Threads searching root moves in parallel (default: every core).")
]
WeightsOption = Annotated[
    Path | None, typer.Option(help="A weights file for the heuristic (default: the weights shipped with plyground).")
]
PFourOption = Annotated[float, typer.Option(min=0.0, max=1.0, help="Probability that a new tile is a 4.")]
EvaluatorOption = Annotated[
    str,
    typer.Option(
        metavar="heuristic|ntuple:PATH",
        help="What values the search's leaves: the heuristic, or an n-tuple network (PATH: its file, the folder "
        "of its training run, or 'latest'), which values the points still to come; the search then adds the "
        "points scored on the way.",
    ),
]

# Options of the commands that play many games on a process pool or Dask.
ProcessesOption = Annotated[
    int | None, typer.Option(min=1, help="Local processes playing games at once (default: every core).")
]
DaskLocalOption = Annotated[
    int | None,
    typer.Option("--dask-local", min=1, help="Start a local Dask cluster of N worker processes for the run."),
]
SchedulerOption = Annotated[
    str | None, typer.Option(help="Run on the Dask cluster of this scheduler: tcp://host:8786.")
]
DbOption = Annotated[
    Path | None, typer.Option("--db", help="The results store (default: results.sqlite in the user data folder).")
]


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


def load_evaluator_option(evaluator: str, weights: Path | None, size: tuple[int, int] | None = None) -> Evaluator:
    """The evaluator of ``--evaluator`` (with the heuristic, the weights of ``--weights``); bad input says why.

    With ``size``, an evaluator for boards of another size is bad input too. Shared by the
    commands that take ``--evaluator`` (``ai``, ``hint``, ``gui`` and ``web``).
    """
    from plyground.errors import InvalidBoardError
    from plyground.g2048.evaluator import HEURISTIC, UnknownEvaluatorError, load_evaluator

    if evaluator != HEURISTIC:
        if weights is not None:
            raise InvalidInputError(f"--weights sets the heuristic: it cannot be used with --evaluator {evaluator}")
        announce_compilation(_PACKAGE, "2048 n-tuple", kernels="_ntuple_kernels.py")
        announce_compilation(_PACKAGE, "2048 n-tuple search", kernels="_ntuple_search_kernels.py")
    try:
        chosen = load_evaluator(evaluator, weights=load_weights(weights))
    except UnknownEvaluatorError as exc:
        raise InvalidInputError(f"--{exc}") from None
    if size is not None:
        try:
            chosen.check_size(*size)
        except InvalidBoardError as exc:
            rows, cols = chosen.shape or size
            raise InvalidInputError(f"{exc}: use --rows {rows} --cols {cols}") from None
    return chosen


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


def backend_from_options(workers: int | None, dask_local: int | None, scheduler: str | None) -> Backend:
    """Where to run jobs, from the options ``--workers``, ``--dask-local`` and ``--scheduler`` (one at most).

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
    return Backend(workers=workers, dask_local=dask_local, scheduler=scheduler)
