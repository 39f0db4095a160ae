"""``plyground kinrow``: play k-in-a-row against the AI, watch two players play a match, run a Gomocup brain.

Game modules are imported inside the commands, so that ``--help`` stays fast.
"""

from __future__ import annotations

import itertools
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from plyground.apps.cli import compile_kernels
from plyground.apps.cli.kinrow_engine import (
    AnswersOption,
    EvaluationKind,
    EvaluationOption,
    NextDepthOption,
    QuiescenceOption,
    ReductionOption,
    RootVctOption,
    SelectiveOption,
    VerifyWinsOption,
    player_factory,
)
from plyground.apps.cli.options import (
    CsvOption,
    JsonOption,
    depth_option,
    games_option,
    number_option,
    output_format,
    save_folder,
    seed_limit,
    seed_option,
    time_option,
)
from plyground.apps.cli.options import SeedOption as GamesSeedOption  # game i uses seed+i
from plyground.apps.text import counted
from plyground.kinrow.registry import AI_KINDS  # loads no kernel

if TYPE_CHECKING:
    from plyground.kinrow.board import State
    from plyground.kinrow.players import Player
    from plyground.kinrow.rules import Rule
    from plyground.kinrow.selfplay import GameRecord

__all__ = ["app"]

app = typer.Typer(
    name="kinrow",
    help="k-in-a-row on n×n boards (tic-tac-toe to gomoku): play the AI, run a match, or a Gomocup brain.",
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: rewrapped to the terminal, never cut
)


if TYPE_CHECKING:
    AI = str
else:
    AI = StrEnum("AI", {name: name for name in AI_KINDS})
"""The players a command can make: the registry's ``AI_KINDS``, as choices of an option."""
_ENGINE, _ALPHABETA = AI("engine"), AI("alphabeta")


class First(StrEnum):
    """Who moves first (and plays X) in ``play``."""

    human = "human"
    ai = "ai"


# Options shared by the commands.
NOption = Annotated[int, number_option("--n", help="Side of the board, {range}.", low=3, high=20, integer=True)]
KOption = Annotated[
    int, number_option("--k", help="Stones in a row that win, {range} (at most --n).", low=3, high=20, integer=True)
]
RuleOption = Annotated[
    str,
    typer.Option(
        "--rule",
        metavar="RULE",
        help=(
            "freestyle (k or more in a row win), standard (exactly k) or renju (k = 5; X may not make "
            "a double-three, a double-four or an overline); or the Gomocup number 0, 1, 4."
        ),
    ),
]
NIterationsOption = Annotated[
    int | None,
    number_option(
        "--n-iterations",
        help="MCTS iterations per move, {range} (with a time budget: at most this many).",
        low=1,
        high=None,
        integer=True,
    ),
]
DepthOption = Annotated[int, depth_option("Alpha-beta search depth, {range}.")]
SymmetryOption = Annotated[
    bool,
    typer.Option("--symmetry/--no-symmetry", help="MCTS shares what it learns between the 8 symmetric positions."),
]
PatternsOption = Annotated[
    bool | None,
    typer.Option(
        "--patterns/--no-patterns",
        help="MCTS reads line patterns for its moves, priors and playouts (default: on for k 4 or 5 from 9x9).",
        show_default=False,
    ),
]
SeedOption = Annotated[int | None, seed_option("Seed of the AI, {range} (default: random).")]


def _check_game(n: int, k: int, rule: str, kinds: tuple[str, ...], patterns: bool | None) -> Rule:
    """The rule named by ``--rule``, once the board, k and rule are checked against the players that will play.

    The check the brain makes too (:func:`plyground.kinrow.limits.check_game`), made before
    any kernel is compiled or loaded: that module loads no game code.
    """
    from plyground.kinrow.limits import check_game

    return check_game(n, k, rule, kinds, patterns=patterns)


def _rule_words(rule: Rule) -> str:
    """How the rule reads after 'N in a row wins': nothing for free-style."""
    return {0: "", 1: " (exactly; standard rule)", 4: " (renju: X has forbidden points)"}[int(rule)]


def _announce(*kinds: str) -> None:
    """Compile the kernels of the board and of the searching players among ``kinds``, saying so, on a first run."""
    from plyground.kinrow.registry import kernel_groups  # loads no kernel

    compile_kernels(*kernel_groups(kinds))


# -- play -------------------------------------------------------------------

_HELP = (
    "Type a move as column letter and row number (c2), 'undo' to take back your last move and the AI's reply, "
    "'quit' to leave."
)


