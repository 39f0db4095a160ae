"""How often the engine's move hands a strong brain a forced win: positions judged by an oracle brain.

    python experiments/2026-12-01-gomoku-evaluation/gomoku_blunders.py PATH/pbrain-pentazen --positions 120
        --time-ms 300 --oracle-ms 600

Positions come from the games of ``recipes/data/gomoku_eval_games.jsonl`` (or ``--games``): one a game,
5 to 25 stones in, not a forced move, and balanced in the oracle's eyes (its value for the player to move
within ``--balanced``). For each evaluation of the engine (``--evaluation fitted hand``), the engine
chooses a move in ``--time-ms``; the oracle then thinks ``--oracle-ms`` on the position after it. A
*blunder* is a move after which the oracle reports a forced win for the opponent. The oracle's own move is
judged the same way, as the reference. Matches count wins; this counts the moves that lose them, on
fixed positions, so two settings can be told apart with a few minutes of play.

The oracle is a Gomocup brain that reports its value in ``MESSAGE`` lines: PentaZen's ``ev 35`` /
``ev +v13`` (a win in 13), or plyground's own ``score 35`` (``plyground:engine``). Its verdicts are cached in
``--cache`` (a JSON-lines file), so a second run only asks about positions it has not seen.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from plyground.arena import parse_brain
from plyground.arena.oracle import WIN, Oracle
from plyground.core.measurements import add_record_options, print_json
from plyground.errors import PlygroundError

N = 15
DATA = Path(__file__).resolve().parents[2] / "recipes" / "data" / "gomoku_eval_games.jsonl"


def positions(oracle: Oracle, games: Path, count: int, balanced: int, seed: int) -> list[list[int]]:
    from plyground.kinrow import State

    records = [json.loads(line) for line in games.read_text(encoding="utf-8").splitlines() if line.strip()]
    rng = np.random.default_rng(seed)
    chosen: list[list[int]] = []
    for index in rng.permutation(len(records)):
        moves = [int(m) for m in records[index]["moves"]]
        if len(moves) < 16:
            continue
        cut = int(rng.integers(5, min(26, len(moves) - 8)))
        state = State.from_moves(N, 5, moves[:cut])
        if state.forced_move() is not None:
            continue
        value, _ = oracle.judge(moves[:cut])
        if value is not None and abs(value) <= balanced:
            chosen.append(moves[:cut])
            if len(chosen) == count:
                break
    return chosen


def judge_moves(oracle: Oracle, chosen: list[tuple[list[int], int]]) -> dict[str, float]:
    blunders, scores = 0, []
    for moves, move in chosen:
        value, _ = oracle.judge([*moves, move])
        ours = 0 if value is None else -value
        blunders += ours <= -(WIN - 1000)
        scores.append(max(-1000, min(1000, ours)))
    return {"blunders": blunders, "mean_value": round(float(np.mean(scores)), 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("oracle", help="the judging brain: an executable, or plyground:KIND [ARGS]")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--time-ms", type=float, default=300, help="the engine's time per move")
    parser.add_argument("--oracle-ms", type=int, default=600, help="the oracle's time per position")
    parser.add_argument("--evaluation", nargs="+", default=["fitted", "hand"], choices=["fitted", "hand"])
    parser.add_argument("--balanced", type=int, default=300, help="largest |value| of a position kept")
    parser.add_argument("--games", type=Path, default=DATA, help="JSON-lines games to take positions from")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--cache", type=Path, default=None, help="JSON-lines file of the oracle's verdicts")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args(argv)
    try:
        brain = parse_brain(args.oracle, "oracle")
        command, name = list(brain.command), brain.name
    except ValueError as error:
        parser.error(str(error))
    if args.positions < 1 or not 1 <= args.oracle_ms <= 600_000 or not 0 < args.time_ms <= 600_000:
        parser.error("--positions must be at least 1, --oracle-ms and --time-ms from 1 to 600000")
    if not args.games.is_file():
        parser.error(f"no games file {args.games}")
    from plyground.kinrow import State
    from plyground.kinrow.engine import Engine, EngineSettings

    try:
        oracle = Oracle(command, args.oracle_ms, size=N, cache=args.cache)
    except PlygroundError as error:
        raise SystemExit(f"error: {error}") from None
    try:
        chosen = positions(oracle, args.games, args.positions, args.balanced, args.seed)
        rows = []
        own = [(moves, oracle.judge(moves)[1]) for moves in chosen]
        rows.append({"player": f"oracle {name}", **judge_moves(oracle, own), "same_as_oracle": len(own)})
        for evaluation in args.evaluation:
            engine = Engine(time_ms=args.time_ms, settings=EngineSettings(evaluation=evaluation))
            picks, depths = [], []
            for moves in chosen:
                engine.reset()
                picks.append((moves, engine.choose(State.from_moves(N, 5, moves))))
                depths.append(engine.last.depth if engine.last else 0)
            same = sum(move == oracle.judge(moves)[1] for moves, move in picks)
            row = {"player": f"engine, {evaluation}", **judge_moves(oracle, picks), "same_as_oracle": same}
            rows.append({**row, "mean_depth": round(float(np.mean(depths)), 2)})
    except PlygroundError as error:
        raise SystemExit(f"error: {error}") from None
    finally:
        oracle.close()
    print(f"{len(chosen)} positions; oracle {name} at {args.oracle_ms} ms; the engine at {args.time_ms:g} ms")
    print(f"{'player':28s} {'blunders':>9s} {'mean value':>11s} {'oracle move':>12s}")
    for row in rows:
        print(f"{row['player'][:28]:28s} {row['blunders']:9d} {row['mean_value']:11.1f} {row['same_as_oracle']:12d}")
    print_json(
        "gomoku_blunders",
        {"oracle": name, "oracle_ms": args.oracle_ms, "time_ms": args.time_ms, "positions": len(chosen), "rows": rows},
        args,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
