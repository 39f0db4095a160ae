"""Expectimax speed: leaf evaluations per second at fixed depths, one core, against native C.

Searches the 8 fixed positions of ``../shared/bench/native2048.c search DEPTH`` at each
depth with one worker (the same cut-off of 1e-4 and a table of 2**22 entries), then with
two workers for the multi-core speed-up, interleaved with the native runs; medians. The
"bound" column is the best speed-up two cores could reach by searching whole root moves
in parallel with free hand-offs (each root move timed alone, split evenly by hand).

    python benchmarks/search.py [--depths 3 4 5 6] [--repeats 3]

Targets: >= 0.8x the native C rate; speed-up from 1 to 2 cores >= 1.6x.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from _common import add_record_options, build_native, native_rate, print_json, run_native
from plyground.g2048 import Board
from plyground.g2048 import _search_kernels as S
from plyground.g2048.expectimax import DIRECTIONS, Expectimax

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


def split_bound(ai: Expectimax, repeats: int) -> float:
    """The best 2-core speed-up that searching root moves in parallel allows on these positions.

    Times each legal root move of each position alone (one core, median of ``repeats``), splits each
    position's moves between two cores as evenly as possible, and compares the sums: even with free
    hand-offs, two cores cannot beat this ratio while each searches whole root moves.
    """
    assert ai.depth is not None
    tt = np.zeros(1 << 22, dtype=S.TT_DTYPE)
    tt["generation"] = -1
    counters, stop = np.zeros(4, dtype=np.int64), np.zeros(1, dtype=np.uint8)
    one_core = two_cores = 0.0
    ai.evaluator.prepare(4, 4)
    for bits in POSITIONS:
        board, times = Board(bits), []
        search = ai.evaluator.move_search(
            board, p_four=ai.p_four, cutoff=ai.cutoff, max_cells=ai.max_cells, seed=ai.seed
        )
        for move in board.legal_moves():
            runs = []
            for _ in range(repeats):
                counters[S.GENERATION] += 1  # each move alone, in a fresh table
                start = time.perf_counter()
                search(DIRECTIONS.index(move), ai.depth, tt, counters, stop)
                runs.append(time.perf_counter() - start)
            times.append(statistics.median(runs))
        one_core += sum(times)
        loads = (
            (sum(t for t, mine in zip(times, side, strict=True) if mine), sum(times))
            for side in itertools.product((True, False), repeat=len(times))
        )
        two_cores += min(max(mine, total - mine) for mine, total in loads)
    return one_core / two_cores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--repeats", type=int, default=3)
    add_record_options(parser)
    args = parser.parse_args()

    binary = build_native()
    rows = []
    for depth in args.depths:
        one, two = (Expectimax(depth=depth, workers=w, tt_bits=22) for w in (1, 2))  # 2**22 entries, as native C
        search_all(one), search_all(two)  # warm up: threads, tables, compiled kernels
        # Interleaved, so that a slow spell of the machine hits every side alike; medians of the repeats.
        rates_1, seconds_1, seconds_2, natives = [], [], [], []
        for _ in range(args.repeats):
            evaluations, seconds = search_all(one)
            rates_1.append(evaluations / seconds)
            seconds_1.append(seconds)
            seconds_2.append(search_all(two)[1])
            if binary is not None:
                natives.append(native_rate(run_native(binary, "search", str(depth)), "evals"))
        rate_1 = statistics.median(rates_1)
        native = statistics.median(natives) if natives else None
        speedup = statistics.median(a / b for a, b in zip(seconds_1, seconds_2, strict=True))
        bound = split_bound(one, args.repeats)
        rows.append(
            {
                "depth": depth,
                "evals_per_s": rate_1,
                "native_evals_per_s": native,
                "vs_native": rate_1 / native if native else None,
                "speedup_2_cores": speedup,
                "root_split_bound": bound,
                "seconds_1_core": statistics.median(seconds_1),
            }
        )
        one.close(), two.close()

    table = Table(title="2048 expectimax, 8 positions, one core unless said")
    for name in ("depth", "evals/s", "native C evals/s", "numba / native", "1 core s", "speed-up 2 cores", "bound"):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(
            str(row["depth"]),
            f"{row['evals_per_s'] / 1e6:.2f} M",
            f"{row['native_evals_per_s'] / 1e6:.2f} M" if row["native_evals_per_s"] else "-",
            f"{row['vs_native']:.2f}x" if row["vs_native"] else "-",
            f"{row['seconds_1_core']:.3f}",
            f"{row['speedup_2_cores']:.2f}x",
            f"{row['root_split_bound']:.2f}x",
        )
    Console().print(table)
    print_json("search", {"rows": rows}, args)


if __name__ == "__main__":
    main()
