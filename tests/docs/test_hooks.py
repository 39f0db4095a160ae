"""The MkDocs hooks of ``docs/hooks``: benchmark results rendered from JSON lines, doctests shown as code."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.docs.blocks import DOCS

HOOKS = DOCS / "hooks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"docs_hooks_{name}", HOOKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


benchmarks = load("benchmarks")
doctests = load("doctests")


def run(benchmark: str, date: str, commit: str, results: dict[str, Any], *, dirty: bool = False) -> str:
    machine = {"cpu": "Example CPU 3000", "cores": 2, "memory_gib": 7.75, "python": "3.11.2", "numba": "0.60.0"}
    line = {"benchmark": benchmark, "date": date, "commit": commit, "dirty": dirty, "machine": machine}
    return json.dumps({**line, "results": results})


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with three benchmark scripts: engine with two runs, search with an empty file, solver with none."""
    scripts = tmp_path / "benchmarks"
    results = scripts / "results"
    results.mkdir(parents=True)
    for name in ("engine", "search", "solver", "_common"):
        (scripts / f"{name}.py").write_text("")
    older = run("engine", "2026-11-30T08:00:00Z", "1111111aaaaaaaaa", {"moves_per_s": {"numba": 1.0}})
    latest = run(
        "engine",
        "2026-12-01T14:03:05Z",
        "293b0fe0123456789abcdef",
        {
            "moves_per_s": {"numba": 23_100_000, "native_c": 17_100_000.0},
            "numba_vs_native": 1.3509,
            "rows": [{"depth": 3, "ratio": 0.91}],
            "sizes": ["2x2", "3x3"],
            "ok": True,
        },
        dirty=True,
    )
    (results / "engine.jsonl").write_text(f"{older}\n{latest}\n")
    (results / "search.jsonl").write_text("")
    (tmp_path / "mkdocs.yml").write_text("site_name: test\n")
    return tmp_path


def config(project: Path) -> dict[str, Any]:
    return {"config_file_path": str(project / "mkdocs.yml"), "extra": {"benchmark_results": "benchmarks/results"}}


def test_the_marker_becomes_the_latest_run_of_every_benchmark(project: Path) -> None:
    page = "# Benchmarks\n\n<!-- benchmark-results -->\n\nAfter.\n"
    out = benchmarks.on_page_markdown(page, page=None, config=config(project), files=None)

    assert "<!--" not in out and out.startswith("# Benchmarks") and out.endswith("After.\n")
    engine, search, solver = (out.index(f"### {name}") for name in ("engine", "search", "solver"))
    assert engine < search < solver and "### _common" not in out
    section = out[engine:search]
    assert "| date | 2026-12-01 14:03 UTC |" in section
    assert "`293b0fe01234` (with uncommitted changes)" in section
    assert "Example CPU 3000, 2 cores, 7.8 GiB memory, Python 3.11.2, numba 0.60.0" in section
    assert "| runs recorded | 2 (the latest shown) |" in section
    assert "| `moves_per_s.numba` | 23,100,000 |" in section
    assert "| `moves_per_s.native_c` | 17,100,000 |" in section
    assert "| `numba_vs_native` | 1.351 |" in section
    assert "| `rows[0].depth` | 3 |" in section and "| `rows[0].ratio` | 0.91 |" in section
    assert "| `sizes` | 2x2, 3x3 |" in section and "| `ok` | yes |" in section
    assert "2026-11-30" not in section  # only the latest line is shown
    assert "no results recorded yet" in out[search:solver]  # an empty file
    assert "no results recorded yet" in out[solver:]  # no file


def test_a_marker_may_name_the_benchmarks(project: Path) -> None:
    out = benchmarks.on_page_markdown("<!-- benchmark-results: solver engine -->", None, config(project), None)
    assert out.index("### solver") < out.index("### engine") and "### search" not in out


def test_a_page_without_the_marker_is_left_alone(project: Path) -> None:
    page = "# Nothing here\n<!-- another comment -->\n"
    assert benchmarks.on_page_markdown(page, None, config(project), None) == page


def test_a_line_that_is_not_json_is_a_warning(project: Path, caplog: pytest.LogCaptureFixture) -> None:
    results = project / "benchmarks" / "results" / "engine.jsonl"
    results.write_text(results.read_text() + "{not json\n[1, 2]\n")
    with caplog.at_level(logging.WARNING, logger="mkdocs.hooks.benchmarks"):
        out = benchmarks.on_page_markdown("<!-- benchmark-results: engine -->", None, config(project), None)
    assert "line 3 is not JSON" in caplog.text and "line 4 is not a JSON object" in caplog.text
    assert "2026-12-01 14:03 UTC" in out  # the latest line that could be read


def test_values_read_as_a_person_reads_them() -> None:
    assert benchmarks.format_value(0.034) == "0.034"
    assert benchmarks.format_value(687.4321) == "687.4"
    assert benchmarks.format_value(1234.5) == "1,234"
    assert benchmarks.format_value(None) == "—"
    assert benchmarks.format_value(False) == "no"
    assert benchmarks.format_value(float("nan")) == "nan"
    assert benchmarks.cell("a|b") == "a\\|b"
    assert benchmarks.format_date("2026-12-01T14:03:05.123456+00:00") == "2026-12-01 14:03 UTC"
    assert benchmarks.format_date("yesterday") == "yesterday"
    assert benchmarks.format_machine(None) == "unknown"
    assert benchmarks.format_commit(None, False) == "unknown"


def build(project: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of a one-page site that uses the hook."""
    (project / "docs").mkdir(exist_ok=True)
    (project / "docs" / "index.md").write_text("# Results\n\n<!-- benchmark-results -->\n")
    hook = (HOOKS / "benchmarks.py").as_posix()
    (project / "mkdocs.yml").write_text(
        f"site_name: test\ntheme: mkdocs\nhooks:\n  - {hook}\nextra:\n  benchmark_results: benchmarks/results\n"
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(project / "site")],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_mkdocs_builds_a_site_with_the_hook(project: Path) -> None:
    done = build(project)
    assert done.returncode == 0, done.stdout + done.stderr
    html = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert "2026-12-01 14:03 UTC" in html and "23,100,000" in html and "no results recorded yet" in html


def test_a_strict_build_fails_on_a_damaged_results_file(project: Path) -> None:
    with (project / "benchmarks" / "results" / "search.jsonl").open("a") as results:
        results.write('{"benchmark": "search", "date": \n')
    done = build(project)
    assert done.returncode != 0
    assert "search.jsonl line 1 is not JSON" in done.stdout + done.stderr


def test_doctests_are_fenced_as_code() -> None:
    text = "Sums.\n>>> 1 + 1\n2\n\nArgs:\n    x: a value.\n\n    >>> indented\n"
    assert doctests.fence_doctests(text) == (
        "Sums.\n\n```pycon\n>>> 1 + 1\n2\n```\n\nArgs:\n    x: a value.\n\n    >>> indented"
    )
    assert doctests.fence_doctests(">>> last\n") == "```pycon\n>>> last\n```"
