"""Reading and writing files safely: atomic writes, one-line errors for corrupt files.

Also where plyground keeps its files: :func:`data_dir`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from plyground.errors import CorruptFileError

__all__ = [
    "DATA_DIR_ENV",
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


def atomic_write(path: str | os.PathLike[str], write: Callable[[IO[bytes]], None]) -> None:
    """Call ``write(handle)`` on a temporary file beside ``path``, then rename it to ``path``.

    A crash leaves either the old file or the new one, never a part of it. Missing parent
    folders are created. The file gets the permissions of a file opened the usual way
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
    atomic_write_text(path, (compact_json(data) if compact else json.dumps(data, indent=1)) + "\n")


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
