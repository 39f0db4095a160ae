"""What an endgame table costs: its build time, states, memory and disk, and the time of a lookup.

Solves ``--formation`` for ``--target`` (in memory, one core), then again on ``--workers`` threads
(default: every core; the same values, checked; 1: not again), saves it into a temporary folder
(values quantised to 16 bits: the largest difference from the solve's is measured) and reads it
back memory-mapped, then times lookups on ``--lookups`` states drawn at random from the table:
in batches (:meth:`Tablebase.values_of` and :meth:`Tablebase.move_values_of`: one kernel call for
``--batch-lookups`` boards, their check included), and one board at a time from Python
(:meth:`Tablebase.value`, :meth:`Tablebase.move_values`, :meth:`Advisor.advise`), on the read-back table.

    python benchmarks/tablebase.py [--formation xxxx/xxxx/...T/....] [--target 64] [--p-four 0.1] [--lookups 20000]
        [--workers N]
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.g2048 import Board
from plyground.g2048.tablebase import (
    Advisor,
    Formation,
    Tablebase,
    load_tablebase,
    save_tablebase,
    solve_formation,
)


def _boards(table: Tablebase, count: int, seed: int) -> list[Board]:
    """``count`` states of the table drawn at random, as boards of a game an advisor answers: the frozen
    neighbour of the goal cell holds the target (the chain goes on there), the other frozen cells one or two
    tiles above it, no two neighbours alike (big tiles that can merge are not advised on)."""
    formation = table.formation
    r, c = formation.goal
    chain = next(cell for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if cell in formation.frozen)
    big = 0
    for cell in formation.frozen:
        exponent = table.levels if cell == chain else table.levels + 1 + (sum(cell) + sum(chain) + 1) % 2
        big |= exponent << (16 * cell[0] + 4 * cell[1])
    picks = np.random.default_rng(seed).integers(0, table.states, size=count)
    return [Board(table.state(int(i)).bits & ~formation.frozen_mask | big, formation.rows, formation.cols)
            for i in picks]  # fmt: skip


def _batch_nanoseconds(table: Tablebase, count: int, seed: int) -> tuple[float, float]:
    """Nanoseconds a board takes in a batch lookup of states' values, and of each of their moves' values."""
    boards = np.array([board.bits for board in _boards(table, count, seed)], dtype=np.uint64)
    table.values_of(boards[:10])
    table.move_values_of(boards[:10])
    began = time.perf_counter()
    table.values_of(boards)
    value_ns = (time.perf_counter() - began) / count * 1e9
    began = time.perf_counter()
    table.move_values_of(boards)
    return value_ns, (time.perf_counter() - began) / count * 1e9


def _microseconds(call: object, boards: list[Board]) -> float:
    assert callable(call)
    began = time.perf_counter()
    for board in boards:
        call(board)
    return (time.perf_counter() - began) / len(boards) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formation", default="xxxx/xxxx/...T/....")
    parser.add_argument("--target", type=int, default=64)
    parser.add_argument("--p-four", type=float, default=0.1)
    parser.add_argument("--lookups", type=int, default=20_000, help="states looked up in each timing from Python")
    parser.add_argument("--batch-lookups", type=int, default=1_000_000, help="states looked up in one batch")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="threads of the second build")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.workers < 1:
        parser.error("--workers is 1 or more")

    formation = Formation.parse(args.formation)
    solve_formation(Formation.parse("xx/.T"), 8)  # the kernels loaded, not timed
    began = time.perf_counter()
    table = solve_formation(formation, args.target, p_four=args.p_four)
    build_seconds = time.perf_counter() - began
    peak_bytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    parallel_seconds, same = None, None
    if args.workers > 1:
        began = time.perf_counter()
        parallel = solve_formation(formation, args.target, p_four=args.p_four, workers=args.workers)
        parallel_seconds = time.perf_counter() - began
        same = bool(np.array_equal(parallel.values, table.values) and np.array_equal(parallel.best, table.best))
        del parallel
    with tempfile.TemporaryDirectory() as folder:
        saved = save_tablebase(table, Path(folder) / "table")
        disk_bytes = sum(path.stat().st_size for path in saved.iterdir())
        again = load_tablebase(saved)
        error = max(float(np.max(np.abs(again.values[i : i + 2**24] * again.scale - table.values[i : i + 2**24])))
                    for i in range(0, table.states, 2**24))  # fmt: skip
        del table
        batch_value_ns, batch_moves_ns = _batch_nanoseconds(again, args.batch_lookups, args.seed)
        boards = _boards(again, args.lookups, args.seed)
        for board in boards[:100]:  # the pages of those first lookups read, the calls warm
            again.value(board)
        value_us = _microseconds(again.value, boards)
        moves_us = _microseconds(again.move_values, boards)
        advise_us = _microseconds(Advisor([again]).advise, boards)

    states = again.states
    rows = [
        ("states", f"{states:,}"),
        ("build", f"{build_seconds:.2f} s ({states / build_seconds / 1e6:.2f} M states/s, one core)"),
        *(
            [
                (
                    f"build on {args.workers} threads",
                    f"{parallel_seconds:.2f} s ({build_seconds / parallel_seconds:.2f}× "
                    f"one core's speed; {'the same' if same else 'OTHER'} values)",
                )
            ]
            if parallel_seconds is not None
            else []
        ),
        ("peak memory of the process (one-core build)", f"{peak_bytes / 1e6:,.0f} MB"),
        ("disk", f"{disk_bytes / 1e6:,.1f} MB ({disk_bytes / states:.2f} bytes a state)"),
        ("largest error of a stored value", f"{error:.2e}"),
        ("in a batch: value of a board", f"{batch_value_ns:,.0f} ns"),
        ("in a batch: each move's value", f"{batch_moves_ns:,.0f} ns"),
        ("value of a board", f"{value_us:.1f} µs"),
        ("each move's value", f"{moves_us:.1f} µs"),
        ("an advisor's answer", f"{advise_us:.1f} µs"),
    ]
    table_view = Table(title=f"endgame table {formation.to_text()} for {args.target} (p_four {args.p_four:g})")
    table_view.add_column("measure")
    table_view.add_column("value", justify="right")
    for name, value in rows:
        table_view.add_row(name, value)
    Console().print(table_view)
    print_json(
        "tablebase",
        {
            "formation": formation.to_text(),
            "target": args.target,
            "p_four": args.p_four,
            "states": states,
            "build_seconds": build_seconds,
            "workers": args.workers,
            "parallel_build_seconds": parallel_seconds,
            "parallel_same_values": same,
            "peak_memory_bytes": peak_bytes,
            "disk_bytes": disk_bytes,
            "value_error": error,
            "batch_lookups": args.batch_lookups,
            "batch_value_ns": batch_value_ns,
            "batch_move_values_ns": batch_moves_ns,
            "lookups": args.lookups,
            "value_us": value_us,
            "move_values_us": moves_us,
            "advise_us": advise_us,
        },
        args,
    )


if __name__ == "__main__":
    main()
