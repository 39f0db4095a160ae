"""Balanced gomoku openings: generated openings a strong brain judges even, for ``gomoku.py --openings FILE``.

    python experiments/2026-12-01-gomoku-evaluation/gomoku_openings.py PATH/pbrain-pentazen --out FILE
        [--stones 3] [--count 12]
        [--candidates 400] [--seed 11] [--judge-ms 1000] [--within 40]

Openings of ``--stones`` stones near the centre drawn at random (``gomoku.py``'s ``random:N``, from
``--seed``) favour black, who has played more of them: from ``random:3``, black won 22 of 24 games
between two near-equal versions of the engine. This script asks a judging brain (thinking
``--judge-ms`` on each, over the Piskvork protocol) for its value of each candidate for the player
to move, and keeps, in the order drawn, the first ``--count`` whose value is within ``--within`` of
even (PentaZen's ``ev``, where a forced win is ±10,000): openings where neither side is known to be
ahead. Each verdict is appended to ``FILE.judged`` as it comes, so a run that stops resumes there;
the openings file is written at the end, in one step, one opening a line (``x,y`` stones in the
order played), each line with the judge's value as a comment. The table gives how the candidates'
values spread.

``experiments/2026-12-01-gomoku-evaluation/gomoku_openings.txt`` was made by this script with PentaZen as the
judge, the
defaults and ``--count 24`` (``benchmarks/opponents/build_pentazen.sh`` builds PentaZen).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from plyground.arena import generated_opening, parse_brain
from plyground.arena.oracle import WIN, Oracle
from plyground.core.measurements import add_record_options, print_json
from plyground.errors import PlygroundError

DATA = Path(__file__).resolve().parent / "gomoku_openings.txt"


N = 15
"""The board's side."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("judge", help="the judging brain: an executable, or plyground:KIND [ARGS]")
    parser.add_argument("--out", type=Path, required=True, help="the openings file to write")
    parser.add_argument("--stones", type=int, default=3, help="stones of each opening (1 to 8)")
    parser.add_argument("--count", type=int, default=12, help="balanced openings to keep")
    parser.add_argument("--candidates", type=int, default=400, help="the most openings to judge")
    parser.add_argument("--seed", type=int, default=11, help="seed of the generated candidates")
    parser.add_argument("--judge-ms", type=int, default=1000, help="the judge's time per opening")
    parser.add_argument("--within", type=int, default=40, help="the largest value kept, either side")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args(argv)
    if not 1 <= args.stones <= 8:
        parser.error(f"--stones must be from 1 to 8, got {args.stones}")
    if not 1 <= args.count <= args.candidates <= 100_000:
        parser.error("--count and --candidates must be 1 <= count <= candidates <= 100000")
    if not 1 <= args.judge_ms <= 600_000 or not 0 <= args.within < WIN - 1000:
        parser.error(f"--judge-ms must be from 1 to 600000 and --within from 0 to {WIN - 1001}")
    try:
        brain = parse_brain(args.judge, "judge")
        command, name = list(brain.command), brain.name
    except ValueError as error:
        parser.error(str(error))
    judged = args.out.with_name(args.out.name + ".judged")
    oracle = Oracle(
        command, args.judge_ms, size=N, cache=judged
    )  # its cache file is the record a stopped run resumes from
    kept: list[tuple[list[tuple[int, int]], int]] = []
    values: list[int] = []
    try:
        for index in range(args.candidates):
            opening = generated_opening(N, args.stones, args.seed, index)
            value, _ = oracle.judge([y * N + x for x, y in opening])
            if value is None:
                continue
            values.append(value)
            if abs(value) <= args.within:
                kept.append((opening, value))
                if len(kept) == args.count:
                    break
    finally:
        oracle.close()
    if len(kept) < args.count:
        print(f"error: {len(kept)} of {args.candidates} candidates within {args.within}; judge more", file=sys.stderr)
        return 1
    header = (
        f"# {args.count} openings of {args.stones} stones (seed {args.seed}) judged within {args.within} of even by "
        f"{name} at {args.judge_ms} ms ({len(values)} judged); x,y stones in the order played, then the value "
        f"for the player to move\n"
    )
    lines = [" ".join(f"{x},{y}" for x, y in opening) + f"  # {value:+d}\n" for opening, value in kept]
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text(header + "".join(lines), encoding="utf-8")
    tmp.replace(args.out)
    judged.unlink()
    won = sum(abs(v) >= WIN - 1000 for v in values)
    print(f"{'judged':>7s} {'kept':>5s} {'forced wins':>11s} {'median value':>13s} {'middle half':>15s}")
    quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    print(
        f"{len(values):7d} {len(kept):5d} {won:11d} {statistics.median(values):13.0f} "
        f"{quartiles[0]:7.0f}..{quartiles[2]:<6.0f}"
    )
    print(f"written to {args.out}")
    result = {
        "judge": name,
        "judge_ms": args.judge_ms,
        "stones": args.stones,
        "seed": args.seed,
        "within": args.within,
        "judged": len(values),
        "kept": len(kept),
        "forced_wins": won,
        "median_value": statistics.median(values),
    }
    print_json("gomoku_openings", result, args)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except PlygroundError as error:  # the oracle stopped or gave no move
        raise SystemExit(f"error: {error}") from None
