"""Timing this checkout against another, side by side: fresh processes taking turns, round by round.

A ``*_versus.py`` script measures the same work with the ``plyground`` of two checkouts: its
child mode (``script --child ARGS``) does the work with the plyground it imports and prints
one JSON line, ``{name: [seconds, check], ...}`` (``check``: a number that is equal on both
sides when they compute the same thing: evaluations, nodes, a checksum of the visits). The
sides take turns, round by round, each going first in every other round, so that a slow
spell of the machine hits both. Each row's figure is the median over the rounds of this
checkout's time over the other's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from _common import ROOT

Round = dict[str, list[float]]
"""One side's round: each measurement's name, with its seconds and its check."""


def checkout(parser: argparse.ArgumentParser, path: Path) -> Path:
    """The ``src`` folder of the plyground checkout at ``path``; a one-line error when it is none."""
    other = path.expanduser().resolve()
    if not (other / "src" / "plyground").is_dir():
        parser.exit(2, f"error: {path} is not a plyground checkout (no src/plyground)\n")
    return other / "src"


def run_side(script: str, src: Path, *args: str) -> Round:
    """One round of one side: ``script --child ARGS`` in a fresh process importing plyground from ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, script, "--child", *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"error: the run of {src} failed: {done.stderr.strip().splitlines()[-1:]}")
    result: Round = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def take_turns(script: str, other: Path, rounds: int, *args: str) -> dict[str, list[Round]]:
    """``rounds`` rounds of both sides (``this`` and ``other``), each first in every other round."""
    sides = {"this": ROOT / "src", "other": other}
    console = Console(stderr=True)
    done: dict[str, list[Round]] = {side: [] for side in sides}
    for number in range(rounds):
        for side in list(sides) if number % 2 == 0 else list(reversed(sides)):
            done[side].append(run_side(script, sides[side], *args))
        console.print(f"round {number + 1} of {rounds} done")
    return done


def ratio_row(done: dict[str, list[Round]], name: str) -> dict[str, Any]:
    """The figures of measurement ``name``: each side's median seconds, the median ratio and its range, the checks."""
    this = [entry[name][0] for entry in done["this"]]
    theirs = [entry[name][0] for entry in done["other"]]
    ratios = [a / b for a, b in zip(this, theirs, strict=True)]
    return {
        "seconds": statistics.median(this),
        "other_seconds": statistics.median(theirs),
        "ratio": statistics.median(ratios),
        "ratio_range": [min(ratios), max(ratios)],
        "check": done["this"][0][name][1],
        "other_check": done["other"][0][name][1],
    }
