"""How fast the engine finds the forced wins a strong brain found against it: the critical positions of lost games.

    python experiments/2026-12-01-gomoku-evaluation/gomoku_wins.py [--time-ms 1000] [--positions FILE]
        [--oracle PATH --oracle-ms 300]
    python experiments/2026-12-01-gomoku-evaluation/gomoku_wins.py collect PATH/pbrain-pentazen GAMES...
        --out FILE [--oracle-ms 300]
    python experiments/2026-12-01-gomoku-evaluation/gomoku_wins.py selfplay PATH/pbrain-pentazen SELFPLAY.jsonl
        --out FILE [--games 300]

``collect`` reads game records written by ``benchmarks/gomoku.py --games-out`` and, for each game the
brain won, asks the brain (thinking ``--oracle-ms``) about the positions it had to move in, from the
fourth stone on, and keeps the first where it reports a forced win (PentaZen's ``ev +v23``: a win in 23
plies): the position the game was lost in. The positions are JSON lines (``moves`` as cells, the
``plies`` the brain announced, its ``move``). ``selfplay`` does the same for the self-play games of
``recipes/gomoku_evaluation.py play`` (the first ``--games`` in an order drawn from ``--seed``),
whoever won: the first position after the opening where the player to move is announced a win.
Each game's verdict is appended to ``FILE.partial`` as it comes, so a run that stops resumes there.

The default command puts the engine on each position for ``--time-ms``, with and without its
selectivity (``EngineSettings`` and ``PLAIN``), and counts the positions where it proves the win
itself (its value is a forced win) and how long that took; ``--oracle`` times the brain on them too,
as the reference. The positions of ``experiments/2026-12-01-gomoku-evaluation/data/gomoku_wins.jsonl`` come from
the engine's games
against PentaZen at 1 s a move, those of
``experiments/2026-12-01-gomoku-evaluation/data/gomoku_wins_selfplay.jsonl`` from PentaZen's
self-play games (``selfplay``: 300 games, seed 7, 292 positions); their labels are PentaZen's claims (the
ones the engine solves are confirmed by its own search).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from plyground.arena import parse_brain, read_records
from plyground.arena.oracle import WIN, Oracle
from plyground.core.measurements import add_record_options, print_json
from plyground.errors import PlygroundError

N = 15
DATA = Path(__file__).resolve().parent / "data" / "gomoku_wins.jsonl"


def collect(oracle: Oracle, name: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first position of each game ``name`` won where it, to move, reports a forced win."""
    out = []
    for record in records:
        colour = "Black" if record["Black"] == name else "White" if record["White"] == name else None
        won = {"Black": "1-0", "White": "0-1"}.get(colour or "") == record["Result"]
        if not won:
            continue
        moves = [y * N + x for x, y in record["moves"]]
        first = 0 if colour == "Black" else 1
        for cut in range(4 + (first - 4) % 2, len(moves) - 1, 2):
            value, move = oracle.judge(moves[:cut])
            if value is not None and value >= WIN - 1000:
                out.append({"moves": moves[:cut], "plies": WIN - value, "move": move})
                break
    return out


