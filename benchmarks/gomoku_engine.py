"""The gomoku engine's speed: the VCF solver on the labelled threat positions, and the search's node rate.

Prints two tables and one JSON line:

1. the VCF solver (``plyground.kinrow.threats``) on every position of
   ``tests/data/gomoku_threats.jsonl``, to the depth limit of its label: per kind of
   position, the mean and worst time per position, nodes per second, and whether every
   answer agreed with the label (a VCF within the label's depth, or none);
2. the engine's search (``plyground.kinrow.engine.Engine``), the same without its selectivity
   (``PLAIN``: no move-count or futility pruning, one-ply reductions) and the old alpha-beta
   (``plyground.kinrow.alphabeta.AlphaBeta``) for ``--time-ms`` on each of the first
   ``--positions`` positions without a forced win and without a five to make or block,
   one core each, side by side: nodes per second and the mean depth reached (the
   engine's root threat searches are off, so that only the search is timed).

    python benchmarks/gomoku_engine.py [--positions 20] [--time-ms 1000]

Matches against other engines are ``benchmarks/gomoku.py``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from _common import ROOT
from plyground.core.measurements import add_record_options, print_json
from plyground.kinrow import State
from plyground.kinrow.alphabeta import AlphaBeta
from plyground.kinrow.engine import PLAIN, Engine, EngineSettings
from plyground.kinrow.patterns import PatternBoard
from plyground.kinrow.threats import VcfSolver

FIXTURE = ROOT / "tests" / "data" / "gomoku_threats.jsonl"


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def time_ms(text: str) -> float:
    value = float(text)
    if not 1 <= value <= 60_000:
        raise argparse.ArgumentTypeError(f"must be from 1 to 60000 ms, got {text}")
    return value


def vcf_speed(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Solve every position to its label's VCF limit; per kind: count, times, nodes, agreement."""
    solver = VcfSolver()
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        result = solver.solve(State.parse(row["board"], 5), max_depth=row["vcf_limit"])
        entry = out.setdefault(row["kind"], {"positions": 0, "seconds": [], "nodes": 0, "agree": 0})
        entry["positions"] += 1
        entry["seconds"].append(result.seconds)
        entry["nodes"] += result.nodes
        entry["agree"] += (result.line is not None) == (row["vcf_depth"] is not None)
    for entry in out.values():
        times = entry.pop("seconds")
        entry |= {
            "mean_us": 1e6 * statistics.fmean(times),
            "max_us": 1e6 * max(times),
            "nodes_per_s": entry["nodes"] / sum(times),
        }
    return out


SEARCHERS = ("engine", "engine_plain", "alphabeta")
"""The engine, the engine without its selectivity (``PLAIN``), the old alpha-beta."""


def node_rates(rows: list[dict[str, Any]], count: int, ms: float) -> dict[str, Any]:
    """The engine's and alpha-beta's nodes per second and depth, interleaved on the same positions."""
    states = [State.parse(row["board"], 5) for row in rows if row["kind"] == "none"]
    positions = [state for state in states if state.forced_move() is None][:count]
    warm = Engine(depth=2)
    warm.choose(positions[0])  # the kernels are loaded before anything is timed
    AlphaBeta(depth=2).choose(positions[0])
    out: dict[str, Any] = {"positions": len(positions), "time_ms": ms}
    for name in SEARCHERS:
        out[name] = {"nodes": 0, "seconds": 0.0, "depths": []}
    for state in positions:
        for name, plain in (("engine", {}), ("engine_plain", PLAIN)):
            engine = Engine(time_ms=ms, settings=EngineSettings(defence_nodes=0, vct_share=0.0, **plain))
            engine.choose(state)
            assert engine.last is not None
            if engine.last.kind == "search":
                out[name]["nodes"] += engine.last.nodes
                out[name]["seconds"] += engine.last.seconds
                out[name]["depths"].append(engine.last.depth)
        searcher = AlphaBeta(depth=None, time_ms=ms)
        searcher.choose(state)
        if searcher.last is not None:
            out["alphabeta"]["nodes"] += searcher.last.nodes
            out["alphabeta"]["seconds"] += searcher.last.seconds
            out["alphabeta"]["depths"].append(searcher.last.depth)
    for name in SEARCHERS:
        entry = out[name]
        depths = entry.pop("depths")
        entry["searches"] = len(depths)
        entry["nodes_per_s"] = entry["nodes"] / entry["seconds"] if entry["seconds"] else 0.0
        entry["mean_depth"] = statistics.fmean(depths) if depths else 0.0
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=positive, default=20, help="positions of the node-rate table")
    parser.add_argument("--time-ms", type=time_ms, default=1000.0, help="milliseconds per search (1 to 60000)")
    parser.add_argument("--fixture", type=Path, default=FIXTURE, help="the labelled positions (JSON lines)")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args(argv)
    try:
        rows = [json.loads(line) for line in args.fixture.read_text().splitlines() if line.strip()]
    except (OSError, ValueError) as error:
        raise SystemExit(f"error: cannot read the positions of {args.fixture}: {error}") from None
    console = Console()
    PatternBoard(State.parse(rows[0]["board"], 5))  # the tables and kernels are ready before anything is timed
    VcfSolver().solve(State(15, 5), max_depth=3)

    vcf = vcf_speed(rows)
    table = Table(title="VCF solver on the labelled positions (to each label's depth limit)")
    for name in ("kind", "positions", "agree", "mean µs", "max µs", "nodes/s"):
        table.add_column(name, justify="right")
    for kind, entry in sorted(vcf.items()):
        table.add_row(
            kind, str(entry["positions"]), str(entry["agree"]), f"{entry['mean_us']:.0f}", f"{entry['max_us']:.0f}",
            f"{entry['nodes_per_s']:,.0f}",
        )  # fmt: skip
    console.print(table)

    rates = node_rates(rows, args.positions, args.time_ms)
    table = Table(title=f"search for {args.time_ms:g} ms on {rates['positions']} positions, one core each")
    for name in ("player", "searches", "nodes/s", "mean depth"):
        table.add_column(name, justify="right")
    for name in SEARCHERS:
        entry = rates[name]
        table.add_row(name, str(entry["searches"]), f"{entry['nodes_per_s']:,.0f}", f"{entry['mean_depth']:.1f}")
    console.print(table)
    print_json("gomoku_engine", {"vcf": vcf, "search": rates}, args)


if __name__ == "__main__":
    sys.exit(main())
