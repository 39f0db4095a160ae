"""``plyground arena``: matches against other programs; ``gomoku A B`` plays two Gomocup brains.

The manager lives in :mod:`plyground.arena`, imported inside the command, so that ``--help`` stays fast.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer

from plyground.apps.cli.options import JsonOption, games_option, number_option, seed_option
from plyground.errors import InvalidInputError

if TYPE_CHECKING:
    from rich.table import Table

    from plyground.arena import Brain, MatchGame, Settings

__all__ = ["app", "match_table"]

app = typer.Typer(
    name="arena",
    help="Matches against other programs: gomoku between two Gomocup brains (executables or plyground's players).",
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: rewrapped to the terminal, never cut
)

MAX_MS = 3_600_000
BrainArgument = Annotated[
    str,
    typer.Argument(
        metavar="BRAIN",
        help="A Gomocup brain: the path of its executable (or a command on PATH), or plyground:KIND, one of "
        "plyground's players run as its own brain (plyground:engine, plyground:mcts...); words after the first "
        'are its arguments, in quotes: "plyground:alphabeta --depth 4".',
        show_default=False,
    ),
]


def _ms_option(name: str, help: str, low: int = 1) -> Any:
    return number_option(name, help=help, low=low, high=MAX_MS, integer=True, metavar="MS")


@app.command(short_help="Play a gomoku match between two Gomocup brains.")
def gomoku(
    a: BrainArgument,
    b: BrainArgument,
    games: Annotated[int, games_option("Games to play, {range}; each opening is played twice, colours swapped.")] = 2,
    time_ms: Annotated[int, _ms_option("--time-ms", "Milliseconds per move (INFO timeout_turn), {range}.")] = 1000,
    b_time_ms: Annotated[
        int | None, _ms_option("--b-time-ms", "B's milliseconds per move, {range} (time odds; default: --time-ms).")
    ] = None,
    grace_ms: Annotated[
        int, _ms_option("--grace-ms", "An answer later than --time-ms + this forfeits the game, {range}.", low=0)
    ] = 1000,
    match_ms: Annotated[
        int, _ms_option("--match-ms", "Each brain's clock for a game (INFO timeout_match), {range}; 0: none.", low=0)
    ] = 0,
    size: Annotated[int, number_option("--size", help="Board size, {range}.", low=5, high=20, integer=True)] = 15,
    rule: Annotated[
        str,
        typer.Option(
            "--rule",
            metavar="RULE",
            help="freestyle (five or more win), standard (exactly five) or renju; or the Gomocup number 0, 1, 4.",
        ),
    ] = "freestyle",
    openings: Annotated[
        str,
        typer.Option(
            "--openings",
            metavar="SPEC",
            help="random:N (N stones near the centre, drawn from --seed, no threat of five), empty, or a FILE "
            "of openings (a line each: x,y stones in the order played).",
        ),
    ] = "random:3",
    seed: Annotated[int, seed_option("Seed of the random openings, {range}.")] = 1,
    max_moves: Annotated[
        int,
        number_option("--max-moves", help="Draw after this many moves, {range}; 0: a full board.", low=0, high=400),
    ] = 0,
    parallel: Annotated[
        int, number_option("--parallel", help="Games at once, {range} (fair timings: one).", low=1, high=64)
    ] = 1,
    start_ms: Annotated[
        int, _ms_option("--start-ms", "Time for a brain to start and answer START, {range} (a first run compiles).")
    ] = 120_000,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", metavar="FILE", help="Write each game to FILE as it ends (a PGN-like record; see docs/arena.md)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Play a gomoku match between brains A and B over the Piskvork protocol, and print the results.

    Each brain is started for each game and judged by plyground's rules: an answer that is not a
    legal x,y, no answer within --time-ms + --grace-ms, a match clock run out or an exit forfeits
    the game. Each opening is played twice, A with black and then with white. A progress bar runs
    over the games; the table gives each side's wins, draws, losses and time per move, and A's score
    with its 95% interval; --json prints one JSON object instead. Ctrl-C stops at once, keeping the
    games finished (in --out too) and printing their results (exit status 130).
    """
    from plyground.kinrow.rules import parse_rule

    rule_number = int(parse_rule(rule))
    from plyground.arena import Settings, openings_for, parse_brain

    brain_a, brain_b = parse_brain(a, "A"), parse_brain(b, "B")
    opening_list = openings_for(openings, games, size, seed, rule_number)
    settings = Settings(
        size=size,
        rule=rule_number,
        time_ms=time_ms,
        grace_ms=grace_ms,
        match_ms=match_ms,
        max_moves=max_moves,
        start_ms=start_ms,
    )
    record = _open_record(out)
    try:
        finished, interrupted = _play(brain_a, brain_b, opening_list, settings, games, b_time_ms, parallel, record)
    finally:
        if record is not None:
            record.close()
    _report(brain_a, brain_b, settings, b_time_ms, openings, seed, games, finished, interrupted, as_json)
    if interrupted:
        raise typer.Exit(130)


