"""How small a trained network can ship: each packing's size and load time, and its strength against the full network.

Packs ``NETWORK`` (a ``network.npz``) with each ``--steps`` (the weights are rounded to multiples of
it; see ``plyground.g2048.ntuple.packed``) and each ``--prunes`` (the weights smaller than it in
absolute value are left out; 0, the default, keeps every touched weight), and for each packing
prints the weights it keeps, the file's size, its bits per weight kept, the largest error of a
weight, the time to load it, and its strength paired with the full network's: ``--games`` greedy
games, game i on seed ``--seed + i`` for both (the mean score of each, the paired difference with
its 95% interval, the ratio of the means, the share reaching 16384), and the share of positions
(those of ``--agreement-games`` greedy games of the full network) on which both choose the same
greedy move: games diverge at the first different move, so the paired scores are nearly
independent samples (a 95% interval of about ±4% at 1,000 games), while the share of identical
decisions sees a difference of precision directly.
With ``--search-depth D`` it also compares the networks under expectimax searched to the fixed depth
D (one thread, the default cut-off and table): on ``--search-positions`` boards taken evenly from
those positions, the share on which both searches choose the same move, and what the other choices
cost by the full network's search (its value of its own move minus its value of the packed
network's move, in points, averaged over all the boards). A fixed depth makes it deterministic, so
it can run beside other work, and it sees the packing through the search that plays.
With ``--search-games N`` it also plays N paired games at ``--time-ms`` per move under expectimax
(one search thread a game, ``--workers`` games at once), for the packings of ``--search-steps`` and
``--search-prunes`` (default 0): seed i with the full network, then with each packing, and so on.
A game at 20 ms lasts several minutes, so every finished one is appended at once to ``--log`` (one
JSON line, with the full network's checksum); run the same command again to go on after a crash or
Ctrl-C: the games in the log are not played again. ``--games 0`` and ``--agreement-games 0`` leave
out the greedy games and the agreement (when only the searched games are wanted).

    python experiments/2026-12-02-shipped-network/ntuple_pack.py RUN/network.npz [--steps 4 1 0.25] [--prunes 0 50]
        [--games 1000]
                                     [--seed 1] [--search-depth 3 --search-positions 1000]
                                     [--search-games 20 --search-steps 1 --search-prunes 0
                                      --time-ms 20 --workers 2 --log FILE]

It also says how many of the network's weights training ever touched (those that are not 0).

Targets: the packing shipped keeps >= 99% of the full network's mean score, paired, on 1,000
greedy games and on 20 games at 20 ms; its file is at most 40 MB and loads in under 2 s.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from plyground.arena.versus2048 import weights_checksum
from plyground.core.measurements import add_record_options, append_line, print_json, read_settings_log
from plyground.core.run_many import Backend, run_many
from plyground.core.stats import mean_interval
from plyground.errors import PlygroundError
from plyground.g2048 import Board, Game
from plyground.g2048.autoplay import GameResult, GameSpec, play_spec
from plyground.g2048.expectimax import MAX_DEPTH, Decision, Expectimax
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.ntuple.packed import STEPS, pack, unpack


def greedy(network: NTupleNetwork, games: int, seed: int) -> list[tuple[int, int]]:
    """(score, largest tile) of ``games`` greedy games, game i on its own seed ``seed + i``."""
    out = []
    for i in range(games):
        result = network.play_greedy(1, seed=seed + i)
        out.append((int(result.scores[0]), int(result.max_tiles[0])))
    return out


def positions(network: NTupleNetwork, games: int, seed: int) -> list[Board]:
    """The boards before each move of ``games`` greedy games of ``network``, on seeds ``seed``, ``seed + 1``, ..."""
    boards = []
    for i in range(games):
        game = Game(network.rows, network.cols, seed=seed + i)
        while not game.over:
            boards.append(game.board)
            game.step(greedy_move(network, game.board))
    return boards


def greedy_move(network: NTupleNetwork, board: Board) -> str:
    """The greedy move: the largest ``points + V(afterstate)``, the first in DIRECTIONS on a tie."""
    best, chosen = -math.inf, ""
    for move in board.legal_moves():
        after, points = board.move(move)
        value = points + network.value(after)
        if value > best:
            best, chosen = value, move
    return chosen


def agreement(packed: NTupleNetwork, full: NTupleNetwork, boards: list[Board]) -> float:
    """The share of ``boards`` on which both networks choose the same greedy move."""
    return sum(greedy_move(packed, b) == greedy_move(full, b) for b in boards) / max(1, len(boards))


def evenly(boards: list[Board], count: int) -> list[Board]:
    """``count`` of ``boards`` (all of them when there are fewer), taken at even steps from the first."""
    if count >= len(boards):
        return list(boards)
    return [boards[i * len(boards) // count] for i in range(count)]


def searched(network: NTupleNetwork, boards: list[Board], depth: int, label: str) -> list[Decision]:
    """The decisions of an expectimax over ``network`` searched ``depth`` deep, one board after another."""
    decisions = []
    with (
        Expectimax(depth=depth, workers=1, evaluator=network) as search,
        Progress(console=Console(stderr=True), transient=True) as progress,
    ):
        task = progress.add_task(f"{label}: depth {depth}", total=len(boards))
        for board in boards:
            decisions.append(search.choose(board))
            progress.advance(task)
    return decisions


def searched_agreement(packed: list[Decision], full: list[Decision]) -> dict[str, Any]:
    """How often two searches over the same boards choose the same move, and what their other choices cost.

    ``loss`` is the mean, over all the boards, of the full network's value of its own move minus
    its value of the packed network's move (0 where they agree), in points.
    """
    same = sum(p.move == f.move for p, f in zip(packed, full, strict=True))
    loss = sum(f.values[f.move] - f.values[p.move] for p, f in zip(packed, full, strict=True)
               if f.move is not None and p.move is not None and p.move != f.move)  # fmt: skip
    count = max(1, len(full))
    return {"positions": len(full), "same": same / count, "loss": loss / count}


def searched_games(
    full: Path, packed: dict[str, Path], games: int, seed: int, time_ms: float, workers: int, log: Path, checksum: str
) -> dict[tuple[str, int], dict[str, Any]]:
    """The games under expectimax, by (player, seed): ``"full"`` plays ``full``, each name of ``packed`` its file.

    Games already in ``log`` (with the same network checksum and time) are kept; the others are
    played, seed by seed, and each is appended to ``log`` as it ends.
    """
    settings = {"network": checksum, "time_ms": time_ms}
    try:
        done = read_settings_log(log, settings, "player")
    except PlygroundError as error:
        raise SystemExit(f"error: {error}") from None
    files = {"full": full, **packed}
    todo = [(name, s) for s in range(seed, seed + games) for name in files if (name, s) not in done]
    console = Console(stderr=True)
    console.print(f"{len(done)} searched games in {log}; {len(todo)} to play at {time_ms:g} ms per move")
    if not todo:
        return done
    specs = [GameSpec(seed=s, time_ms=time_ms, evaluator=f"ntuple:{files[name].resolve()}") for name, s in todo]

    def finished(index: int, result: GameResult) -> None:
        name, s = todo[index]
        entry = {"settings": settings, "player": name, "seed": s, "score": result.score,
                 "max_tile": result.max_tile, "moves": result.moves, "seconds": round(result.seconds, 2)}  # fmt: skip
        append_line(log, entry)
        done[(name, s)] = entry
        console.print(f"{name:>8} seed {s}: {result.score:,} points, {result.max_tile}, {result.moves:,} moves")

    try:
        run_many(play_spec, specs, backend=Backend(workers=workers), on_result=finished)
    except KeyboardInterrupt:
        console.print(f"stopped: the finished games are in {log}; run the same command to go on")
        sys.exit(130)
    return done


def packing_name(step: float, prune: float) -> str:
    """How a packing is named in the tables and the searched games' log: ``step 1``, ``step 1 prune 50``."""
    return f"step {step:g}" + (f" prune {prune:g}" if prune else "")


