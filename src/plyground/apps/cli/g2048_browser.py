"""``plyground 2048 browser`` and ``plyground 2048 assist``: play or hint a 2048 game in a web page, or elsewhere.

Registered by :mod:`~plyground.apps.cli.g2048`; the browser itself is driven by
:mod:`plyground.apps.browser` (Playwright, imported only when the command runs).
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from plyground.apps.cli import announce_compilation
from plyground.apps.cli.options import (
    DEFAULT_P_FOUR,
    DepthOption,
    EvaluatorOption,
    TablebasesOption,
    ThreadsOption,
    TimeOption,
    announce_search,
    load_evaluator_option,
    load_tablebases,
    number_option,
)
from plyground.apps.text import counted

__all__ = ["assist", "browser"]

_PACKAGE = "plyground.g2048"


def browser(
    url: Annotated[
        str | None,
        typer.Argument(
            metavar="URL",
            help="The page of the game (default: the original game, https://gabrielecirulli.github.io/2048/).",
            show_default=False,
        ),
    ] = None,
    cdp: Annotated[
        str | None,
        typer.Option(
            metavar="ENDPOINT",
            help="Attach to a browser started with remote debugging (chromium --remote-debugging-port=9222: "
            "give http://127.0.0.1:9222) and use its page of URL, or the first page that shows a 2048 board.",
        ),
    ] = None,
    hint_only: Annotated[
        bool,
        typer.Option(
            "--hint", help="You play; plyground draws each move's value and the best move on the page, pressing no key."
        ),
    ] = False,
    time_ms: TimeOption = None,
    depth: DepthOption = None,
    workers: ThreadsOption = None,
    evaluator: EvaluatorOption = None,
    moves: Annotated[
        int | None,
        number_option(
            "--moves", help="Stop after N moves, {range} (default: to the end).", low=1, high=10**7, integer=True
        ),
    ] = None,
    delay: Annotated[
        float,
        number_option("--delay", help="Seconds to wait between moves, {range}.", low=0, high=60, metavar="S"),
    ] = 0.0,
    headless: Annotated[
        bool | None,
        typer.Option(
            "--headless/--window",
            help="Run Chromium without a window, or with one (default: a window when there is a display).",
            show_default=False,
        ),
    ] = None,
    chromium: Annotated[
        str | None,
        typer.Option(metavar="PATH", help="The Chromium to start (default: /usr/bin/chromium, else Playwright's)."),
    ] = None,
    tablebases: TablebasesOption = None,
) -> None:
    """Play 2048 in a web page with plyground's AI, or draw its hints on the page while you play.

    Opens the game in Chromium (or, with --cdp, in a browser you started), reads the board from the
    page (the original game's saved game in localStorage, else its tiles), presses the arrow keys,
    and after every move checks that the page shows plyground's result plus one new 2 or 4 and the
    same score; the first difference stops it with one line saying what differed. It clicks "keep
    playing" after 2048 and stops at game over, after --moves, or on Ctrl-C, with a summary: score,
    max tile, moves and time. With --hint it never presses a key: each time the board changes it
    draws the best move and each move's value in a box on the page.

    With --tablebases, a board that an endgame table advises on is played by the table's move,
    unsearched (the summary counts those moves), or with --hint shown as the table's move with its
    exact probability; the tables are those built for the web game's 4s, one new tile in ten.
    """
    announce_search(evaluator, None, None)
    from rich.console import Console

    from plyground.apps.browser.driver import Summary, hint, open_page, play, wait_for_board
    from plyground.apps.cli.stopping import ctrl_c_stops
    from plyground.g2048 import Expectimax

    load_evaluator_option(evaluator, None)  # a bad --evaluator says so before a browser starts
    advisor = load_tablebases(tablebases, DEFAULT_P_FOUR)  # the web game's: a new tile is a 4 one time in ten
    if time_ms is None and depth is None:
        time_ms = 20.0 if not hint_only else 200.0
    if headless is None:
        shown = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        headless = sys.platform.startswith("linux") and not shown
    console = Console(stderr=True)
    summary = Summary()
    try:
        with open_page(url, cdp=cdp, chromium=chromium, headless=headless) as page:
            first = wait_for_board(page)
            size = (len(first.rows), len(first.rows[0]))
            chosen = load_evaluator_option(evaluator, None, size=size, board_given=True)
            engine = Expectimax(time_ms=time_ms, depth=depth, workers=workers, evaluator=chosen)
            # from here the first Ctrl-C (or SIGTERM) stops between two moves, and the browser closes cleanly
            with engine, ctrl_c_stops() as stop, console.status("", spinner="dots") as status:
                tables = f" with {counted(len(advisor), 'endgame table')}" if advisor is not None else ""
                console.print(f"playing {page.url}{tables}" if not hint_only else
                              f"hints on {page.url}{tables} (Ctrl-C stops)")  # fmt: skip

                def moved(board: object, done: Summary) -> None:
                    by_tables = f" ({done.table_moves:,} from endgame tables)" if done.table_moves else ""
                    status.update(f"move {done.moves:,}{by_tables}: {done.score:,} points, max tile {done.max_tile}")

                def hinted(board: object, decision: object) -> None:
                    moved(board, summary)

                if hint_only:
                    hint(page, engine, moves=moves, summary=summary, on_hint=hinted, stop=stop.is_set,
                         tablebases=advisor)  # fmt: skip
                else:
                    play(page, engine, moves=moves, delay=delay, on_move=moved, summary=summary, stop=stop.is_set,
                         tablebases=advisor)  # fmt: skip
    except KeyboardInterrupt:  # before the game started, or a second Ctrl-C
        summary.stopped = "interrupted"
        print(summary.line(), file=sys.stderr)
        raise typer.Exit(130) from None
    if summary.stopped == "interrupted":
        print(summary.line(), file=sys.stderr)
        raise typer.Exit(128 + stop.signum)
    typer.echo(summary.line())


def assist(
    board: Annotated[
        str | None,
        typer.Option(metavar="BOARD", help="The board to start from (rows separated by '/'); else it is asked for."),
    ] = None,
    time_ms: TimeOption = None,
    depth: DepthOption = None,
    workers: ThreadsOption = None,
    evaluator: EvaluatorOption = None,
) -> None:
    """Hints for a game played elsewhere (a phone): type the board once, then the new tile after each move.

    plyground prints the board, the best move and each move's value. Play that move where the game
    is, then type the tile that appeared as ROW COLUMN VALUE (counted from 1: '1 4 2' is a 2 in the
    top-right corner); after another move than the one suggested, type it first ('up 1 4 2'). A
    whole board starts again from it; 'q' or the end of the input stops, with the moves and points.
    """
    announce_compilation(_PACKAGE, "2048")
    from plyground.apps.assist import ask_board
    from plyground.apps.assist import assist as run
    from plyground.g2048 import Board, Expectimax

    start = Board.parse(board) if board is not None else None

    def ask(prompt: str) -> str | None:
        if not sys.stdin.isatty():  # read from a file or a pipe: the transcript shows each line after its question
            line = sys.stdin.readline()
            typer.echo(prompt + line.rstrip("\n"))
            return line.rstrip("\n") if line else None
        try:
            return input(prompt)
        except EOFError:
            typer.echo()
            return None

    start = start if start is not None else ask_board(ask, typer.echo)  # its size picks the evaluator
    if start is None:
        return
    chosen = load_evaluator_option(evaluator, None, size=start.shape, board_given=True)
    if time_ms is None and depth is None:
        time_ms = 100.0
    with Expectimax(time_ms=time_ms, depth=depth, workers=workers, evaluator=chosen) as engine:
        summary = run(engine, ask, typer.echo, board=start)
    typer.echo(summary.line())
