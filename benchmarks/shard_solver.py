"""The sharded strong solver: exact against the in-memory one, and what it costs (the cost model's measurements).

Two parts, each optional:

* **Exactness** (``--sizes``): each size is solved in memory and then sharded, on a local
  Dask cluster of ``--dask-local`` workers, once for each ``--shards`` count; a hash of every
  age's codes and values must be the same, and the table gives both wall times.
* **4x3 forward pass** (``--forward-age A``): the forward pass of 4x3 to age A in ``--dir``
  (kept, and resumed if the run is stopped: the measurements of finished ages are kept in
  ``DIR/forward-costs.jsonl``), on ``--workers`` local processes with ``--forward-shards``
  shards. Its per-age counts are checked against the published ones; it prints the states a
  second of one worker (the tasks' own time), the bits a stored state and afterstate takes,
  each worker's peak memory, the bytes the tasks send each other (the shuffle), and the
  projection of the whole 4x3 solve from them.

    python benchmarks/shard_solver.py [--sizes 3x3 2x4] [--shards 1 16] [--dask-local 2]
    python benchmarks/shard_solver.py --sizes --forward-age 400 --dir /scratch/4x3 [--workers 2]

Targets: every sharded solve equal to the in-memory one (3x3: 5,468.48679741); the 4x3 forward
pass to age 400 (3.83e9 states) matching the published counts within 2 hours on 2 cores.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from _common import ROOT
from plyground.core.measurements import add_record_options, print_json

PUBLISHED_4X3 = ROOT / "tests" / "data" / "published_4x3_states_per_age.txt"
ALL_4X3_STATES = 1_152_817_492_752
ALL_4X3_AFTERSTATES = 739_648_886_170
LARGEST_4X3_LAYER = 297_784_736  # states of age 9568, the largest layer
COSTS_FILE = "forward-costs.jsonl"


def digest(layers: Any, ages: list[int]) -> str:
    """A hash of every age's codes and values, in age order."""
    h = hashlib.sha256()
    for age in ages:
        codes, values = layers(age)
        h.update(codes.tobytes())
        h.update(values.tobytes())
    return h.hexdigest()[:16]


def exactness(sizes: list[str], shard_counts: list[int], workers: int, base: Path) -> list[dict[str, Any]]:
    from plyground.core.run_many import Backend
    from plyground.g2048.shards import solve_sharded
    from plyground.g2048.solver import solve

    solve(2, 2, directory=base / "warm-up")  # loads (or compiles) the kernels here
    rows = []
    for size in sizes:
        r, c = (int(n) for n in size.split("x"))
        start = time.perf_counter()
        memory = solve(r, c, directory=base / f"{size}-memory")
        memory_s = time.perf_counter() - start
        expected = digest(memory.layer, [counts.age for counts in memory.counts()])
        for shards in shard_counts:
            task_s = {"forward": 0.0, "backward": 0.0}

            def on_round(phase: str, age: int, totals: dict[str, float], task_s: dict[str, float] = task_s) -> None:
                task_s["forward" if phase in ("start", "states", "after") else "backward"] += totals["seconds"]

            start = time.perf_counter()
            folder = solve_sharded(
                r, c, base / f"{size}-p{shards}", backend=Backend(dask_local=workers), shards=shards, on_round=on_round
            )
            sharded_s = time.perf_counter() - start
            states = sum(row[1] for row in folder.meta["ages"])
            rows.append({
                "size": size,
                "shards": shards,
                "workers": workers,
                "memory_s": memory_s,
                "sharded_s": sharded_s,
                "forward_task_s": task_s["forward"],
                "backward_task_s": task_s["backward"],
                "states": states,
                "same_hash": digest(folder.layer, folder.ages) == expected,
                "hash": expected,
                "expected_score": memory.expected_score(),
                "stored_bits_per_state": 8 * _stored_bytes(folder) / states,
            })  # fmt: skip
    return rows


def _stored_bytes(folder: Any) -> int:
    return sum(path.stat().st_size for path in (folder.directory / "ages").rglob("*") if path.is_file())


# ---------------------------------------------------------------------------
# The 4x3 forward pass


class PeakMemory:
    """The largest resident memory of any one worker process (this process's children, or this process
    when the tasks run here), sampled."""

    def __init__(self, interval_s: float = 0.05) -> None:
        import psutil

        self._me = psutil.Process()
        self._interval = interval_s
        self._stop = threading.Event()
        self.peak = 0
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def take(self) -> int:
        """The peak since the last call."""
        peak, self.peak = self.peak, 0
        return peak

    def _sample(self) -> None:
        while not self._stop.wait(self._interval):
            for child in [self._me, *self._me.children(recursive=True)]:  # (one worker: tasks run here)
                try:
                    self.peak = max(self.peak, child.memory_info().rss)
                except Exception:  # a worker ending between the listing and the reading
                    continue

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


