"""Shared test settings: hypothesis profiles (``HYPOTHESIS_PROFILE=nojit`` for the slow pure-Python run).

A suite started in the background by a non-interactive shell (``cmd &``) inherits SIGINT
ignored: Python then never raises KeyboardInterrupt, and the commands the tests start
ignore Ctrl-C too. The Ctrl-C tests need it handled as in a terminal, so it is restored.

A run in which no test ran (none collected, all deselected or all skipped) fails: a
wrong path, marker or skip condition must not pass for a green run. So does a run after
which the git checkout it ran in holds a file that git would add and did not hold before
(a test that wrote beside the sources instead of in its ``tmp_path``). Each test process has
a data folder of its own (``PLYGROUND_DATA_DIR``, a temporary folder removed at its end), so that
no test writes in the user's: a test that needs another sets it.

The suite runs on up to four cores (pytest-xdist, ``-n auto`` in ``pyproject.toml``; ``-n 0``
runs it in one process), a test file to a worker, so that a file's fixtures are made once.

Test files are handed to the workers heaviest first, by the seconds each took in a recorded
run (``tests/file_costs.json``; ``--record-file-costs`` updates it from the files whose tests all passed), with
``--no-loadscope-reorder`` in ``pyproject.toml`` so that pytest-xdist keeps that order: a
long file started last would leave the other workers idle at the end. A file not in the
record (a new one) goes first, as it may be heavy; the test that waits for the kernel tests
without the JIT goes last, when they have most likely ended.

The kernel tests without the JIT (``tests/test_kernels_without_jit.py``, minutes on one core)
start in a subprocess as soon as that test is collected, so that they run beside the rest
of the suite; the test waits for them, and a suite that ends first stops them. In a parallel
run the first worker to collect the test starts them in a folder that the controller made,
any worker can wait for them there, and the controller stops them at the end.
"""

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=200, deadline=None)
settings.register_profile("nojit", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_DATA = tempfile.mkdtemp(prefix="plyground-test-data-")
os.environ["PLYGROUND_DATA_DIR"] = _DATA  # the commands that the tests start inherit it
atexit.register(shutil.rmtree, _DATA, ignore_errors=True)

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


_RAN: list[int] = [0]  # tests whose body ran: passed, failed or xfailed
_NONE_RAN: list[bool] = [False]


_UNTRACKED: list[set[str] | None] = []  # the controller's: the checkout's untracked files when the run started
_LEFT: list[str] = []  # untracked files that the run left in the checkout

_NOJIT_TEST = "test_kernels_without_jit.py::test_kernel_tests_pass_without_jit"
_FILE_SECONDS: dict[str, float] = {}  # with --record-file-costs: each file's seconds, setup and teardown included
_FAILED_FILES: set[str] = set()  # files with a test that failed: their seconds may say little


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("file_costs", "the record of each test file's seconds, from the root folder", default="")
    parser.addoption(
        "--record-file-costs",
        action="store_true",
        help="write each test file's seconds in this run to the file_costs record (the order of the next runs)",
    )


def _costs_path(config: pytest.Config) -> Path | None:
    name = str(config.getini("file_costs"))
    return config.rootpath / name if name else None


def _read_costs(path: Path) -> dict[str, float]:
    try:
        costs = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except ValueError as error:
        raise pytest.UsageError(f"{path}: not a JSON record of each test file's seconds ({error})") from None
    if not isinstance(costs, dict) or not all(isinstance(v, int | float) for v in costs.values()):
        raise pytest.UsageError(f"{path}: not a JSON record of each test file's seconds")
    return {str(name): float(seconds) for name, seconds in costs.items()}


def _heaviest_first(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Order the files by their recorded seconds, most first; files not recorded first, the JIT-off wait last."""
    path = _costs_path(config)
    costs = _read_costs(path) if path is not None else {}
    position = {item.nodeid.split("::")[0]: i for i, item in reversed(list(enumerate(items)))}

    def key(item: pytest.Item) -> tuple[int, float, int]:
        name = item.nodeid.split("::")[0]
        if item.nodeid.endswith(_NOJIT_TEST):
            return (2, 0.0, position[name])
        if name not in costs:
            return (0, 0.0, position[name])
        return (1, -costs[name], position[name])

    items.sort(key=key)  # stable: a file's tests keep their order


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and (report.passed or report.failed or hasattr(report, "wasxfail")):
        _RAN[0] += 1
    name = report.nodeid.split("::")[0]
    _FILE_SECONDS[name] = _FILE_SECONDS.get(name, 0.0) + report.duration
    if report.failed:
        _FAILED_FILES.add(name)


def _record_file_costs(config: pytest.Config) -> None:
    path = _costs_path(config)
    assert path is not None  # pytest_configure checked it
    costs = _read_costs(path)  # a run of some files updates theirs; files gone from disk leave the record
    costs.update({name: round(s, 1) for name, s in _FILE_SECONDS.items() if name not in _FAILED_FILES})
    costs = {name: costs[name] for name in sorted(costs) if (config.rootpath / name).is_file()}
    text = json.dumps(costs, indent=1) + "\n"
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


_SHARED: list[Path] = []  # in the controller of a parallel run: the folder of the run without the JIT


def _untracked(root: Path) -> set[str] | None:
    """What the git checkout at ``root`` holds that git does not ignore and does not track (None outside one).

    The files that git would add, and the folders at the top (git does not list an empty one).
    """

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=120)

    try:
        done = git("status", "--porcelain", "--untracked-files=all")
        if done.returncode != 0:
            return None
        folders = sorted(f"{path.name}/" for path in root.iterdir() if path.is_dir() and path.name != ".git")
        ignored = git("check-ignore", *folders).stdout.split()
        tracked = git("ls-files", "--", *folders).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    holding = {name.split("/")[0] + "/" for name in tracked}
    untracked = {line[3:] for line in done.stdout.splitlines() if line.startswith("?? ")}
    return untracked | {name for name in folders if name not in ignored and name not in holding}


def _is_worker(config: pytest.Config) -> bool:
    """A worker of a parallel run (by its config: a pytest that a test starts inherits the worker's environment)."""
    return hasattr(config, "workerinput")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker a core, at most four (the tests that use every core start processes of their own)."""
    return max(1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 4))


def pytest_configure(config: pytest.Config) -> None:
    from tests import test_kernels_without_jit as nojit

    if config.option.record_file_costs and _costs_path(config) is None:
        raise pytest.UsageError("--record-file-costs: the pytest settings name no file_costs record")

    if not _is_worker(config) and not config.option.collectonly:
        _UNTRACKED.append(_untracked(config.rootpath))
    if not _is_worker(config) and getattr(config.option, "numprocesses", None) and not config.option.collectonly:
        _SHARED.append(Path(tempfile.mkdtemp(prefix="plyground-nojit-")))
        os.environ[nojit.SHARED] = str(_SHARED[0])  # the workers, started after this, inherit it
    elif not _is_worker(config):
        os.environ.pop(nojit.SHARED, None)  # a pytest that a test started: not its parent's run


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what they deselect
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Order the files heaviest first; start the kernel tests without the JIT now, if they are to run."""
    _heaviest_first(config, items)
    if config.option.collectonly or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    if any(item.nodeid.endswith(_NOJIT_TEST) for item in items):
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
    if session.config.option.record_file_costs and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        _record_file_costs(session.config)
    before = _UNTRACKED[0] if _UNTRACKED else None
    after = _untracked(session.config.rootpath) if before is not None else None
    if before is not None and after is not None and after - before:
        _LEFT[:] = sorted(after - before)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if _RAN[0] or exitstatus not in (pytest.ExitCode.OK, 5):
        return
    _NONE_RAN[0] = True
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _LEFT:
        shown = ", ".join(_LEFT[:5]) + (f" and {len(_LEFT) - 5} more" if len(_LEFT) > 5 else "")
        terminalreporter.write_sep(
            "=", f"error: the tests left files in the checkout (write in tmp_path instead): {shown}", red=True
        )
    if _NONE_RAN[0]:
        terminalreporter.write_sep("=", "error: no test ran (none collected, or all deselected or skipped)", red=True)
