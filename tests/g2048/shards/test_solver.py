"""The sharded solver equals the in-memory one exactly, resumes after a kill, and refuses a wrong folder."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plyground.core.run_many import Backend
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.shards.solver import solve_sharded
from plyground.g2048.shards.store import ShardFolder
from plyground.g2048.solver import solve
from tests.kill import kill_when, read_manifest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def in_memory(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("memory")
    return {size: solve(*size, directory=folder / f"{size[0]}x{size[1]}") for size in ((2, 2), (2, 3))}


def assert_same(folder: ShardFolder, solution: Any) -> None:
    """Every age's counts, codes and values equal the in-memory solution's, bit for bit."""
    assert folder.meta["ages"] == solution._meta["ages"]
    assert folder.meta["backward"]["complete"]
    for age in folder.ages:
        codes, values = folder.layer(age)
        expected_codes, expected_values = solution.layer(age)
        assert np.array_equal(codes, expected_codes), age
        assert values is not None and values.tobytes() == expected_values.tobytes(), age


@pytest.mark.parametrize("shards", [1, 4])
def test_equals_the_in_memory_solve(in_memory: Any, tmp_path: Path, shards: int) -> None:
    rounds: list[tuple[str, int, dict[str, float]]] = []
    folder = solve_sharded(
        2, 3, tmp_path / "s", backend=Backend(workers=1), shards=shards,
        on_round=lambda phase, age, totals: rounds.append((phase, age, totals)),
    )  # fmt: skip
    assert_same(folder, in_memory[2, 3])
    assert not (tmp_path / "s" / "work").exists() and not (tmp_path / "s" / "done").exists()
    # Each round says what its tasks stored (to the byte), sent each other, and took.
    stored = {"states": "states", "after": "after", "values": "values"}
    for phase, age, totals in rounds:
        tasks = {"start": 1, "sreq+areq": 2 * shards}.get(phase, shards)
        assert totals["tasks"] == tasks and totals["ran"] == tasks, (phase, age)
        assert totals["seconds"] >= 0 and totals["wall_s"] >= 0
        if phase in stored and age in folder.ages:  # (the first empty age past the last is not kept)
            assert totals["stored_bytes"] == folder.layer_bytes(stored[phase], age), (phase, age)
        elif phase not in stored:
            assert totals["stored_bytes"] == 0, (phase, age)
        if phase in ("start", "states", "sreq+areq", "sans") and age + 2 in folder.ages:
            assert totals["sent_bytes"] > 0, (phase, age)
    phases = [phase for phase, age, _ in rounds if age == 20]
    assert phases == ["states", "after", "sreq+areq", "sans", "aval", "values"]
    after = {age: totals["afterstates"] for phase, age, totals in rounds if phase == "after"}
    assert after == {row[0]: row[5] for row in folder.meta["ages"] if row[0] in after}


def test_forward_only_stops_at_max_age_and_goes_on(in_memory: Any, tmp_path: Path) -> None:
    ages: list[int] = []
    folder = solve_sharded(
        2, 2, tmp_path / "s", backend=Backend(workers=1), shards=2, forward_only=True, max_age=20,
        progress=lambda phase, age, counts: ages.append(age),
    )  # fmt: skip
    assert ages == list(range(4, 21, 2))
    assert folder.meta["ages"] == in_memory[2, 2]._meta["ages"][: len(ages)]
    assert_same(solve_sharded(2, 2, tmp_path / "s", backend=Backend(workers=1), shards=2), in_memory[2, 2])


def solve_until(folder: Path, stop: Callable[[dict[str, Any]], bool]) -> None:
    """Run the sharded 2x3 solve in a child process and SIGKILL it as soon as ``stop(manifest)`` holds."""
    code = (
        "from plyground.core.run_many import Backend; from plyground.g2048.shards.solver import solve_sharded; "
        f"solve_sharded(2, 3, {str(folder)!r}, backend=Backend(workers=1), shards=3)"
    )
    kill_when(code, folder / "sharded.json", stop)


@pytest.mark.slow
def test_killed_in_each_pass_resumes_to_the_same_solution(in_memory: Any, tmp_path: Path) -> None:
    folder = tmp_path / "s"
    solve_until(folder, lambda meta: meta["forward"]["age"] >= 60)
    assert list((folder / "done").iterdir()), "killed between ages: no task of the age in flight was recorded"
    solve_until(folder, lambda meta: (meta["backward"]["age"] or 10**9) <= 150)
    assert_same(solve_sharded(2, 3, folder, backend=Backend(workers=1), shards=3), in_memory[2, 3])


@pytest.mark.slow
def test_on_dask_a_killed_worker_is_replaced_and_nothing_changes(in_memory: Any, tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    psutil = pytest.importorskip("psutil")
    folder = tmp_path / "s"
    code = (
        "from plyground.core.run_many import Backend; from plyground.g2048.shards.solver import solve_sharded; "
        f"solve_sharded(2, 2, {str(folder)!r}, backend=Backend(dask_local=2), shards=3)"
    )
    client = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    try:
        deadline = time.monotonic() + 300
        while (meta := read_manifest(folder / "sharded.json")) is None or meta["forward"]["age"] < 12:
            assert client.poll() is None and time.monotonic() < deadline, "the solve ended before a worker was killed"
            time.sleep(0.01)
        # The LocalCluster's worker processes (started by their nannies in the client process).
        workers = [p for p in psutil.Process(client.pid).children() if "spawn_main" in " ".join(p.cmdline())]
        assert len(workers) == 2, [p.cmdline() for p in psutil.Process(client.pid).children()]
        workers[0].kill()
        assert client.wait(timeout=600) == 0
    finally:
        client.kill()
        client.wait()
    assert_same(ShardFolder.open(folder), in_memory[2, 2])


def test_a_folder_of_other_settings_is_refused(tmp_path: Path) -> None:
    solve_sharded(2, 2, tmp_path / "s", backend=Backend(workers=1), shards=2, forward_only=True, max_age=8)
    for size, shards, p_four in (((2, 3), 2, 0.1), ((2, 2), 3, 0.1), ((2, 2), 2, 0.2)):
        held = re.escape("the sharded solution of 2x2 with p_four 0.1 in 2 shards")
        with pytest.raises(InvalidInputError, match=held):
            solve_sharded(*size, tmp_path / "s", backend=Backend(workers=1), shards=shards, p_four=p_four)
    solve(2, 2, directory=tmp_path / "m", forward_only=True, max_age=8)
    with pytest.raises(InvalidInputError, match="holds an in-memory solution"):
        solve_sharded(2, 2, tmp_path / "m", backend=Backend(workers=1))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(InvalidInputError, match="is not empty and holds no solution"):
        solve_sharded(2, 2, tmp_path / "other", backend=Backend(workers=1))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"shards": 0}, "number of shards must be an integer from 1"),
        ({"shards": 5000}, "number of shards must be an integer from 1"),
        ({"values": "f16"}, "values are stored as one of f64, f32"),
        ({"max_age": 10}, "give it with forward_only=True"),
        ({"p_four": 1.5}, "p_four"),
    ],
)
def test_bad_arguments_are_refused(tmp_path: Path, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        solve_sharded(2, 2, tmp_path / "s", backend=Backend(workers=1), **kwargs)
    assert not (tmp_path / "s").exists() or not any((tmp_path / "s").iterdir())


def test_queries_read_the_sharded_folder(in_memory: Any, tmp_path: Path) -> None:
    from plyground.g2048 import Board
    from plyground.g2048.shards.solution import ShardedSolution, open_solution

    solve_sharded(2, 2, tmp_path / "s", backend=Backend(workers=1), shards=3)
    sharded, memory = open_solution(tmp_path / "s"), in_memory[2, 2]
    assert isinstance(sharded, ShardedSolution) and type(open_solution(memory.directory)) is not ShardedSolution
    assert sharded.expected_score() == memory.expected_score()
    board = Board.from_rows([[2, 2], [0, 4]])
    assert sharded.value(board) == memory.value(board)
    assert sharded.move_values(board) == memory.move_values(board)
    with pytest.raises(InvalidInputError, match="not a reachable 2x2 state"):
        sharded.value(Board.from_rows([[64, 0], [0, 0]]))


@pytest.mark.parametrize("query", ["value", "afterstate_value"])
def test_a_value_no_solution_holds_is_a_damaged_shard(tmp_path: Path, query: str) -> None:
    from plyground.g2048 import Board
    from plyground.g2048.shards.solution import open_solution

    folder = solve_sharded(2, 2, tmp_path / "s", backend=Backend(workers=1), shards=2)
    for age in folder.ages:  # checksums hold: the values were written so, not damaged on the disk
        for shard in range(folder.shards):
            n = folder.read_codes(folder.layer_path("states", age, shard), age).shape[0]
            folder.write_values(folder.layer_path("values", age, shard), np.full(n, -1e300))
    # value() reads the shard of the board; afterstate_value() the layers above it, merged from their shards.
    with pytest.raises(CorruptFileError, match=r"/values-0000\d\.pgv is damaged: it holds -1e\+300, not an expected"):
        getattr(open_solution(tmp_path / "s"), query)(Board.from_rows([[2, 2], [0, 4]]))
