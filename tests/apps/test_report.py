"""The report: statistics per run, the table, and the three plots, from the version-1 fixture store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rich.console import Console

from plyground.apps.report import PLOTS, runs_table, summarize_run, write_plots
from plyground.apps.results import GameRow, ResultsStore, RunRecord, RunSettings

DATA = Path(__file__).parents[1] / "data"


@pytest.fixture
def runs(tmp_path: Path) -> list[RunRecord]:
    shutil.copy(DATA / "results_v1.sqlite", tmp_path / "results.sqlite")
    with ResultsStore(tmp_path / "results.sqlite") as store:
        return store.runs()


def test_summary_statistics() -> None:
    games = tuple(GameRow(i, score, tile, 10, 1.0, 2.0) for i, (score, tile) in enumerate([(100, 256), (300, 2048)]))
    summary = summarize_run(RunRecord(1, "2026-01-01T00:00:00+00:00", RunSettings(), "abc", games))
    assert (summary.games, summary.mean_score, summary.median_score) == (2, 200.0, 200.0)
    assert summary.interval is not None
    assert summary.interval[0] < 200 < summary.interval[1]
    assert summary.interval == pytest.approx((200 - 12.7062047 * 100, 200 + 12.7062047 * 100))  # Student's t, 1 df
    assert summary.reach[256] == 1.0 and summary.reach[2048] == 0.5 and summary.reach[4096] == 0.0
    empty = summarize_run(RunRecord(2, "", RunSettings(), "abc"))
    assert empty.games == 0 and empty.interval is None


def test_the_table_has_one_row_per_run(runs: list[RunRecord]) -> None:
    console = Console(width=250, color_system=None)
    with console.capture() as capture:
        console.print(runs_table(runs))
    text = capture.get()
    rows = [line for line in text.splitlines() if line.startswith("│")]
    assert len(rows) == len(runs) == 2
    assert "3x3" in rows[0] and "depth 1" in rows[0] and "this process" in rows[0]
    assert "4x4" in rows[1] and "2 ms/move" in rows[1]
    assert f"{summarize_run(runs[0]).median_score:,.0f}" in rows[0]
    cells = [[cell.strip() for cell in row.strip().strip("│").split("│")] for row in rows]
    assert cells[0][-4:] == ["-"] * 4  # a 3x3 board holds tiles up to 1024
    assert cells[1][-4:] == ["0%"] * 4
    with console.capture() as capture:
        console.print(runs_table(runs[:1]))
    assert "≥2048" not in capture.get() and "≥" not in capture.get()  # no reach column a 3x3 board cannot reach


def test_plots_are_written_as_png(runs: list[RunRecord], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    paths = write_plots(runs, tmp_path / "plots")
    assert [path.name for path in paths] == list(PLOTS)
    for path in paths:
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5000
    assert not list((tmp_path / "plots").glob(".*.tmp"))


def test_plots_of_a_store_without_games(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    paths = write_plots([RunRecord(1, "", RunSettings(), "abc")], tmp_path)
    assert all(path.exists() for path in paths)
