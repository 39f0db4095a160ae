"""k-in-a-row: MCTS speed against a numpy implementation, symmetry sharing, and matches between the players.

Prints five tables and one JSON line:

1. the MCTS statistics table's size with and without symmetry sharing, at equal iterations (n=4, k=3);
2. MCTS iterations per second, numba against the straightforward numpy implementation of the
   same algorithm (``tests/naive/mcts_kinrow.py``), side by side — target: at least 50x; and the rate of
   MCTS with line patterns (PUCT priors and weighted playouts, ``patterns=True``) on the same boards;
3. alpha-beta at depth 2 against MCTS at 0.3 s per move for n = 3..9 (k = min(n, 4)):
   results and time per move;
4. a match table at equal time per move: MCTS, alpha-beta and random, each pair playing both
   colours (n=7, k=4 and n=15, k=5; MCTS there plays with patterns, its default from 9x9);
5. MCTS with patterns against plain MCTS (``patterns=False``) and against the engine at equal time
   per move, n=15, k=5, colours alternating.

``--games 0`` prints the first two tables only, without the matches (the long part).

    python benchmarks/kinrow.py [--games 4] [--time 0.3] [--quick]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from _common import naive
from plyground.core.measurements import add_record_options, print_json
from plyground.kinrow import State
from plyground.kinrow.mcts import MCTS
from plyground.kinrow.players import Player, RandomPlayer
from plyground.kinrow.selfplay import play_match

NaiveMCTS = naive("mcts_kinrow").NaiveMCTS


def table_sizes(iterations: int) -> dict[str, int]:
    state = State(4, 3)
    return {
        "with_symmetry": MCTS(iterations=iterations, seed=1).search(state).table_entries,
        "without_symmetry": MCTS(iterations=iterations, seed=1, symmetry=False).search(state).table_entries,
    }


def iteration_rates(n: int, k: int, naive_iterations: int, repeats: int) -> dict[str, float]:
    state = State(n, k)
    board = state.cells.reshape(n, n).copy()
    MCTS(iterations=100, seed=0).search(state)  # compiled, or loaded from the cache
    MCTS(iterations=100, seed=0, patterns=True).search(state)
    fast, slow, guided = [], [], []
    for r in range(repeats):  # interleaved
        stats = MCTS(iterations=max(2000, 100 * naive_iterations), seed=r, patterns=False).search(state)
        fast.append(stats.iterations / stats.seconds)
        stats = MCTS(iterations=max(2000, 100 * naive_iterations), seed=r, patterns=True).search(state)
        guided.append(stats.iterations / stats.seconds)
        start = time.perf_counter()
        NaiveMCTS(seed=r).search(board, k, state.to_move, naive_iterations)
        slow.append(naive_iterations / (time.perf_counter() - start))
    numba_rate, numpy_rate = statistics.median(fast), statistics.median(slow)
    return {
        "n": n,
        "k": k,
        "numba_per_s": numba_rate,
        "numpy_per_s": numpy_rate,
        "ratio": numba_rate / numpy_rate,
        "patterns_per_s": statistics.median(guided),
    }


def match(
    make_a: Callable[[int], Player], make_b: Callable[[int], Player], n: int, k: int, games: int
) -> dict[str, Any]:
    """``games`` games, colours alternating: a's wins, draws, b's wins, mean seconds per move of each."""
    summary = play_match(make_a, make_b, games, n, k, seed=1, swap=True)
    return {
        "a_wins": summary.first.wins,
        "draws": summary.first.draws,
        "b_wins": summary.second.wins,
        "a_s_per_move": summary.first.mean_seconds,
        "b_s_per_move": summary.second.mean_seconds,
    }


def matches(args: argparse.Namespace, out: dict[str, Any], console: Console) -> None:
    """The match tables: alpha-beta against MCTS, the players at equal time, MCTS with patterns against its rivals."""
    from plyground.kinrow.alphabeta import AlphaBeta

    table = Table(title=f"alpha-beta depth 2 vs MCTS {args.time:g} s/move, {args.games} games each, colours alternate")
    for name in ("n", "k", "alpha-beta wins", "draws", "MCTS wins", "alpha-beta s/move", "MCTS s/move"):
        table.add_column(name, justify="right")
    out["alphabeta_vs_mcts"] = []
    for n in range(3, 8 if args.quick else 10):
        k = min(n, 4)
        row = match(lambda g: AlphaBeta(depth=2), lambda g: MCTS(time_ms=1000 * args.time, seed=g), n, k, args.games)
        out["alphabeta_vs_mcts"].append({"n": n, "k": k, **row})
        table.add_row(
            str(n), str(k), str(row["a_wins"]), str(row["draws"]), str(row["b_wins"]),
            f"{row['a_s_per_move']:.3f}", f"{row['b_s_per_move']:.3f}",
        )  # fmt: skip
    console.print(table)

    makers: dict[str, Callable[[int], Player]] = {
        "mcts": lambda g: MCTS(time_ms=1000 * args.time, seed=g),
        "alphabeta": lambda g: AlphaBeta(depth=8, time_ms=1000 * args.time),
        "random": lambda g: RandomPlayer(seed=g),
    }
    out["matches"] = []
    for n, k in [(7, 4)] + ([] if args.quick else [(15, 5)]):
        table = Table(title=f"matches at {args.time:g} s per move, n={n} k={k}, {args.games} games per pair")
        for name in ("A", "B", "A wins", "draws", "B wins", "A s/move", "B s/move"):
            table.add_column(name, justify="right")
        for a, b in itertools.combinations(makers, 2):
            row = match(makers[a], makers[b], n, k, args.games)
            out["matches"].append({"n": n, "k": k, "a": a, "b": b, **row})
            table.add_row(
                a, b, str(row["a_wins"]), str(row["draws"]), str(row["b_wins"]),
                f"{row['a_s_per_move']:.3f}", f"{row['b_s_per_move']:.3f}",
            )  # fmt: skip
        console.print(table)

    from plyground.kinrow.engine import Engine

    def guided(g: int) -> Player:
        return MCTS(time_ms=1000 * args.time, seed=g, patterns=True)

    rivals: dict[str, Callable[[int], Player]] = {
        "plain mcts": lambda g: MCTS(time_ms=1000 * args.time, seed=1000 + g, patterns=False),
        "engine": lambda g: Engine(time_ms=1000 * args.time),
    }
    table = Table(title=f"MCTS with patterns at {args.time:g} s per move, n=15 k=5, {args.games} games per pair")
    for name in ("B", "patterns wins", "draws", "B wins", "patterns s/move", "B s/move"):
        table.add_column(name, justify="right")
    out["patterns"] = []
    for name, rival in rivals.items():
        row = match(guided, rival, 15, 5, args.games)
        out["patterns"].append({"n": 15, "k": 5, "b": name, **row})
        table.add_row(
            name, str(row["a_wins"]), str(row["draws"]), str(row["b_wins"]),
            f"{row['a_s_per_move']:.3f}", f"{row['b_s_per_move']:.3f}",
        )  # fmt: skip
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=4, help="games per pairing (colours alternate; 0: the speed tables only)"
    )
    parser.add_argument("--time", type=float, default=0.3, help="seconds per move of the searching players")
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a check that everything works")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.games < 0:
        parser.error("--games is 0 or more")

    console = Console(width=150)
    out: dict[str, Any] = {}

    out["table_sizes"] = sizes = table_sizes(2_000 if args.quick else 20_000)
    table = Table(title="MCTS statistics table, n=4 k=3, equal iterations")
    table.add_column("with symmetry sharing", justify="right")
    table.add_column("without", justify="right")
    table.add_column("ratio", justify="right")
    table.add_row(
        f"{sizes['with_symmetry']:,}",
        f"{sizes['without_symmetry']:,}",
        f"{sizes['without_symmetry'] / sizes['with_symmetry']:.2f}x",
    )
    console.print(table)

    boards = [(3, 3), (7, 4), (15, 5)]
    out["iterations"] = rates = [iteration_rates(n, k, 20 if args.quick else 200, 3) for n, k in boards]
    table = Table(title="MCTS iterations per second, one core (target: numba >= 50x numpy)")
    for name in ("board", "numba", "numpy", "numba / numpy", "numba, patterns"):
        table.add_column(name, justify="right")
    for row in rates:
        table.add_row(
            f"n={row['n']} k={row['k']}",
            f"{row['numba_per_s']:,.0f}",
            f"{row['numpy_per_s']:,.0f}",
            f"{row['ratio']:.0f}x",
            f"{row['patterns_per_s']:,.0f}",
        )
    console.print(table)

    if args.games > 0:
        matches(args, out, console)
    print_json("kinrow", out, args)


if __name__ == "__main__":
    main()
