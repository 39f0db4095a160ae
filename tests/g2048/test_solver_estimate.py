"""A solve's estimate and its refusal, and the clean stop of a solve when the disk fills up."""

from __future__ import annotations

import errno
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest

from plyground.core import files
from plyground.errors import DiskFullError, JobTooLargeError
from plyground.g2048 import Solution, solution, solve, solver, solver_estimate
from plyground.g2048.solver import estimate
from plyground.g2048.solver_estimate import _4X3_STATES, RESERVE, Machine, estimate_solve

PUBLISHED_4X3 = Path(__file__).parents[1] / "data" / "published_4x3_states_per_age.txt"
GIB = 2**30


def published() -> list[tuple[int, int]]:
    return [(int(a), int(n)) for a, n in (line.split() for line in PUBLISHED_4X3.read_text().splitlines())]


def test_the_4x3_table_is_the_published_counts() -> None:
    counts = published()
    cumulative: dict[int, int] = {}
    largest: dict[int, int] = {}
    total = 0
    for age, n in counts:
        total += n
        cumulative[age], largest[age] = total, max(n, largest.get(age - 2, 0))
    assert [(age, cumulative[age], largest[age]) for age, _, _ in _4X3_STATES] == list(_4X3_STATES)
    assert _4X3_STATES[-1][0] == counts[-1][0] and total == 1_152_817_492_752  # the paper's 1.15e12
    for age, _ in counts:  # every bounded forward pass within 3% of the published states
        states = estimate_solve(4, 3, forward_only=True, max_age=age).states
        assert abs(states - cumulative[age]) <= 0.03 * cumulative[age], age
    transposed, bounded = (
        estimate_solve(*size, forward_only=True, max_age=age) for size, age in (((3, 4), 121), ((4, 3), 120))
    )
    assert (transposed.states, transposed.disk_bytes) == (bounded.states, bounded.disk_bytes)


@pytest.mark.parametrize(
    ("rows", "cols", "states", "afterstates"),
    [(2, 2, 110, 67), (3, 2, 21_752, 14_883), (2, 4, 4_980_767, 3_406_686), (3, 3, 48_713_519, 31_431_374)],
)
def test_small_boards_are_estimated_by_their_known_counts(rows: int, cols: int, states: int, afterstates: int) -> None:
    needs = estimate_solve(rows, cols)
    assert (needs.states, needs.afterstates, needs.upper_bound) == (states, afterstates, False)
    assert needs.to_list == states + afterstates and needs.to_value == states
    assert 16 * states + 8 * afterstates <= needs.disk_bytes <= 16 * states + 8 * afterstates + 2**24
    assert estimate_solve(rows, cols, compact=True).disk_bytes < needs.disk_bytes
    assert estimate_solve(rows, cols, forward_only=True, max_age=20).upper_bound


def test_the_3x3_time_is_that_measured_on_two_cores() -> None:
    needs = estimate_solve(3, 3, workers=2)
    if needs.cores == 2:
        assert 40 <= needs.seconds <= 120  # 73.8 s measured


def fake_machine(monkeypatch: pytest.MonkeyPatch, free: int, memory: int = 16 * GIB) -> None:
    monkeypatch.setattr(solver_estimate, "free_disk", lambda path: free)
    monkeypatch.setattr(solver_estimate, "_available_memory", lambda: memory)


