"""Alpha-beta against MCTS on lines longer than five, where the engine does not play.

The engine (pattern tables, threats, renju) plays k from 3 to 5; beyond, the searchers are
alpha-beta (a window heuristic over any k) and plain MCTS. This plays seeded matches between the
two, changing sides after each game, at ``--time-ms`` per move: MCTS with its time, alpha-beta at
``--depth`` (deepening one ply at a time within the same time, up to that depth), on each board
of ``--boards`` (``NxK``). One JSON line a match: the board, the settings, each side's wins, draws,
losses and milliseconds per move, and the score of MCTS with its 95% interval.

    python experiments/2026-12-07-alpha-beta-beyond-five/matches.py [--boards 9x6 11x6 12x7 15x6]
        [--games 20] [--time-ms 100] [--depth 2 30] [--seed 1]
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.kinrow.players import make_player
from plyground.kinrow.selfplay import match_json, play_match


def board(text: str) -> tuple[int, int]:
    """``NxK`` as ``(n, k)``."""
    n, _, k = text.partition("x")
    if not (n.isdigit() and k.isdigit()) or not 6 <= int(k) <= int(n) <= 20:
        raise argparse.ArgumentTypeError(f"a board is NxK with 6 <= K <= N <= 20, got {text!r}")
    return int(n), int(k)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=board, nargs="+", default=[(9, 6), (11, 6), (12, 7), (15, 6)])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time-ms", type=float, default=100.0)
    parser.add_argument("--depth", type=int, nargs="+", default=[2, 30], help="alpha-beta's depths, a match each")
    parser.add_argument("--seed", type=int, default=1)
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()
    if args.games < 1 or not 0 < args.time_ms <= 60_000 or not all(1 <= depth <= 30 for depth in args.depth):
        parser.error("--games is at least 1, --time-ms from 0 to 60,000 and --depth from 1 to 30")
    table = Table(title=f"MCTS against alpha-beta, {args.time_ms:g} ms per move, {args.games} games each")
    for name in ("board", "a-b depth", "MCTS won", "drawn", "lost", "MCTS score", "95%", "a-b ms"):
        table.add_column(name, justify="right")
    matches: list[dict[str, Any]] = []
    for n, k in args.boards:
        for depth in args.depth:
            mcts = partial(_player, "mcts", time_ms=args.time_ms)
            alphabeta = partial(_player, "alphabeta", time_ms=args.time_ms, depth=depth)
            summary = play_match(mcts, alphabeta, args.games, n, k, seed=args.seed, swap=True)
            found = match_json(summary)
            first, second, score = found["first"], found["second"], found["score"]
            low, high = score["interval"]
            table.add_row(
                f"{n}x{n} k{k}", str(depth), str(first["wins"]), str(first["draws"]), str(first["losses"]),
                f"{score['rate']:.1%}", f"{low:.0%}-{high:.0%}", f"{second['ms_per_move']:.1f}",
            )  # fmt: skip
            matches.append({"n": n, "k": k, "depth": depth, "mcts": first, "alphabeta": second, "score": score})
    Console().print(table)
    print_json("alphabeta_beyond_five", {"games": args.games, "time_ms": args.time_ms, "matches": matches}, args)


def _player(kind: str, seed: int, *, time_ms: float, depth: int = 2) -> Any:
    return make_player(kind, time_ms=time_ms, depth=depth, seed=seed)


if __name__ == "__main__":
    main()
