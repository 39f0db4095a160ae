"""Expectimax on a busy machine: the default workers against one, with busy processes running beside them.

Starts ``--busy`` processes that spin on a core each (default 2: on a 2-core machine, as a
laptop with a build and a browser running), then compares the default workers (every core, at
most 4) with one at each budget of ``--time-ms``, in two ways:

* **depth**: ``--positions`` positions of one game (the evaluator's game at depth 2 from seed
  0, spread evenly over it; ``--source-time-ms MS`` and ``--source-seed N``: a game of one worker
  at MS a move from seed N, played idle first, longer and with bigger tiles) searched by both,
  position by position (each side first on every other one), so that both meet the same boards
  under the same load: the mean completed depth (the depth searched for every legal move,
  ``Decision.depth``), the share of moves at depth 1,
  "deeper" (the moves whose search out of time had also finished the best moves one depth more)
  and the mean time a move; and the mean of the paired differences of depth, position by
  position, with its 95% interval; and how good the moves are: each position's moves valued
  first, with the machine idle, by a search of ``--reference-depth`` (6; 0: none), each side's
  *regret* is what its move loses against that search's best (0 when it plays it), with the
  share of the best moves it played and the paired difference of regret with its 95% interval:
  the strength of the moves on the same boards, far less noisy than whole games;
* **games**: ``--games`` paired games (the same seeds), alternately, one game at a time: each
  game's score, largest tile, moves, time a move and mean depth (a game's depth depends on
  the boards it meets, so the depth above is the paired one).

``--busy 0`` does the same on an otherwise idle machine; ``--same`` gives both sides one worker,
so that the two sides differ by chance alone: the comparison's own spread (the side named
"default" is then one worker too).

    python experiments/2026-12-06-expectimax-on-a-busy-machine/busy.py [--games 20] [--positions 300] [--time-ms 10 20]
        [--busy 2]
                              [--evaluator heuristic] [--max-moves N] [--seed 1] [--log FILE] [--same]
                              [--reference-depth 6] [--source-time-ms MS] [--source-seed N]

``--log FILE`` appends each finished game as a JSON line (and skips the games it already holds:
a stopped run goes on where it was). Target: the default at least as deep and as strong as one
worker, loaded (no more regret, no lower scores). The two-core speed-up without load is ``benchmarks/search.py``'s.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json, start_busy
from plyground.core.stats import mean_interval
from plyground.g2048 import Board, Expectimax, Game
from plyground.g2048.autoplay import play_game
from plyground.g2048.expectimax import Decision
from plyground.g2048.registry import load_evaluator
from plyground.g2048.state import State

SIDES = {"default": None, "one worker": 1}
"""The two sides: their names and ``workers`` (None: Expectimax's default)."""


def play(side: str, time_ms: float, seed: int, evaluator: str, max_moves: int | None) -> dict[str, Any]:
    """One game of ``side`` at ``time_ms`` a move."""
    depths: list[int] = []
    deeper = 0

    def on_move(game: State, decision: Decision) -> None:
        nonlocal deeper
        depths.append(decision.depth)
        move_depths = getattr(decision, "move_depths", {})  # absent before 2026-12-06: run beside older code too
        deeper += max(move_depths.values(), default=0) > decision.depth

    with Expectimax(time_ms=time_ms, workers=SIDES[side], evaluator=load_evaluator(evaluator, reuse=True)) as ai:
        ai.choose(Game(seed=seed).board)  # tables and kernels ready before the clock counts
        result = play_game(ai, seed=seed, max_moves=max_moves, on_move=on_move)
    return {
        "side": side,
        "time_ms": time_ms,
        "seed": seed,
        "score": result.score,
        "max_tile": result.max_tile,
        "moves": result.moves,
        "ms_a_move": 1000 * result.seconds / max(1, result.moves),
        "mean_depth": statistics.fmean(depths) if depths else 0.0,
        "depth_1_share": depths.count(1) / len(depths) if depths else 0.0,
        "deeper_share": deeper / len(depths) if depths else 0.0,
    }


def positions(evaluator: str, count: int, seed: int = 0, time_ms: float | None = None) -> list[Board]:
    """``count`` positions spread evenly over a game of ``evaluator`` from ``seed``: at depth 2, or with one worker
    at ``time_ms`` a move (a longer game, with the late positions of the big tiles)."""
    depth = 2 if time_ms is None else None
    with Expectimax(time_ms=time_ms, depth=depth, workers=1, evaluator=load_evaluator(evaluator, reuse=True)) as ai:
        boards: list[Board] = []
        play_game(ai, seed=seed, on_move=lambda game, decision: boards.append(game.board))
    live = [board for board in boards if board.legal_moves()]
    step = max(1, len(live) // count)
    return live[::step][:count]


def depths(
    boards: list[Board], time_ms: float, evaluator: str, references: list[dict[str, float]] | None = None
) -> dict[str, Any]:
    """Both sides' searches of ``boards`` at ``time_ms``, a board at a time by each in turn.

    With ``references`` (each board's move values by a deeper search, :func:`reference_values`), also each
    side's *regret*: what its move lost against the reference's best, a position's mean (0 where it played the
    reference's move), its share of the reference's moves, and the paired difference of regret.
    """
    seen: dict[str, list[Decision]] = {side: [] for side in SIDES}
    leaves = load_evaluator(evaluator, reuse=True)
    ais = {side: Expectimax(time_ms=time_ms, workers=workers, evaluator=leaves) for side, workers in SIDES.items()}
    for ai in ais.values():
        ai.choose(boards[0])  # tables and kernels ready
    for index, board in enumerate(boards):
        order = list(ais) if index % 2 == 0 else list(reversed(ais))  # each side first on half the positions
        for side in order:
            seen[side].append(ais[side].choose(board))
    for ai in ais.values():
        ai.close()
    result: dict[str, Any] = {}
    differences = [a.depth - b.depth for a, b in zip(seen["default"], seen["one worker"], strict=True)]
    result["depth_difference"] = statistics.fmean(differences)
    result["depth_difference_95"] = mean_interval(differences)
    for side, decisions in seen.items():
        deeper = [max(getattr(d, "move_depths", {}).values(), default=0) > d.depth for d in decisions]
        result[side] = {
            "positions": len(decisions),
            "mean_depth": statistics.fmean(d.depth for d in decisions),
            "depth_1_share": sum(d.depth == 1 for d in decisions) / len(decisions),
            "deeper_share": sum(deeper) / len(decisions),
            "ms_a_move": 1000 * statistics.fmean(d.seconds for d in decisions),
        }
    if references is not None:
        lost = {side: [regret(r, d.move) for r, d in zip(references, seen[side], strict=True)] for side in seen}
        for side, regrets in lost.items():
            result[side]["mean_regret"] = statistics.fmean(regrets)
            result[side]["best_share"] = sum(r == 0.0 for r in regrets) / len(regrets)
        paired = [a - b for a, b in zip(lost["default"], lost["one worker"], strict=True)]
        result["regret_difference"] = statistics.fmean(paired)
        result["regret_difference_95"] = mean_interval(paired)
    return result


def reference_values(boards: list[Board], evaluator: str, depth: int) -> list[dict[str, float]]:
    """Each board's move values by a search of ``depth`` with one worker: what the two sides' moves are judged by."""
    with Expectimax(depth=depth, workers=1, evaluator=load_evaluator(evaluator, reuse=True)) as ai:
        return [ai.choose(board).values for board in boards]


def regret(values: dict[str, float], move: str | None) -> float:
    """What ``move`` loses against the best move of ``values`` (0 for the best)."""
    return max(values.values()) - values[move] if move is not None else math.inf


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """One side's games at one budget, summed up."""
    scores = [g["score"] for g in games]
    moves = sum(g["moves"] for g in games)
    return {
        "games": len(games),
        "mean_score": statistics.fmean(scores),
        "median_score": statistics.median(scores),
        "reach_2048": sum(g["max_tile"] >= 2048 for g in games) / len(games),
        "mean_depth": sum(g["mean_depth"] * g["moves"] for g in games) / moves,
        "depth_1_share": sum(g["depth_1_share"] * g["moves"] for g in games) / moves,
        "deeper_share": sum(g["deeper_share"] * g["moves"] for g in games) / moves,
        "ms_a_move": sum(g["ms_a_move"] * g["moves"] for g in games) / moves,
    }


def read_log(path: Path | None) -> list[dict[str, Any]]:
    if path is None or not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="paired games a budget (0: none)")
    parser.add_argument("--positions", type=int, default=300, help="positions searched by both, a budget")
    parser.add_argument("--time-ms", type=float, nargs="+", default=[10.0, 20.0])
    parser.add_argument("--busy", type=int, default=2, help="spinning processes beside the games")
    parser.add_argument("--evaluator", default="heuristic", help="heuristic, network or ntuple:PATH")
    parser.add_argument("--max-moves", type=int, default=None, help="stop each game after this many moves")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--log", type=Path, help="append each game here as a JSON line; resume from it")
    parser.add_argument("--source-seed", type=int, default=0, help="the seed of the game the positions come from")
    parser.add_argument(
        "--source-time-ms",
        type=float,
        metavar="MS",
        help="take the positions from a game of one worker at MS a move, idle (default: a game at depth 2)",
    )
    parser.add_argument(
        "--reference-depth",
        type=int,
        default=6,
        metavar="DEPTH",
        help="judge the moves on the positions by a search of this depth, run idle (0: not at all)",
    )
    parser.add_argument(
        "--same", action="store_true", help="both sides with one worker: the spread of the comparison itself"
    )
    add_record_options(parser, Path(__file__), folder="../../benchmarks/results")  # the README cites its lines
    args = parser.parse_args()
    if args.games < 0 or args.positions < 1 or args.busy < 0 or any(not 0 < t < 1e6 for t in args.time_ms):
        parser.error("--games is at least 0, --positions at least 1, --busy at least 0, and budgets are positive")
    if args.max_moves is not None and args.max_moves < 1:
        parser.error("--max-moves is at least 1")
    if not 0 <= args.reference_depth <= 12:
        parser.error("--reference-depth goes from 0 (none) to 12")
    if args.source_seed < 0 or (args.source_time_ms is not None and not 0 < args.source_time_ms < 1e6):
        parser.error("--source-seed is at least 0 and --source-time-ms positive")

    if args.same:
        SIDES["default"] = 1  # an A/A comparison: what differs between two runs of the same search
    done = read_log(args.log)
    console = Console(stderr=True)
    boards = positions(args.evaluator, args.positions, args.source_seed, args.source_time_ms)
    references = None
    if args.reference_depth:
        references = reference_values(boards, args.evaluator, args.reference_depth)  # before the load starts
    start_busy(args.busy)
    searched = {}
    for time_ms in args.time_ms:
        searched[time_ms] = depths(boards, time_ms, args.evaluator, references)
        console.print(
            f"{time_ms:g} ms, {len(boards)} positions: mean depth "
            + ", ".join(f"{side} {searched[time_ms][side]['mean_depth']:.3f}" for side in SIDES)
        )
    games = list(done)
    for time_ms in args.time_ms:
        for seed in range(args.seed, args.seed + args.games):
            for side in SIDES:
                if any(g["side"] == side and g["time_ms"] == time_ms and g["seed"] == seed for g in done):
                    continue
                game = play(side, time_ms, seed, args.evaluator, args.max_moves)
                games.append(game)
                console.print(
                    f"{side} {time_ms:g} ms seed {seed}: {game['score']:,} ({game['max_tile']}), "
                    f"{game['moves']:,} moves, mean depth {game['mean_depth']:.2f}"
                )
                if args.log is not None:
                    with open(args.log, "a", encoding="utf-8") as handle:
                        handle.write(json.dumps(game) + "\n")

    rows = []
    title = f"{args.evaluator}, {args.busy} busy processes, {os.cpu_count()} cores: default against one worker"
    depth_table = Table(title=f"{title}, the same {len(boards)} positions")
    for name in ("ms", "side", "mean depth", "depth 1", "deeper", "ms a move", "regret", "best move"):
        depth_table.add_column(name, justify="right")
    for time_ms, by_side in searched.items():
        for side in SIDES:
            r = by_side[side]
            depth_table.add_row(
                f"{time_ms:g}", side, f"{r['mean_depth']:.3f}", f"{r['depth_1_share']:.1%}",
                f"{r['deeper_share']:.1%}", f"{r['ms_a_move']:.2f}",
                f"{r['mean_regret']:.3f}" if "mean_regret" in r else "-",
                f"{r['best_share']:.1%}" if "best_share" in r else "-",
            )  # fmt: skip
    Console().print(depth_table)
    table = Table(title=f"{title}, {args.games} paired games")
    for name in ("ms", "side", "games", "mean depth", "depth 1", "deeper", "ms a move", "mean", "median", "2048"):
        table.add_column(name, justify="right")
    for time_ms in args.time_ms:
        seeds = range(args.seed, args.seed + args.games)
        chosen = {
            side: [g for g in games if g["side"] == side and g["time_ms"] == time_ms and g["seed"] in seeds]
            for side in SIDES
        }
        row: dict[str, Any] = {"time_ms": time_ms, "positions": searched[time_ms]}
        row["positions_depth_ratio"] = (
            searched[time_ms]["default"]["mean_depth"] / searched[time_ms]["one worker"]["mean_depth"]
        )
        if not chosen["default"] or not chosen["one worker"]:
            rows.append(row)
            continue
        for side, side_games in chosen.items():
            s = summary(side_games)
            row[side] = s
            table.add_row(
                f"{time_ms:g}", side, str(s["games"]), f"{s['mean_depth']:.2f}", f"{s['depth_1_share']:.1%}",
                f"{s['deeper_share']:.1%}", f"{s['ms_a_move']:.1f}", f"{s['mean_score']:,.0f}",
                f"{s['median_score']:,.0f}", f"{s['reach_2048']:.0%}",
            )  # fmt: skip
        by_seed = {g["seed"]: g["score"] for g in chosen["one worker"]}
        differences = [g["score"] - by_seed[g["seed"]] for g in chosen["default"] if g["seed"] in by_seed]
        row["score_difference"] = statistics.fmean(differences) if differences else None
        row["score_difference_95"] = mean_interval(differences)
        row["depth_ratio"] = row["default"]["mean_depth"] / row["one worker"]["mean_depth"]
        rows.append(row)
    if args.games:
        Console().print(table)
    for row in rows:
        line = f"{row['time_ms']:g} ms: default / one worker, mean depth on the same positions "
        line += f"{row['positions_depth_ratio']:.3f}"
        low, high = row["positions"]["depth_difference_95"] or (math.nan, math.nan)
        line += f" (default - one worker: {row['positions']['depth_difference']:+.3f}, 95%: {low:+.3f} to {high:+.3f})"
        if "regret_difference" in row["positions"]:
            low, high = row["positions"]["regret_difference_95"] or (math.nan, math.nan)
            line += f"; regret, default - one worker: {row['positions']['regret_difference']:+.3f}"
            line += f" (95%: {low:+.3f} to {high:+.3f})"
        if "score_difference" in row:
            interval = row["score_difference_95"]
            spread = f" (95%: {interval[0]:+,.0f} to {interval[1]:+,.0f})" if interval else ""
            line += f"; in games, mean depth {row['depth_ratio']:.3f}, "
            line += f"score difference {row['score_difference']:+,.0f}{spread}"
        print(line)
    print_json(
        "busy",
        {
            "evaluator": args.evaluator,
            "same": args.same,
            "busy": args.busy,
            "games": args.games,
            "positions": len(boards),
            "seed": args.seed,
            "max_moves": args.max_moves,
            "reference_depth": args.reference_depth,
            "source_seed": args.source_seed,
            "source_time_ms": args.source_time_ms,
            "largest_tile": max(board.max_tile() for board in boards),
            "rows": rows,
        },
        args,
    )


if __name__ == "__main__":
    main()
