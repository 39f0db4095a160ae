"""Job functions for the run_many tests: module-level, so that other processes can import them."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


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


def worker_log_kept(job: tuple[str, str]) -> bool:
    """Whether the logger ``job[0]`` of the process running this job lets the message ``job[1]`` through."""
    import logging

    name, message = job
    record = logging.LogRecord(name, logging.WARNING, __file__, 1, message, None, None)
    return bool(logging.getLogger(name).filter(record))


def square_once_told(job: tuple[int, str | None, str | None]) -> tuple[int, int]:
    """The square of ``job[0]`` and the process that computed it; the job first waits (a minute at most) until the
    file ``job[1]`` exists, if given, and in the end creates the file ``job[2]``, if given."""
    value, wait_for, then_create = job
    deadline = time.monotonic() + 60
    while wait_for is not None and not Path(wait_for).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    if then_create is not None:
        Path(then_create).touch()
    return value * value, os.getpid()


def ignores_ctrl_c(_: int) -> bool:
    """Whether the process running this job ignores SIGINT."""
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def write_pid_then_sleep(folder: str | None) -> int:
    """Write this process's id to ``folder``/pid, sleep 30 s, then create ``folder``/finished (no folder: return)."""
    if folder is None:
        return os.getpid()
    Path(folder, "pid.tmp").write_text(str(os.getpid()))
    Path(folder, "pid.tmp").rename(Path(folder, "pid"))
    time.sleep(30)
    Path(folder, "finished").touch()
    return os.getpid()
