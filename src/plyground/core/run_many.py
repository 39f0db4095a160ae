"""Run many independent jobs on a local process pool, or on a Dask cluster.

Games, tuning evaluations and other heavy runs are made of independent jobs: a
top-level function and one argument per job (a seed and settings). :func:`run_many`
runs them

* in this process, one after the other, with ``workers=1``;
* on a local process pool of ``workers`` processes (default: every core), started with
  ``spawn`` so that no thread state of the parent is copied into the children;
* on a Dask cluster: an existing one (``scheduler="tcp://host:8786"``) or a
  ``LocalCluster`` of ``dask_local`` worker processes started for the run
  (the ``cluster`` extra).

The results come back in the order of the jobs, whatever finished first, so the same
jobs give the same results everywhere. ``on_result(index, result)`` is called in this
process as each job finishes: progress bars and checkpoints hang off it.

Ctrl-C is this process's to handle. A terminal sends it to every process of the command, the
workers of a local pool or a local Dask cluster included: they ignore it from the moment they
start, and this process, once interrupted, cancels the jobs and ends the workers, quietly. (A
Ctrl-C in the seconds a local Dask cluster takes to start is ignored too: its processes are
started by Dask's threads, and can only inherit the ignoring from this process.)

>>> run_many(abs, [-3, 2, -1], workers=1)
[3, 2, 1]
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from types import TracebackType
from typing import Any, TypeVar

from plyground.errors import DependencyNotInstalled, InvalidInputError, PlygroundError, install_command

__all__ = ["Backend", "Pool", "run_many"]

T = TypeVar("T")
R = TypeVar("R")

_CONNECT_TIMEOUT = "10s"
MANAGER_JOIN_S = 10.0
"""How long an interrupted pool's managing thread may take to end (see :func:`_end_workers`)."""


