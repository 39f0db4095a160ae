"""``plyground 2048``: look at a board, play in the terminal, watch the AI play, ask it for a hint.

Game modules are imported inside the commands, so that ``--help`` stays fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from plyground.apps.cli import (
    announce_compilation,
    g2048_browser,
    g2048_hint,
    g2048_learn,
    g2048_pack,
    g2048_review,
    g2048_runs,
    g2048_solver,
    g2048_tablebase,
)
from plyground.apps.cli.options import (
    DEFAULT_P_FOUR,
    ColsOption,
    CsvOption,
    DepthOption,
    EvaluatorOption,
    JsonOption,
    NewOption,
    NewPFourOption,
    NewSeedOption,
    PFourOption,
    RowsOption,
    SeedOption,
    TablebasesOption,
    ThreadsOption,
    TimeOption,
    WeightsOption,
    announce_search,
    games_option,
    load_evaluator_option,
    load_replay,
    load_tablebases,
    number_option,
    output_format,
    save_folder,
    seed_limit,
    tables_for,
    time_option,
)
from plyground.apps.text import counted, format_grid
from plyground.errors import CorruptFileError, DependencyNotInstalled, InvalidInputError, PlygroundError

if TYPE_CHECKING:
    from rich.console import Console

    from plyground.g2048 import Decision, Expectimax
    from plyground.g2048.autoplay import GameResult
    from plyground.g2048.state import State
    from plyground.g2048.tablebase import Advisor

__all__ = ["app"]

app = typer.Typer(
    name="2048",
    help="2048 on boards from 2x2 to 4x4: show a board, play in the terminal, watch the AI, get a hint.",
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: rewrapped to the terminal, never cut
)

_PACKAGE = "plyground.g2048"


@app.command(short_help="Print a board and its legal moves.")
def show(
    board: Annotated[
        str,
        typer.Argument(
            metavar="BOARD",
            help='The board: rows separated by "/", cells by spaces, 0 or . for empty: "2 2 0 0/0 4 0 0/...".',
        ),
    ],
) -> None:
    """Print a board, its legal moves, max tile, tile sum and empty cells."""
    announce_compilation(_PACKAGE, "2048")
    from plyground.g2048 import Board

    parsed = Board.parse(board)
    legal = parsed.legal_moves()
    typer.echo(format_grid(parsed.to_rows()))
    none = "none (empty board: no tile to move)" if parsed.tile_sum() == 0 else "none (game over)"
    typer.echo(f"legal moves: {', '.join(legal) if legal else none}")
    typer.echo(
        f"max tile: {parsed.max_tile()}   tile sum: {parsed.tile_sum()}   empty cells: {len(parsed.empty_cells())}"
    )


@app.command(short_help="Play 2048 in the terminal; the game is saved and resumed.")
def play(
    rows: RowsOption = 4,
    cols: ColsOption = 4,
    seed: NewSeedOption = None,
    p_four: NewPFourOption = None,
    new: NewOption = False,
) -> None:
    """Play 2048 in the terminal; the game is saved after every move and resumed next time.

    Keys: arrows, WASD or hjkl move; u undoes; ? shows the AI's hint; n starts a new game; q quits (the game is
    kept).
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
    announce_search(None, None, (rows, cols))  # the hints' search too
    from plyground.apps.play import PlayController
    from plyground.apps.saves import Saves2048
    from plyground.apps.terminal import run

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
            f"2048 {rows}x{cols}: {game.score} points after {counted(game.move_count, 'move')} "
            f"(best {controller.best}); "
            "saved: 'plyground 2048 play' resumes it."
        )


def _budget(time_ms: float | None, depth: int | None) -> str:
    if time_ms is None:
        return f"depth {depth}"
    return f"{time_ms:g} ms/move" + (f" up to depth {depth}" if depth is not None else "")


