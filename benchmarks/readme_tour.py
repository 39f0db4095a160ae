"""The README's tour, timed: every command that ends by itself, in the README's order, beside busy processes.

Runs each ``plyground ...`` line of the README's code blocks (after the set-up block), in order, in
one temporary working folder and one temporary data folder (``PLYGROUND_DATA_DIR``), with
``--busy`` processes spinning beside them (default 2: a 2-core machine with other work running),
and prints how long each took. The commands that run until the person stops them (the live ``ai``
without ``--games``, ``play``, ``gui``, ``web``, ``kinrow play``, ``pbrain``) are listed as such and not
run. Target: every other command ends within ``--target`` seconds (default 30), loaded.

    python benchmarks/readme_tour.py [--busy 2] [--target 30] [--first N]
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from _common import ROOT
from plyground.core.measurements import add_record_options, print_json, start_busy

COMMAND_PREFIXES = ("plyground ", ".venv/bin/plyground ")
UNTIL_STOPPED = (("2048", "play"), ("2048", "gui"), ("web",), ("kinrow", "play"), ("kinrow", "pbrain"))
"""Commands that run until the person stops them (with their first words)."""
PLYGROUND = Path(sys.executable).with_name("plyground")


def tour(readme: Path) -> list[str]:
    """The README's ``plyground`` commands after its first code block (the set-up), comments dropped."""
    commands, fenced, blocks = [], False, 0
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
            blocks += fenced
            continue
        if fenced and blocks > 1 and line.startswith(COMMAND_PREFIXES):
            commands.append(line.split("  #")[0].strip())
    return commands


def until_stopped(command: str) -> bool:
    """Whether ``command`` runs until the person stops it."""
    words = shlex.split(command)[1:]
    if words[:2] == ["2048", "ai"] and "--games" not in words:
        return True  # the live view, one game after another
    return any(tuple(words[: len(prefix)]) == prefix for prefix in UNTIL_STOPPED)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=2, help="spinning processes beside the commands")
    parser.add_argument("--target", type=float, default=30.0, help="seconds each command may take")
    parser.add_argument("--first", type=int, default=None, help="time only the first N commands")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()
    if args.busy < 0 or args.target <= 0 or (args.first is not None and args.first < 1):
        parser.error("--busy is at least 0, --target positive, --first at least 1")
    commands = tour(ROOT / "README.md")[: args.first]
    start_busy(args.busy)
    rows = []
    with tempfile.TemporaryDirectory(prefix="plyground-tour-") as folder:
        work, data = Path(folder) / "work", Path(folder) / "data"
        work.mkdir()
        environment = {**os.environ, "PLYGROUND_DATA_DIR": str(data)}
        for command in commands:
            if until_stopped(command):
                rows.append({"command": command, "seconds": None, "status": None})
                continue
            start = time.perf_counter()
            done = subprocess.run(
                [str(PLYGROUND), *shlex.split(command)[1:]], cwd=work, env=environment, capture_output=True
            )
            rows.append({"command": command, "seconds": time.perf_counter() - start, "status": done.returncode})
    table = Table(title=f"the README's tour, {args.busy} busy processes, {os.cpu_count()} cores")
    for name in ("command", "seconds", "status"):
        table.add_column(name, justify="left" if name == "command" else "right")
    for row in rows:
        seconds = "until stopped" if row["seconds"] is None else f"{row['seconds']:.1f}"
        table.add_row(row["command"], seconds, "" if row["status"] is None else str(row["status"]))
    Console(width=160).print(table)
    timed = [row for row in rows if row["seconds"] is not None]
    longest = max((row["seconds"] for row in timed), default=0.0)
    met = all(row["status"] == 0 and row["seconds"] <= args.target for row in timed)
    print(f"longest {longest:.1f} s; every command within {args.target:g} s and without error: {met}")
    results = {"busy": args.busy, "target_s": args.target, "longest_s": longest, "met": met, "rows": rows}
    print_json("readme_tour", results, args)


if __name__ == "__main__":
    main()
