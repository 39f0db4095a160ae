"""Tune the engine's gomoku evaluation with its search in the loop: SPSA on games between two perturbed copies.

    python recipes/gomoku_tuning.py run FOLDER [--iterations 400] [--pairs 4] [--depth 4] [--seed 1]
        [--start shipped|FILE] [--evaluation fitted|symmetric] [--a 10000] [--c 50] [--workers 2] [--for N]
    python recipes/gomoku_tuning.py write FOLDER [--write FILE]

The fitted evaluation (``recipes/gomoku_evaluation.py``) is a regression of who won on the features of
a position; it says nothing of how well the engine plays with it. This recipe moves the weights by the
results of the engine's own games instead, by SPSA (simultaneous perturbation stochastic approximation):
the weights θ (the mover's and the waiter's weight of each feature, the two tempos and the bonus for a
double threat: 37 numbers, in thousandths of a logit; see ``plyground.kinrow.evaluation``) are, at
iteration k, perturbed both ways by a random sign for each weight, ``θ+ = θ + c_k Δ`` and
``θ- = θ - c_k Δ``. The two play ``--pairs`` openings twice, colours swapped (openings of 3 to 5
stones drawn from ``--seed`` and k, the same for both), each side an engine searching ``--depth``
plies with its weights; the score ``s`` = (θ+'s points - θ-'s) / games (a draw is half a point) moves
``θ += a_k s / (c_k Δ)``, with ``a_k = a / (k + A)^0.602``, ``c_k = c / k^0.101`` and ``A`` a tenth of
the iterations (the defaults move each weight by about 21 s at first and 9 s after 400 iterations, and
perturb it by 50 and then 27). A fixed depth, not a time, makes the games, and so the run, the same on any machine,
busy or not, and with any number of ``--workers``: the recipe reproduces its weights exactly.

The run lives in FOLDER: ``settings.json`` (the options; a run that goes on keeps its own),
``state.json`` (θ, the iteration, the sum of θ over the iterations of the second half so far, and the
curve; written atomically after each iteration, so a killed run goes on from the last one finished,
giving the same weights as a run never stopped; ``--for N`` does N iterations and stops, to run in
slices) and ``curve.csv`` (each iteration's score and the
distance of θ from the start). ``write`` writes the mean of θ as an evaluation file (the package's format:
``--write src/plyground/kinrow/data/fitted_evaluation.json`` makes it the engine's) and ends with a
JSON line; ``run`` ends with its own. Whether tuned weights play better is for
``benchmarks/gomoku.py`` and ``benchmarks/gomoku_positions.py`` to tell, against other brains.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from plyground.arena import generated_opening
from plyground.core.measurements import add_record_options, print_json
from plyground.core.run_many import Backend, Pool
from plyground.errors import PlygroundError
from plyground.kinrow.evaluation import FITTED, FeatureWeights, read_feature_weights, write_feature_weights

N = 15
SETTINGS = ("iterations", "pairs", "depth", "seed", "start", "evaluation", "a", "c")
"""The options a run keeps in its folder: a run that goes on plays with its own."""
MAX_MOVES = 120
"""Moves after the opening after which a game is a draw (a full board takes 225)."""


class Parser(argparse.ArgumentParser):
    """Bad options are one line, ``error: ...``, and exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def to_vector(weights: FeatureWeights) -> np.ndarray:
    """θ: the mover's weights, the waiter's, the tempos of X and O, the bonus (float64)."""
    values = [*weights.mover, *weights.waiter, weights.tempo_x, weights.tempo_o, weights.hot]
    return np.array(values, dtype=np.float64)


def to_weights(theta: np.ndarray) -> FeatureWeights:
    """The weights of θ, rounded to whole thousandths of a logit."""
    values = [int(value) for value in np.rint(theta)]
    size = (len(values) - 3) // 2
    return FeatureWeights(tuple(values[:size]), tuple(values[size : 2 * size]), *values[2 * size :])


def play(job: tuple[FeatureWeights, FeatureWeights, list[tuple[int, int]], int, str]) -> float:
    """One game from an opening between engines of two weights to ``depth`` plies: the first weights' points."""
    from plyground.kinrow import State
    from plyground.kinrow.board import X
    from plyground.kinrow.engine import Engine, EngineSettings

    first, second, opening, depth, evaluation = job
    settings = EngineSettings(evaluation=evaluation)
    engines = [Engine(depth=depth, settings=settings, weights=weights) for weights in (first, second)]
    state = State(N, 5)
    for x, y in opening:
        state.play(state.index(y, x))
    first_plays = state.to_move  # the first weights play the side to move after the opening
    for _ in range(MAX_MOVES):
        if state.is_over:
            break
        engine = engines[0] if state.to_move == first_plays else engines[1]
        state.play(engine.choose(state))
    if state.result is None or state.result not in (X, 3 - X):
        return 0.5
    return 1.0 if state.result == first_plays else 0.0


