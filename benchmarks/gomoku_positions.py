"""Gomoku players judged on fixed positions by a stronger brain: moves that lose by force, and wins found in time.

Matches against a strong brain take hours and their scores are noisy; fixed positions judged by a
stronger brain tell two versions of a player apart in minutes. Two sets, made once by the judge
(``make``) and kept as JSON lines in ``benchmarks/data/``:

* **balanced** (``gomoku_positions.jsonl``): from each opening of ``--openings`` (24 openings a
  strong brain judged even), the judge plays both sides for ``--plies`` moves, thinking
  ``--judge-ms`` a move; each position on the way where the player to move is neither winning nor
  losing by force in its eyes is kept, with its value and its move.
* **wins** (``gomoku_wins.jsonl``): the positions right after a move of ``--player`` (on the
  balanced set, at ``--time-ms``) that loses by force: the side to move has a forced win, which
  the judge proved (its value, a win in so many plies, is kept).

``run`` puts each player on both sets, as a brain over the protocol (an executable Gomocup brain or
``plyground:KIND [ARGS]``), one position at a time. On a balanced position it moves in ``--time-ms``,
and the judge thinks ``--judge-ms`` on the position after the move: the move *loses by force* when
the judge then reports a forced win for the opponent; it is *the judge's* when it is the judge's own
move. On a wins position it thinks ``--wins-ms`` (4 s) and *finds the win* when it reports a forced
win itself (a player that reports no value finds none). Printed: for each player, the positions, the
share of moves that lose by force with its 95% Wilson interval, the share equal to the judge's move,
the mean value the judge gives the position after the move (the player's side, in the judge's units;
a forced win counts as +-1000), and the wins found; then the JSON line. The judge's verdicts are
kept in ``--cache`` (JSON lines, one judge and time per file): a second run, or a player that
moves as another did, asks nothing twice.

The judge must report its values in ``MESSAGE`` lines: Rapfi's ``Eval -134`` / ``Eval +M13``,
PentaZen's ``ev``, plyground's brain's ``score`` (see ``plyground.arena.oracle``). Rapfi and PentaZen
are built by ``benchmarks/opponents/build_rapfi.sh`` and ``build_pentazen.sh``::

    python benchmarks/gomoku_positions.py make DEST/pbrain-rapfi --player plyground:engine [--plies 12]
        [--judge-ms 2000] [--time-ms 1000] [--openings FILE] [--out-dir benchmarks/data] [--cache FILE]
    python benchmarks/gomoku_positions.py run DEST/pbrain-rapfi PLAYER [PLAYER ...] [--time-ms 1000]
        [--judge-ms 2000] [--wins-ms 4000] [--positions FILE] [--wins FILE] [--cache FILE]

Give each brain one core: run nothing else meanwhile.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from plyground.arena import Brain, parse_brain, read_openings, wilson
from plyground.arena.oracle import WIN, Oracle, Verdict
from plyground.core.measurements import add_record_options, print_json
from plyground.errors import PlygroundError

N = 15
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data"
OPENINGS = ROOT / "experiments" / "2026-12-01-gomoku-evaluation" / "gomoku_openings.txt"
DECIDED = WIN - 1000
"""A value beyond this is a forced win (below its negation a forced loss)."""
CAPPED = 1000
"""A forced win or loss counts as this in the mean value."""
MAX_MS = 600_000


class Parser(argparse.ArgumentParser):
    """Bad options are one line, ``error: ...``, and exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a positions file (each with ``moves``, a list of cells)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise PlygroundError(f"cannot read {path}: {error.strerror}") from None
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict) or not all(isinstance(m, int) and 0 <= m < N * N for m in row["moves"]):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            raise PlygroundError(
                f"{path}:{number}: not a position (a JSON object with moves, cells of 15x15)"
            ) from None
        rows.append(row)
    return rows


