"""Expectimax with a trained n-tuple network against the hand-tuned heuristic, side by side, at a time per move.

Plays the same seeded 4×4 games (seeds S, S+1, ...) with both evaluators at ``--time-ms``
per move, one search thread per game and ``--workers`` games at once (default 2: one per
core), the jobs interleaved (heuristic game 1, network game 1, heuristic game 2, ...) so
that both meet the same conditions. Every finished game is appended at once to ``--log``
(one JSON line); run the same command again to go on after a crash or Ctrl-C: the games
in the log are not played again. Prints, for each evaluator, the mean score with its 95%
interval, the median, and the share of games reaching 4096 to 32768 with 95% (Wilson)
intervals; then the paired difference of scores (network − heuristic) with its 95%
interval; ends with one JSON line.

    python experiments/2026-11-30-ntuple-under-expectimax/ntuple_expectimax.py --network RUN/network.npz [--games 20]
        [--time-ms 20]
                                           [--seed 1] [--workers 2] [--log FILE] [--rows 4 --cols 4]

``--rows`` and ``--cols`` play on another board (with a network trained on that board), for
example 2×3 for a quick check that everything works.

A 4×4 game at 20 ms per move lasts one to several minutes (a move per 20 ms, thousands of
moves), so 20 games of each take about an hour on two cores: run it in the background.

Targets (4×4 at 20 ms per move, on a network trained for at most 2 hours): at least 95%
of the network's games reach 8192 and at least 60% reach 16384, and it beats the heuristic.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.core import stats
from plyground.core.measurements import add_record_options, append_line, print_json, read_settings_log
from plyground.core.run_many import Backend, run_many
from plyground.errors import PlygroundError
from plyground.g2048.autoplay import GameResult, GameSpec, play_spec

EVALUATORS = ("heuristic", "network")
TILES = (4096, 8192, 16384, 32768)
TARGETS = ((8192, 0.95), (16384, 0.60))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (Student's t; the mean twice for one value)."""
    mean = statistics.fmean(values)
    low, high = stats.mean_interval(values) or (mean, mean)
    return mean, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--network", type=Path, required=True, help="a network file from 'plyground 2048 learn', of the board played"
    )
    parser.add_argument("--games", type=int, default=20, help="games of each evaluator")
    parser.add_argument("--time-ms", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="games at once, one search thread each")
    parser.add_argument("--log", type=Path, default=Path("ntuple_expectimax.jsonl"), help="finished games (resumable)")
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--cols", type=int, default=4)
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()
    if not args.network.is_file():
        raise SystemExit(f"no network file {args.network}")

    network = f"ntuple:{args.network}"
    stat = args.network.stat()
    settings: dict[str, Any] = {
        "network": str(args.network.resolve()),
        "network_bytes": stat.st_size,
        "time_ms": args.time_ms,
    }
    size = {} if (args.rows, args.cols) == (4, 4) else {"rows": args.rows, "cols": args.cols}
    settings.update(size)  # a log of 4x4 games has no size (as before there was a choice)
    try:
        done = read_settings_log(args.log, settings, "evaluator")
    except PlygroundError as error:
        raise SystemExit(f"error: {error}") from None
    seeds = range(args.seed, args.seed + args.games)
    todo = [(name, seed) for seed in seeds for name in EVALUATORS if (name, seed) not in done]
    console = Console(stderr=True)
    console.print(f"{len(done)} games in {args.log}; {len(todo)} to play at {args.time_ms:g} ms per move")

    def spec(name: str, seed: int) -> GameSpec:
        return GameSpec(
            seed=seed,
            rows=args.rows,
            cols=args.cols,
            time_ms=args.time_ms,
            evaluator=network if name == "network" else None,
        )

    def finished(index: int, result: GameResult) -> None:
        name, seed = todo[index]
        entry = {
            "settings": settings,
            "evaluator": name,
            "seed": seed,
            "score": result.score,
            "max_tile": result.max_tile,
            "moves": result.moves,
            "seconds": round(result.seconds, 2),
        }
        append_line(args.log, entry)
        done[(name, seed)] = entry
        console.print(
            f"{name:>9} seed {seed}: score {result.score:,}, max tile {result.max_tile}, {result.moves:,} moves"
        )

    if todo:
        try:
            run_many(play_spec, [spec(*job) for job in todo], backend=Backend(workers=args.workers), on_result=finished)
        except KeyboardInterrupt:
            console.print("stopped: the finished games are in the log; run the same command to go on")
            sys.exit(130)
        except PlygroundError as exc:  # a network of another board, a file that is no network, ...
            print(f"error: {exc}", file=sys.stderr)
            sys.exit(2)

    board = f"{args.rows}x{args.cols}"
    table = Table(title=f"{board} expectimax at {args.time_ms:g} ms per move, same seeds {args.seed}..{seeds[-1]}")
    for column in ("evaluator", "games", "mean score (95%)", "median", *(f"{tile}" for tile in TILES)):
        table.add_column(column, justify="right")
    report: dict[str, Any] = {"time_ms": args.time_ms, "network": str(args.network), "first_seed": args.seed, **size}
    scores: dict[str, list[float]] = {}
    for name in EVALUATORS:
        games = [done[(name, seed)] for seed in seeds if (name, seed) in done]
        scores[name] = [float(g["score"]) for g in games]
        if not games:
            continue
        mean, low, high = mean_interval(scores[name])
        cells = []
        reach: dict[str, Any] = {}
        for tile in TILES:
            hits = sum(g["max_tile"] >= tile for g in games)
            lo, hi = stats.share_interval(hits, len(games)) or (0.0, 1.0)
            cells.append(f"{hits / len(games):.0%} ({lo:.0%}-{hi:.0%})")
            reach[str(tile)] = {"share": hits / len(games), "interval": [lo, hi]}
        median = statistics.median(scores[name])
        table.add_row(name, str(len(games)), f"{mean:,.0f} ({low:,.0f}-{high:,.0f})", f"{median:,.0f}", *cells)
        report[name] = {"games": len(games), "mean": mean, "interval": [low, high], "median": median, "reach": reach}
    Console(width=max(140, Console().width)).print(table)
    paired = [
        float(done[("network", s)]["score"] - done[("heuristic", s)]["score"])
        for s in seeds
        if ("network", s) in done and ("heuristic", s) in done
    ]
    if paired:
        mean, low, high = mean_interval(paired)
        print(f"network - heuristic on the same seeds: {mean:+,.0f} (95% interval {low:+,.0f} to {high:+,.0f})")
        report["paired_difference"] = {"games": len(paired), "mean": mean, "interval": [low, high]}
    if "network" in report:
        for tile, share in TARGETS:
            got = report["network"]["reach"][str(tile)]["share"]
            verdict = "met" if got >= share else "NOT met"
            print(f"target: the network reaches {tile} in >= {share:.0%} of the games: {got:.0%}, {verdict}")
    print_json("ntuple_expectimax", report, args)


if __name__ == "__main__":
    main()
