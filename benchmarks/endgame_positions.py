"""Endgame positions: the board of each AI game where its first 16384 appears, to play on from (conversion.py).

Plays seeded 4×4 games with the AI (expectimax at ``--time-ms`` a move on the network shipped with
plyground, one search thread a game, ``--workers`` games at once: every core by default, as
``plyground 2048 bench``), each stopped on the first board holding ``--tile`` (once its move's tile
has spawned: the player to move). Each game that got there is appended to ``--out`` as it ends, a
JSON line::

    {"seed": 7, "move": 8123, "score": 312345, "board": "2 4 8 16/...", "tile": 16384, "time_ms": 2.0,
     "evaluator": "network"}

(``board`` as :meth:`Board.to_text` writes it, ``score`` and ``move`` those of that board). A game
that ended short of the tile is appended to ``OUT.short`` (its seed, score, largest tile and moves).
Seeds in either file are not played again: the same command goes on where a stopped run ended, and
a larger ``--games`` adds the seeds after. Ends with one JSON line.

    python benchmarks/endgame_positions.py [--out benchmarks/data/endgame_16384.jsonl] [--games 30] [--seed 1]
        [--time-ms 2] [--tile 16384] [--workers N]

At 2 ms a move a game to 16384 takes some 20 to 40 s of one core: run a few dozen in the background.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from plyground.core.measurements import add_record_options, append_line, print_json
from plyground.core.run_many import Backend, run_many
from plyground.errors import PlygroundError
from plyground.g2048.autoplay import GameResult, GameSpec, play_spec
from plyground.g2048.registry import default_evaluator

DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "endgame_16384.jsonl"
EVALUATOR = default_evaluator(4, 4)


def short_path(out: Path) -> Path:
    """Where the games that ended short of the tile are kept, beside ``out``."""
    return out.with_name(out.name + ".short")


def read_lines(path: Path, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON lines of ``path`` (none if it does not exist), each checked to be of ``settings``.

    A last line cut short by a crash is dropped (its game is played again).

    Raises:
        SystemExit: a line that is not JSON or not a game of these settings, in one line.
    """
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    games = []
    for number, line in enumerate(lines, 1):
        try:
            game = json.loads(line)
            int(game["seed"])
        except json.JSONDecodeError:
            if number == len(lines):
                continue
            raise SystemExit(f"error: {path}, line {number}: not JSON") from None
        except (KeyError, TypeError, ValueError):
            raise SystemExit(f"error: {path}, line {number}: not a game (no seed)") from None
        if other := {key: game.get(key) for key in settings if game.get(key) != settings[key]}:
            raise SystemExit(f"error: {path}, line {number} has {other}, not {settings}: give another --out")
        games.append(game)
    return games


def position(result: GameResult, settings: dict[str, Any]) -> dict[str, Any]:
    """The JSON line of a game that reached the tile: its last board, where it stopped."""
    game = result.replay.play()
    return {
        "seed": result.seed,
        "move": result.moves,
        "score": result.score,
        "board": game.board.to_text(),
        **settings,
        "seconds": round(result.seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the positions, a JSON line each (appended)")
    parser.add_argument("--games", type=int, default=30, help="seeds --seed to --seed + games - 1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-ms", type=float, default=2.0, help="search time a move")
    parser.add_argument("--tile", type=int, default=16384, help="stop each game on the first board holding it")
    parser.add_argument("--workers", type=int, help="games at once (default: every core)")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.games < 1 or args.tile < 4 or args.tile & (args.tile - 1) or args.time_ms <= 0:
        parser.error("--games from 1, --tile a power of two from 4, --time-ms above 0")

    settings = {"tile": args.tile, "time_ms": args.time_ms, "evaluator": EVALUATOR}
    short = short_path(args.out)
    found = read_lines(args.out, settings)
    fell_short = read_lines(short, settings)
    done = {int(game["seed"]) for game in [*found, *fell_short]}
    todo = [seed for seed in range(args.seed, args.seed + args.games) if seed not in done]
    console = Console(stderr=True)
    console.print(
        f"{len(found)} positions in {args.out}, {len(fell_short)} games short of {args.tile}; "
        f"{len(todo)} games to play at {args.time_ms:g} ms a move",
        highlight=False,
    )
    specs = [GameSpec(seed=seed, time_ms=args.time_ms, evaluator=EVALUATOR, stop_at=args.tile) for seed in todo]
    reached = 0
    began = time.perf_counter()

    def finished(index: int, result: GameResult) -> None:
        nonlocal reached
        if result.max_tile >= args.tile:
            reached += 1
            append_line(args.out, position(result, settings))
            what = f"{args.tile} at move {result.moves:,}"
        else:
            append_line(short, {"seed": result.seed, "score": result.score, "max_tile": result.max_tile,
                                "moves": result.moves, **settings})  # fmt: skip
            what = f"ended at {result.max_tile} after {result.moves:,} moves"
        console.print(f"seed {result.seed}: {what}, {result.score:,} points ({result.seconds:.0f} s)", highlight=False)

    if todo:
        try:
            run_many(play_spec, specs, backend=Backend(workers=args.workers), on_result=finished)
        except KeyboardInterrupt:
            console.print(f"stopped: the finished games are in {args.out} (and {short.name}); run again to go on")
            sys.exit(130)
        except PlygroundError as error:
            print(f"error: {error}", file=sys.stderr)
            sys.exit(2)
    seconds = time.perf_counter() - began
    positions = read_lines(args.out, settings)
    console.print(f"{len(positions)} positions in {args.out}", highlight=False)
    print_json(
        "endgame_positions",
        {
            **settings,
            "out": str(args.out),
            "first_seed": args.seed,
            "games": args.games,
            "played": len(todo),
            "reached": reached,
            "seconds": round(seconds, 1),
            "positions": len(positions),
            "seeds": sorted(int(game["seed"]) for game in positions),
        },
        args,
    )


if __name__ == "__main__":
    main()
