"""Strong solver for small 2048 boards: the optimal expected score of every reachable state.

The method of Kaneko & Yamashita, "Strongly Solving 2048 4×3" (arXiv:2510.04580):

* A *state* is a board before the player's move; an *afterstate* the board right after a
  legal move, before the spawn. The *age* of a board is the sum of its tiles: a move
  keeps it, a spawn adds 2 or 4.
* **Forward pass**: the states of age n come only from the afterstates of ages n - 2 (a 2
  spawns) and n - 4 (a 4 spawns), and the afterstates of age n from the states of age n.
  So the reachable boards are listed age by age, with three layers in memory at a time.
  A game starts on the empty board with two independent spawns; the one-tile boards in
  between are not states.
* **Backward pass**, from the largest age down:
  V(state) = max over legal moves of (points scored + V(afterstate)), 0 with no legal move;
  V(afterstate) = average over its empty cells of ((1 - p_four) V(with a 2) + p_four V(with a 4)).
  V is the expected *future* score under optimal play.
* Boards are stored once per symmetry class (8 symmetries on a square board, 4 on a
  rectangle), as sorted arrays of canonical codes per age, values as float64.

Every finished layer is written to a folder (atomically), so a killed solve resumes
where it stopped and a solved board loads without solving again::

    solution.json            rows, cols, p_four, progress and the counts of every age
    states-0004.npy          canonical state codes of age 4, sorted (uint64)
    after-0004.npy           canonical afterstate codes of age 4, sorted
    values-0004.npy          V of each state of age 4 (float64)

With ``compact=True`` the code arrays are stored Elias-Fano encoded (``*.ef.npy``) over
the cells packed 4 bits each, as the paper does.
"""

from __future__ import annotations

import itertools
import os
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from plyground.core.files import atomic_write, data_dir, read_json, write_json
from plyground.errors import CorruptFileError, InvalidBoardError, InvalidInputError, PlygroundError
from plyground.g2048 import _kernels as K
from plyground.g2048 import _solver_kernels as SK
from plyground.g2048.board import DIRECTIONS, Board, Direction, check_p_four

__all__ = [
    "FORMAT",
    "MAX_CELLS",
    "AgeCounts",
    "Progress",
    "Solution",
    "StartClass",
    "default_directory",
    "solve",
]

FORMAT = "plyground.g2048.solution"
VERSION = 1
MAX_CELLS = 12
"""The solver takes boards of at most 12 cells (2×2 to 4×3 and 3×4)."""

Codes = npt.NDArray[np.uint64]
Values = npt.NDArray[np.float64]

Progress = Callable[[str, int, "AgeCounts | None"], None]
"""Called as ``progress(phase, age, counts)``: phase "forward" (with the new layer's counts) or "backward"."""


@dataclass(frozen=True)
class AgeCounts:
    """The boards of one age (or of all ages), per symmetry class and unreduced."""

    age: int
    states: int
    states_unreduced: int
    terminal: int
    terminal_unreduced: int
    afterstates: int
    afterstates_unreduced: int

    def __add__(self, other: AgeCounts) -> AgeCounts:
        return AgeCounts(
            max(self.age, other.age), *(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)[1:])
        )


@dataclass(frozen=True)
class StartClass:
    """A class of start states: a canonical two-tile board, its probability and its value."""

    board: Board
    probability: float
    value: float


def default_directory(rows: int, cols: int, p_four: float = 0.1) -> Path:
    """Where :func:`solve` keeps a solution unless told otherwise: under the user data folder."""
    return data_dir() / "solutions" / f"{rows}x{cols}-p{p_four:g}"


def _check_size(rows: Any, cols: Any) -> tuple[int, int]:
    if not all(isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 4 for n in (rows, cols)):
        raise InvalidInputError(f"a board has 2 to 4 rows and columns, got {rows!r}x{cols!r}")
    if rows * cols > MAX_CELLS:
        raise InvalidInputError(f"the solver takes boards of at most {MAX_CELLS} cells, got {rows}x{cols}")
    return rows, cols


# ---------------------------------------------------------------------------
# Layer files
# ---------------------------------------------------------------------------


