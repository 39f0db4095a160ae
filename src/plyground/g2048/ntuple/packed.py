"""A trained network in a few megabytes: the weights training touched, rounded to a fixed step, compressed.

A 4×4 network of four 6-tuples holds 4 × 16**6 float32 weights (256 MiB), but training only ever
reaches a fraction of them: the others stay 0. A *packed* network keeps the weights that are not
0, each rounded to a multiple of ``step`` (a power of two, so that the rounded weight is a float32
exactly), and compresses them. The error is absolute, at most ``step / 2`` a weight: the weights
that weigh most in a value are as exact as the small ones. *Pruning* leaves out, as well, the
weights smaller than ``prune`` in absolute value: they read as 0, as a weight training never
touched does (the error of each is then below ``prune``); these are mostly weights that training
reached seldom, and the file shrinks with them (by less than their share: small values compress
well). (Rounding to a number of significant bits instead loses most on the largest weights:
greedy play kept 95% of its mean score with 5 bits and 98% with 7 on a network measured here,
against 100% at a step of 1; see the docs' n-tuple page.)

* The file starts with the line ``plyground packed n-tuple network``, then the length of the
  header (8 bytes, little-endian) and the header, UTF-8 JSON: the format and version, the
  network's size, tuples, stages and radix, its number of weights (``size``) and of weights
  kept (``count``), ``step``, ``prune`` when the packing pruned (absent: it did not), the largest
  error of a weight, pruned ones included (``max_error``), the SHA-256 of the body
  (``body_sha256``) and of the unpacked weights as float32 bytes (``weights_sha256``), the
  training totals (``training``) and ``recipe``: how the network was made (the command that
  trains it again, its seed, minutes, games and the commit), as whoever packed it wrote it.
* The body is one zstandard frame of: the length of the positions' bytes (8 bytes), the positions
  of the weights kept, as the differences of consecutive positions (the first from 0) in LEB128
  varints, then their values ``round(weight / step)``, zigzag-coded (0, -1, 1, -2... as 0, 1, 2,
  3...) as 32-bit words stored one byte plane after another (all the low bytes, then the next
  ones): the high planes are mostly zeros and compress to little.

:func:`pack` writes one (atomically); :func:`unpack` reads one (the kernel of
``g2048/_packed_kernels.py`` reads the positions and the weights in one pass) into an
:class:`~plyground.g2048.ntuple.NTupleNetwork`, checking every field, both checksums and the
sizes, so that a damaged or truncated file is refused in one line. Packing and reading need the
``zstandard`` package (a dependency of plyground).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat, atomic_write
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.ntuple.network import NTupleNetwork
from plyground.g2048.ntuple.training import Training

__all__ = ["MAGIC", "PACKED_FILE", "pack", "quantize", "read_header", "unpack"]

MAGIC = b"plyground packed n-tuple network\n"
PACKED_FILE = FileFormat("plyground.g2048.ntuple.packed", 1, "a packed n-tuple network", "packed network")
_LENGTH = struct.Struct("<Q")
_MAX_HEADER = 1 << 20
_KEYS = frozenset(
    {"format", "version", "rows", "cols", "tuples", "stage_tiles", "radix", "size", "count", "step", "max_error",
     "body_sha256", "weights_sha256", "training", "recipe"}
)  # fmt: skip
_OPTIONAL_KEYS = frozenset({"prune"})


STEPS = tuple(2.0**k for k in range(-10, 11))
"""The steps a packed network may use: powers of two from 2**-10 to 2**10."""
_LARGEST = 2**24
"""The most steps a weight may take: so that ``steps * step`` is a float32 exactly."""


def quantize(values: npt.NDArray[np.float32], step: float) -> npt.NDArray[np.int64]:
    """``round(value / step)`` for each value, halves away from zero (``step`` a power of two: exact).

    >>> quantize(np.array([1.0, 1.5, -2.5, 0.2], dtype=np.float32), 1.0).tolist()
    [1, 2, -3, 0]
    """
    scaled = np.asarray(values, dtype=np.float64) / step
    return (np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)).astype(np.int64)


def _is_prune(value: Any) -> bool:
    """Whether ``value`` is a prune: a finite number (not a bool) at least 0."""
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value) and value >= 0


def _zigzag(q: npt.NDArray[np.int64]) -> npt.NDArray[np.uint32]:
    return ((q << 1) ^ (q >> 63)).astype(np.uint32)


def _varints(values: npt.NDArray[np.uint64]) -> bytes:
    """LEB128: seven bits a byte, lowest first, the top bit set on every byte but a value's last."""
    if values.size == 0:
        return b""
    rest = values.astype(np.uint64)
    planes, more = [], []
    while True:
        low = (rest & np.uint64(0x7F)).astype(np.uint8)
        rest = rest >> np.uint64(7)
        going = rest > 0
        planes.append(low | (going.astype(np.uint8) << np.uint8(7)))
        more.append(going)
        if not going.any():
            break
    matrix = np.stack(planes, axis=1)
    keep = np.ones(matrix.shape, dtype=bool)
    alive = np.ones(values.size, dtype=bool)
    for j in range(matrix.shape[1]):
        keep[:, j] = alive
        alive &= more[j]
    return bytes(matrix[keep].tobytes())


