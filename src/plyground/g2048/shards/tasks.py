"""The tasks of the sharded solver: one shard of one age, run on any worker, through files only.

Each task reads the files of its inputs in the solution folder, writes its outputs
atomically and then its record (:class:`~plyground.g2048.shards.store.ShardFolder`), and
returns what it counted. A task run twice (a worker lost, a run resumed) writes the same
files. Nothing in a task holds more than one shard of a layer and what that shard sends
or receives: memory per worker shrinks with the number of shards.

**Forward pass**, age by age (the method of :mod:`plyground.g2048.solver`):

* ``start`` (once): the spawns on the one-tile boards of a game's first spawn, sent to the
  shards of ages 4, 6 and 8 that own them.
* ``states`` (age n, shard t): the spawns sent to t from the afterstates of ages n - 2 and
  n - 4, merged without repeats: t's states of age n. Their afterstates are sent to the
  shards that own them.
* ``after`` (age n, shard u): the afterstates sent to u, merged: u's afterstates of age n.
  Their spawns (a 2, a 4) are sent to the shards of ages n + 2 and n + 4 that own them.

**Backward pass**, from the largest age down; a shard never reads another shard's layer,
it asks (requests) and is answered:

* ``sreq`` (age n, shard u): the states that u's afterstates spawn, as requests to their owners;
  ``areq`` (age n, shard v): the afterstates of v's states, as requests to their owners.
* ``sans`` (age n, shard t): t's states of ages n + 2 and n + 4 answer the requests with their values.
* ``aval`` (age n, shard u): the value of each of u's afterstates, from the answers; then u
  answers the afterstate requests.
* ``values`` (age n, shard v): the value of each of v's states, from the answers: written.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from plyground.errors import CorruptFileError
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048.shards import _shard_kernels as HK
from plyground.g2048.shards.store import Codes, ShardFolder, Values
from plyground.g2048.solver import _one_tile_boards

__all__ = ["SPAWN_CHUNK", "Job", "Settings", "run"]

SPAWN_CHUNK = 1 << 20
"""Boards spawned on at a time: the candidates of a chunk are sorted and merged before the next."""

_EMPTY = np.empty(0, dtype=np.uint64)


@dataclass(frozen=True)
class Settings:
    """What every task of a solve needs to know: where, which board, which rule, how many shards."""

    directory: str
    rows: int
    cols: int
    p_four: float
    shards: int
    values: str = "f64"

    def folder(self) -> ShardFolder:
        meta = {"rows": self.rows, "cols": self.cols, "p_four": self.p_four, "shards": self.shards}
        return ShardFolder(self.directory, {**meta, "values": self.values})


@dataclass(frozen=True)
class Job:
    """One task: ``phase`` of ``age`` on ``shard``.

    ``ages``: for ``states``, the ages whose afterstates spawn into ``age`` (0: the start
    boards); for the backward tasks, the state ages its afterstates spawn into (``age + 2``
    with a 2, ``age + 4`` with a 4, those of a tile that can spawn), listed or not.
    """

    settings: Settings
    phase: str
    age: int
    shard: int
    ages: tuple[int, ...] = ()


def run(job: Job) -> dict[str, Any]:
    """Run the task (if not already recorded) and return its record.

    Besides what the phase counted, the record holds what the task cost: ``seconds`` (its
    wall time on its worker), ``sent_bytes`` (the work files it wrote for other tasks: the
    shuffle) and ``stored_bytes`` (the layer files it wrote).
    """
    folder = job.settings.folder()
    done = folder.recorded(job.phase, job.age, job.shard)
    if done is not None:
        return done
    start = time.perf_counter()
    result = _PHASES[job.phase](folder, job)
    result.update(
        seconds=time.perf_counter() - start, sent_bytes=folder.written["work"], stored_bytes=folder.written["layers"]
    )
    folder.record(job.phase, job.age, job.shard, result)
    return result


# ---------------------------------------------------------------------------
# Building blocks


def _sorted_unique(codes: Codes) -> Codes:
    codes = np.sort(codes)
    return codes[: SK._unique_sorted(codes)]


def _merge(a: Codes, b: Codes) -> Codes:
    out = np.empty(a.shape[0] + b.shape[0], dtype=np.uint64)
    return out[: SK._merge_unique(a, b, out)]


def _route(codes: Codes, shards: int, shift: int) -> list[Codes]:
    """``codes`` split by owner, each part in the order of ``codes``."""
    counts = np.zeros(shards, dtype=np.int64)
    HK._route_counts(codes, shards, shift, counts)
    starts = np.zeros(shards, dtype=np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    bounds = np.append(starts, codes.shape[0])
    out = np.empty_like(codes)
    HK._route(codes, shards, shift, starts.copy(), out)
    return [out[bounds[s] : bounds[s + 1]] for s in range(shards)]


def _spawns(boards: Codes, exponent: int, rows: int, cols: int) -> Codes:
    """The canonical codes, sorted without repeats, of every board with ``2**exponent`` spawned on ``boards``."""
    total = _EMPTY
    for start in range(0, boards.shape[0], SPAWN_CHUNK):
        part = boards[start : start + SPAWN_CHUNK]
        out = np.empty(SK._count_spawns(part, rows, cols), dtype=np.uint64)
        n = SK._spawn_layer(part, np.uint64(exponent), rows, cols, out)
        total = _merge(total, _sorted_unique(out[:n]))
    return total


def _afterstates(states: Codes, rows: int, cols: int) -> tuple[Codes, int, int]:
    """The canonical afterstates of ``states``, sorted without repeats; the terminal states (classes, boards)."""
    out = np.empty(4 * states.shape[0], dtype=np.uint64)
    n, terminal, terminal_boards = SK._move_layer(states, rows, cols, out)
    return _sorted_unique(out[:n]), int(terminal), int(terminal_boards)


def _tiles(p_four: float) -> list[tuple[int, int]]:
    """(exponent, age step) of each tile that can spawn."""
    return [(e, 2 * e) for e, p in ((1, 1.0 - p_four), (2, p_four)) if p > 0.0]


def _send(folder: ShardFolder, name: str, age: int, keys: tuple[int, ...], codes: Codes, code_age: int) -> None:
    """Write ``codes`` split by owner: the work file ``name`` of ``age`` keyed ``keys``, a part for each owner."""
    parts = _route(codes, folder.shards, folder.owner_shift)
    folder.write_code_parts(folder.work_path(name, age, *keys), parts, code_age)


def _gather(folder: ShardFolder, paths: list[Any], part: int, code_age: int) -> Codes:
    """Part ``part`` of each work file, sorted runs that may overlap, merged without repeats."""
    total = _EMPTY
    for path in paths:
        total = _merge(total, folder.read_code_part(path, part, code_age))
    return total


def _sublayer(keys: list[Codes], values: list[Values]) -> tuple[Codes, Values]:
    """Requests and their answers from every shard, as one sorted layer (the shards own disjoint codes)."""
    codes = np.concatenate([_EMPTY, *keys])
    answers = np.concatenate([np.empty(0, dtype=np.float64), *values])
    order = np.argsort(codes, kind="stable")
    return np.ascontiguousarray(codes[order]), np.ascontiguousarray(answers[order])


# ---------------------------------------------------------------------------
# Forward pass


def _start(folder: ShardFolder, job: Job) -> dict[str, Any]:
    rows, cols = folder.rows, folder.cols
    one_tile = {e: _one_tile_boards(rows, cols, e) for e, _ in _tiles(folder.p_four)}
    into: dict[int, Codes] = {4: _EMPTY, 6: _EMPTY, 8: _EMPTY}
    for first in one_tile:
        for e, _ in _tiles(folder.p_four):
            into[2 * first + 2 * e] = _merge(into[2 * first + 2 * e], _spawns(one_tile[first], e, rows, cols))
    for age, codes in into.items():
        _send(folder, "spawn", age, (0, 0), codes, age)
    return {}


def _states(folder: ShardFolder, job: Job) -> dict[str, Any]:
    rows, cols, t = folder.rows, folder.cols, job.shard
    paths = [folder.work_path("spawn", job.age, 0, 0)] if 0 in job.ages else []
    paths += [folder.work_path("spawn", job.age, a, u) for a in job.ages if a for u in range(folder.shards)]
    states = _gather(folder, paths, t, job.age)
    folder.write_codes(folder.layer_path("states", job.age, t), states, job.age)
    after, terminal, terminal_boards = _afterstates(states, rows, cols)
    _send(folder, "after", job.age, (t,), after, job.age)
    return {
        "states": int(states.shape[0]),
        "states_unreduced": int(SK._orbit_total(states, rows, cols)),
        "terminal": terminal,
        "terminal_unreduced": terminal_boards,
    }


def _after(folder: ShardFolder, job: Job) -> dict[str, Any]:
    rows, cols, u = folder.rows, folder.cols, job.shard
    after = _gather(folder, [folder.work_path("after", job.age, v) for v in range(folder.shards)], u, job.age)
    folder.write_codes(folder.layer_path("after", job.age, u), after, job.age)
    for e, step in _tiles(folder.p_four):
        _send(folder, "spawn", job.age + step, (job.age, u), _spawns(after, e, rows, cols), job.age + step)
    return {"afterstates": int(after.shape[0]), "afterstates_unreduced": int(SK._orbit_total(after, rows, cols))}


# ---------------------------------------------------------------------------
# Backward pass


def _target_exponents(folder: ShardFolder, job: Job) -> list[tuple[int, int]]:
    """(exponent, state age) of each spawn of ``job.age``'s afterstates."""
    return [(e, job.age + step) for e, step in _tiles(folder.p_four) if job.age + step in job.ages]