@app.command(short_help="Play k-in-a-row against the AI in the terminal.")
def play(
    n: NOption = 7,
    k: KOption = 4,
    opponent: Annotated[AI, typer.Option("--opponent", help="The AI you play against.")] = _ENGINE,
    time_ms: Annotated[
        float | None, time_option("Milliseconds the AI may think per move, {range} (default 2000).")
    ] = None,
    first: Annotated[First, typer.Option("--first", help="Who moves first and plays X.")] = First.human,
    seed: SeedOption = None,
    n_iterations: NIterationsOption = None,
    depth: DepthOption = 2,
    symmetry: SymmetryOption = True,
    patterns: PatternsOption = None,
    evaluation: EvaluationOption = EvaluationKind.fitted,
    selective: SelectiveOption = True,
    root_vct: RootVctOption = True,
    exact_answers: AnswersOption = False,
    quiescence: QuiescenceOption = 0,
    reduction: ReductionOption = None,
    verify_wins: VerifyWinsOption = False,
    next_depth_share: NextDepthOption = None,
    rule: RuleOption = "freestyle",
) -> None:
    """Play k-in-a-row against the AI in the terminal; the board is printed after each move.

    Type moves like c2 (column letter, row number from 1 at the top); 'undo' takes back your
    last move and the AI's reply, 'quit' leaves, and so do Ctrl-C and the end of the input.
    """
    chosen = _check_game(n, k, rule, (str(opponent),), patterns)
    budget = 2000.0 if time_ms is None else time_ms
    _announce(str(opponent))
    from plyground.kinrow.board import O, State, X

    ai = player_factory(
        opponent,
        depth=depth,
        iterations=n_iterations,
        time_ms=budget,
        symmetry=symmetry,
        patterns=patterns,
        evaluation=evaluation,
        selective=selective,
        root_vct=root_vct,
        answers=exact_answers,
        quiescence=quiescence,
        reduction=reduction,
        verify_wins=verify_wins,
        next_depth_share=next_depth_share,
    )(seed)
    try:
        _play(State(n, k, rule=chosen), ai, human=X if first is First.human else O)
    except KeyboardInterrupt:
        print("\ninterrupted: game left", file=sys.stderr)
        raise typer.Exit(130) from None


def _play(state: State, ai: Player, *, human: int) -> None:
    """The game loop: the person types moves and commands, the AI answers, until the game ends or they leave."""
    from plyground.errors import IllegalMoveError
    from plyground.kinrow.board import DRAW, EMPTY, O, X, player_name
    from plyground.kinrow.selfplay import timed_choice

    you, it = player_name(human), player_name(O if human == X else X)
    order = "move first" if you == "X" else "move second"
    wins = f"{state.k} in a row wins{_rule_words(state.rule)}"
    typer.echo(f"k-in-a-row on {state.n}x{state.n}, {wins}: you are {you} and {order}; ", nl=False)
    typer.echo(f"the AI ({ai.name}) is {it}.")
    typer.echo(_HELP)
    typer.echo(str(state))
    while state.result is None:
        if state.to_move != human:
            if sys.stdout.isatty():
                typer.echo(f"{it} ({ai.name}) is thinking...")
            move, seconds = timed_choice(ai, state)
            state.play(move)
            typer.echo(f"{it} ({ai.name}) plays {state.name(move)} ({seconds:.2f} s)")
            typer.echo(str(state))
            continue
        try:
            text = input(f"your move ({you}): ")
        except EOFError:
            typer.echo(f"\ngame left after {counted(len(state.history), 'move')}")
            return
        if not sys.stdin.isatty():  # a script: show what it typed, as a terminal would
            typer.echo(text)
        command = text.strip().lower()
        if not command:
            continue
        if command in ("quit", "q", "exit"):
            typer.echo(f"game left after {counted(len(state.history), 'move')}")
            return
        if command in ("help", "?"):
            typer.echo(_HELP)
            continue
        if command in ("undo", "u"):
            if len(state.history) < (2 if human == X else 3):  # O keeps the AI's opening move
                typer.echo("nothing to undo: you have not moved yet")
                continue
            state.undo()
            state.undo()
            typer.echo("took back your last move and the AI's reply")
            typer.echo(str(state))
            continue
        try:
            move = state.parse_move(command)
        except IllegalMoveError as exc:
            typer.echo(str(exc))
            continue
        if state.cells[move] != EMPTY:
            typer.echo(f"{state.name(move)} is taken")
            continue
        try:
            state.play(move)
        except IllegalMoveError as exc:  # a forbidden point under renju
            typer.echo(str(exc))
            continue
        typer.echo(str(state))
    if state.result == DRAW:
        typer.echo(f"draw after {len(state.history)} moves.")
    elif state.result == human:
        typer.echo(f"{you} wins after {len(state.history)} moves: you win!")
    else:
        typer.echo(f"{it} ({ai.name}) wins after {len(state.history)} moves.")


