"""Expectimax speed against native C: wall time on the C yardstick's 8 fixed positions, one core and two.

Searches the 8 fixed positions of ``../shared/bench/native2048.c search DEPTH`` at each depth
with the heuristic and one worker (the same cut-off of 1e-4 and a table of 2**22 entries), the
native search interleaved with it, and compares the wall times; then with two workers for the
multi-core speed-up. Medians of the repeats. The "bound" column is the best speed-up two cores
could reach with the jobs of two workers (see ``expectimax.root_groups``): the one-worker job
(every move in one table) timed against the longer of the two-worker jobs, position by position;
"at once" is the same with the two jobs of a position searched together on two threads (this one and a
helper): they slow each other down where they wait for the same memory (the network's weights).

With ``--network FILE`` (an n-tuple network, ``network.npz``) the same searches run with the
network at the leaves too, timed against the heuristic's, with their own two-core speed-up.
A network's speed does not depend on what it learned: any network of the shape will do.

    python benchmarks/search.py [--depths 5 6 7] [--repeats 5] [--network FILE]

Targets: the heuristic search's wall time at depths 5, 6 and 7 at most 1.1x native C's;
two cores at least 1.6x one (the network at depth 3).
"""

from __future__ import annotations

import argparse
import functools
import re
import statistics
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from _common import build_native, run_native
from plyground.core.crew import CREW
from plyground.core.measurements import add_record_options, print_json
from plyground.errors import PlygroundError
from plyground.g2048 import Board
from plyground.g2048.expectimax import Expectimax, JobsSearch, root_groups, transposition_tables
from plyground.g2048.registry import load_evaluator

POSITIONS = [
    0x0000000000001021, 0x0000001000201232, 0x0001002301240567, 0x1000320145106789,
    0x0021013212348765, 0x0000010023414567, 0x00011022323489AB, 0x01200231456A789B,
]  # fmt: skip


def search_all(ai: Expectimax) -> tuple[int, float]:
    """Evaluations and seconds to search every position."""
    evaluations, start = 0, time.perf_counter()
    for bits in POSITIONS:
        evaluations += ai.choose(Board(bits)).evaluations
    return evaluations, time.perf_counter() - start


def native_search(binary: Path, depth: int) -> tuple[int, float]:
    """Evaluations and seconds of ``native2048 search DEPTH`` (it prints ``N evaluations in T s``)."""
    output = run_native(binary, "search", str(depth))
    match = re.search(r"([0-9]+) evaluations in ([0-9.]+) s", output)
    if match is None:
        raise RuntimeError(f"cannot read the native baseline's output: {output!r}")
    return int(match.group(1)), float(match.group(2))


def split_bound(ai: Expectimax, repeats: int) -> tuple[float, float]:
    """The best 2-core speed-ups that the two-worker jobs allow on these positions: alone, and at once.

    Times the one-worker job (every legal move in one table) and each two-worker job alone (one
    thread, median of ``repeats``, each in a fresh table), and compares the sums over the positions of
    the first with those of the longer of the second: even with free hand-offs, two workers cannot
    beat it. Then the two jobs of a position searched at once, on this thread and a helper of the
    crew (what a two-worker search does, without the rest of ``choose``): the jobs slow each other
    down where they wait for the same memory.
    """
    assert ai.depth is not None
    tts = transposition_tables(2, 22)
    counters = np.zeros((2, 4), dtype=np.int64)
    stop = np.zeros(1, dtype=np.uint8)
    found = np.zeros((2, 4), dtype=np.float64)
    evaluator = ai.evaluator_for(4, 4)
    evaluator.prepare(4, 4)

    def run(search: JobsSearch, jobs: list[tuple[int, ...]]) -> float:
        moves = np.full((len(jobs), 4), -1, dtype=np.int64)
        for j, job in enumerate(jobs):
            moves[j, : len(job)] = job
        claim = np.zeros(1, dtype=np.int64)
        start = time.perf_counter()
        CREW.run(functools.partial(search, moves, ai.depth, tts, counters, stop, found, claim), len(jobs) - 1)
        return time.perf_counter() - start

    one_core = two_cores = two_at_once = 0.0
    for bits in POSITIONS:
        board = Board(bits)
        search = ai.jobs_search(board, evaluator)
        jobs = root_groups(board, 2)
        one_core += statistics.median(run(search, root_groups(board, 1)) for _ in range(repeats))
        two_cores += max(statistics.median(run(search, [job]) for _ in range(repeats)) for job in jobs)
        two_at_once += statistics.median(run(search, jobs) for _ in range(repeats))
    return one_core / two_cores, one_core / two_at_once


