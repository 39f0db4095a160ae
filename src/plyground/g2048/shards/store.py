"""The folder of a sharded solution: its manifest, the shards of every age, the work between tasks.

::

    sharded.json                     rows, cols, p_four, shards, the hash; progress and counts per age
    ages/00012/states-00003.pgc      the canonical state codes of age 12 that shard 3 owns, sorted
    ages/00012/after-00003.pgc       the afterstate codes of age 12 that shard 3 owns
    ages/00012/values-00003.pgv      V of each state of states-00003 (after the backward pass)
    done/f-00012/<phase>-00003.json  a finished task of the forward pass (phase, age 12, shard 3), its counts
    done/b-00012/                    the same for the backward pass
    work/f-00012/, work/b-00012/     codes and values passed between the tasks of age 12: a file a
                                     sending task, a part for each receiving shard (``_bundle``)

Codes and values are stored by :mod:`plyground.g2048.shards.codec`. Every file is written
atomically, and a task's record only after its files: a task is done exactly when its
record is there, and running it again writes the same files. The folder can be a local disk
(a ``LocalCluster``) or a file system shared by every worker of a cluster.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat, atomic_write, read_json, write_json
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.board import check_p_four
from plyground.g2048.solution import AgeCounts, check_size

if TYPE_CHECKING:
    from plyground.g2048.shards.codec import Precision

__all__ = ["HASH", "MANIFEST", "MAX_SHARDS", "ShardFolder", "is_sharded"]

T = TypeVar("T")
Codes = npt.NDArray[np.uint64]
Values = npt.NDArray[np.float64]

FORMAT = "plyground.g2048.sharded-solution"
MANIFEST = FileFormat(FORMAT, 1, "a plyground sharded solution", "sharded solution")
"""``sharded.json``."""
MANIFEST_NAME = "sharded.json"
HASH = "splitmix64-leading-half-mod"
"""How a code's shard is chosen: ``mix64(code) mod shards`` (:mod:`._shard_kernels`)."""
MAX_SHARDS = 4096
"""At most this many shards: a round of tasks writes up to ``shards**2`` work files."""
VALUE_PRECISIONS = ("f64", "f32")


def is_sharded(directory: str | os.PathLike[str]) -> bool:
    """Whether ``directory`` holds a sharded solution (its manifest)."""
    return (Path(directory) / MANIFEST_NAME).is_file()