def _open_record(path: Path | None) -> IO[str] | None:
    if path is None:
        return None
    if not path.parent.is_dir():
        raise InvalidInputError(f"--out: no folder {path.parent}")
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise InvalidInputError(f"cannot write {path}: {error.strerror or error}") from None


def _play(
    brain_a: Brain,
    brain_b: Brain,
    opening_list: list[list[tuple[int, int]]],
    settings: Settings,
    games: int,
    b_time_ms: int | None,
    parallel: int,
    record: IO[str] | None,
) -> tuple[list[MatchGame], bool]:
    """Play the match under a progress bar; a SIGTERM stops it as Ctrl-C does."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from plyground.arena import play_match, summarize

    finished: list[MatchGame] = []
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[score]}"),
        console=console,
        transient=True,
        disable=not console.is_terminal,  # no stray line in a log
    )
    task = progress.add_task("games", total=games, score="")

    def on_game(item: MatchGame) -> None:
        finished.append(item)
        if record is not None:
            item.append_to(record, brain_a.name, brain_b.name)
        so_far = summarize(finished)
        score = f"A {so_far['a_wins']} - {so_far['a_losses']} B, {so_far['draws']} drawn"
        progress.update(task, advance=1, score=score)

    def terminate(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        with progress:
            result = play_match(
                brain_a,
                brain_b,
                opening_list,
                settings,
                games=games,
                b_time_ms=b_time_ms,
                at_once=parallel,
                on_game=on_game,
            )
    finally:
        signal.signal(signal.SIGTERM, previous)
    if result.interrupted:
        print(f"interrupted: {len(result.games)} of {games} games finished", file=sys.stderr)
    return result.games, result.interrupted


def _report(
    brain_a: Brain,
    brain_b: Brain,
    settings: Settings,
    b_time_ms: int | None,
    openings: str,
    seed: int,
    games: int,
    finished: list[MatchGame],
    interrupted: bool,
    as_json: bool,
) -> None:
    from rich.console import Console

    from plyground.arena import RULE_NAMES, game_json, summarize

    results = summarize(finished)
    if as_json:
        line = {
            "a": brain_a.name,
            "b": brain_b.name,
            "size": settings.size,
            "rule": RULE_NAMES[settings.rule],
            "time_ms": settings.time_ms,
            "b_time_ms": b_time_ms,
            "grace_ms": settings.grace_ms,
            "match_ms": settings.match_ms,
            "max_moves": settings.max_moves,
            "openings": openings,
            "seed": seed,
            "games": games,
            "interrupted": interrupted,
            **results,
            "game_list": [game_json(item) for item in finished],
        }
        typer.echo(json.dumps(line))
        return
    from plyground.arena import RULE_NAMES

    times = str(settings.time_ms) if b_time_ms is None else f"{settings.time_ms}/{b_time_ms}"
    title = (
        f"gomoku {settings.size}x{settings.size} {RULE_NAMES[settings.rule]}, {times} ms/move, "
        f"{results['games_played']} games"
    )
    Console(highlight=False).print(match_table(title, results, brain_a.name, brain_b.name))


def match_table(title: str, results: dict[str, Any], a: str, b: str) -> Table:
    """The table of a match's results (:func:`plyground.arena.summarize`) between brains A and B named ``a`` and ``b``:
    each side's wins, draws, losses and times, A's score with its interval in the caption."""
    from rich.table import Table

    table = Table(title=title)
    for column in ("side", "brain", "wins", "draws", "losses", "mean ms/move", "max ms/move"):
        table.add_column(column, justify="left" if column in ("side", "brain") else "right")
    wins, draws, losses = results["a_wins"], results["draws"], results["a_losses"]
    for side, name, counts in (("A", a, (wins, draws, losses)), ("B", b, (losses, draws, wins))):
        mean, top = results[f"{side.lower()}_mean_ms"], results[f"{side.lower()}_max_ms"]
        table.add_row(
            side,
            name,
            *map(str, counts),
            "-" if mean is None else f"{mean:,.1f}",
            "-" if top is None else f"{top:,.1f}",
        )
    if results["a_score"] is not None:
        low, high = results["a_score_95"]
        endings = ", ".join(f"{kind} {count}" for kind, count in sorted(results["endings"].items()))
        table.caption = (
            f"A scores {results['a_score']:.1%} (95% Wilson {low:.1%} to {high:.1%}; a draw counts half); "
            f"mean game {results['mean_moves']:.1f} moves; endings: {endings}"
        )
    return table
