"""Two trained n-tuple networks paired on greedy games: a candidate against the network that ships.

Each network plays ``--games`` greedy 1-ply games, game i on seed ``--seed + i`` for both (the same
first spawns; the games part at the first different move). The table gives each network's mean
score and its share of games reaching 8192, 16384 and 32768 (Wilson 95% intervals), the paired
difference of the scores with its 95% interval, and the ratio of the means; then one JSON line.
Either network may be a training run's ``network.npz`` or a packed file; ``--baseline`` defaults to
the network that ``plyground 2048 ai`` plays with.

    python experiments/2026-12-04-network-trained-on/ntuple_versus.py CANDIDATE [--baseline FILE] [--games 1000]
        [--seed 1]

Greedy play is quick (a 1,000-game comparison takes a minute or two) and sees the network alone;
a candidate that wins here then has to win under search at 20 ms (``ntuple_pack.py
--search-games``, ``versus_nneonneo.py --alone``) before it ships.

Target: the candidate is better, that is the whole 95% interval of the paired difference lies above 0.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.arena.versus2048 import weights_checksum
from plyground.core.measurements import add_record_options, print_json
from plyground.core.stats import mean_interval, share_interval
from plyground.errors import PlygroundError
from plyground.g2048.ntuple import NTupleNetwork

TILES = (8192, 16384, 32768)


def greedy(network: NTupleNetwork, games: int, seed: int) -> list[tuple[int, int]]:
    """(score, largest tile) of ``games`` greedy games, game i on its own seed ``seed + i`` (as ``ntuple_pack.py``)."""
    out = []
    for i in range(games):
        result = network.play_greedy(1, seed=seed + i)
        out.append((int(result.scores[0]), int(result.max_tiles[0])))
    return out


def load(path: Path) -> NTupleNetwork:
    """The network in ``path`` (``network.npz`` or packed), read as ``plyground 2048 ai`` reads it."""
    from plyground.g2048.registry import load_evaluator

    network = load_evaluator(f"ntuple:{path}")
    if not isinstance(network, NTupleNetwork):  # pragma: no cover - "ntuple:" always names a network
        raise PlygroundError(f"{path} is not an n-tuple network")
    return network


def side(games: list[tuple[int, int]]) -> dict[str, Any]:
    """One network's mean score and the share of its games reaching each tile of ``TILES``."""
    reach = {}
    for tile in TILES:
        hits = sum(top >= tile for _, top in games)
        reach[str(tile)] = {"share": hits / len(games), "interval": share_interval(hits, len(games))}
    return {"mean": statistics.fmean(score for score, _ in games), "reach": reach}


def compare(candidate: list[tuple[int, int]], baseline: list[tuple[int, int]]) -> dict[str, Any]:
    """The two sides, the paired difference of the scores with its 95% interval, and the ratio of the means."""
    ours, theirs = side(candidate), side(baseline)
    differences = [a - b for (a, _), (b, _) in zip(candidate, baseline, strict=True)]
    return {
        "games": len(candidate),
        "candidate": ours,
        "baseline": theirs,
        "difference": statistics.fmean(differences),
        "interval": mean_interval(differences),
        "ratio": ours["mean"] / theirs["mean"] if theirs["mean"] else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate", type=Path, help="the network to judge (network.npz or a packed file)")
    parser.add_argument("--baseline", type=Path, help="the network to judge it against (default: the shipped one)")
    parser.add_argument("--games", type=int, default=1000, help="paired greedy games (default 1,000)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the first game (default 1)")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()
    if not 2 <= args.games <= 1_000_000:
        parser.error("--games goes from 2 to 1,000,000")
    if not 0 <= args.seed < 1 << 62:
        parser.error("--seed goes from 0 to 2**62")
    if args.baseline is None:
        from plyground.g2048.registry import shipped_network_path

        args.baseline = shipped_network_path()
    try:
        candidate, baseline = load(args.candidate), load(args.baseline)
        if (candidate.rows, candidate.cols) != (baseline.rows, baseline.cols):
            raise PlygroundError(
                f"the networks play different boards: {candidate.rows}x{candidate.cols} "
                f"and {baseline.rows}x{baseline.cols}"
            )
    except PlygroundError as error:
        parser.exit(2, f"error: {error}\n")

    result = compare(greedy(candidate, args.games, args.seed), greedy(baseline, args.games, args.seed))
    better = result["interval"] is not None and result["interval"][0] > 0

    table = Table(title=f"greedy 1-ply games, seeds {args.seed} to {args.seed + args.games - 1}")
    for name in ("network", "file", "mean score", *(str(tile) for tile in TILES)):
        table.add_column(name, justify="left" if name in ("network", "file") else "right")
    for role, path in (("candidate", args.candidate), ("baseline", args.baseline)):
        row = result[role]
        table.add_row(
            role,
            path.name,
            f"{row['mean']:,.0f}",
            *(
                f"{row['reach'][str(t)]['share']:.1%} "
                f"({row['reach'][str(t)]['interval'][0]:.0%}-{row['reach'][str(t)]['interval'][1]:.0%})"
                for t in TILES
            ),
        )
    console = Console()
    console.print(table)
    low_high = result["interval"]
    console.print(
        f"paired difference {result['difference']:+,.0f}"
        + (f" (95%: {low_high[0]:+,.0f} to {low_high[1]:+,.0f})" if low_high else "")
        + f", ratio {result['ratio']:.4f}"
    )
    console.print(f"target the candidate is better: {'met' if better else 'NOT met'}")
    checksums = {"candidate": weights_checksum(candidate.weights), "baseline": weights_checksum(baseline.weights)}
    print_json(
        "ntuple_versus",
        {"candidate": str(args.candidate), "baseline": str(args.baseline), "checksums": checksums,
         "seed": args.seed, **result, "targets": {"candidate better": better}},
        args,
    )  # fmt: skip


if __name__ == "__main__":
    main()
