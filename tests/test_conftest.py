"""A test run in which no test ran fails instead of passing (the hook in ``tests/conftest.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MESSAGE = "error: no test ran"


def run_files(
    folder: Path, files: dict[str, str], costs: str | None, *options: str
) -> subprocess.CompletedProcess[str]:
    """pytest on test files of our own, with ``costs`` (if given) as their recorded seconds."""
    for name, source in files.items():
        (folder / name).write_text(source, encoding="utf-8")
    if costs is not None:
        (folder / "costs.json").write_text(costs, encoding="utf-8")
    # not the project's settings
    (folder / "pytest.ini").write_text("[pytest]\nfile_costs = costs.json\n", encoding="utf-8")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest"]
    return subprocess.run(
        [*command, "-c", str(folder / "pytest.ini"), *options, str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,  # a guard against a hang; two workers start in seconds, or a minute on a loaded machine
    )


def run_pytest(folder: Path, source: str, *options: str) -> subprocess.CompletedProcess[str]:
    return run_files(folder, {"test_sample.py": source}, None, *options)


@pytest.mark.parametrize(
    ("source", "options"),
    [
        ("", ()),  # nothing collected
        ("import pytest\n\n@pytest.mark.skip\ndef test_a():\n    pass\n", ()),  # all skipped
        ("def test_a():\n    pass\n", ("-k", "no_such_test")),  # all deselected
        ("def test_a():\n    pass\n", ("-k", "no_such_test", "-n", "2")),  # on two workers (pytest-xdist)
    ],
    ids=["none-collected", "all-skipped", "all-deselected", "all-deselected-on-two-workers"],
)
def test_a_run_where_no_test_ran_fails(tmp_path: Path, source: str, options: tuple[str, ...]) -> None:
    result = run_pytest(tmp_path, source, *options)
    assert result.returncode == pytest.ExitCode.TESTS_FAILED, result.stdout + result.stderr
    assert MESSAGE in result.stdout


@pytest.mark.parametrize(
    "options", [(), ("--collect-only",), ("-n", "2")], ids=["run", "collect-only", "on-two-workers"]
)
def test_a_run_where_a_test_ran_passes(tmp_path: Path, options: tuple[str, ...]) -> None:
    result = run_pytest(
        tmp_path, "import pytest\n\ndef test_a():\n    pass\n\n@pytest.mark.skip\ndef test_b():\n    pass\n", *options
    )
    assert result.returncode == pytest.ExitCode.OK, result.stdout + result.stderr
    assert MESSAGE not in result.stdout


TWO_TESTS = "def test_one():\n    pass\n\ndef test_two():\n    pass\n"


def test_files_run_heaviest_first_new_ones_before_and_the_jit_off_wait_last(tmp_path: Path) -> None:
    files = {
        "test_kernels_without_jit.py": "def test_kernel_tests_pass_without_jit():\n    pass\n",
        "test_light.py": TWO_TESTS,
        "test_heavy.py": TWO_TESTS,
        "test_new.py": TWO_TESTS,
        "test_middle.py": TWO_TESTS,
    }
    costs = '{"test_light.py": 1.5, "test_heavy.py": 90.0, "test_middle.py": 12, "test_kernels_without_jit.py": 500}'
    result = run_files(tmp_path, files, costs, "--collect-only")
    assert result.returncode == pytest.ExitCode.OK, result.stdout + result.stderr
    order = [line.split("::")[0] for line in result.stdout.splitlines() if "::" in line]
    assert order == [
        *["test_new.py"] * 2,
        *["test_heavy.py"] * 2,
        *["test_middle.py"] * 2,
        *["test_light.py"] * 2,
        "test_kernels_without_jit.py",
    ]
    first = [line for line in result.stdout.splitlines() if line.startswith("test_heavy.py::")]
    assert first == ["test_heavy.py::test_one", "test_heavy.py::test_two"]  # a file's own order is kept


def test_recording_updates_the_files_that_ran_keeps_the_others_and_drops_the_gone(tmp_path: Path) -> None:
    files = {
        "test_slow.py": "import time\n\ndef test_slow():\n    time.sleep(0.4)\n",
        "test_quick.py": "def test_quick():\n    pass\n",
        "test_not_run.py": "def test_never():\n    pass\n",
    }
    costs = '{"test_slow.py": 99.0, "test_not_run.py": 7.0, "test_gone.py": 3.0}'
    result = run_files(tmp_path, files, costs, "--record-file-costs", "-k", "slow or quick")
    assert result.returncode == pytest.ExitCode.OK, result.stdout + result.stderr
    recorded = json.loads((tmp_path / "costs.json").read_text(encoding="utf-8"))
    assert set(recorded) == {"test_slow.py", "test_quick.py", "test_not_run.py"}
    assert 0.4 <= recorded["test_slow.py"] < 5
    assert recorded["test_quick.py"] < recorded["test_slow.py"]
    assert recorded["test_not_run.py"] == 7.0
    assert not list(tmp_path.glob("*.part"))


def test_a_file_with_a_failed_test_keeps_its_old_record_the_others_are_updated(tmp_path: Path) -> None:
    files = {
        "test_fails.py": "def test_fails():\n    assert False\n\ndef test_passes():\n    pass\n",
        "test_passes.py": "def test_passes():\n    pass\n",
    }
    result = run_files(tmp_path, files, '{"test_fails.py": 4.0, "test_passes.py": 50.0}', "--record-file-costs")
    assert result.returncode == pytest.ExitCode.TESTS_FAILED
    recorded = json.loads((tmp_path / "costs.json").read_text(encoding="utf-8"))
    assert recorded["test_fails.py"] == 4.0
    assert recorded["test_passes.py"] < 50.0


@pytest.mark.parametrize("costs", ["{not json", '["test_a.py"]', '{"test_a.py": "slow"}'])
def test_a_damaged_record_is_a_one_line_usage_error(tmp_path: Path, costs: str) -> None:
    result = run_files(tmp_path, {"test_a.py": TWO_TESTS}, costs)
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, result.stdout + result.stderr
    assert "costs.json: not a JSON record of each test file's seconds" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


LEAVES = """\
from pathlib import Path

def test_writes_beside_itself():
    Path(__file__).with_name("stray.txt").write_text("x")
    (Path(__file__).parent / "plots").mkdir()  # an empty folder, which git does not list

def test_writes_in_tmp_path(tmp_path):
    (tmp_path / "fine.txt").write_text("x")
"""


@pytest.mark.parametrize("leaves", [True, False], ids=["leaves-files", "writes-in-tmp-path"])
def test_a_run_that_leaves_files_in_the_checkout_fails(tmp_path: Path, leaves: bool) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, timeout=60)
    (tmp_path / ".gitignore").write_text("__pycache__/\n", encoding="utf-8")
    source = LEAVES if leaves else LEAVES.replace("def test_writes_beside_itself", "def _not_a_test")
    result = run_pytest(tmp_path, source)
    message = "error: the tests left files in the checkout (write in tmp_path instead): plots/, stray.txt"
    if leaves:
        assert result.returncode == pytest.ExitCode.TESTS_FAILED, result.stdout + result.stderr
        assert message in result.stdout and "2 passed" in result.stdout
    else:
        assert result.returncode == pytest.ExitCode.OK, result.stdout + result.stderr
        assert "left files" not in result.stdout
