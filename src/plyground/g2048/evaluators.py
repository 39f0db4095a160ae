"""The evaluators plyground ships, named by text: :func:`load_evaluator` parses a name once.

Where a user names an evaluator by text (a command-line flag, a job sent to another
process), the text is ``network`` (the n-tuple network shipped with plyground, for 4×4),
``heuristic`` or ``ntuple:PATH`` -- PATH a network file (as training writes it, or packed),
a training run's folder, or ``latest`` (the newest run's network), ``~`` expanded.
:func:`default_evaluator` says which the applications use when none is named: the shipped
network on the board it plays, the heuristic on the others.

>>> load_evaluator("heuristic").name
'heuristic'
>>> load_evaluator("net.npz")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
plyground.g2048.evaluators.UnknownEvaluatorError: evaluator must be ... got 'net.npz'; did you mean 'ntuple:net.npz'?
"""

from __future__ import annotations

import os
from pathlib import Path

from plyground.errors import InvalidInputError
from plyground.g2048 import registry
from plyground.g2048.evaluator import Evaluator
from plyground.g2048.heuristic import Heuristic, Weights

__all__ = [
    "HEURISTIC",
    "LATEST",
    "NETWORK",
    "NETWORK_FILE",
    "NTUPLE_PREFIX",
    "SHIPPED_FILE",
    "SHIPPED_PATH_ENV",
    "SHIPPED_SHAPE",
    "UnknownEvaluatorError",
    "default_evaluator",
    "load_evaluator",
    "network_path",
    "shipped_network_path",
]

HEURISTIC = registry.KINDS["heuristic"].name
"""The text that names the heuristic (with the weights shipped with plyground)."""
NETWORK = registry.KINDS["network"].name
"""The text that names the n-tuple network shipped with plyground (:func:`shipped_network_path`)."""
SHIPPED_SHAPE = registry.SHIPPED_SHAPE
"""The board the shipped network plays."""
SHIPPED_FILE = "ntuple-4x4.pnet"
"""The shipped network's file, in ``plyground/g2048/networks/`` (a packed network)."""
SHIPPED_PATH_ENV = "PLYGROUND_NETWORK"
"""The environment variable that names another file for ``network`` (a packed or a full network)."""
NTUPLE_PREFIX = registry.KINDS["network"].prefix
"""The text before the path of an n-tuple network: ``ntuple:FILE``, ``ntuple:RUN_FOLDER``, ``ntuple:latest``."""
LATEST = "latest"
"""``ntuple:latest`` names the network of the newest training run in the data folder."""
NETWORK_FILE = "network.npz"
"""The network's file in a training run's folder."""


class UnknownEvaluatorError(InvalidInputError):
    """A text that names no evaluator; the message says what would."""


def network_path(text: str | os.PathLike[str], *, data_folder: Path | None = None) -> Path:
    """The network file that ``text`` names: a file, a training run's folder, or ``latest``.

    ``~`` is expanded. A folder names the ``network.npz`` of the training run it holds;
    ``latest`` names that of the newest training run under ``<data folder>/ntuple``.

    Raises:
        InvalidInputError: nothing there, a folder without a network, or no training run yet.
    """
    if str(text) == LATEST:
        from plyground.core.files import data_dir

        root = (data_folder if data_folder is not None else data_dir()) / "ntuple"
        runs = sorted(path for path in root.glob("*") if (path / NETWORK_FILE).is_file()) if root.is_dir() else []
        if not runs:
            raise InvalidInputError(f"no trained network in {root} yet: train one with 'plyground 2048 learn'")
        return runs[-1] / NETWORK_FILE
    path = Path(text).expanduser()
    if path.is_dir():
        if not (path / NETWORK_FILE).is_file():
            raise InvalidInputError(f"{path} holds no {NETWORK_FILE}: it is not a training run's folder")
        return path / NETWORK_FILE
    if not path.exists():
        raise InvalidInputError(f"n-tuple network file {path} does not exist")
    return path


def shipped_network_path() -> Path:
    """The file of the network ``network`` names: ``$PLYGROUND_NETWORK`` if set, else the one shipped.

    The shipped one is a packed network (:mod:`plyground.g2048.ntuple.packed`) inside the package;
    its header holds the recipe that trains it again.
    """
    override = os.environ.get(SHIPPED_PATH_ENV)
    if override:
        return Path(override).expanduser()
    return Path(__file__).resolve().parent / "networks" / SHIPPED_FILE


def default_evaluator(rows: int, cols: int) -> str:
    """The evaluator the applications use when none is named: the shipped network on its board, else the heuristic.

    >>> default_evaluator(4, 4), default_evaluator(3, 3)
    ('network', 'heuristic')
    """
    return registry.default_for(rows, cols)