def paired(ours: list[tuple[int, int]], full: list[tuple[int, int]]) -> dict[str, Any]:
    """Mean scores, the paired difference and its interval, the ratio, the share reaching 16384."""
    a = [score for score, _ in ours]
    b = [score for score, _ in full]
    differences = [x - y for x, y in zip(a, b, strict=True)]
    return {
        "games": len(a),
        "mean": statistics.fmean(a),
        "full_mean": statistics.fmean(b),
        "difference": statistics.fmean(differences),
        "interval": mean_interval(differences),
        "ratio": statistics.fmean(a) / statistics.fmean(b) if statistics.fmean(b) else math.nan,
        "reach_16384": sum(tile >= 16384 for _, tile in ours) / len(ours),
        "full_reach_16384": sum(tile >= 16384 for _, tile in full) / len(full),
    }


def paired_cells(pair: dict[str, Any] | None) -> list[str]:
    """The table's cells of a paired comparison: the mean, the full network's, the difference (95%), the ratio."""
    if pair is None:
        return ["-"] * 4
    low_high = pair["interval"]
    return [
        f"{pair['mean']:,.0f}",
        f"{pair['full_mean']:,.0f}",
        f"{pair['difference']:+,.0f}" + (f" ({low_high[0]:+,.0f} to {low_high[1]:+,.0f})" if low_high else ""),
        f"{pair['ratio']:.4f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("network", type=Path, help="a trained network's file (network.npz)")
    parser.add_argument("--steps", type=float, nargs="+", default=[4.0, 1.0, 0.25], help="steps to try (powers of 2)")
    parser.add_argument(
        "--prunes", type=float, nargs="+", default=[0.0], help="leave out weights smaller than each (default 0)"
    )
    parser.add_argument("--games", type=int, default=1000, help="paired greedy games (default 1,000; 0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--agreement-games",
        type=int,
        default=20,
        help="greedy games of the full network whose positions are compared (0: none)",
    )
    parser.add_argument(
        "--search-depth", type=int, default=0, help="compare the moves of searches this deep (default 0: none)"
    )
    parser.add_argument(
        "--search-positions", type=int, default=1000, help="on this many of the positions (default 1,000)"
    )
    parser.add_argument("--search-games", type=int, default=0, help="paired games under expectimax (default 0)")
    parser.add_argument("--search-steps", type=float, nargs="+", default=[], help="the packings to play them with")
    parser.add_argument(
        "--search-prunes", type=float, nargs="+", default=[0.0], help="the prunes of the packings they play with"
    )
    parser.add_argument("--time-ms", type=float, default=20.0, help="time per move of the searched games")
    parser.add_argument("--workers", type=int, default=2, help="searched games at once (one core each)")
    parser.add_argument("--out", type=Path, help="keep the packed files in this folder (default: a temporary one)")
    parser.add_argument(
        "--log", type=Path, default=Path("ntuple_pack_games.jsonl"), help="the searched games (resumable)"
    )
    add_record_options(parser, Path(__file__), folder="../../benchmarks/results")  # the README cites its lines
    args = parser.parse_args()
    if any(step not in STEPS for step in [*args.steps, *args.search_steps]):
        parser.error("a step is a power of two from 2**-10 to 2**10")
    if not all(math.isfinite(prune) and prune >= 0 for prune in [*args.prunes, *args.search_prunes]):
        parser.error("a prune is a finite number at least 0")
    if not 0 <= args.games <= 1_000_000 or not 0 <= args.agreement_games <= 10_000:
        parser.error("--games from 0 to 1,000,000, --agreement-games from 0 to 10,000")
    if not 0 <= args.search_games <= 10_000 or args.workers < 1:
        parser.error("--search-games from 0 to 10,000, --workers at least 1")
    if not 0 <= args.search_depth <= MAX_DEPTH or not 1 <= args.search_positions <= 1_000_000:
        parser.error(f"--search-depth from 0 to {MAX_DEPTH}, --search-positions from 1 to 1,000,000")
    if args.search_depth and not args.agreement_games:
        parser.error("--search-depth compares the moves on the positions of --agreement-games: give at least 1")
    if not 0 < args.time_ms <= 60_000:
        parser.error("--time-ms is a number of milliseconds above 0, at most 60,000")
    try:
        full = NTupleNetwork.load(args.network)
    except (PlygroundError, FileNotFoundError) as error:
        parser.exit(2, f"error: {error}\n")

    weights = full.weights
    touched = int(np.count_nonzero(weights))
    full_greedy = greedy(full, args.games, args.seed)
    boards = positions(full, args.agreement_games, args.seed)
    search_boards = evenly(boards, args.search_positions) if args.search_depth else []
    full_searched = searched(full, search_boards, args.search_depth, "full") if search_boards else []
    searched_files: dict[str, Path] = {}
    folder = args.out or Path(tempfile.mkdtemp(prefix="plyground-pack-"))
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for step, prune in [(step, prune) for step in args.steps for prune in args.prunes]:
        name = packing_name(step, prune)
        path = folder / f"{args.network.stem}-{name.replace(' ', '')}.pnet"
        header = pack(full, path, step=step, prune=prune, recipe={"source": str(args.network)})
        start = time.perf_counter()
        packed = unpack(path)
        load_s = time.perf_counter() - start
        size = path.stat().st_size
        row: dict[str, Any] = {
            "step": step,
            "prune": prune,
            "kept": header["count"],
            "bytes": size,
            "bits_per_weight": 8 * size / max(1, header["count"]),
            "max_error": header["max_error"],
            "load_s": load_s,
        }
        if args.games:
            row["greedy"] = paired(greedy(packed, args.games, args.seed), full_greedy)
        if boards:
            row["agreement"] = agreement(packed, full, boards)
            row["positions"] = len(boards)
        if search_boards:
            row["searched"] = {"depth": args.search_depth, **searched_agreement(
                searched(packed, search_boards, args.search_depth, name), full_searched)}  # fmt: skip
        if args.search_games and step in args.search_steps and prune in args.search_prunes:
            searched_files[name] = path
        rows.append(row)
        del packed
    if searched_files:
        done = searched_games(args.network, searched_files, args.search_games, args.seed, args.time_ms,
                              args.workers, args.log, weights_checksum(full.weights))  # fmt: skip
        seeds = range(args.seed, args.seed + args.search_games)
        for row in rows:
            name = packing_name(row["step"], row["prune"])
            if name in searched_files:
                pairs = [(done[(name, s)], done[("full", s)]) for s in seeds]
                row["search"] = paired([(g["score"], g["max_tile"]) for g, _ in pairs],
                                       [(g["score"], g["max_tile"]) for _, g in pairs])  # fmt: skip

    console = Console(width=max(Console().width, 150))  # a row a line, in a log file too
    console.print(
        f"{args.network}: {weights.size:,} weights, {touched:,} touched by training ({touched / weights.size:.1%}); "
        f"trained {full.trained.games:,} games"
    )
    table = Table(title="packed networks against the full one (paired, same seeds)")
    for name in ("step", "prune", "weights kept", "MB", "bits/weight", "max error", "load s", "same move",
                 "greedy mean", "full", "difference (95%)", "ratio"):  # fmt: skip
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(
            f"{row['step']:g}",
            f"{row['prune']:g}",
            f"{row['kept']:,}",
            f"{row['bytes'] / 1e6:.1f}",
            f"{row['bits_per_weight']:.2f}",
            f"{row['max_error']:.2f}",
            f"{row['load_s']:.2f}",
            f"{row['agreement']:.3%}" if "agreement" in row else "-",
            *paired_cells(row.get("greedy")),
        )
    console.print(table)
    if search_boards:
        table = Table(title=f"under expectimax {args.search_depth} deep, on {len(search_boards):,} of the positions")
        for name in ("packing", "positions", "same move", "points lost a move (by the full network's search)"):
            table.add_column(name, justify="right")
        for row in rows:
            table.add_row(packing_name(row["step"], row["prune"]), f"{row['searched']['positions']:,}",
                          f"{row['searched']['same']:.2%}", f"{row['searched']['loss']:.3f}")  # fmt: skip
        console.print(table)
    if searched_files:
        table = Table(title=f"under expectimax at {args.time_ms:g} ms per move (paired, same seeds)")
        for name in ("packing", "games", "mean", "full", "difference (95%)", "ratio", "16384", "full 16384"):
            table.add_column(name, justify="right")
        for row in rows:
            if "search" in row:
                search = row["search"]
                table.add_row(packing_name(row["step"], row["prune"]), str(search["games"]), *paired_cells(search),
                              f"{search['reach_16384']:.0%}", f"{search['full_reach_16384']:.0%}")  # fmt: skip
        console.print(table)
    print_json(
        "ntuple_pack",
        {"network": str(args.network), "weights": int(weights.size), "touched": touched, "rows": rows},
        args,
    )


if __name__ == "__main__":
    main()