def test_a_4x3_solve_is_refused_with_its_estimate(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_machine(monkeypatch, free=500 * GIB)
    folder = tmp_path / "4x3"
    with pytest.raises(JobTooLargeError) as error:
        solve(4, 3, directory=folder)
    message = str(error.value)
    assert "\n" not in message
    for part in ("solving 4x3 needs about 1.15e12 states and 7.4e11 afterstates", "22.2 TiB of disk", "days on"):
        assert part in message
    assert f"500.0 GiB of disk free for {folder}" in message and "16.0 GiB of memory available" in message
    assert "force=True" in message
    assert not folder.exists()  # nothing written
    with pytest.raises(JobTooLargeError, match=r"12\.0 TiB of disk"):
        solve(3, 4, directory=folder, compact=True)
    assert estimate(4, 3).refusal(Machine.current(folder)) is not None


def test_force_starts_a_solve_the_estimate_refuses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[str] = []
    monkeypatch.setattr(solver._Solver, "forward", lambda self, pool, max_age: calls.append("forward"))
    monkeypatch.setattr(solver._Solver, "backward", lambda self, pool: calls.append("backward"))
    found = solve(4, 3, directory=tmp_path / "4x3", force=True)
    assert calls == ["forward", "backward"]
    assert isinstance(found, Solution) and (found.rows, found.cols) == (4, 3) and not found.complete


def test_a_bounded_forward_pass_that_fits_needs_no_force(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_machine(monkeypatch, free=50 * GIB)
    assert estimate(4, 3, forward_only=True, max_age=120).refusal(Machine.current(tmp_path)) is None
    with pytest.raises(JobTooLargeError, match=r"more than this machine has \(50\.0 GiB of disk free"):
        solve(4, 3, directory=tmp_path / "far", forward_only=True, max_age=1000)
    counted = solve(4, 3, directory=tmp_path / "near", forward_only=True, max_age=24)
    assert counted.totals().states == sum(n for age, n in published() if age <= 24)
    resumed = estimate(4, 3, directory=tmp_path / "near", forward_only=True, max_age=40)
    assert resumed.resumed and resumed.to_list < estimate(4, 3, forward_only=True, max_age=40).to_list
    assert estimate(4, 3, directory=tmp_path / "near", forward_only=True, max_age=24).to_list == 0


def test_too_little_memory_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_machine(monkeypatch, free=10**15, memory=GIB)
    with pytest.raises(JobTooLargeError, match=r"22\.4 GiB of memory.*\(1\.0 GiB of memory available\)"):
        solve(4, 3, directory=tmp_path)


# ---------------------------------------------------------------------------
# A disk that fills up
# ---------------------------------------------------------------------------


def small_disk(monkeypatch: pytest.MonkeyPatch, folder: Path, size: int) -> None:
    """A disk of ``size`` bytes that holds nothing but ``folder``."""
    real = shutil.disk_usage

    def usage(path: Any) -> Any:
        used = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0
        return real(path)._replace(free=max(0, size - used))

    monkeypatch.setattr(shutil, "disk_usage", usage)


def layer_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("whole") / "2x3"
    solve(2, 3, directory=folder)
    return folder


def assert_resumes_to(folder: Path, reference: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]  # nothing half-written
    Solution(folder)  # what was saved reads back
    resumed = solve(2, 3, directory=folder)
    assert resumed.solved and resumed.expected_score() == Solution(reference).expected_score()
    assert layer_files(folder) == layer_files(reference)


@pytest.mark.parametrize(
    ("room", "where"),
    [
        (200_000, "the forward pass stopped after age"),
        (430_000, "the backward pass stopped at age"),
    ],
)
def test_a_solve_stops_cleanly_when_the_disk_fills_up_and_resumes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, reference: Path, room: int, where: str
) -> None:
    folder = tmp_path / "2x3"
    with monkeypatch.context() as patch:
        small_disk(patch, folder, RESERVE + room)
        with pytest.raises(DiskFullError) as error:
            solve(2, 3, directory=folder)
    message = str(error.value)
    assert "\n" not in message and f"no room left on the disk of {folder}" in message and where in message
    assert "MiB free" in message and "every finished age is saved" in message and "again to resume" in message
    meta = json.loads((folder / "solution.json").read_text())
    assert not meta["backward"]["complete"]
    assert_resumes_to(folder, reference)


def test_a_full_disk_in_a_layer_write_stops_cleanly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, reference: Path
) -> None:
    folder = tmp_path / "2x3"
    writes = [0]
    real = files.atomic_write

    def atomic_write(path: Any, write: Callable[[IO[bytes]], None]) -> None:
        writes[0] += 1

        def half_then_full(handle: IO[bytes]) -> None:
            if writes[0] == 40:
                handle.write(b"\x93NUMPY half a layer")
                raise OSError(errno.ENOSPC, "No space left on device")
            write(handle)

        real(path, half_then_full)

    with monkeypatch.context() as patch:
        patch.setattr(solution, "atomic_write", atomic_write)
        with pytest.raises(DiskFullError, match=r"\(No space left on device\): the forward pass stopped after age"):
            solve(2, 3, directory=folder)
    assert_resumes_to(folder, reference)


def test_a_full_disk_in_the_progress_file_stops_cleanly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, reference: Path
) -> None:
    folder = tmp_path / "2x3"
    writes = [0]
    real = files.write_json

    def write_json(path: Any, data: Any, *, compact: bool = False) -> None:
        writes[0] += 1
        if writes[0] == 150:  # in the backward pass
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data, compact=compact)

    with monkeypatch.context() as patch:
        patch.setattr(solver, "write_json", write_json)
        with pytest.raises(DiskFullError, match="the backward pass stopped at age"):
            solve(2, 3, directory=folder)
    assert_resumes_to(folder, reference)


def test_other_write_errors_are_not_a_full_disk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def refuse(path: Any, data: Any, *, compact: bool = False) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(solver, "write_json", refuse)
    with pytest.raises(PermissionError):
        solve(2, 2, directory=tmp_path / "2x2")
