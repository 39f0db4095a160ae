"""``plyground 2048 pack``: a trained network in a small file, with the recipe that trains it again.

Writes a packed network (:mod:`plyground.g2048.ntuple.packed`) from a network file or a
training run's folder; the header records the recipe: the ``plyground 2048 learn`` command that
trains the same network again (from the run's settings and its games), its seed, minutes, games
and the commit of plyground that packed it. Registered on the ``2048`` app by
:mod:`plyground.apps.cli.g2048`.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from plyground.apps.cli import compile_kernels
from plyground.apps.cli.options import number_option
from plyground.core.files import write_json
from plyground.errors import InvalidInputError

if TYPE_CHECKING:
    from plyground.g2048.ntuple import LearnSettings, NTupleNetwork

__all__ = ["learn_command", "pack", "recipe", "source_commit"]

_PACKAGE = "plyground.g2048"


def learn_command(settings: LearnSettings, games: int) -> str:
    """The ``plyground 2048 learn`` command that trains this run's network to ``games`` games, on one worker.

    One worker makes the run reproducible bit for bit; the options are those that differ from the defaults.
    A run from a trained network names it as ``--from`` did (the recipe's ``from`` pins it by its checksum).

    >>> from plyground.g2048.ntuple import LearnSettings
    >>> learn_command(LearnSettings(seed=3, tc=True, alpha=1.0, restarts=2), 1000)
    'plyground 2048 learn --games 1000 --workers 1 --seed 3 --tc --restarts 2'
    """
    from plyground.g2048.ntuple import LearnSettings, default_tuples

    default = LearnSettings(rows=settings.rows, cols=settings.cols, tc=settings.tc)
    words = ["plyground", "2048", "learn", "--games", str(games), "--workers", "1", "--seed", str(settings.seed)]
    if settings.start is not None:
        words += ["--from", settings.start.network]
    if (settings.rows, settings.cols) != (4, 4):
        words += ["--rows", str(settings.rows), "--cols", str(settings.cols)]
    if settings.tc:
        words.append("--tc")
    if settings.alpha != (1.0 if settings.tc else default.alpha):
        words += ["--alpha", f"{settings.alpha:g}"]
    for step_games, alpha in settings.alpha_steps:
        words += ["--alpha-step", f"{step_games}:{alpha:g}"]
    if settings.td_lambda:
        words += ["--lambda", f"{settings.td_lambda:g}", "--horizon", str(settings.horizon)]
    if settings.restarts:
        words += ["--restarts", str(settings.restarts)]
    if settings.expected:
        words.append("--expected")
    for tile in settings.stage_tiles:
        words += ["--stage-tile", str(tile)]
    if settings.p_four != default.p_four:
        words += ["--p-four", f"{settings.p_four:g}"]
    if settings.initial_value:
        words += ["--initial-value", f"{settings.initial_value:g}"]
    if settings.tuples is not None and settings.tuples != default_tuples(settings.rows, settings.cols):
        raise InvalidInputError("the run's tuples are not the default ones: no learn command trains it again")
    return shlex.join(words)


def source_commit() -> str | None:
    """The git commit of the plyground source in use (None when it is not a git checkout)."""
    folder = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and len(commit) == 40 else None


def sample_afterstates(network: NTupleNetwork, header: dict[str, Any], count: int = 1000) -> dict[str, Any]:
    """``count`` afterstates of greedy games of ``network`` (every 7th move, seeds 1, 2, ...) with its values.

    What a test needs to check a packed network against the full one without the full one's
    file: the boards (as hexadecimal bitboards), the full network's value of each, and the
    packed file's checksum and largest rounding error.
    """
    from plyground.g2048 import Game

    boards: list[str] = []
    values: list[float] = []
    seed = 0
    while len(boards) < count:
        seed += 1
        game = Game(network.rows, network.cols, seed=seed)
        first = len(boards)
        while not game.over and len(boards) < min(count, first + 200):  # 200 a game at most: several games
            moves = network.explain(game.board).moves  # each legal move's points + V of the board it leaves
            move = max(moves, key=lambda name: moves[name].total)
            after, _ = game.board.move(move)
            if game.move_count % 7 == 0:
                boards.append(f"{after.bits:016x}")
                values.append(float(network.value(after)))
            game.step(move)
    return {
        "rows": network.rows,
        "cols": network.cols,
        "packed_sha256": header["weights_sha256"],
        "max_error": header["max_error"],
        "boards": boards,
        "values": values,
    }


def recipe(network: NTupleNetwork, settings: LearnSettings | None) -> dict[str, Any]:
    """How ``network`` was made: its games, moves and minutes, the commit in use and, from its run's settings,
    the seed, the command and the network the run started from (``from``: its name, checksum, games and recipe)."""
    trained = network.trained
    made: dict[str, Any] = {
        "games": trained.games,
        "moves": trained.moves,
        "minutes": round(trained.seconds / 60, 1),
        "commit": source_commit(),
    }
    if settings is not None:
        made["seed"] = settings.seed
        made["command"] = learn_command(settings, trained.games)
        if settings.start is not None:
            made["from"] = asdict(settings.start)
    return made


def _written(path: Path) -> Path:
    """The file that an atomic write to ``path`` replaces: a link there is replaced, not followed."""
    return path.parent.resolve() / path.name


def _same_file(a: Path, b: Path) -> bool:
    """Whether writing ``a`` replaces ``b``, or the file that ``b`` names (by a link or another path)."""
    if _written(a) in (_written(b), b.resolve()):
        return True
    try:
        return os.path.samefile(a, b)  # a hard link, or a case-insensitive file system
    except OSError:  # either is not there
        return False


def _output_file(text: str, option: str, network: Path, run: Path | None) -> Path:
    """The file that ``option`` names, refused before anything is written if writing it would lose something.

    Raises:
        InvalidInputError: an empty path, a folder, the network to pack, or a file of its training run
            (``run``; one of its files by name, whether or not it exists yet).
    """
    if not text:
        raise InvalidInputError(f"{option} is empty: give the file to write")
    path = Path(text)
    if path.is_dir():
        raise InvalidInputError(f"{option} {text} is a folder: give the file to write")
    if _same_file(path, network):
        raise InvalidInputError(f"{option} {text} is the network to pack: give another file")
    if run is not None:
        from plyground.g2048.ntuple.run import RUN_FILES

        if any(_same_file(path, run / name) for name in RUN_FILES):
            raise InvalidInputError(f"{option} {text} is a file of the training run in {run}: give another file")
    return path


def pack(
    source: Annotated[
        str,
        typer.Argument(metavar="NETWORK", help="A trained network: its file, or the folder of its training run."),
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out", metavar="FILE", help="The packed network to write (not the network packed, nor a file of its run)."
        ),
    ],
    step: Annotated[
        float,
        number_option(
            "--step",
            help="Round the weights to multiples of this power of two, {range} (default 1: within 0.5 each).",
            low=2.0**-10,
            high=2.0**10,
        ),
    ] = 1.0,
    prune: Annotated[
        float,
        number_option(
            "--prune",
            help="Also leave out the weights smaller than this in absolute value (they read as 0), {range} "
            "(default 0: keep every weight that training touched).",
            low=0.0,
            high=1e6,  # far above any weight a 2048 network learns (the shipped one's largest: 78,163)
        ),
    ] = 0.0,
    samples: Annotated[
        str | None,
        typer.Option(
            "--samples",
            metavar="FILE",
            help="Also write 1,000 afterstates of greedy games with the full network's value of each (JSON), to "
            "check the packed network against it later.",
        ),
    ] = None,
) -> None:
    """Pack a trained n-tuple network into a small file, with the recipe that trains it again.

    Keeps the weights that training touched (with --prune, those not smaller than it), rounded
    to multiples of --step, compressed, and records in the file's header how the network was
    made: the 'plyground 2048 learn' command that trains it again bit for bit (from the run's
    settings, on one worker), its seed, its minutes and games of training, and the commit. Any
    command that takes --evaluator ntuple:FILE reads the packed file.
    """
    compile_kernels((_PACKAGE, "_ntuple_kernels.py", "2048 n-tuple"))
    from plyground.g2048.ntuple import NTupleNetwork, TrainingRun
    from plyground.g2048.ntuple.packed import STEPS
    from plyground.g2048.ntuple.packed import pack as pack_network
    from plyground.g2048.registry import network_path

    if step not in STEPS:
        raise InvalidInputError(f"--step must be a power of two from 2**-10 to 2**10, got {step:g}")
    path = network_path(source)
    is_run = path.name == "network.npz" and (path.parent / "run.json").is_file()  # its settings make the recipe
    run_folder = path.parent if is_run else None
    out_file = _output_file(out, "--out", path, run_folder)
    samples_file = None if samples is None else _output_file(samples, "--samples", path, run_folder)
    if samples_file is not None and _same_file(samples_file, out_file):
        raise InvalidInputError(f"--samples {samples} is the --out file: give each its own file")
    if run_folder is not None:
        run = TrainingRun(run_folder)
        network, settings = run.network, run.settings
    else:
        network, settings = NTupleNetwork.load(path), None
    made = recipe(network, settings)
    header = pack_network(network, out_file, step=step, prune=prune, recipe=made)
    size = out_file.stat().st_size
    if samples_file is not None:
        write_json(samples_file, sample_afterstates(network, header), compact=True)
    typer.echo(
        f"{out_file}: {header['count']:,} of {header['size']:,} weights kept ({header['count'] / header['size']:.1%}), "
        f"within {header['max_error']:g} of the network's; {size / 1e6:.1f} MB"
    )
    if "command" in made:
        typer.echo(f"recipe: {made['command']}")
