"""What a solve needs before it starts, beside what this machine has: states, disk, memory, time.

The sizes are those of boards solved before, per symmetry class: 2×2 to 3×3 and 2×4 by
this solver, 4×3 (and 3×4) from the published per-age state counts of Kaneko & Yamashita
(arXiv:2510.04580: 1.15 × 10¹² states, 7.4 × 10¹¹ afterstates). The rates are measured:

* disk: 8 bytes per stored code (``compact``: Elias-Fano, 2.26 to 2.48 bytes measured on
  2×4 and 3×3, 2.08 in the paper's 4×3) and 8 per value, plus a block per file;
* time: the 3×3 solve on 2 cores lists 80 M boards (states and afterstates) in 22-32 s
  and values them in 42 s, about 1.5 M and 0.85 M boards per second per core;
* memory: a base of 0.25 GiB and about 80 bytes per state of the largest layer (the 4×3
  forward pass to age 120, whose largest layer holds 6.05 M states, peaks at 0.61 GiB).

An estimate is rough (the time by ±50%), and an upper bound when ``p_four`` is 0 or 1
(fewer boards are reachable) or a small board's forward pass stops early.
"""

from __future__ import annotations

import bisect
import errno
import math
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Estimate", "Machine", "estimate_solve", "free_disk", "need_room"]

GIB = 2**30
FORWARD_RATE = 1.5e6
"""Boards (states and afterstates) listed per second per core by the forward pass."""
BACKWARD_RATE = 0.85e6
"""Boards valued per second per core by the backward pass."""
MEMORY_BASE = GIB // 4
MEMORY_PER_STATE = 80
"""Bytes of memory per state of the largest layer."""
FILE_BYTES = 4096
"""Bytes per file beside its data: the header and the last block."""
CODE_BYTES = 8
VALUE_BYTES = 8
RESERVE = 4 * 2**20
"""Bytes left free on the disk beside a layer: room for the progress file."""


@dataclass(frozen=True)
class _Known:
    states: int
    afterstates: int
    largest_layer: int
    largest_age: int
    compact_bytes: float


# Per symmetry class; a board and its transpose have the same counts.
_KNOWN = {
    (2, 2): _Known(110, 67, 7, 60, 2.5),
    (2, 3): _Known(21_752, 14_883, 302, 252, 2.5),
    (2, 4): _Known(4_980_767, 3_406_686, 18_210, 1_020, 2.26),
    (3, 3): _Known(48_713_519, 31_431_374, 93_061, 2_044, 2.48),
    (3, 4): _Known(1_152_817_492_752, 740_000_000_000, 297_784_736, 16_380, 2.08),
}

# 4×3 from the published per-age state counts: (age, states of ages 4 to age, largest layer so far), every
# quarter octave of ages; in between, the states grow as a power of the age.
_4X3_STATES = (
    (4, 22, 22), (6, 94, 72), (8, 266, 172), (10, 632, 366), (12, 1371, 739), (14, 2708, 1337), (16, 5015, 2307),
    (20, 15013, 6186), (22, 24587, 9574), (26, 59565, 20675), (32, 182520, 53854), (38, 464654, 117907),
    (46, 1286889, 268627), (54, 2934465, 509787), (64, 6760701, 957949), (76, 15060053, 1715696),
    (90, 31270390, 2793680), (108, 65024691, 4614739), (128, 124433292, 7069430), (152, 229833189, 10108896),
    (182, 412964056, 14277569), (216, 709575495, 20012810), (256, 1179175749, 26695468),
    (304, 1877136045, 31350476), (362, 2945876462, 42130437), (430, 4568713334, 51115012),
    (512, 6927646167, 63999272), (608, 9865674511, 70841813), (724, 14410235843, 89937479),
    (862, 20656810981, 99348615), (1024, 28689364047, 108716932), (1218, 38241423757, 127505857),
    (1448, 52869410202, 147847414), (1722, 70880342405, 152101465), (2048, 91894444328, 158695660),
    (2436, 118228104740, 188902310), (2896, 156734742131, 206957053), (3444, 200080800406, 207004488),
    (4096, 244317058628, 207004488), (4870, 309520129659, 243541043), (5792, 396139045676, 263041844),
    (6888, 486567628363, 263041844), (8192, 565554104328, 263041844), (9742, 711698524000, 297784736),
    (11586, 878846482346, 297784736), (13778, 1034416265422, 297784736), (16380, 1152817492752, 297784736),
)  # fmt: skip


