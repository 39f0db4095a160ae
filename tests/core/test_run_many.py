"""run_many: the same results in job order on one process, a process pool and a Dask LocalCluster."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import time
from pathlib import Path

import pytest

from plyground.core import run_many as run_many_module
from plyground.core.run_many import Backend, run_many
from plyground.errors import InvalidInputError, PlygroundError
from tests.core.jobs import (
    fail_on_three,
    ignores_ctrl_c,
    square_after_a_while,
    square_once_told,
    worker_log_kept,
    write_pid_then_sleep,
)

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


def test_a_process_pool_gives_the_results_in_job_order(tmp_path: Path) -> None:
    seen: list[int] = []
    results = run_many(square_after_a_while, JOBS, workers=2, on_result=lambda i, r: seen.append(i))
    assert [square for square, _ in results] == SQUARES
    pids = {pid for _, pid in results}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2  # which worker takes which job is the pool's choice
    assert sorted(seen) == list(range(6))


def test_a_process_pool_reports_each_result_as_it_comes_and_gives_them_in_job_order(tmp_path: Path) -> None:
    # Job 0 waits until this process has been told the results of jobs 1 and 2: it is reported last, whatever
    # the scheduling, and only if results are reported as they come (not in job order).
    told = tmp_path / "jobs 1 and 2 reported"
    jobs = [(0, str(told), None), (1, None, None), (2, None, None)]
    seen: list[int] = []

    def on_result(index: int, _: tuple[int, int]) -> None:
        seen.append(index)
        if {1, 2} <= set(seen):
            told.touch()

    results = run_many(square_once_told, jobs, workers=2, on_result=on_result)
    assert [square for square, _ in results] == [0, 1, 4]
    assert seen[-1] == 0 and sorted(seen) == [0, 1, 2]
    assert os.getpid() not in {pid for _, pid in results}


@pytest.mark.parametrize("backend", [Backend(workers=2), Backend(dask_local=1)], ids=["pool", "dask"])
def test_workers_ignore_ctrl_c_which_is_this_process_s_to_handle(backend: Backend) -> None:
    if backend.uses_dask:
        pytest.importorskip("dask.distributed")
    assert run_many(ignores_ctrl_c, [0, 1], backend=backend) == [True, True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # this process is untouched


def test_an_interrupted_pool_ends_its_workers_without_waiting_for_their_jobs(tmp_path: Path) -> None:
    def interrupt_once_the_other_job_runs(index: int, result: object) -> None:
        deadline = time.monotonic() + 60
        while not (tmp_path / "pid").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        raise KeyboardInterrupt  # as a Ctrl-C in this process would

    jobs = [None, str(tmp_path)]
    with pytest.raises(KeyboardInterrupt):
        run_many(write_pid_then_sleep, jobs, workers=2, on_result=interrupt_once_the_other_job_runs)
    assert (tmp_path / "pid").exists() and not (tmp_path / "finished").exists()  # ended, not waited for
    with pytest.raises(ProcessLookupError):
        os.kill(int((tmp_path / "pid").read_text()), 0)


def worker_memory_limit(_: int) -> int:
    from dask.distributed import get_worker

    return int(get_worker().memory_manager.memory_limit)


def test_a_local_dask_cluster_gives_the_same_results() -> None:
    pytest.importorskip("dask.distributed")
    results = run_many(square_after_a_while, JOBS, backend=Backend(dask_local=2))
    assert [square for square, _ in results] == SQUARES
    assert os.getpid() not in {pid for _, pid in results}


def test_a_second_local_dask_cluster_starts_without_a_warning(recwarn: pytest.WarningsRecorder) -> None:
    pytest.importorskip("dask.distributed")
    with contextlib.ExitStack() as stack:
        other = stack.enter_context(socket.socket())
        with contextlib.suppress(OSError):  # else something holds Dask's dashboard port already, as wanted
            other.bind(("", 8787))
            other.listen()
        assert run_many(abs, [-1, 2], backend=Backend(dask_local=1)) == [1, 2]
    assert not [str(warning.message) for warning in recwarn if "already in use" in str(warning.message)]


def test_a_local_dask_cluster_s_workers_get_the_memory_limit() -> None:
    pytest.importorskip("dask.distributed")
    backend = Backend(dask_local=1, memory_limit=3 * 2**28)
    assert run_many(worker_memory_limit, [0, 1], backend=backend) == [3 * 2**28] * 2
    assert backend.describe() == "a local Dask cluster of 1 worker, 0.75 GiB each"


def test_a_local_dask_cluster_s_workers_drop_only_the_records_of_its_closing() -> None:
    pytest.importorskip("dask.distributed")
    worker, state = "distributed.worker", "distributed.worker.state_machine"
    messages = [
        (worker, "Failed to communicate with scheduler during heartbeat."),  # dask/distributed#7105, at its close
        (
            state,
            "Async instruction for <Task cancelled name='execute(play)'> ended with CancelledError",
        ),  # closed mid-job
        (worker, "Worker is at 85% memory usage. Pausing worker."),
        (worker, "Compute Failed"),
        (state, "Async instruction for <Task finished name='execute(play)'> ended with ValueError"),
    ]
    kept = [False, False, True, True, True]
    assert run_many(worker_log_kept, messages, backend=Backend(dask_local=1)) == kept
    assert run_many(worker_log_kept, messages, workers=1) == [True] * 5  # this process is untouched


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