def published(max_age: int) -> dict[int, int]:
    rows = (line.split() for line in PUBLISHED_4X3.read_text().splitlines() if line.strip())
    return {int(age): int(count) for age, count in rows if int(age) <= max_age}


def forward_pass(folder: Path, max_age: int, shards: int, workers: int, console: Console) -> list[dict[str, Any]]:
    """Run (or resume) the 4x3 forward pass and return one row of costs per age, old runs' ages included."""
    from plyground.core.run_many import Backend
    from plyground.g2048.shards import solve_sharded

    folder.mkdir(parents=True, exist_ok=True)
    costs = folder / COSTS_FILE
    rows = [json.loads(line) for line in costs.read_text().splitlines()] if costs.exists() else []
    memory = PeakMemory()
    current: dict[str, Any] = {}
    last = [time.perf_counter()]

    def on_round(phase: str, age: int, totals: dict[str, float]) -> None:
        if phase == "start" or not totals["ran"]:
            return
        row = current.setdefault("row", {"age": age, "task_s": 0.0, "sent_bytes": 0, "stored_bytes": 0})
        row["task_s"] += totals["seconds"]
        row["sent_bytes"] += totals["sent_bytes"]
        row["stored_bytes"] += totals["stored_bytes"]
        if phase == "states":
            row["states"] = totals["states"]
        else:
            row["afterstates"] = totals["afterstates"]

    def progress(phase: str, age: int, counts: Any) -> None:
        now = time.perf_counter()
        row = current.pop("row", None)
        if row is not None and "states" in row and "afterstates" in row:
            row.update(wall_s=now - last[0], peak_rss=memory.take())
            rows.append(row)
            with costs.open("a") as handle:
                handle.write(json.dumps(row) + "\n")
            if age % 20 == 0:
                console.print(f"age {age}: {row['states']:,} states, {row['wall_s']:.1f} s", highlight=False)
        last[0] = now

    try:
        solve_sharded(
            4, 3, folder, backend=Backend(workers=workers), shards=shards, forward_only=True, max_age=max_age,
            progress=progress, on_round=on_round,
        )  # fmt: skip
    finally:
        memory.close()
    return rows


def forward_summary(folder: Path, rows: list[dict[str, Any]], max_age: int, workers: int) -> dict[str, Any]:
    from plyground.g2048.shards.store import ShardFolder

    meta = ShardFolder.open(folder).meta
    ours = {row[0]: row[1] for row in meta["ages"] if row[0] <= max_age}
    expected = published(max_age)
    mismatches = [age for age in expected if ours.get(age) != expected[age]]
    # An age that a stop cut in two has no row (its costs are partly lost): the rates are those of the ages measured.
    states = sum(row["states"] for row in rows)
    after = sum(row["afterstates"] for row in rows)
    task_s = sum(row["task_s"] for row in rows)
    wall_s = sum(row["wall_s"] for row in rows)
    late = [row for row in rows if row["age"] > max_age - 100] or rows
    late_states = sum(row["states"] for row in late)
    late_task_s = sum(row["task_s"] for row in late)
    per_worker = late_states / late_task_s if late_task_s else 0.0
    stored = sum(row["stored_bytes"] for row in late)
    largest = max(rows, key=lambda row: row["states"])
    return {
        "max_age": max(ours, default=0),
        "ages_measured": len(rows),
        "states": sum(ours.values()),
        "states_measured": states,
        "afterstates_measured": after,
        "matches_published": not mismatches and max(ours, default=0) >= max_age,
        "first_mismatches": mismatches[:3],
        "wall_s": wall_s,
        "task_s": task_s,
        "workers": workers,
        "states_per_s": states / wall_s if wall_s else 0.0,
        "states_per_s_per_worker_late": per_worker,
        "bits_per_stored_board_late": 8 * stored / sum(row["states"] + row["afterstates"] for row in late),
        "sent_bytes_per_state_late": sum(row["sent_bytes"] for row in late) / late_states,
        "peak_rss_bytes": max(row["peak_rss"] for row in rows),
        "peak_rss_bytes_per_shard_state": largest["peak_rss"] / (largest["states"] / meta["shards"]),
    }


