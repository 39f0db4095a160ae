"""Gomoku matches between two Gomocup brains over the Piskvork protocol: plyground's players or any engine.

Each side is a brain: an executable (a Gomocup brain such as PentaZen or Rapfi, built by
``benchmarks/opponents/build_pentazen.sh`` and ``build_rapfi.sh``) or ``plyground:KIND`` (``plyground kinrow pbrain
--player KIND``, run as a subprocess, so both sides are driven alike over pipes). Words after the
first one are the brain's arguments: ``"plyground:alphabeta --depth 8"``. The script is the manager
(``benchmarks/_piskvork.py``): it starts both brains for each game, sends START, the INFO lines,
BOARD or BEGIN and TURN, judges every answer with ``plyground.kinrow.State`` and measures each
side's time per move.

Each opening is played twice, A with black (X, the first player) and then with white. Openings are
a few stones near the centre, drawn from ``--seed`` (``random:3``: three stones in the 5x5 square
around the centre, no one threatening to win; black is ahead in most), none (``empty``: the first
player starts on an empty board), or read from a file (one opening a line: x,y stones in the order
played, X first, ``#`` comments), such as ``benchmarks/data/gomoku_openings.txt``, 24 openings a
strong brain judged even (``benchmarks/gomoku_openings.py``). ``--b-time-ms`` gives B its own time
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
import math
import os
import shlex
import shutil
import signal
import statistics
import sys
import threading
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import replace
from pathlib import Path
from typing import IO, Any, NoReturn

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from _common import add_record_options, print_json
from _piskvork import RULE_NAMES, Game, Settings, SetupError, kill_all, play_game, record_text
from plyground.errors import PlygroundError

DEFAULT_OPENINGS = "random:3"
OPENING_RADIUS = 2
"""Generated openings put their stones within this many cells of the centre."""
MAX_TIME_MS = 3_600_000
MAX_GAMES = 100_000


class Parser(argparse.ArgumentParser):
    """Bad options are one line, ``error: ...``, and exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def brain_command(spec: str, side: str) -> tuple[list[str], str]:
    """The command line of a brain and its name for the tables (``ValueError`` for a bad spec)."""
    try:
        words = shlex.split(spec)
    except ValueError as error:
        raise ValueError(f"{side}: {error} in {spec!r}") from None
    if not words:
        raise ValueError(f"{side}: empty brain")
    first, args = words[0], words[1:]
    if first.startswith("plyground:"):
        from plyground.kinrow.players import PLAYER_KINDS

        kind = first.removeprefix("plyground:")
        kinds = [known for known in PLAYER_KINDS if known != "human"]
        if kind not in kinds:
            raise ValueError(f"{side}: unknown plyground player {kind!r}; the players are {', '.join(kinds)}")
        command = [sys.executable, "-m", "plyground.apps.cli.main", "kinrow", "pbrain", "--player", kind, *args]
        return command, " ".join(words)
    path = shutil.which(first) if os.sep not in first else first
    if path is None or not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise ValueError(f"{side}: no executable brain {first!r} (a path, a command on PATH, or plyground:KIND)")
    return [os.path.abspath(path), *args], " ".join([os.path.basename(path), *args])


def generated_opening(size: int, stones: int, seed: int, index: int, rule: int = 0) -> list[tuple[int, int]]:
    """Opening ``index`` of ``seed``: ``stones`` distinct cells near the centre where no one threatens five."""
    import numpy as np

    from _piskvork import new_state

    centre, radius = size // 2, min(OPENING_RADIUS, (size - 1) // 2)
    cells = [
        (x, y) for y in range(centre - radius, centre + radius + 1) for x in range(centre - radius, centre + radius + 1)
    ]
    rng = np.random.default_rng([seed, index])
    for _ in range(1000):
        chosen = [cells[int(i)] for i in rng.choice(len(cells), size=stones, replace=False)]
        state = new_state(size, rule)
        try:
            for x, y in chosen:
                state.play(state.index(y, x))
        except PlygroundError:  # a forbidden point under renju
            continue
        if state.result is None and not state.winning_moves(1) and not state.winning_moves(2):
            return chosen
    raise ValueError(f"no opening of {stones} stones near the centre without a threat of five")


