"""A worker plugin for the Dask clusters plyground starts itself: no heartbeat traceback when the cluster closes.

Closing a ``LocalCluster`` can catch a worker in the middle of its heartbeat to the scheduler,
which is going away; the worker then logs "Failed to communicate with scheduler during
heartbeat" with two tracebacks (dask/distributed#7105), after a run that went well. The
scheduler of such a cluster lives in plyground's own process, so a heartbeat can only fail when
that process closes the cluster or is gone: the record says nothing, and is dropped. Every other
record of the worker (memory warnings, failed tasks) is kept.

Imported only where Dask is used (it imports ``distributed``).
"""

from __future__ import annotations

import logging

from distributed import WorkerPlugin

__all__ = ["QuietHeartbeatAtClose"]

_HEARTBEAT_FAILED = "Failed to communicate with scheduler during heartbeat"


def _not_a_failed_heartbeat(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith(_HEARTBEAT_FAILED)


class QuietHeartbeatAtClose(WorkerPlugin):
    """Drops the worker's "failed heartbeat" record; registered on clusters that plyground started."""

    name = "plyground-quiet-heartbeat"

    def setup(self, worker: object) -> None:
        logger = logging.getLogger("distributed.worker")
        if _not_a_failed_heartbeat not in logger.filters:
            logger.addFilter(_not_a_failed_heartbeat)