def measure(depth: int, repeats: int, evaluator: str, binary: Path | None) -> dict[str, float | int | None]:
    """One row: one and two workers with ``evaluator`` at ``depth``, the native search interleaved."""
    leaves = load_evaluator(evaluator, reuse=True)
    one, two = (Expectimax(depth=depth, workers=w, tt_bits=22, evaluator=leaves) for w in (1, 2))
    search_all(one), search_all(two)  # warm up: threads, tables, compiled kernels
    # Interleaved, so that a slow spell of the machine hits every side alike.
    seconds_1, seconds_2, natives, ratios = [], [], [], []
    evaluations = native_evaluations = 0
    for _ in range(repeats):
        if binary is not None:
            native_evaluations, native_seconds = native_search(binary, depth)
            natives.append(native_seconds)
        evaluations, seconds = search_all(one)
        seconds_1.append(seconds)
        if binary is not None and native_seconds > 0:  # it prints milliseconds: 0 at the smallest depths
            ratios.append(seconds / native_seconds)
        seconds_2.append(search_all(two)[1])
    row: dict[str, float | int | None] = {
        "depth": depth,
        "seconds_1_core": statistics.median(seconds_1),
        "evaluations": evaluations,
        "evals_per_s": evaluations / statistics.median(seconds_1),
        "native_seconds": statistics.median(natives) if natives else None,
        "native_evaluations": native_evaluations if natives else None,
        "time_vs_native": statistics.median(ratios) if ratios else None,
        "seconds_2_cores": statistics.median(seconds_2),
        "speedup_2_cores": statistics.median(a / b for a, b in zip(seconds_1, seconds_2, strict=True)),
    }
    row["root_split_bound"], row["at_once_bound"] = split_bound(one, repeats)
    one.close(), two.close()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[5, 6, 7])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--network", type=Path, metavar="FILE", help="also search with this n-tuple network")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if any(not 1 <= depth <= 12 for depth in args.depths) or args.repeats < 1:
        parser.error("depths go from 1 to 12 and --repeats is at least 1")
    network = f"ntuple:{args.network}" if args.network is not None else None
    if network is not None:
        try:
            load_evaluator(network, reuse=True).check_size(4, 4)
        except PlygroundError as error:
            parser.exit(2, f"error: {error}\n")

    binary = build_native()
    rows = [measure(depth, args.repeats, "heuristic", binary) for depth in args.depths]
    network_rows = [measure(depth, args.repeats, network, None) for depth in args.depths] if network else []

    def f(value: object, form: str) -> str:
        return "-" if value is None else format(value, form)

    table = Table(title="2048 expectimax, heuristic, 8 positions: wall time against native C")
    for name in (
        "depth",
        "1 core s",
        "native C s",
        "time / C",
        "evals",
        "C evals",
        "2 cores s",
        "speed-up",
        "bound",
        "at once",
    ):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(
            str(row["depth"]), f(row["seconds_1_core"], ".3f"), f(row["native_seconds"], ".3f"),
            f(row["time_vs_native"], ".2f"), f(row["evaluations"], ","), f(row["native_evaluations"], ","),
            f(row["seconds_2_cores"], ".3f"), f(row["speedup_2_cores"], ".2f"), f(row["root_split_bound"], ".2f"),
            f(row["at_once_bound"], ".2f"),
        )  # fmt: skip
    Console().print(table)
    if network_rows:
        table = Table(title=f"the same with the network {args.network.name}: wall time against the heuristic")
        for name in (
            "depth",
            "1 core s",
            "heuristic s",
            "time / heuristic",
            "evals",
            "2 cores s",
            "speed-up",
            "bound",
            "at once",
        ):
            table.add_column(name, justify="right")
        for row, heuristic in zip(network_rows, rows, strict=True):
            row["time_vs_heuristic"] = float(row["seconds_1_core"] or 0) / float(heuristic["seconds_1_core"] or 1)
            table.add_row(
                str(row["depth"]), f(row["seconds_1_core"], ".3f"), f(heuristic["seconds_1_core"], ".3f"),
                f(row["time_vs_heuristic"], ".2f"), f(row["evaluations"], ","), f(row["seconds_2_cores"], ".3f"),
                f(row["speedup_2_cores"], ".2f"), f(row["root_split_bound"], ".2f"), f(row["at_once_bound"], ".2f"),
            )  # fmt: skip
        Console().print(table)
    print_json(
        "search", {"rows": rows, "network": str(args.network) if network else None, "network_rows": network_rows}, args
    )


if __name__ == "__main__":
    main()
