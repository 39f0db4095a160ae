"""Kernel bodies run as plain Python (``NUMBA_DISABLE_JIT=1``) must agree with the naive twins too.

Compiled and interpreted numba code can differ (an untyped ``b + 1`` on a uint64 is
int64 under JIT, uint64 without), so the kernel tests run once more in a subprocess
with the JIT off: the tests marked ``kernel``. That run is the suite's longest (minutes, on
one core), so ``tests/conftest.py`` starts it as soon as the test is collected, to run
beside the rest of the suite; the test waits for it and reads its output.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The kernel tests are those marked ``kernel``; 149 of them when the marker replaced a
# hand-kept list of test ids. Fewer means the marker was lost somewhere.
AT_LEAST = 149
TIMEOUT_S = 900
COMMAND = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore::RuntimeWarning"]
COMMAND += ["-n", "0", "-m", "kernel", "tests"]  # in one process: the run itself is what goes beside the suite
SHARED = "PLYGROUND_NOJIT_DIR"
"""Set by ``tests/conftest.py`` for the workers of a parallel run (pytest-xdist): the folder of their one run."""

# Runs the command, then writes its exit status to ``status`` (atomically): any process can wait for the files.
_WRAPPER = """
import os, subprocess, sys
folder = sys.argv[1]
with open(os.path.join(folder, "output.txt"), "w", encoding="utf-8") as output:
    code = subprocess.call(sys.argv[2:], stdout=output, stderr=subprocess.STDOUT)
with open(os.path.join(folder, "status.tmp"), "w", encoding="utf-8") as status:
    status.write(str(code))
os.replace(os.path.join(folder, "status.tmp"), os.path.join(folder, "status"))
"""


class Run:
    """The kernel tests without the JIT, in a subprocess of their own whose output and status go to ``folder``.

    ``start=False`` attaches to a run that another process of the same suite started in ``folder``.
    """

    def __init__(self, folder: Path, start: bool = True) -> None:
        self.folder = folder
        if start:
            env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "HYPOTHESIS_PROFILE": "nojit"}
            env.pop(SHARED, None)
            command = [sys.executable, "-c", _WRAPPER, str(folder), *COMMAND]
            process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
            (folder / "pid").write_text(str(process.pid), encoding="utf-8")

    def wait(self) -> tuple[int, str]:
        """Its exit status and output, once it has ended."""
        status = self.folder / "status"
        deadline = time.monotonic() + TIMEOUT_S
        try:
            while not status.exists():
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the kernel tests without the JIT took over {TIMEOUT_S} s")
                time.sleep(0.2)
        except BaseException:  # too long, or Ctrl-C: it must not outlive the suite
            self.stop()
            raise
        return int(status.read_text(encoding="utf-8")), (self.folder / "output.txt").read_text(encoding="utf-8")

    def stop(self) -> None:
        """End it, if it still runs (the suite ended first, or was interrupted)."""
        pid = self.folder / "pid"
        if pid.exists() and not (self.folder / "status").exists():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(int(pid.read_text(encoding="utf-8")), signal.SIGKILL)


STARTED: list[Run] = []
"""The run ``tests/conftest.py`` started when it collected the test (empty if it did not)."""


def start(folder: Path | None = None) -> Run:
    """A new run, in ``folder`` or in a new temporary folder."""
    return Run(folder if folder is not None else Path(tempfile.mkdtemp(prefix="plyground-nojit-")))


def test_kernel_tests_pass_without_jit() -> None:
    shared = os.environ.get(SHARED)
    if STARTED:
        run = STARTED.pop()
    elif shared is not None and (Path(shared) / "run").exists():
        run = Run(Path(shared) / "run", start=False)  # another worker of this parallel run started it
    else:
        run = start()
    code, text = run.wait()
    if shared is None:
        shutil.rmtree(run.folder, ignore_errors=True)
    nothing = code == pytest.ExitCode.NO_TESTS_COLLECTED or "error: no test ran" in text
    assert not nothing, "the kernel marker selects no test"
    assert code == 0, text[-6000:]
    summary = text.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary
    passed = re.search(r"(\d+) passed", summary)
    assert passed is not None and int(passed.group(1)) >= AT_LEAST, summary
