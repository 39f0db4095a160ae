"""Do endgame tables help the 4×4 AI when their moves are taken as they come? Paired games with and without.

Each seed plays two games at ``--time-ms`` per move with the network shipped with plyground:
one where every board a table of ``--tables`` advises on is played by the table's move,
unsearched (the goal cell next to a frozen tile of the table's target, some move still able
to build it), and one that searches every move; the two games of a seed alternate, so that
the machine's load falls on both alike. Prints each pair and the summaries, and records one
line.

    python experiments/2026-12-07-endgame-tables-blind/tables_blind.py --tables DIR [--games 10] [--time-ms 2]
        [--seed 1] [--max-moves N]

``DIR`` holds tables built with ``plyground 2048 tablebase build`` (see this folder's README).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.g2048.autoplay import GameResult, play_game, summarize
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.registry import load_evaluator
from plyground.g2048.tablebase import Advisor, table_name


def _side(results: list[GameResult]) -> dict[str, object]:
    summary = summarize(results)
    return {
        "mean_score": summary.mean_score,
        "interval": list(summary.interval) if summary.interval is not None else None,
        "reach": {str(tile): share for tile, share in summary.reach.items()},
        "games": [
            {"seed": r.seed, "score": r.score, "max_tile": r.max_tile, "moves": r.moves, "table_moves": r.table_moves}
            for r in results
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=Path, required=True, help="the folder of the endgame tables")
    parser.add_argument("--games", type=int, default=10, help="seeds, each played with and without the tables")
    parser.add_argument("--time-ms", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, help="end each game after this many moves (a quick check)")
    add_record_options(parser, Path(__file__), folder=".")
    args = parser.parse_args()

    advisor = Advisor.load(args.tables, p_four=0.1)
    names = [table_name(table.formation, table.target, table.p_four) for table in advisor.tables]
    console = Console()
    console.print(f"{len(names)} tables: {', '.join(names)}")
    sides: dict[str, list[GameResult]] = {"with": [], "without": []}
    view = Table(title=f"4x4, network, {args.time_ms:g} ms a move: the same seed with the tables' moves and without")
    for name in ("seed", "score with", "score without", "tile with", "tile without", "table moves"):
        view.add_column(name, justify="right")
    with Expectimax(time_ms=args.time_ms, evaluator=load_evaluator("network")) as ai:
        for seed in range(args.seed, args.seed + args.games):
            played = play_game(ai, seed=seed, tablebases=advisor, max_moves=args.max_moves)
            alone = play_game(ai, seed=seed, max_moves=args.max_moves)
            sides["with"].append(played)
            sides["without"].append(alone)
            view.add_row(str(seed), f"{played.score:,}", f"{alone.score:,}", str(played.max_tile), str(alone.max_tile),
                         f"{played.table_moves:,} of {played.moves:,}")  # fmt: skip
    console.print(view)
    body = {
        "tables": names,
        "time_ms": args.time_ms,
        "games": args.games,
        "seed": args.seed,
        "max_moves": args.max_moves,
    }
    print_json("tables_blind", {**body, **{side: _side(results) for side, results in sides.items()}}, args)


if __name__ == "__main__":
    main()
