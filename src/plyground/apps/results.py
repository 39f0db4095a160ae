"""The results store: every game of every ``plyground 2048 bench`` run, in one SQLite file.

The file is ``<data folder>/results.sqlite`` (see :mod:`plyground.core.files`) unless a
path is given. Each run is a row of ``runs`` (its settings, the evaluator that valued the
search's leaves, the heuristic's weights and their hash, where it ran) and each finished
game a row of ``games``; a game is committed as soon as it ends, so a run that is killed
keeps every game it finished. A run whose evaluator is not the heuristic (an n-tuple
network) uses no weights and stores none: its weights and hash read back as None.

A run that consulted endgame tables (``bench --tablebases``) names them (``runs.tablebases``, a
JSON list of the tables' names), and each of its games counts the moves they played
(``games.table_moves``).

The schema version is SQLite's ``user_version`` (:data:`SCHEMA_VERSION`). Version 1
(``tests/data/results_v1.sqlite`` keeps one) had no evaluator, version 2
(``tests/data/results_v2.sqlite``) no endgame tables: opening such a store to write upgrades it
in place, in one transaction; its runs read as ``heuristic`` (version 1), which is what they
played, without tables and their games with no table move (opened ``read_only``, it is read as
it is). A store written by a newer plyground
is refused in one line.

A store is made only where no file is, whole beside it and then linked into place, so that
a process opening the path at the same moment finds no file or a whole store. An existing
file must be a store: another SQLite database, or an empty file (``: > results.json``, which
SQLite would take for an empty database), is refused, never made into one.

>>> import tempfile, os
>>> from plyground.g2048.autoplay import GameSpec, play_spec
>>> folder = tempfile.mkdtemp()
>>> with ResultsStore(os.path.join(folder, "results.sqlite")) as store:
...     run = store.start_run(RunSettings(rows=2, cols=2, depth=1))
...     store.add_game(run, play_spec(GameSpec(seed=5, rows=2, cols=2, depth=1)))
...     [(r.settings.depth, r.settings.evaluator, len(r.games)) for r in store.runs()]
[(1, 'heuristic', 1)]
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plyground.core.files import data_dir
from plyground.errors import CorruptFileError, InvalidInputError, PlygroundError

if TYPE_CHECKING:
    from plyground.g2048 import Weights
    from plyground.g2048.autoplay import GameResult

__all__ = ["SCHEMA_VERSION", "GameRow", "ResultsStore", "RunRecord", "RunSettings", "default_path", "weights_hash"]

SCHEMA_VERSION = 3
"""The version of the tables this plyground writes (SQLite's ``user_version``): 2 added ``runs.evaluator``, 3
``runs.tablebases`` and ``games.table_moves``."""

_HEURISTIC = "heuristic"
"""The evaluator that uses weights (:data:`plyground.g2048.registry.HEURISTIC`), and that of version-1 runs."""

_SCHEMA = """
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    rows INTEGER NOT NULL,
    cols INTEGER NOT NULL,
    time_ms REAL,
    depth INTEGER,
    p_four REAL NOT NULL,
    weights_hash TEXT NOT NULL,
    weights TEXT NOT NULL,
    backend TEXT NOT NULL,
    evaluator TEXT NOT NULL DEFAULT 'heuristic',
    tablebases TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    seed INTEGER NOT NULL,
    score INTEGER NOT NULL,
    max_tile INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    seconds REAL NOT NULL,
    mean_depth REAL NOT NULL,
    table_moves INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, seed)
);
"""


def default_path() -> Path:
    """The store of the user data folder: ``<data folder>/results.sqlite``."""
    return data_dir() / "results.sqlite"


def weights_hash(weights: Weights | None) -> str:
    """A short hash of the weights (the default weights when None), the same for equal weights."""
    from plyground.g2048 import default_weights

    data = (weights if weights is not None else default_weights()).to_dict()
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]


@dataclass(frozen=True)
class RunSettings:
    """What a bench run played: board size, search budget, spawn odds, evaluator, weights, where it ran.

    ``evaluator`` is the evaluator's name as :func:`~plyground.g2048.registry.load_evaluator`
    reads it (``heuristic``, ``network``, ``ntuple:PATH``). ``weights`` are the heuristic's
    (None: the default ones, stored as such); a run with another evaluator has None.
    """

    rows: int = 4
    cols: int = 4
    time_ms: float | None = None
    depth: int | None = None
    p_four: float = 0.1
    evaluator: str = _HEURISTIC
    weights: Weights | None = None
    backend: str = "local"
    tablebases: tuple[str, ...] = ()
    """The names of the endgame tables the run consulted (none: it searched every move)."""

    @property
    def uses_weights(self) -> bool:
        """Whether the run's evaluator is the heuristic, the one evaluator that has weights."""
        return self.evaluator == _HEURISTIC

    @property
    def budget(self) -> str:
        """The search budget in words: ``"20 ms/move"`` or ``"depth 3"``."""
        if self.time_ms is not None:
            return f"{self.time_ms:g} ms/move"
        return f"depth {self.depth}" if self.depth is not None else "depth by board"


