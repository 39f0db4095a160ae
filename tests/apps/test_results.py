"""The results store: runs and games round-trip, a killed run keeps its games, damaged or newer files are refused."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from plyground.apps.results import SCHEMA_VERSION, ResultsStore, RunSettings, weights_hash
from plyground.errors import CorruptFileError
from plyground.g2048 import Weights, default_weights
from plyground.g2048.autoplay import GameSpec, play_spec

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
    assert runs[0].weights_hash == weights_hash(None)
    assert [(g.seed, g.score, g.max_tile, g.moves) for g in runs[0].games] == [
        (r.seed, r.score, r.max_tile, r.moves) for r in sorted(results, key=lambda r: r.seed)
    ]
    assert runs[1].settings.weights == weights and runs[1].weights_hash == weights_hash(weights) != weights_hash(None)
    assert runs[1].games == ()


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


def test_a_newer_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    ResultsStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(CorruptFileError, match="newer plyground"):
        ResultsStore(path)


@pytest.mark.parametrize("content", [b"not a database at all, just some text" * 50, b""])
def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "results.sqlite"
    path.write_bytes(content)
    if not content:  # an empty file is a new, empty SQLite database: made into a store
        ResultsStore(path).close()
        return
    with pytest.raises(CorruptFileError, match="not a plyground results store"):
        ResultsStore(path)


def test_another_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(CorruptFileError, match="no runs and games tables"):
        ResultsStore(path)