def pack(
    network: NTupleNetwork,
    path: str | os.PathLike[str],
    *,
    step: float = 1.0,
    prune: float = 0.0,
    recipe: Mapping[str, Any] | None = None,
    level: int = 19,
) -> dict[str, Any]:
    """Write ``network`` packed to ``path`` (atomically) and return the header written.

    Args:
        step: the weights are rounded to multiples of it: a power of two from 2**-10 to 2**10
            (:data:`STEPS`); each weight is then within ``step / 2`` of its own value.
        prune: leave out the weights smaller than this in absolute value (they read as 0);
            0, the default, keeps every weight that training touched.
        recipe: how the network was made (stored as given: a JSON object).
        level: the zstandard level (1 to 22).

    Raises:
        InvalidInputError: a bad ``step``, ``prune``, ``level`` or ``recipe``, or a weight too
            large for the step (more than 2**24 steps).
    """
    import zstandard

    if isinstance(step, bool) or not isinstance(step, int | float) or float(step) not in STEPS:
        raise InvalidInputError(f"step must be a power of two from 2**-10 to 2**10, got {step!r}")
    if not _is_prune(prune):
        raise InvalidInputError(f"prune must be a finite number at least 0, got {prune!r}")
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 22:
        raise InvalidInputError(f"level must be an integer from 1 to 22, got {level!r}")
    try:
        recipe_json = json.loads(json.dumps(dict(recipe or {}), allow_nan=False))
    except (TypeError, ValueError):
        raise InvalidInputError("the recipe must be a JSON object of finite values") from None
    step = float(step)
    weights = network.weights
    touched = np.flatnonzero(weights)
    positions = touched[np.abs(weights[touched]) >= prune]  # prune 0 keeps every touched weight
    q = quantize(weights[positions], step)
    if q.size and int(np.abs(q).max()) > _LARGEST:
        raise InvalidInputError(f"a weight of {float(np.abs(weights).max()):g} is too large for a step of {step:g}")
    rounded = (q * step).astype(np.float32)  # exact: a power of two times an integer of at most 24 bits
    words = _zigzag(q)
    planes = b"".join(((words >> np.uint32(8 * k)) & np.uint32(0xFF)).astype(np.uint8).tobytes() for k in range(4))
    index_bytes = _varints(np.diff(positions, prepend=0).astype(np.uint64))
    raw = _LENGTH.pack(len(index_bytes)) + index_bytes + planes
    body = zstandard.ZstdCompressor(level=level, threads=-1).compress(raw)
    unpacked = np.zeros(weights.shape, dtype=np.float32)
    unpacked[positions] = rounded
    trained = network.trained
    error = np.abs(unpacked[touched].astype(np.float64) - weights[touched]).max(initial=0.0)
    header = PACKED_FILE.stamp(
        {
            "rows": network.rows,
            "cols": network.cols,
            "tuples": [[list(cell) for cell in cells] for cells in network.tuples],
            "stage_tiles": list(network.stage_tiles),
            "radix": network.radix,
            "size": int(weights.size),
            "count": int(positions.size),
            "step": step,
            **({"prune": float(prune)} if prune > 0 else {}),
            "max_error": float(error),
            "body_sha256": hashlib.sha256(body).hexdigest(),
            "weights_sha256": hashlib.sha256(unpacked.data).hexdigest(),
            "training": {"games": trained.games, "moves": trained.moves, "seconds": trained.seconds},
            "recipe": recipe_json,
        }
    )
    head = json.dumps(header).encode("utf-8")

    def write(handle: IO[bytes]) -> None:
        handle.write(MAGIC + _LENGTH.pack(len(head)) + head)
        handle.write(body)

    atomic_write(path, write)
    return header