class _Store:
    """The files of one solution folder."""

    def __init__(self, directory: Path, rows: int, cols: int, compact: bool) -> None:
        self.directory = directory
        self.rows, self.cols, self.compact = rows, cols, compact

    @property
    def meta_path(self) -> Path:
        return self.directory / "solution.json"

    def _path(self, kind: str, age: int) -> Path:
        suffix = ".ef.npy" if self.compact and kind != "values" else ".npy"
        return self.directory / f"{kind}-{age:04d}{suffix}"

    def save(self, kind: str, age: int, array: npt.NDArray[Any]) -> None:
        if self.compact and kind != "values":
            array = _compact(array, self.rows, self.cols)

        def write(handle: IO[bytes]) -> None:
            np.save(handle, array, allow_pickle=False)

        atomic_write(self._path(kind, age), write)

    def load(self, kind: str, age: int) -> npt.NDArray[Any]:
        path = self._path(kind, age)
        dtype = np.float64 if kind == "values" else np.uint64
        try:
            array = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise CorruptFileError(f"{path} is missing: the solution folder is incomplete") from None
        except (ValueError, OSError, EOFError) as exc:
            raise CorruptFileError(f"{path} cannot be read ({exc})") from None
        if array.dtype != dtype or array.ndim != 1:
            raise CorruptFileError(f"{path} holds {array.dtype} of shape {array.shape}, expected a 1-D {dtype}")
        if self.compact and kind != "values":
            array = _expand(array, self.rows, self.cols, path)
        return np.ascontiguousarray(array)

    def nbytes(self, kind: str, age: int) -> int:
        return self._path(kind, age).stat().st_size


# ---------------------------------------------------------------------------
# Parallel layer work
# ---------------------------------------------------------------------------


def _chunks(n: int, parts: int) -> list[slice]:
    bounds = np.linspace(0, n, parts + 1).astype(np.int64)
    return [slice(int(a), int(b)) for a, b in itertools.pairwise(bounds) if b > a]


def _sorted_unique(codes: Codes) -> Codes:
    codes.sort()
    return codes[: SK._unique_sorted(codes)]


def _merge(parts: list[Codes]) -> Codes:
    """Merge sorted repeat-free arrays into one."""
    while len(parts) > 1:
        merged = []
        for a, b in itertools.zip_longest(parts[::2], parts[1::2]):
            if b is None:
                merged.append(a)
                continue
            out = np.empty(a.shape[0] + b.shape[0], dtype=np.uint64)
            merged.append(out[: SK._merge_unique(a, b, out)])
        parts = merged
    return parts[0] if parts else np.empty(0, dtype=np.uint64)