def owner_shift(rows: int, cols: int) -> int:
    """The bits of a code left out of its owner's hash: the trailing half of the cells (4 bits a cell)."""
    return 4 * (rows * cols // 2)


def check_shards(shards: Any) -> int:
    """``shards`` as a number of shards.

    Raises:
        InvalidInputError: not an integer from 1 to :data:`MAX_SHARDS`.
    """
    if isinstance(shards, bool) or not isinstance(shards, int) or not 1 <= shards <= MAX_SHARDS:
        raise InvalidInputError(f"the number of shards must be an integer from 1 to {MAX_SHARDS:,}, got {shards!r}")
    return shards


class ShardFolder:
    """The files of one sharded solution folder (see the module's docstring)."""

    def __init__(self, directory: str | Path, meta: dict[str, Any]) -> None:
        self.directory = Path(directory)
        self._root = os.fspath(self.directory)  # file paths are text: a task names dozens of files
        self.meta = meta
        self.rows: int = meta["rows"]
        self.cols: int = meta["cols"]
        self.p_four: float = meta["p_four"]
        self.shards: int = meta["shards"]
        self.values_precision: str = meta["values"]
        self.owner_shift = owner_shift(self.rows, self.cols)
        self.written = {"work": 0, "layers": 0}
        """Bytes written through this object: work files (what tasks send each other) and layer files."""

    # -- opening ------------------------------------------------------------

    @classmethod
    def create_or_open(
        cls, directory: str | Path, rows: int, cols: int, p_four: float, shards: int, values: str = "f64"
    ) -> ShardFolder:
        """The folder's solution of these settings: a new one in an empty (or missing) folder.

        Raises:
            InvalidInputError: the folder holds another solution (another size, rule or
                number of shards), an in-memory solution, or other files.
            CorruptFileError: its manifest cannot be read.
        """
        directory = Path(directory)
        if values not in VALUE_PRECISIONS:
            raise InvalidInputError(f"values are stored as one of {', '.join(VALUE_PRECISIONS)}, got {values!r}")
        if is_sharded(directory):
            folder = cls.open(directory)
            wanted = {"rows": rows, "cols": cols, "p_four": p_four, "shards": shards}
            held = {key: folder.meta[key] for key in wanted}
            if held != wanted:
                raise InvalidInputError(
                    f"{directory} holds the sharded solution of {held['rows']}x{held['cols']} with p_four "
                    f"{held['p_four']} in {held['shards']} shards, not {rows}x{cols} with p_four {p_four} in "
                    f"{shards} shards: choose another folder"
                )
            return folder
        if (directory / "solution.json").exists():
            raise InvalidInputError(f"{directory} holds an in-memory solution: give the sharded solve another folder")
        if directory.exists() and any(directory.iterdir()):
            raise InvalidInputError(f"{directory} is not empty and holds no solution: choose another folder")
        meta = {
            "rows": rows,
            "cols": cols,
            "p_four": p_four,
            "shards": shards,
            "hash": HASH,
            "values": values,
            "forward": {"age": 0, "complete": False},
            "backward": {"age": None, "complete": False},
            "ages": [],
        }
        folder = cls(directory, meta)
        folder.save_meta()
        return folder

    @classmethod
    def open(cls, directory: str | Path) -> ShardFolder:
        """The sharded solution in ``directory``.

        Raises:
            CorruptFileError: no readable manifest, or one this plyground cannot read.
        """
        path = Path(directory) / MANIFEST_NAME
        try:
            meta = MANIFEST.read(path)
        except FileNotFoundError:
            raise CorruptFileError(f"{directory} holds no sharded solution ({MANIFEST_NAME} is missing)") from None
        try:
            check_size(meta["rows"], meta["cols"])
            meta["p_four"] = check_p_four(meta["p_four"])
            check_shards(meta["shards"])
            if meta["hash"] != HASH:
                raise CorruptFileError(f"{path}: shards by {meta['hash']!r}, this plyground knows only {HASH!r}")
            if meta["values"] not in VALUE_PRECISIONS:
                raise CorruptFileError(f"{path}: unknown value precision {meta['values']!r}")
            for row in meta["ages"]:
                if not isinstance(row, list) or len(row) != 7 or not all(isinstance(n, int) for n in row):
                    raise CorruptFileError(f"{path} has a malformed count row {row!r}")
            meta["forward"]["age"], meta["forward"]["complete"], meta["backward"]["age"], meta["backward"]["complete"]
        except (KeyError, TypeError, InvalidInputError) as exc:
            if isinstance(exc, CorruptFileError):
                raise
            raise CorruptFileError(f"{path} is not a valid sharded solution manifest ({exc})") from None
        return cls(directory, meta)

    def save_meta(self) -> None:
        write_json(self.directory / MANIFEST_NAME, MANIFEST.stamp(self.meta), compact=True)

    # -- what it holds --------------------------------------------------------

    @property
    def ages(self) -> list[int]:
        """The ages listed by the forward pass so far, in order."""
        return [row[0] for row in self.meta["ages"]]

    def counts(self) -> list[AgeCounts]:
        return [AgeCounts(*row) for row in self.meta["ages"]]

    # -- layer files ------------------------------------------------------------

    def layer_path(self, kind: str, age: int, shard: int) -> str:
        """``kind`` is "states", "after" or "values"."""
        suffix = ".pgv" if kind == "values" else ".pgc"
        return f"{self._root}/ages/{age:05d}/{kind}-{shard:05d}{suffix}"

    def work_path(self, name: str, age: int, *keys: int) -> str:
        """A work file of the forward (``f-``) or backward (``b-``) pass of ``age``: ``name`` with its keys."""
        suffix = ".pgv" if name.endswith("ans") else ".pgc"
        keyed = "".join(f"-{k:05d}" for k in keys)
        return f"{self._root}/work/{_part(name)}-{age:05d}/{name}{keyed}{suffix}"

    def write_codes(self, path: str, codes: Codes, age: int) -> int:
        """Write codes of one age: a layer file, or a work file (not flushed to the disk, see :func:`_write_bytes`).

        Returns the bytes written."""
        from plyground.g2048.shards.codec import encode_codes

        return self._put(path, encode_codes(codes, self.rows, self.cols, age))

    def read_codes(self, path: str, age: int) -> Codes:
        from plyground.g2048.shards.codec import decode_codes

        return _read(path, lambda data: decode_codes(data, self.rows, self.cols, age))

    def write_values(self, path: str, values: Values, *, exact: bool = False) -> int:
        """Write values; ``exact`` work files keep float64 whatever the stored precision. Returns the bytes written."""
        from plyground.g2048.shards.codec import encode_values

        precision: Precision = "f64" if exact or self.values_precision == "f64" else "f32"
        return self._put(path, encode_values(values, precision=precision))

    def _put(self, path: str, data: bytes) -> int:
        layer = _is_layer(path)
        self.written["layers" if layer else "work"] += len(data)
        return _write_bytes(path, data, sync=layer)

    def write_code_parts(self, path: str, parts: list[Codes], age: int) -> int:
        """Write one work file of codes for every shard (part ``s`` for shard ``s``); returns the bytes written."""
        from plyground.g2048.shards.codec import encode_codes

        return self._put(path, _bundle([encode_codes(part, self.rows, self.cols, age) for part in parts]))

    def read_code_part(self, path: str, index: int, age: int) -> Codes:
        """Part ``index`` of a work file of :meth:`write_code_parts`, read without the others."""
        from plyground.g2048.shards.codec import decode_codes

        return _read_part(path, index, lambda data: decode_codes(data, self.rows, self.cols, age))

    def write_value_parts(self, path: str, parts: list[Values]) -> int:
        """Write one work file of exact (float64) values for every shard; returns the bytes written."""
        from plyground.g2048.shards.codec import encode_values

        return self._put(path, _bundle([encode_values(part, precision="f64") for part in parts]))

    def read_value_part(self, path: str, index: int, n: int) -> Values:
        from plyground.g2048.shards.codec import decode_values

        return _read_part(path, index, lambda data: decode_values(data, n))

    def read_values(self, path: str, n: int) -> Values:
        from plyground.g2048.shards.codec import decode_values

        return _read(path, lambda data: decode_values(data, n))

    def layer(self, age: int) -> tuple[Codes, Values | None]:
        """The whole state layer of ``age``, its shards merged in code order, and its values (None before
        they are computed): for checks and small boards, as it holds the layer in memory."""
        codes = [self.read_codes(self.layer_path("states", age, s), age) for s in range(self.shards)]
        solved = self.meta["backward"]["complete"] or (
            self.meta["backward"]["age"] is not None and age >= self.meta["backward"]["age"]
        )
        all_codes = np.concatenate([np.empty(0, dtype=np.uint64), *codes])
        order = np.argsort(all_codes, kind="stable")
        if not solved:
            return all_codes[order], None
        values = [self.read_values(self.layer_path("values", age, s), c.shape[0]) for s, c in enumerate(codes)]
        return all_codes[order], np.concatenate([np.empty(0, dtype=np.float64), *values])[order]

    def layer_bytes(self, kind: str, age: int) -> int:
        """The bytes on disk of one kind of layer file of ``age``, all shards together."""
        return sum(os.stat(self.layer_path(kind, age, s)).st_size for s in range(self.shards))

    # -- task records -------------------------------------------------------------

    def _record_path(self, phase: str, age: int, shard: int) -> str:
        return f"{self._root}/done/{_part(phase)}-{age:05d}/{phase}-{shard:05d}.json"

    def record(self, phase: str, age: int, shard: int, result: dict[str, Any]) -> None:
        """Record the task (phase, age, shard) as finished, with what it counted."""
        _write_bytes(self._record_path(phase, age, shard), json.dumps(result).encode(), sync=False)

    def recorded(self, phase: str, age: int, shard: int) -> dict[str, Any] | None:
        """What the task counted, if it finished; None if not."""
        path = self._record_path(phase, age, shard)
        try:
            result = read_json(path)
        except FileNotFoundError:
            return None
        if not isinstance(result, dict):
            raise CorruptFileError(f"{path} is not a task record")
        return result

    def finish_age(self, part: str, age: int) -> None:
        """Drop the records and work files of a pass's age once the manifest says it is done."""
        for kind in ("done", "work"):
            shutil.rmtree(self.directory / kind / f"{part}-{age:05d}", ignore_errors=True)

    def drop_layer(self, age: int) -> None:
        """Remove the files of an age that turned out empty past the last one."""
        shutil.rmtree(self.directory / "ages" / f"{age:05d}", ignore_errors=True)

    def drop_stale(self) -> None:
        """Remove what a run stopped between its manifest and its clean-up left of finished ages."""
        forward, backward = self.meta["forward"], self.meta["backward"]
        for folder in [*(self.directory / "work").glob("*-*"), *(self.directory / "done").glob("*-*")]:
            part, _, age_text = folder.name.partition("-")
            with contextlib.suppress(ValueError):
                age = int(age_text)
                if (part == "f" and age <= forward["age"]) or (
                    part == "b" and (backward["complete"] or (backward["age"] is not None and age >= backward["age"]))
                ):
                    shutil.rmtree(folder, ignore_errors=True)
        if backward["complete"]:
            shutil.rmtree(self.directory / "work", ignore_errors=True)
            shutil.rmtree(self.directory / "done", ignore_errors=True)


FORWARD_NAMES = ("start", "spawn", "after", "states")
"""The work files and task phases of the forward pass; every other name is of the backward pass."""


def _part(name: str) -> str:
    return "f" if name in FORWARD_NAMES else "b"


def _is_layer(path: str) -> bool:
    return os.path.basename(os.path.dirname(os.path.dirname(path))) == "ages"


def _write_bytes(path: str, data: bytes, *, sync: bool) -> int:
    """Write ``data`` atomically and return its length; ``sync=False`` (work files, task records) does not
    wait for the disk.

    A killed process or worker leaves every file whole either way. Only a machine that loses
    power can lose unsynced files: the work and records of the age in flight, redone after
    removing the folders ``done`` and ``work``.
    """

    def write(handle: IO[bytes]) -> None:
        handle.write(data)

    atomic_write(path, write, sync=sync)
    return len(data)


_BUNDLE = b"PGBN"
_BUNDLE_HEAD = struct.Struct("<4sI")
_OFFSET = struct.Struct("<Q")


def _bundle(blobs: list[bytes]) -> bytes:
    """The parts, behind a header: magic, their number, and their P + 1 offsets from the end of the header."""
    offsets = np.zeros(len(blobs) + 1, dtype="<u8")
    np.cumsum([len(blob) for blob in blobs], out=offsets[1:])
    return b"".join([_BUNDLE_HEAD.pack(_BUNDLE, len(blobs)), offsets.tobytes(), *blobs])


def _read_part(path: str, index: int, decode: Callable[[bytes], T]) -> T:
    """Decode part ``index`` of a bundle, reading only its header, its index and that part.

    The index is checked where this read depends on it: the first offset 0, the last the size of
    the parts, the part's own offsets in order within them (the other parts are checked when read).
    """
    with _reading(path), open(path, "rb", buffering=0) as handle:
        total = os.fstat(handle.fileno()).st_size
        head = handle.read(_BUNDLE_HEAD.size)
        if len(head) != _BUNDLE_HEAD.size or head[:4] != _BUNDLE:
            raise CorruptFileError(f"{path}: not a work file of the sharded solver")
        count = _BUNDLE_HEAD.unpack(head)[1]
        body = _BUNDLE_HEAD.size + 8 * (count + 1)
        if index >= count or body > total:
            raise CorruptFileError(f"{path}: the index of its parts is damaged")
        offsets = handle.read(8 * (count + 1))
        first, start, end, last = (_OFFSET.unpack_from(offsets, 8 * i)[0] for i in (0, index, index + 1, count))
        if first != 0 or last != total - body or not start <= end <= last:
            raise CorruptFileError(f"{path}: the index of its parts is damaged")
        handle.seek(body + start)
        data = handle.read(end - start)
    return _decoded(f"{path}, part {index}", data, decode)


def _read(path: str, decode: Callable[[bytes], T]) -> T:
    with _reading(path), open(path, "rb") as handle:
        data = handle.read()
    return _decoded(path, data, decode)


@contextlib.contextmanager
def _reading(path: str) -> Iterator[None]:
    """A missing or unreadable file as a one-line CorruptFileError."""
    try:
        yield
    except FileNotFoundError:
        raise CorruptFileError(f"{path} is missing: the sharded solution folder is incomplete") from None
    except OSError as exc:
        raise CorruptFileError(f"{path} cannot be read ({exc.strerror or exc})") from None


def _decoded(where: str, data: bytes, decode: Callable[[bytes], T]) -> T:
    try:
        return decode(data)
    except CorruptFileError as exc:
        raise CorruptFileError(f"{where}: {exc}") from None
