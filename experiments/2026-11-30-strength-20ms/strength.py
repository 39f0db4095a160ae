"""Expectimax strength: seeded games at a time budget per move, with the reach of each big tile.

Plays N games (seeds S, S+1, ...) with a time budget per move on every core, says how each
game goes on stderr, then prints the results table of ``plyground 2048 ai`` and the targets,
and ends with one JSON line. A long run can go to the background:

    nohup python experiments/2026-11-30-strength-20ms/strength.py --games 10 > strength.log &

    python experiments/2026-11-30-strength-20ms/strength.py [--games 10] [--time-ms 20] [--seed 1] [--workers N]
                                  [--rows 4 --cols 4] [--save DIR]
                                  [--evaluator heuristic|ntuple:FILE]

``--evaluator ntuple:FILE`` values the leaves by a trained n-tuple network instead of the
heuristic (the search then adds the points scored on the way; see ``expectimax``).

Targets (4x4 at 20 ms per move): every game reaches 4096, at least 90% reach 8192, at least
50% reach 16384. Ctrl-C, or ``kill`` (SIGTERM) for a run in the background, stops early and
reports the games finished so far.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from plyground.apps.aiview import summary_view
from plyground.core.measurements import add_record_options, print_json
from plyground.errors import PlygroundError
from plyground.g2048 import Decision
from plyground.g2048.autoplay import GameResult, Summary, play_game, summarize
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.registry import load_evaluator
from plyground.g2048.state import State

TARGETS = ((4096, 1.0), (8192, 0.9), (16384, 0.5))
"""(tile, share of games that must reach it), at the target settings below."""
TARGET_TIME_MS, TARGET_SIZE = 20.0, (4, 4)
PROGRESS_EVERY = 1000
"""Say how a game goes every this many moves."""


def stop(signum: int, frame: object) -> None:
    """On SIGTERM, stop as on Ctrl-C, so a run in the background still reports its games."""
    raise KeyboardInterrupt


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def check_targets(summary: Summary) -> dict[str, bool]:
    """Whether each target share is met: ``{"reach_4096>=100%": True, ...}``.

    A board too small to hold a tile reaches it in no game (its summary has no share for it).
    """
    return {f"reach_{tile}>={share:.0%}": reached(summary, tile) >= share for tile, share in TARGETS}


def reached(summary: Summary, tile: int) -> float:
    """The share of games reaching ``tile``: 0 when the board cannot hold it."""
    return summary.reach.get(tile, 0.0)


def result_json(result: GameResult) -> dict[str, Any]:
    return {
        "seed": result.seed,
        "score": result.score,
        "max_tile": result.max_tile,
        "moves": result.moves,
        "seconds": round(result.seconds, 3),
        "mean_depth": round(result.mean_depth, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time-ms", type=float, default=TARGET_TIME_MS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="search threads (default: every core)")
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--save", type=Path, default=None, help="folder for the replays")
    parser.add_argument(
        "--evaluator", default="heuristic", help="heuristic (default) or ntuple:FILE, a trained n-tuple network"
    )
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, stop)

    settings = f"{args.rows}x{args.cols}, {args.time_ms:g} ms/move"
    if args.evaluator != "heuristic":
        settings += f", {args.evaluator}"
    results: list[GameResult] = []
    interrupted = False
    try:
        ai = Expectimax(time_ms=args.time_ms, workers=args.workers, evaluator=load_evaluator(args.evaluator))
    except PlygroundError as exc:
        log(f"error: {exc}")
        return 2
    with ai:
        log(f"strength: {args.games} games of 2048 {settings}, {ai.workers} workers, seeds from {args.seed}")

        def on_move(game: State, decision: Decision) -> None:
            if game.move_count % PROGRESS_EVERY == 0:
                log(
                    f"  seed {game.seed}: {game.move_count:,} moves, score {game.score:,}, "
                    f"max tile {game.board.max_tile()}, depth {decision.depth}"
                )

        try:
            for i in range(args.games):
                seed = args.seed + i
                result = play_game(ai, rows=args.rows, cols=args.cols, seed=seed, on_move=on_move)
                results.append(result)
                if args.save is not None:
                    result.replay.save(args.save / f"2048-{args.rows}x{args.cols}-seed{seed}.json")
                log(
                    f"game {i + 1}/{args.games} seed {seed}: score {result.score:,}, max tile {result.max_tile}, "
                    f"{result.moves:,} moves, {result.seconds:.1f} s, mean depth {result.mean_depth:.2f}"
                )
        except KeyboardInterrupt:
            interrupted = True
            log(f"interrupted: {len(results)} of {args.games} games finished")
    if not results:
        return 130

    summary = summarize(results)
    console = Console()
    console.print(summary_view(summary, title=f"2048 expectimax strength, {settings}"))
    targets = check_targets(summary)
    at_target = args.time_ms == TARGET_TIME_MS and (args.rows, args.cols) == TARGET_SIZE
    at_target = at_target and args.evaluator == "heuristic"
    where = "" if at_target else f" (set for 4x4 at {TARGET_TIME_MS:g} ms; this run is {settings})"
    console.print(f"targets{where}:")
    for (tile, share), met in zip(TARGETS, targets.values(), strict=True):
        console.print(
            f"  reach {tile} in >= {share:.0%} of games: {reached(summary, tile):.0%}  {'ok' if met else 'MISSED'}"
        )
    print_json(
        "strength",
        {
            "rows": args.rows,
            "cols": args.cols,
            "time_ms": args.time_ms,
            "evaluator": args.evaluator,
            "workers": ai.workers,
            "games": summary.games,
            "interrupted": interrupted,
            "results": [result_json(result) for result in results],
            "mean_score": summary.mean_score,
            "mean_score_95": list(summary.interval) if summary.interval is not None else None,
            "median_score": summary.median_score,
            "reach": {str(tile): share for tile, share in summary.reach.items()},
            "targets": targets,
            "targets_met": at_target and all(targets.values()),
        },
        args,
    )
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