class _Layers:
    """The layer kernels, run on every worker over parts of each layer."""

    def __init__(self, rows: int, cols: int, p_four: float, pool: ThreadPoolExecutor, workers: int) -> None:
        self.rows, self.cols, self.p_four = rows, cols, p_four
        self.pool, self.workers = pool, workers

    def _map(self, n: int, job: Callable[[slice], Any]) -> list[Any]:
        return list(self.pool.map(job, _chunks(n, self.workers * 4 if n > 100_000 else 1)))

    def spawned(self, twos: Codes, fours: Codes) -> Codes:
        """The canonical codes of every board with a 2 spawned on ``twos`` or a 4 on ``fours``."""
        rows, cols = self.rows, self.cols
        if self.p_four == 0.0:
            fours = fours[:0]
        if self.p_four == 1.0:
            twos = twos[:0]

        def job(part: slice) -> Codes:
            two, four = twos[part], fours[part]
            out = np.empty(SK._count_spawns(two, rows, cols) + SK._count_spawns(four, rows, cols), dtype=np.uint64)
            n = SK._spawn_layer(two, np.uint64(1), rows, cols, out)
            n += SK._spawn_layer(four, np.uint64(2), rows, cols, out[n:])
            return _sorted_unique(out[:n])

        return _merge(self._map(max(twos.shape[0], fours.shape[0]), job))

    def afterstates(self, states: Codes) -> tuple[Codes, int, int]:
        """The canonical afterstates of ``states``, and the terminal states (classes, unreduced)."""

        def job(part: slice) -> tuple[Codes, int, int]:
            out = np.empty(4 * (part.stop - part.start), dtype=np.uint64)
            n, terminal, terminal_boards = SK._move_layer(states[part], self.rows, self.cols, out)
            return _sorted_unique(out[:n]), terminal, terminal_boards

        results = self._map(states.shape[0], job)
        return _merge([r[0] for r in results]), sum(r[1] for r in results), sum(r[2] for r in results)

    def unreduced(self, codes: Codes) -> int:
        return sum(self._map(codes.shape[0], lambda part: SK._orbit_total(codes[part], self.rows, self.cols)))

    def chance_values(self, boards: Codes, layer_2: tuple[Codes, Values], layer_4: tuple[Codes, Values]) -> Values:
        out = np.empty(boards.shape[0], dtype=np.float64)

        def job(part: slice) -> int:
            return int(
                SK._chance_values(boards[part], self.rows, self.cols, self.p_four, *layer_2, *layer_4, out[part])
            )

        if sum(self._map(boards.shape[0], job)):
            raise CorruptFileError("a spawned board is missing from its layer: the solution folder is damaged")
        return out

    def state_values(self, states: Codes, after: Codes, after_values: Values) -> Values:
        out = np.empty(states.shape[0], dtype=np.float64)

        def job(part: slice) -> int:
            return int(SK._state_values(states[part], self.rows, self.cols, after, after_values, out[part]))

        if sum(self._map(states.shape[0], job)):
            raise CorruptFileError("an afterstate is missing from its layer: the solution folder is damaged")
        return out


def _compact(codes: Codes, rows: int, cols: int) -> Codes:
    """Sorted codes as one array: ``[n, low bits, words of lows, lows..., highs...]`` of their Elias-Fano code.

    The cells are packed 4 bits each first, so that the codes of an R×C board take ``4RC`` bits.
    """
    from plyground.core import elias_fano

    packed = np.empty_like(codes)
    SK._pack_dense(codes, rows, cols, packed)
    code = elias_fano.encode(packed)
    head = np.array([code.n, code.low_bits, code.lows.shape[0]], dtype=np.uint64)
    return np.concatenate([head, code.lows, code.highs])


def _expand(words: Codes, rows: int, cols: int, path: Path) -> Codes:
    """The codes stored by :func:`_compact`."""
    from plyground.core import elias_fano

    if words.shape[0] < 3 or int(words[2]) > words.shape[0] - 3:
        raise CorruptFileError(f"{path} is not an Elias-Fano code (its header is cut)")
    n, low_bits, n_lows = (int(w) for w in words[:3])
    arrays = {
        "n": np.array(n, dtype=np.int64),
        "low_bits": np.array(low_bits, dtype=np.int64),
        "lows": words[3 : 3 + n_lows],
        "highs": words[3 + n_lows :],
    }
    try:
        packed = elias_fano.EliasFano.from_arrays(arrays).decode()
    except CorruptFileError as exc:
        raise CorruptFileError(f"{path}: {exc}") from None
    codes = np.empty_like(packed)
    SK._unpack_dense(packed, rows, cols, codes)
    return codes


def _one_tile_boards(rows: int, cols: int, exponent: int) -> Codes:
    """The canonical boards with one tile ``2**exponent``: what the first spawn of a game leaves."""
    boards = {
        int(SK._canonical(np.uint64(exponent << (16 * r + 4 * c)), rows, cols))
        for r in range(rows)
        for c in range(cols)
    }
    return np.array(sorted(boards), dtype=np.uint64)


_EMPTY = np.empty(0, dtype=np.uint64)
_NO_VALUES = np.empty(0, dtype=np.float64)


# ---------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------


