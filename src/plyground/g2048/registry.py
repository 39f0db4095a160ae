"""The 2048 evaluators by kind and by name: what each is, what its search compiles, and how to make one.

Each kind says its name (as ``--evaluator`` and :func:`load_evaluator`, which makes one, take it),
its label (in the first-run compile line), the kernel files of :data:`PACKAGE` its search compiles,
and the prefix of the names that pick a file of that kind. Where a user names an evaluator by text
(a command-line flag, a job sent to another process), the text is ``network`` (the n-tuple network
shipped with plyground, for 4×4), ``heuristic`` or ``ntuple:PATH`` -- PATH a network file (as
training writes it, or packed), a training run's folder, or ``latest`` (the newest run's network),
``~`` expanded; :func:`load_evaluator` parses it once. :func:`default_evaluator` says which the
applications use when none is named: the shipped network on the board it plays, the heuristic on
the others.

The commands compile what an evaluator needs from here (:func:`kernel_groups`) before the first
search, saying so on a first run; the web lab offers :data:`KINDS`. Reading the kinds loads no
game code (and so no numba): a command reads them before anything is compiled; only
:func:`load_evaluator` loads the evaluator it makes.

>>> list(KINDS)
['network', 'heuristic']
>>> kind_of("ntuple:latest").name, kind_of("heuristic").label, kind_of("net.npz")
('network', 'heuristic search', None)
>>> [group[1] for group in kernel_groups(["heuristic"])]
['_kernels.py', '_heuristic_kernels.py']
>>> load_evaluator("heuristic").name
'heuristic'
>>> load_evaluator("net.npz")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
plyground.g2048.registry.UnknownEvaluatorError: evaluator must be ... got 'net.npz'; did you mean 'ntuple:net.npz'?
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from plyground.errors import InvalidInputError

if TYPE_CHECKING:
    from plyground.g2048.evaluator import Evaluator
    from plyground.g2048.heuristic import Weights

__all__ = [
    "BOARD_KERNELS",
    "HEURISTIC",
    "KINDS",
    "LATEST",
    "NETWORK",
    "NETWORK_FILE",
    "NTUPLE_PREFIX",
    "PACKAGE",
    "SHIPPED_FILE",
    "SHIPPED_PATH_ENV",
    "SHIPPED_SHAPE",
    "EvaluatorKind",
    "UnknownEvaluatorError",
    "default_evaluator",
    "kernel_groups",
    "kind_of",
    "load_evaluator",
    "network_path",
    "shipped_network_path",
]

PACKAGE = "plyground.g2048"
BOARD_KERNELS = ("_kernels.py",)
"""The kernel files every search needs: the board's moves and spawns."""


@dataclass(frozen=True)
class EvaluatorKind:
    """A kind of evaluator.

    Attributes:
        name: as ``--evaluator`` and :func:`load_evaluator` take it.
        label: what the first-run compile line calls the kernels of its search.
        kernels: the kernel files of :data:`PACKAGE` its search compiles.
        prefix: names that start with it pick a file of this kind (``ntuple:PATH``); "" for none.
    """

    name: str
    label: str
    kernels: tuple[str, ...]
    prefix: str = ""


KINDS = {
    kind.name: kind
    for kind in (
        EvaluatorKind(
            "network", "n-tuple search", ("_ntuple_kernels.py", "_ntuple_leaf_kernels.py", "_packed_kernels.py"),
            prefix="ntuple:",
        ),
        EvaluatorKind("heuristic", "heuristic search", ("_heuristic_kernels.py",)),
    )
}  # fmt: skip
"""Every kind, the default on 4×4 first."""
HEURISTIC = KINDS["heuristic"].name
"""The text that names the heuristic (with the weights shipped with plyground)."""
NETWORK = KINDS["network"].name
"""The text that names the n-tuple network shipped with plyground (:func:`shipped_network_path`)."""
NTUPLE_PREFIX = KINDS["network"].prefix
"""The text before the path of an n-tuple network: ``ntuple:FILE``, ``ntuple:RUN_FOLDER``, ``ntuple:latest``."""
SHIPPED_SHAPE = (4, 4)
"""The board the shipped network plays."""
SHIPPED_FILE = "ntuple-4x4.pnet"
"""The shipped network's file, in ``plyground/g2048/networks/`` (a packed network)."""
SHIPPED_PATH_ENV = "PLYGROUND_NETWORK"
"""The environment variable that names another file for ``network`` (a packed or a full network)."""
LATEST = "latest"
"""``ntuple:latest`` names the network of the newest training run in the data folder."""
NETWORK_FILE = "network.npz"
"""The network's file in a training run's folder."""


def kind_of(name: str) -> EvaluatorKind | None:
    """The kind of evaluator that ``name`` names (a kind's name, or its prefix and a path); None for no kind."""
    if name in KINDS:
        return KINDS[name]
    return next((kind for kind in KINDS.values() if kind.prefix and name.startswith(kind.prefix)), None)


def kernel_groups(names: Iterable[str]) -> list[tuple[str, str, str]]:
    """``(package, kernel file, label)`` of the board and of the kind of each of ``names`` (known ones), each once."""
    groups = [(PACKAGE, kernels, "2048") for kernels in BOARD_KERNELS]
    seen = set(BOARD_KERNELS)
    kinds = [kind for kind in (kind_of(name) for name in dict.fromkeys(names)) if kind is not None]
    for kind in kinds:
        for kernels in kind.kernels:
            if kernels not in seen:
                seen.add(kernels)
                groups.append((PACKAGE, kernels, kind.label))
    return groups


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
    return NETWORK if (rows, cols) == SHIPPED_SHAPE else HEURISTIC


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
    from plyground.g2048.evaluator import Evaluator  # here: the game's code loads with its first evaluator
    from plyground.g2048.heuristic import Heuristic

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
