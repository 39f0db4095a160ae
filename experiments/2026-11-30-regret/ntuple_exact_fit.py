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

After the first games, the script checks its exact afterstate values against
``Solution.afterstate_value`` on 300 afterstates met in them, and it stops if a spawned
board is ever missing from the solution's tables.

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

from plyground._jit import kernel
from plyground.core.measurements import add_record_options, print_json
from plyground.g2048 import Board
from plyground.g2048 import _kernels as K
from plyground.g2048 import _ntuple_kernels as NK
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.regret import search_player
from plyground.g2048.solver import Solution, default_directory, solve

ROWS = COLS = 3
"""The board of the fit unless ``--size`` says otherwise."""
P_FOUR = 0.1
CHUNK = 2_000
"""Games per kernel call (between checks of ``--seconds``)."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_EXPLORE_SALT = np.uint64(0x5DEECE66D)


@kernel("i8(u8)")
def _tile_sum(b: np.uint64) -> int:
    """The sum of the tiles of ``b`` (its age)."""
    total = 0
    for i in range(16):
        e = (b >> np.uint64(4 * i)) & np.uint64(0xF)
        if e:
            total += 1 << np.int64(e)
    return total


@kernel("i8(u8[::1], i8, i8, i8, u8[::1], f8[::1], i8[::1], f8[::1])")
def _afterstate_values(boards, rows, cols, age, codes, values, starts, out):
    """The exact value of each afterstate of ``age`` in ``boards`` (``rows`` x ``cols``), into ``out`` (the solver's
    ``_chance_values`` over the layers of ages ``age + 2`` and ``age + 4``); return how many
    spawned boards were missing from them (0 unless the tables are wrong).

    The layers of all ages lie one after the other in ``codes`` and ``values``, the layer
    of age ``a`` from ``starts[a // 2]`` to ``starts[a // 2 + 1]``.
    """
    lo2, hi2 = starts[age // 2 + 1], starts[age // 2 + 2]
    lo4, hi4 = starts[age // 2 + 2], starts[age // 2 + 3]
    return SK._chance_values(
        boards, rows, cols, P_FOUR, codes[lo2:hi2], values[lo2:hi2], codes[lo4:hi4], values[lo4:hi4], out
    )


_FIT = (
    "Tuple((i8, f8, i8))(i8, i8, i8, u8, f4[::1], i8[:, ::1], f8, f8, u8[::1], f8[::1], i8[::1], u8[::1], i8[::1],"
    " u8[::1])"
)


@kernel(_FIT)
def _fit(
    n_games, rows, cols, threshold, weights, lookups, alpha, explore, codes, values, starts, rng, scores, afters_out
):
    """Play ``n_games`` games on ``rows`` x ``cols``, moving every candidate afterstate's value towards its exact value.

    Fills ``scores``; keeps every 50th afterstate chosen (up to the length of ``afters_out``)
    for the check; returns the updates made, the sum of their squared errors and the
    spawned boards missing from the tables (0 unless they are wrong).
    """
    n = lookups.shape[0]
    stride = lookups[0, NK.STRIDE]
    positions = np.empty(4 * n, dtype=np.int64)
    afters = np.empty(4, dtype=np.uint64)
    points = np.empty(4, dtype=np.int64)
    exact = np.empty(4, dtype=np.float64)
    no_sums = np.empty(0, dtype=np.float32)
    state = rng[0]
    updates = 0
    squares = 0.0
    missing = 0
    kept = 0
    played = 0
    for g in range(n_games):
        b = NK._new_game(state, threshold, rows, cols)
        state += _GOLDEN + _GOLDEN
        score = 0
        while True:
            count, best, _ = NK._candidates(b, rows, cols, weights, lookups, positions, afters, points)
            if best < 0:
                break
            missing += _afterstate_values(afters[:count], rows, cols, _tile_sum(b), codes, values, starts, exact)
            optimal, optimal_value = 0, -np.inf
            for i in range(count):
                if points[i] + exact[i] > optimal_value:
                    optimal, optimal_value = i, points[i] + exact[i]
                error = NK._td_update(weights, positions, i * n, n, stride, exact[i], alpha, False, no_sums)
                updates += 1
                squares += error * error
            state += _GOLDEN
            if explore > 0.0:
                draw = K._mix64(state ^ _EXPLORE_SALT) >> np.uint64(11)
                if np.float64(draw) * (1.0 / 9007199254740992.0) < explore:
                    best = optimal
            if kept < afters_out.shape[0] and played % 50 == 0:
                afters_out[kept] = afters[best]
                kept += 1
            played += 1
            score += points[best]
            b = K._spawn_with(afters[best], K._mix64(state), threshold, rows, cols)
        scores[g] = score
    rng[0] = state
    return updates, squares, missing


def exact_tables(solution: Solution) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Every layer of the solution one after the other, and where each age starts (see ``_afterstate_values``)."""
    top = max(counts.age for counts in solution.counts())
    starts = np.zeros(top // 2 + 4, dtype=np.int64)
    codes, values = [], []
    at = 0
    for age in range(0, top + 6, 2):
        starts[age // 2] = at
        layer_codes, layer_values = solution.layer(age)
        if layer_codes.shape[0]:
            assert layer_values is not None
            codes.append(layer_codes)
            values.append(layer_values)
            at += layer_codes.shape[0]
    starts[(top + 6) // 2 :] = at
    return np.concatenate(codes), np.concatenate(values), starts


def check_exact(solution: Solution, tables: tuple[npt.NDArray[np.uint64], ...], afters: npt.NDArray[np.uint64]) -> int:
    """Compare ``_afterstate_values`` with ``Solution.afterstate_value`` on ``afters``; return how many matched."""
    codes, values, starts = tables
    out = np.empty(1, dtype=np.float64)
    rows, cols = solution.rows, solution.cols
    for bits in afters:
        board = Board(int(bits), rows, cols)
        _afterstate_values(np.array([bits], dtype=np.uint64), rows, cols, board.tile_sum(), codes, values, starts, out)
        mine = float(out[0])
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
    tables = exact_tables(solution)
    console.print(f"{tables[0].shape[0]:,} exact state values loaded in {time.perf_counter() - began:.0f} s")

    network = NTupleNetwork(rows, cols, tuples_for(args.tuples, rows, cols), seed=args.seed)
    weights, lookups = network.kernel_tables()  # its own arrays: the fit updates the network in place
    threshold = np.uint64(int(P_FOUR * 2**32))
    rng = np.array([network.rng_state], dtype=np.uint64)
    scores = np.zeros(CHUNK, dtype=np.int64)
    sample = np.zeros(300, dtype=np.uint64)
    checked = 0
    games = updates = 0
    squares = 0.0
    began = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("fitting", total=args.seconds)
        while (spent := time.perf_counter() - began) < args.seconds:
            alpha = args.alpha if spent < 2 * args.seconds / 3 else args.late_alpha
            done, chunk_squares, missing = _fit(
                CHUNK, rows, cols, threshold, weights, lookups, alpha, args.explore, *tables, rng, scores, sample
            )
            if missing:
                raise SystemExit(f"{missing} spawned boards are missing from the exact tables of {folder}")
            if not checked:
                checked = check_exact(solution, tables, sample[sample != 0])
            games += CHUNK
            updates += int(done)
            squares = float(chunk_squares) / max(int(done), 1)
            progress.update(task, completed=time.perf_counter() - began)
    fit_seconds = time.perf_counter() - began
    console.print(
        f"fitted {games:,} games ({updates:,} updates) in {fit_seconds:.0f} s; exact values checked on "
        f"{checked} afterstates; last chunk: rms error {squares**0.5:.1f}, mean score {scores.mean():,.0f}"
    )
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        network.save(args.save / f"ntuple-{rows}x{cols}.npz")

    about = {
        "tuples": args.tuples,
        "weights": int(weights.shape[0]),
        "explore": args.explore,
        "alpha": args.alpha,
        "late_alpha": args.late_alpha,
        "fit_games": games,
        "fit_updates": updates,
        "fit_seconds": fit_seconds,
        "last_rms_error": squares**0.5,
    }
    rows = [{**about, "player": "greedy", **evaluate(solution, greedy_player(network), args, console, "greedy")}]
    for depth in args.search_depth:
        with Expectimax(depth=depth, workers=1, evaluator=network) as ai:
            label = f"expectimax depth {depth}"
            rows.append({**about, "player": label, **evaluate(solution, search_player(ai), args, console, label)})

    table = Table(
        title=f"{rows}x{cols} n-tuple network fitted to the exact values ({args.tuples}, explore {args.explore:g}, "
        f"{games:,} games in {fit_seconds:.0f} s; {args.games} seeded games each)"
    )
    for name in ("player", "mean score (95%)", "score / optimal", "1 - regret/optimal (95%)", "optimal moves"):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(
            row["player"],
            f"{row['mean_score']:,.1f} ± {row['score_ci95']:,.1f}",
            f"{row['fraction_by_score']:.3f} ± {row['fraction_by_score_ci95']:.3f}",
            f"{row['fraction_by_regret']:.3f} ± {row['fraction_by_regret_ci95']:.3f}",
            f"{row['optimal_move_share']:.1%}",
        )
    console.print(table)
    for row in rows:
        verdict = "reaches" if row["fraction_by_regret"] >= TARGET else "does not reach"
        console.print(f"{row['player']}: the fitted network {verdict} {TARGET:.0%} ({row['fraction_by_regret']:.1%})")
    print_json("ntuple_exact_fit", {"rows": rows}, args)


if __name__ == "__main__":
    main()