@dataclass(frozen=True)
class GameRow:
    """One stored game."""

    seed: int
    score: int
    max_tile: int
    moves: int
    seconds: float
    mean_depth: float
    table_moves: int = 0


@dataclass(frozen=True)
class RunRecord:
    """One stored run: its id, start time (ISO 8601, UTC), settings, weights hash and games.

    ``weights_hash`` is :func:`weights_hash` of the heuristic's weights; None for a run whose
    evaluator is not the heuristic.
    """

    id: int
    started: str
    settings: RunSettings
    weights_hash: str | None
    games: tuple[GameRow, ...] = field(default_factory=tuple)


class ResultsStore:
    """A results file, opened (and created when missing) for reading and appending, or only read.

    Args:
        path: the SQLite file (default: :func:`default_path`).
        read_only: only read it: a missing store is an error, nothing is created, upgraded or
            written (``report``).

    A store of an older version is upgraded in place when it is opened to write (see the module).

    Raises:
        CorruptFileError: not a results store (an empty file included), or one written by a
            newer plyground.
        InvalidInputError: the path is a folder, the file cannot be opened or made, an older
            store cannot be upgraded (a read-only file, a store kept busy by another process),
            or, ``read_only``, there is no store at the path.
        OSError: its folder cannot be created.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.read_only = read_only
        if self.path.is_dir():
            raise InvalidInputError(f"{self.path} is a folder, not a results store: give a file, like results.sqlite")
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self.path.exists():
                self._create()
        try:
            empty = self.path.stat().st_size == 0
        except FileNotFoundError:
            raise InvalidInputError(f"no results store at {self.path}") from None
        if empty:  # SQLite would take it for an empty database, and write one into it
            hint = "" if read_only else " (a store is made only where no file is: remove it or give another path)"
            raise CorruptFileError(f"{self.path}: an empty file, not a plyground results store{hint}")
        try:
            if read_only:  # SQLite's read-only mode: nothing written, not even a journal
                self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            else:
                self._db = sqlite3.connect(self.path)
        except sqlite3.OperationalError as exc:
            raise InvalidInputError(f"cannot open the results store {self.path}: {exc}") from None
        try:
            self._prepare()
        except sqlite3.OperationalError as exc:  # locked, or a journal to roll back that read-only cannot
            self._db.close()
            raise InvalidInputError(f"cannot open the results store {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise CorruptFileError(f"{self.path}: not a plyground results store ({exc})") from None
        except PlygroundError:
            self._db.close()
            raise

    def _create(self) -> None:
        """A new store at the missing :attr:`path`: made whole beside it, then linked into place.

        A process opening the path at the same moment finds no file or a whole store, never
        the empty file SQLite starts with; one that made the store first keeps it.
        """
        tmp = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex}.tmp")
        try:
            db = sqlite3.connect(tmp)
            try:
                with db:
                    db.executescript(_SCHEMA)
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            finally:
                db.close()
            try:
                os.link(tmp, self.path)
            except FileExistsError:
                pass  # made by another process in the meantime: that one is the store
            except OSError:  # a file system without hard links: a rename, unless the store appeared
                if not self.path.exists():
                    os.replace(tmp, self.path)
        except (sqlite3.Error, OSError) as exc:
            raise InvalidInputError(f"cannot create the results store {self.path}: {exc}") from None
        finally:
            tmp.unlink(missing_ok=True)

    def _prepare(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        self._version = version
        if version > SCHEMA_VERSION:
            raise CorruptFileError(
                f"{self.path}: written by a newer plyground (store version {version}, this one reads up to "
                f"{SCHEMA_VERSION}); upgrade plyground"
            )
        if version < 1 or not {"runs", "games"} <= tables:
            raise CorruptFileError(f"{self.path}: not a plyground results store (no runs and games tables)")
        if version < SCHEMA_VERSION and not self.read_only:
            self._upgrade()
            self._version = SCHEMA_VERSION

    def _upgrade(self) -> None:
        """Bring an older store to this version, in one transaction: version 1's runs get the evaluator they used,
        version 2's runs no tables and their games no table move."""
        try:
            self._db.execute("BEGIN IMMEDIATE")  # another process upgrading the same file waits, then finds it done
        except sqlite3.OperationalError as exc:
            raise InvalidInputError(f"cannot upgrade the results store {self.path}: {exc}") from None
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 1:
                self._db.execute(f"ALTER TABLE runs ADD COLUMN evaluator TEXT NOT NULL DEFAULT '{_HEURISTIC}'")
                version = 2
            if version == 2:
                self._db.execute("ALTER TABLE runs ADD COLUMN tablebases TEXT NOT NULL DEFAULT '[]'")
                self._db.execute("ALTER TABLE games ADD COLUMN table_moves INTEGER NOT NULL DEFAULT 0")
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.commit()
        except sqlite3.OperationalError as exc:
            self._db.rollback()
            raise InvalidInputError(
                f"cannot upgrade the results store {self.path} to version {SCHEMA_VERSION}: {exc}"
            ) from None
        except BaseException:
            self._db.rollback()
            raise

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise PlygroundError(f"the results store {self.path} was opened read-only: it cannot be written")
        with self._db:
            yield self._db

    def start_run(self, settings: RunSettings) -> int:
        """Record a new run and return its id.

        Raises:
            InvalidInputError: weights with an evaluator that is not the heuristic.
        """
        stored_weights = stored_hash = ""  # a network has no weights: the run stores none
        if settings.uses_weights:
            from plyground.g2048 import default_weights

            weights = settings.weights if settings.weights is not None else default_weights()
            stored_weights, stored_hash = json.dumps(weights.to_dict(), sort_keys=True), weights_hash(weights)
        elif settings.weights is not None:
            raise InvalidInputError(f"weights set the heuristic: they cannot be used with {settings.evaluator}")
        started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO runs (started, rows, cols, time_ms, depth, p_four, weights_hash, weights, backend, "
                "evaluator, tablebases) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    started,
                    settings.rows,
                    settings.cols,
                    settings.time_ms,
                    settings.depth,
                    settings.p_four,
                    stored_hash,
                    stored_weights,
                    settings.backend,
                    settings.evaluator,
                    json.dumps(list(settings.tablebases)),
                ),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def delete_run(self, run_id: int) -> None:
        """Remove run ``run_id`` and its games (a run that failed before its first game)."""
        with self._transaction() as db:
            db.execute("DELETE FROM games WHERE run_id = ?", (run_id,))
            db.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    def add_game(self, run_id: int, result: GameResult) -> None:
        """Record a finished game of run ``run_id`` (committed at once)."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO games (run_id, seed, score, max_tile, moves, seconds, mean_depth, table_moves) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    result.seed,
                    result.score,
                    result.max_tile,
                    result.moves,
                    result.seconds,
                    result.mean_depth,
                    result.table_moves,
                ),
            )

    def game_count(self, run_id: int) -> int:
        """The games of run ``run_id`` stored (committed) so far."""
        return int(self._db.execute("SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)).fetchone()[0])

    def runs(self) -> list[RunRecord]:
        """Every run with its games (by seed), oldest first.

        Raises:
            CorruptFileError: a stored row cannot be read back.
        """
        games: dict[int, list[GameRow]] = {}
        table_moves = "table_moves" if self._version >= 3 else "0"  # older versions, read as they are
        for row in self._db.execute(
            f"SELECT run_id, seed, score, max_tile, moves, seconds, mean_depth, {table_moves} FROM games "
            "ORDER BY run_id, seed"
        ):
            games.setdefault(row[0], []).append(GameRow(*row[1:]))
        records = []
        evaluator = "evaluator" if self._version >= 2 else f"'{_HEURISTIC}'"  # version 1, read as it is
        tablebases = "tablebases" if self._version >= 3 else "'[]'"
        for row in self._db.execute(
            "SELECT id, started, rows, cols, time_ms, depth, p_four, weights_hash, weights, backend, "
            f"{evaluator}, {tablebases} FROM runs ORDER BY id"
        ):
            heuristic = row[10] == _HEURISTIC
            records.append(
                RunRecord(
                    id=row[0],
                    started=row[1],
                    settings=RunSettings(
                        rows=row[2],
                        cols=row[3],
                        time_ms=row[4],
                        depth=row[5],
                        p_four=row[6],
                        evaluator=row[10],
                        weights=_weights(row[8], self.path, row[0]) if heuristic else None,
                        backend=row[9],
                        tablebases=_tablebases(row[11], self.path, row[0]),
                    ),
                    weights_hash=row[7] if heuristic else None,
                    games=tuple(games.get(row[0], ())),
                )
            )
        return records


def _tablebases(text: str, path: Path, run_id: int) -> tuple[str, ...]:
    try:
        names: Any = json.loads(text)
    except ValueError:
        names = None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise CorruptFileError(f"{path}: the endgame tables of run {run_id} cannot be read: {text!r}")
    return tuple(names)


def _weights(text: str, path: Path, run_id: int) -> Weights:
    from plyground.g2048 import Weights

    try:
        data: Any = json.loads(text)
        return Weights.from_dict(data)
    except ValueError as exc:
        raise CorruptFileError(f"{path}: the weights of run {run_id} cannot be read: {exc}") from None