@app.command(short_help="Watch the expectimax AI play.")
def ai(
    games: Annotated[int, games_option()] = 1,
    time_ms: TimeOption = None,
    depth: DepthOption = None,
    workers: ThreadsOption = None,
    seed: SeedOption = None,
    weights: WeightsOption = None,
    p_four: PFourOption = DEFAULT_P_FOUR,
    rows: RowsOption = 4,
    cols: ColsOption = 4,
    save: Annotated[
        Path | None, typer.Option(metavar="DIR", help="Folder for the replays: DIR/2048-RxC-seedSEED.json.")
    ] = None,
    frames: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Folder for one PNG per move of each game: DIR/2048-RxC-seedSEED/00001.png."),
    ] = None,
    evaluator: EvaluatorOption = None,
    time_bank: Annotated[
        bool,
        typer.Option(
            "--time-bank",
            help="Make --time-ms the mean time a move: the time a move leaves goes to the next moves "
            "(without it a move uses less than its budget on average).",
        ),
    ] = False,
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
    tablebases: TablebasesOption = None,
) -> None:
    """Watch the expectimax AI play (20 ms per move unless --time-ms or --depth says otherwise).

    On 4x4 the leaves are valued by the n-tuple network shipped with plyground (on the other
    boards by the heuristic); --evaluator heuristic, or ntuple:PATH for another trained
    network (the board size must be the network's), chooses. With a network, depth 1 is the
    network's own greedy play.

    One game on a terminal is shown live; otherwise a progress bar runs over the games and a
    table gives each game's seed, score, max tile and moves, the mean score with its 95%
    interval, the median, and the share of games reaching each tile from 256 that the board
    can hold. Ctrl-C stops and
    prints the games finished so far (exit status 130). --json and --csv print the same for
    scripts: JSON the statistics and each game, CSV a line per game. A board that an endgame
    table built with "plyground 2048 tablebase build" advises on is played by the table's move
    (--tablebases; the result line counts those moves).
    """
    announce_search(evaluator, weights, (rows, cols))
    from rich.console import Console

    from plyground.apps import aiview
    from plyground.g2048.autoplay import play_game
    from plyground.g2048.expectimax import Expectimax

    shown = output_format(as_json, as_csv)
    seed_limit(seed, games)
    chosen = load_evaluator_option(evaluator, weights, size=(rows, cols))
    folder = save_folder(save)
    frame_folder = save_folder(frames, "write frames")
    if frame_folder is not None:
        from plyground.apps.render import require_pillow

        require_pillow()  # say now, not after the first game, when Pillow is missing
    if time_ms is None and depth is None:
        time_ms = 20.0
    if time_bank and time_ms is None:
        raise InvalidInputError("--time-bank makes --time-ms a mean: give --time-ms (not --depth alone)")
    title = f"2048 {rows}x{cols}, expectimax {_budget(time_ms, depth)}" + (" (mean, time bank)" if time_bank else "")
    if chosen.name != "heuristic":
        title += f", {chosen.label}"
    advisor = load_tablebases(tablebases, p_four)
    if advisor is not None:
        title += f", {counted(len(advisor), 'endgame table')}"
    console = Console()
    live = shown == "table" and games == 1 and console.is_terminal and sys.stdout.isatty()  # not FORCE_COLOR alone
    results: list[GameResult] = []
    view: aiview.LiveGame | None = None
    engine = Expectimax(
        time_ms=time_ms, depth=depth, workers=workers, p_four=p_four, evaluator=chosen, time_bank=time_bank
    )
    try:
        with engine:
            if live:
                with aiview.live_game(console, title) as view:
                    result = play_game(
                        engine, rows=rows, cols=cols, seed=seed, p_four=p_four, on_move=view.update, tablebases=advisor
                    )
                _keep(result, results, folder, frame_folder)
            else:
                _play_with_progress(
                    engine, games, seed, rows=rows, cols=cols, p_four=p_four, into=results, save=folder,
                    frames=frame_folder, tablebases=advisor,
                )  # fmt: skip
    except KeyboardInterrupt:
        if view is not None and view.last is not None:
            board, score, moves = view.last
            console.print(aiview.board_grid(board))
            print(f"interrupted after {counted(moves, 'move')} with a score of {score:,}", file=sys.stderr)
        else:
            print(f"interrupted: {len(results)} of {counted(games, 'game')} finished", file=sys.stderr)
        if results:
            _print_games(console, results, shown, title)
        raise typer.Exit(130) from None

    if live:
        console.print(aiview.board_grid(results[0].replay.play().board))
        console.print(aiview.result_line(results[0]), highlight=False)
        return
    if games == 1 and shown == "table":
        typer.echo(format_grid(results[0].replay.play().board.to_rows()))
    _print_games(console, results, shown, title)


def _print_games(console: Console, results: list[GameResult], shown: str, title: str) -> None:
    """The games and their statistics as a table (after ``title``), as JSON or as CSV, on stdout."""
    from plyground.apps import aiview
    from plyground.g2048.autoplay import summarize

    summary = summarize(results)
    if shown == "json":
        typer.echo(json.dumps({"title": title, **aiview.summary_json(summary)}))
    elif shown == "csv":
        typer.echo(aiview.games_csv(summary), nl=False)
    else:
        console.print(title, soft_wrap=True, highlight=False, markup=False)  # a network's path stays whole
        console.print(aiview.summary_view(summary, title=None))


