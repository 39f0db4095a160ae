"""Where a 2048 game went wrong: its last moves searched again, deeper, and the moves that cost the most.

    python benchmarks/replay_review.py REPLAY [--last 300] [--depth 6] [--evaluator network] [--no-downgrade]
                                       [--top 10]

REPLAY is a ``plyground 2048`` replay: ``--save`` of ``bench``, or a game of ``versus_nneonneo.py``, which
keeps the replay of every finished game in ``--saved``/replays (nneonneo's games through its library too).
Each position of its last ``--last`` moves is searched to the fixed ``--depth`` by ``--evaluator`` (one
worker, the default cut-off; a network downgrades boards from 16384 as ``plyground 2048 ai`` plays, unless
``--no-downgrade``). A move's *cost* is the best move's value less the played move's, in the search's units:
points to come with a network, heuristic units with the heuristic. A game that ends early lost its way where
the costs are: the table gives the ``--top`` costliest moves (move number, empty cells, largest tile, the move
played and the one searched best, the cost), then how many of the moves reviewed the search would have played
otherwise, and the costs' sum. The JSON line holds the same.

The positions are rebuilt from the replay as it is read (the last ``--last`` kept, whatever the game's
length), and every move of the replay is checked as it is played (a damaged replay is refused in one line).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from _common import add_record_options, print_json
from _versus_play import evaluator_label, player_evaluator
from plyground.errors import PlygroundError


def reviewed_positions(replay: Any, last: int) -> list[tuple[int, Any, str]]:
    """The last ``last`` positions of ``replay`` that a move was played from: (move number from 1, board, move)."""
    boards: collections.deque[Any] = collections.deque(maxlen=last + 1)
    replay.play(on_step=lambda game: boards.append(game.board))
    first = len(replay.moves) - (len(boards) - 1)
    return [(first + i + 1, boards[i], replay.moves[first + i][0]) for i in range(len(boards) - 1)]


def review(positions: list[tuple[int, Any, str]], ai: Any, on_position: Any = None) -> list[dict[str, Any]]:
    """Each position searched by ``ai``: its move number, empty cells, largest tile, the moves played and
    searched best, and the played move's cost (the best value less its own)."""
    rows = []
    for number, board, played in positions:
        decision = ai.choose(board)
        values = decision.values
        rows.append({
            "move": number,
            "empty": len(board.empty_cells()),
            "max_tile": board.max_tile(),
            "played": played,
            "best": decision.move,
            "cost": max(values.values()) - values[played],
        })  # fmt: skip
        if on_position is not None:
            on_position()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("replay", type=Path, metavar="REPLAY", help="a plyground 2048 replay (JSON)")
    parser.add_argument("--last", type=int, default=300, help="review the last N moves (default 300)")
    parser.add_argument("--depth", type=int, default=6, help="search each position this deep (default 6)")
    parser.add_argument("--evaluator", default="network", help="network (default), heuristic or ntuple:PATH")
    parser.add_argument(
        "--no-downgrade", dest="downgrade", action="store_false", help="a network searches boards as they are"
    )
    parser.add_argument("--top", type=int, default=10, help="list the N costliest moves (default 10)")
    add_record_options(parser)
    args = parser.parse_args()
    if not 1 <= args.last <= 1_000_000:
        parser.error("--last goes from 1 to 1,000,000")
    if not 1 <= args.depth <= 10:
        parser.error("--depth goes from 1 to 10")
    if not 0 <= args.top <= 10_000:
        parser.error("--top goes from 0 to 10,000")

    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.game import Replay

    try:
        replay = Replay.load(args.replay)
        positions = reviewed_positions(replay, args.last)
        evaluator = player_evaluator(args.evaluator, args.downgrade)
        evaluator.check_size(replay.rows, replay.cols)
    except FileNotFoundError:
        parser.exit(2, f"error: no replay at {args.replay}\n")
    except OSError as error:
        parser.exit(2, f"error: cannot read {args.replay}: {error.strerror or error}\n")
    except PlygroundError as error:
        parser.exit(2, f"error: {error}\n")

    console = Console(stderr=True)
    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("", total=len(positions))
        with Expectimax(depth=args.depth, workers=1, evaluator=evaluator) as ai:
            rows = review(positions, ai, lambda: progress.advance(task))

    costly = sorted((row for row in rows if row["cost"] > 0), key=lambda row: (-row["cost"], -row["move"]))
    costliest = costly[: args.top]
    label = evaluator_label(evaluator)
    table = Table(title=f"{args.replay.name}: the last {len(rows)} moves of {len(replay.moves):,}, {label}, "
                        f"depth {args.depth}")  # fmt: skip
    for name in ("move", "empty", "largest", "played", "best", "cost"):
        table.add_column(name, justify="left" if name in ("played", "best") else "right")
    for row in costliest:
        table.add_row(f"{row['move']:,}", str(row["empty"]), str(row["max_tile"]), row["played"], row["best"],
                      f"{row['cost']:,.1f}")  # fmt: skip
    Console(width=max(Console().width, 100)).print(table)
    others = sum(row["best"] != row["played"] for row in rows)
    total = sum(row["cost"] for row in rows)
    print(f"the search would have played otherwise {others} times in {len(rows)} moves; the costs sum to {total:,.1f}")
    summary = {
        "replay": str(args.replay),
        "moves": len(replay.moves),
        "score": replay.score,
        "reviewed": len(rows),
        "depth": args.depth,
        "evaluator": label,
        "played_otherwise": others,
        "total_cost": total,
        "costliest": costliest,
    }
    print_json("replay_review", summary, args)


if __name__ == "__main__":
    main()
