"""Shared test settings: hypothesis profiles (``HYPOTHESIS_PROFILE=nojit`` for the slow pure-Python run).

A suite started in the background by a non-interactive shell (``cmd &``) inherits SIGINT
ignored: Python then never raises KeyboardInterrupt, and the commands the tests start
ignore Ctrl-C too. The Ctrl-C tests need it handled as in a terminal, so it is restored.

A run in which no test ran (none collected, all deselected or all skipped) fails: a
wrong path, marker or skip condition must not pass for a green run.

The suite runs on up to four cores (pytest-xdist, ``-n auto`` in ``pyproject.toml``; ``-n 0``
runs it in one process), a test file to a worker, so that a file's fixtures are made once.

The kernel tests without the JIT (``tests/test_kernels_without_jit.py``, minutes on one core)
start in a subprocess as soon as that test is collected, so that they run beside the rest
of the suite; the test waits for them, and a suite that ends first stops them. In a parallel
run the first worker to collect the test starts them in a folder that the controller made,
any worker can wait for them there, and the controller stops them at the end.
"""

import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=200, deadline=None)
settings.register_profile("nojit", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


_RAN: list[int] = [0]  # tests whose body ran: passed, failed or xfailed
_NONE_RAN: list[bool] = [False]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and (report.passed or report.failed or hasattr(report, "wasxfail")):
        _RAN[0] += 1


_SHARED: list[Path] = []  # in the controller of a parallel run: the folder of the run without the JIT


def _is_worker(config: pytest.Config) -> bool:
    """A worker of a parallel run (by its config: a pytest that a test starts inherits the worker's environment)."""
    return hasattr(config, "workerinput")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker a core, at most four (the tests that use every core start processes of their own)."""
    return max(1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 4))


def pytest_configure(config: pytest.Config) -> None:
    from tests import test_kernels_without_jit as nojit

    if not _is_worker(config) and getattr(config.option, "numprocesses", None) and not config.option.collectonly:
        _SHARED.append(Path(tempfile.mkdtemp(prefix="plyground-nojit-")))
        os.environ[nojit.SHARED] = str(_SHARED[0])  # the workers, started after this, inherit it
    elif not _is_worker(config):
        os.environ.pop(nojit.SHARED, None)  # a pytest that a test started: not its parent's run


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what they deselect
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the kernel tests without the JIT now, beside the rest of the suite, if they are to run."""
    if config.option.collectonly or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    if any(item.nodeid.endswith("test_kernels_without_jit.py::test_kernel_tests_pass_without_jit") for item in items):
        from tests import test_kernels_without_jit as nojit

        shared = os.environ.get(nojit.SHARED)
        if shared is None:
            nojit.STARTED.append(nojit.start())
            return
        try:
            (Path(shared) / "run").mkdir()  # the first worker to get here starts the one run
        except FileExistsError:
            return
        nojit.start(Path(shared) / "run")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    nojit = sys.modules.get("tests.test_kernels_without_jit")
    while nojit is not None and nojit.STARTED:  # the suite ended (or was stopped) before the test read it
        run = nojit.STARTED.pop()
        run.stop()
        shutil.rmtree(run.folder, ignore_errors=True)
    if _SHARED and nojit is not None:  # the controller of a parallel run, after its workers
        nojit.Run(_SHARED[0] / "run", start=False).stop()
        shutil.rmtree(_SHARED.pop(), ignore_errors=True)
    if _is_worker(session.config) or session.config.option.collectonly:
        return  # a worker may run no test; the controller counts them all
    if _RAN[0] or exitstatus not in (pytest.ExitCode.OK, 5):
        return
    _NONE_RAN[0] = True
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _NONE_RAN[0]:
        terminalreporter.write_sep("=", "error: no test ran (none collected, or all deselected or skipped)", red=True)