def _state_requests(folder: ShardFolder, job: Job) -> dict[str, Any]:
    after = folder.read_codes(folder.layer_path("after", job.age, job.shard), job.age)
    for e, a in _target_exponents(folder, job):
        _send(folder, "sreq", job.age, (a, job.shard), _spawns(after, e, folder.rows, folder.cols), a)
    return {}


def _after_requests(folder: ShardFolder, job: Job) -> dict[str, Any]:
    states = folder.read_codes(folder.layer_path("states", job.age, job.shard), job.age)
    after, _, _ = _afterstates(states, folder.rows, folder.cols)
    _send(folder, "areq", job.age, (job.shard,), after, job.age)
    return {}


def _state_answers(folder: ShardFolder, job: Job) -> dict[str, Any]:
    t = job.shard
    for _, a in _target_exponents(folder, job):
        codes = folder.read_codes(folder.layer_path("states", a, t), a)
        values = folder.read_values(folder.layer_path("values", a, t), codes.shape[0])
        answers = []
        for u in range(folder.shards):
            keys = folder.read_code_part(folder.work_path("sreq", job.age, a, u), t, a)
            out = np.empty(keys.shape[0], dtype=np.float64)
            if HK._lookup(keys, codes, values, out):
                raise CorruptFileError(
                    f"a spawned board is missing from shard {t} of age {a}: the solution folder is damaged"
                )
            answers.append(out)
        folder.write_value_parts(folder.work_path("sans", job.age, a, t), answers)
    return {}


