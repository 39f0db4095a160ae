"""``plyground 2048 bench`` and ``report``: the same games on a process pool and a Dask LocalCluster, stored with
their evaluator."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from plyground.apps.results import ResultsStore, RunSettings, weights_hash
from plyground.errors import DependencyNotInstalled, PlygroundError, install_command
from plyground.g2048.autoplay import GameSpec, play_spec
from plyground.g2048.ntuple import NTupleNetwork
from tests.apps.cli.test_main import assert_one_line_error, run_cli

DATA = Path(__file__).parents[2] / "data"
SMALL = ("--games", "4", "--seed", "11", "--rows", "2", "--cols", "3", "--depth", "2")


def stored(db: Path) -> list[list[tuple[int, int, int, int]]]:
    """Per run: (seed, score, max tile, moves) of each stored game."""
    with ResultsStore(db) as store:
        return [[(g.seed, g.score, g.max_tile, g.moves) for g in run.games] for run in store.runs()]


def test_pool_and_dask_give_the_same_stored_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr("plyground.apps.cli.options.cores", lambda: 2)  # two processes on a one-core machine too
    db = tmp_path / "results.sqlite"
    status, out, err = run_cli(capsys, "2048", "bench", *SMALL, "--workers", "2", "--db", str(db))
    assert status == 0, err
    assert "run 1: 4 games of 2x3 at depth 2, seeds 11 to 14, on 2 local processes" in err
    status, _, err = run_cli(capsys, "2048", "bench", *SMALL, "--dask-local", "2", "--db", str(db))
    assert status == 0, err
    assert "a local Dask cluster of 2 workers" in err
    pool, dask = stored(db)
    expected = [play_spec(GameSpec(seed=s, rows=2, cols=3, depth=2)) for s in range(11, 15)]
    assert pool == dask == [(r.seed, r.score, r.max_tile, r.moves) for r in expected]
    assert "2048 bench run 1" in out and "2x3" in out


def test_one_game_is_one_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "results.sqlite"
    args = ("--games", "1", "--seed", "3", "--rows", "2", "--cols", "2", "--depth", "1", "--workers", "1")
    status, _, err = run_cli(capsys, "2048", "bench", *args, "--db", str(db))
    assert status == 0, err
    assert "run 1: 1 game of 2x2 at depth 1, seeds 3 to 3," in err


def test_report_draws_its_plots_in_the_data_folder_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.core.files import data_dir

    db = tmp_path / "old.sqlite"
    shutil.copy(DATA / "results_v1.sqlite", db)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    status, out, err = run_cli(capsys, "2048", "report", "--db", str(db))
    assert status == 0, err
    assert (data_dir() / "report" / "score_distribution.png").exists()
    assert f"plots: {data_dir() / 'report'}" in out
    assert list(work.iterdir()) == []  # nothing in the working folder (a clone, say)


def test_report_prints_every_run_and_writes_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(DATA / "results_v1.sqlite", db)  # written by an earlier run of plyground
    plots = tmp_path / "plots"
    status, out, err = run_cli(capsys, "2048", "report", "--db", str(db), "--plots", str(plots))
    assert status == 0, err
    assert out.count("│ 3x3 ") == 1 and out.count("│ 4x4 ") == 1
    assert sorted(path.name for path in plots.iterdir()) == [
        "max_tile_shares.png",
        "score_distribution.png",
        "score_vs_depth.png",
        "score_vs_time.png",
    ]
    status, out, _ = run_cli(capsys, "2048", "report", "--db", str(db), "--last", "1", "--no-plots")
    assert status == 0 and "│ 3x3 " not in out and "│ 4x4 " in out


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (("--workers", "2", "--dask-local", "2"), ("choose one of --workers", "--dask-local")),
        (("--time-ms", "5", "--depth", "2"), ("--time-ms or --depth",)),
        (("--games", "0"), ("--games",)),
        (("--weights", "missing.json"), ("missing.json",)),
        (("--evaluator", "heuristc"), ("--evaluator must be", "did you mean 'heuristic'?")),
        (("--evaluator", "ntuple:missing.npz"), ("n-tuple network file missing.npz does not exist",)),
        (("--evaluator", "network", "--rows", "3", "--cols", "3"), ("plays 4x4 boards, not 3x3", "--rows 4 --cols 4")),
        (("--evaluator", "network", "--weights", "w.json"), ("--weights sets the heuristic", "--evaluator network")),
    ],
)
def test_bad_bench_options_are_one_line(
    args: tuple[str, ...], parts: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite"
    status, _, err = run_cli(capsys, "2048", "bench", *args, "--db", str(db))
    assert status == 2
    assert_one_line_error(err, *parts)
    assert not db.exists()  # said before the store is opened: nothing stored


def test_bench_stores_the_evaluator_it_played_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    NTupleNetwork(3, 3, seed=7).save(tmp_path / "net-3x3.npz")
    db = tmp_path / "results.sqlite"
    small = ("--games", "2", "--seed", "5", "--rows", "3", "--cols", "3", "--depth", "1", "--workers", "1")
    for evaluator in ((), ("--evaluator", "heuristic"), ("--evaluator", "ntuple:net-3x3.npz")):
        status, _, err = run_cli(capsys, "2048", "bench", *small, *evaluator, "--db", str(db))
        assert status == 0, err
    network = f"ntuple:{tmp_path / 'net-3x3.npz'}"  # made absolute: other processes and machines find it
    assert f"evaluator {network};" in err
    with ResultsStore(db) as store:
        runs = store.runs()
    assert [run.settings.evaluator for run in runs] == ["heuristic", "heuristic", network]
    assert [run.weights_hash for run in runs] == [weights_hash(None), weights_hash(None), None]
    games = [[(g.seed, g.score, g.max_tile, g.moves) for g in run.games] for run in runs]
    expected = [play_spec(GameSpec(seed=seed, rows=3, cols=3, depth=1, evaluator=network)) for seed in (5, 6)]
    assert games[2] == [(r.seed, r.score, r.max_tile, r.moves) for r in expected]
    assert games[0] == games[1] != games[2]  # the network played, not the heuristic


def test_bench_on_4x4_plays_the_shipped_network_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "results.sqlite"
    args = ("--games", "1", "--depth", "1", "--workers", "1", "--seed", "3", "--db", str(db), "--json")
    status, out, err = run_cli(capsys, "2048", "bench", *args)
    assert status == 0, err
    (run,) = json.loads(out)["runs"]
    assert run["evaluator"] == "network" and run["weights_hash"] is None and run["games"] == 1
    with ResultsStore(db) as store:
        assert [record.settings.evaluator for record in store.runs()] == ["network"]


@pytest.mark.parametrize(
    "failure",
    [
        PlygroundError("cannot reach the Dask scheduler tcp://10.0.0.1:8786: timed out"),
        DependencyNotInstalled("running on Dask needs dask.distributed"),
    ],
)
def test_a_bench_that_fails_at_the_start_leaves_no_run(
    failure: Exception, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.core import run_many

    def fail(*args: object, **kwargs: object) -> None:
        raise failure

    monkeypatch.setattr(run_many, "run_many", fail)
    db = tmp_path / "results.sqlite"
    status, _, err = run_cli(capsys, "2048", "bench", *SMALL, "--scheduler", "tcp://10.0.0.1:8786", "--db", str(db))
    assert status == 1
    assert err.strip().splitlines()[-1] == f"error: {failure}"
    assert stored(db) == []


def test_report_leaves_out_the_runs_without_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(DATA / "results_v1.sqlite", db)
    with ResultsStore(db) as store:  # what a failed bench left before, in stores written then
        store.start_run(RunSettings(rows=2, cols=2, depth=1))
    status, out, err = run_cli(capsys, "2048", "report", "--db", str(db), "--no-plots")
    assert status == 0, err
    assert out.count("│ 3x3 ") == 1 and out.count("│ 4x4 ") == 1 and "2x2" not in out
    assert "1 run without games not shown" in out


def test_report_without_a_store_or_with_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # where the default plots folder would go
    status, _, err = run_cli(capsys, "2048", "report", "--db", str(tmp_path / "none.sqlite"))
    assert status == 2
    assert_one_line_error(err, "no results store", "bench")
    bad = tmp_path / "bad.sqlite"
    bad.write_text("this is not SQLite " * 100)
    status, _, err = run_cli(capsys, "2048", "report", "--db", str(bad))
    assert status == 2
    assert_one_line_error(err, "not a plyground results store")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bad.sqlite"]  # no plots folder for a bad store


def test_report_and_bench_leave_an_empty_file_as_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "e.sqlite"
    empty.touch()  # ': > e.sqlite': SQLite would take it for an empty database, and make it one
    status, out, err = run_cli(capsys, "2048", "report", "--db", str(empty), "--no-plots")
    assert status == 2 and out == ""
    assert_one_line_error(err, f"{empty}: an empty file, not a plyground results store")
    other = tmp_path / "empty.json"
    other.touch()
    args = ("--games", "1", "--rows", "2", "--cols", "2", "--depth", "1", "--workers", "1")
    status, out, err = run_cli(capsys, "2048", "bench", *args, "--db", str(other))
    assert status == 2
    assert_one_line_error(err, f"{other}: an empty file, not a plyground results store", "give another path")
    assert empty.read_bytes() == other.read_bytes() == b"" and sorted(tmp_path.iterdir()) == [empty, other]


def test_report_plots_that_cannot_be_written_are_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "r.sqlite"
    shutil.copy(Path(__file__).parents[2] / "data" / "results_v1.sqlite", db)
    (tmp_path / "afile").write_text("")
    for plots, part in (("afile", "it is a file, not a folder"), ("afile/sub", "Not a directory")):
        status, out, err = run_cli(capsys, "2048", "report", "--db", str(db), "--plots", str(tmp_path / plots))
        assert status == 2 and out == ""  # said before the table
        assert_one_line_error(err, f"cannot write the plots in {tmp_path / plots}: {part}")
        assert "Errno" not in err and err.count(str(tmp_path)) == 1

    from plyground.apps import report

    def refuse(runs: object, folder: Path) -> list[Path]:
        raise PermissionError(13, "Permission denied", str(folder / "scores.png"))

    monkeypatch.setattr(report, "write_plots", refuse)
    status, _, err = run_cli(capsys, "2048", "report", "--db", str(db), "--plots", str(tmp_path / "plots"))
    assert status == 2
    assert err.strip().splitlines()[-1] == f"error: cannot write the plots in {tmp_path / 'plots'}: Permission denied"


TUNE = ("--generations", "2", "--population", "3", "--games", "2", "--depth", "1", "--rows", "2", "--cols", "3")


def test_tune_writes_a_run_folder_that_ai_loads_and_resume_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("cma")
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path / "data"))
    status, out, err = run_cli(capsys, "2048", "tune", *TUNE, "--workers", "1", "--validate", "4")
    assert status == 0, err
    (folder,) = (tmp_path / "data" / "tuning").iterdir()
    assert sorted(p.name for p in folder.iterdir()) == [
        "best.json",
        "curve.png",
        "evaluations.csv",
        "state.pkl",
        "tune.json",
    ]
    assert len((folder / "evaluations.csv").read_text().splitlines()) == 1 + 6
    assert f"weights in {folder / 'best.json'}" in out
    assert "validation on 4 fresh seeds: default" in out and "95% interval" in out
    status, out, err = run_cli(capsys, "2048", "ai", "--weights", str(folder / "best.json"), *SMALL[2:])
    assert status == 0, err
    status, out, err = run_cli(capsys, "2048", "tune", "--resume", "--workers", "1")  # the latest run: all done
    assert status == 0, err
    assert f"resuming {folder}: 6 of 6 evaluations done" in err


def test_tune_without_matplotlib_says_once_that_it_draws_no_curve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("cma")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib... now fails
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    status, _, err = run_cli(capsys, "2048", "tune", *TUNE, "--workers", "1", "--out", str(tmp_path / "run"))
    assert status == 0, err
    notes = [line for line in err.splitlines() if "curve.png" in line]
    assert notes == [f"note: curve.png is not drawn: plots need matplotlib: {install_command('tune')}"], err
    assert (tmp_path / "run" / "evaluations.csv").exists() and not (tmp_path / "run" / "curve.png").exists()


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (("--resume", "--games", "3"), ("a resumed run keeps its settings", "--games")),
        (("--resume",), ("no tuning run to resume",)),
        (("--population", "1"), ("--population",)),
        (("--time-ms", "5", "--depth", "2"), ("--time-ms or --depth",)),
    ],
)
def test_bad_tune_options_are_one_line(
    args: tuple[str, ...],
    parts: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PLYGROUND_DATA_DIR", str(tmp_path))
    status, _, err = run_cli(capsys, "2048", "tune", *args)
    assert status == 2
    assert_one_line_error(err, *parts)


def test_report_for_scripts_and_at_80_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(DATA / "results_v1.sqlite", db)
    status, out, err = run_cli(capsys, "2048", "report", "--db", str(db), "--no-plots", "--json")
    assert status == 0, err
    runs = json.loads(out)["runs"]
    assert [(run["rows"], run["cols"], run["games"]) for run in runs] == [(3, 3, 3), (4, 4, 2)]
    assert [run["evaluator"] for run in runs] == ["heuristic", "heuristic"]  # the runs of a version-1 store
    status, out, err = run_cli(capsys, "2048", "report", "--db", str(db), "--no-plots", "--csv")
    assert status == 0, err
    assert [line.split(",")[:4] + line.split(",")[7:8] for line in out.splitlines()] == [
        ["run", "started", "rows", "cols", "evaluator"],
        ["1", runs[0]["started"], "3", "3", "heuristic"],
        ["2", runs[1]["started"], "4", "4", "heuristic"],
    ]
    monkeypatch.setenv("COLUMNS", "80")
    status, out, err = run_cli(capsys, "2048", "report", "--db", str(db), "--no-plots")
    assert status == 0, err
    assert out.splitlines()[0] == f"2048 bench runs in {db}"  # the path whole, on its own line
    assert "…" not in out and all(len(line) <= 80 for line in out.splitlines()[1:])
    for header in ("started", "evaluator", "weights", "ran on", "mean score (95%)", "median", "≥16384"):
        assert header in out
    assert all(line.rstrip()[-1] in "┓┃┩│┘" for line in out.splitlines()[1:] if line.strip()[:1] in set("┏┃┡│└"))


def test_bench_prints_its_run_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "results.sqlite"
    status, out, err = run_cli(capsys, "2048", "bench", *SMALL, "--workers", "1", "--db", str(db), "--json")
    assert status == 0, err
    (run,) = json.loads(out)["runs"]
    assert run["run"] == 1 and run["games"] == 4 and [game["seed"] for game in run["results"]] == [11, 12, 13, 14]
    assert [(game["score"], game["moves"]) for game in run["results"]] == [(s[1], s[3]) for s in stored(db)[0]]


def test_a_ctrl_c_right_after_a_game_is_stored_keeps_it_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store is the count: an interrupt between a game's commit and the command's own count loses nothing."""
    store_game = ResultsStore.add_game

    def store_then_interrupt(self: ResultsStore, run_id: int, result: object) -> None:
        store_game(self, run_id, result)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(ResultsStore, "add_game", store_then_interrupt)
    db = tmp_path / "results.sqlite"
    args = ("--games", "3", "--depth", "1", "--rows", "2", "--cols", "2", "--workers", "1", "--db", str(db))
    status, _, err = run_cli(capsys, "2048", "bench", *args)
    assert status == 130 and "interrupted: 1 of 3 games finished and stored (run 1)" in err
    with ResultsStore(db, read_only=True) as store:
        [run] = store.runs()
        assert len(run.games) == 1 and store.game_count(run.id) == 1
