"""Endgame conversion: from saved positions (each game's first 16384), how often each way of playing makes 32768.

Reads the positions ``endgame_positions.py`` writes (``--positions``, default
``benchmarks/data/endgame_16384.jsonl``), or with ``--from-start N`` takes the start boards of N new
games (seeds 1 to N, two tiles spawned as a game spawns them: whole games; ``--size RxC`` for another
board than 4x4), and plays each on to the end of the game, or to its first
``--stop-at`` tile (default ``--tile``, 32768; 0: to the end), in every arm of ``--arms``, at
``--time-ms`` a move with the applications' evaluator of the board: the network shipped with plyground
on 4x4, the heuristic on the others. The arms are paired: they play the
same positions with the same spawn seeds (``--seed``, and with ``--seeds N`` also ``--seed + 1``
... for N games a position and arm), so that they differ only in how they choose their moves. A
game's spawns come from :func:`spawn_seed` of the position's and the seed: positions saved the
moment 16384 appears hold little else, and with one spawn seed for all of them the search alone
plays nearly the same game from each (the same score and moves, measured), which is one sample,
not many.


    search   expectimax on every move
    tables   a board an endgame table of ``--tablebases`` advises on is played by the table's move,
             unsearched, as :class:`~plyground.g2048.agent.SearchAgent` does; the others searched
    guard    the search's move, unless a table sees it lose more than 0.01 against its own best
             (``SearchAgent(..., table_use="guard")``); guard-0.1 and guard-0.3 with those margins
    sure     a table's move only where its probability is 0.9 or more (``confidence=0.9``)
    guard-sure  guard with a margin of 0.05 where the table's best has a probability of 0.9 or more
    leaves-5k, leaves-20k, leaves-80k  expectimax whose leaves are worth the network's value plus 5,000,
             20,000 or 80,000 points times a table's probability of building its target from there
             (``SearchAgent(..., table_use="leaves")``); the share from the tables counts its searches that
             a table joined
    leaves-1  the same at 1 point: the tables' probabilities change next to nothing, what the way costs
             does (the tables asked at each move, the game's board searched where a table fits)
    heuristic  expectimax with the heuristic (its default weights) where the others use the network
    bank     expectimax with ``time_bank``: the time a move leaves (its next depth would not finish) goes to the
             next moves, so that ``--time-ms`` is the mean
    shaped-1, shaped-2  expectimax whose mean time a move goes more to crowded boards: a board of e empty cells
             gets --time-ms times (1 + e) ** -1 (or -2) over the moving average of that weight in the game
    macroxue-D  macroxue/2048-ai (its own search and tables) at depth D, 3 to 6: ``--macroxue DEST/2048``,
             built by ``benchmarks/opponents/build_macroxue.sh``; asked move by move over a local socket
             (:mod:`plyground.arena.macroxue`), a server started for each game (its cache empty at the
             start, as in its own games); ``--time-ms`` is not its

A new way of using the tables is one more :class:`Arm` in :data:`ARMS`: a name, a line saying what it
does and a function that makes its agent from the search and the tables.

The games run on ``--workers`` processes (default: every core), one search thread each, the arms of a
position side by side. Each game is appended to ``--log`` as it ends (a JSON line); the same command,
run again, plays only the games not in the log. Prints, for each arm, its games, the share that made
``--tile`` with its 95% (Wilson) interval, the mean final score, the mean moves played from the
position, its mean milliseconds a move (the time of each call that chose a move, as the search's budget
is a mean; with a server, the round trip included) and the share of moves played from the tables; then
each arm against the first, pair by pair: the positions where one made the tile and the other did not
(with the exact two-sided sign test of those), and the mean difference of final scores with its 95%
interval. Ends with one JSON line.

    python benchmarks/conversion.py --tablebases DIR [--arms search tables] [--time-ms 2] [--seeds 1]
        [--limit N | --from-start N [--size RxC]] [--log conversion_games.jsonl] [--max-moves N]
        [--macroxue DEST/2048]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.arena.macroxue import MacroxueAgent, MacroxueServer
from plyground.core.agent import Agent
from plyground.core.match import play_game, timed_choice
from plyground.core.measurements import add_record_options, append_line, print_json, read_settings_log
from plyground.core.run_many import Backend, run_many
from plyground.core.stats import mean_interval, share_interval
from plyground.errors import PlygroundError
from plyground.g2048 import Board
from plyground.g2048.agent import SearchAgent
from plyground.g2048.board import DEFAULT_P_FOUR
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.game import Game
from plyground.g2048.registry import default_evaluator, load_evaluator
from plyground.g2048.state import State, draw_spawn
from plyground.g2048.tablebase import Advisor, table_name

DEFAULT_POSITIONS = Path(__file__).resolve().parent / "data" / "endgame_16384.jsonl"
SIZES = ("4x4", "4x3", "3x4", "3x3")
"""The board sizes of ``--size`` (whole games): those of the standard sets of tables."""


def _search_only(search: Expectimax, tables: Advisor | None) -> SearchAgent:
    return SearchAgent(search)


def _tables_as_they_come(search: Expectimax, tables: Advisor | None) -> SearchAgent:
    return SearchAgent(search, tables)


def _agent(
    use: str, margin: float = 0.01, confidence: float = 0.0, weight: float | None = None
) -> Callable[[Expectimax, Advisor | None], SearchAgent]:
    def agent(search: Expectimax, tables: Advisor | None) -> SearchAgent:
        return SearchAgent(search, tables, table_use=use, margin=margin, confidence=confidence, weight=weight)

    return agent


class _ShapedTime(SearchAgent):
    """The search with its mean budget spent where the board is crowded: a move on a board of ``e`` empty cells
    gets ``time_ms * w(e) / mean(w)``, ``w(e) = (1 + e) ** -power``, the mean a moving average over the game's
    moves so far (its first move's weight to begin with)."""

    def __init__(self, search: Expectimax, power: float) -> None:
        super().__init__(search)
        assert search.time_ms is not None  # the arms search by time
        self.budget_ms, self.power = search.time_ms, power
        self.mean_weight: float | None = None

    def choose(self, state: State) -> int:
        weight = (1.0 + len(state.board.empty_cells())) ** -self.power
        mean = weight if self.mean_weight is None else 0.99 * self.mean_weight + 0.01 * weight
        self.mean_weight = mean
        self.search.time_ms = self.budget_ms * weight / mean
        return super().choose(state)


def _banked(search: Expectimax, tables: Advisor | None) -> SearchAgent:
    search.time_bank = True
    return SearchAgent(search)


def _shaped(power: float) -> Callable[[Expectimax, Advisor | None], SearchAgent]:
    def agent(search: Expectimax, tables: Advisor | None) -> SearchAgent:
        return _ShapedTime(search, power)

    return agent


@dataclass(frozen=True)
class Arm:
    """A way of playing on from a position.

    Attributes:
        name: its name on the command line, in the tables and the log.
        about: what it does, in a line.
        agent: its agent for a game, from the game's search and the tables (None when it uses none).
            An agent that plays a table's move sets ``advice`` (as
            :class:`~plyground.g2048.agent.SearchAgent`), which counts the move as the tables'.
        tables: whether it needs ``--tablebases``.
        macroxue: the depth at which macroxue/2048-ai plays it (``--macroxue``), instead of ``agent``.
        evaluator: the evaluator its search uses, by name (None: the applications' evaluator of the board).
    """

    name: str
    about: str
    agent: Callable[[Expectimax, Advisor | None], SearchAgent]
    tables: bool
    macroxue: int | None = None
    evaluator: str | None = None


ARMS = {
    arm.name: arm
    for arm in (
        Arm("search", "expectimax on every move", _search_only, tables=False),
        Arm("tables", "a table's move wherever one advises (SearchAgent), else expectimax", _tables_as_they_come,
            tables=True),
        Arm("guard", "expectimax's move unless a table sees it lose more than 0.01 against its best",
            _agent("guard"), tables=True),
        Arm("guard-0.1", "expectimax's move unless a table sees it lose more than 0.1 against its best",
            _agent("guard", margin=0.1), tables=True),
        Arm("guard-0.3", "expectimax's move unless a table sees it lose more than 0.3 against its best",
            _agent("guard", margin=0.3), tables=True),
        Arm("sure", "a table's move where its probability is 0.9 or more, else expectimax",
            _agent("play", confidence=0.9), tables=True),
        Arm("guard-sure", "guard (margin 0.05) where the table's best has a probability of 0.9 or more",
            _agent("guard", margin=0.05, confidence=0.9), tables=True),
        *(Arm(f"leaves-{weight // 1000}k" if weight >= 1000 else f"leaves-{weight}",
              f"expectimax weighing the tables at its leaves, {weight:,} points a unit of probability",
              _agent("leaves", weight=weight), tables=True) for weight in (1, 5_000, 20_000, 80_000)),
        Arm("heuristic", "expectimax with the heuristic instead of the board's evaluator", _search_only,
            tables=False, evaluator="heuristic"),
        Arm("bank", "expectimax with time_bank: what a move leaves of its time goes to the next moves", _banked,
            tables=False),
        *(Arm(f"shaped-{power:g}", f"expectimax, its mean time a move shared out as (1 + empty cells) ** -{power:g}",
              _shaped(power), tables=False) for power in (1.0, 2.0)),
        *(Arm(f"macroxue-{depth}", f"macroxue/2048-ai at depth {depth}", _search_only, tables=False, macroxue=depth)
          for depth in range(3, 7)),
    )
}  # fmt: skip


@dataclass(frozen=True)
class Position:
    """A saved position: the board, its score and where it comes from (the game's seed and move)."""

    seed: int
    move: int
    score: int
    board: str


@dataclass(frozen=True)
class Job:
    """One game: an arm playing on from a position with a spawn seed (what a worker process is given)."""

    arm: str
    position: Position
    seed: int
    time_ms: float
    stop_at: int | None
    max_moves: int | None
    tablebases: str | None
    macroxue: str | None = None


@functools.cache
def _advisor(folder: str) -> Advisor:
    """The tables of ``folder`` (those of the games' ``p_four``), read once a process."""
    return Advisor.load(folder, p_four=DEFAULT_P_FOUR)


def spawn_seed(position: int, seed: int) -> int:
    """The spawn seed of the game from the position saved from game ``position`` with seed number ``seed``."""
    return 1_000_003 * position + seed


def play(job: Job) -> dict[str, Any]:
    """Play ``job``'s game to its end, or to the first ``stop_at`` tile, or ``max_moves`` moves; what it made."""
    arm = ARMS[job.arm]
    tables = _advisor(job.tablebases) if arm.tables and job.tablebases is not None else None
    state = State.from_board(Board.parse(job.position.board), job.position.score)
    table_moves = 0
    move_seconds = 0.0

    def ask(agent: Agent[State], now: State) -> tuple[int, float]:
        nonlocal table_moves, move_seconds
        chosen = timed_choice(agent, now)
        leaves = agent.search.table_leaves if isinstance(agent, SearchAgent) else None
        table_moves += getattr(agent, "advice", None) is not None or (leaves is not None and leaves.last is not None)
        move_seconds += chosen[1]
        return chosen

    stop_at = job.stop_at
    until = None if stop_at is None else (lambda now: now.board.max_tile() >= stop_at)
    board = state.board
    evaluator = load_evaluator(arm.evaluator or default_evaluator(board.rows, board.cols), reuse=True)
    began = time.perf_counter()
    with Expectimax(time_ms=job.time_ms, workers=1, evaluator=evaluator) as search, contextlib.ExitStack() as stack:
        agent: Agent[State]
        if arm.macroxue is None:
            agent = arm.agent(search, tables)
        else:  # a server a game: its cache starts empty, as in its own games
            assert job.macroxue is not None  # main() asks for --macroxue
            agent = MacroxueAgent(stack.enter_context(MacroxueServer(job.macroxue, arm.macroxue)))
        seed = spawn_seed(job.position.seed, job.seed)
        record = play_game(state, [agent], seed=seed, ask=ask, chance=draw_spawn, max_moves=job.max_moves,
                           until=until)  # fmt: skip
    return {
        "score": state.score,
        "max_tile": state.board.max_tile(),
        "moves": len(record.seconds),
        "table_moves": table_moves,
        "seconds": round(time.perf_counter() - began, 1),
        "move_seconds": round(move_seconds, 3),
        "evaluator": evaluator.name,
    }


def read_positions(path: Path) -> list[Position]:
    """The positions of ``path``, in its order.

    Raises:
        SystemExit: a missing file, or a line that is not a position, in one line.
    """
    if not path.is_file():
        raise SystemExit(f"error: no positions file {path}: make one with benchmarks/endgame_positions.py")
    positions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
            found = Position(int(entry["seed"]), int(entry["move"]), int(entry["score"]), str(entry["board"]))
            Board.parse(found.board)
        except (ValueError, KeyError, TypeError):
            raise SystemExit(f"error: {path}, line {number}: not a position") from None
        positions.append(found)
    if len({position.seed for position in positions}) < len(positions):
        raise SystemExit(f"error: {path}: two positions of the same seed")
    return positions


def start_positions(games: int, rows: int = 4, cols: int = 4) -> list[Position]:
    """The start boards of ``games`` new games of ``rows`` by ``cols``, seeds 1 to ``games``: two tiles spawned as
    a game spawns them."""
    return [Position(seed, 0, 0, Game(rows, cols, seed=seed).board.to_text()) for seed in range(1, games + 1)]


def game_key(arm: str, position: Position) -> str:
    """The name of an arm's games from a position in the log (with the spawn seed, the game's key)."""
    return f"{arm} from {position.seed}"


def sign_test(wins: int, losses: int) -> float:
    """The exact two-sided p-value of ``wins`` against ``losses`` under even odds (McNemar's, on discordant pairs).

    >>> sign_test(0, 0), sign_test(5, 0), sign_test(3, 3)
    (1.0, 0.0625, 1.0)
    """
    n = wins + losses
    tail = sum(math.comb(n, k) for k in range(min(wins, losses) + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def arm_row(games: Sequence[dict[str, Any]], tile: int) -> dict[str, Any]:
    """An arm's games summed up: how many, the share that made ``tile`` (95% interval), mean score and moves."""
    made = sum(game["max_tile"] >= tile for game in games)
    moves = sum(game["moves"] for game in games)
    return {
        "games": len(games),
        "made": made,
        "share": made / len(games) if games else None,
        "interval": share_interval(made, len(games)),
        "mean_score": statistics.fmean(game["score"] for game in games) if games else None,
        "mean_moves": moves / len(games) if games else None,
        "table_move_share": sum(game["table_moves"] for game in games) / moves if moves else 0.0,
        "ms_per_move": (
            1000 * sum(game["move_seconds"] for game in games) / moves
            if moves and all("move_seconds" in game for game in games)
            else None
        ),
    }


def paired(pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]], tile: int, arm: str, against: str) -> dict[str, Any]:
    """``arm`` against ``against`` over the pairs of their games: who made ``tile`` alone, and the score difference."""
    only_arm = [a["position"] for a, b in pairs if a["max_tile"] >= tile > b["max_tile"]]
    only_against = [b["position"] for a, b in pairs if b["max_tile"] >= tile > a["max_tile"]]
    both = sum(a["max_tile"] >= tile and b["max_tile"] >= tile for a, b in pairs)
    differences = [float(a["score"] - b["score"]) for a, b in pairs]
    return {
        "arm": arm,
        "against": against,
        "pairs": len(pairs),
        "both": both,
        "neither": len(pairs) - both - len(only_arm) - len(only_against),
        "only_arm": len(only_arm),
        "only_against": len(only_against),
        "only_arm_positions": only_arm,
        "only_against_positions": only_against,
        "p_value": sign_test(len(only_arm), len(only_against)),
        "score_difference": statistics.fmean(differences) if differences else None,
        "score_difference_interval": mean_interval(differences),
    }


def _percent(share: float | None, interval: tuple[float, float] | None) -> str:
    if share is None:
        return "-"
    return f"{share:.0%}" + (f" ({interval[0]:.0%}-{interval[1]:.0%})" if interval else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS, help="from endgame_positions.py")
    parser.add_argument("--from-start", type=int, metavar="N",
                        help="instead, whole games: the start boards of N new games (seeds 1 to N)")  # fmt: skip
    parser.add_argument("--size", default="4x4", choices=SIZES, help="with --from-start: the board (RxC)")
    parser.add_argument("--limit", type=int, help="only the first N positions of the file")
    parser.add_argument(
        "--arms",
        nargs="+",
        default=["search", "tables", "guard"],
        choices=list(ARMS),
        help="the first is the reference",
    )
    parser.add_argument("--tablebases", type=Path, help="the folder of the endgame tables (the tables arm's)")
    parser.add_argument("--macroxue", type=Path, help="macroxue/2048-ai's program (the macroxue-D arms')")
    parser.add_argument("--time-ms", type=float, default=2.0, help="search time a move")
    parser.add_argument("--tile", type=int, default=32768, help="the tile whose share is counted")
    parser.add_argument("--stop-at", type=int, help="end each game at its first tile of this value (default --tile; "
                        "0: play to the end)")  # fmt: skip
    parser.add_argument("--max-moves", type=int, help="end each game after this many moves (a quick check)")
    parser.add_argument("--seed", type=int, default=1, help="the first spawn seed")
    parser.add_argument("--seeds", type=int, default=1, help="spawn seeds a position, each played by every arm")
    parser.add_argument("--workers", type=int, help="games at once (default: every core)")
    parser.add_argument("--log", type=Path, default=Path("conversion_games.jsonl"), help="the games (resumable)")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.from_start is not None and args.from_start < 1:
        parser.error("--from-start is a number of games from 1")
    if args.size != "4x4" and args.from_start is None:
        parser.error("--size is for whole games: give --from-start N")
    rows, cols = (int(n) for n in args.size.split("x"))
    stop_at = args.tile if args.stop_at is None else args.stop_at or None
    if stop_at is not None and stop_at < args.tile:
        parser.error(f"--stop-at {stop_at} ends the games before they can make --tile {args.tile}")
    if len(set(args.arms)) < len(args.arms) or args.seeds < 1 or args.time_ms <= 0:
        parser.error("arms named once, --seeds from 1, --time-ms above 0")
    arms = [ARMS[name] for name in args.arms]
    tables: list[str] | None = None
    folder = None
    if any(arm.tables for arm in arms):
        if args.tablebases is None:
            parser.error(f"the arms {[arm.name for arm in arms if arm.tables]} need --tablebases DIR")
        try:
            advisor = Advisor.load(args.tablebases, p_four=DEFAULT_P_FOUR)
        except PlygroundError as error:
            raise SystemExit(f"error: {error}") from None
        tables = [table_name(table.formation, table.target, table.p_four) for table in advisor.tables
                  if (table.formation.rows, table.formation.cols) == (rows, cols)]  # fmt: skip
        if not tables:
            parser.error(f"no {args.size} tables in {args.tablebases}")
        folder = str(args.tablebases.resolve())

    program = None
    if any(arm.macroxue for arm in arms):
        if args.macroxue is None:
            parser.error("the macroxue-D arms need --macroxue DEST/2048 (benchmarks/opponents/build_macroxue.sh)")
        if not args.macroxue.is_file():
            parser.error(f"no macroxue/2048-ai program at {args.macroxue} (benchmarks/opponents/build_macroxue.sh)")
        program = str(args.macroxue.resolve())

    if args.size != "4x4" and any(arm.macroxue for arm in arms):
        parser.error("macroxue/2048-ai plays 4x4 boards only")
    positions = (
        read_positions(args.positions) if args.from_start is None else start_positions(args.from_start, rows, cols)
    )[: args.limit]
    seeds = range(args.seed, args.seed + args.seeds)
    settings = {"time_ms": args.time_ms, "stop_at": stop_at, "max_moves": args.max_moves,
                "evaluator": default_evaluator(rows, cols), "spawns": "by position",
                "tables": tables}  # fmt: skip
    if args.size != "4x4":  # the 4x4 logs and lines of before say nothing of the size
        settings["size"] = args.size
    try:
        done = read_settings_log(args.log, settings, "game")
    except PlygroundError as error:
        raise SystemExit(f"error: {error}") from None
    by_seed = {position.seed: position for position in positions}
    for entry in done.values():
        known = by_seed.get(entry["position"])
        if known is not None and entry["board"] != known.board:
            raise SystemExit(f"error: {args.log} played position {known.seed} from another board: give another --log")
    todo = [
        Job(arm.name, position, seed, args.time_ms, stop_at, args.max_moves, folder if arm.tables else None,
            program if arm.macroxue else None)
        for position in positions for seed in seeds for arm in arms
        if (game_key(arm.name, position), seed) not in done
    ]  # fmt: skip
    console = Console(stderr=True)
    source = str(args.positions) if args.from_start is None else "new games"
    console.print(
        f"{len(positions)} positions of {source}, {len(seeds)} spawn seed(s), arms {', '.join(args.arms)}: "
        f"{len(done)} games in {args.log}, {len(todo)} to play at {args.time_ms:g} ms a move",
        highlight=False,
    )

    def finished(index: int, result: dict[str, Any]) -> None:
        job = todo[index]
        entry = {"settings": settings, "game": game_key(job.arm, job.position), "arm": job.arm,
                 "position": job.position.seed, "board": job.position.board, "seed": job.seed, **result}  # fmt: skip
        append_line(args.log, entry)
        done[(entry["game"], job.seed)] = entry
        console.print(
            f"{job.arm:>8} from {job.position.seed} (seed {job.seed}): {result['max_tile']}, {result['score']:,} "
            f"points, {result['moves']:,} moves ({result['table_moves']:,} from tables), {result['seconds']:.0f} s",
            highlight=False,
        )

    if todo:
        try:
            run_many(play, todo, backend=Backend(workers=args.workers), on_result=finished)
        except KeyboardInterrupt:
            console.print(f"stopped: the finished games are in {args.log}; run the same command to go on")
            sys.exit(130)
        except PlygroundError as error:
            raise SystemExit(f"error: {error} (the finished games are in {args.log})") from None

    games = {
        arm.name: [done[key] for position in positions for seed in seeds
                   if (key := (game_key(arm.name, position), seed)) in done]
        for arm in arms
    }  # fmt: skip
    rows = {name: arm_row(played, args.tile) for name, played in games.items()}
    source = args.positions.name if args.from_start is None else "new games"
    view = Table(title=f"from {len(positions)} positions ({source}) at {args.time_ms:g} ms a move, "
                 f"{args.tile} made, stopped at {stop_at or 'the end'}")  # fmt: skip
    for column in ("arm", "games", f"{args.tile} (95%)", "mean score", "mean moves", "ms a move", "table moves"):
        view.add_column(column, justify="right")
    for name, row in rows.items():
        view.add_row(
            name, str(row["games"]), _percent(row["share"], row["interval"]),
            "-" if row["mean_score"] is None else f"{row['mean_score']:,.0f}",
            "-" if row["mean_moves"] is None else f"{row['mean_moves']:,.0f}",
            "-" if row["ms_per_move"] is None else f"{row['ms_per_move']:.2f}", f"{row['table_move_share']:.1%}",
        )  # fmt: skip
    console.print(view)

    comparisons = []
    first = arms[0].name
    for arm in arms[1:]:
        pairs = [
            (done[(game_key(arm.name, position), seed)], done[(game_key(first, position), seed)])
            for position in positions for seed in seeds
            if (game_key(arm.name, position), seed) in done and (game_key(first, position), seed) in done
        ]  # fmt: skip
        compared = paired(pairs, args.tile, arm.name, first)
        comparisons.append(compared)
        difference, interval = compared["score_difference"], compared["score_difference_interval"]
        score = "-" if difference is None else f"{difference:+,.0f}"
        if interval is not None:
            score += f" ({interval[0]:+,.0f} to {interval[1]:+,.0f})"
        console.print(
            f"{arm.name} against {first}, {compared['pairs']} pairs: {args.tile} by both {compared['both']}, "
            f"by {arm.name} alone {compared['only_arm']} {compared['only_arm_positions']}, by {first} alone "
            f"{compared['only_against']} {compared['only_against_positions']}, by neither {compared['neither']} "
            f"(sign test p = {compared['p_value']:.2f}); score difference {score}",
            highlight=False,
        )
    print_json(
        "conversion",
        {
            **settings,
            "positions_file": args.positions.name if args.from_start is None else f"start of {args.from_start} games",
            "positions": len(positions),
            "first_seed": args.seed,
            "seeds": args.seeds,
            "tile": args.tile,
            "arms": rows,
            "paired": comparisons,
        },
        args,
    )


if __name__ == "__main__":
    main()
