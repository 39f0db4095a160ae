"""Can an n-tuple network represent near-optimal 3x3 play? Fit it to the exact values and see.

``ntuple_optimal.py`` measures networks trained by TD learning; none reaches 95% of the
optimal expected score. This script separates what the tuples can *represent* from what
TD *learns*: it trains a fresh network of the same tuples not by TD but towards the exact
values the solver gives. At every state of a game it moves the value of each legal move's
afterstate towards that afterstate's exact value (the average, over the spawns, of the
solved states they lead to): ``V += alpha * (exact - V)``, spread over the afterstate's
lookups as a TD update is. The games are played by the network's greedy move, or, with
probability ``--explore`` at each move, by the optimal move (1: the states of optimal
play; between 0 and 1, the states greedy play meets near those, as in DAgger). For the
last third of ``--seconds`` the rate is ``--late-alpha``. The fitted network then plays
``--games`` seeded games greedily (and with expectimax at each ``--search-depth``),
measured against the solution as in ``ntuple_optimal.py``.

    python experiments/2026-11-30-regret/ntuple_exact_fit.py [--tuples wide+7x3] [--seconds 1500]
        [--explore 1.0]
        [--alpha 0.1] [--late-alpha 0.03] [--games 300] [--search-depth D ...] [--save DIR] [--size 3x3]

With ``--tuples wide+8 --seconds 3000 --explore 0.25`` greedy play reaches 96% of the optimum (README);
``ntuple_optimal.py --load DIR --tuples wide+8`` evaluates a network saved by ``--save DIR`` again.

The fit is ``plyground.g2048.ntuple.exact_fit.ExactFit`` over the solution's values held by
``plyground.g2048.exact_values.ExactValues``. After the first games, the script checks those
exact afterstate values against ``Solution.afterstate_value`` on the 300 afterstates the fit
sampled in them, and it stops if a spawned board is ever missing from the solution's tables.

``--size`` fits on another solved board than 3x3 (``--tuples wide`` or ``default`` there), for
example 2x3 for a quick check that everything works.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt
from ntuple_optimal import TARGET, evaluate, greedy_player, tuples_for
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.errors import CorruptFileError
from plyground.g2048 import Board
from plyground.g2048.exact_values import ExactValues
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.ntuple.exact_fit import ExactFit
from plyground.g2048.regret import search_player
from plyground.g2048.solver import Solution, default_directory, solve

ROWS = COLS = 3
"""The board of the fit unless ``--size`` says otherwise."""
CHUNK = 2_000
"""Games per call of the fit (between checks of ``--seconds``)."""


def check_exact(solution: Solution, exact: ExactValues, afters: npt.NDArray[np.uint64]) -> int:
    """Check ``exact``'s afterstate values against ``Solution.afterstate_value`` on ``afters``; return how many."""
    for bits, mine in zip(afters, exact.afterstate_values(afters), strict=True):
        board = Board(int(bits), solution.rows, solution.cols)
        theirs = solution.afterstate_value(board)
        if not abs(mine - theirs) <= 1e-9 * max(1.0, abs(theirs)):
            raise SystemExit(f"exact value mismatch on {board.to_text()}: {mine} against {theirs}")
    return int(afters.shape[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tuples", choices=["wide", "default", "wide+7", "wide+7x3", "wide+8"], default="wide+7x3")
    parser.add_argument("--seconds", type=float, default=1500.0, help="fitting time")
    parser.add_argument("--alpha", type=float, default=0.1, help="rate for the first two thirds of the time")
    parser.add_argument("--late-alpha", type=float, default=0.03, help="rate for the last third")
    parser.add_argument("--explore", type=float, default=1.0, help="share of moves played by the optimal policy")
    parser.add_argument("--games", type=int, default=300, help="seeded evaluation games per player")
    parser.add_argument("--search-depth", type=int, nargs="*", default=[], help="also play with expectimax")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, help="solver threads when the board is not solved yet (default: all)")
    parser.add_argument("--dir", type=Path, help="folder of the board's solution")
    parser.add_argument("--size", default=f"{ROWS}x{COLS}", help="the board, ROWSxCOLS (default 3x3)")
    parser.add_argument("--save", type=Path, help="folder to save the fitted network in")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()
    if not 0.0 <= args.explore <= 1.0:
        parser.error(f"--explore must be between 0 and 1, got {args.explore}")
    if not (args.alpha > 0.0 and args.late_alpha > 0.0 and args.seconds > 0.0 and args.games > 0):
        parser.error("--alpha, --late-alpha, --seconds and --games must be positive")
    try:
        rows, cols = (int(n) for n in args.size.split("x"))
    except ValueError:
        parser.error(f"--size must be ROWSxCOLS, like 3x3, got {args.size!r}")

    console = Console(width=160)
    folder = args.dir or default_directory(rows, cols)
    if not (folder / "solution.json").exists():
        console.print(f"solving {rows}x{cols} into {folder} ...")
    solution = solve(rows, cols, directory=folder, workers=args.workers)
    began = time.perf_counter()
    exact = ExactValues(solution)
    console.print(f"{exact.states:,} exact state values loaded in {time.perf_counter() - began:.0f} s")

    network = NTupleNetwork(rows, cols, tuples_for(args.tuples, rows, cols), seed=args.seed)
    fit = ExactFit(network, exact, seed=network.rng_state)  # the fit updates the network in place
    checked = 0
    games = updates = 0
    squares = mean_score = 0.0
    began = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("fitting", total=args.seconds)
        while not games or (spent := time.perf_counter() - began) < args.seconds:  # one chunk at least
            spent = time.perf_counter() - began
            alpha = args.alpha if spent < 2 * args.seconds / 3 else args.late_alpha
            try:
                chunk = fit.play(CHUNK, alpha=alpha, explore=args.explore)
            except CorruptFileError as exc:
                raise SystemExit(str(exc)) from None
            if not checked:
                checked = check_exact(solution, exact, chunk.sample)
            games += chunk.games
            updates += chunk.updates
            squares, mean_score = chunk.mean_squared_error, chunk.mean_score
            progress.update(task, completed=time.perf_counter() - began)
    fit_seconds = time.perf_counter() - began
    console.print(
        f"fitted {games:,} games ({updates:,} updates) in {fit_seconds:.0f} s; exact values checked on "
        f"{checked} afterstates; last chunk: rms error {squares**0.5:.1f}, mean score {mean_score:,.0f}"
    )
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        network.save(args.save / f"ntuple-{rows}x{cols}.npz")

    about = {
        "tuples": args.tuples,
        "weights": int(network.weights.shape[0]),
        "explore": args.explore,
        "alpha": args.alpha,
        "late_alpha": args.late_alpha,
        "fit_games": games,
        "fit_updates": updates,
        "fit_seconds": fit_seconds,
        "last_rms_error": squares**0.5,
    }
    players = [{**about, "player": "greedy", **evaluate(solution, greedy_player(network), args, console, "greedy")}]
    for depth in args.search_depth:
        with Expectimax(depth=depth, workers=1, evaluator=network) as ai:
            label = f"expectimax depth {depth}"
            players.append({**about, "player": label, **evaluate(solution, search_player(ai), args, console, label)})

    table = Table(
        title=f"{rows}x{cols} n-tuple network fitted to the exact values ({args.tuples}, explore {args.explore:g}, "
        f"{games:,} games in {fit_seconds:.0f} s; {args.games} seeded games each)"
    )
    for name in ("player", "mean score (95%)", "score / optimal", "1 - regret/optimal (95%)", "optimal moves"):
        table.add_column(name, justify="right")
    for row in players:
        table.add_row(
            row["player"],
            f"{row['mean_score']:,.1f} ± {row['score_ci95']:,.1f}",
            f"{row['fraction_by_score']:.3f} ± {row['fraction_by_score_ci95']:.3f}",
            f"{row['fraction_by_regret']:.3f} ± {row['fraction_by_regret_ci95']:.3f}",
            f"{row['optimal_move_share']:.1%}",
        )
    console.print(table)
    for row in players:
        verdict = "reaches" if row["fraction_by_regret"] >= TARGET else "does not reach"
        console.print(f"{row['player']}: the fitted network {verdict} {TARGET:.0%} ({row['fraction_by_regret']:.1%})")
    print_json("ntuple_exact_fit", {"rows": players}, args)


if __name__ == "__main__":
    main()
