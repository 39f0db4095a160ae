"""The performance table: the README's is the one rendered from the committed results, each row citing its line."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "_figures.py"


def load() -> Any:
    spec = importlib.util.spec_from_file_location("plyground_bench_figures", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


figures = load()


def readme_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = text.index(figures.START), text.index(figures.END)
    return text[start + len(figures.START) : end].strip()


def test_the_readme_table_is_the_one_rendered_from_the_results() -> None:
    assert readme_block() == figures.render(), "run: python benchmarks/_figures.py --write"


def test_every_row_cites_a_line_that_is_there() -> None:
    """Each row names a results file and a line of it: the line exists and holds a run of that benchmark."""
    rows = readme_block().splitlines()[2:]
    assert len(rows) == len(figures.ROWS)
    for row in rows:
        cited = re.search(
            r"\[(\w+)\.jsonl:(\d+)\]\(((?:benchmarks/results|experiments/[\w-]+)/\1\.jsonl)\) ([0-9a-f]{7})", row
        )
        assert cited is not None, row
        number, path, commit = int(cited.group(2)), cited.group(3), cited.group(4)
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        entry = json.loads(lines[number - 1])
        assert entry["commit"].startswith(commit)
        assert ("dirty" in row.split("|")[-2]) == bool(entry["dirty"])


def test_the_readme_has_no_other_performance_table() -> None:
    """Outside the rendered block, no table row of the README states a measured speed or score."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    outside = text[: text.index(figures.START)] + text[text.index(figures.END) :]
    measured = re.compile(r"\d\s*(M moves/s|nodes/s|iterations/s|×)")
    assert [line for line in outside.splitlines() if line.startswith("|") and measured.search(line)] == []


def result(benchmark: str, results: dict[str, Any], commit: str = "a" * 40, dirty: bool = False) -> str:
    return json.dumps({"benchmark": benchmark, "commit": commit, "dirty": dirty, "results": results})


def test_a_row_takes_the_latest_line_that_measured_it(tmp_path: Path) -> None:
    engine = {"moves_per_s": {"numba": 3e7, "native_C": 2e7, "naive_Python": 1e5}, "numba_vs_native": 1.5}
    engine["numba_vs_naive"] = 300.0
    newer = {**engine, "moves_per_s": {**engine["moves_per_s"], "numba": 4e7}, "numba_vs_native": 2.0}
    (tmp_path / "engine.jsonl").write_text(
        result("engine", engine) + "\n\n" + result("engine", newer, "b" * 40, dirty=True) + "\n", encoding="utf-8"
    )
    row = figures.random_play(figures.Results(tmp_path))
    assert row.plyground == "40.0 M moves/s" and row.ratio.startswith("2.00× C")
    assert row.line.number == 3 and row.line.cite(None) == "`engine.jsonl:3` bbbbbbb, dirty"
    assert row.line.cite(lambda name: f"x/{name}") == "[engine.jsonl:3](x/engine.jsonl) bbbbbbb, dirty"


def test_a_results_file_is_found_in_any_folder_but_in_one_only(tmp_path: Path) -> None:
    speed, campaign = tmp_path / "benchmarks" / "results", tmp_path / "experiments" / "2026-01-01-busy"
    for folder in (speed, campaign):
        folder.mkdir(parents=True)
    assert figures.results_folders(tmp_path) == [speed, campaign]
    engine = {"moves_per_s": {"numba": 3e7, "native_C": 2e7, "naive_Python": 1e5}, "numba_vs_native": 1.5}
    (campaign / "engine.jsonl").write_text(result("engine", {**engine, "numba_vs_naive": 300.0}) + "\n")
    assert figures.random_play(figures.Results(speed, campaign)).line.file == "engine.jsonl"
    (speed / "engine.jsonl").write_text((campaign / "engine.jsonl").read_text())
    with pytest.raises(ValueError, match="more than one results folder"):
        figures.Results(speed, campaign).lines("engine")


def test_a_row_cites_its_file_by_its_path_from_the_root() -> None:
    line = figures.Results().latest("alphabeta_beyond_five")  # a campaign's own log, in its folder
    assert line.path == f"experiments/2026-12-07-alpha-beta-beyond-five/{line.file}"
    assert figures.Results().latest("engine").path == "benchmarks/results/engine.jsonl"
    assert figures.Results().latest("busy").path == "benchmarks/results/busy.jsonl"  # the README cites it


def test_a_row_without_its_line_is_an_error_not_a_default(tmp_path: Path) -> None:
    (tmp_path / "search.jsonl").write_text(result("search", {"rows": [{"depth": 5}]}) + "\n", encoding="utf-8")
    with pytest.raises(figures.MissingResult, match=r"search\.jsonl"):
        figures.expectimax_time(figures.Results(tmp_path))
    with pytest.raises(figures.MissingResult, match=r"solver\.jsonl"):
        figures.solve_3x3(figures.Results(tmp_path))


def test_the_block_between_the_markers_is_replaced_and_bad_markers_refused() -> None:
    text = f"before\n{figures.START}\nold\n{figures.END}\nafter\n"
    assert figures.replace_block(text, "new") == f"before\n{figures.START}\nnew\n{figures.END}\nafter\n"
    for bad in ("no markers", f"{figures.END}\n{figures.START}", f"{figures.START}{figures.START}{figures.END}"):
        with pytest.raises(ValueError, match="once each"):
            figures.replace_block(bad, "new")


def test_the_check_command_passes_on_the_committed_readme() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
