"""Kernel bodies run as plain Python (``NUMBA_DISABLE_JIT=1``) must agree with the naive twins too.

Compiled and interpreted numba code can differ (an untyped ``b + 1`` on a uint64 is
int64 under JIT, uint64 without), so the kernel tests run once more in a subprocess
with the JIT off: the tests marked ``kernel``. That run is the suite's longest (minutes, on
one core), so ``tests/conftest.py`` starts it as soon as the test is collected, to run
beside the rest of the suite; the test waits for it and reads its output.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The kernel tests are those marked ``kernel``; 149 of them when the marker replaced a
# hand-kept list of test ids. Fewer means the marker was lost somewhere.
AT_LEAST = 149
TIMEOUT_S = 900
COMMAND = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore::RuntimeWarning"]
COMMAND += ["-m", "kernel", "tests"]


class Run:
    """The kernel tests without the JIT, running in a subprocess; its output goes to a temporary file."""

    def __init__(self) -> None:
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "HYPOTHESIS_PROFILE": "nojit"}
        self.output: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed in wait/stop)
        self.process = subprocess.Popen(COMMAND, cwd=ROOT, env=env, stdout=self.output, stderr=subprocess.STDOUT)

    def wait(self) -> tuple[int, str]:
        """Its exit status and output, once it has ended."""
        try:
            code = self.process.wait(timeout=TIMEOUT_S)
        except BaseException:  # too long, or Ctrl-C: it must not outlive the suite
            self.stop()
            raise
        self.output.seek(0)
        text = self.output.read()
        self.output.close()
        return code, text

    def stop(self) -> None:
        """End it (the suite ended first, or was interrupted)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.output.close()


STARTED: list[Run] = []
"""The run ``tests/conftest.py`` started when it collected the test (empty if it did not)."""


def test_kernel_tests_pass_without_jit() -> None:
    run = STARTED.pop() if STARTED else Run()
    code, text = run.wait()
    nothing = code == pytest.ExitCode.NO_TESTS_COLLECTED or "error: no test ran" in text
    assert not nothing, "the kernel marker selects no test"
    assert code == 0, text[-6000:]
    summary = text.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary
    passed = re.search(r"(\d+) passed", summary)
    assert passed is not None and int(passed.group(1)) >= AT_LEAST, summary
