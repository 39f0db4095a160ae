"""TD(0) training speed of the 4×4 n-tuple network on one core and on two (Hogwild threads on shared weights).

A fresh network with the default four 6-tuples first learns for ``--warm`` seconds on
one worker, so that the measured games are past the short games of the very start; then
copies of it learn side by side for ``--seconds`` each, alternating one worker and
``--workers`` workers ``--rounds`` times (alternating evens out the machine's changing
load). Each copy starts from the same weights.

    python benchmarks/ntuple_workers.py [--seconds 20] [--warm 20] [--rounds 1] [--workers 2] [--network FILE]

With ``--network``, the runs start from a saved network (read into memory; the file is not
changed) instead of a fresh 4×4 one: a trained one, or a small one for a quick check.

The kernel is bound by memory latency (cache misses into 256 MiB of tables): two threads
overlap their misses, but they share the memory system and the last-level cache.

Target (issue 8): two cores >= 1.7 times one.
"""

from __future__ import annotations

import argparse
import copy
import os
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.g2048.ntuple import NTupleNetwork


def _rate(network: NTupleNetwork, seconds: float, workers: int, alpha: float) -> tuple[float, int, float]:
    """(moves/s, games, mean score) of learning for ``seconds`` with ``workers`` threads."""
    deadline = time.perf_counter() + seconds
    stats = network.learn(10**9, alpha=alpha, workers=workers, stop=lambda: time.perf_counter() >= deadline)
    return stats.moves_per_second, stats.results.games, stats.results.mean_score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="training time of each measured run")
    parser.add_argument("--warm", type=float, default=20.0, help="training time before the measured runs")
    parser.add_argument("--rounds", type=int, default=1, help="pairs of measured runs (one worker, then several)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--network", help="start from this saved network (not changed on disk) instead of a fresh one")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()

    NTupleNetwork(2, 2, seed=0).learn(4, alpha=0.1, workers=2)  # kernels loaded, not timed
    base = NTupleNetwork(seed=args.seed) if args.network is None else NTupleNetwork.load(args.network)
    _rate(base, args.warm, 1, args.alpha)
    rows = []
    for _ in range(args.rounds):
        for workers in (1, args.workers):
            rows.append((workers, *_rate(copy.deepcopy(base), args.seconds, workers, args.alpha)))

    one = sum(r[1] for r in rows if r[0] == 1) / args.rounds
    many = sum(r[1] for r in rows if r[0] == args.workers) / args.rounds
    size = f"{base.rows}x{base.cols}" + (f" ({args.network})" if args.network else "")
    table = Table(title=f"{size} n-tuple TD(0) training, {os.cpu_count()} cores seen, {args.seconds:g} s per run")
    for name in ("workers", "moves/s", "games", "mean score"):
        table.add_column(name, justify="right")
    for workers, rate, games, mean in rows:
        table.add_row(str(workers), f"{rate / 1e6:.3f} M", f"{games:,}", f"{mean:,.0f}")
    console = Console()
    console.print(table)
    console.print(f"{args.workers} workers / 1 worker: {many / one:.2f}x (target >= 1.7x)")
    print_json(
        "ntuple_workers",
        {
            "seconds": args.seconds,
            "warm_seconds": args.warm,
            "workers": args.workers,
            "one_worker_moves_per_s": round(one),
            "many_workers_moves_per_s": round(many),
            "speedup": many / one,
            "cpu_count": os.cpu_count(),
            **({"network": args.network} if args.network else {}),
        },
        args,
    )


if __name__ == "__main__":
    main()
