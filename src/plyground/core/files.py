"""Reading and writing files safely: atomic writes, versioned JSON formats, one-line errors for corrupt files.

Also where plyground keeps its files: :func:`data_dir`.

Every JSON file plyground writes starts with its format and version,
``{"format": "plyground.g2048.weights", "version": 1, ...}``; :class:`FileFormat` writes
and checks them in one place: an older version is read through the upgrades given, a newer
one is refused in one line ("written by a newer plyground").

>>> NOTES = FileFormat("plyground.notes", 2, "a notes file", "notes", upgrades={1: lambda d: {**d, "tags": []}})
>>> NOTES.check({"format": "plyground.notes", "version": 1, "text": "hi"})
{'format': 'plyground.notes', 'version': 2, 'text': 'hi', 'tags': []}
>>> NOTES.check({"format": "plyground.notes", "version": 3})
Traceback (most recent call last):
...
plyground.errors.CorruptFileError: unsupported notes version 3: written by a newer plyground (this one reads up to ...)
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from plyground.errors import CorruptFileError

__all__ = [
    "DATA_DIR_ENV",
    "FileFormat",
    "atomic_path",
    "atomic_write",
    "atomic_write_text",
    "compact_json",
    "data_dir",
    "read_json",
    "write_json",
]

DATA_DIR_ENV = "PLYGROUND_DATA_DIR"
"""The environment variable that overrides the data folder."""


def data_dir() -> Path:
    """The folder of plyground's user data: ``$PLYGROUND_DATA_DIR`` or the platform's default."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("plyground", appauthor=False))


@functools.cache
def _file_mode() -> int:
    """``0o666`` less the process's umask (read once: setting the umask to read it is not thread-safe)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path: str | os.PathLike[str], write: Callable[[IO[bytes]], None], *, sync: bool = True) -> None:
    """Call ``write(handle)`` on a temporary file beside ``path``, then rename it to ``path``.

    A crash leaves either the old file or the new one, never a part of it. Missing parent
    folders are created. ``sync=False`` skips flushing the file to the disk before the
    rename: a killed process still leaves the old or the new file, a machine that loses
    power may leave an empty one (for files that are cheap to make again, written by the
    thousand). The file gets the permissions of a file opened the usual way
    (``0o666`` less the umask), not the private ones of a temporary file.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(tmp, _file_mode())
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary file beside ``path`` for a writer that wants a file name (ffmpeg), renamed to ``path`` at the end.

    Like :func:`atomic_write`: a failure in the block removes the temporary file and leaves
    ``path`` as it was. ``suffix`` ends the temporary name, for writers that choose the
    format by it (``".part.mp4"``). The parent folder must exist.
    """
    target = Path(path)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new file.

    The text goes to a temporary file in the same folder, is flushed to disk, and
    then renamed over ``path``. Missing parent folders are created.
    """
    data = text.encode("utf-8")

    def write(handle: IO[bytes]) -> None:
        handle.write(data)

    atomic_write(path, write)


def write_json(path: str | os.PathLike[str], data: Any, *, compact: bool = False) -> None:
    """Write ``data`` as JSON, atomically: indented one value per line, or :func:`compact_json` text.

    Files that grow with a game or a job (replays, saved games, a solution's counts) are
    written ``compact``: the indented form puts every number of a long list on a line.
    """
    atomic_write_text(path, compact_json(data) + "\n" if compact else _indented(data))


def _indented(data: Any) -> str:
    return json.dumps(data, indent=1) + "\n"


_LINE = 100
"""The longest list or object :func:`compact_json` keeps on one line."""


def compact_json(data: Any) -> str:
    """JSON without spaces; a list or object longer than 100 characters has one item per line.

    So a replay's moves take a short line each, and a small value stays on one line:

    >>> print(compact_json({"rows": 4, "moves": [["left", 0, 1, 2]] * 8}))
    {
     "rows":4,
     "moves":[
      ["left",0,1,2],
      ["left",0,1,2],
      ["left",0,1,2],
      ["left",0,1,2],
      ["left",0,1,2],
      ["left",0,1,2],
      ["left",0,1,2],
      ["left",0,1,2]
     ]
    }
    """
    return "".join(_compact_parts(data, 0))