def projection(forward: dict[str, Any], backward_per_forward: float, workers: int) -> dict[str, float]:
    """The whole 4x3 solve on ``workers`` workers, from the forward pass's late-age rates."""
    rate = forward["states_per_s_per_worker_late"]
    forward_s = ALL_4X3_STATES / rate / workers
    return {
        "workers": workers,
        "forward_days": forward_s / 86400,
        "backward_days": forward_s * backward_per_forward / 86400,
        "codes_tib": forward["bits_per_stored_board_late"] * (ALL_4X3_STATES + ALL_4X3_AFTERSTATES) / 8 / 2**40,
        "shuffle_tib_per_pass": forward["sent_bytes_per_state_late"] * ALL_4X3_STATES / 2**40,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", default=["3x3", "2x4"], help="sizes checked against the in-memory solve")
    parser.add_argument("--shards", nargs="+", type=int, default=[1, 16], help="shard counts of the exactness part")
    parser.add_argument("--dask-local", type=int, default=2, help="Dask workers of the exactness part")
    parser.add_argument("--forward-age", type=int, default=0, help="4x3 forward pass to this age (0: skip)")
    parser.add_argument("--forward-shards", type=int, default=16)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes of the forward pass")
    parser.add_argument("--dir", type=Path, help="the 4x3 folder (kept, resumed); default: a temporary one")
    parser.add_argument("--project-workers", type=int, default=64, help="workers of the 4x3 projection")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.forward_age and args.forward_age < 8:
        parser.error("--forward-age is 0 (skip) or an age of at least 8")
    console = Console(width=160)
    base = Path(tempfile.mkdtemp(prefix="plyground-shard-bench-"))  # removed at the end (3x3 leaves a GiB)
    try:
        run(args, console, base)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run(args: argparse.Namespace, console: Console, base: Path) -> None:
    """The exactness part, then the 4x3 forward pass, the tables and the JSON line; solves go under ``base``."""
    rows = exactness(args.sizes, args.shards, args.dask_local, base) if args.sizes else []
    if rows:
        table = Table(title=f"sharded solve on a local Dask cluster of {args.dask_local} workers against in memory")
        for name in ("size", "shards", "in memory", "sharded", "ratio", "tasks fwd / bwd", "bits/state stored",
                     "same hash", "expected score"):  # fmt: skip
            table.add_column(name, justify="right")
        for row in rows:
            table.add_row(
                row["size"], str(row["shards"]), f"{row['memory_s']:.1f} s", f"{row['sharded_s']:.1f} s",
                f"{row['sharded_s'] / row['memory_s']:.2f}x",
                f"{row['forward_task_s']:.1f} / {row['backward_task_s']:.1f} s",
                f"{row['stored_bits_per_state']:.2f}", "yes" if row["same_hash"] else "NO",
                f"{row['expected_score']:,.8f}",
            )  # fmt: skip
        console.print(table)

    forward: dict[str, Any] = {}
    project: dict[str, float] = {}
    if args.forward_age:
        folder = args.dir or base / "4x3"
        costs = forward_pass(folder, args.forward_age, args.forward_shards, args.workers, console)
        forward = forward_summary(folder, costs, args.forward_age, args.workers)
        ratios = [
            r["backward_task_s"] / r["forward_task_s"] for r in rows if r["size"] == "3x3" and r["forward_task_s"]
        ]
        project = projection(forward, max(ratios, default=2.0), args.project_workers)
        console.print(
            f"4x3 forward pass to age {forward['max_age']}: {forward['states']:,} states; the "
            f"{forward['ages_measured']} ages measured: {forward['states_measured']:,} in {forward['wall_s']:,.0f} s "
            f"on {args.workers} workers "
            f"({forward['states_per_s']:,.0f} states/s); late ages: "
            f"{forward['states_per_s_per_worker_late']:,.0f} states/s a worker, "
            f"{forward['bits_per_stored_board_late']:.2f} bits a stored board, "
            f"{forward['sent_bytes_per_state_late']:.1f} bytes sent a state; peak "
            f"{forward['peak_rss_bytes'] / 2**30:.2f} GiB a worker; published counts: "
            + ("all match" if forward["matches_published"] else f"MISMATCH {forward['first_mismatches']}"),
            highlight=False,
        )
        console.print(
            f"projection, the whole 4x3 on {project['workers']} such workers: forward {project['forward_days']:.1f} "
            f"days, backward {project['backward_days']:.1f} days, {project['codes_tib']:.2f} TiB of codes, "
            f"{project['shuffle_tib_per_pass']:.2f} TiB sent in the forward pass",
            highlight=False,
        )
    print_json("shard_solver", {"exactness": rows, "forward_4x3": forward, "projection": project}, args)


if __name__ == "__main__":
    main()