def _up_to(rows: int, cols: int, max_age: int | None) -> tuple[int, int, int, bool]:
    """States, afterstates and the largest layer of ages up to ``max_age``, and whether these are upper bounds."""
    known = _KNOWN[min(rows, cols), max(rows, cols)]
    if max_age is not None:
        max_age -= max_age % 2  # ages are even
    if max_age is None or max_age >= known.largest_age:
        return known.states, known.afterstates, known.largest_layer, False
    if (min(rows, cols), max(rows, cols)) != (3, 4):
        return known.states, known.afterstates, known.largest_layer, True  # all of it: small anyway
    ages = [row[0] for row in _4X3_STATES]
    i = bisect.bisect_left(ages, max_age)
    if i == 0:
        return _4X3_STATES[0][1], round(_4X3_STATES[0][1] * known.afterstates / known.states), 22, False
    (a0, s0, _), (a1, s1, layer) = _4X3_STATES[i - 1], _4X3_STATES[i]
    states = round(s0 * math.exp(math.log(s1 / s0) * math.log(max_age / a0) / math.log(a1 / a0)))
    return states, round(states * known.afterstates / known.states), layer, False


@dataclass(frozen=True)
class Machine:
    """What this machine offers a solve into ``folder``: free disk there, available memory, cores."""

    folder: Path
    free_disk: int
    available_memory: int | None
    cores: int

    @classmethod
    def current(cls, folder: str | os.PathLike[str]) -> Machine:
        """This machine, for a solve into ``folder`` (which may not exist yet)."""
        return cls(Path(folder), free_disk(folder), _available_memory(), os.cpu_count() or 1)


def free_disk(path: str | os.PathLike[str]) -> int:
    """Free bytes on the disk of ``path``, or of its nearest folder that exists."""
    target = Path(path).absolute()
    while not target.exists() and target != target.parent:
        target = target.parent
    return shutil.disk_usage(target).free


def need_room(path: str | os.PathLike[str], nbytes: int, what: str) -> None:
    """Check that the disk of ``path`` holds ``nbytes`` more and keeps :data:`RESERVE` free beside them.

    Raises:
        OSError: ENOSPC, as a full disk would: "age 142: 12 KiB to write and 4 MiB to keep free, 3.9 MiB free".
    """
    free = free_disk(path)
    if free < nbytes + RESERVE:
        message = f"{what}: {_bytes(nbytes)} to write and {_bytes(RESERVE)} to keep free, {_bytes(free)} free"
        raise OSError(errno.ENOSPC, message)


def _available_memory() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


@dataclass(frozen=True)
class Estimate:
    """What a solve still needs: the boards it lists and values, the disk, memory and time.

    ``states`` and ``afterstates`` are those of the whole job; ``to_list`` (boards) and
    ``to_value`` (states) leave out what an earlier run of the same folder finished.
    """

    rows: int
    cols: int
    states: int
    afterstates: int
    to_list: int
    to_value: int
    disk_bytes: int
    memory_bytes: int
    seconds: float
    cores: int
    upper_bound: bool
    resumed: bool

    def describe(self) -> str:
        """One line: ``about 48.7 M states and 31.4 M afterstates: 1.0 GiB of disk, ...``."""
        about = "at most" if self.upper_bound else "about"
        work = f"{about} {_count(self.states)} states and {_count(self.afterstates)} afterstates"
        if self.resumed:
            left = [f"{_count(self.to_list)} boards still to list"] if self.to_list else []
            left += [f"{_count(self.to_value)} states to value"] if self.to_value else []
            work += f" ({', '.join(left) or 'nothing left to do'})"
        cores = f"{self.cores} core{'s' if self.cores != 1 else ''}"
        return (
            f"{work}: {_bytes(self.disk_bytes)} of disk, {_bytes(self.memory_bytes)} of memory "
            f"and {_duration(self.seconds)} on {cores}"
        )

    def refusal(self, machine: Machine) -> str | None:
        """Why ``machine`` cannot finish this solve, with the estimate; None when it can."""
        short = []
        if self.disk_bytes > machine.free_disk:
            short.append(f"{_bytes(machine.free_disk)} of disk free for {machine.folder}")
        if machine.available_memory is not None and self.memory_bytes > machine.available_memory:
            short.append(f"{_bytes(machine.available_memory)} of memory available")
        if not short:
            return None
        return (
            f"solving {self.rows}x{self.cols} needs {self.describe()}, "
            f"more than this machine has ({' and '.join(short)})"
        )


