"""Gomoku matches between two Gomocup brains over the Piskvork protocol: plyground's players or any engine.

Each side is a brain: an executable (a Gomocup brain such as PentaZen or Rapfi, built by
``benchmarks/opponents/build_pentazen.sh`` and ``build_rapfi.sh``) or ``plyground:KIND`` (``plyground kinrow pbrain
--player KIND``, run as a subprocess, so both sides are driven alike over pipes). Words after the
first one are the brain's arguments: ``"plyground:alphabeta --depth 8"``. The script drives
plyground's manager (``plyground.arena``, as ``plyground arena gomoku`` does, with ``--parallel`` and
the recording of the result's line beside): it starts both brains for each game, sends START, the
INFO lines, BOARD or BEGIN and TURN, judges every answer with ``plyground.kinrow.State`` and measures
each side's time per move.

Each opening is played twice, A with black (X, the first player) and then with white. Openings are
a few stones near the centre, drawn from ``--seed`` (``random:3``: three stones in the 5x5 square
around the centre, no one threatening to win; black is ahead in most), none (``empty``: the first
player starts on an empty board), or read from a file (one opening a line: x,y stones in the order
played, X first, ``#`` comments), such as ``experiments/2026-12-01-gomoku-evaluation/gomoku_openings.txt``, 24
openings a
strong brain judged even (``experiments/2026-12-01-gomoku-evaluation/gomoku_openings.py``). ``--b-time-ms``
gives B its own time
per move (time odds, such as a stronger brain given a tenth of the time). A brain loses a game by
an illegal or malformed answer, no answer in its time per move + ``--grace-ms`` ms, a match clock
run out (``--match-ms``) or by exiting. Prints the results of A (wins, draws, losses, the score
with its 95% Wilson interval, draws counting half), each side's mean and largest time per move,
the mean game length and why games ended, then the
JSON line::

    python benchmarks/gomoku.py A B [--games 8] [--openings random:3|empty|FILE] [--seed 1]
                                [--time-ms 1000] [--b-time-ms MS] [--grace-ms 1000] [--match-ms 0] [--size 15]
                                [--rule freestyle|standard|renju] [--max-moves 0]
                                [--parallel 1] [--games-out FILE]

    python benchmarks/gomoku.py /tmp/pentazen/pbrain-pentazen "plyground:alphabeta --depth 8" \\
        --games 2 --time-ms 200

``--games-out FILE`` writes each game, as it ends, in a PGN-like text (tags, then x,y moves with
the milliseconds each took). Give each brain one thread (PentaZen searches on one unless told
``INFO THREAD_NUM``; plyground's players search on one) and play one game at a time, or at most
``--parallel`` = half the cores, for fair timings. Ctrl-C stops and reports the games finished.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import IO, Any, NoReturn

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from plyground.apps.cli.arena import match_table
from plyground.arena import (
    RULE_NAMES,
    MatchGame,
    Settings,
    game_json,
    openings_for,
    parse_brain,
    play_match,
    summarize,
)
from plyground.core.measurements import add_record_options, print_json
from plyground.errors import BrainError, InvalidInputError

DEFAULT_OPENINGS = "random:3"
MAX_TIME_MS = 3_600_000
MAX_GAMES = 100_000


class Parser(argparse.ArgumentParser):
    """Bad options are one line, ``error: ...``, and exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from plyground.kinrow.board import MAX_N

    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("a", metavar="A", help="side A: an executable Gomocup brain, or plyground:KIND [ARGS]")
    parser.add_argument("b", metavar="B", help="side B, the same")
    parser.add_argument("--games", type=int, default=8, help="games; each opening is played twice, colours swapped")
    parser.add_argument("--openings", default=DEFAULT_OPENINGS, help="random:N (default random:3), empty, or FILE")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated openings")
    parser.add_argument("--time-ms", type=int, default=1000, help="milliseconds per move (INFO timeout_turn)")
    parser.add_argument("--b-time-ms", type=int, default=None, help="B's milliseconds per move (time odds)")
    parser.add_argument("--grace-ms", type=int, default=1000, help="an answer later than time-ms + this loses")
    parser.add_argument("--match-ms", type=int, default=0, help="each brain's clock for a game (0: none)")
    parser.add_argument("--size", type=int, default=15, help=f"board size, 5 to {MAX_N}")
    parser.add_argument("--rule", default="freestyle", help="freestyle (default), standard or renju")
    parser.add_argument("--max-moves", type=int, default=0, help="draw after this many moves (0: a full board)")
    parser.add_argument("--parallel", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--start-ms", type=int, default=120_000, help="time for a brain to start and answer START")
    parser.add_argument("--games-out", type=Path, default=None, metavar="FILE", help="write every game to FILE")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args(argv)
    limits = {
        "--games": (args.games, 1, MAX_GAMES),
        "--time-ms": (args.time_ms, 1, MAX_TIME_MS),
        "--b-time-ms": (args.time_ms if args.b_time_ms is None else args.b_time_ms, 1, MAX_TIME_MS),
        "--grace-ms": (args.grace_ms, 0, MAX_TIME_MS),
        "--match-ms": (args.match_ms, 0, 1000 * MAX_TIME_MS),
        "--size": (args.size, 5, MAX_N),
        "--max-moves": (args.max_moves, 0, MAX_N * MAX_N),
        "--parallel": (args.parallel, 1, max(1, os.cpu_count() or 1)),
        "--start-ms": (args.start_ms, 1, MAX_TIME_MS),
        "--seed": (args.seed, 0, 2**63 - 1),
    }
    for name, (value, low, high) in limits.items():
        if not low <= value <= high:
            parser.error(f"{name} must be from {low:,} to {high:,}, got {value:,}")
    from plyground.kinrow.rules import parse_rule

    try:
        args.rule_number = int(parse_rule(args.rule))
    except InvalidInputError as error:
        parser.error(str(error))
    try:
        args.brains = [parse_brain(spec, side) for spec, side in ((args.a, "A"), (args.b, "B"))]
        args.opening_list = openings_for(args.openings, args.games, args.size, args.seed, args.rule_number)
    except InvalidInputError as error:
        parser.error(str(error))
    if args.games_out is not None and not args.games_out.parent.is_dir():
        parser.error(f"--games-out: no folder {args.games_out.parent}")
    return args


def _table(args: argparse.Namespace, names: list[str], results: dict[str, Any]) -> Table:
    rule = RULE_NAMES[args.rule_number]
    title = f"gomoku {args.size}x{args.size} {rule}, {_times(args)} ms/move, {results['games_played']} games"
    return match_table(title, results, *names)


def _times(args: argparse.Namespace) -> str:
    """The time per move, ``A/B`` where B has its own."""
    return str(args.time_ms) if args.b_time_ms is None else f"{args.time_ms}/{args.b_time_ms}"


def stop(signum: int, frame: object) -> None:
    """On SIGTERM, stop as on Ctrl-C."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, stop)
    brain_a, brain_b = args.brains
    settings = Settings(
        size=args.size,
        rule=args.rule_number,
        time_ms=args.time_ms,
        grace_ms=args.grace_ms,
        match_ms=args.match_ms,
        max_moves=args.max_moves,
        start_ms=args.start_ms,
    )
    record: IO[str] | None = None
    if args.games_out is not None:
        try:
            record = open(args.games_out, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as error:
            print(f"error: cannot write {args.games_out}: {error.strerror}", file=sys.stderr)
            return 2
    finished: list[MatchGame] = []
    print(f"gomoku: A = {brain_a.name}, B = {brain_b.name}, {args.games} games", file=sys.stderr, flush=True)
    try:
        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("games", total=args.games)

            def on_game(item: MatchGame) -> None:
                finished.append(item)
                if record is not None:
                    item.append_to(record, brain_a.name, brain_b.name)
                so_far = summarize(finished)
                record_so_far = f"{so_far['a_wins']}-{so_far['draws']}-{so_far['a_losses']}"
                progress.update(task, advance=1, description=f"games (A won-drew-lost {record_so_far})")

            result = play_match(
                brain_a,
                brain_b,
                args.opening_list,
                settings,
                games=args.games,
                b_time_ms=args.b_time_ms,
                at_once=args.parallel,
                on_game=on_game,
            )
    except BrainError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        if record is not None:
            record.close()
    if result.interrupted:
        print(f"interrupted: {len(result.games)} of {args.games} games finished", file=sys.stderr)
    results = summarize(result.games)
    Console(width=160).print(_table(args, [brain_a.name, brain_b.name], results))
    print_json(
        "gomoku",
        {
            "a": brain_a.name,
            "b": brain_b.name,
            "size": args.size,
            "rule": RULE_NAMES[args.rule_number],
            "time_ms": args.time_ms,
            "b_time_ms": args.b_time_ms,
            "grace_ms": args.grace_ms,
            "match_ms": args.match_ms,
            "max_moves": args.max_moves,
            "openings": args.openings,
            "seed": args.seed,
            "games": args.games,
            "parallel": args.parallel,
            "interrupted": result.interrupted,
            **results,
            "game_list": [game_json(item) for item in result.games],
        },
        args,
    )
    return 130 if result.interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
