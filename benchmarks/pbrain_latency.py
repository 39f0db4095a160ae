"""The Gomocup brain's answer times over pipes, on a loaded machine: are moves in time, and by how much?

Runs ``plyground kinrow pbrain`` as a manager does (a process, its stdin and stdout), while a
busy loop runs on every core (``--no-load``: without them), and plays 15x15 gomoku against
it: random moves near the stones, ``--moves`` per ``INFO timeout_turn`` of ``--timeouts``.
Each answer is timed from the moment the ``TURN`` line is written to the moment its move is
read. Prints a table and one JSON line:

* ``start_ms`` - from ``START`` to ``OK`` in a fresh process (the player made and its kernels
  loaded, or compiled on a first run: the brain does it before ``OK``, not in a timed move);
* ``rule_move_ms`` - then, as Piskvork does, ``INFO timeout_turn`` (the last of ``--timeouts``)
  and ``INFO rule`` (``--rule``) after ``START``, and ``BEGIN``: from writing them to reading
  the move (the work of a new rule must not fall in this first move);
* ``first_move_ms`` - the first ``TURN`` of that process, at the first timeout;
* per timeout: the player's budget, the median and worst answer, the worst answer less the
  budget (what the margins must cover), the slack left before ``timeout_turn`` at the worst,
  and the moves that came late (over ``timeout_turn``: must be 0);
* ``end_ms`` - from ``END`` to the process's exit.

    python benchmarks/pbrain_latency.py [--timeouts 200,500,1000] [--moves 15] [--rule 1] [--no-load]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.table import Table

from plyground.apps.pbrain import DEFAULT_KIND
from plyground.apps.pbrain_clock import ANSWER_MARGIN_MS, STOP_MARGIN_MS, budget_from_timeout
from plyground.core.measurements import add_record_options, print_json
from plyground.kinrow import State

N = 15


def busy_loops(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that each keep a core busy until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def read_move(out: IO[str]) -> tuple[str, list[str]]:
    """Read lines up to the next move (``x,y``); return it and the lines before it (MESSAGE ...)."""
    before: list[str] = []
    while True:
        line = out.readline()
        if not line:
            raise RuntimeError("the brain closed its output: " + " | ".join(before))
        line = line.strip()
        if line and line[0].isdigit():
            return line, before
        before.append(line)


def opponent_move(state: State, rng: random.Random) -> int:
    """A random legal move within two cells of a stone (the centre on an empty board)."""
    moves = state.legal_moves()
    if not state.history:
        return state.index(N // 2, N // 2)
    stones = [state.coords(move) for move in state.history]

    def near(move: int) -> bool:
        row, col = state.coords(move)
        return any(max(abs(row - r), abs(col - c)) <= 2 for r, c in stones)

    close = [move for move in moves if near(move)]
    return rng.choice(close or moves)


def measure(player: str, timeouts: list[int], moves: int, seed: int, rule: int) -> dict[str, Any]:
    rng = random.Random(seed)
    command = [sys.executable, "-m", "plyground.apps.cli.main", "kinrow", "pbrain", "--player", player]
    brain = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert brain.stdin is not None and brain.stdout is not None
    send, out = brain.stdin, brain.stdout
    rows: list[dict[str, Any]] = []
    first_move_ms = None
    try:
        start = time.perf_counter()
        send.write(f"START {N}\n")
        send.flush()
        if out.readline().strip() != "OK":
            raise RuntimeError("the brain did not answer START with OK")
        start_ms = 1000 * (time.perf_counter() - start)
        sent = time.perf_counter()
        send.write(f"INFO timeout_turn {timeouts[-1]}\nINFO rule {rule}\nBEGIN\n")
        send.flush()
        read_move(out)
        rule_move_ms = 1000 * (time.perf_counter() - sent)
        send.write("INFO rule 0\n")
        for timeout in timeouts:
            send.write(f"INFO timeout_turn {timeout}\nRESTART\n")
            send.flush()
            if out.readline().strip() != "OK":
                raise RuntimeError("the brain did not answer RESTART with OK")
            state, times, messages = State(N, 5), list[float](), 0
            while len(times) < moves:
                if state.is_over:
                    send.write("RESTART\n")
                    send.flush()
                    out.readline()
                    state = State(N, 5)
                move = opponent_move(state, rng)
                state.play(move)
                if state.is_over:
                    continue
                row, col = state.coords(move)
                sent = time.perf_counter()
                send.write(f"TURN {col},{row}\n")
                send.flush()
                answer, before = read_move(out)
                times.append(1000 * (time.perf_counter() - sent))
                messages += sum(line.startswith("MESSAGE") for line in before)
                if first_move_ms is None:
                    first_move_ms = times[0]
                x, y = map(int, answer.split(","))
                state.play(state.index(y, x))
            budget = budget_from_timeout(timeout)
            worst = max(times)
            rows.append(
                {
                    "timeout_turn": timeout,
                    "moves": len(times),
                    "budget_ms": budget,
                    "median_ms": round(statistics.median(times), 1),
                    "worst_ms": round(worst, 1),
                    "worst_over_budget_ms": round(worst - budget, 1),
                    "slack_ms": round(timeout - worst, 1),
                    "late": sum(t > timeout for t in times),
                    "messages": messages,
                }
            )
        ended = time.perf_counter()
        send.write("END\n")
        send.flush()
        brain.wait(timeout=30)
        end_ms = 1000 * (time.perf_counter() - ended)
    finally:
        if brain.poll() is None:
            brain.kill()
            brain.wait()
    return {
        "start_ms": round(start_ms, 1),
        "rule": rule,
        "rule_move_timeout": timeouts[-1],
        "rule_move_ms": round(rule_move_ms, 1),
        "first_move_ms": round(first_move_ms or 0.0, 1),
        "end_ms": round(end_ms, 1),
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeouts", default="200,500,1000", help="timeout_turn values, ms (default: %(default)s)")
    parser.add_argument("--moves", type=int, default=15, help="timed moves per timeout (default: %(default)s)")
    parser.add_argument("--player", default=DEFAULT_KIND, help="the kind of player (default: %(default)s)")
    parser.add_argument("--no-load", action="store_true", help="no busy loop on the cores")
    parser.add_argument("--seed", type=int, default=1, help="seed of the opponent's moves (default: %(default)s)")
    parser.add_argument("--rule", type=int, default=1, help="INFO rule sent after START (default: %(default)s)")
    add_record_options(parser, Path(__file__), folder="results")
    options = parser.parse_args()
    timeouts = [int(value) for value in options.timeouts.split(",")]
    load = 0 if options.no_load else os.cpu_count() or 1
    loops = busy_loops(load)
    try:
        result = measure(options.player, timeouts, options.moves, options.seed, options.rule)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()

    table = Table(title=f"pbrain answers over pipes, {options.player}, {N}x{N}, {load} busy loops")
    for name in ("timeout_turn", "budget", "median", "worst", "worst - budget", "slack at worst", "late"):
        table.add_column(name, justify="right")
    for row in result["rows"]:
        table.add_row(
            str(row["timeout_turn"]),
            f"{row['budget_ms']:.0f}",
            f"{row['median_ms']:.1f}",
            f"{row['worst_ms']:.1f}",
            f"{row['worst_over_budget_ms']:+.1f}",
            f"{row['slack_ms']:.1f}",
            str(row["late"]),
        )
    console = Console()
    console.print(table)
    console.print(
        f"START to OK: {result['start_ms']:.0f} ms; INFO rule {options.rule} after START, then BEGIN: "
        f"{result['rule_move_ms']:.0f} ms (timeout_turn {timeouts[-1]}); first TURN: {result['first_move_ms']:.0f} ms; "
        f"END to exit: {result['end_ms']:.0f} ms"
    )
    print_json(
        "pbrain_latency",
        {
            "player": options.player,
            "board": N,
            "busy_loops": load,
            "stop_margin_ms": STOP_MARGIN_MS,
            "answer_margin_ms": ANSWER_MARGIN_MS,
            **result,
        },
        options,
    )


if __name__ == "__main__":
    main()
