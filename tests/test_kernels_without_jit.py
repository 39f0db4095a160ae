"""Kernel bodies run as plain Python (``NUMBA_DISABLE_JIT=1``) must agree with the naive twins too.

Compiled and interpreted numba code can differ (an untyped ``b + 1`` on a uint64 is
int64 under JIT, uint64 without), so the kernel tests run once more in a subprocess
with the JIT off: the tests marked ``kernel``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The kernel tests are those marked ``kernel``; 149 of them when the marker replaced a
# hand-kept list of test ids. Fewer means the marker was lost somewhere.
AT_LEAST = 149


def test_kernel_tests_pass_without_jit() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "HYPOTHESIS_PROFILE": "nojit"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-W",
            "ignore::RuntimeWarning",
            "-m",
            "kernel",
            "tests",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    nothing = result.returncode == pytest.ExitCode.NO_TESTS_COLLECTED or "error: no test ran" in result.stdout
    assert not nothing, "the kernel marker selects no test"
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    summary = result.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary
    passed = re.search(r"(\d+) passed", summary)
    assert passed is not None and int(passed.group(1)) >= AT_LEAST, summary