def _read(path: str | os.PathLike[str], *, body: bool = True) -> tuple[dict[str, Any], bytes]:
    """The file's checked header and its body (``b""`` without ``body``: the body is not read)."""
    with open(path, "rb") as handle:
        if handle.read(len(MAGIC)) != MAGIC:
            raise CorruptFileError(f"{path} is not a packed n-tuple network (it does not start with {MAGIC!r})")
        length_bytes = handle.read(_LENGTH.size)
        if len(length_bytes) != _LENGTH.size:
            raise CorruptFileError(f"{path} is truncated: no header")
        (length,) = _LENGTH.unpack(length_bytes)
        if length > _MAX_HEADER:
            raise CorruptFileError(f"{path} is damaged: a header of {length:,} bytes")
        raw = handle.read(length)
        if len(raw) != length:
            raise CorruptFileError(f"{path} is truncated: the header is cut short")
        try:
            header = PACKED_FILE.check(json.loads(raw.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise CorruptFileError(f"{path} is damaged: its header is not UTF-8 JSON") from None
        except CorruptFileError as exc:
            raise CorruptFileError(f"{path}: {exc}") from None
        return header, handle.read() if body else b""


def read_header(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The checked header of a packed network (without reading its weights).

    Raises:
        FileNotFoundError: no such file.
        CorruptFileError: not a packed network, or a damaged header (one line, naming the file).
    """
    header, _ = _read(path, body=False)
    try:
        _check_header(header)
    except InvalidInputError as exc:
        raise CorruptFileError(f"{path}: {exc}") from None
    return header


def _check_header(header: Mapping[str, Any]) -> None:
    missing, unknown = sorted(_KEYS - header.keys()), sorted(header.keys() - _KEYS - _OPTIONAL_KEYS)
    if missing or unknown:
        raise InvalidInputError(f"bad header keys: missing {missing}, unknown {unknown}")
    for name in ("rows", "cols", "radix", "size", "count"):
        value = header[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInputError(f"header {name!r} must be a non-negative integer, got {value!r}")
    if header["step"] not in STEPS or header["count"] > header["size"]:
        raise InvalidInputError("header 'step' or 'count' out of range")
    prune = header.get("prune", 0.0)
    if not _is_prune(prune):
        raise InvalidInputError(f"header 'prune' must be a finite number at least 0, got {prune!r}")
    for name in ("body_sha256", "weights_sha256"):
        if not (isinstance(header[name], str) and len(header[name]) == 64):
            raise InvalidInputError(f"header {name!r} must be a SHA-256 in hex")
    training = header["training"]
    if not isinstance(training, dict) or set(training) != {"games", "moves", "seconds"}:
        raise InvalidInputError("header 'training' must hold games, moves and seconds")
    if not isinstance(header["recipe"], dict):
        raise InvalidInputError("header 'recipe' must be a JSON object")


def unpack(path: str | os.PathLike[str]) -> NTupleNetwork:
    """The network of a packed file, its weights as :func:`pack` rounded them.

    Raises:
        FileNotFoundError: no such file.
        CorruptFileError: not a packed network, or damaged: a checksum, a size or a field that
            does not match (one line, naming the file).
    """
    import zstandard

    from plyground.g2048 import _packed_kernels as PK  # here: reading a header needs no kernel

    header, body = _read(path)
    try:
        _check_header(header)
        if hashlib.sha256(body).hexdigest() != header["body_sha256"]:
            raise InvalidInputError("its body does not match its checksum: the file is damaged")
        network = NTupleNetwork(
            header["rows"],
            header["cols"],
            header["tuples"],
            seed=0,
            stage_tiles=header["stage_tiles"],
            radix=header["radix"],
        )
        size, count, step = header["size"], header["count"], float(header["step"])
        if network.weights.size != size:
            raise InvalidInputError(f"the header says {size:,} weights, its tuples make {network.weights.size:,}")
        try:
            raw = zstandard.ZstdDecompressor().decompress(body)
        except zstandard.ZstdError as exc:
            raise InvalidInputError(f"its body does not decompress ({exc})") from None
        width = 4
        if len(raw) < _LENGTH.size:
            raise InvalidInputError("its body is too short")
        (index_length,) = _LENGTH.unpack_from(raw)
        if len(raw) != _LENGTH.size + index_length + width * count:
            raise InvalidInputError("its body's length does not match its header")
        data = np.frombuffer(raw, dtype=np.uint8)[_LENGTH.size :]
        weights, _ = network.kernel_tables()  # the new network's own zeros, filled in place
        if PK._unpack(data, index_length, count, step, weights) != PK.OK:
            raise InvalidInputError("its body is not a packed network's: a position or a weight out of range")
        if hashlib.sha256(weights.data).hexdigest() != header["weights_sha256"]:
            raise InvalidInputError("its weights do not match their checksum: the file is damaged")
    except InvalidInputError as exc:
        raise CorruptFileError(f"{path}: {exc}") from None
    training = header["training"]
    network.loaded_from(
        Path(path), Training(int(training["games"]), int(training["moves"]), float(training["seconds"]))
    )
    return network