@dataclass(frozen=True)
class Backend:
    """Where :func:`run_many` runs its jobs; at most one of ``scheduler`` and ``dask_local`` is set.

    Attributes:
        workers: local processes (None: every core; 1: in this process).
        scheduler: the address of a running Dask scheduler, ``tcp://host:8786``.
        dask_local: start a Dask ``LocalCluster`` of this many worker processes for the run.
        memory_limit: with ``dask_local``, the bytes each worker may hold: Dask pauses a worker
            near it and restarts one past it (the workers of a running cluster have their own
            ``--memory-limit``).
    """

    workers: int | None = None
    scheduler: str | None = None
    dask_local: int | None = None
    memory_limit: int | None = None

    def __post_init__(self) -> None:
        for name in ("workers", "dask_local"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise InvalidInputError(f"{name} must be a positive integer, got {value!r}")
        limit = self.memory_limit
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 2**26:
                raise InvalidInputError(f"memory_limit is a number of bytes of at least 64 MiB, got {limit!r}")
            if self.dask_local is None:
                raise InvalidInputError(
                    "memory_limit is for a local Dask cluster (dask_local): a running cluster's workers have their "
                    "own --memory-limit"
                )
        if self.scheduler is not None and self.dask_local is not None:
            raise InvalidInputError("give a Dask scheduler address or a local Dask cluster size, not both")
        if self.scheduler is not None and (not isinstance(self.scheduler, str) or not self.scheduler.strip()):
            raise InvalidInputError(f"the scheduler address must be like tcp://host:8786, got {self.scheduler!r}")

    @property
    def uses_dask(self) -> bool:
        """The jobs run on a Dask cluster."""
        return self.scheduler is not None or self.dask_local is not None

    def describe(self) -> str:
        """A few words on where the jobs run, for progress lines."""
        if self.scheduler is not None:
            return f"Dask scheduler {self.scheduler}"
        if self.dask_local is not None:
            limit = "" if self.memory_limit is None else f", {self.memory_limit / 2**30:.2f} GiB each"
            plural = "s" if self.dask_local != 1 else ""  # core: apps.text's counted() is not at hand
            return f"a local Dask cluster of {self.dask_local} worker{plural}{limit}"
        workers = self.workers or os.cpu_count() or 1
        return "this process" if workers == 1 else f"{workers} local processes"


def run_many(
    func: Callable[[T], R],
    jobs: Sequence[T],
    *,
    backend: Backend | None = None,
    workers: int | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """Run ``func(job)`` for every job and return the results in the order of ``jobs``.

    ``func`` must be a module-level function and the jobs picklable (they travel to other
    processes). A job that raises stops the run: the jobs not yet started are cancelled and
    the error is raised here.

    Args:
        func: the job function.
        jobs: one argument per job.
        backend: where to run (default: a local pool of ``workers`` processes).
        workers: shorthand for ``Backend(workers=...)`` when no ``backend`` is given.
        on_result: called with ``(index, result)`` as each job finishes, in this process.

    Raises:
        InvalidInputError: a bad backend.
        DependencyNotInstalled: Dask is asked for but not installed.
        PlygroundError: the Dask scheduler cannot be reached.
    """
    if backend is None:
        backend = Backend(workers=workers)
    elif workers is not None:
        raise InvalidInputError("give workers or a backend, not both")
    jobs = list(jobs)
    if not jobs:
        return []
    if not backend.uses_dask:  # no more processes than jobs
        backend = Backend(workers=min(backend.workers or os.cpu_count() or 1, len(jobs)))
    with Pool(backend) as pool:
        return pool.map(func, jobs, on_result=on_result)


class Pool:
    """Workers kept for many rounds of jobs: a context manager whose :meth:`map` is :func:`run_many`'s.

    A job's run that takes many rounds (the sharded solver: every age a round) starts its
    process pool or Dask cluster once::

        with Pool(Backend(dask_local=2)) as pool:
            for round_ in rounds:
                pool.map(func, round_)

    Raises:
        DependencyNotInstalled: Dask is asked for but not installed.
        PlygroundError: the Dask scheduler cannot be reached.
    """

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._stack = contextlib.ExitStack()
        self._local: ProcessPoolExecutor | None = None
        self._client: Any = None

    def __enter__(self) -> Pool:
        try:
            if self.backend.uses_dask:
                self._client = self._stack.enter_context(_dask_client(self.backend))
            elif (self.backend.workers or os.cpu_count() or 1) > 1:
                context = multiprocessing.get_context("spawn")
                self._local = self._stack.enter_context(
                    ProcessPoolExecutor(
                        max_workers=self.backend.workers or os.cpu_count(),
                        mp_context=context,
                        initializer=_ignore_ctrl_c,
                    )
                )
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._local is not None and kind is not None:  # interrupted, or a job failed: no result is awaited
            _end_workers(self._local)
        self._stack.__exit__(kind, error, trace)

    def map(
        self, func: Callable[[T], R], jobs: Sequence[T], *, on_result: Callable[[int, R], None] | None = None
    ) -> list[R]:
        """Run ``func(job)`` for every job; the results in the order of ``jobs`` (as :func:`run_many`)."""
        jobs = list(jobs)
        if self._client is not None:
            return _map_dask(self._client, func, jobs, on_result)
        if self._local is not None:
            return _map_pool(self._local, func, jobs, on_result)
        results = []
        for index, job in enumerate(jobs):
            result = func(job)
            if on_result is not None:
                on_result(index, result)
            results.append(result)
        return results


def _map_pool(
    pool: ProcessPoolExecutor, func: Callable[[T], R], jobs: list[T], on_result: Callable[[int, R], None] | None
) -> list[R]:
    results: dict[int, R] = {}
    with _workers_start_deaf():  # submitting starts the workers
        pending: dict[Future[R], int] = {pool.submit(func, job): index for index, job in enumerate(jobs)}
    try:
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                results[index] = future.result()
                if on_result is not None:
                    on_result(index, results[index])
    except BaseException:
        for future in pending:
            future.cancel()
        raise
    return [results[index] for index in range(len(jobs))]


def _ignore_ctrl_c() -> None:
    """A pool worker's first step: ignore Ctrl-C (the parent handles it), and take signals again."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # also drops a Ctrl-C held back while the worker started
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _workers_start_deaf() -> Iterator[None]:
    """While inside, the workers started from this thread start with Ctrl-C blocked; this process takes it on leaving.

    A worker interrupted while it starts (importing plyground, loading its kernels) would print a
    traceback; a blocked signal waits, inherited, until :func:`_ignore_ctrl_c` drops it. In the main
    thread a Ctrl-C that comes meanwhile is held and raised here on leaving, so that no worker is
    left half started.
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    held: list[int] = []

    def hold(signum: int, frame: object) -> None:
        held.append(signum)

    swap = threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is not None
    previous = signal.signal(signal.SIGINT, hold) if swap else None
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if swap:
            signal.signal(signal.SIGINT, previous)
        if held:
            signal.raise_signal(signal.SIGINT)


@contextlib.contextmanager
def _ignoring_ctrl_c() -> Iterator[None]:
    """While inside, this process ignores Ctrl-C, and so do the processes it starts, to the end of their lives.

    For a Dask cluster, whose processes are started by Dask's own threads (which signal masks do
    not reach): a Ctrl-C while it starts is lost, where it would leave it half started.
    """
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous is None:
        yield
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _logger_level(name: str, level: int) -> Iterator[None]:
    """While inside, the logger ``name`` has ``level``."""
    logger = logging.getLogger(name)
    previous = logger.level
    logger.setLevel(level)
    try:
        yield
    finally:
        logger.setLevel(previous)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel the jobs not started and end the pool's workers now: they ignore Ctrl-C, and would finish their jobs.

    Then wait for the pool's managing thread to end: it closes the pipe that wakes it, and the
    interpreter's exit writes to that pipe without a lock (Python 3.11 to 3.13); a process that exits
    while the thread is closing it prints ``OSError: [Errno 9] Bad file descriptor`` as it ends.
    """
    workers = list((pool._processes or {}).values())  # no public way before Python 3.14's terminate_workers()
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    pool.shutdown(wait=False, cancel_futures=True)  # first: the pool then sees ended workers as shut down
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
    if manager is not None:
        manager.join(timeout=MANAGER_JOIN_S)


def _dask() -> Any:
    try:
        from dask import distributed
    except ImportError:
        raise DependencyNotInstalled(f"running on Dask needs dask.distributed: {install_command('cluster')}") from None
    return distributed


@contextlib.contextmanager
def _dask_client(backend: Backend) -> Iterator[Any]:
    """A Dask client: of a ``LocalCluster`` started here (closed after), or of the scheduler named."""
    distributed = _dask()
    with contextlib.ExitStack() as quiet, contextlib.ExitStack() as stack:  # quiet until the cluster is closed
        if backend.dask_local is not None:
            with _ignoring_ctrl_c():  # its processes start ignoring Ctrl-C, as this one does meanwhile
                cluster = stack.enter_context(
                    distributed.LocalCluster(
                        n_workers=backend.dask_local,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address="127.0.0.1:0",  # a free port: Dask's 8787 may be another cluster's
                        host="127.0.0.1",
                        memory_limit=backend.memory_limit or "auto",
                    )
                )
                client = stack.enter_context(distributed.Client(cluster))
            from plyground.core._dask_quiet import IgnoreCtrlC, QuietClose

            client.register_plugin(QuietClose())
            client.register_plugin(IgnoreCtrlC())  # a worker restarted later (past its memory limit) too
        else:
            try:
                client = distributed.Client(backend.scheduler, timeout=_CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise PlygroundError(f"cannot reach the Dask scheduler {backend.scheduler}: {exc}") from None
            stack.enter_context(client)
        try:
            yield client
        except BaseException:
            if backend.dask_local is not None:  # its close kills workers in the middle of a job: no warning of it
                quiet.enter_context(_logger_level("distributed", logging.ERROR))
            raise


def _map_dask(
    client: Any, func: Callable[[T], R], jobs: list[T], on_result: Callable[[int, R], None] | None
) -> list[R]:
    distributed = _dask()
    futures = client.map(func, jobs, pure=False)
    index_of = {future.key: index for index, future in enumerate(futures)}
    results: dict[int, R] = {}
    try:
        for future in distributed.as_completed(futures):
            index = index_of[future.key]
            results[index] = future.result()
            if on_result is not None:
                on_result(index, results[index])
    except BaseException:
        client.cancel(futures)
        raise
    return [results[index] for index in range(len(jobs))]
