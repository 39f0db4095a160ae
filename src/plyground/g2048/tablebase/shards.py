"""A table's layers solved by other processes: local ones or a Dask cluster's, the shards of a layer side by side.

A solve given a ``backend`` (:func:`~plyground.g2048.tablebase.solve.solve_formation`) writes the
order of its states by tile sum into its ``work`` folder (``order.u4.npy``) beside the values and
best moves it solves there, then sends each large layer's shards out as :class:`ShardJob` s: a
worker maps the three files (:func:`solve_shard`) and writes the values and best moves of its
shard's states into them, at places no other shard writes. The states of one layer depend only on
the layers above it, so a layer's shards run at once and the layers one after another. The workers
share the files through the page cache of the machine that holds the folder: they run on that
machine (a local process pool, or a Dask cluster whose workers run there).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from plyground.g2048 import _tablebase_kernels as TK
from plyground.g2048.tablebase.formation import Formation

__all__ = ["ORDER_FILE", "ShardJob", "solve_shard"]

ORDER_FILE = "order.u4.npy"
"""The states' indices by tile sum, in a solve's ``work`` folder (4 bytes a state)."""


@dataclass(frozen=True)
class ShardJob:
    """A shard of a layer to solve: the states at ``start`` to ``stop`` of the order of sums of the solve in ``work``.

    Attributes:
        work: the solve's ``work`` folder (``order.u4.npy``, ``values.f8.npy``, ``best.npy``).
        formation: the formation, as text.
        target: the tile built on the goal cell.
        p_four: the probability that a spawned tile is a 4.
        start: the shard's first place in the order.
        stop: the place after its last.
    """

    work: str
    formation: str
    target: int
    p_four: float
    start: int
    stop: int


def solve_shard(job: ShardJob) -> int:
    """Solve ``job``'s states into its folder's files (as a solve's layer does); the number of states solved."""
    work = Path(job.work)
    order = np.load(work / ORDER_FILE, mmap_mode="r")
    values = np.lib.format.open_memmap(work / "values.f8.npy", mode="r+")
    best = np.lib.format.open_memmap(work / "best.npy", mode="r+")
    formation = Formation.parse(job.formation)
    shifts = np.array([16 * r + 4 * c for r, c in formation.region], dtype=np.int64)
    levels = job.target.bit_length() - 1
    radix = np.array(formation.radix(levels), dtype=np.int64)
    TK._layer_values(
        np.array(order[job.start : job.stop]), shifts, radix, levels, formation.rows, formation.cols,
        np.uint64(formation.frozen_mask), formation.goal_shift, job.p_four, values, best,
    )  # fmt: skip
    del values, best  # unmapped: the pages written are in the page cache, where the other processes read them
    return job.stop - job.start