def _after_values(folder: ShardFolder, job: Job) -> dict[str, Any]:
    rows, cols, u = folder.rows, folder.cols, job.shard
    after = folder.read_codes(folder.layer_path("after", job.age, u), job.age)
    layers = {}
    for _, a in _target_exponents(folder, job):
        keys = [folder.read_code_part(folder.work_path("sreq", job.age, a, u), t, a) for t in range(folder.shards)]
        answers = [
            folder.read_value_part(folder.work_path("sans", job.age, a, t), u, k.shape[0]) for t, k in enumerate(keys)
        ]
        layers[a] = _sublayer(keys, answers)
    empty = (_EMPTY, np.empty(0, dtype=np.float64))
    values = np.empty(after.shape[0], dtype=np.float64)
    layer_2, layer_4 = layers.get(job.age + 2, empty), layers.get(job.age + 4, empty)
    if SK._chance_values(after, rows, cols, folder.p_four, *layer_2, *layer_4, values):
        raise CorruptFileError(f"a spawned board of age {job.age} has no answer: the solution folder is damaged")
    answers = []
    for v in range(folder.shards):
        keys_v = folder.read_code_part(folder.work_path("areq", job.age, v), u, job.age)
        out = np.empty(keys_v.shape[0], dtype=np.float64)
        if HK._lookup(keys_v, after, values, out):
            raise CorruptFileError(
                f"an afterstate is missing from shard {u} of age {job.age}: the solution folder is damaged"
            )
        answers.append(out)
    folder.write_value_parts(folder.work_path("aans", job.age, u), answers)
    return {}


def _state_values(folder: ShardFolder, job: Job) -> dict[str, Any]:
    rows, cols, v = folder.rows, folder.cols, job.shard
    states = folder.read_codes(folder.layer_path("states", job.age, v), job.age)
    keys = [folder.read_code_part(folder.work_path("areq", job.age, v), u, job.age) for u in range(folder.shards)]
    answers = [folder.read_value_part(folder.work_path("aans", job.age, u), v, k.shape[0]) for u, k in enumerate(keys)]
    after, after_values = _sublayer(keys, answers)
    values = np.empty(states.shape[0], dtype=np.float64)
    if SK._state_values(states, rows, cols, after, after_values, values):
        raise CorruptFileError(f"an afterstate of age {job.age} has no answer: the solution folder is damaged")
    folder.write_values(folder.layer_path("values", job.age, v), values)
    return {}


_PHASES = {
    "start": _start,
    "states": _states,
    "after": _after,
    "sreq": _state_requests,
    "areq": _after_requests,
    "sans": _state_answers,
    "aval": _after_values,
    "values": _state_values,
}
