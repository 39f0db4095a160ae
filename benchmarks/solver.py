"""Strong solver speed and size: wall time, boards per second, peak memory, bytes per stored board.

Solves each size from scratch in a temporary folder, each in a fresh process (so that its
peak memory is its own), on every core; then Elias-Fano encodes the stored code arrays to
report the compact size beside the plain one. Also runs the 4x3 forward pass to age 120
and compares its per-age counts with the published ones (``tests/data``).

    python benchmarks/solver.py [--sizes 2x4 3x3] [--published-age 120] [--keep DIR]

Targets: 3x3 fully solved in under 3 minutes with under 4 GB of memory. The paper stores
its 7.4e11 4x3 afterstate codes in 1.4 TiB: about 2.08 bytes per code.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from _common import ROOT
from plyground.core.measurements import add_record_options, print_json

PUBLISHED_4X3 = ROOT / "tests" / "data" / "published_4x3_states_per_age.txt"
PAPER_BYTES_PER_CODE = 1.4 * 2**40 / 7.4e11


def run_one(size: str, folder: str, forward_only: bool, max_age: int | None) -> dict[str, object]:
    """Solve in this process and return the measurements (run by the parent in a child process)."""
    from plyground.g2048.solver import solve

    rows, cols = (int(n) for n in size.split("x"))
    times: dict[str, float] = {"forward": 0.0, "backward": 0.0}
    last = [time.perf_counter()]

    def on_layer(phase: str, age: int, counts: object) -> None:
        now = time.perf_counter()
        times[phase] += now - last[0]
        last[0] = now

    solve(2, 2, directory=tempfile.mkdtemp(prefix="plyground-warmup-"))  # loads (or compiles) the kernels
    start = last[0] = time.perf_counter()
    solution = solve(rows, cols, directory=folder, forward_only=forward_only, max_age=max_age, progress=on_layer)
    seconds = time.perf_counter() - start
    totals = solution.totals()
    return {
        "size": size,
        "seconds": seconds,
        "forward_s": times["forward"],
        "backward_s": times["backward"],
        "states": totals.states,
        "afterstates": totals.afterstates,
        "terminal": totals.terminal,
        "states_unreduced": totals.states_unreduced,
        "expected_score": solution.expected_score() if solution.solved else None,
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "per_age": [[c.age, c.states] for c in solution.counts()],
    }


def child(size: str, folder: str, forward_only: bool = False, max_age: int | None = None) -> dict[str, object]:
    command = [sys.executable, __file__, "--child", size, folder] + (["--max-age", str(max_age)] if max_age else [])
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=Path(__file__).parent)
    return json.loads(done.stdout.strip().splitlines()[-1])


def code_sizes(folder: str) -> dict[str, float]:
    """Bytes per stored board code: as stored (8-byte codes) and Elias-Fano encoded (cells packed)."""
    from plyground.core.elias_fano import encode
    from plyground.g2048.solution import LayerFiles, Solution, pack_codes

    solution = Solution(folder)
    layers = LayerFiles(solution.directory, solution.rows, solution.cols, solution.compact)
    plain = compact = count = 0
    for counts in solution.counts():
        for kind in ("states", "after"):
            codes = layers.load(kind, counts.age)
            plain += codes.nbytes
            compact += encode(pack_codes(codes, solution.rows, solution.cols)).nbytes
            count += codes.shape[0]
    return {"plain": plain / count, "elias_fano": compact / count}


def published(max_age: int) -> list[list[int]]:
    rows = [[int(n) for n in line.split()] for line in PUBLISHED_4X3.read_text().splitlines() if line.strip()]
    return [row for row in rows if row[0] <= max_age]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["2x4", "3x3"])
    parser.add_argument("--published-age", type=int, default=120, help="4x3 forward pass to this age (0: skip)")
    parser.add_argument("--keep", help="solve in this folder (one sub-folder per size) and keep the files")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--max-age", type=int, help=argparse.SUPPRESS)
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.child:
        size, folder = args.child
        print(json.dumps(run_one(size, folder, args.max_age is not None, args.max_age)))
        return

    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="plyground-solver-bench-"))
    rows = []
    for size in args.sizes:
        folder = base / size
        result = child(size, str(folder))
        result.update(code_sizes(str(folder)))
        rows.append(result)

    table = Table(title="2048 strong solver, every core, from scratch")
    for name in ("size", "states", "afterstates", "terminal", "time", "forward", "backward", "boards/s", "peak RSS"):
        table.add_column(name, justify="right")
    table.add_column("bytes/code plain / Elias-Fano", justify="right")
    table.add_column("expected score", justify="right")
    for row in rows:
        boards = row["states"] + row["afterstates"]
        table.add_row(
            str(row["size"]),
            f"{row['states']:,}",
            f"{row['afterstates']:,}",
            f"{row['terminal']:,}",
            f"{row['seconds']:.1f} s",
            f"{row['forward_s']:.1f} s",
            f"{row['backward_s']:.1f} s",
            f"{boards / row['seconds'] / 1e6:.2f} M",
            f"{row['peak_rss_bytes'] / 2**30:.2f} GiB",
            f"{row['plain']:.2f} / {row['elias_fano']:.2f}",
            f"{row['expected_score']:,.3f}",
        )
    console = Console(width=160)
    console.print(table)
    console.print(f"paper, 4x3 afterstate codes: {PAPER_BYTES_PER_CODE:.2f} bytes per code (1.4 TiB for 7.4e11)")

    check: dict[str, object] = {}
    if args.published_age:
        folder = base / f"4x3-to-{args.published_age}"
        result = child("4x3", str(folder), max_age=args.published_age)
        expected = published(args.published_age)
        ours = result["per_age"]
        mismatches = [(a, b) for a, b in zip(expected, ours, strict=False) if a != b] + (
            [] if len(expected) == len(ours) else [("ages", len(expected), len(ours))]
        )
        check = {
            "max_age": args.published_age,
            "states": result["states"],
            "seconds": result["seconds"],
            "peak_rss_bytes": result["peak_rss_bytes"],
            "matches_published": not mismatches,
        }
        verdict = "all ages match" if not mismatches else f"MISMATCH at {mismatches[:3]}"
        console.print(
            f"4x3 forward pass to age {args.published_age}: {result['states']:,} states in {result['seconds']:.1f} s, "
            f"peak {result['peak_rss_bytes'] / 2**30:.2f} GiB; published per-age counts: {verdict}"
        )
    summary = [{key: value for key, value in row.items() if key != "per_age"} for row in rows]
    print_json("solver", {"rows": summary, "published_4x3": check}, args)


if __name__ == "__main__":
    main()
