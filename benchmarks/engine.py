"""Random-play speed of the 2048 engine on one core: numba kernels vs the naive Python engine vs native C.

Each workload plays random moves (a random direction, falling back to the first legal
one; a tile spawned after every move; a new game when one ends), the same scheme as
``../shared/bench/native2048.c random``. The three run side by side, alternating, and
the table reports the median of the repeats and the ratios.

    python benchmarks/engine.py [--moves 20000000] [--naive-moves 50000] [--repeats 3]

Targets: numba >= 0.5x native C, >= 100x the naive engine.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from _common import build_native, median_of, naive, native_rate, run_native
from plyground.core.measurements import add_record_options, print_json
from plyground.g2048.board import random_play

naive_2048 = naive("g2048")


def numba_rate(n_moves: int, seed: int, rows: int, cols: int) -> float:
    start = time.perf_counter()
    random_play(n_moves, seed=seed, rows=rows, cols=cols, p_four=0.1)
    return n_moves / (time.perf_counter() - start)


def naive_rate(n_moves: int, seed: int, rows: int, cols: int) -> float:
    start = time.perf_counter()
    naive_2048.random_play(n_moves, seed, rows, cols, 0.1)
    return n_moves / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20_000_000, help="moves per numba and native run")
    parser.add_argument("--naive-moves", type=int, default=50_000, help="moves per naive run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()

    random_play(1000, seed=args.seed, p_four=0.0)  # loaded, not timed
    binary = build_native()
    rates: dict[str, float] = {}
    rates["numba"] = median_of(args.repeats, lambda: numba_rate(args.moves, args.seed, 4, 4))
    if binary is not None:
        rates["native C"] = median_of(
            args.repeats,
            lambda: native_rate(run_native(binary, "random", str(args.moves), str(args.seed)), "moves"),
        )
    rates["naive Python"] = median_of(args.repeats, lambda: naive_rate(args.naive_moves, args.seed, 4, 4))
    small = {f"{r}x{c}": numba_rate(args.moves // 4, args.seed, r, c) for r, c in [(2, 2), (3, 3), (3, 4)]}

    table = Table(title="2048 random play, one core")
    table.add_column("engine")
    table.add_column("moves/s", justify="right")
    table.add_column("numba / engine", justify="right")
    for name, rate in rates.items():
        table.add_row(name, f"{rate / 1e6:.2f} M", f"{rates['numba'] / rate:.2f}x")
    for size, rate in small.items():
        table.add_row(f"numba {size}", f"{rate / 1e6:.2f} M", "")
    console = Console()
    console.print(table)
    if binary is None:
        console.print("no C compiler or no ../shared/bench/native2048.c: native baseline skipped")
    vs_native = rates["numba"] / rates["native C"] if "native C" in rates else None
    vs_naive = rates["numba"] / rates["naive Python"]
    console.print(
        f"numba vs native C: {vs_native:.2f}x (target >= 0.5x)" if vs_native else "",
        f"\nnumba vs naive Python: {vs_naive:.0f}x (target >= 100x)",
    )
    print_json(
        "engine",
        {
            "moves_per_s": {k.replace(" ", "_"): round(v) for k, v in rates.items()},
            "small_boards_moves_per_s": {k: round(v) for k, v in small.items()},
            "numba_vs_native": vs_native,
            "numba_vs_naive": vs_naive,
        },
        args,
    )


if __name__ == "__main__":
    main()