# -- selfplay ---------------------------------------------------------------


@app.command(short_help="Play a match between two players.")
def selfplay(
    n: NOption = 9,
    k: KOption = 5,
    x: Annotated[AI, typer.Option("--x", help="The player of X (moves first).")] = _ENGINE,
    o: Annotated[AI, typer.Option("--o", help="The player of O.")] = _ALPHABETA,
    games: Annotated[int, games_option()] = 10,
    swap: Annotated[bool, typer.Option("--swap", help="The players change sides after each game.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the table: no progress, no games.")] = False,
    seed: GamesSeedOption = None,
    time_ms: Annotated[
        float | None,
        time_option(
            "Milliseconds per move of each player, {range} "
            "(default: the engine 1,000 ms, MCTS 2,000 iterations, alpha-beta its depth)."
        ),
    ] = None,
    n_iterations: NIterationsOption = None,
    depth: DepthOption = 2,
    symmetry: SymmetryOption = True,
    patterns: PatternsOption = None,
    evaluation: EvaluationOption = EvaluationKind.fitted,
    selective: SelectiveOption = True,
    root_vct: RootVctOption = True,
    exact_answers: AnswersOption = False,
    quiescence: QuiescenceOption = 0,
    reduction: ReductionOption = None,
    verify_wins: VerifyWinsOption = False,
    next_depth_share: NextDepthOption = None,
    rule: RuleOption = "freestyle",
    save: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="Folder for each game's record (DIR/kinrow-NxN-seedSEED.json) and the match's summary "
            "(DIR/kinrow-NxN-match-seedSEED.json, SEED the first game's), written as each game ends.",
        ),
    ] = None,
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
) -> None:
    """Play a match between two players and print the results: wins, draws, losses and time per move.

    Both players of game i are made with seed --seed + i, so a seeded match without a time
    budget plays the same games again. A progress bar runs over the games and each game gets
    a line, unless --quiet. The table is followed by the score of --x against --o (a draw
    counts half) with its 95% interval, and the Elo difference they imply. --json and --csv
    print the same for scripts: JSON the results, the score and each game, CSV a line per
    game. Ctrl-C stops and prints the games finished so far (exit status 130).
    """
    chosen = _check_game(n, k, rule, (str(x), str(o)), patterns)
    shown = output_format(as_json, as_csv)
    seed_limit(seed, games)
    folder = save_folder(save, "save games")
    budget = time_ms
    _announce(str(x), str(o))
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from plyground.apps.cli import kinrow_match
    from plyground.core.seeding import resolve_seed
    from plyground.kinrow.selfplay import play_match, summarize

    x_factory, o_factory = (
        player_factory(
            kind,
            depth=depth,
            iterations=n_iterations,
            time_ms=budget,
            symmetry=symmetry,
            patterns=patterns,
            evaluation=evaluation,
            selective=selective,
            root_vct=root_vct,
            answers=exact_answers,
            quiescence=quiescence,
            reduction=reduction,
            verify_wins=verify_wins,
            next_depth_share=next_depth_share,
        )
        for kind in (x, o)
    )
    for make in (x_factory, o_factory):
        make(0)  # bad options fail here, before any game
    base = resolve_seed(seed)
    rule_text = "" if chosen.label == "freestyle" else f", {chosen.label}"
    title = f"k-in-a-row {n}x{n}, {k} in a row{rule_text}: {x!s} vs {o!s}"
    title += ", changing sides" if swap else ""
    out = Console(highlight=False)
    records: list[GameRecord] = []
    progress = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[score]}"),
        console=out if out.is_terminal and shown == "table" else Console(stderr=True),
        transient=True,
        disable=quiet,
    )

    def on_game(i: int, record: GameRecord) -> None:
        records.append(record)
        summary = summarize(records, swap=swap)
        if folder is not None:
            kinrow_match.save_game(folder, record, summary, title, base)
        if not quiet and shown == "table":
            out.print(kinrow_match.game_line(i, games, record), soft_wrap=True, markup=False)
        score = f"{x!s} {summary.first.wins} - {summary.second.wins} {o!s}, {summary.draws} drawn"
        progress.update(task, advance=1, score=score)

    try:
        with progress:
            task = progress.add_task("games", total=games, score="")
            summary = play_match(x_factory, o_factory, games, n, k, seed=base, swap=swap, rule=chosen, on_game=on_game)
    except KeyboardInterrupt:
        print(f"interrupted: {len(records)} of {counted(games, 'game')} finished", file=sys.stderr)
        if records:
            kinrow_match.print_match(out, summarize(records, swap=swap), title, shown)
        raise typer.Exit(130) from None
    kinrow_match.print_match(out, summary, title, shown)