def write_lines(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` as JSON lines, atomically."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows), encoding="utf-8")
    temporary.replace(path)


def capped(value: int | None) -> int | None:
    """A value with forced wins and losses counted as +-:data:`CAPPED`."""
    if value is None:
        return None
    return max(-CAPPED, min(CAPPED, value)) if abs(value) > DECIDED else value


def make(args: argparse.Namespace, progress: Progress) -> dict[str, Any]:
    """The balanced positions along the judge's own play from each opening, then the wins after the player's losing
    moves on them; both files written."""
    from plyground.kinrow import State

    openings = read_openings(args.openings, N)
    balanced: list[dict[str, Any]] = []
    task = progress.add_task("judge's play", total=len(openings) * args.plies)
    with Oracle(args.judge.command, args.judge_ms, cache=args.cache) as judge:
        for opening in openings:
            state = State(N, 5)
            for x, y in opening:
                state.play(state.index(y, x))
            for _ in range(args.plies):
                if state.is_over:
                    break
                moves = list(state.history)
                verdict = judge.judge(moves)
                if verdict.value is not None and abs(verdict.value) <= DECIDED:
                    balanced.append({"moves": moves, "value": verdict.value, "move": verdict.move})
                state.play(verdict.move)
                progress.advance(task)
        write_lines(args.out_dir / "gomoku_positions.jsonl", balanced)
        wins = []
        task = progress.add_task(f"{args.player.name} on them", total=len(balanced))
        with Oracle(args.player.command, args.time_ms) as player:
            for row in balanced:
                moves = [*row["moves"], player.judge(row["moves"]).move]
                after = judge.judge(moves)
                if after.value is not None and after.value > DECIDED:
                    wins.append({"moves": moves, "plies": WIN - after.value, "move": after.move})
                progress.advance(task)
    write_lines(args.out_dir / "gomoku_wins.jsonl", wins)
    return {"openings": len(openings), "plies": args.plies, "positions": len(balanced), "wins": len(wins)}


def judge_player(
    brain: Brain, judge: Oracle, balanced: list[dict[str, Any]], wins: list[dict[str, Any]],
    args: argparse.Namespace, progress: Progress,
) -> dict[str, Any]:  # fmt: skip
    """One player's row: its moves on the balanced positions judged, and the wins it proves."""
    losing, same, values = 0, 0, []
    task = progress.add_task(brain.name, total=len(balanced) + len(wins))
    with Oracle(brain.command, args.time_ms) as player:
        for row in balanced:
            move = player.judge(row["moves"]).move
            progress.advance(task)
            if move in row["moves"] or not 0 <= move < N * N:  # an illegal move: lost, the judge need not say
                losing += 1
                values.append(-CAPPED)
                continue
            after: Verdict = judge.judge([*row["moves"], move])
            losing += after.value is not None and after.value > DECIDED
            same += move == row["move"]
            value = capped(after.value)
            if value is not None:
                values.append(-value)
    found = 0
    with Oracle(brain.command, args.wins_ms) as player:
        for row in wins:
            value = player.judge(row["moves"]).value
            found += value is not None and value > DECIDED
            progress.advance(task)
    interval = wilson(losing, len(balanced))
    return {
        "player": brain.name,
        "positions": len(balanced),
        "losing": losing,
        "losing_share": losing / len(balanced) if balanced else None,
        "losing_interval": None if interval is None else [round(interval[0], 4), round(interval[1], 4)],
        "same_as_judge": same,
        "mean_value": round(sum(values) / len(values), 1) if values else None,
        "wins": len(wins),
        "wins_found": found,
    }


def run(args: argparse.Namespace, progress: Progress) -> dict[str, Any]:
    balanced, wins = read_lines(args.positions), read_lines(args.wins)
    with Oracle(args.judge.command, args.judge_ms, cache=args.cache) as judge:
        rows = [judge_player(brain, judge, balanced, wins, args, progress) for brain in args.players]
    return {"time_ms": args.time_ms, "wins_ms": args.wins_ms, "rows": rows}


def table(results: dict[str, Any], judge: str, judge_ms: int) -> Table:
    out = Table(title=f"gomoku positions judged by {judge} at {judge_ms} ms, players at {results['time_ms']} ms")
    for column in ("player", "positions", "lose by force", "95% interval", "judge's move", "mean value", "wins found"):
        out.add_column(column, justify="left" if column == "player" else "right")
    for row in results["rows"]:
        low, high = row["losing_interval"] or (0.0, 0.0)
        share = "-" if row["losing_share"] is None else f"{row['losing_share']:.0%}"
        out.add_row(
            row["player"], str(row["positions"]), f"{row['losing']} ({share})", f"{low:.0%}-{high:.0%}",
            str(row["same_as_judge"]), "-" if row["mean_value"] is None else f"{row['mean_value']:+.1f}",
            f"{row['wins_found']} of {row['wins']} at {results['wins_ms']} ms",
        )  # fmt: skip
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = Parser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    made = commands.add_parser("make", help="make the two sets of positions with the judge")
    ran = commands.add_parser("run", help="judge players on the two sets")
    for sub in (made, ran):
        sub.add_argument("judge", metavar="JUDGE", help="the judge: a Gomocup brain that reports values")
        sub.add_argument("--judge-ms", type=int, default=2000, help="the judge's time a position (default 2000)")
        sub.add_argument("--time-ms", type=int, default=1000, help="a player's time a move (default 1000)")
        sub.add_argument("--cache", type=Path, default=None, help="keep the judge's verdicts in this file")
        add_record_options(sub, Path(__file__), folder="results")
    made.add_argument("--player", required=True, help="the player whose losing moves make the wins set")
    made.add_argument("--openings", type=Path, default=OPENINGS, help="the openings, one a line")
    made.add_argument("--plies", type=int, default=12, help="moves the judge plays from each opening (default 12)")
    made.add_argument("--out-dir", type=Path, default=DATA, help=f"where the sets go (default {DATA})")
    ran.add_argument("players", metavar="PLAYER", nargs="+", help="an executable brain, or plyground:KIND [ARGS]")
    ran.add_argument("--wins-ms", type=int, default=4000, help="a player's time on a wins position (default 4000)")
    ran.add_argument("--positions", type=Path, default=DATA / "gomoku_positions.jsonl", help="the balanced set")
    ran.add_argument("--wins", type=Path, default=DATA / "gomoku_wins.jsonl", help="the wins set")
    args = parser.parse_args(argv)
    times = {"--judge-ms": args.judge_ms, "--time-ms": args.time_ms}
    if args.command == "run":
        times["--wins-ms"] = args.wins_ms
    for name, value in times.items():
        if not 1 <= value <= MAX_MS:
            parser.error(f"{name} must be from 1 to {MAX_MS:,}, got {value:,}")
    try:
        args.judge = parse_brain(args.judge, "JUDGE")
        if args.command == "make":
            if not 1 <= args.plies <= 100:
                parser.error(f"--plies must be from 1 to 100, got {args.plies:,}")
            if not args.out_dir.is_dir():
                parser.error(f"--out-dir: no folder {args.out_dir}")
            args.player = parse_brain(args.player, "--player")
        else:
            args.players = [parse_brain(spec, "PLAYER") for spec in args.players]
    except PlygroundError as error:
        parser.error(str(error))
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        with Progress(console=Console(stderr=True), transient=True) as progress:
            results = make(args, progress) if args.command == "make" else run(args, progress)
    except PlygroundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: nothing recorded (the judge's verdicts so far are in --cache)", file=sys.stderr)
        return 130
    results = {"command": args.command, "judge": args.judge.name, "judge_ms": args.judge_ms, **results}
    if args.command == "run":
        Console(width=160).print(table(results, args.judge.name, args.judge_ms))
    else:
        print(f"{results['positions']} balanced positions and {results['wins']} wins written to {args.out_dir}")
    print_json("gomoku_positions", results, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
