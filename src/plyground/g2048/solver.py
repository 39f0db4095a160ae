"""Strong solver for small 2048 boards: the optimal expected score of every reachable state.

The method of Kaneko & Yamashita, "Strongly Solving 2048 4×3" (arXiv:2510.04580):

* A *state* is a board before the player's move; an *afterstate* the board right after a
  legal move, before the spawn. The *age* of a board is the sum of its tiles: a move
  keeps it, a spawn adds 2 or 4.
* **Forward pass**: the states of age n come only from the afterstates of ages n - 2 (a 2
  spawns) and n - 4 (a 4 spawns), and the afterstates of age n from the states of age n.
  So the reachable boards are listed age by age, with three layers in memory at a time.
  A game starts on the empty board with two independent spawns; the one-tile boards in
  between are not states.
* **Backward pass**, from the largest age down:
  V(state) = max over legal moves of (points scored + V(afterstate)), 0 with no legal move;
  V(afterstate) = average over its empty cells of ((1 - p_four) V(with a 2) + p_four V(with a 4)).
  V is the expected *future* score under optimal play.
* Boards are stored once per symmetry class (8 symmetries on a square board, 4 on a
  rectangle), as sorted arrays of canonical codes per age, values as float64.

Every finished layer is written to a folder (atomically), so a killed solve resumes
where it stopped and a solved board loads without solving again; the folder's files and
the queries on a solved board are :mod:`plyground.g2048.solution`.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from plyground.core.files import write_json
from plyground.errors import CorruptFileError, DiskFullError, InvalidInputError, JobTooLargeError
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048.board import check_p_four

# The reader's names are re-exported ("X as X"): they were defined here before it had its own module.
from plyground.g2048.solution import FORMAT as FORMAT
from plyground.g2048.solution import MAX_CELLS as MAX_CELLS
from plyground.g2048.solution import SOLUTION_FILE, Codes, LayerFiles, Values, check_size, read_meta
from plyground.g2048.solution import AgeCounts as AgeCounts
from plyground.g2048.solution import Solution as Solution
from plyground.g2048.solution import StartClass as StartClass
from plyground.g2048.solution import default_directory as default_directory
from plyground.g2048.solver_estimate import FILE_BYTES, VALUE_BYTES, Estimate, Machine, estimate_solve, need_room

__all__ = ["Estimate", "Progress", "estimate", "solve"]

Progress = Callable[[str, int, "AgeCounts | None"], None]
"""Called as ``progress(phase, age, counts)``: phase "forward" (with the new layer's counts) or "backward"."""


# ---------------------------------------------------------------------------
# Parallel layer work
# ---------------------------------------------------------------------------


def _chunks(n: int, parts: int) -> list[slice]:
    bounds = np.linspace(0, n, parts + 1).astype(np.int64)
    return [slice(int(a), int(b)) for a, b in itertools.pairwise(bounds) if b > a]


def _sorted_unique(codes: Codes) -> Codes:
    codes.sort()
    return codes[: SK._unique_sorted(codes)]


def _merge(parts: list[Codes]) -> Codes:
    """Merge sorted repeat-free arrays into one."""
    while len(parts) > 1:
        merged = []
        for a, b in itertools.zip_longest(parts[::2], parts[1::2]):
            if b is None:
                merged.append(a)
                continue
            out = np.empty(a.shape[0] + b.shape[0], dtype=np.uint64)
            merged.append(out[: SK._merge_unique(a, b, out)])
        parts = merged
    return parts[0] if parts else np.empty(0, dtype=np.uint64)


class _Layers:
    """The layer kernels, run on every worker over parts of each layer."""

    def __init__(self, rows: int, cols: int, p_four: float, pool: ThreadPoolExecutor, workers: int) -> None:
        self.rows, self.cols, self.p_four = rows, cols, p_four
        self.pool, self.workers = pool, workers

    def _map(self, n: int, job: Callable[[slice], Any]) -> list[Any]:
        return list(self.pool.map(job, _chunks(n, self.workers * 4 if n > 100_000 else 1)))

    def spawned(self, twos: Codes, fours: Codes) -> Codes:
        """The canonical codes of every board with a 2 spawned on ``twos`` or a 4 on ``fours``."""
        rows, cols = self.rows, self.cols
        if self.p_four == 0.0:
            fours = fours[:0]
        if self.p_four == 1.0:
            twos = twos[:0]

        def job(part: slice) -> Codes:
            two, four = twos[part], fours[part]
            out = np.empty(SK._count_spawns(two, rows, cols) + SK._count_spawns(four, rows, cols), dtype=np.uint64)
            n = SK._spawn_layer(two, np.uint64(1), rows, cols, out)
            n += SK._spawn_layer(four, np.uint64(2), rows, cols, out[n:])
            return _sorted_unique(out[:n])

        return _merge(self._map(max(twos.shape[0], fours.shape[0]), job))

    def afterstates(self, states: Codes) -> tuple[Codes, int, int]:
        """The canonical afterstates of ``states``, and the terminal states (classes, unreduced)."""

        def job(part: slice) -> tuple[Codes, int, int]:
            out = np.empty(4 * (part.stop - part.start), dtype=np.uint64)
            n, terminal, terminal_boards = SK._move_layer(states[part], self.rows, self.cols, out)
            return _sorted_unique(out[:n]), terminal, terminal_boards

        results = self._map(states.shape[0], job)
        return _merge([r[0] for r in results]), sum(r[1] for r in results), sum(r[2] for r in results)

    def unreduced(self, codes: Codes) -> int:
        return sum(self._map(codes.shape[0], lambda part: SK._orbit_total(codes[part], self.rows, self.cols)))

    def chance_values(self, boards: Codes, layer_2: tuple[Codes, Values], layer_4: tuple[Codes, Values]) -> Values:
        out = np.empty(boards.shape[0], dtype=np.float64)

        def job(part: slice) -> int:
            return int(
                SK._chance_values(boards[part], self.rows, self.cols, self.p_four, *layer_2, *layer_4, out[part])
            )

        if sum(self._map(boards.shape[0], job)):
            raise CorruptFileError("a spawned board is missing from its layer: the solution folder is damaged")
        return out

    def state_values(self, states: Codes, after: Codes, after_values: Values) -> Values:
        out = np.empty(states.shape[0], dtype=np.float64)

        def job(part: slice) -> int:
            return int(SK._state_values(states[part], self.rows, self.cols, after, after_values, out[part]))

        if sum(self._map(states.shape[0], job)):
            raise CorruptFileError("an afterstate is missing from its layer: the solution folder is damaged")
        return out


def _one_tile_boards(rows: int, cols: int, exponent: int) -> Codes:
    """The canonical boards with one tile ``2**exponent``: what the first spawn of a game leaves."""
    boards = {
        int(SK._canonical(np.uint64(exponent << (16 * r + 4 * c)), rows, cols))
        for r in range(rows)
        for c in range(cols)
    }
    return np.array(sorted(boards), dtype=np.uint64)


_EMPTY = np.empty(0, dtype=np.uint64)
_NO_VALUES = np.empty(0, dtype=np.float64)

# ---------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------


def solve(
    rows: int,
    cols: int,
    *,
    p_four: float = 0.1,
    directory: str | os.PathLike[str] | None = None,
    compact: bool = False,
    forward_only: bool = False,
    max_age: int | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    force: bool = False,
) -> Solution:
    """Solve the R×C game: list every reachable board, then value every state.

    A folder that already holds this board's solution (or a part of it) is reused: a
    finished solution loads at once, an unfinished one resumes where it stopped.

    Before it starts, the solve is refused when its :func:`estimate` needs more disk or
    memory than this machine has (``force`` starts it anyway). Before each age it checks
    the free disk space, and it stops cleanly, resumable, when the disk would run out.

    Args:
        rows: the board's rows.
        cols: the board's columns (at most :data:`MAX_CELLS` cells in all).
        p_four: the probability that a spawned tile is a 4.
        directory: the solution folder (default: :func:`default_directory`).
        compact: store the code arrays Elias-Fano encoded (smaller, slower to load).
        forward_only: list the reachable boards and count them, without values.
        max_age: with ``forward_only``, stop the forward pass after this age.
        workers: threads (default: every core).
        progress: called after each layer (see :data:`Progress`).
        force: start even a solve that the estimate says this machine cannot finish.

    Raises:
        InvalidInputError: a bad size or parameter, or a folder that holds another solution.
        JobTooLargeError: the solve needs more disk or memory than this machine has.
        DiskFullError: the disk ran out: every finished age is saved, and solving again resumes.
        CorruptFileError: a file of the folder cannot be read.
    """
    rows, cols, p_four, folder = _check(rows, cols, p_four, directory, forward_only, max_age, workers)
    solver = _Solver(folder, rows, cols, p_four, compact, workers or os.cpu_count() or 1, progress)
    if not force:
        reason = solver.estimate(forward_only, max_age).refusal(Machine.current(folder))
        if reason is not None:
            raise JobTooLargeError(f"{reason}: force=True starts it anyway")
    try:
        solver.start()
        with ThreadPoolExecutor(max_workers=solver.workers, thread_name_prefix="solver") as pool:
            solver.forward(pool, max_age)
            if not forward_only:
                solver.backward(pool)
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        raise DiskFullError(solver.stopped(exc)) from None
    return Solution(folder)


def estimate(
    rows: int,
    cols: int,
    *,
    p_four: float = 0.1,
    directory: str | os.PathLike[str] | None = None,
    compact: bool = False,
    forward_only: bool = False,
    max_age: int | None = None,
    workers: int | None = None,
) -> Estimate:
    """What :func:`solve` with these arguments still needs: boards, disk, memory and time.

    What an earlier run finished in the folder is left out. :meth:`Estimate.refusal` on
    :meth:`Machine.current` says whether this machine can finish it.

    Raises:
        InvalidInputError: as :func:`solve`.
    """
    rows, cols, p_four, folder = _check(rows, cols, p_four, directory, forward_only, max_age, workers)
    return _Solver(folder, rows, cols, p_four, compact, workers or os.cpu_count() or 1, None).estimate(
        forward_only, max_age
    )


def _check(
    rows: int,
    cols: int,
    p_four: float,
    directory: str | os.PathLike[str] | None,
    forward_only: bool,
    max_age: int | None,
    workers: int | None,
) -> tuple[int, int, float, Path]:
    rows, cols = check_size(rows, cols)
    p_four = check_p_four(p_four)
    if max_age is not None and not forward_only:
        raise InvalidInputError("max_age limits the forward pass: give it with forward_only=True")
    if max_age is not None and not (isinstance(max_age, int) and max_age >= 4):
        raise InvalidInputError(f"max_age must be an integer of at least 4, got {max_age!r}")
    if workers is not None and not (isinstance(workers, int) and workers >= 1):
        raise InvalidInputError(f"workers must be a positive integer, got {workers!r}")
    folder = Path(directory) if directory is not None else default_directory(rows, cols, p_four)
    return rows, cols, p_four, folder


class _Solver:
    def __init__(
        self,
        folder: Path,
        rows: int,
        cols: int,
        p_four: float,
        compact: bool,
        workers: int,
        progress: Progress | None,
    ) -> None:
        self.folder, self.rows, self.cols, self.p_four = folder, rows, cols, p_four
        self.workers = workers
        self.progress = progress or (lambda phase, age, counts: None)
        self.started = (folder / "solution.json").exists()
        self.meta = self._open(compact)
        self.store = LayerFiles(folder, rows, cols, bool(self.meta["compact"]))
        self.written: list[int] = []  # the bytes of each layer written (states and afterstates)

    def _open(self, compact: bool) -> dict[str, Any]:
        path = self.folder / "solution.json"
        if not self.started:
            if self.folder.exists() and any(self.folder.iterdir()):
                raise InvalidInputError(f"{self.folder} is not empty and holds no solution: choose another folder")
            return SOLUTION_FILE.stamp(
                {
                    "rows": self.rows,
                    "cols": self.cols,
                    "p_four": self.p_four,
                    "compact": compact,
                    "forward": {"age": 0, "complete": False},
                    "backward": {"age": None, "complete": False},
                    "ages": [],
                }
            )
        meta = read_meta(path)
        if (meta["rows"], meta["cols"], meta["p_four"]) != (self.rows, self.cols, self.p_four):
            raise InvalidInputError(
                f"{self.folder} holds the solution of {meta['rows']}x{meta['cols']} with p_four {meta['p_four']}, "
                f"not {self.rows}x{self.cols} with p_four {self.p_four}: choose another folder"
            )
        return meta

    def estimate(self, forward_only: bool, max_age: int | None) -> Estimate:
        """What this solve still needs (what the folder holds already left out)."""
        return estimate_solve(
            self.rows, self.cols, compact=self.store.compact, forward_only=forward_only, max_age=max_age,
            workers=self.workers, p_four=self.p_four, meta=self.meta if self.started else None,
        )  # fmt: skip

    def start(self) -> None:
        """Write the progress file of a new folder, before any layer, so that a stop anywhere resumes."""
        if not self.started:
            self._save_meta()
            self.started = True

    def _save_meta(self) -> None:
        write_json(self.store.meta_path, SOLUTION_FILE.stamp(self.meta), compact=True)

    def _room_for_layer(self, age: int) -> None:
        """Stop before an age that the disk would not hold: the last layer's bytes, grown as the last did."""
        if not self.written:
            return
        last, before = self.written[-1], self.written[-2] if len(self.written) > 1 else 0
        growth = min(4.0, max(1.0, last / before)) if before else 1.0
        need_room(self.folder, round(last * growth) + 2 * FILE_BYTES, f"age {age:,}")

    def stopped(self, exc: OSError) -> str:
        """What a solve stopped by a full disk had finished, and how to resume it."""
        meta = read_meta(self.store.meta_path) if self.store.meta_path.exists() else self.meta
        forward, backward = meta["forward"], meta["backward"]
        states = sum(row[1] for row in meta["ages"])
        if not forward["complete"] and backward["age"] is None:
            where = (
                f"the forward pass stopped after age {forward['age']:,} ({states:,} states listed)"
                if forward["age"]
                else "the forward pass stopped before its first age"
            )
        elif backward["age"] is None:
            where = f"the backward pass stopped before its first age (the forward pass listed {states:,} states)"
        else:
            valued = sum(row[1] for row in meta["ages"] if row[0] >= backward["age"])
            where = f"the backward pass stopped at age {backward['age']:,} ({valued:,} of {states:,} states valued)"
        return (
            f"no room left on the disk of {self.folder} ({exc.strerror or exc}): {where}; "
            "every finished age is saved: free some space and run the same solve again to resume"
        )

    def forward(self, pool: ThreadPoolExecutor, max_age: int | None) -> None:
        """List the states and afterstates of every age, from where an earlier run stopped."""
        forward = self.meta["forward"]
        if forward["complete"] or (max_age is not None and forward["age"] >= max_age):
            return
        layers = _Layers(self.rows, self.cols, self.p_four, pool, self.workers)
        # The first spawn of a game: one-tile boards, of the tiles that can spawn.
        one_tile = {
            2 * e: _one_tile_boards(self.rows, self.cols, e) for e, p in ((1, 1 - self.p_four), (2, self.p_four)) if p
        }

        def sources(age: int, after: Codes) -> Codes:
            """What a spawn at ``age`` lands on: the afterstates, and the one-tile start boards."""
            return _merge([after, one_tile[age]]) if age in one_tile else after

        age = max(forward["age"], 2)
        spawn_from = {
            a: sources(a, self.store.load("after", a) if 4 <= a <= forward["age"] else _EMPTY) for a in (age - 2, age)
        }
        if forward["age"] >= 4:
            with contextlib.suppress(OSError):  # a missing states file is said when the backward pass reads it
                self.written.append(self.store.nbytes("states", age) + self.store.nbytes("after", age))
        while True:
            age += 2
            self._room_for_layer(age)
            states = layers.spawned(spawn_from.get(age - 2, _EMPTY), spawn_from.get(age - 4, _EMPTY))
            # Past the start (two spawns on the empty board: ages 4 to 8), nothing more is reachable
            # once a layer is empty and so is the one that a 4 would spawn on next.
            if age > 8 and states.shape[0] == 0 and spawn_from.get(age - 2, _EMPTY).shape[0] == 0:
                forward["complete"] = True
                while self.meta["ages"] and self.meta["ages"][-1][1] == 0:  # empty layers at the end (p_four 1)
                    self.meta["ages"].pop()
                self._save_meta()
                return
            after, terminal, terminal_boards = layers.afterstates(states)
            self.store.save("states", age, states)
            self.store.save("after", age, after)
            self.written.append(self.store.nbytes("states", age) + self.store.nbytes("after", age))
            counts = AgeCounts(
                age,
                int(states.shape[0]),
                layers.unreduced(states),
                terminal,
                terminal_boards,
                int(after.shape[0]),
                layers.unreduced(after),
            )
            self.meta["ages"].append(list(asdict(counts).values()))
            forward["age"] = age
            self._save_meta()
            self.progress("forward", age, counts)
            spawn_from = {age - 2: spawn_from.get(age - 2, _EMPTY), age: sources(age, after)}
            if max_age is not None and age >= max_age:
                return

    def backward(self, pool: ThreadPoolExecutor) -> None:
        """Value every state, from the largest age down, from where an earlier run stopped."""
        backward = self.meta["backward"]
        if backward["complete"]:
            return
        layers = _Layers(self.rows, self.cols, self.p_four, pool, self.workers)
        ages = [row[0] for row in self.meta["ages"]]
        states_of = {row[0]: row[1] for row in self.meta["ages"]}
        done = backward["age"]
        known: dict[int, tuple[Codes, Values]] = {}
        if done is not None:
            for a in (done, done + 2):
                if a in ages:
                    known[a] = (self.store.load("states", a), self.store.load("values", a))
        empty = (_EMPTY, _NO_VALUES)
        for age in reversed(ages):
            if done is not None and age >= done:
                continue
            need_room(self.folder, VALUE_BYTES * states_of[age] + FILE_BYTES, f"the values of age {age:,}")
            after = self.store.load("after", age)
            after_values = layers.chance_values(after, known.get(age + 2, empty), known.get(age + 4, empty))
            states = self.store.load("states", age)
            values = layers.state_values(states, after, after_values)
            self.store.save("values", age, values)
            backward["age"] = age
            self._save_meta()
            known.pop(age + 4, None)
            known[age] = (states, values)
            self.progress("backward", age, None)
        backward["complete"] = True
        self._save_meta()
