"""The AI's distance from optimal play, measured exactly on boards the solver has solved.

Plays seeded games with the expectimax AI and with a random player on each solved size
(solving it first if needed: 3x3 takes a minute or two), and at every move looks up the
exact value of each legal move. Reports:

* the mean score, its 95% interval, and that mean as a fraction of the optimal expected
  score (the solver's value of the random start);
* the mean per-move regret: the optimal move's value minus the chosen move's value;
* the mean regret summed over a game, which estimates the optimal expected score minus the
  player's own expected score exactly (the regrets along a game add up to that gap in
  expectation), so ``1 - regret per game / optimal`` is a second, steadier estimate of the
  fraction;
* the share of moves that were optimal.

    python experiments/2026-11-30-regret/regret.py [--sizes 3x3 2x4] [--games 100] [--depth D | --time-ms T] [--dir DIR]

The AI searches at its depth policy unless --depth or --time-ms says otherwise.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.core.stats import mean_half_width
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.regret import play_judged, random_player, search_player
from plyground.g2048.solution import default_directory
from plyground.g2048.solver import solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["3x3", "2x4"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int)
    parser.add_argument("--time-ms", type=float)
    parser.add_argument("--dir", type=Path, help="folder of the solutions (one sub-folder per size)")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()

    console = Console(width=160)
    rows_out = []
    with Expectimax(depth=args.depth, time_ms=args.time_ms, workers=1) as ai:
        for size in args.sizes:
            rows, cols = (int(n) for n in size.split("x"))
            folder = args.dir / size if args.dir else default_directory(rows, cols)
            if not (folder / "solution.json").exists():
                console.print(f"solving {size} into {folder} ...")
            solution = solve(rows, cols, directory=folder)
            optimal = solution.expected_score()
            for name, make in (("expectimax", lambda seed: search_player(ai)), ("random", random_player)):
                games = []
                start = time.perf_counter()
                with Progress(console=console, transient=True) as progress:
                    task = progress.add_task(f"{size} {name}", total=args.games)
                    for i in range(args.games):
                        games.append(play_judged(solution, make(args.seed + i), seed=args.seed + i))
                        progress.advance(task)
                scores = [g.score for g in games]
                regrets = [g.regret for g in games]
                moves = sum(g.moves for g in games)
                rows_out.append(
                    {
                        "size": size,
                        "player": name,
                        "games": args.games,
                        "optimal_expected_score": optimal,
                        "mean_score": statistics.fmean(scores),
                        "score_ci95": mean_half_width(scores),
                        "fraction_by_score": statistics.fmean(scores) / optimal,
                        "regret_per_game": statistics.fmean(regrets),
                        "regret_per_game_ci95": mean_half_width(regrets),
                        "fraction_by_regret": 1.0 - statistics.fmean(regrets) / optimal,
                        "regret_per_move": sum(regrets) / moves,
                        "optimal_move_share": sum(g.optimal_moves for g in games) / moves,
                        "seconds": time.perf_counter() - start,
                    }
                )

    budget = f"depth {args.depth}" if args.depth else f"{args.time_ms:g} ms/move" if args.time_ms else "depth policy"
    table = Table(title=f"distance from optimal play, {args.games} seeded games each (expectimax: {budget})")
    for name in ("size", "player", "optimal E\\[score]", "mean score (95%)", "score / optimal"):
        table.add_column(name, justify="right")
    for name in ("regret per game (95%)", "1 - regret/optimal", "regret per move", "optimal moves"):
        table.add_column(name, justify="right")
    for row in rows_out:
        table.add_row(
            row["size"],
            row["player"],
            f"{row['optimal_expected_score']:,.1f}",
            f"{row['mean_score']:,.1f} ± {row['score_ci95']:,.1f}",
            f"{row['fraction_by_score']:.3f}",
            f"{row['regret_per_game']:,.1f} ± {row['regret_per_game_ci95']:,.1f}",
            f"{row['fraction_by_regret']:.4f}",
            f"{row['regret_per_move']:.3f}",
            f"{row['optimal_move_share']:.1%}",
        )
    console.print(table)
    print_json("regret", {"rows": rows_out}, args)


if __name__ == "__main__":
    main()
