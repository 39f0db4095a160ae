"""Which heuristic weights should be the default: two weight files paired at a time budget per move.

Plays weights A and weights B on the same seeds (the same spawns as long as the games agree), each
game in its own process with a one-thread search at ``--time-ms`` per move, the A and B games of a
seed side by side so that both meet the same machine. Every finished game is appended at once to
``--results``/``default_weights_games.jsonl`` (with the date, commit and machine), so a run stopped
by Ctrl-C, SIGTERM or a crash loses only the games in flight, and the next run plays only the seeds
that are missing: commit the file. ``--report`` only prints the table.

    python experiments/2026-12-02-default-weights-at-20ms/default_weights.py [--a FILE] [--b FILE] [--games 40]
        [--time-ms 20]
                                         [--first-seed 2000000000] [--processes 2] [--rows 4 --cols 4]
    python experiments/2026-12-02-default-weights-at-20ms/default_weights.py --report

A defaults to the weights plyground ships as its default, B to ``tuned-depth2.json`` (tuned by
CMA-ES at depth 2). The table gives, for each side, the games, the mean and median scores and the
share of games reaching 8192, 16384 and 32768; then the paired difference B − A over the seeds both
finished, with Student's 95% interval, and the verdict: B is better when the whole interval is above
zero (at least ``--games`` pairs). The JSON line carries the same figures.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import multiprocessing
import signal
import statistics
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.core.measurements import add_record_options, checkout_root, print_json, read_games, record
from plyground.core.stats import mean_interval, share_interval
from plyground.errors import PlygroundError

GAMES_LOG = "default_weights_games"
TILES = (8192, 16384, 32768)
FIRST_SEED = 2_000_000_000
"""Far from the seeds tuning plays (0..9,999,999) and validates on (1,000,000,000 onwards)."""


def shipped(name: str) -> Path:
    """A weights file shipped with plyground."""
    return Path(str(resources.files("plyground.g2048").joinpath(f"weights/{name}")))


def fingerprint(path: Path) -> str:
    """The first 12 hex digits of the SHA-256 of the weights a file holds (its JSON, canonical)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    canonical = json.dumps(data.get("weights", data), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:12]


Job = tuple[str, str, int, float, int, int]
"""One game: side ("a" or "b"), weights file, seed, ms per move, rows, cols."""


def play(job: Job) -> dict[str, Any]:
    """One game, in a pool process."""
    from plyground.g2048.autoplay import GameSpec, play_spec
    from plyground.g2048.heuristic import Weights

    side, path, seed, time_ms, rows, cols = job
    weights = Weights.from_json_data(json.loads(Path(path).read_text(encoding="utf-8")))
    result = play_spec(GameSpec(seed=seed, rows=rows, cols=cols, time_ms=time_ms, weights=weights))
    return {
        "side": side,
        "seed": seed,
        "score": int(result.score),
        "max_tile": int(result.max_tile),
        "moves": int(result.moves),
        "ms_per_move": 1000 * result.seconds / max(1, result.moves),
        "mean_depth": float(result.mean_depth),
    }


def check_game(game: dict[str, Any]) -> None:
    """A logged game, or ValueError; the first lines logged, before other sizes could be played, are 4x4."""
    if not isinstance(game["score"], int) or not isinstance(game["weights"], str):
        raise ValueError
    game.setdefault("rows", 4)
    game.setdefault("cols", 4)


def read_log(path: Path) -> list[dict[str, Any]]:
    """The games logged in ``path`` (none if it does not exist); a line that is not a game is an error."""
    return read_games(path, check_game)


