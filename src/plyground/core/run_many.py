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

>>> run_many(abs, [-3, 2, -1], workers=1)
[3, 2, 1]
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, TypeVar

from plyground.errors import DependencyNotInstalled, InvalidInputError, PlygroundError, install_command

__all__ = ["Backend", "Pool", "run_many"]

T = TypeVar("T")
R = TypeVar("R")

_CONNECT_TIMEOUT = "10s"


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
            return f"a local Dask cluster of {self.dask_local} workers{limit}"
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
                    ProcessPoolExecutor(max_workers=self.backend.workers or os.cpu_count(), mp_context=context)
                )
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._local is not None and exc[0] is not None:
            self._local.shutdown(wait=False, cancel_futures=True)
        self._stack.close()

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
    with contextlib.ExitStack() as stack:
        if backend.dask_local is not None:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=backend.dask_local,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    host="127.0.0.1",
                    memory_limit=backend.memory_limit or "auto",
                )
            )
            client = stack.enter_context(distributed.Client(cluster))
            from plyground.core._dask_quiet import QuietHeartbeatAtClose

            client.register_plugin(QuietHeartbeatAtClose())
        else:
            try:
                client = distributed.Client(backend.scheduler, timeout=_CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise PlygroundError(f"cannot reach the Dask scheduler {backend.scheduler}: {exc}") from None
            stack.enter_context(client)
        yield client


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
