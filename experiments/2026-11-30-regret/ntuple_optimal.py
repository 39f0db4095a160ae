"""How close a trained n-tuple network's play comes to optimal play, on boards the solver has solved.

For each size, trains a fresh seeded network by afterstate TD(0) (or by expected updates,
``--expected``) for ``--train-games`` games (or ``--seconds``), or loads one saved by ``--save``
(``--load DIR``, trained on for ``--seconds`` if given), then plays ``--games`` seeded games with
its greedy 1-ply policy (the legal move of largest ``points + V(afterstate)``, first in direction
order among equals, as in training) and, for each ``--search-depth D``, with expectimax of depth D
valuing its leaves with the network; every move is compared with the exact solution (solving the
size first if needed: 3x3 takes a minute or two). The measures are those of ``regret.py``: the mean
score as a fraction of the optimal expected score, the steadier ``1 - regret per game / optimal``,
and the share of optimal moves.

    python experiments/2026-11-30-regret/ntuple_optimal.py [--sizes 3x3 2x3 3x2 2x4] [--load DIR]
        [--train-games 300000 | --seconds S]
        [--games 300] [--search-depth D ...] [--alpha 1.0] [--tc | --no-tc] [--initial-value V] [--restarts R]
        [--expected] [--tuples wide | default | wide+7 | wide+7x3 | wide+8] [--save DIR]

Target: on 3x3, a network trained there reaches >= 95% of the optimal expected score
(judged by the regret-based fraction, whose interval is the narrower).

Settings tried on 3x3 (greedy mean over 5,000 games; the optimal expected score is 5,468.5,
and optimal play makes 512 in about 3 games of 4, 1024 almost never):

* default tuples (two 5-tuples), alpha 0.1: 4,075 after 80k games; alpha 0.1 decaying to
  0.01 over 400k games: ~4,200 (77%); with TC and alpha 1: ~4,020 after 80k games;
* a 2x3 rectangle and an L-shaped 6-tuple, alpha 0.1 decaying to 0.01, 400k games: ~4,300,
  making 512 in 57% of games, never 1024;
* ``wide`` (the two default 5-tuples and those two 6-tuples) with TC and alpha 1: 4,630
  (85%) after 300k games, still creeping up (the defaults here);
* optimistic initial values: 20,000 with alpha 0.1 is far slower (3,300 after 100k
  games); 6,000 with ``wide``, alpha 0.1, no TC: 4,440 after 300k games, still rising;
* 2-ply and 3-ply expectimax on a 4,300 network reached 4,590 and 4,690; on the 86% network
  (``wide``, TC, initial values 6,000, 1M games), 300 games: greedy 86.3% by regret, depth 2
  84.3%, depth 3 88.3%: the gap is in the values, not in the 1-ply policy;
* 7-tuples, TC from initial values 6,000, 300 games, by regret (greedy / depth 3):
  ``wide+7`` 89.8% / 90.8% after 980k games (30 min), 91.0% / 90.1% after 890k more at
  alpha 0.5; ``wide+7x3`` 89.0% / 92.0% after 940k games (40 min), 89.5% / 91.7% after
  460k more at alpha 0.5.
* ``--expected`` (every legal move's afterstate towards the mean greedy value over every
  spawn), TC from zero values: ``wide+8`` 95.6% greedy over 1,000 games after 161k games
  (30 min, 30,000 moves/s): the target is met by learning alone.

On 2x3, where ``wide`` includes the whole board (a table of every board), 500k games give
81% with alpha 0.1 and 70% with TC: greedy TD from zero values stops trying moves whose
afterstates it has not met. ``--initial-value 1000`` (above every true value) fixes that:
99% by score, 97% by regret, with alpha 0.1 (94% with TC).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.core.stats import mean_half_width
from plyground.errors import InvalidInputError
from plyground.g2048 import Board
from plyground.g2048.board import Direction
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.ntuple import (
    NTupleNetwork,
    check_expected_updates,
    check_lambda,
    check_restarts,
    check_stage_tiles,
    default_horizon,
    default_tuples,
)
from plyground.g2048.regret import Player, play_judged, search_player
from plyground.g2048.solver import Solution, default_directory, solve

Tuples = tuple[tuple[tuple[int, int], ...], ...]

TARGET = 0.95
CHUNK = 10_000
"""Training games per ``learn`` call (between checks of ``--seconds``); a twentieth with ``--expected``."""

_R2 = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))
_WIDE_EXTRA: dict[tuple[int, int], Tuples] = {
    (2, 3): (_R2,),  # the whole board
    (2, 4): (_R2, ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1))),
    (3, 3): (_R2, ((0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (1, 1))),
}
"""6-tuples that ``--tuples wide`` adds to the default ones (transposed on a tall board)."""

_SEVEN: Tuples = (
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0)),  # all but a corner and its edge neighbour
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)),  # all but a corner and the centre
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 1)),  # all but two corners of a side
)
"""3x3 7-tuples (11**7 weights each) that ``--tuples wide+7`` (the first two) and ``wide+7x3`` add to ``wide``."""

_EIGHT: Tuples = tuple(
    tuple((r, c) for r in range(3) for c in range(3) if (r, c) != missing) for missing in ((2, 2), (2, 1), (1, 1))
)
"""3x3 8-tuples (11**8 weights each): all but a corner, all but the middle of a side, all but the centre."""


def tuples_for(name: str, rows: int, cols: int) -> Tuples:
    """The tuples of ``--tuples``: ``default`` (:func:`default_tuples`), ``wide`` (with 6-tuples
    added), or, on 3x3 only, ``wide+7`` and ``wide+7x3`` (``wide`` with two or three 7-tuples) and
    ``wide+8`` (``wide`` with three 8-tuples)."""
    tuples = default_tuples(rows, cols)
    if name == "default":
        return tuples
    if name in ("wide+7", "wide+7x3", "wide+8"):
        if (rows, cols) != (3, 3):
            raise SystemExit(f"--tuples {name} is for 3x3 only, not {rows}x{cols}")
        if name == "wide+8":
            return tuples_for("wide", 3, 3) + _EIGHT
        return tuples_for("wide", 3, 3) + _SEVEN[: 2 if name == "wide+7" else 3]
    if rows <= cols:
        return tuples + _WIDE_EXTRA[rows, cols]
    return tuples + tuple(tuple((c, r) for r, c in cells) for cells in _WIDE_EXTRA[cols, rows])


def greedy_player(network: NTupleNetwork) -> Player:
    """The network's 1-ply policy: the first legal move of largest ``points + V(afterstate)``."""

    def choose(board: Board) -> Direction | None:
        best, best_value = "", 0.0
        for move in board.legal_moves():
            after, points = board.move(move)
            value = points + network.value(after)
            if not best or value > best_value:
                best, best_value = move, value
        return best

    return choose