def load_evaluator(
    evaluator: Evaluator | str | None = None, *, weights: Weights | None = None, reuse: bool = False
) -> Evaluator:
    """The evaluator that ``evaluator`` names, parsed once.

    Args:
        evaluator: an :class:`Evaluator` (returned as it is); None or ``"heuristic"``: the
            heuristic; ``"network"``: the network shipped with plyground (4×4);
            ``"ntuple:PATH"``: the n-tuple network in PATH, a file written by
            :meth:`~plyground.g2048.ntuple.NTupleNetwork.save` or packed by
            :func:`~plyground.g2048.ntuple.packed.pack`, a training run's folder, or ``latest``
            (see :func:`network_path`).
        weights: the heuristic's weights (only with the heuristic).
        reuse: hand out the network read last again while its file is unchanged (same path,
            size and modification time), as games played one after another in a process do;
            the object is then shared, so it must not learn.

    Raises:
        InvalidInputError: an unknown evaluator (the message suggests the right form),
            ``weights`` with a network, or a missing file.
        CorruptFileError: a file that is not a readable network (one line, naming the file).
    """
    if isinstance(evaluator, Evaluator):
        if weights is not None and not (isinstance(evaluator, Heuristic) and evaluator.weights == weights):
            raise InvalidInputError("weights set the heuristic: they cannot be used with another evaluator")
        return evaluator
    if evaluator is not None and not isinstance(evaluator, str):
        raise UnknownEvaluatorError(f"evaluator must be an Evaluator or its name, got a {type(evaluator).__name__}")
    if evaluator is None or evaluator == HEURISTIC:
        return Heuristic(weights)
    if evaluator != NETWORK and (not evaluator.startswith(NTUPLE_PREFIX) or evaluator == NTUPLE_PREFIX):
        raise UnknownEvaluatorError(
            "evaluator must be 'network', 'heuristic' or 'ntuple:PATH' (a network file, a training run's folder, "
            f"or 'latest'), got {evaluator!r}{_suggestion(evaluator)}"
        )
    if weights is not None:
        raise InvalidInputError("weights set the heuristic: they cannot be used with an n-tuple network")
    if evaluator == NETWORK:
        path = shipped_network_path()
        if not path.is_file():
            raise InvalidInputError(
                f"the shipped network {path} is missing: reinstall plyground, or use --evaluator heuristic"
            )
    else:
        path = network_path(evaluator.removeprefix(NTUPLE_PREFIX))
    try:
        if not reuse:
            return _read_network(path)
        stat = path.stat()
        key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
        if key not in _REUSED:
            _REUSED.clear()
            _REUSED[key] = _read_network(path)
        return _REUSED[key]
    except FileNotFoundError:
        raise InvalidInputError(f"n-tuple network file {path} does not exist") from None
    except IsADirectoryError:
        raise InvalidInputError(f"{path} is a folder, not an n-tuple network file") from None
    except PermissionError:
        raise InvalidInputError(f"cannot read n-tuple network file {path}: permission denied") from None


def _read_network(path: Path) -> Evaluator:
    """The network in ``path``: a packed one (by its first bytes) or one written by training."""
    from plyground.g2048.ntuple import NTupleNetwork  # here: the heuristic alone does not load the network's kernels
    from plyground.g2048.ntuple.packed import MAGIC, unpack

    with open(path, "rb") as handle:
        packed = handle.read(len(MAGIC)) == MAGIC
    return unpack(path) if packed else NTupleNetwork.load(path)


_REUSED: dict[tuple[str, int, int], Evaluator] = {}
"""The network that :func:`load_evaluator` with ``reuse`` read last, by (path, size, mtime)."""


def _suggestion(text: str) -> str:
    """``"; did you mean ..."`` for a near miss of an evaluator's name, else ``""``."""
    import difflib

    stripped = text.strip()
    if stripped.lower() == HEURISTIC or difflib.get_close_matches(stripped.lower(), [HEURISTIC], cutoff=0.75):
        return f"; did you mean {HEURISTIC!r}?"
    head, sep, tail = stripped.partition(":")
    if sep and tail and difflib.get_close_matches(head.lower(), ["ntuple", "n-tuple", "network"], cutoff=0.6):
        return f"; did you mean {NTUPLE_PREFIX + tail!r}?"
    if stripped.endswith((".npz", ".pnet")) or os.sep in stripped or stripped == LATEST:
        return f"; did you mean {NTUPLE_PREFIX + stripped!r}?"
    if stripped.lower() == NETWORK or difflib.get_close_matches(stripped.lower(), [NETWORK, "net"], cutoff=0.75):
        return f"; did you mean {NETWORK!r}?"
    return ""
