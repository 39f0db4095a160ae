"""The file of an n-tuple network: a compressed numpy archive with a JSON header.

:meth:`NTupleNetwork.save <plyground.g2048.ntuple.NTupleNetwork.save>` writes a ``.npz``
archive holding

* ``header`` - uint8, UTF-8 JSON: ``{"format": "plyground.g2048.ntuple", "version": 1,
  "rows": 4, "cols": 4, "tuples": [[[0, 0], [0, 1], ...], ...], "stage_tiles": [], "radix": 16,
  "rng_state": 123, "tc": false, "training": {"games": 0, "moves": 0, "seconds": 0.0}}``
  (``stage_tiles`` may be missing: one stage; ``radix`` too: 16);
* ``weights`` - float32, the tables of all tuples one after the other, stage by stage;
* ``tc_errors`` and ``tc_abs_errors`` - float32 like ``weights``, only when ``tc`` is true.

A 4×4 network with the default tuples holds 4 × 16**6 weights (256 MiB in memory; the
file is much smaller while most weights are still 0).
"""

from __future__ import annotations

import json
import math
import os
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from typing import IO, Any, Protocol

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat, atomic_write
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.ntuple.training import Training, check_count
from plyground.g2048.ntuple.tuples import Cell, Tuples, check_tuples, short_form

__all__ = ["NETWORK_FILE", "Layout", "check_arrays", "check_wanted", "header", "read", "write"]

NETWORK_FILE = FileFormat("plyground.g2048.ntuple", 1, "an n-tuple network", "network")
"""The header of a network's file (a format of its own inside the archive)."""
_ZIP_MAGIC = b"PK\x03\x04"  # an .npz is a zip archive
_NPY_MAGIC = b"\x93NUMPY"  # a single .npy array
_KEYS = frozenset({"format", "version", "rows", "cols", "tuples", "rng_state", "tc", "training"})
_OPTIONAL_KEYS = frozenset({"stage_tiles", "radix"})  # files written before them: one stage, radix 16


class Layout(Protocol):
    """What :func:`check_wanted` reads of a network: its size, tuples and stages."""

    @property
    def rows(self) -> int: ...

    @property
    def cols(self) -> int: ...

    @property
    def tuples(self) -> Tuples: ...

    @property
    def stage_tiles(self) -> tuple[int, ...]: ...


def header(
    *,
    rows: int,
    cols: int,
    tuples: Tuples,
    stage_tiles: Sequence[int],
    radix: int,
    rng_state: int,
    tc: bool,
    trained: Training,
) -> dict[str, Any]:
    """The header of a network's file."""
    return NETWORK_FILE.stamp(
        {
            "rows": rows,
            "cols": cols,
            "tuples": [[list(cell) for cell in cells] for cells in tuples],
            "stage_tiles": list(stage_tiles),
            "radix": radix,
            "rng_state": rng_state,
            "tc": tc,
            "training": {"games": trained.games, "moves": trained.moves, "seconds": trained.seconds},
        }
    )


def write(
    path: str | os.PathLike[str],
    head: Mapping[str, Any],
    weights: npt.NDArray[np.float32],
    tc_sums: npt.NDArray[np.float32] | None,
) -> None:
    """Write a network's file atomically; ``tc_sums`` interleaves the errors and their absolute values."""
    arrays = {"header": np.frombuffer(json.dumps(head).encode("utf-8"), dtype=np.uint8), "weights": weights}
    if tc_sums is not None:
        arrays["tc_errors"], arrays["tc_abs_errors"] = tc_sums[0::2], tc_sums[1::2]

    def dump(handle: IO[bytes]) -> None:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]

    atomic_write(path, dump)


