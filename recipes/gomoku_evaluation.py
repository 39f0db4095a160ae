"""Fit the engine's gomoku evaluation to who won: games of a strong brain, then a logistic regression.

The recipe of :data:`plyground.kinrow.evaluation.FITTED`, the weights the package reads from
``src/plyground/kinrow/data/fitted_evaluation.json``. Two steps, from the repository root:

    python recipes/gomoku_evaluation.py play BRAIN --games 3000 --time-ms 100 --out games.jsonl
    python recipes/gomoku_evaluation.py fit games.jsonl [--write FILE]

``play`` has the Gomocup brain BRAIN (an executable, e.g. PentaZen built as in
``benchmarks/opponents/build_pentazen.sh``, or ``plyground:KIND`` as in ``gomoku.py``) play
itself on 15x15 free-style from generated openings of 3, 4 and 5 stones, each opening once, and appends every finished
game to the file at once (a run stopped and started again goes on after the last game).

``fit`` takes every position of those games where the evaluation is used (the player to
move has no five and no open four to make, the opponent no five), reads the features of
:mod:`plyground.kinrow.evaluation` from the pattern board, and fits the chance that the
player to move wins (a draw is a half) by a logistic regression, on four fifths of the
games; it prints the log-loss on the other fifth against the hand-made evaluation (scaled
by its own best factor) and against the tempo alone, and the weights; it writes the weights to
``--write FILE`` (default: the package's data file in this checkout, which the engine then
plays with) and ends with a JSON line, recorded in ``recipes/data/gomoku_eval_fit.jsonl``.
The games behind the shipped weights are ``recipes/data/gomoku_eval_games.jsonl`` (532 games of
PentaZen, seeds 11 and 12): ``fit recipes/data/gomoku_eval_games.jsonl`` gives them exactly.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from plyground.arena import Settings, generated_opening, parse_brain, play_game
from plyground.core.measurements import add_record_options, print_json
from plyground.errors import BrainError

N = 15
SHIPPED = Path(__file__).resolve().parents[1] / "src" / "plyground" / "kinrow" / "data" / "fitted_evaluation.json"
"""The package's data file in the checkout that holds this recipe."""


def play(args: argparse.Namespace) -> int:
    out = Path(args.out)
    done = sum(1 for line in out.open() if line.strip()) if out.exists() else 0
    settings = Settings(size=N, rule=0, time_ms=args.time_ms)
    command = args.command
    for index in range(done, args.games):
        stones = 3 + index % 3
        opening = generated_opening(N, stones, args.seed, index)
        try:
            game = play_game(command, command, opening, settings)
        except BrainError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        winner = {"black": 1, "white": 2}.get(game.winner or "", 0)
        record = {"stones": stones, "moves": [m.y * N + m.x for m in game.moves], "winner": winner}
        with out.open("a") as f:
            f.write(json.dumps(record) + "\n")
        if (index + 1) % 50 == 0:
            print(f"{index + 1} games", flush=True)
    return 0


