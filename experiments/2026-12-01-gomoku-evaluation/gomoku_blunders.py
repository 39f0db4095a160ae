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
import re
import sys
import time
from pathlib import Path

import numpy as np

from plyground.arena import BrainProcess, parse_brain
from plyground.core.measurements import add_record_options, print_json

N = 15
WIN = 10_000
"""Values of ±WIN and beyond (less the plies) are forced wins and losses."""
DATA = Path(__file__).resolve().parents[2] / "recipes" / "data" / "gomoku_eval_games.jsonl"


def parse_value(line: str) -> int | None:
    """The value in a MESSAGE line of PentaZen (``ev``) or of plyground's brain (``score``), else None."""
    if match := re.search(r"\bev ([+-]v)?(-?\d+)", line):
        sign, number = match.group(1), int(match.group(2))
        return WIN - number if sign == "+v" else -WIN + number if sign == "-v" else number
    if match := re.search(r"\bscore (-?\d+)", line):
        value = int(match.group(1))
        from plyground.kinrow.engine import WIN_VALUE

        if abs(value) >= WIN_VALUE - 1000:
            return (WIN - (WIN_VALUE - abs(value))) * (1 if value > 0 else -1)
        return value
    return None


class Oracle:
    """A brain asked for its value and move on positions, one START a position; verdicts cached in a file."""

    def __init__(self, command: list[str], ms: int, cache: Path | None) -> None:
        self.brain = BrainProcess(command)
        self.ms = ms
        self.cache_path = cache
        self.cache: dict[str, tuple[int | None, int]] = {}
        if cache is not None and cache.exists():
            for line in cache.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if record["ms"] == ms:
                    self.cache[record["key"]] = (record["value"], record["move"])

    def judge(self, moves: list[int]) -> tuple[int | None, int]:
        """The oracle's value for the player to move after ``moves`` (None: it said none) and its move."""
        key = ",".join(map(str, moves))
        if key in self.cache:
            return self.cache[key]
        lines = [f"START {N}", f"INFO timeout_turn {self.ms}", "INFO timeout_match 1000000000", "INFO rule 0", "BOARD"]
        for i, move in enumerate(moves):
            row, col = divmod(move, N)
            lines.append(f"{col},{row},{1 if i % 2 == len(moves) % 2 else 2}")
        lines.append("DONE")
        self.brain.drain()
        if not self.brain.send(*lines):
            raise SystemExit(f"error: the oracle stopped: {self.brain.exited()}")
        value = None
        deadline = time.monotonic() + self.ms / 1000 + 30
        while True:
            try:
                line = self.brain.next_line(deadline - time.monotonic())
            except TimeoutError:
                raise SystemExit(f"error: the oracle gave no move within {self.ms / 1000 + 30:g} s") from None
            if line is None:
                raise SystemExit(f"error: the oracle gave no move: {self.brain.exited()}")
            said = parse_value(line) if line.startswith("MESSAGE") else None
            value = value if said is None else said
            if re.fullmatch(r"\d+,\d+", line):
                x, y = map(int, line.split(","))
                break
        verdict = (value, y * N + x)
        self.cache[key] = verdict
        if self.cache_path is not None:
            with self.cache_path.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"ms": self.ms, "key": key, "value": value, "move": verdict[1]}) + "\n")
        return verdict

    def close(self) -> None:
        self.brain.close()


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

    oracle = Oracle(command, args.oracle_ms, args.cache)
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