def read_openings(path: Path, size: int, rule: int = 0) -> list[list[tuple[int, int]]]:
    """The openings of a file: one a line, x,y stones in the order played (``ValueError`` naming a bad line)."""
    from _piskvork import new_state

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the openings {path}: {getattr(error, 'strerror', None) or error}") from None
    openings = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        stones = []
        for word in line.replace(";", " ").split():
            x_text, comma, y_text = word.partition(",")
            if not comma or not x_text.isdigit() or not y_text.isdigit():
                raise ValueError(f"{path}:{number}: {word!r} is not x,y")
            stones.append((int(x_text), int(y_text)))
        state = new_state(size, rule)
        for x, y in stones:
            if x >= size or y >= size or state.cells[state.index(y, x)] or state.is_over:
                raise ValueError(f"{path}:{number}: {x},{y} is off the {size}x{size} board, taken or after five")
            try:
                state.play(state.index(y, x))
            except PlygroundError as error:
                raise ValueError(f"{path}:{number}: {x},{y}: {error}") from None
        if state.is_over:
            raise ValueError(f"{path}:{number}: the game is over after this opening")
        openings.append(stones)
    if not openings:
        raise ValueError(f"{path}: no opening in the file")
    return openings


def openings_for(spec: str, games: int, size: int, seed: int, rule: int = 0) -> list[list[tuple[int, int]]]:
    """The opening of each pair of games (``ValueError`` for a bad spec)."""
    pairs = (games + 1) // 2
    if spec == "empty":
        return [[] for _ in range(pairs)]
    if spec.startswith("random:"):
        count = spec.removeprefix("random:")
        if not count.isdigit() or not 1 <= int(count) <= 8:
            raise ValueError(f"--openings random:N needs N from 1 to 8 stones, got {spec!r}")
        return [generated_opening(size, int(count), seed, i, rule) for i in range(pairs)]
    listed = read_openings(Path(spec), size, rule)
    return [listed[i % len(listed)] for i in range(pairs)]


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson interval of a share ``score / games`` (a draw counts half); None without a game.

    >>> [round(v, 3) for v in wilson(5, 10)]
    [0.237, 0.763]
    """
    if games <= 0:
        return None
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


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
    add_record_options(parser)
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
    from plyground.errors import InvalidInputError
    from plyground.kinrow.rules import parse_rule

    try:
        args.rule_number = int(parse_rule(args.rule))
    except InvalidInputError as error:
        parser.error(str(error))
    try:
        args.commands = [brain_command(spec, side) for spec, side in ((args.a, "A"), (args.b, "B"))]
        args.opening_list = openings_for(args.openings, args.games, args.size, args.seed, args.rule_number)
    except ValueError as error:
        parser.error(str(error))
    if args.games_out is not None and not args.games_out.parent.is_dir():
        parser.error(f"--games-out: no folder {args.games_out.parent}")
    return args


def schedule(args: argparse.Namespace) -> list[tuple[int, list[tuple[int, int]], bool]]:
    """(game number, opening, A plays black) for each game: each opening A black, then A white."""
    return [(i + 1, args.opening_list[i // 2], i % 2 == 0) for i in range(args.games)]


def summary(games: list[tuple[Game, bool]]) -> dict[str, Any]:
    """The results of side A over ``(game, A played black)`` pairs, and the times of both sides."""
    wins = sum(game.winner == ("black" if a_black else "white") for game, a_black in games)
    draws = sum(game.winner is None for game, _ in games)
    score = wins + draws / 2
    times: dict[str, list[float]] = {"a": [], "b": []}
    for game, a_black in games:
        times["a"] += game.times("black" if a_black else "white")
        times["b"] += game.times("white" if a_black else "black")
    interval = wilson(score, len(games))
    out: dict[str, Any] = {
        "games_played": len(games),
        "a_wins": wins,
        "draws": draws,
        "a_losses": len(games) - wins - draws,
        "a_score": score / len(games) if games else None,
        "a_score_95": list(interval) if interval is not None else None,
        "mean_moves": statistics.fmean(len(game.moves) - len(game.opening) for game, _ in games) if games else None,
    }
    for side, values in times.items():
        out[f"{side}_mean_ms"] = statistics.fmean(values) if values else None
        out[f"{side}_max_ms"] = max(values) if values else None
    out["endings"] = dict(Counter(_ending(game.reason) for game, _ in games))
    return out


def _ending(reason: str) -> str:
    """The kind of an ending, for the counts: ``made five``, ``no answer``, ``illegal move``..."""
    for kind in ("made five", "no answer", "illegal move", "crashed", "not a move", "match clock", "full", "limit"):
        if kind in reason:
            return kind
    return reason


def game_json(game: Game, number: int, a_black: bool) -> dict[str, Any]:
    a = "black" if a_black else "white"
    result = "draw" if game.winner is None else ("a" if game.winner == a else "b")
    return {
        "game": number,
        "opening": [list(stone) for stone in game.opening],
        "a_colour": a,
        "result": result,
        "reason": game.reason,
        "moves": len(game.moves),
    }


def _table(args: argparse.Namespace, names: list[str], results: dict[str, Any]) -> Table:
    rule = RULE_NAMES[args.rule_number]
    table = Table(
        title=f"gomoku {args.size}x{args.size} {rule}, {_times(args)} ms/move, {results['games_played']} games"
    )
    for column in ("side", "brain", "wins", "draws", "losses", "mean ms/move", "max ms/move"):
        table.add_column(column, justify="left" if column in ("side", "brain") else "right")
    wins, draws, losses = results["a_wins"], results["draws"], results["a_losses"]
    for side, name, record in (("A", names[0], (wins, draws, losses)), ("B", names[1], (losses, draws, wins))):
        mean, top = results[f"{side.lower()}_mean_ms"], results[f"{side.lower()}_max_ms"]
        table.add_row(
            side,
            name,
            *map(str, record),
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


def _times(args: argparse.Namespace) -> str:
    """The time per move, ``A/B`` where B has its own."""
    return str(args.time_ms) if args.b_time_ms is None else f"{args.time_ms}/{args.b_time_ms}"


def stop(signum: int, frame: object) -> None:
    """On SIGTERM, stop as on Ctrl-C."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, stop)
    (command_a, name_a), (command_b, name_b) = args.commands
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
    finished: list[tuple[int, Game, bool]] = []
    lock = threading.Lock()
    interrupted, failure = False, None

    def one(number: int, opening: list[tuple[int, int]], a_black: bool) -> None:
        black, white = (command_a, command_b) if a_black else (command_b, command_a)
        names = ("A", "B") if a_black else ("B", "A")
        ms = (args.time_ms, args.time_ms if args.b_time_ms is None else args.b_time_ms)
        black_ms, white_ms = ms if a_black else ms[::-1]
        timed = replace(settings, time_ms=black_ms, white_ms=None if black_ms == white_ms else white_ms)
        game = play_game(black, white, opening, timed, names=names)
        with lock:
            if interrupted:
                return  # ended by the kill
            finished.append((number, game, a_black))
            if record is not None:
                players = {"black": name_a, "white": name_b} if a_black else {"black": name_b, "white": name_a}
                record.write(record_text(game, number, timed, players))
                record.flush()
                os.fsync(record.fileno())

    print(f"gomoku: A = {name_a}, B = {name_b}, {args.games} games", file=sys.stderr, flush=True)
    pool = ThreadPoolExecutor(max_workers=args.parallel)
    try:
        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("games", total=args.games)
            todo = iter(schedule(args))
            running: set[Future[None]] = set()
            while True:
                while len(running) < args.parallel and (job := next(todo, None)) is not None:
                    running.add(pool.submit(one, *job))
                if not running:
                    break
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    problem = future.exception()
                    if isinstance(problem, SetupError):
                        failure = str(problem)
                    elif problem is not None:
                        raise problem
                    with lock:
                        so_far = summary([(game, a_black) for _, game, a_black in finished])
                    record_so_far = f"{so_far['a_wins']}-{so_far['draws']}-{so_far['a_losses']}"
                    progress.update(task, advance=1, description=f"games (A won-drew-lost {record_so_far})")
                if failure is not None:
                    wait(running)  # the games in progress end; none starts
                    break
    except KeyboardInterrupt:
        with lock:
            interrupted = True
        kill_all()
        print(f"interrupted: {len(finished)} of {args.games} games finished", file=sys.stderr)
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)
        if record is not None:
            record.close()
    if failure is not None:
        print(f"error: {failure}", file=sys.stderr)
        return 1
    finished.sort(key=lambda item: item[0])
    games = [(game, a_black) for _, game, a_black in finished]
    results = summary(games)
    Console(width=160).print(_table(args, [name_a, name_b], results))
    print_json(
        "gomoku",
        {
            "a": name_a,
            "b": name_b,
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
            "interrupted": interrupted,
            **results,
            "game_list": [game_json(game, number, a_black) for number, game, a_black in finished],
        },
        args,
    )
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