def solve(positions: list[dict[str, Any]], time_ms: float, settings: Any) -> dict[str, Any]:
    """How many wins the engine proves in ``time_ms`` each, and the mean time and depth."""
    from plyground.kinrow import State
    from plyground.kinrow.engine import WIN_VALUE, Engine

    solved, seconds, depths = 0, [], []
    for position in positions:
        engine = Engine(time_ms=time_ms, settings=settings)
        start = time.perf_counter()
        engine.choose(State.from_moves(N, 5, position["moves"]))
        assert engine.last is not None
        depths.append(engine.last.depth)
        if engine.last.value >= WIN_VALUE - 1000:
            solved += 1
            seconds.append(time.perf_counter() - start)
    return {
        "solved": solved,
        "mean_s": round(statistics.fmean(seconds), 3) if seconds else None,
        "mean_depth": round(statistics.fmean(depths), 2),
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["collect"]:
        return main_collect(argv[1:])
    if argv[:1] == ["selfplay"]:
        return main_selfplay(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-ms", type=float, default=1000, help="the engine's time per position")
    parser.add_argument("--positions", type=Path, default=DATA, help="JSON lines of positions (see collect)")
    parser.add_argument("--oracle", default=None, help="a brain to time on the same positions (reference)")
    parser.add_argument("--oracle-ms", type=int, default=300, help="the oracle's time per position")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args(argv)
    if not 0 < args.time_ms <= 600_000 or not 1 <= args.oracle_ms <= 600_000:
        parser.error("--time-ms and --oracle-ms must be from 1 to 600000")
    try:
        positions = [json.loads(line) for line in args.positions.read_text().splitlines() if line.strip()]
        if not positions or not all(isinstance(p.get("moves"), list) for p in positions):
            raise ValueError("no positions with moves")
    except (OSError, ValueError) as error:
        parser.error(f"cannot read the positions of {args.positions}: {error}")
    from plyground.kinrow import State
    from plyground.kinrow.engine import PLAIN, Engine, EngineSettings

    Engine(depth=2).choose(State.from_moves(N, 5, positions[0]["moves"]))  # the kernels are loaded first
    rows = []
    for label, settings in (("engine", EngineSettings()), ("engine, plain", EngineSettings(**PLAIN))):
        rows.append({"player": label, **solve(positions, args.time_ms, settings)})
    if args.oracle is not None:
        try:
            brain = parse_brain(args.oracle, "oracle")
            command, name = list(brain.command), brain.name
        except ValueError as error:
            parser.error(str(error))
        oracle = Oracle(command, args.oracle_ms)
        try:
            found = sum((oracle.judge(p["moves"])[0] or 0) >= WIN - 1000 for p in positions)
        finally:
            oracle.close()
        rows.append({"player": f"oracle {name} ({args.oracle_ms} ms)", "solved": found})
    print(f"{len(positions)} positions where a brain announced a forced win; the engine at {args.time_ms:g} ms")
    print(f"{'player':34s} {'solved':>7s} {'mean s':>7s} {'depth':>6s}")
    for row in rows:
        mean_s = "" if row.get("mean_s") is None else f"{row['mean_s']:.2f}"
        depth = "" if row.get("mean_depth") is None else f"{row['mean_depth']:.1f}"
        print(f"{row['player'][:34]:34s} {row['solved']:7d} {mean_s:>7s} {depth:>6s}")
    print_json("gomoku_wins", {"time_ms": args.time_ms, "positions": len(positions), "rows": rows}, args)
    return 0


def main_collect(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gomoku_wins.py collect", description="collect the critical positions")
    parser.add_argument("brain", help="the winning brain: an executable, or plyground:KIND [ARGS]")
    parser.add_argument("games", nargs="+", type=Path, help="game records of benchmarks/gomoku.py --games-out")
    parser.add_argument("--out", type=Path, required=True, help="the JSON-lines file to write")
    parser.add_argument("--oracle-ms", type=int, default=300, help="the brain's time per position")
    args = parser.parse_args(argv)
    try:
        brain = parse_brain(args.brain, "brain")
        command, name = list(brain.command), brain.name
        records = [record for path in args.games for record in read_records(path.read_text())]
    except (OSError, ValueError) as error:
        parser.error(str(error))
    oracle = Oracle(command, args.oracle_ms)
    try:
        found = collect(oracle, name, records)
    finally:
        oracle.close()
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text("".join(json.dumps(p) + "\n" for p in found))
    tmp.replace(args.out)
    print(f"{len(found)} positions from {len(records)} games written to {args.out}")
    return 0


def main_selfplay(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gomoku_wins.py selfplay", description="critical positions of self-play")
    parser.add_argument("brain", help="the judging brain: an executable, or plyground:KIND [ARGS]")
    parser.add_argument("games", type=Path, help="JSON lines of recipes/gomoku_evaluation.py play (stones, moves)")
    parser.add_argument("--out", type=Path, required=True, help="the JSON-lines file to write")
    parser.add_argument("--games", dest="count", type=int, default=300, help="games to look at")
    parser.add_argument("--seed", type=int, default=7, help="the order the games are taken in")
    parser.add_argument("--oracle-ms", type=int, default=300, help="the brain's time per position")
    args = parser.parse_args(argv)
    try:
        brain = parse_brain(args.brain, "brain")
        command = list(brain.command)
        games = [json.loads(line) for line in args.games.read_text().splitlines() if line.strip()]
        if not all(isinstance(g.get("moves"), list) and isinstance(g.get("stones"), int) for g in games):
            raise ValueError("not self-play games: each line needs its moves and opening stones")
    except (OSError, ValueError) as error:
        parser.error(f"cannot read {args.games}: {error}")
    random.Random(args.seed).shuffle(games)
    partial = args.out.with_name(args.out.name + ".partial")
    done = []
    if partial.exists():  # a stopped run: keep its verdicts, up to a line it may have left half written
        for line in partial.read_text(encoding="utf-8").splitlines():
            try:
                done.append(json.loads(line))
            except json.JSONDecodeError:
                break
        partial.write_text("".join(json.dumps(v) + "\n" for v in done), encoding="utf-8")
    oracle = Oracle(command, args.oracle_ms)
    try:
        with partial.open("a", encoding="utf-8") as out:
            for index in range(len(done), min(args.count, len(games))):
                moves = games[index]["moves"]
                verdict: dict[str, Any] = {"game": index}
                for cut in range(games[index]["stones"] + 1, len(moves) - 1):
                    value, move = oracle.judge(moves[:cut])
                    if value is not None and value >= WIN - 1000:
                        verdict.update(moves=moves[:cut], plies=WIN - value, move=move)
                        break
                out.write(json.dumps(verdict) + "\n")
                out.flush()
                done.append(verdict)
    finally:
        oracle.close()
    found = [{key: v[key] for key in ("moves", "plies", "move")} for v in done if "moves" in v]
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text("".join(json.dumps(p) + "\n" for p in found))
    tmp.replace(args.out)
    partial.unlink()
    print(f"{len(found)} positions from {len(done)} games written to {args.out}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except PlygroundError as error:  # the oracle stopped or gave no move
        raise SystemExit(f"error: {error}") from None
