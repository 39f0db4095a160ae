"""The results store: runs and games round-trip, a version-1 store is upgraded, damaged or newer files are refused."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import astuple
from pathlib import Path

import pytest

from plyground.apps.results import SCHEMA_VERSION, ResultsStore, RunSettings, weights_hash
from plyground.errors import CorruptFileError, InvalidInputError, PlygroundError
from plyground.g2048 import Weights, default_weights
from plyground.g2048.autoplay import GameResult, GameSpec, play_spec
from plyground.g2048.game import Replay

DATA = Path(__file__).parents[1] / "data"


def test_runs_and_games_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    results = [play_spec(GameSpec(seed=seed, rows=2, cols=3, depth=1)) for seed in (4, 2)]
    weights = Weights.from_dict({**default_weights().to_dict(), "empty": 1.0})
    with ResultsStore(path) as store:
        first = store.start_run(RunSettings(rows=2, cols=3, depth=1, backend="this process"))
        for result in results:
            store.add_game(first, result)
        second = store.start_run(RunSettings(rows=4, cols=4, time_ms=5.0, weights=weights))
    with ResultsStore(path) as store:  # read back by a new connection
        runs = store.runs()
    assert [run.id for run in runs] == [first, second]
    assert runs[0].settings == RunSettings(rows=2, cols=3, depth=1, weights=default_weights(), backend="this process")
    assert runs[0].settings.evaluator == "heuristic" and runs[0].weights_hash == weights_hash(None)
    assert [(g.seed, g.score, g.max_tile, g.moves) for g in runs[0].games] == [
        (r.seed, r.score, r.max_tile, r.moves) for r in sorted(results, key=lambda r: r.seed)
    ]
    assert runs[1].settings.weights == weights and runs[1].weights_hash == weights_hash(weights) != weights_hash(None)
    assert runs[1].games == ()


def test_a_run_with_a_network_records_its_evaluator_and_no_weights(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    with ResultsStore(path) as store:
        store.start_run(RunSettings(depth=1, evaluator="network"))
        store.start_run(RunSettings(rows=3, cols=3, depth=1, evaluator="ntuple:/nets/net-3x3.npz"))
        with pytest.raises(InvalidInputError, match="weights set the heuristic"):
            store.start_run(RunSettings(depth=1, evaluator="network", weights=default_weights()))
    with ResultsStore(path) as store:
        runs = store.runs()
    assert [run.settings.evaluator for run in runs] == ["network", "ntuple:/nets/net-3x3.npz"]
    assert [(run.settings.weights, run.weights_hash) for run in runs] == [(None, None), (None, None)]
    assert runs[0].settings == RunSettings(depth=1, evaluator="network")


def test_weights_hash_depends_on_the_weights_only() -> None:
    same = Weights.from_dict(default_weights().to_dict())
    other = Weights.from_dict({**default_weights().to_dict(), "merges": 701.0})
    assert weights_hash(same) == weights_hash(None) != weights_hash(other)


def test_a_store_written_by_the_first_version_is_read(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA / "results_v1.sqlite", path)
    with ResultsStore(path) as store:
        runs = store.runs()
    assert [len(run.games) for run in runs] == [3, 2]
    assert runs[0].settings.depth == 1 and runs[1].settings.time_ms == 2.0
    assert all(game.score > 0 for run in runs for game in run.games)


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
    return version


def test_a_version_1_store_is_upgraded_once_and_keeps_its_runs(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA / "results_v1.sqlite", path)
    assert user_version(path) == 1
    with sqlite3.connect(path) as db:
        games_before = db.execute("SELECT * FROM games ORDER BY run_id, seed").fetchall()
        runs_before = db.execute("SELECT id, started, rows, cols, weights_hash FROM runs ORDER BY id").fetchall()
    with ResultsStore(path) as store:
        runs = store.runs()
    assert user_version(path) == SCHEMA_VERSION == 3
    assert [(r.id, r.started, r.settings.rows, r.settings.cols, r.weights_hash) for r in runs] == runs_before
    assert [(r.id, *astuple(g)[:6]) for r in runs for g in r.games] == games_before
    assert all(g.table_moves == 0 for r in runs for g in r.games) and all(not r.settings.tablebases for r in runs)
    assert [run.settings.evaluator for run in runs] == ["heuristic", "heuristic"]
    assert all(run.settings.weights == default_weights() for run in runs)
    upgraded = path.read_bytes()
    with ResultsStore(path) as store:  # already upgraded: read as it is, nothing written
        assert store.runs() == runs
    assert path.read_bytes() == upgraded
    with ResultsStore(path) as store:  # and new runs record their evaluator beside the old ones
        store.start_run(RunSettings(depth=1, evaluator="network"))
        assert [run.settings.evaluator for run in store.runs()] == ["heuristic", "heuristic", "network"]


def test_a_version_2_store_is_upgraded_and_its_runs_had_no_tables(tmp_path: Path) -> None:
    path = tmp_path / "v2.sqlite"
    shutil.copy(DATA / "results_v2.sqlite", path)
    assert user_version(path) == 2
    with sqlite3.connect(path) as db:
        games_before = db.execute("SELECT * FROM games ORDER BY run_id, seed").fetchall()
    with ResultsStore(path, read_only=True) as store:  # read as it is
        as_it_is = store.runs()
    assert user_version(path) == 2
    with ResultsStore(path) as store:
        runs = store.runs()
        assert runs == as_it_is and user_version(path) == SCHEMA_VERSION
        assert [(r.id, *astuple(g)[:6]) for r in runs for g in r.games] == games_before
        assert [g.table_moves for r in runs for g in r.games] == [0, 0] and runs[0].settings.tablebases == ()
        run = store.start_run(RunSettings(rows=2, cols=2, depth=1, tablebases=("xx-.T_T8_p0.1",)))
        store.add_game(run, GameResult(3, 40, 16, 10, 0.1, 1.0, Replay(), table_moves=4))
        added = store.runs()[-1]
    assert added.settings.tablebases == ("xx-.T_T8_p0.1",) and added.games[0].table_moves == 4


def test_a_newer_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    ResultsStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(CorruptFileError, match="newer plyground"):
        ResultsStore(path)


@pytest.mark.parametrize("read_only", [False, True])
@pytest.mark.parametrize("content", [b"not a database at all, just some text" * 50, b""])
def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path, content: bytes, read_only: bool) -> None:
    path = tmp_path / "results.json"
    path.write_bytes(content)  # an empty file too: SQLite would take it for an empty database, and fill it
    with pytest.raises(CorruptFileError, match="not a plyground results store") as caught:
        ResultsStore(path, read_only=read_only)
    assert ("an empty file" in str(caught.value)) == (not content)
    assert path.read_bytes() == content and sorted(tmp_path.iterdir()) == [path]


def test_a_new_store_is_made_whole_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "new" / "results.sqlite"
    ResultsStore(path).close()
    assert sorted(p.name for p in path.parent.iterdir()) == ["results.sqlite"]
    assert user_version(path) == SCHEMA_VERSION
    with ResultsStore(path, read_only=True) as store:
        assert store.runs() == []


def test_a_read_only_store_creates_upgrades_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"^no results store at "):
        ResultsStore(tmp_path / "none.sqlite", read_only=True)
    assert list(tmp_path.iterdir()) == []
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA / "results_v1.sqlite", path)
    before = path.read_bytes()
    with ResultsStore(path, read_only=True) as store:
        runs = store.runs()  # version 1, read as it is: its runs are the heuristic's
        with pytest.raises(PlygroundError, match="opened read-only"):
            store.start_run(RunSettings(depth=1))
    assert [len(run.games) for run in runs] == [3, 2] and {run.settings.evaluator for run in runs} == {"heuristic"}
    assert path.read_bytes() == before and user_version(path) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]  # no journal left either
    with ResultsStore(path) as store:  # opened to write: upgraded, the same runs
        assert store.runs() == runs
    assert user_version(path) == SCHEMA_VERSION


def test_another_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(CorruptFileError, match="no runs and games tables"):
        ResultsStore(path)