def solve(
    rows: int,
    cols: int,
    *,
    p_four: float = 0.1,
    directory: str | os.PathLike[str] | None = None,
    compact: bool = False,
    forward_only: bool = False,
    max_age: int | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
) -> Solution:
    """Solve the R×C game: list every reachable board, then value every state.

    A folder that already holds this board's solution (or a part of it) is reused: a
    finished solution loads at once, an unfinished one resumes where it stopped.

    Args:
        rows: the board's rows.
        cols: the board's columns (at most :data:`MAX_CELLS` cells in all).
        p_four: the probability that a spawned tile is a 4.
        directory: the solution folder (default: :func:`default_directory`).
        compact: store the code arrays Elias-Fano encoded (smaller, slower to load).
        forward_only: list the reachable boards and count them, without values.
        max_age: with ``forward_only``, stop the forward pass after this age.
        workers: threads (default: every core).
        progress: called after each layer (see :data:`Progress`).

    Raises:
        InvalidInputError: a bad size or parameter, or a folder that holds another solution.
        CorruptFileError: a file of the folder cannot be read.
    """
    rows, cols = _check_size(rows, cols)
    p_four = check_p_four(p_four)
    if max_age is not None and not forward_only:
        raise InvalidInputError("max_age limits the forward pass: give it with forward_only=True")
    if max_age is not None and not (isinstance(max_age, int) and max_age >= 4):
        raise InvalidInputError(f"max_age must be an integer of at least 4, got {max_age!r}")
    if workers is not None and not (isinstance(workers, int) and workers >= 1):
        raise InvalidInputError(f"workers must be a positive integer, got {workers!r}")
    folder = Path(directory) if directory is not None else default_directory(rows, cols, p_four)
    solver = _Solver(folder, rows, cols, p_four, compact, workers or os.cpu_count() or 1, progress)
    with ThreadPoolExecutor(max_workers=solver.workers, thread_name_prefix="solver") as pool:
        solver.forward(pool, max_age)
        if not forward_only:
            solver.backward(pool)
    return Solution(folder)


