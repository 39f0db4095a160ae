"""The one error tree of plyground.

Every error raised on purpose by plyground derives from :class:`PlygroundError`.
Errors caused by bad user input (a malformed board, an unknown direction, a corrupt
file) also derive from :class:`ValueError`, so generic callers can catch them as such.
"""

from __future__ import annotations

import os
import sys

__all__ = [
    "BrainError",
    "BrainNotFoundError",
    "CorruptFileError",
    "DependencyNotInstalled",
    "DiskFullError",
    "GameOverError",
    "IllegalMoveError",
    "InvalidBoardError",
    "InvalidInputError",
    "JobTooLargeError",
    "NothingToUndoError",
    "PlayerError",
    "PlygroundError",
    "UnknownDirectionError",
    "install_command",
]


class PlygroundError(Exception):
    """Base class of every error plyground raises on purpose."""


class InvalidInputError(PlygroundError, ValueError):
    """A value given by the user is not acceptable; the message names it."""


class InvalidBoardError(InvalidInputError):
    """A board description is malformed: bad tile, wrong row length, bad size."""


class UnknownDirectionError(InvalidInputError):
    """A move direction is not one of the known directions."""


class IllegalMoveError(InvalidInputError):
    """A move that is not legal in the current position was requested."""


class GameOverError(IllegalMoveError):
    """A move was requested in a finished game."""


class NothingToUndoError(PlygroundError):
    """``undo()`` was called with no move to take back."""


class CorruptFileError(InvalidInputError):
    """A saved file (game, replay, weights) cannot be read back."""


class JobTooLargeError(InvalidInputError):
    """A job asks for more disk, memory or time than this machine has; the message gives the estimate."""


class DiskFullError(PlygroundError):
    """A long job ran out of disk space and stopped cleanly: what it finished is saved and it resumes."""


class PlayerError(PlygroundError):
    """A game player raised an error or chose a move that cannot be played; the message names it and the move."""


class ForbiddenMoveError(PlayerError):
    """A player chose a forbidden point (renju); ``move`` is the point, for a driver that overrules it."""

    def __init__(self, message: str, move: int) -> None:
        super().__init__(message)
        self.move = move


class BrainNotFoundError(InvalidInputError):
    """A Gomocup brain named by the user is neither an executable file nor a known plyground player."""


class BrainError(PlygroundError):
    """A Gomocup brain cannot play at all (it does not start, or exits or refuses before its first move)."""


class DependencyNotInstalled(PlygroundError, ImportError):
    """An optional dependency is missing; the message says which extra to install."""


def _quote(word: str) -> str:
    import shlex

    return f'"{word}"' if os.name == "nt" else shlex.quote(word)


def install_command(extra: str) -> str:
    """The command that installs ``extra`` for the way plyground itself was installed.

    Read from the installed distribution's ``direct_url.json`` (PEP 610): an install from a
    folder installs the extra from that folder again (``-e`` for an editable one), an install
    from a file, URL or repository names it, and otherwise the package index is meant. The
    command runs the pip of this Python.

    >>> print(install_command("web").split(" -m ")[1])  # doctest: +ELLIPSIS
    pip install ...[web]...
    """
    import json
    from importlib import metadata
    from urllib.parse import urlparse
    from urllib.request import url2pathname

    pip = f"{_quote(sys.executable)} -m pip install"
    try:
        text = metadata.distribution("plyground").read_text("direct_url.json")
        origin = json.loads(text) if text else None
    except (metadata.PackageNotFoundError, ValueError, OSError):
        origin = None
    if not isinstance(origin, dict) or not isinstance(origin.get("url"), str):
        return f"{pip} {_quote(f'plyground[{extra}]')}"
    url: str = origin["url"]
    if isinstance(origin.get("dir_info"), dict):
        parts = urlparse(url)
        folder = url2pathname(parts.path) if parts.scheme == "file" else url
        editable = "-e " if origin["dir_info"].get("editable") else ""
        return f"{pip} {editable}{_quote(f'{folder}[{extra}]')}"
    vcs = origin.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs"):
        revision = vcs.get("requested_revision") or vcs.get("commit_id")
        url = f"{vcs['vcs']}+{url}" + (f"@{revision}" if revision else "")
    if origin.get("subdirectory"):
        url += f"#subdirectory={origin['subdirectory']}"
    return f"{pip} {_quote(f'plyground[{extra}] @ {url}')}"