def side_stats(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Games, mean and median score, and the share reaching each tile with its Wilson interval."""
    scores = [g["score"] for g in games]
    return {
        "games": len(games),
        "mean_score": statistics.fmean(scores) if scores else None,
        "median_score": statistics.median(scores) if scores else None,
        "ms_per_move": sum(g["ms_per_move"] * g["moves"] for g in games) / max(1, sum(g["moves"] for g in games)),
        "reach": {
            str(t): {
                "share": sum(g["max_tile"] >= t for g in games) / len(games) if games else None,
                "interval": share_interval(sum(g["max_tile"] >= t for g in games), len(games)),
            }
            for t in TILES
        },
    }


def compare(games: list[dict[str, Any]], a: str, b: str, setting: dict[str, Any], wanted: int) -> dict[str, Any]:
    """The two sides' statistics and the paired difference B − A over the seeds both have.

    ``setting`` holds the ``time_ms``, ``rows`` and ``cols`` of the games to count.
    """
    mine = [g for g in games if all(g[key] == value for key, value in setting.items())]
    by_side = {key: {g["seed"]: g for g in mine if g["weights"] == key} for key in (a, b)}
    paired = sorted(set(by_side[a]) & set(by_side[b]))
    differences = [by_side[b][s]["score"] - by_side[a][s]["score"] for s in paired]
    interval = mean_interval(differences)
    verdict: str | None = None
    if len(paired) >= wanted and interval is not None:
        verdict = "B better" if interval[0] > 0 else "A better" if interval[1] < 0 else "no clear difference"
    return {
        **setting,
        "a": {"weights": a, **side_stats([by_side[a][s] for s in paired])},
        "b": {"weights": b, **side_stats([by_side[b][s] for s in paired])},
        "pairs": len(paired),
        "difference": statistics.fmean(differences) if differences else None,
        "interval": interval,
        "b_wins": sum(d > 0 for d in differences),
        "verdict": verdict,
    }


def show(result: dict[str, Any], names: dict[str, str], console: Console) -> None:
    """Print the table, the paired difference and the verdict."""

    def share(entry: dict[str, Any]) -> str:
        if entry["share"] is None:
            return "-"
        low, high = entry["interval"]
        return f"{entry['share']:.0%} ({low:.0%}-{high:.0%})"

    table = Table(
        title=f"2048 heuristic weights on {result['rows']}x{result['cols']}, paired at {result['time_ms']:g} ms a move"
    )
    for column in ("weights", "games", "ms/move", "mean score", "median score", *map(str, TILES)):
        table.add_column(column, justify="left" if column == "weights" else "right")
    for side in ("a", "b"):
        row = result[side]
        empty = row["games"] == 0
        table.add_row(
            f"{side.upper()} {names.get(row['weights'], row['weights'])}",
            str(row["games"]),
            "-" if empty else f"{row['ms_per_move']:.1f}",
            "-" if empty else f"{row['mean_score']:,.0f}",
            "-" if empty else f"{row['median_score']:,.0f}",
            *(share(row["reach"][str(t)]) for t in TILES),
        )
    console.print(table)
    if result["difference"] is None:
        console.print("paired difference B - A: no pair finished yet")
        return
    low_high = "-" if result["interval"] is None else f"{result['interval'][0]:+,.0f} to {result['interval'][1]:+,.0f}"
    console.print(
        f"paired difference B - A over {result['pairs']} seeds: {result['difference']:+,.0f} "
        f"(95% interval {low_high}); B ahead on {result['b_wins']} of {result['pairs']}"
    )
    console.print(f"verdict: {result['verdict'] or 'not enough pairs yet'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, help="weights A (default: plyground's default weights)")
    parser.add_argument("--b", type=Path, help="weights B (default: tuned-depth2.json)")
    parser.add_argument("--games", type=int, default=40, help="pairs to reach in the log, in all (40)")
    parser.add_argument("--time-ms", type=float, default=20.0, help="time per move (20)")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--processes", type=int, default=2, help="games at once, one thread each (2)")
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--report", action="store_true", help="only print the table of the games logged")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()
    console = Console(stderr=True)
    try:
        if not 1 <= args.games <= 10_000:
            raise PlygroundError(f"--games must be from 1 to 10000, got {args.games}")
        if not 0 < args.time_ms <= 60_000:
            raise PlygroundError(f"--time-ms must be in (0, 60000], got {args.time_ms}")
        if not 1 <= args.processes <= 256:
            raise PlygroundError(f"--processes must be from 1 to 256, got {args.processes}")
        if args.rows not in (2, 3, 4) or args.cols not in (2, 3, 4):
            raise PlygroundError(f"--rows and --cols must be 2, 3 or 4, got {args.rows}x{args.cols}")
        if not 0 <= args.first_seed < 2**62:
            raise PlygroundError(f"--first-seed must be from 0 to 2**62, got {args.first_seed}")
        a_path = args.a or shipped("default.json")
        b_path = args.b or shipped("tuned-depth2.json")
        for path in (a_path, b_path):
            if not path.is_file():
                raise PlygroundError(f"no weights file {path}")
        a, b = fingerprint(a_path), fingerprint(b_path)
        names = {a: a_path.name, b: b_path.name}
        log = args.results / f"{GAMES_LOG}.jsonl"
        setting = {"time_ms": args.time_ms, "rows": args.rows, "cols": args.cols}
        if not args.report:
            logged = read_log(log)
            done = {(g["weights"], g["seed"]) for g in logged if all(g[k] == v for k, v in setting.items())}
            seeds = range(args.first_seed, args.first_seed + args.games)
            todo = [
                (side, str(path), seed, args.time_ms, args.rows, args.cols)
                for seed in seeds
                for side, path, key in (("a", a_path, a), ("b", b_path, b))
                if (key, seed) not in done
            ]
            run(todo, {"a": a, "b": b}, {"a": a_path.name, "b": b_path.name}, setting, args, console)
        result = compare(read_log(log), a, b, setting, args.games)
    except (PlygroundError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    show(result, names, console)
    print_json("default_weights", result, args)


def interrupt(signum: int, frame: Any) -> None:
    """SIGTERM stops a run in the background as Ctrl-C does."""
    raise KeyboardInterrupt


def run(
    todo: list[Job],
    keys: dict[str, str],
    names: dict[str, str],
    setting: dict[str, Any],
    args: argparse.Namespace,
    console: Console,
) -> None:
    """Play ``todo`` on ``args.processes`` processes, logging each game as it ends; Ctrl-C or SIGTERM stops."""
    if not todo:
        return
    console.print(f"{len(todo)} games to play at {args.time_ms:g} ms a move, {args.processes} at a time")
    signal.signal(signal.SIGTERM, interrupt)
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(args.processes)
    try:
        for game in pool.imap_unordered(play, todo):
            side = game.pop("side")
            line = {"weights": keys[side], "file": names[side], **setting, **game}
            record(GAMES_LOG, line, args.results, root=checkout_root(Path(__file__)))
            console.print(
                f"{side.upper()} ({names[side]}), seed {game['seed']}: {game['score']:,} points, "
                f"{game['max_tile']}, {game['moves']:,} moves, {game['ms_per_move']:.1f} ms a move"
            )
    except KeyboardInterrupt:
        console.print("stopped: the games in flight are not logged")
        pool.terminate()
    else:
        pool.close()
    finally:
        with contextlib.suppress(Exception):
            pool.join()


if __name__ == "__main__":
    main()