def read(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The checked header and the arrays of a network's file.

    Raises:
        FileNotFoundError: no such file.
        CorruptFileError: not a network's file, or a damaged one (one line, naming the file once).
    """
    arrays: dict[str, npt.NDArray[Any]] = {}
    try:
        with open(path, "rb") as handle:  # opened here, so that it is closed whatever numpy raises
            magic = handle.read(len(_NPY_MAGIC))
            handle.seek(0)
            if magic == _NPY_MAGIC:
                raise CorruptFileError(f"{path} is not an n-tuple network file: it holds one array, not an archive")
            if not magic.startswith(_ZIP_MAGIC):  # numpy would try it as a pickle, and say how to allow that
                raise CorruptFileError(f"{path} is not a readable n-tuple network file (not a numpy .npz archive)")
            archive = np.load(handle, allow_pickle=False)
            if not isinstance(archive, np.lib.npyio.NpzFile):
                raise CorruptFileError(f"{path} is not an n-tuple network file: it holds one array, not an archive")
            names = set(archive.files)
            missing = sorted({"header", "weights"} - names)
            if missing:
                raise CorruptFileError(f"{path} is not an n-tuple network: no {', '.join(missing)}")
            head = _check_header(archive["header"])
            for name in ("weights", "tc_errors", "tc_abs_errors"):
                if name in names:
                    arrays[name] = archive[name]
    except (FileNotFoundError, CorruptFileError):
        raise
    except InvalidInputError as exc:
        raise CorruptFileError(f"{path}: {exc}") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        raise CorruptFileError(f"{path} is not a readable n-tuple network file ({_first_line(exc)})") from None
    return head, arrays


def check_arrays(head: Mapping[str, Any], arrays: Mapping[str, npt.NDArray[Any]], size: int) -> None:
    """Check that the arrays of a file are those its header announces, of ``size`` finite float32 each.

    Raises:
        InvalidInputError: a missing or unexpected array, another type or shape, or values that are not finite.
    """
    names = ("weights", "tc_errors", "tc_abs_errors") if head["tc"] else ("weights",)
    extra = sorted(set(arrays) - set(names))
    if extra:
        raise InvalidInputError(f"unexpected arrays {', '.join(extra)} (the header says tc is {head['tc']})")
    for name in names:
        array = arrays.get(name)
        if array is None:
            raise InvalidInputError(f"no {name} array")
        if array.dtype != np.float32 or array.shape != (size,):
            raise InvalidInputError(
                f"{name} holds {array.dtype} of shape {array.shape}, expected float32 of shape {(size,)} "
                "for these tuples"
            )
        if not np.isfinite(array).all():
            raise InvalidInputError(f"{name} holds values that are not finite")


def check_wanted(
    path: str | os.PathLike[str],
    network: Layout,
    *,
    rows: int | None,
    cols: int | None,
    tuples: Sequence[Sequence[Cell]] | None,
    stage_tiles: Sequence[int] | None,
) -> None:
    """Check that the network read from ``path`` has the size, tuples and stages asked for (None: any).

    Raises:
        CorruptFileError: it has not (one line, naming the file).
    """
    wanted_rows = network.rows if rows is None else rows
    wanted_cols = network.cols if cols is None else cols
    if (wanted_rows, wanted_cols) != (network.rows, network.cols):
        raise CorruptFileError(
            f"{path} holds a network for the {network.rows}x{network.cols} board, "
            f"not the {wanted_rows}x{wanted_cols} one"
        )
    if tuples is not None:
        try:
            wanted = check_tuples(tuples, network.rows, network.cols)
        except InvalidInputError as exc:
            raise CorruptFileError(f"{path}: the tuples asked for are not valid: {exc}") from None
        if wanted != network.tuples:
            raise CorruptFileError(
                f"{path} holds a network with other tuples: {short_form(network.tuples)}, not {short_form(wanted)}"
            )
    if stage_tiles is not None and tuple(stage_tiles) != network.stage_tiles:
        raise CorruptFileError(
            f"{path} holds a network with stage tiles {list(network.stage_tiles)}, not {list(stage_tiles)}"
        )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _check_header(raw: npt.NDArray[Any]) -> dict[str, Any]:
    """The checked JSON header of a network's file (raises InvalidInputError)."""
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise InvalidInputError(f"the header holds {raw.dtype} of shape {raw.shape}, expected bytes")
    try:
        head = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InvalidInputError("the header is not UTF-8 JSON") from None
    try:
        head = NETWORK_FILE.check(head)
    except CorruptFileError as exc:  # an InvalidInputError here: the caller names the file
        raise InvalidInputError(str(exc)) from None
    missing = sorted(_KEYS - head.keys())
    unknown = sorted(head.keys() - _KEYS - _OPTIONAL_KEYS)
    if missing or unknown:
        raise InvalidInputError(f"bad header keys: missing {missing}, unknown {unknown}")
    for name in ("rows", "cols"):
        if isinstance(head[name], bool) or not isinstance(head[name], int):
            raise InvalidInputError(f"header {name!r} must be an integer, got {head[name]!r}")
    state = head["rng_state"]
    if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state < 1 << 64:
        raise InvalidInputError(f"header 'rng_state' must be an integer in [0, 2**64), got {state!r}")
    if not isinstance(head["tc"], bool):
        raise InvalidInputError(f"header 'tc' must be true or false, got {head['tc']!r}")
    training = head["training"]
    if not isinstance(training, dict) or set(training) != {"games", "moves", "seconds"}:
        raise InvalidInputError("header 'training' must hold games, moves and seconds")
    for name in ("games", "moves"):
        check_count(training[name], f"training {name}", 0)
    seconds = training["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds < math.inf:
        raise InvalidInputError(f"training seconds must be a number >= 0, got {seconds!r}")
    return head
