"""The report: statistics per run, the table, and the plots, from the version-1 fixture store (upgraded)."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from plyground.apps.report import PLOTS, runs_csv, runs_json, runs_table, summarize_run, write_plots
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
    # Student's t with 1 df, the low end stopped at 0 (a mean score is never negative)
    assert summary.interval == pytest.approx((0.0, 200 + 12.7062047 * 100))
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


def test_the_score_is_plotted_against_the_budget_the_runs_had(runs: list[RunRecord], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    assert [run.settings.depth for run in runs] == [1, None] and runs[1].settings.time_ms is not None
    folder = tmp_path / "plots"
    write_plots(runs, folder)
    paths = write_plots(runs[:1], folder)  # depth only: no empty picture against the time, and no earlier one
    assert [path.name for path in paths] == ["score_distribution.png", "max_tile_shares.png", "score_vs_depth.png"]
    assert sorted(path.name for path in folder.iterdir()) == sorted(path.name for path in paths)
    paths = write_plots(runs[1:], folder)
    assert [path.name for path in paths] == ["score_distribution.png", "max_tile_shares.png", "score_vs_time.png"]


def test_plots_of_a_store_without_games(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    paths = write_plots([RunRecord(1, "", RunSettings(), "abc")], tmp_path)
    assert all(path.exists() for path in paths)


NETWORK_FILE = "ntuple:/home/someone/nets/4x4-seed3.npz"


def wide_runs(runs: list[RunRecord]) -> list[RunRecord]:
    """The fixture's runs, one with large numbers that ran on a Dask cluster, and one with a user's network."""
    games = tuple(GameRow(2**63 - 1 - i, 1_234_567 + i, 65536, 123_456, 4321.5, 6.2) for i in range(3))
    settings = RunSettings(rows=4, cols=4, time_ms=1000.0, backend="the Dask cluster at tcp://scheduler.example:8786")
    network = RunSettings(time_ms=5.0, evaluator=NETWORK_FILE)
    return [
        *runs,
        RunRecord(17, "2026-12-01T10:11:12+00:00", settings, "0123456789ab", games),
        RunRecord(18, "2026-12-02T10:11:12+00:00", network, None, games[:1]),
    ]


@pytest.mark.parametrize("width", [80, 250])
def test_the_table_fits_the_console_and_cuts_nothing(runs: list[RunRecord], width: int) -> None:
    console = Console(width=width, color_system=None)
    with console.capture() as capture:
        console.print(runs_table(wide_runs(runs), title=None))
    text = capture.get()
    assert "…" not in text
    assert all(len(line) <= width for line in text.splitlines())
    ends = [line.rstrip()[-1] for line in text.splitlines() if line.strip()]
    assert set(ends) <= set("┓┃┩│┘"), text  # no table is cropped at the console's edge
    for whole in ("2026-12-01", "0123456789ab", "1,234,568", "4x4", "100%", "17"):
        assert whole in text, whole
    if width == 250:
        assert "the Dask cluster at tcp://scheduler.example:8786" in text and "1000 ms/move" in text
        assert NETWORK_FILE in text
    else:  # where it ran wraps between words, and a long address folds, whole
        assert "tcp://" in text and "8786" in text
        assert "".join(cell.strip() for cell in column(text, "evaluator")).endswith(NETWORK_FILE)
    tables = text.count("┏")
    assert tables == (1 if width == 250 else 2)  # one row per run on a wide console, else settings, then scores


def column(text: str, name: str) -> list[str]:
    """The cells of column ``name`` of the first rich table in ``text``, line by line (a wrapped cell spans lines)."""
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("┃") and f" {name} " in line)
    start = lines[header].index(f" {name} ")
    end = lines[header].index("┃", start)
    body = lines[header + 2 :]
    body = body[: next((i for i, line in enumerate(body) if line.startswith("└")), len(body))]
    return [line[start:end] for line in body if line.startswith("│")]


def test_the_table_names_the_evaluator_and_the_weights_of_heuristic_runs_only(runs: list[RunRecord]) -> None:
    console = Console(width=400, color_system=None)
    with console.capture() as capture:
        console.print(runs_table(wide_runs(runs), title=None))
    text = capture.get()
    header = next(line for line in text.splitlines() if line.startswith("┃"))
    names = [cell.strip() for cell in header.strip("┃").split("┃")]
    assert names[names.index("budget") + 1 :][:2] == ["evaluator", "weights"]
    assert [cell.strip() for cell in column(text, "evaluator")] == ["heuristic"] * 3 + [NETWORK_FILE]
    assert [cell.strip() for cell in column(text, "weights")] == [
        runs[0].weights_hash,
        runs[1].weights_hash,
        "0123456789ab",
        "-",  # a network has no weights
    ]


def test_runs_as_json_and_csv(runs: list[RunRecord]) -> None:
    data = runs_json(wide_runs(runs))
    assert [run["run"] for run in data] == [1, 2, 17, 18]
    dask = data[2]
    assert dask["games"] == 3 and dask["mean_score"] == 1_234_568 and dask["reach"]["32768"] == 1.0
    assert dask["results"][0]["seed"] == 2**63 - 1 and dask["backend"].startswith("the Dask cluster")
    assert [(run["evaluator"], run["weights_hash"]) for run in data] == [
        ("heuristic", runs[0].weights_hash),
        ("heuristic", runs[1].weights_hash),
        ("heuristic", "0123456789ab"),
        (NETWORK_FILE, None),
    ]
    assert json.loads(json.dumps(data)) == data
    rows = list(csv.DictReader(io.StringIO(runs_csv(wide_runs(runs)))))
    assert [row["run"] for row in rows] == ["1", "2", "17", "18"]
    assert float(rows[2]["mean_score"]) == 1_234_568 and rows[0]["depth"] == "1" and rows[0]["time_ms"] == ""
    assert float(rows[1]["median_score"]) == summarize_run(runs[1]).median_score
    assert [(row["evaluator"], row["weights_hash"]) for row in rows] == [
        (run["evaluator"], run["weights_hash"] or "") for run in data
    ]
    assert list(rows[0])[6:10] == ["p_four", "evaluator", "weights_hash", "backend"]
