"""A test run in which no test ran fails instead of passing (the hook in ``tests/conftest.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MESSAGE = "error: no test ran"


def run_pytest(folder: Path, source: str, *options: str) -> subprocess.CompletedProcess[str]:
    (folder / "test_sample.py").write_text(source, encoding="utf-8")
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # not the project's settings
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest"]
    return subprocess.run(
        [*command, "-c", str(folder / "pytest.ini"), *options, str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,  # a guard against a hang; two workers start in seconds, or a minute on a loaded machine
    )


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