def read_games(paths: list[str]) -> list[tuple[list[int], int]]:
    """Each game once (two identical move lists are one game)."""
    seen: set[tuple[int, ...]] = set()
    games = []
    for path in paths:
        for number, line in enumerate(Path(path).read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                moves, winner = [int(m) for m in record["moves"]], int(record["winner"])
            except (ValueError, KeyError, TypeError) as error:
                raise SystemExit(f"error: {path}:{number}: not a game record ({error})") from None
            if tuple(moves) not in seen:
                seen.add(tuple(moves))
                games.append((moves, winner))
    return games


def features(games: list[tuple[list[int], int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows ``[mover features, waiter features, X to move, O to move, hot]``, labels, game numbers, hand-made values."""
    from plyground.kinrow import State
    from plyground.kinrow.evaluation import HAND_HOT, HAND_TEMPO, feature_table
    from plyground.kinrow.patterns import HOT, NPAT, Pattern, PatternBoard

    table = feature_table()
    rows, labels, owners, hand = [], [], [], []
    for number, (moves, winner) in enumerate(games):
        board = PatternBoard(State(N, 5))
        for i, move in enumerate(moves):
            me, you = 1 + i % 2, 2 - i % 2
            cnt = board.cnt
            if i >= 3 and not (cnt[me - 1, Pattern.F5] or cnt[me - 1, Pattern.F4] or cnt[you - 1, Pattern.F5]):
                codes = board.pat.reshape(2, N * N, 4).astype(np.int64)
                combos = ((codes[..., 0] * NPAT + codes[..., 1]) * NPAT + codes[..., 2]) * NPAT + codes[..., 3]
                empty = board.cells == 0
                mine = table[combos[me - 1][empty]].sum(0)
                theirs = table[combos[you - 1][empty]].sum(0)
                hot = int(cnt[me - 1, HOT] > 0 and cnt[you - 1, Pattern.B4] == 0 and cnt[you - 1, Pattern.F4] == 0)
                rows.append([*mine, *theirs, int(me == 1), int(me == 2), hot])
                labels.append(0.5 if winner == 0 else float(winner == me))
                owners.append(number)
                hand.append(int(board.tot[me - 1] - board.tot[you - 1]) + HAND_TEMPO + HAND_HOT * hot)
            board.place(move, me)
    return np.array(rows, float), np.array(labels), np.array(owners), np.array(hand, float)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-4) -> np.ndarray:
    """Weights minimising the mean log-loss plus ``l2`` times their squared norm (Newton's method)."""
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) / len(y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x / len(y) + l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(args: argparse.Namespace) -> int:
    from plyground.kinrow.evaluation import FEATURES, FeatureWeights, write_feature_weights

    games = read_games(args.games)
    x, y, owner, hand = features(games)
    if len(y) < 100:
        print(f"error: {len(y)} positions from {len(games)} games: too few to fit", file=sys.stderr)
        return 1
    rng = np.random.default_rng(args.seed)
    test_games = rng.permutation(len(games))[: len(games) // 5]
    test = np.isin(owner, test_games)
    train = ~test
    f = len(FEATURES)
    tempo = x[:, 2 * f : 2 * f + 2]
    hand_x = np.column_stack([hand / 1000, tempo])
    results = {}
    for name, data in (("tempo only", tempo), ("hand-made (scaled)", hand_x), ("fitted", x)):
        w = fit_logistic(data[train], y[train], args.l2)
        results[name] = (log_loss(data[train], y[train], w), log_loss(data[test], y[test], w))
    w = fit_logistic(x, y, args.l2)
    weights = np.rint(1000 * w).astype(int)
    print(f"{len(games)} games, {len(y)} positions ({int(test.sum())} held out), player to move wins {y.mean():.3f}")
    print(f"{'evaluation':22s} {'train log-loss':>15s} {'test log-loss':>14s}")
    for name, (a, b) in results.items():
        print(f"{name:22s} {a:15.4f} {b:14.4f}")
    print(f"{'feature':22s} {'mover':>8s} {'waiter':>8s}")
    for i, name in enumerate(FEATURES):
        print(f"{name:22s} {weights[i]:8d} {weights[f + i]:8d}")
    tempo_x, tempo_o, hot = (int(v) for v in weights[2 * f :])
    print(f"tempo X {tempo_x}, tempo O {tempo_o}, hot {hot}")
    fitted = FeatureWeights(
        tuple(int(v) for v in weights[:f]), tuple(int(v) for v in weights[f : 2 * f]), tempo_x, tempo_o, hot
    )
    names = " ".join(Path(path).name for path in args.games)
    note = f"Fitted by recipes/gomoku_evaluation.py fit ({names}: {len(games)} games), in thousandths of a logit."
    try:
        write_feature_weights(args.write, fitted, note=note)
    except OSError as error:
        print(f"error: cannot write {args.write}: {error}", file=sys.stderr)
        return 1
    print(f"wrote the weights to {args.write}")
    print_json(
        "gomoku_eval_fit",
        {
            "games": len(games),
            "positions": len(y),
            "log_loss": {name: {"train": a, "test": b} for name, (a, b) in results.items()},
            "mover": weights[:f].tolist(),
            "waiter": weights[f : 2 * f].tolist(),
            "tempo_x": tempo_x,
            "tempo_o": tempo_o,
            "hot": hot,
        },
        args,
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("play", help="self-play games of a Gomocup brain, appended to a JSON-lines file")
    p.add_argument("brain", help="the brain: an executable Gomocup brain, or plyground:KIND [ARGS]")
    p.add_argument("--games", type=int, default=3000)
    p.add_argument("--time-ms", type=int, default=100)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--out", required=True)
    q = sub.add_parser("fit", help="fit the evaluation's weights to the games")
    q.add_argument("games", nargs="+", help="JSON-lines files written by play")
    q.add_argument("--seed", type=int, default=0, help="of the held-out fifth")
    q.add_argument("--l2", type=float, default=1e-4)
    q.add_argument(
        "--write", type=Path, default=SHIPPED, metavar="FILE", help="the weights file to write (default: the package's)"
    )
    add_record_options(q, Path(__file__), folder="data")
    args = parser.parse_args(argv)
    if args.step == "play":
        try:
            brain = parse_brain(args.brain, "brain")
            args.command = list(brain.command)
        except ValueError as error:
            parser.error(str(error))
        if args.games < 1 or not 1 <= args.time_ms <= 600_000:
            parser.error("--games must be at least 1 and --time-ms from 1 to 600000")
        return play(args)
    return fit(args)


if __name__ == "__main__":
    sys.exit(main())