class _Solver:
    def __init__(
        self,
        folder: Path,
        rows: int,
        cols: int,
        p_four: float,
        compact: bool,
        workers: int,
        progress: Progress | None,
    ) -> None:
        self.folder, self.rows, self.cols, self.p_four = folder, rows, cols, p_four
        self.workers = workers
        self.progress = progress or (lambda phase, age, counts: None)
        self.meta = self._open(compact)
        self.store = _Store(folder, rows, cols, bool(self.meta["compact"]))

    def _open(self, compact: bool) -> dict[str, Any]:
        path = self.folder / "solution.json"
        if not path.exists():
            if self.folder.exists() and any(self.folder.iterdir()):
                raise InvalidInputError(f"{self.folder} is not empty and holds no solution: choose another folder")
            return {
                "format": FORMAT,
                "version": VERSION,
                "rows": self.rows,
                "cols": self.cols,
                "p_four": self.p_four,
                "compact": compact,
                "forward": {"age": 0, "complete": False},
                "backward": {"age": None, "complete": False},
                "ages": [],
            }
        meta = _read_meta(path)
        if (meta["rows"], meta["cols"], meta["p_four"]) != (self.rows, self.cols, self.p_four):
            raise InvalidInputError(
                f"{self.folder} holds the solution of {meta['rows']}x{meta['cols']} with p_four {meta['p_four']}, "
                f"not {self.rows}x{self.cols} with p_four {self.p_four}: choose another folder"
            )
        return meta

    def _save_meta(self) -> None:
        write_json(self.store.meta_path, self.meta)

    def forward(self, pool: ThreadPoolExecutor, max_age: int | None) -> None:
        """List the states and afterstates of every age, from where an earlier run stopped."""
        forward = self.meta["forward"]
        if forward["complete"] or (max_age is not None and forward["age"] >= max_age):
            return
        layers = _Layers(self.rows, self.cols, self.p_four, pool, self.workers)
        # The first spawn of a game: one-tile boards, of the tiles that can spawn.
        one_tile = {
            2 * e: _one_tile_boards(self.rows, self.cols, e) for e, p in ((1, 1 - self.p_four), (2, self.p_four)) if p
        }

        def sources(age: int, after: Codes) -> Codes:
            """What a spawn at ``age`` lands on: the afterstates, and the one-tile start boards."""
            return _merge([after, one_tile[age]]) if age in one_tile else after

        age = max(forward["age"], 2)
        spawn_from = {
            a: sources(a, self.store.load("after", a) if 4 <= a <= forward["age"] else _EMPTY) for a in (age - 2, age)
        }
        while True:
            age += 2
            states = layers.spawned(spawn_from.get(age - 2, _EMPTY), spawn_from.get(age - 4, _EMPTY))
            # Past the start (two spawns on the empty board: ages 4 to 8), nothing more is reachable
            # once a layer is empty and so is the one that a 4 would spawn on next.
            if age > 8 and states.shape[0] == 0 and spawn_from.get(age - 2, _EMPTY).shape[0] == 0:
                forward["complete"] = True
                while self.meta["ages"] and self.meta["ages"][-1][1] == 0:  # empty layers at the end (p_four 1)
                    self.meta["ages"].pop()
                self._save_meta()
                return
            after, terminal, terminal_boards = layers.afterstates(states)
            self.store.save("states", age, states)
            self.store.save("after", age, after)
            counts = AgeCounts(
                age,
                int(states.shape[0]),
                layers.unreduced(states),
                terminal,
                terminal_boards,
                int(after.shape[0]),
                layers.unreduced(after),
            )
            self.meta["ages"].append(list(asdict(counts).values()))
            forward["age"] = age
            self._save_meta()
            self.progress("forward", age, counts)
            spawn_from = {age - 2: spawn_from.get(age - 2, _EMPTY), age: sources(age, after)}
            if max_age is not None and age >= max_age:
                return

    def backward(self, pool: ThreadPoolExecutor) -> None:
        """Value every state, from the largest age down, from where an earlier run stopped."""
        backward = self.meta["backward"]
        if backward["complete"]:
            return
        layers = _Layers(self.rows, self.cols, self.p_four, pool, self.workers)
        ages = [row[0] for row in self.meta["ages"]]
        done = backward["age"]
        known: dict[int, tuple[Codes, Values]] = {}
        if done is not None:
            for a in (done, done + 2):
                if a in ages:
                    known[a] = (self.store.load("states", a), self.store.load("values", a))
        empty = (_EMPTY, _NO_VALUES)
        for age in reversed(ages):
            if done is not None and age >= done:
                continue
            after = self.store.load("after", age)
            after_values = layers.chance_values(after, known.get(age + 2, empty), known.get(age + 4, empty))
            states = self.store.load("states", age)
            values = layers.state_values(states, after, after_values)
            self.store.save("values", age, values)
            backward["age"] = age
            self._save_meta()
            known.pop(age + 4, None)
            known[age] = (states, values)
            self.progress("backward", age, None)
        backward["complete"] = True
        self._save_meta()


def _read_meta(path: Path) -> dict[str, Any]:
    meta = read_json(path)
    try:
        if meta["format"] != FORMAT or meta["version"] != VERSION:
            raise CorruptFileError(f"{path} is not a plyground solution of version {VERSION}")
        _check_size(meta["rows"], meta["cols"])
        meta["p_four"] = check_p_four(meta["p_four"])
        for row in meta["ages"]:
            if len(row) != len(fields(AgeCounts)) or not all(isinstance(n, int) for n in row):
                raise CorruptFileError(f"{path} has a malformed count row {row!r}")
        bool(meta["compact"]), meta["forward"]["age"], meta["forward"]["complete"]
        meta["backward"]["age"], meta["backward"]["complete"]
    except (KeyError, TypeError, InvalidInputError) as exc:
        if isinstance(exc, CorruptFileError):
            raise
        raise CorruptFileError(f"{path} is not a valid solution file ({exc})") from None
    return meta  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------
# The solution
# ---------------------------------------------------------------------------


