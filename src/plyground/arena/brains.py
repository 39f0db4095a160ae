"""Which brain plays: a Gomocup brain's executable, or one of plyground's players run as its own brain.

A brain is named by a string, parsed once (:func:`parse_brain`) into a :class:`Brain`, the command
line the manager starts for each game. Words after the first are the brain's arguments::

    /opt/gomocup/pbrain-rapfi                 an executable (a path, or a command on PATH)
    plyground:engine                          plyground kinrow pbrain --player engine
    "plyground:alphabeta --depth 8"           ... with options of plyground kinrow pbrain
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass

from plyground.errors import BrainNotFoundError

__all__ = ["PLYGROUND_PREFIX", "Brain", "parse_brain", "plyground_brain"]

PLYGROUND_PREFIX = "plyground:"
"""How a brain names one of plyground's players: ``plyground:KIND`` (a kind of ``plyground.kinrow.registry``)."""


@dataclass(frozen=True)
class Brain:
    """A brain: the command that runs it and its name in tables and records."""

    command: tuple[str, ...]
    name: str


def plyground_brain(kind: str, *args: str) -> Brain:
    """plyground's own Gomocup brain (``plyground kinrow pbrain``) playing ``kind``, run by this Python.

    >>> plyground_brain("engine").name
    'plyground:engine'

    Raises:
        BrainNotFoundError: ``kind`` is not a computer player of ``plyground.kinrow.registry``.
    """
    from plyground.kinrow.registry import AI_KINDS

    if kind not in AI_KINDS:
        raise BrainNotFoundError(f"unknown plyground player {kind!r}; the players are {', '.join(AI_KINDS)}")
    command = (sys.executable, "-m", "plyground.apps.cli.main", "kinrow", "pbrain", "--player", kind, *args)
    return Brain(command, " ".join([PLYGROUND_PREFIX + kind, *args]))


def parse_brain(spec: str, side: str = "brain") -> Brain:
    """The brain ``spec`` names (see the module's docstring); ``side`` prefixes the error messages.

    Raises:
        BrainNotFoundError: an empty or badly quoted spec, an unknown plyground player, or no executable
            file of that name (one line, naming it).
    """
    try:
        words = shlex.split(spec)
    except ValueError as error:
        raise BrainNotFoundError(f"{side}: {error} in {spec!r}") from None
    if not words:
        raise BrainNotFoundError(f"{side}: empty brain")
    first, args = words[0], words[1:]
    if first.startswith(PLYGROUND_PREFIX):
        try:
            return plyground_brain(first.removeprefix(PLYGROUND_PREFIX), *args)
        except BrainNotFoundError as error:
            raise BrainNotFoundError(f"{side}: {error}") from None
    path = shutil.which(first) if os.sep not in first else first
    if path is None or not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise BrainNotFoundError(
            f"{side}: no executable brain {first!r} (a path, a command on PATH, or {PLYGROUND_PREFIX}KIND)"
        )
    return Brain((os.path.abspath(path), *args), " ".join([os.path.basename(path), *args]))