def train(network: NTupleNetwork, args: argparse.Namespace, console: Console, label: str) -> float:
    """Train in chunks until ``--train-games`` games or ``--seconds``; return the last chunk's mean score."""
    total = None if args.seconds else args.train_games
    last_mean = 0.0
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{label} training", total=total or args.seconds)
        start = time.perf_counter()
        while True:
            done, spent = network.trained.games, time.perf_counter() - start
            if (total is not None and done >= total) or (total is None and spent >= args.seconds):
                break
            chunk = CHUNK // 20 if args.expected else CHUNK
            games = chunk if total is None else min(chunk, total - done)
            stats = network.learn(
                games,
                alpha=args.alpha,
                tc=args.tc,
                td_lambda=args.td_lambda,
                horizon=args.horizon,
                restarts=args.restarts,
                expected=args.expected,
                workers=1,
            )
            last_mean = stats.results.mean_score
            progress.update(task, completed=network.trained.games if total else time.perf_counter() - start)
    return last_mean


def evaluate(
    solution: Solution, player: Player, args: argparse.Namespace, console: Console, label: str
) -> dict[str, Any]:
    """Play ``--games`` seeded games with ``player`` and compare every move with the solution."""
    optimal = solution.expected_score()
    games = []
    start = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{label} evaluation", total=args.games)
        for i in range(args.games):
            games.append(play_judged(solution, player, seed=args.seed + 1_000_000 + i))
            progress.advance(task)
    scores = [g.score for g in games]
    regrets = [g.regret for g in games]
    moves = sum(g.moves for g in games)
    fraction_by_regret = 1.0 - statistics.fmean(regrets) / optimal
    return {
        "games": args.games,
        "optimal_expected_score": optimal,
        "mean_score": statistics.fmean(scores),
        "score_ci95": mean_half_width(scores),
        "fraction_by_score": statistics.fmean(scores) / optimal,
        "fraction_by_score_ci95": mean_half_width(scores) / optimal,
        "regret_per_game": statistics.fmean(regrets),
        "regret_per_game_ci95": mean_half_width(regrets),
        "fraction_by_regret": fraction_by_regret,
        "fraction_by_regret_ci95": mean_half_width(regrets) / optimal,
        "regret_per_move": sum(regrets) / moves,
        "optimal_move_share": sum(g.optimal_moves for g in games) / moves,
        "evaluation_seconds": time.perf_counter() - start,
        "target_met": fraction_by_regret >= TARGET,
    }