class Solution:
    """A solved (or forward-counted) board size, read from its folder.

    Layers are loaded when needed and the last few are kept in memory.

    Raises:
        CorruptFileError: the folder holds no readable solution.
    """

    _CACHED_LAYERS = 12

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._meta = _read_meta(self.directory / "solution.json")
        self.rows: int = self._meta["rows"]
        self.cols: int = self._meta["cols"]
        self.p_four: float = self._meta["p_four"]
        self.compact: bool = bool(self._meta["compact"])
        self._store = _Store(self.directory, self.rows, self.cols, self.compact)
        self._layers: OrderedDict[int, tuple[Codes, Values | None]] = OrderedDict()
        self._ages = {row[0] for row in self._meta["ages"]}

    def __repr__(self) -> str:
        state = "solved" if self.solved else "forward pass only"
        return f"Solution({self.rows}x{self.cols}, p_four={self.p_four}, {state}, {self.directory})"

    @property
    def solved(self) -> bool:
        """Whether every state has its value."""
        return bool(self._meta["backward"]["complete"])

    @property
    def complete(self) -> bool:
        """Whether the forward pass listed every age."""
        return bool(self._meta["forward"]["complete"])

    def counts(self) -> list[AgeCounts]:
        """The boards of each age, per symmetry class and unreduced."""
        return [AgeCounts(*row) for row in self._meta["ages"]]

    def totals(self) -> AgeCounts:
        """The boards of all ages together (``age`` is the largest age)."""
        total = AgeCounts(0, 0, 0, 0, 0, 0, 0)
        for counts in self.counts():
            total = total + counts
        return total

    def stored_bytes(self) -> dict[str, int]:
        """Bytes on disk of the state codes, afterstate codes and values."""
        return {
            kind: sum(self._store.nbytes(kind, age) for age in sorted(self._ages))
            for kind in ("states", "after") + (("values",) if self.solved else ())
        }

    # -- lookups ----------------------------------------------------------

    def _layer(self, age: int) -> tuple[Codes, Values | None]:
        if age in self._layers:
            self._layers.move_to_end(age)
            return self._layers[age]
        if age not in self._ages:
            layer: tuple[Codes, Values | None] = (_EMPTY, _NO_VALUES)
        else:
            codes = self._store.load("states", age)
            values = self._store.load("values", age) if self.solved else None
            if values is not None and values.shape != codes.shape:
                raise CorruptFileError(f"{self.directory}: the values of age {age} do not match its states")
            layer = (codes, values)
        self._layers[age] = layer
        if len(self._layers) > self._CACHED_LAYERS:
            self._layers.popitem(last=False)
        return layer

    def _check(self, board: Board) -> np.uint64:
        if not isinstance(board, Board):
            raise InvalidInputError(f"expected a Board, got {type(board).__name__}")
        if (board.rows, board.cols) != (self.rows, self.cols):
            raise InvalidBoardError(
                f"this is the solution of {self.rows}x{self.cols}, not of a {board.rows}x{board.cols} board"
            )
        if not self.solved:
            raise PlygroundError(f"{self.directory} holds no values yet (forward pass only): solve it first")
        return np.uint64(board.bits)

    def _state_value(self, bits: np.uint64, age: int, board: Board) -> float:
        codes, values = self._layer(age)
        k = int(SK._find(codes, SK._canonical(bits, self.rows, self.cols)))
        if k < 0 or values is None:
            raise InvalidBoardError(f"{board.to_text()} is not a reachable {self.rows}x{self.cols} state")
        return float(values[k])

    def _spawn_values(self, boards: Codes, age: int, board: Board) -> Values:
        """V of boards of ``age`` before a spawn: the average over the spawns of the states they become.

        The empty board spawns one-tile boards, which spawn again (the start of a game).
        """
        if age == 0:  # the empty board
            cells = [1 << i for i in range(64) if int(K._empty_bits(boards[0], self.rows, self.cols)) >> i & 1]
            total = 0.0
            for exponent, p in ((1, 1.0 - self.p_four), (2, self.p_four)):
                if p:
                    one_tile = np.array([cell * exponent for cell in cells], dtype=np.uint64)
                    total += p * float(self._spawn_values(one_tile, 2 * exponent, board).sum())
            return np.array([total / len(cells)])
        out = np.empty(boards.shape[0], dtype=np.float64)
        layer_2, layer_4 = self._layer(age + 2), self._layer(age + 4)
        missing = SK._chance_values(
            boards, self.rows, self.cols, self.p_four, layer_2[0], layer_2[1], layer_4[0], layer_4[1], out
        )
        if missing:
            raise InvalidBoardError(f"{board.to_text()} does not lead to reachable {self.rows}x{self.cols} states")
        return out

    def value(self, board: Board) -> float:
        """The optimal expected future score of ``board`` as a state (the player to move).

        Raises:
            InvalidBoardError: the board is not a reachable state of this size.
        """
        bits = self._check(board)
        return self._state_value(bits, board.tile_sum(), board)

    def afterstate_value(self, board: Board) -> float:
        """The optimal expected future score of ``board`` as an afterstate (a tile to spawn).

        The empty board and one-tile boards are valued as the start of a game.
        """
        bits = self._check(board)
        if K._count_empty(bits, self.rows, self.cols) == 0:
            raise InvalidBoardError(f"{board.to_text()} has no empty cell to spawn on")
        return float(self._spawn_values(np.array([bits]), board.tile_sum(), board)[0])

    def move_values(self, board: Board) -> dict[Direction, float]:
        """Each legal move's points plus the value of its afterstate, in direction order."""
        bits = self._check(board)
        age = board.tile_sum()
        self._state_value(bits, age, board)  # reachable?
        moves = [d for d in range(4) if K._move(bits, d, self.rows, self.cols) != bits]
        after = np.array([K._move(bits, d, self.rows, self.cols) for d in moves], dtype=np.uint64)
        values = self._spawn_values(after, age, board) if moves else _NO_VALUES
        return {
            DIRECTIONS[d]: int(K._points(bits, d, self.rows, self.cols)) + float(value)
            for d, value in zip(moves, values, strict=True)
        }

    def best_move(self, board: Board) -> Direction | None:
        """An optimal move (the first in direction order among equals), None on a finished board."""
        values = self.move_values(board)
        return max(values.items(), key=lambda item: item[1])[0] if values else None

    def expected_score(self) -> float:
        """The expected final score of optimal play from the random start."""
        self._check(Board.from_rows([[0] * self.cols for _ in range(self.rows)]))
        return sum(start.probability * start.value for start in self.start_classes())

    def start_classes(self) -> list[StartClass]:
        """Every class of start states with its probability (they sum to 1) and value."""
        n = self.rows * self.cols
        tiles = ((1, 1.0 - self.p_four), (2, self.p_four))
        probability: dict[int, float] = {}
        for (i, (e1, p1)), (j, (e2, p2)) in itertools.product(
            itertools.product(range(n), tiles), itertools.product(range(n), tiles)
        ):
            if i == j or p1 == 0.0 or p2 == 0.0:
                continue
            bits = np.uint64(e1 << _shift(i, self.cols) | e2 << _shift(j, self.cols))
            code = int(SK._canonical(bits, self.rows, self.cols))
            probability[code] = probability.get(code, 0.0) + p1 / n * p2 / (n - 1)
        out = []
        for code, p in sorted(probability.items()):
            board = Board(code, self.rows, self.cols)
            out.append(StartClass(board, p, self.value(board)))
        return out

    def layer(self, age: int) -> tuple[Codes, Values | None]:
        """The canonical state codes of ``age`` (sorted bitboards) and their values (None before
        the backward pass), as read-only arrays; empty for an age no state has.

        Raises:
            InvalidInputError: ``age`` is not a non-negative integer.
        """
        if isinstance(age, bool) or not isinstance(age, int | np.integer) or age < 0:
            raise InvalidInputError(f"age must be a non-negative integer, got {age!r}")
        codes, values = self._layer(int(age))
        codes = codes.view()
        codes.flags.writeable = False
        if values is not None:
            values = values.view()
            values.flags.writeable = False
        return codes, values

    def boards(self, age: int) -> Iterator[tuple[Board, float | None]]:
        """The canonical states of ``age`` with their values (None before the backward pass)."""
        codes, values = self._layer(age)
        for k, code in enumerate(codes):
            yield Board(int(code), self.rows, self.cols), (None if values is None else float(values[k]))


def _shift(cell: int, cols: int) -> int:
    return 16 * (cell // cols) + 4 * (cell % cols)
