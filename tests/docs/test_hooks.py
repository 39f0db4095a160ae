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
roles = load("roles")


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


def test_sphinx_roles_become_cross_references_titled_as_sphinx_titles_them() -> None:
    convert = roles.convert_roles

    def ref(identifier: str, title: str) -> str:
        return f'<autoref optional identifier="{identifier}"><code>{title}</code></autoref>'

    assert convert("A :class:`~plyground.kinrow.State` and :func:`plyground.g2048.solve`.") == (
        f"A {ref('plyground.kinrow.State', 'State')} and {ref('plyground.g2048.solve', 'plyground.g2048.solve')}."
    )
    assert convert(":meth:`Game.undo()`, :py:attr:`~a.B.c` :exc:`ValueError`") == (
        f"{ref('Game.undo', 'Game.undo()')}, {ref('a.B.c', 'c')} {ref('ValueError', 'ValueError')}"
    )
    assert convert(":meth:`learn <a.N.learn>` :data:`!DRAW` :mod:`x<y>`") == (
        f"{ref('a.N.learn', 'learn')} <code>DRAW</code> {ref('y', 'x')}"
    )
    for kind in ("class", "func", "meth", "mod", "data", "attr", "exc", "obj", "const"):
        assert convert(f":{kind}:`~x.y`") == ref("x.y", "y")
    assert convert("a < b: :class:`A<B>`") == f"a < b: {ref('B', 'A')}"  # the title is escaped
    assert convert(":class:`List[int] <x>`") == ref("x", "List[int]")
    assert convert("see :func:`f`") == f"see {ref('f', 'f')}"  # no scope: as written


def test_sphinx_roles_in_code_become_their_bare_titles() -> None:
    text = (
        "Text :class:`~a.B`::\n\n    listing  (see :mod:`a.c`)\n    more :func:`~a.f`\n\nBack :data:`D`.\n"
        "```python\nx = 1  # :class:`~a.B`\n```\n>>> f()  # :func:`~a.f`\n"
        "Args:\n    x: a :class:`~a.B`.\n\n        Still the section: :class:`~a.C`.\n"
    )
    converted = roles.convert_roles(text)
    assert not roles.ROLE.search(converted)
    lines = converted.splitlines()
    assert lines[2] == "    listing  (see a.c)" and lines[3] == "    more f"
    assert "<autoref" in lines[0] and "<autoref" in lines[5]  # text before and after the block
    assert lines[7] == "x = 1  # B" and lines[9] == ">>> f()  # f"
    assert '"a.B"' in lines[11] and '"a.C"' in lines[13]  # an indented section is not code


def test_sphinx_roles_resolve_in_the_scope_of_their_docstring() -> None:
    import griffe

    loader = griffe.GriffeLoader(search_paths=[str(DOCS.parent / "src")])
    loader.load("plyground.g2048")
    collection = loader.modules_collection
    expectimax = collection.get_member("plyground.g2048.expectimax")
    decision = collection.get_member("plyground.g2048.expectimax.Decision")
    shards = collection.get_member("plyground.g2048.shards.solver")
    assert roles.resolve("Expectimax", decision) == "plyground.g2048.expectimax.Expectimax"  # a module member
    assert roles.resolve("Expectimax.choose", decision) == "plyground.g2048.expectimax.Expectimax.choose"
    assert roles.resolve("Board", expectimax) == "plyground.g2048.board.Board"  # imported: where it is defined
    assert roles.resolve("plyground.g2048.Game", expectimax) == "plyground.g2048.game.Game"  # a re-export
    assert roles.resolve("._shard_kernels", shards) == "plyground.g2048.shards._shard_kernels"
    assert roles.resolve("numpy.savez", expectimax) == "numpy.savez"  # not loaded: as written
    converted = roles.convert_roles("The :class:`Decision` of :meth:`~Expectimax.choose`.", decision)
    assert converted == (
        'The <autoref optional identifier="plyground.g2048.expectimax.Decision"><code>Decision</code></autoref> of '
        '<autoref optional identifier="plyground.g2048.expectimax.Expectimax.choose"><code>choose</code></autoref>.'
    )
