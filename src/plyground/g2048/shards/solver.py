"""The strong solver on many workers: every age layer split into shards, the work done by tasks.

:func:`solve_sharded` runs the passes of :mod:`plyground.g2048.solver` as rounds of
:mod:`~plyground.g2048.shards.tasks`, one task a shard, on a local process pool or a Dask
cluster (:class:`~plyground.core.run_many.Pool`). The workers share nothing but the solution
folder: a local disk for one machine, a shared file system for a cluster. A round starts
when the one before it has ended; the manifest records each finished age, and each task
its own record, so a killed worker loses its task (run again elsewhere) and a killed run
resumes with the tasks that were not recorded.

The values equal the in-memory solver's bit for bit (the same kernels add the same numbers
in the same order), whatever the number of shards.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from plyground.core.run_many import Backend, Pool
from plyground.errors import InvalidInputError
from plyground.g2048.board import check_p_four
from plyground.g2048.shards.store import ShardFolder, check_shards
from plyground.g2048.shards.tasks import Job, Settings, run
from plyground.g2048.solution import AgeCounts, check_size

__all__ = ["RoundDone", "RoundProgress", "solve_sharded"]

RoundProgress = Callable[[str, int, int, int], None]
"""Called as ``on_task(phase, age, tasks done, tasks in the round)`` as tasks finish."""

RoundDone = Callable[[str, int, dict[str, float]], None]
"""Called as ``on_round(phase, age, totals)`` after each round: the sums of its tasks' records
(what they counted, ``seconds``, ``sent_bytes``, ``stored_bytes``; see
:func:`~plyground.g2048.shards.tasks.run`), its ``tasks``, how many ``ran`` now (the others
were recorded by an earlier run), and its ``wall_s`` here."""


def solve_sharded(
    rows: int,
    cols: int,
    directory: str | os.PathLike[str],
    *,
    backend: Backend | None = None,
    shards: int = 16,
    p_four: float = 0.1,
    values: str = "f64",
    forward_only: bool = False,
    max_age: int | None = None,
    progress: Callable[[str, int, AgeCounts | None], None] | None = None,
    on_task: RoundProgress | None = None,
    on_round: RoundDone | None = None,
) -> ShardFolder:
    """Solve the R×C game in ``shards`` shards an age, in ``directory``; resume what it holds.

    Args:
        rows, cols: the board (at most 12 cells).
        directory: the solution folder, seen by every worker at the same path.
        backend: where the tasks run (default: a local process pool on every core).
        shards: shards per age layer (1 to 4,096): more shards, less memory per task.
        p_four: the probability that a spawned tile is a 4.
        values: the stored precision of the values, "f64" (exact) or "f32".
        forward_only: list the boards and count them, without values.
        max_age: with ``forward_only``, stop the forward pass after this age.
        progress: called after each age, as :func:`plyground.g2048.solver.solve`'s.
        on_task: called as the tasks of a round finish.
        on_round: called after each round with what its tasks counted and cost.

    Raises:
        InvalidInputError: a bad argument, or a folder that holds another solution.
        CorruptFileError: a file of the folder cannot be read.
        DependencyNotInstalled: Dask is asked for but not installed.
    """
    rows, cols = check_size(rows, cols)
    p_four = check_p_four(p_four)
    shards = check_shards(shards)
    if max_age is not None and not forward_only:
        raise InvalidInputError("max_age limits the forward pass: give it with forward_only=True")
    if max_age is not None and (isinstance(max_age, bool) or not isinstance(max_age, int) or max_age < 4):
        raise InvalidInputError(f"max_age must be an integer of at least 4, got {max_age!r}")
    folder = ShardFolder.create_or_open(os.fspath(directory), rows, cols, p_four, shards, values)
    folder.drop_stale()
    settings = Settings(os.fspath(directory), rows, cols, p_four, shards, folder.values_precision)
    passes = _Passes(folder, settings, progress, on_task, on_round)
    with Pool(backend or Backend()) as pool:
        passes.pool = pool
        passes.forward(max_age)
        if not forward_only and folder.meta["forward"]["complete"]:
            passes.backward()
    return folder


class _Passes:
    def __init__(
        self,
        folder: ShardFolder,
        settings: Settings,
        progress: Callable[[str, int, AgeCounts | None], None] | None,
        on_task: RoundProgress | None,
        on_round: RoundDone | None = None,
    ) -> None:
        self.folder, self.settings = folder, settings
        self.progress = progress or (lambda phase, age, counts: None)
        self.on_task, self.on_round = on_task, on_round
        self.pool: Pool | None = None
        self.p_two, self.p_four = 1.0 - settings.p_four, settings.p_four

    def round(self, jobs: list[Job]) -> list[dict[str, Any]]:
        """Run the jobs not yet recorded; every job's record."""
        assert self.pool is not None
        folder = self.folder
        start = time.perf_counter()
        todo = [job for job in jobs if folder.recorded(job.phase, job.age, job.shard) is None]
        done = len(jobs) - len(todo)
        if todo:

            def finished(index: int, result: dict[str, Any]) -> None:
                if self.on_task is not None:
                    self.on_task(todo[index].phase, todo[index].age, done + index + 1, len(jobs))

            self.pool.map(run, todo, on_result=finished)
        records = [record or {} for record in (folder.recorded(job.phase, job.age, job.shard) for job in jobs)]
        if self.on_round is not None:
            phase = "+".join(dict.fromkeys(job.phase for job in jobs))
            totals = {**_sum(records), "tasks": len(jobs), "ran": len(todo), "wall_s": time.perf_counter() - start}
            self.on_round(phase, jobs[0].age, totals)
        return records

    def jobs(self, phase: str, age: int, ages: tuple[int, ...] = ()) -> list[Job]:
        return [Job(self.settings, phase, age, s, ages) for s in range(self.settings.shards)]

    # -- forward ------------------------------------------------------------------

    def forward(self, max_age: int | None) -> None:
        folder, meta = self.folder, self.folder.meta
        forward = meta["forward"]
        if forward["complete"] or (max_age is not None and forward["age"] >= max_age):
            return
        if forward["age"] == 0:
            self.round([Job(self.settings, "start", 0, 0)])
        after_of = {row[0]: row[5] for row in meta["ages"]}
        age = max(forward["age"], 2)
        while True:
            age += 2
            sources = (0,) if age in (4, 6, 8) else ()
            sources += tuple(a for a, p in ((age - 2, self.p_two), (age - 4, self.p_four)) if p > 0.0 and a in after_of)
            states = _sum(self.round(self.jobs("states", age, sources)))
            if age > 8 and states["states"] == 0 and after_of.get(age - 2, 0) == 0:
                forward["complete"] = True
                while meta["ages"] and meta["ages"][-1][1] == 0:  # empty layers at the end (p_four 1)
                    meta["ages"].pop()
                folder.save_meta()
                folder.finish_age("f", age)
                folder.drop_layer(age)
                return
            after = _sum(self.round(self.jobs("after", age)))
            counts = AgeCounts(
                age,
                states["states"],
                states["states_unreduced"],
                states["terminal"],
                states["terminal_unreduced"],
                after["afterstates"],
                after["afterstates_unreduced"],
            )
            meta["ages"].append([counts.age, *(getattr(counts, f) for f in _COUNT_FIELDS)])
            after_of[age] = counts.afterstates
            forward["age"] = age
            folder.save_meta()
            folder.finish_age("f", age)
            self.progress("forward", age, counts)
            if max_age is not None and age >= max_age:
                return

    # -- backward --------------------------------------------------------------------

    def backward(self) -> None:
        folder, meta = self.folder, self.folder.meta
        backward = meta["backward"]
        if backward["complete"]:
            return
        ages = folder.ages
        listed = set(ages)
        done = backward["age"]
        for age in reversed(ages):
            if done is not None and age >= done:
                continue
            targets = tuple(a for a, p in ((age + 2, self.p_two), (age + 4, self.p_four)) if p > 0.0 and a in listed)
            self.round(self.jobs("sreq", age, targets) + self.jobs("areq", age))
            self.round(self.jobs("sans", age, targets))
            self.round(self.jobs("aval", age, targets))
            self.round(self.jobs("values", age))
            backward["age"] = age
            folder.save_meta()
            folder.finish_age("b", age)
            self.progress("backward", age, None)
        backward["complete"] = True
        folder.save_meta()
        folder.drop_stale()


_COUNT_FIELDS = ("states", "states_unreduced", "terminal", "terminal_unreduced", "afterstates", "afterstates_unreduced")


def _sum(records: list[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = {}
    for record in records:
        for key, value in record.items():
            total[key] = total.get(key, 0) + value
    return total
