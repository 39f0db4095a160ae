"""Job functions for the run_many tests: module-level, so that other processes can import them."""

from __future__ import annotations

import os
import time


def square_after_a_while(job: tuple[int, float]) -> tuple[int, int]:
    """The square of ``job[0]`` after sleeping ``job[1]`` seconds, and the process that computed it."""
    value, pause = job
    time.sleep(pause)
    return value * value, os.getpid()


def fail_on_three(value: int) -> int:
    """``value``, except that 3 raises."""
    if value == 3:
        raise ValueError("three is not allowed")
    return value


def worker_log_kept(message: str) -> bool:
    """Whether the ``distributed.worker`` logger of the process running this job lets ``message`` through."""
    import logging

    record = logging.LogRecord("distributed.worker", logging.ERROR, __file__, 1, message, None, None)
    return bool(logging.getLogger("distributed.worker").filter(record))
