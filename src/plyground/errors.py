"""The one error tree of plyground.

Every error raised on purpose by plyground derives from :class:`PlygroundError`.
Errors caused by bad user input (a malformed board, an unknown direction, a corrupt
file) also derive from :class:`ValueError`, so generic callers can catch them as such.
"""

from __future__ import annotations

__all__ = [
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


class DependencyNotInstalled(PlygroundError, ImportError):
    """An optional dependency is missing; the message says which extra to install."""
