"""The k-in-a-row searches' time against another checkout's, side by side, with what they compute.

Four measurements, each with the ``plyground`` of this checkout and of ``--against CHECKOUT``
(a git worktree or clone of the code to compare with), in fresh processes taking turns
(``_against.py``), each measurement in a process of its own (what one search leaves in the memory
allocator must not speed up or slow down the next: the plain MCTS ran 17% faster after the engine's
older tables were freed than alone); a round runs each ``--repeats`` times and keeps the fastest:

* ``engine``: the engine at fixed depth (``--depth``, root threat searches off) on the first
  ``--positions`` quiet positions of ``tests/data/gomoku_threats.jsonl`` (no VCF, no five to
  make or block), a fresh engine each; checked by the nodes searched;
* ``vcf``: the complete VCF solver on every labelled position, to its label's depth limit,
  and the quick one (width 3); checked by the lengths of the lines found;
* ``mcts``: plain MCTS (UCT, random playouts), 20,000 iterations (``--iterations``' first) on
  four 7×7 positions (k = 4);
* ``mcts patterns``: MCTS with line patterns, 4,000 iterations (its second) on four 15×15 positions;
  both checked by a checksum of the root's visits (seeded: equal when the searches are).

The figure is the median over the rounds of this checkout's time over the other's.

    python benchmarks/kinrow_versus.py --against CHECKOUT [--rounds 6] [--repeats 3]
        [--positions 12] [--depth 6] [--iterations 20000 4000] [--only engine vcf mcts "mcts patterns"]

Target (a change that keeps the searches' speed): at most 1.03x the other checkout's time,
with equal checks.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from _against import checkout, ratio_row, take_turns
from _common import ROOT

FIXTURE = ROOT / "tests" / "data" / "gomoku_threats.jsonl"
MEASUREMENTS = ("engine", "vcf", "mcts", "mcts patterns")
SMALL = [[], [24], [24, 16, 32], [0, 24, 48, 8, 10]]
"""Moves from the empty 7×7 board (k = 4) of the plain MCTS's positions."""
LARGE = [[112], [112, 113, 97], [112, 96, 128, 113, 111, 98], [0, 112, 224, 113]]
"""Moves from the empty 15×15 board (k = 5) of the pattern MCTS's positions."""


def fastest(repeats: int, work: Callable[[], float]) -> list[float]:
    """``[seconds, check]``: the fastest of ``repeats`` runs of ``work`` (which returns the check)."""
    times = []
    check = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        check = work()
        times.append(time.perf_counter() - start)
    return [min(times), check]


def child(name: str, repeats: int, positions: int, depth: int, iterations: tuple[int, int]) -> None:
    """Time the four measurements with the ``plyground`` this process imports; print a JSON line."""
    from plyground.kinrow import State
    from plyground.kinrow.engine import Engine, EngineSettings
    from plyground.kinrow.mcts import MCTS
    from plyground.kinrow.threats import find_vcf

    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
    labelled = [(State.parse(row["board"], 5), row["vcf_limit"]) for row in rows]
    quiet = [State.parse(row["board"], 5) for row in rows if row["kind"] == "none"]
    quiet = [state for state in quiet if state.forced_move() is None][:positions]
    small = [State.from_moves(7, 4, moves) for moves in SMALL]
    large = [State.from_moves(15, 5, moves) for moves in LARGE]

    def engine() -> float:
        nodes = 0
        for state in quiet:
            searcher = Engine(depth=depth, settings=EngineSettings(defence_nodes=0, vct_share=0.0))
            searcher.choose(state)
            assert searcher.last is not None
            nodes += searcher.last.nodes
        return float(nodes)

    def vcf() -> float:
        length = 0
        for state, limit in labelled:
            for width in (None, 3):
                line = find_vcf(state, max_depth=limit, width=width)
                length += 0 if line is None else len(line)
        return float(length)

    def mcts(states: list[State], iterations: int, patterns: bool) -> Callable[[], float]:
        def run() -> float:
            check = 0.0
            for state in states:
                visits = MCTS(iterations=iterations, patterns=patterns, seed=1).search(state).visits
                check += sum((move + 1) * count for move, count in visits.items())
            return check

        return run

    work = {
        "engine": engine,
        "vcf": vcf,
        "mcts": mcts(small, iterations[0], False),
        "mcts patterns": mcts(large, iterations[1], True),
    }
    work[name]()  # compiled or loaded before anything is timed
    print(json.dumps({name: fastest(repeats, work[name])}))


def main() -> None:
    if len(sys.argv) == 8 and sys.argv[1] == "--child":
        numbers = [int(arg) for arg in sys.argv[3:]]
        child(sys.argv[2], numbers[0], numbers[1], numbers[2], (numbers[3], numbers[4]))
        return
    from plyground.core.measurements import add_record_options, git_state, print_json  # not in older checkouts

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True, metavar="CHECKOUT", help="the code to compare with")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--positions", type=int, default=12, help="quiet positions the engine searches")
    parser.add_argument("--depth", type=int, default=6, help="the engine's depth")
    parser.add_argument(
        "--iterations", type=int, nargs=2, default=[20_000, 4_000], metavar=("PLAIN", "PATTERNS"),
        help="iterations of the plain and the pattern MCTS on each position",
    )  # fmt: skip
    parser.add_argument(
        "--only", nargs="+", choices=MEASUREMENTS, default=list(MEASUREMENTS), metavar="NAME",
        help=f"the measurements to take (default: all of {', '.join(MEASUREMENTS)})",
    )  # fmt: skip
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.rounds < 2 or args.repeats < 1:
        parser.error("--rounds is at least 2 and --repeats at least 1")
    if not 1 <= args.positions <= 100 or not 1 <= args.depth <= 12:
        parser.error("--positions goes from 1 to 100 and --depth from 1 to 12")
    if min(args.iterations) < 1:
        parser.error("--iterations are at least 1")
    other = checkout(parser, args.against)
    counts = [str(args.repeats), str(args.positions), str(args.depth), *map(str, args.iterations)]
    rows = [
        {"search": name, **ratio_row(take_turns(__file__, other, args.rounds, name, *counts), name)}
        for name in MEASUREMENTS
        if name in args.only
    ]
    title = f"k-in-a-row: this checkout's time over {other.parent.name}'s ({args.rounds} rounds)"
    table = Table(title=title)
    for name in ("search", "s", "other s", "ratio", "range", "check", "other check"):
        table.add_column(name, justify="right")
    for row in rows:
        low, high = row["ratio_range"]
        table.add_row(
            row["search"], f"{row['seconds']:.4f}", f"{row['other_seconds']:.4f}", f"{row['ratio']:.3f}",
            f"{low:.2f}-{high:.2f}", f"{row['check']:,.0f}", f"{row['other_check']:,.0f}",
        )  # fmt: skip
    Console().print(table)
    other_commit, other_dirty = git_state(other.parent)
    results = {
        "rows": rows,
        "rounds": args.rounds,
        "repeats": args.repeats,
        "positions": args.positions,
        "depth": args.depth,
        "iterations": args.iterations,
        "only": [name for name in MEASUREMENTS if name in args.only],
        "other_commit": other_commit,
        "other_dirty": other_dirty,
    }
    print_json("kinrow_versus", results, args)


if __name__ == "__main__":
    main()
