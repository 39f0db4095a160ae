"""run_many: the same results in job order on one process, a process pool and a Dask LocalCluster."""

from __future__ import annotations

import os
import re

import pytest

from plyground.core import run_many as run_many_module
from plyground.core.run_many import Backend, run_many
from plyground.errors import InvalidInputError, PlygroundError
from tests.core.jobs import fail_on_three, square_after_a_while, worker_log_kept

# Later jobs finish first on a pool: the results must still come back in job order.
JOBS = [(value, 0.3 - 0.05 * value) for value in range(6)]
SQUARES = [value * value for value in range(6)]


def test_in_this_process_keeps_order_and_reports_each_result() -> None:
    seen: list[tuple[int, int]] = []
    results = run_many(
        square_after_a_while, [(v, 0.0) for v in range(6)], workers=1, on_result=lambda i, r: seen.append((i, r[0]))
    )
    assert [square for square, _ in results] == SQUARES
    assert {pid for _, pid in results} == {os.getpid()}
    assert seen == list(enumerate(SQUARES))


def test_a_process_pool_gives_the_results_in_job_order() -> None:
    seen: list[int] = []
    results = run_many(square_after_a_while, JOBS, workers=2, on_result=lambda i, r: seen.append(i))
    assert [square for square, _ in results] == SQUARES
    pids = {pid for _, pid in results}
    assert os.getpid() not in pids and len(pids) == 2
    assert sorted(seen) == list(range(6)) and seen != list(range(6))  # reported as they finished


def worker_memory_limit(_: int) -> int:
    from dask.distributed import get_worker

    return int(get_worker().memory_manager.memory_limit)


def test_a_local_dask_cluster_gives_the_same_results() -> None:
    pytest.importorskip("dask.distributed")
    results = run_many(square_after_a_while, JOBS, backend=Backend(dask_local=2))
    assert [square for square, _ in results] == SQUARES
    assert os.getpid() not in {pid for _, pid in results}


def test_a_local_dask_cluster_s_workers_get_the_memory_limit() -> None:
    pytest.importorskip("dask.distributed")
    backend = Backend(dask_local=1, memory_limit=3 * 2**28)
    assert run_many(worker_memory_limit, [0, 1], backend=backend) == [3 * 2**28] * 2
    assert backend.describe() == "a local Dask cluster of 1 workers, 0.75 GiB each"


def test_a_local_dask_cluster_s_workers_drop_only_the_heartbeat_record_of_its_closing() -> None:
    pytest.importorskip("dask.distributed")
    messages = [
        "Failed to communicate with scheduler during heartbeat.",  # dask/distributed#7105, as the cluster closes
        "Worker is at 85% memory usage. Pausing worker.",
        "Compute Failed",
    ]
    assert run_many(worker_log_kept, messages, backend=Backend(dask_local=1)) == [False, True, True]
    assert run_many(worker_log_kept, messages, workers=1) == [True, True, True]  # this process is untouched


@pytest.mark.parametrize("backend", [Backend(workers=1), Backend(workers=2)])
def test_a_failing_job_raises_its_error(backend: Backend) -> None:
    with pytest.raises(ValueError, match="three is not allowed"):
        run_many(fail_on_three, list(range(6)), backend=backend)


def test_no_jobs_no_results() -> None:
    assert run_many(fail_on_three, [], workers=2) == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"workers": 0}, "workers must be a positive integer"),
        ({"dask_local": True}, "dask_local must be a positive integer"),
        ({"scheduler": "tcp://127.0.0.1:1", "dask_local": 2}, "not both"),
        ({"scheduler": " "}, "scheduler address"),
        ({"dask_local": 2, "memory_limit": 2**20}, "memory_limit is a number of bytes of at least 64 MiB"),
        ({"workers": 2, "memory_limit": 2**30}, "memory_limit is for a local Dask cluster"),
    ],
)
def test_bad_backends_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        Backend(**kwargs)  # type: ignore[arg-type]


def test_an_unreachable_scheduler_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr(run_many_module, "_CONNECT_TIMEOUT", "1s")
    with pytest.raises(PlygroundError, match=re.escape("cannot reach the Dask scheduler tcp://127.0.0.1:1")):
        run_many(fail_on_three, [1], backend=Backend(scheduler="tcp://127.0.0.1:1"))


def test_a_running_scheduler_given_by_address_gives_the_same_results() -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        results = run_many(square_after_a_while, JOBS, backend=Backend(scheduler=cluster.scheduler_address))
    assert [square for square, _ in results] == SQUARES
    assert os.getpid() not in {pid for _, pid in results}


def test_a_pool_runs_many_rounds_on_the_same_workers() -> None:
    from plyground.core.run_many import Pool

    with Pool(Backend(workers=2)) as pool:
        first = set(pool.map(_pid, range(6)))
        second = set(pool.map(_pid, range(6)))
        assert pool.map(abs, [-3, 2, -1]) == [3, 2, 1]
    assert os.getpid() not in first and len(first | second) <= 2  # two rounds, the same two processes
    with Pool(Backend(workers=1)) as pool:
        assert pool.map(_pid, [0]) == [os.getpid()]


def _pid(_: int) -> int:
    return os.getpid()
