"""TD(0) training speed of the 4×4 n-tuple network on one core, and its greedy strength after a short training.

A fresh network with the default four 6-tuples learns from whole games for ``--seconds``
(afterstate TD(0), ``--alpha``); the table reports the training moves per second (moves
played and learnt from), the speed of greedy play with the trained network, and, as the
yardstick, the random-play speed of ``../shared/bench/native2048.c`` measured in the
same run. The trained network then plays ``--games`` greedy 1-ply games.

    python benchmarks/ntuple.py [--seconds 20] [--alpha 0.1] [--games 1000]
    python benchmarks/ntuple.py --network FILE [--tc] [--alpha 0.01]
    python benchmarks/ntuple.py --run RUN_FOLDER [--every 10]

With ``--network``, the learning goes on from a trained 4×4 network (a copy in memory;
the file is not changed) instead of a fresh one: the speed of training where it spends
its time, with long games over much of the tables (``--tc``: with temporal coherence, whose
two sums per weight, side by side in a table twice the size of the weights, add a cache
line to each weight an update touches).

With ``--run``, it prints instead the learning curve of a training run made by
``plyground 2048 learn`` (its ``curve.csv``): every ``--every`` minutes of training, the
games and moves so far, the training speed over the interval, and the running mean score
and tile shares of the last 1,000 games.

Training slows down as it goes: games get longer and reach bigger tiles, whose weights
lie further apart in the 256 MiB of tables (more cache misses). The first and the last
seconds are reported apart.

The memory yardstick: independent reads of float32 at random places in a table as big as
the network's (indices drawn beforehand, one core), in nanoseconds per read. A move reads
the 32 weights of each legal move's afterstate (up to 128); if they all missed the cache,
training could not go faster than ``1e9 / (128 * ns)`` moves per second on this machine
whatever the code around them; weights that stay cached (those of common small-tile
patterns) let it go above that.

Target: >= 1 M training moves per second per core.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numba
import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.table import Table

from _common import build_native, native_rate, run_native
from plyground.core.measurements import add_record_options, print_json
from plyground.g2048.ntuple import NTupleNetwork, Report, read_curve

CANDIDATE_READS = 4 * 32
"""Weights a move reads at most: 32 lookups for each of up to four afterstates."""


@numba.njit("f8(f4[::1], i8[::1])")
def _read_all(table: npt.NDArray[np.float32], positions: npt.NDArray[np.int64]) -> float:
    """The sum of ``table`` at ``positions``: independent reads, as many in flight as the processor allows.

    Compiled with numba's defaults: like plyground's kernels, no ``fastmath``; the package's other
    options (its cache, ``nogil``, numpy's error model) do not change this loop's code.
    """
    total = 0.0
    for i in positions:
        total += table[i]
    return total


def random_read_ns(size: int, reads: int = 4_000_000, seed: int = 0) -> float:
    """Nanoseconds per read of float32 at random places in a table of ``size`` entries (best of 3)."""
    table = np.ones(size, dtype=np.float32)
    positions = np.random.default_rng(seed).integers(0, size, reads)
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        _read_all(table, positions)
        best = min(best, time.perf_counter() - began)
    return best / reads * 1e9


def print_curve(folder: str, every: float, options: argparse.Namespace) -> None:
    """The learning curve of the run in ``folder``, a row every ``every`` minutes of training."""
    curve = read_curve(folder)
    if not curve:
        raise SystemExit(f"{folder}: no curve.csv with rows (not a training run, or not checkpointed yet)")
    picked: list[Report] = []
    for report in curve:
        if not picked or report.seconds >= 60 * every * (len(picked)) or report is curve[-1]:
            picked.append(report)
    tiles = list(curve[0].reach)  # the curve's reach columns
    table = Table(title=f"learning curve of {folder}")
    for name in ("minutes", "games", "moves", "moves/s", "mean score", *(f"{tile}" for tile in tiles)):
        table.add_column(name, justify="right")
    rows = []
    previous = None
    for report in picked:
        rate = None
        if previous is not None and report.seconds > previous.seconds:
            rate = (report.moves - previous.moves) / (report.seconds - previous.seconds)
        reach = [report.reach[tile] for tile in tiles]
        table.add_row(
            f"{report.seconds / 60:.1f}",
            f"{report.games:,}",
            f"{report.moves / 1e9:.2f} B",
            f"{rate / 1e6:.2f} M" if rate else "",
            f"{report.mean_score:,.0f}",
            *(f"{share:.1%}" for share in reach),
        )
        rows.append({"minutes": round(report.seconds / 60, 2), "games": report.games, "moves": report.moves,
                     "moves_per_s": round(rate) if rate else None, "mean_score": round(report.mean_score),
                     **{f"reach_{tile}": share for tile, share in zip(tiles, reach, strict=True)}})  # fmt: skip
        previous = report
    Console(width=max(120, Console().width)).print(table)
    print_json("ntuple_curve", {"run": folder, "rows": rows}, options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="training time")
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=1000, help="greedy games after the training")
    parser.add_argument("--native-moves", type=int, default=20_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--network", help="go on learning from this trained 4x4 network (not changed on disk)")
    parser.add_argument("--tc", action="store_true", help="learn with temporal coherence")
    parser.add_argument("--run", help="print the learning curve of this training run folder instead")
    parser.add_argument("--every", type=float, default=10.0, help="minutes between two rows of --run's curve")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.run is not None:
        print_curve(args.run, args.every, args)
        return

    NTupleNetwork(2, 2, seed=0).learn(1, alpha=0.1)  # kernels loaded, not timed
    binary = build_native()
    native = None
    if binary is not None:
        native = native_rate(run_native(binary, "random", str(args.native_moves), str(args.seed)), "moves")

    if args.network is None:
        network = NTupleNetwork(seed=args.seed)
    else:
        network = NTupleNetwork.load(args.network)
        if network.shape != (4, 4):
            raise SystemExit(f"{args.network}: a {network.rows}x{network.cols} network; this benchmark is for 4x4")
    read_ns = random_read_ns(network.weights.size)
    bound = 1e9 / (CANDIDATE_READS * read_ns)
    batches: list[tuple[float, int, int, float]] = []  # (end time, moves, games, mean score)
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        stats = network.learn(50, alpha=args.alpha, tc=args.tc)
        batches.append((stats.seconds, stats.results.total_moves, stats.results.games, stats.results.mean_score))
    seconds = sum(b[0] for b in batches)
    moves = sum(b[1] for b in batches)
    split = max(1, len(batches) // 4)
    first = sum(b[1] for b in batches[:split]) / sum(b[0] for b in batches[:split])
    last = sum(b[1] for b in batches[-split:]) / sum(b[0] for b in batches[-split:])
    training_rate = moves / seconds

    began = time.perf_counter()
    results = network.play_greedy(args.games, seed=args.seed + 1)
    greedy_rate = results.total_moves / (time.perf_counter() - began)

    kind = "TD(0) with TC" if args.tc else "TD(0)"
    start_from = f"from {args.network}" if args.network else "from scratch"
    table = Table(title=f"4x4 n-tuple network (four 6-tuples, 32 lookups), one core, {kind} {start_from}")
    table.add_column("workload")
    table.add_column("moves/s", justify="right")
    table.add_column("vs native C random play", justify="right")
    rows = [
        (f"{kind} training, whole run", training_rate),
        (f"{kind} training, first quarter", first),
        (f"{kind} training, last quarter", last),
        ("greedy 1-ply play, trained network", greedy_rate),
        (f"memory bound: {CANDIDATE_READS} reads a move, all missing ({read_ns:.1f} ns each)", bound),
    ]
    if native is not None:
        rows.append(("native C random play (yardstick)", native))
    for name, rate in rows:
        table.add_row(name, f"{rate / 1e6:.3f} M", f"{rate / native:.3f}x" if native else "")
    console = Console()
    console.print(table)
    if native is None:
        console.print("no C compiler or no ../shared/bench/native2048.c: native yardstick skipped")
    console.print(
        f"training: {network.trained.games:,} games, {moves:,} moves in {seconds:.1f} s "
        f"(alpha {args.alpha}); mean score of the last batch {batches[-1][3]:,.0f}"
    )
    console.print(
        f"greedy 1-ply after training: mean score {results.mean_score:,.0f} over {results.games} games, "
        f"2048 reached in {results.reach_rate(2048):.1%}, max tile {results.max_tile}"
    )
    console.print(
        f"training speed {training_rate / 1e6:.2f} M moves/s (target >= 1 M); "
        f"{training_rate / bound:.2f}x the all-miss memory bound of {bound / 1e6:.2f} M moves/s"
    )
    print_json(
        "ntuple",
        {
            "training_moves_per_s": round(training_rate),
            "training_first_quarter_moves_per_s": round(first),
            "training_last_quarter_moves_per_s": round(last),
            "greedy_moves_per_s": round(greedy_rate),
            "native_random_moves_per_s": round(native) if native else None,
            "training_vs_native": training_rate / native if native else None,
            "random_read_ns": round(read_ns, 2),
            "all_miss_bound_moves_per_s": round(bound),
            "tc": args.tc,
            "network": args.network,
            "trained_games": network.trained.games,
            "trained_seconds": round(seconds, 2),
            "alpha": args.alpha,
            "greedy_games": results.games,
            "greedy_mean_score": results.mean_score,
            "greedy_reach_2048": results.reach_rate(2048),
            "greedy_max_tile": results.max_tile,
        },
        args,
    )


if __name__ == "__main__":
    main()
