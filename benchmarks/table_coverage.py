"""Table coverage: how often each formation would speak on the boards the search plays from 16384 to 32768.

Plays on from the saved positions of ``endgame_positions.py`` (``--positions``, the first
``--limit``), each to its first 32768 or the end of the game, with the shipped network at
``--time-ms`` a move (one search thread a game, ``--workers`` games at once), the spawns of
``conversion.py`` (``spawn_seed``), and on every board counts, for each formation of ``--formations``
(``TEXT:TARGET``; default: the standard set and two capped formations of ten free cells), whether it
fits as an endgame table would be asked (:func:`~plyground.g2048.tablebase.formation_fits`: the
frozen cells hold the target or more, the goal continues the chain, the free cells hold tiles below
the target and their caps). No table is needed: it measures how often a table would be asked before
it is built. Prints each formation's share of the moves and of the games where it fits at least once,
and one JSON line.

    python benchmarks/table_coverage.py [--limit 10] [--time-ms 0.35] [--formations "xxxx/.Txx/7777/6666:512"]
        [--max-moves N] [--workers N]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from conversion import DEFAULT_POSITIONS, read_positions, spawn_seed
from plyground.core.match import play_game
from plyground.core.measurements import add_record_options, print_json
from plyground.core.run_many import run_many
from plyground.errors import PlygroundError
from plyground.g2048 import Board
from plyground.g2048.agent import SearchAgent
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.registry import default_evaluator, load_evaluator
from plyground.g2048.state import State, draw_spawn
from plyground.g2048.tablebase import STANDARD_TABLES, Formation, formation_fits

EVALUATOR = default_evaluator(4, 4)
DEFAULT_FORMATIONS = (
    *(f"{text}:{target}" for text, target in STANDARD_TABLES),
    "xxxx/.Txx/7777/6666:512",
    "xxx./xxxT/7788/6677:512",
)


@dataclass(frozen=True)
class Job:
    """One game: a position (its seed, score and board) played on at ``time_ms`` a move, ``formations`` counted."""

    seed: int
    score: int
    board: str
    time_ms: float
    formations: tuple[str, ...]
    max_moves: int | None = None


def parse_formation(text: str) -> tuple[Formation, int]:
    """``TEXT:TARGET`` as a formation and its target.

    Raises:
        PlygroundError: not of that form, a bad formation or a bad target, in one line.
    """
    shape, _, target = text.rpartition(":")
    if not shape or not target.isdigit() or int(target) < 4 or int(target) & (int(target) - 1):
        raise PlygroundError(f"a formation to count is TEXT:TARGET, like xxxx/.Txx/7777/6666:512, got {text!r}")
    return Formation.parse(shape), int(target)


def count(job: Job) -> dict[str, Any]:
    """Play ``job``'s game on to 32768 or its end; on how many of its boards each formation fits."""
    formations = [parse_formation(text) for text in job.formations]
    fits = [0] * len(formations)
    state = State.from_board(Board.parse(job.board), job.score)

    def ask(agent: SearchAgent, now: State) -> tuple[int, float]:
        for i, (formation, target) in enumerate(formations):
            fits[i] += formation_fits(formation, target, now.board) is not None
        return agent.choose(now), 0.0

    with Expectimax(time_ms=job.time_ms, workers=1, evaluator=load_evaluator(EVALUATOR, reuse=True)) as search:
        record = play_game(state, [SearchAgent(search)], seed=spawn_seed(job.seed, 1), ask=ask, chance=draw_spawn,
                           max_moves=job.max_moves, until=lambda now: now.board.max_tile() >= 32768)  # fmt: skip
    return {"moves": len(record.seconds), "fits": fits, "made": state.board.max_tile() >= 32768}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS, help="from endgame_positions.py")
    parser.add_argument("--limit", type=int, default=10, help="the first N positions (default 10)")
    parser.add_argument("--time-ms", type=float, default=0.35, help="the search's time a move (default 0.35)")
    parser.add_argument("--formations", nargs="+", default=list(DEFAULT_FORMATIONS), metavar="TEXT:TARGET")
    parser.add_argument("--max-moves", type=int, default=None, help="stop each game after N moves")
    parser.add_argument("--workers", type=int, default=None, help="games at once (default: every core)")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args(argv)
    try:
        for text in args.formations:
            parse_formation(text)
        positions = read_positions(args.positions)[: args.limit]  # as conversion.py reads them
        jobs = [Job(p.seed, p.score, p.board, args.time_ms, tuple(args.formations), args.max_moves) for p in positions]
        if not jobs:
            raise PlygroundError(f"no position in {args.positions}")
        games = run_many(count, jobs, workers=args.workers)
    except PlygroundError as exc:
        raise SystemExit(f"error: {exc}") from None
    moves = sum(game["moves"] for game in games)
    rows = {}
    table = Table(title=f"{len(games)} games from their first 16384, {moves:,} moves at {args.time_ms:g} ms a move")
    for column in ("formation", "target", "moves it fits", "share", "games"):
        table.add_column(column, justify="right")
    for i, text in enumerate(args.formations):
        formation, target = parse_formation(text)
        fitted = sum(game["fits"][i] for game in games)
        in_games = sum(game["fits"][i] > 0 for game in games)
        rows[text] = {"moves": fitted, "share": fitted / moves if moves else 0.0, "games": in_games}
        table.add_row(formation.to_text(), str(target), f"{fitted:,}", f"{100 * rows[text]['share']:.2f}%",
                      f"{in_games} of {len(games)}")  # fmt: skip
    Console().print(table)
    results = {
        "positions": len(games), "positions_file": args.positions.name, "time_ms": args.time_ms, "moves": moves,
        "max_moves": args.max_moves,
        "made": sum(game["made"] for game in games), "formations": rows, "evaluator": EVALUATOR,
    }  # fmt: skip
    print_json("table_coverage", json.loads(json.dumps(results)), args)


if __name__ == "__main__":
    main()