# -- pbrain -----------------------------------------------------------------


@app.command(short_help="Run a Gomocup brain (the Piskvork protocol).")
def pbrain(
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            metavar="KIND",
            help="The player behind the brain: a kind of plyground.kinrow.players.PLAYER_KINDS "
            "(mcts, alphabeta, random, first_legal, ...; default: the brain's DEFAULT_KIND).",
        ),
    ] = None,
    time_ms: Annotated[
        float | None,
        time_option(
            "Milliseconds per move until the manager sends INFO timeout_turn, {range} (default: the player's own)."
        ),
    ] = None,
    n_iterations: NIterationsOption = None,
    depth: DepthOption = 2,
    symmetry: SymmetryOption = True,
    patterns: PatternsOption = None,
    evaluation: EvaluationOption = EvaluationKind.fitted,
    selective: SelectiveOption = True,
    root_vct: RootVctOption = True,
    exact_answers: AnswersOption = False,
    quiescence: QuiescenceOption = 0,
    reduction: ReductionOption = None,
    verify_wins: VerifyWinsOption = False,
    next_depth_share: NextDepthOption = None,
    seed: GamesSeedOption = None,
    time_share: Annotated[
        float,
        number_option(
            "--time-share",
            help="The share of INFO timeout_turn the player may use, less 50 ms for the answer, {range}.",
            low=0.1,
            high=0.95,
            metavar="SHARE",
        ),
    ] = 0.8,
    warm_up: Annotated[
        bool,
        typer.Option(
            "--warm-up",
            help="Compile (or load from the cache) everything the brain needs, build its tables, and exit: "
            "run it once after installing, so that a manager's first START is answered in seconds.",
        ),
    ] = False,
) -> None:
    """Run a Gomocup brain: the Piskvork protocol on stdin and stdout (START, TURN, BOARD, INFO, END...).

    Plays gomoku on boards from 5x5 to 20x20 (3x3 and 4x4 too, k then the side; RECTSTART
    rectangles too) under the rule the manager sends (INFO rule: free-style, exactly five or
    renju); every move arrives within INFO timeout_turn and time_left. The first start after
    installing compiles the kernels (a minute or so); --warm-up does it beforehand.
    """
    started = time.perf_counter()
    budget = time_ms
    named = None if player is None else player.strip().lower()
    from plyground.kinrow.limits import PLAYER_KINDS  # loads no kernel: the option is checked first

    if named is not None and (named not in PLAYER_KINDS or named == "human"):
        why = "a person plays through the manager, not behind the brain" if named == "human" else "unknown kind"
        known = ", ".join(k for k in PLAYER_KINDS if k != "human")
        raise typer.BadParameter(f"{player!r}: {why}; the kinds are {known}", param_hint="'--player'")
    _announce(*([named] if named else []))  # before the game modules are imported: they load the kernels
    from plyground.apps.pbrain import DEFAULT_KIND
    from plyground.apps.pbrain import main as run_brain
    from plyground.apps.pbrain_player import warm_up as warm_up_brain

    kind = DEFAULT_KIND if named is None else named
    _announce(kind)  # the default player's kernels (the others are loaded already)

    make = player_factory(
        kind,
        depth=depth,
        iterations=n_iterations,
        time_ms=budget,
        symmetry=symmetry,
        patterns=patterns,
        evaluation=evaluation,
        selective=selective,
        root_vct=root_vct,
        answers=exact_answers,
        quiescence=quiescence,
        reduction=reduction,
        verify_wins=verify_wins,
        next_depth_share=next_depth_share,
    )
    make(seed)  # bad options fail here, before the manager talks
    seeds = itertools.count(seed) if seed is not None else None

    def new_player() -> Player:
        return make(next(seeds) if seeds is not None else None)

    if warm_up:
        rules = warm_up_brain(new_player, kind)
        named_rules = rules[0] if len(rules) == 1 else f"{', '.join(rules[:-1])} and {rules[-1]}"
        typer.echo(f"the {kind} brain is ready for {named_rules} ({time.perf_counter() - started:.1f} s)")
        return
    status = run_brain(new_player, kind=kind, time_share=time_share)
    if status:
        raise typer.Exit(status)