def _compact_parts(data: Any, depth: int) -> list[str]:
    flat = json.dumps(data, separators=(",", ":"))
    if len(flat) <= _LINE or not isinstance(data, dict | list) or not data:
        return [flat]
    pad = "\n" + " " * (depth + 1)
    items = (
        [[json.dumps(str(key)), ":", *_compact_parts(value, depth + 1)] for key, value in data.items()]
        if isinstance(data, dict)
        else [_compact_parts(value, depth + 1) for value in data]
    )
    out = ["{" if isinstance(data, dict) else "["]
    for i, item in enumerate(items):
        out += [pad, *item, "," if i < len(items) - 1 else ""]
    out += ["\n" + " " * depth, "}" if isinstance(data, dict) else "]"]
    return out


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a JSON file.

    Raises:
        OSError: the file cannot be opened (FileNotFoundError when it does not exist).
        CorruptFileError: the file is not UTF-8 JSON (one-line message).
    """
    target = Path(path)
    try:
        text = target.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CorruptFileError(f"{target} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorruptFileError(f"{target} is not valid JSON (line {exc.lineno}, column {exc.colno})") from None


@dataclass(frozen=True)
class FileFormat:
    """A versioned JSON format: a JSON object that starts with ``"format": name, "version": version``.

    Attributes:
        name: the format's name, e.g. ``plyground.g2048.weights``.
        version: the version this plyground writes (and the newest it reads).
        what: the file for the messages, with its article: ``a 2048 weights file``.
        kind: its short name for the messages about versions: ``weights``.
        upgrades: version -> a function that turns data of that version into data of the next
            one; an older version is read through every upgrade up to :attr:`version`.
        unversioned: the version of files written before the format had one (None: a
            file without a version is refused).
    """

    name: str
    version: int
    what: str
    kind: str
    upgrades: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = field(default_factory=dict)
    unversioned: int | None = None

    def stamp(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``body`` after the format and this version: the data to write."""
        return {"format": self.name, "version": self.version, **body}

    def check(self, data: Any) -> dict[str, Any]:
        """The data of a file of this format, upgraded to :attr:`version` (format and version included).

        Raises:
            CorruptFileError: not a JSON object of this format, or a version this plyground
                cannot read (one line, without the file's name).
        """
        if not isinstance(data, dict):
            raise CorruptFileError(f"not {self.what}: expected a JSON object, got {type(data).__name__}")
        if data.get("format") != self.name:
            raise CorruptFileError(f"not {self.what}: expected format {self.name!r}, got {data.get('format')!r}")
        version = data.get("version", self.unversioned)
        if isinstance(version, bool) or not isinstance(version, int):
            raise CorruptFileError(f"unsupported {self.kind} version {version!r}, expected {self.version}")
        if version > self.version:
            raise CorruptFileError(
                f"unsupported {self.kind} version {version}: written by a newer plyground "
                f"(this one reads up to version {self.version})"
            )
        upgraded = dict(data)
        for older in range(version, self.version):  # an older version without its upgrade is refused
            upgrade = self.upgrades.get(older)
            if upgrade is None:
                raise CorruptFileError(f"unsupported {self.kind} version {version}, expected {self.version}")
            upgraded = {**upgrade(upgraded), "version": older + 1}
        upgraded["version"] = self.version
        return upgraded

    def read(self, path: str | os.PathLike[str]) -> dict[str, Any]:
        """Read and :meth:`check` a file of this format.

        Raises:
            FileNotFoundError: no such file (another OSError when it cannot be opened).
            CorruptFileError: not UTF-8 JSON, or not this format or a readable version (one
                line, naming the file once).
        """
        data = read_json(path)
        try:
            return self.check(data)
        except CorruptFileError as exc:
            raise CorruptFileError(f"{path}: {exc}") from None

    def write(
        self, path: str | os.PathLike[str], body: Mapping[str, Any], *, dumps: Callable[[Any], str] = _indented
    ) -> None:
        """Write ``body`` as a file of this format and version, atomically (as text from ``dumps``, indented JSON)."""
        atomic_write_text(path, dumps(self.stamp(body)))