def measure(size: str, args: argparse.Namespace, console: Console) -> list[dict[str, Any]]:
    """Train (or load) a network for ``size``; measure its greedy play, and its play under
    expectimax at each ``--search-depth``, against the solution."""
    rows, cols = (int(n) for n in size.split("x"))
    folder = args.dir / size if args.dir else default_directory(rows, cols)
    if not (folder / "solution.json").exists():
        console.print(f"solving {size} into {folder} ...")
    solution = solve(rows, cols, directory=folder, workers=args.workers)

    last_mean = None
    if args.load:
        network = NTupleNetwork.load(args.load / f"ntuple-{size}.npz", rows=rows, cols=cols)
        tuples = network.tuples
    else:
        tuples = tuples_for(args.tuples, rows, cols)
        network = NTupleNetwork(
            rows, cols, tuples, seed=args.seed, initial_value=args.initial_value, stage_tiles=args.stage_tile
        )
    trains = not args.load or args.seconds
    if trains:
        last_mean = train(network, args, console, size)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            network.save(args.save / f"ntuple-{size}.npz")
    trained = network.trained
    about = {
        "size": size,
        "tuples": [[list(cell) for cell in cells] for cells in tuples],
        "weights": int(network.weights.shape[0]),
        "alpha": args.alpha if trains else None,
        "tc": network.uses_tc,
        "restarts": args.restarts if trains else None,
        "expected_updates": args.expected if trains else None,
        "stage_tiles": list(network.stage_tiles),
        "initial_value": None if args.load else args.initial_value,
        "loaded_from": str(args.load) if args.load else None,
        "trained_games": trained.games,
        "trained_moves": trained.moves,
        "training_seconds": trained.seconds,
        "training_moves_per_s": trained.moves / trained.seconds if trained.seconds else 0.0,
        "training_last_chunk_mean_score": last_mean,
    }
    out = [{**about, "player": "greedy", **evaluate(solution, greedy_player(network), args, console, size)}]
    for depth in args.search_depth:
        with Expectimax(depth=depth, workers=1, evaluator=network) as ai:
            label = f"expectimax depth {depth}"
            out.append(
                {**about, "player": label, **evaluate(solution, search_player(ai), args, console, f"{size} {label}")}
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["3x3"])
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--train-games", type=int, default=300_000, help="training games per size")
    budget.add_argument("--seconds", type=float, help="training time per size (instead of --train-games)")
    parser.add_argument(
        "--load",
        type=Path,
        help="folder of networks saved by --save: evaluate them (trained on for --seconds, if given)",
    )
    parser.add_argument("--games", type=int, default=300, help="seeded evaluation games per size and player")
    parser.add_argument("--alpha", type=float, default=1.0)
    parser.add_argument("--tc", action=argparse.BooleanOptionalAction, default=True, help="temporal coherence")
    parser.add_argument("--lambda", dest="td_lambda", type=float, default=0.0, help="TD(lambda) (default 0)")
    parser.add_argument("--horizon", type=int, help="moves an afterstate waits for its TD(lambda) update")
    parser.add_argument("--initial-value", type=float, default=0.0, help="optimistic initial value of every board")
    parser.add_argument(
        "--restarts", type=int, default=0, help="episodes replayed from later states of each game (default 0)"
    )
    parser.add_argument(
        "--expected",
        action="store_true",
        help="expected updates of every legal move's afterstate instead of sampled TD (TD(0), no restarts)",
    )
    parser.add_argument(
        "--stage-tile", type=int, action="append", default=[], help="a tile that starts a stage (repeatable)"
    )
    parser.add_argument("--tuples", choices=["wide", "default", "wide+7", "wide+7x3", "wide+8"], default="wide")
    parser.add_argument(
        "--search-depth", type=int, nargs="*", default=[], help="also play with expectimax at these depths"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, help="solver threads when a size is not solved yet (default: all)")
    parser.add_argument("--dir", type=Path, help="folder of the solutions (one sub-folder per size)")
    parser.add_argument("--save", type=Path, help="folder to save the trained networks in")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()
    if args.horizon is None:
        args.horizon = default_horizon(args.td_lambda) if 0 < args.td_lambda < 1 else 1
    try:
        check_lambda(args.td_lambda, args.horizon)
        check_restarts(args.restarts)
        check_expected_updates(args.expected, args.horizon, args.restarts, td_lambda=args.td_lambda)
        for size in args.sizes:
            check_stage_tiles(args.stage_tile, *(int(n) for n in size.split("x")))
    except (InvalidInputError, ValueError) as exc:
        parser.error(str(exc))

    console = Console(width=160)
    rows_out = [row for size in args.sizes for row in measure(size, args, console)]

    lam = f", lambda {args.td_lambda:g} over {args.horizon}" if args.horizon > 1 else ""
    restarts = f", {args.restarts} restarts" if args.restarts else ""
    expected = ", expected updates" if args.expected else ""
    learning = f"alpha {args.alpha:g}{', TC' if args.tc else ''}{lam}{restarts}{expected}"
    if args.load:
        learning = f"loaded from {args.load}" + (
            f", trained {args.seconds:g} s more at {learning}" if args.seconds else ""
        )
    tuples = "" if args.load else f", {args.tuples} tuples"
    if args.stage_tile and not args.load:
        tuples += f", stages from {', '.join(map(str, args.stage_tile))}"
    table = Table(title=f"n-tuple network vs optimal play ({learning}{tuples}; {args.games} seeded games each)")
    for name in ("size", "player", "trained games", "training time", "moves/s", "optimal E\\[score]"):
        table.add_column(name, justify="right")
    for name in ("mean score (95%)", "score / optimal", "1 - regret/optimal (95%)", "regret per move", "optimal moves"):
        table.add_column(name, justify="right")
    for row in rows_out:
        table.add_row(
            row["size"],
            row["player"],
            f"{row['trained_games']:,}",
            f"{row['training_seconds']:.0f} s",
            f"{row['training_moves_per_s'] / 1e6:.2f} M",
            f"{row['optimal_expected_score']:,.1f}",
            f"{row['mean_score']:,.1f} ± {row['score_ci95']:,.1f}",
            f"{row['fraction_by_score']:.3f} ± {row['fraction_by_score_ci95']:.3f}",
            f"{row['fraction_by_regret']:.3f} ± {row['fraction_by_regret_ci95']:.3f}",
            f"{row['regret_per_move']:.3f}",
            f"{row['optimal_move_share']:.1%}",
        )
    console.print(table)
    for row in rows_out:
        if row["size"] == "3x3":
            verdict = "met" if row["target_met"] else "NOT met"
            console.print(
                f"3x3 target (>= {TARGET:.0%} of the optimal expected score), {row['player']}: {verdict} "
                f"({row['fraction_by_regret']:.1%} by regret, {row['fraction_by_score']:.1%} by mean score)"
            )
    print_json("ntuple_optimal", {"rows": rows_out}, args)


if __name__ == "__main__":
    main()