def _keep(result: GameResult, results: list[GameResult], folder: Path | None, frames: Path | None = None) -> None:
    """Add a finished game to ``results``, save its replay in ``folder`` and a PNG per position in ``frames``."""
    results.append(result)
    replay = result.replay
    name = f"2048-{replay.rows}x{replay.cols}-seed{result.seed}"
    if folder is not None:
        replay.save(folder / f"{name}.json")
    if frames is not None:
        from plyground.apps.render import save_frame

        for i, (board, score) in enumerate(replay.positions()):
            save_frame(board, frames / name / f"{i:05d}.png", score=score)


def _play_with_progress(
    engine: Expectimax,
    games: int,
    seed: int | None,
    *,
    rows: int,
    cols: int,
    p_four: float,
    into: list[GameResult],
    save: Path | None,
    frames: Path | None = None,
    tablebases: Advisor | None = None,
) -> None:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``...) under a progress bar on stderr."""
    from rich.console import Console

    from plyground.apps.aiview import games_progress
    from plyground.g2048.autoplay import play_game

    with games_progress(Console(stderr=True)) as progress:
        task = progress.add_task("games", total=games, mean="-", current="")

        def on_move(game: State, decision: Decision) -> None:
            current = f"game {len(into) + 1}: {counted(game.move_count, 'move')}, score {game.score:,}"
            progress.update(task, current=current)

        for i in range(games):
            game_seed = seed + i if seed is not None else None
            result = play_game(
                engine, rows=rows, cols=cols, seed=game_seed, p_four=p_four, on_move=on_move, tablebases=tablebases
            )
            _keep(result, into, save, frames)
            mean = sum(result.score for result in into) / len(into)
            progress.update(task, advance=1, mean=f"{mean:,.0f}", current="")


app.command(short_help="The AI's best move on a board, explained.")(g2048_hint.hint)


@app.command(short_help="Render a saved game as a video.")
def video(
    replay: Annotated[
        Path, typer.Argument(metavar="REPLAY", help="A saved replay (from --save or the game's replay).")
    ],
    out: Annotated[
        Path, typer.Argument(metavar="OUT", help="The video: OUT.mp4 or OUT.gif (missing folders are made).")
    ],
    fps: Annotated[float, number_option("--fps", help="Positions per second, {range}.", low=0.1, high=120)] = 4.0,
    every: Annotated[
        int,
        number_option(
            "--every",
            help="Show every Nth position only (the final one always), {range}.",
            low=1,
            high=10**6,
            integer=True,
        ),
    ] = 1,
    last: Annotated[
        int | None,
        number_option("--last", help="Show only the last N moves, {range}.", low=1, high=10**9, integer=True),
    ] = None,
) -> None:
    """Render a saved game as a video, one frame per position (the start, then each move).

    The frames are written one at a time, with a progress bar: memory stays small however
    long the game. --every and --last make a long game's video shorter.
    """
    from plyground.apps.render import check_video_path, render_replay, require_pillow

    check_video_path(out)  # before the replay is read: what is wrong with OUT is said at once
    require_pillow()
    announce_compilation(_PACKAGE, "2048")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

    game = load_replay(replay)
    progress = Progress(
        TextColumn("frames"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=False,
    )  # fmt: skip
    task: list[TaskID] = []

    def on_frame(done: int, total: int) -> None:
        if not task:  # the bar starts with the first frame, after the checks
            progress.start()
            task.append(progress.add_task("frames", total=total))
        progress.update(task[0], completed=done)

    try:
        frames = render_replay(game, out, fps=fps, every=every, last=last, on_frame=on_frame)
    except CorruptFileError as exc:  # found while its moves are played, before any frame
        raise CorruptFileError(f"{replay}: {exc}") from None
    finally:
        if task:
            progress.stop()
    seconds = frames / fps
    length = f"{int(seconds // 60)} min {seconds % 60:.1f} s" if seconds >= 60 else f"{seconds:.1f} s"
    typer.echo(f"{out}: {counted(frames, 'frame')} at {fps:g} per second, {length}")


@app.command(short_help="Play 2048 in a desktop window, or let the AI play.")
def gui(
    rows: RowsOption = 4,
    cols: ColsOption = 4,
    seed: NewSeedOption = None,
    p_four: NewPFourOption = None,
    new: NewOption = False,
    time_ms: Annotated[float, time_option("The AI's time budget per move in milliseconds, {range}.")] = 50.0,
    delay_ms: Annotated[
        int,
        number_option(
            "--delay-ms",
            help="Pause between the AI's moves in milliseconds, {range}.",
            low=0,
            high=60_000,
            integer=True,
            metavar="MS",
        ),
    ] = 50,
    workers: ThreadsOption = None,
    ai: Annotated[bool, typer.Option("--ai", help="Start in AI mode (i or space toggles it).")] = False,
    frames: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Folder for one PNG per position: DIR/2048-RxC-seedSEED/00001.png."),
    ] = None,
    weights: WeightsOption = None,
    evaluator: EvaluatorOption = None,
    tablebases: TablebasesOption = None,
) -> None:
    """Play 2048 in a desktop window (Tk), or let the AI play; the game is saved like the terminal game's.

    Keys: arrows, WASD or hjkl move; u undoes; n starts a new game;
    i or space toggles AI mode; q or closing the window saves and quits.
    The saved game and best score are those of 'plyground 2048 play'.

    On 4x4 the AI searches with the n-tuple network shipped with plyground (--evaluator
    heuristic, or ntuple:PATH for another trained network of the board's size, chooses),
    and e switches it to the heuristic and back; other boards use the heuristic.
    With --tablebases the AI plays an endgame table's move where one advises (the tables built
    for the game's p_four: --p-four, or a resumed game's own), and the line under the buttons
    names the table and its exact probability.
    """
    try:
        import tkinter  # noqa: F401
    except ImportError:
        raise DependencyNotInstalled(
            "the desktop game needs Python's Tk support, tkinter (e.g. apt install python3-tk)"
        ) from None
    if frames is not None:
        from plyground.apps.render import require_pillow

        require_pillow()  # say now, not after the first move, when Pillow is missing
        save_folder(frames, "write frames")
    announce_search(evaluator, weights, (rows, cols))
    from plyground.apps.play import PlayController
    from plyground.apps.saves import Saves2048
    from plyground.apps.tk import GameWindow, open_root

    chosen = load_evaluator_option(evaluator, weights, size=(rows, cols))  # a save is resumed only at its own size
    every_table = load_tablebases(tablebases, None)  # before the saves are touched; the game's p_four is known later
    root = open_root()  # before the saves are touched: without a display, --new must not replace the saved game
    try:
        controller = PlayController.start(Saves2048(rows, cols), seed=seed, p_four=p_four, new=new)
        window = GameWindow(
            controller, root=root, time_ms=time_ms, workers=workers, delay_ms=delay_ms, ai=ai, frames=frames,
            evaluator=chosen, tablebases=tables_for(every_table, controller.game.p_four),
        )  # fmt: skip
    except BaseException:
        root.destroy()
        raise
    for warning in controller.warnings:
        print(warning, file=sys.stderr)
    shown = len(controller.warnings)
    window.run()
    for warning in controller.warnings[shown:]:  # met while playing
        print(warning, file=sys.stderr)
    game = controller.game
    if game.over:
        typer.echo(f"2048 {rows}x{cols}: game over with {game.score} points (best {controller.best}).")
    else:
        typer.echo(
            f"2048 {rows}x{cols}: {game.score} points after {counted(game.move_count, 'move')} "
            f"(best {controller.best}); "
            "saved: 'plyground 2048 gui' or 'play' resumes it."
        )


app.command(short_help="Solve a small board exactly.")(g2048_solver.solve)
app.command(short_help="The optimal move on a board of a solved size.")(g2048_solver.optimal)
app.add_typer(g2048_tablebase.app, name="tablebase", short_help="Endgame tables: build, query, list, info.")
app.command(short_help="Play many seeded AI games and store the results.")(g2048_runs.bench)
app.command(short_help="Print and plot the bench runs of a results store.")(g2048_runs.report)
app.command(short_help="Tune the heuristic weights with CMA-ES.")(g2048_runs.tune)
app.command(short_help="Train an n-tuple network by self-play.")(g2048_learn.learn)
app.command(short_help="Pack a trained network into a small file.")(g2048_pack.pack)
app.command(short_help="Play 2048 in a web page, or draw hints on it.")(g2048_browser.browser)
app.command(short_help="Hints for a game played elsewhere: the board, then each new tile.")(g2048_browser.assist)
app.command(short_help="Where a saved game went wrong: its last moves searched again.")(g2048_review.review)