def _write_json(path: Path, data: dict[str, Any]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def _write_curve(path: Path, curve: list[list[float]]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["iteration", "score", "distance"])
        writer.writerows(curve)
    os.replace(temporary, path)


def _start(spec: str) -> FeatureWeights:
    return FITTED if spec == "shipped" else read_feature_weights(spec)


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder: Path = args.folder
    folder.mkdir(parents=True, exist_ok=True)
    saved = folder / "settings.json"
    if saved.exists():
        kept = json.loads(saved.read_text(encoding="utf-8"))
        for name in SETTINGS:
            setattr(args, name, kept[name])
    else:
        _write_json(saved, {name: getattr(args, name) for name in SETTINGS})
    start = to_vector(_start(args.start))
    state_path = folder / "state.json"
    if state_path.exists():
        state = json.loads(state_path.read_text(encoding="utf-8"))
        theta, done, total, counted = np.array(state["theta"]), state["iteration"], np.array(state["sum"]), state["n"]
        curve = state["curve"]
    else:
        theta, done, total, counted, curve = start.copy(), 0, np.zeros_like(start), 0, []
    stability = max(1, args.iterations // 10)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Pool(Backend(workers=args.workers)) as pool, Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task("SPSA iterations", total=args.iterations, completed=done)
        last = args.iterations if args.slice is None else min(args.iterations, done + args.slice)
        for k in range(done + 1, last + 1):
            rng = np.random.default_rng([args.seed, k])
            delta = rng.choice([-1.0, 1.0], size=theta.shape)
            c_k = args.c / k**0.101
            a_k = args.a / (k + stability) ** 0.602
            plus, minus = to_weights(theta + c_k * delta), to_weights(theta - c_k * delta)
            openings = [generated_opening(N, 3 + i % 3, args.seed, k * 1000 + i) for i in range(args.pairs)]
            jobs = [(plus, minus, o, args.depth, args.evaluation) for o in openings]
            jobs += [(minus, plus, o, args.depth, args.evaluation) for o in openings]
            points = pool.map(play, jobs)
            games = len(points)
            score = (sum(points[: args.pairs]) + (args.pairs - sum(points[args.pairs :])) - games / 2) / (games / 2)
            theta = theta + a_k * score / (c_k * delta)
            if k > args.iterations // 2:
                total, counted = total + theta, counted + 1
            curve.append([k, round(score, 4), round(float(np.linalg.norm(theta - start)), 1)])
            state = {"iteration": k, "theta": theta.tolist(), "sum": total.tolist(), "n": counted, "curve": curve}
            _write_json(state_path, state)
            _write_curve(folder / "curve.csv", curve)
            progress.update(task, advance=1, description=f"SPSA iterations (score {score:+.2f})")
    mean = total / counted if counted else theta
    return {
        "command": "run",
        **{name: getattr(args, name) for name in SETTINGS},
        "iterations_done": last,
        "distance": round(float(np.linalg.norm(mean - start)), 1),
        "weights": dataclasses.asdict(to_weights(mean)),
    }


def write(args: argparse.Namespace) -> dict[str, Any]:
    state_path = args.folder / "state.json"
    if not state_path.exists():
        raise PlygroundError(f"{args.folder}: no tuning run there (no state.json)")
    state = json.loads(state_path.read_text(encoding="utf-8"))
    mean = np.array(state["sum"]) / state["n"] if state["n"] else np.array(state["theta"])
    weights = to_weights(mean)
    note = f"recipes/gomoku_tuning.py: SPSA, {state['iteration']} iterations, mean of the last half"
    write_feature_weights(args.write, weights, note=note)
    return {"command": "write", "iterations_done": state["iteration"], "weights": dataclasses.asdict(weights)}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = Parser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    ran = commands.add_parser("run", help="tune, or go on tuning, in FOLDER")
    written = commands.add_parser("write", help="write FOLDER's weights as an evaluation file")
    for sub in (ran, written):
        sub.add_argument("folder", metavar="FOLDER", type=Path, help="the run's folder")
        add_record_options(sub, Path(__file__), folder="data")
    ran.add_argument("--iterations", type=int, default=400, help="SPSA iterations in all (default 400)")
    ran.add_argument("--pairs", type=int, default=4, help="openings an iteration, each played twice (default 4)")
    ran.add_argument("--depth", type=int, default=4, help="each engine's search depth in plies (default 4)")
    ran.add_argument("--seed", type=int, default=1, help="seed of the perturbations and the openings")
    ran.add_argument("--start", default="shipped", help="the weights to start from: shipped, or an evaluation file")
    ran.add_argument("--evaluation", choices=("fitted", "symmetric"), default="fitted", help="how they are read")
    ran.add_argument("--a", type=float, default=10_000.0, help="SPSA's step size a (default 10,000)")
    ran.add_argument("--c", type=float, default=50.0, help="SPSA's perturbation c (default 50)")
    ran.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes playing (default: cores)")
    ran.add_argument("--for", dest="slice", type=int, default=None, metavar="N", help="do N iterations, then stop")
    written.add_argument("--write", type=Path, required=True, help="the evaluation file to write")
    args = parser.parse_args(argv)
    if args.command == "run":
        for name, low, high in (("iterations", 1, 100_000), ("pairs", 1, 1000), ("depth", 1, 12),
                                ("workers", 1, 256), ("seed", 0, 2**63 - 1), ("slice", 1, 100_000)):  # fmt: skip
            value = getattr(args, name)
            if value is not None and not low <= value <= high:
                option = "for" if name == "slice" else name
                parser.error(f"--{option} must be from {low:,} to {high:,}, got {value:,}")
        for name in ("a", "c"):
            if not (math.isfinite(getattr(args, name)) and getattr(args, name) > 0):
                parser.error(f"--{name} must be a finite number above 0, got {getattr(args, name)}")
        if args.start != "shipped":
            try:
                _start(args.start)
            except (OSError, PlygroundError) as error:
                parser.error(f"--start: {error}")
    elif not args.write.parent.is_dir():
        parser.error(f"--write: no folder {args.write.parent}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        results = run(args) if args.command == "run" else write(args)
    except PlygroundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: the run goes on from its last iteration with the same command", file=sys.stderr)
        return 130
    if args.command == "write":
        print(f"wrote {args.write}")
    print_json("gomoku_tuning", results, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
