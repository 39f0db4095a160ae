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
