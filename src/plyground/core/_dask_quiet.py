"""Worker plugins for the Dask clusters plyground starts itself: no traceback on Ctrl-C, nor when the cluster closes.

A terminal's Ctrl-C reaches every process of the command, the cluster's workers included; the
process that started the cluster handles it (it cancels the jobs and closes the cluster), so the
workers ignore it (:class:`IgnoreCtrlC`), where they would die of it with a traceback each.

Closing a ``LocalCluster`` can catch a worker in the middle of its heartbeat to the scheduler,
which is going away; the worker then logs "Failed to communicate with scheduler during
heartbeat" with two tracebacks (dask/distributed#7105), after a run that went well. The
scheduler of such a cluster lives in plyground's own process, so a heartbeat can only fail when
that process closes the cluster or is gone: the record says nothing, and is dropped. So is the
warning that a job "ended with CancelledError", which a worker logs only when it is closed in the
middle of a job (a run stopped by Ctrl-C, or by another job's error, which is reported). Every
other record of the worker (memory warnings, failed tasks) is kept.

Imported only where Dask is used (it imports ``distributed``).
"""

from __future__ import annotations

import logging
import signal
import threading

from distributed import WorkerPlugin

__all__ = ["IgnoreCtrlC", "QuietClose"]

_HEARTBEAT_FAILED = "Failed to communicate with scheduler during heartbeat"
_JOB_CANCELLED = ("Async instruction for ", "ended with CancelledError")


def _not_said_at_close(record: logging.LogRecord) -> bool:
    message = str(record.msg)
    if record.name == "distributed.worker":
        return not message.startswith(_HEARTBEAT_FAILED)
    if record.name == "distributed.worker.state_machine":
        return not (message.startswith(_JOB_CANCELLED[0]) and message.endswith(_JOB_CANCELLED[1]))
    return True


class QuietClose(WorkerPlugin):
    """Drops the worker's records that closing the cluster causes; registered on clusters that plyground started."""

    name = "plyground-quiet-close"

    def setup(self, worker: object) -> None:
        for name in ("distributed.worker", "distributed.worker.state_machine"):
            logger = logging.getLogger(name)
            if _not_said_at_close not in logger.filters:
                logger.addFilter(_not_said_at_close)


class IgnoreCtrlC(WorkerPlugin):
    """Makes the worker's process ignore Ctrl-C (SIGINT); registered on clusters that plyground started."""

    name = "plyground-ignore-ctrl-c"

    def setup(self, worker: object) -> None:
        if threading.current_thread() is threading.main_thread():  # where a worker's event loop runs
            signal.signal(signal.SIGINT, signal.SIG_IGN)
