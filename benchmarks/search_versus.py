"""The expectimax search's time against another checkout's, side by side: one worker, fixed depths.

Searches the 8 fixed positions of ``search.py`` with one worker (a table of 2**22 entries), at
each depth, with the heuristic and with the shipped network, in a fresh process for each side:
this checkout's ``src`` and that of ``--against CHECKOUT`` (a git worktree or clone of the code
to compare with, for example ``git worktree add ../before HEAD~1``). The sides take turns,
round by round, each going first in every other round, so that a slow spell of the machine hits
both; a round times each depth ``--repeats`` times and keeps the fastest. The figure is the
median over the rounds of this checkout's time over the other's, with each side's evaluations
(equal when the two search the same trees).

    python benchmarks/search_versus.py --against CHECKOUT [--rounds 8] [--repeats 5]
        [--heuristic-depths 5 6 7] [--network-depths 3 5 6]

Target (a change that keeps the search's speed): at most 1.03x the other checkout's time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from _against import checkout, ratio_row, take_turns

POSITIONS = [
    0x0000000000001021, 0x0000001000201232, 0x0001002301240567, 0x1000320145106789,
    0x0021013212348765, 0x0000010023414567, 0x00011022323489AB, 0x01200231456A789B,
]  # fmt: skip


def child(repeats: int, depths_of: dict[str, list[int]]) -> None:
    """Time every depth of both evaluators with the ``plyground`` this process imports; print a JSON line."""
    from plyground.g2048 import Board
    from plyground.g2048.expectimax import Expectimax
    from plyground.g2048.registry import load_evaluator

    out: dict[str, list[float]] = {}
    for evaluator, depths in depths_of.items():
        for depth in depths:
            with Expectimax(depth=depth, workers=1, tt_bits=22, evaluator=load_evaluator(evaluator, reuse=True)) as ai:
                evaluations = sum(ai.choose(Board(bits)).evaluations for bits in POSITIONS)  # warm, and counted
                times = []
                for _ in range(repeats):
                    start = time.perf_counter()
                    for bits in POSITIONS:
                        ai.choose(Board(bits))
                    times.append(time.perf_counter() - start)
            out[f"{evaluator} {depth}"] = [min(times), evaluations]
    print(json.dumps(out))


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(int(sys.argv[2]), json.loads(sys.argv[3]))
        return
    from plyground.core.measurements import add_record_options, git_state, print_json  # not in older checkouts

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True, metavar="CHECKOUT", help="the code to compare with")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--heuristic-depths", type=int, nargs="+", default=[5, 6, 7], metavar="DEPTH")
    parser.add_argument("--network-depths", type=int, nargs="+", default=[3, 5, 6], metavar="DEPTH")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    depths_of = {"heuristic": args.heuristic_depths, "network": args.network_depths}
    if any(not 1 <= depth <= 12 for depths in depths_of.values() for depth in depths):
        parser.error("depths go from 1 to 12")
    other = checkout(parser, args.against)
    if args.rounds < 2 or args.repeats < 1:
        parser.error("--rounds is at least 2 and --repeats at least 1")
    done = take_turns(__file__, other, args.rounds, str(args.repeats), json.dumps(depths_of))
    rows = []
    for evaluator, depths in depths_of.items():
        for depth in depths:
            row = ratio_row(done, f"{evaluator} {depth}")
            rows.append(
                {
                    "evaluator": evaluator,
                    "depth": depth,
                    **{key: row[key] for key in ("seconds", "other_seconds", "ratio", "ratio_range")},
                    "evaluations": int(row["check"]),
                    "other_evaluations": int(row["other_check"]),
                }
            )
    title = f"one worker, 8 positions: this checkout's time over {other.parent.name}'s ({args.rounds} rounds)"
    table = Table(title=title)
    for name in ("evaluator", "depth", "s", "other s", "ratio", "range", "evals", "other evals"):
        table.add_column(name, justify="right")
    for row in rows:
        low, high = row["ratio_range"]
        table.add_row(
            row["evaluator"], str(row["depth"]), f"{row['seconds']:.4f}", f"{row['other_seconds']:.4f}",
            f"{row['ratio']:.3f}", f"{low:.2f}-{high:.2f}", f"{row['evaluations']:,}", f"{row['other_evaluations']:,}",
        )  # fmt: skip
    Console().print(table)
    other_commit, other_dirty = git_state(other.parent)
    results = {"rows": rows, "rounds": args.rounds, "repeats": args.repeats, "other_commit": other_commit}
    results["other_dirty"] = other_dirty
    print_json("search_versus", results, args)


if __name__ == "__main__":
    main()