def estimate_solve(
    rows: int,
    cols: int,
    *,
    compact: bool = False,
    forward_only: bool = False,
    max_age: int | None = None,
    workers: int | None = None,
    p_four: float = 0.1,
    meta: dict[str, Any] | None = None,
) -> Estimate:
    """What solving ``rows`` × ``cols`` needs (on ``workers`` threads, default every core).

    ``meta`` is the ``solution.json`` of a folder that an earlier run began: what it
    finished is not counted again.
    """
    states, afterstates, largest_layer, upper_bound = _up_to(rows, cols, max_age if forward_only else None)
    known = _KNOWN[min(rows, cols), max(rows, cols)]
    listed_states = listed_after = valued = 0
    forward_done = backward_done = False
    if meta is not None:
        ages = meta["ages"]
        listed_states, listed_after = sum(row[1] for row in ages), sum(row[5] for row in ages)
        forward_done = meta["forward"]["complete"] or (max_age is not None and meta["forward"]["age"] >= max_age)
        backward_done = bool(meta["backward"]["complete"])
        if meta["backward"]["age"] is not None:
            valued = sum(row[1] for row in ages if row[0] >= meta["backward"]["age"])
    if forward_done:  # the folder knows the exact counts
        states, afterstates = listed_states, listed_after
    else:
        upper_bound = upper_bound or p_four in (0.0, 1.0)
    to_list = 0 if forward_done else max(0, states - listed_states) + max(0, afterstates - listed_after)
    to_value = 0 if forward_only or backward_done else max(0, states - valued)
    ages = (max_age if forward_only and max_age is not None else known.largest_age) // 2
    code_bytes = known.compact_bytes if compact else CODE_BYTES
    disk = to_list * code_bytes + to_value * VALUE_BYTES
    disk += FILE_BYTES * ages * ((0 if forward_done else 2) + (0 if to_value == 0 else 1))
    cores = max(1, min(workers or os.cpu_count() or 1, os.cpu_count() or 1))
    value_boards = to_value * (1 + afterstates / max(1, states))
    seconds = (to_list / FORWARD_RATE + value_boards / BACKWARD_RATE) / cores
    memory = MEMORY_BASE + MEMORY_PER_STATE * largest_layer if to_list or to_value else MEMORY_BASE
    resumed = bool(listed_states) or valued > 0
    return Estimate(
        rows, cols, states, afterstates, to_list, to_value,
        disk_bytes=math.ceil(disk), memory_bytes=memory, seconds=seconds, cores=cores,
        upper_bound=upper_bound, resumed=resumed,
    )  # fmt: skip


def _count(n: int) -> str:
    """``80,144,893`` as ``80.1 M``; ``1.15e12`` from a billion on."""
    if n >= 10**9:
        return f"{n:.3g}".replace("e+", "e")
    if n >= 10**6:
        return f"{n / 1e6:.1f} M"
    return f"{n:,}"


def _bytes(n: int) -> str:
    for unit, size in (("TiB", 2**40), ("GiB", GIB), ("MiB", 2**20)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n / 1024:.0f} KiB"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    for unit, size, limit in (("min", 60, 90 * 60), ("h", 3600, 48 * 3600)):
        if seconds < limit:
            return f"about {seconds / size:.0f} {unit}"
    return f"about {seconds / 86400:.0f} days"
