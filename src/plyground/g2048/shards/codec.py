"""The compact bytes of one shard of a strong-solver age layer: its sorted codes, and their values.

A layer of age ``n`` lists boards of tile sum exactly ``n`` as strictly increasing canonical codes
(cell (r, c) holds its exponent at bit ``16 * r + 4 * c``), with a float64 value per code.

**Codes** (:func:`encode_codes`): each code's cells are read in row-major order, cell ``k`` at
``(k // cols, k % cols)``, so that cell 0 is the least significant.

* Cell 0 is left out: the age gives it (its tile is ``n`` minus the tiles of the other cells).
* The others are the digits of one number in the block's own base ``B = m + 1``, ``m`` the largest
  exponent in cells 1.. of all its codes: ``x = sum over k >= 1 of e_k * B**(k - 1)``. The order is
  kept: codes compare by their cells from the top one down (cell k lies above cell k - 1 in the
  bitboard), and so do the ``x`` by cells 1.. (digits below ``B``); two codes of one age equal in
  cells 1.. are equal in cell 0 too, so strictly increasing codes give strictly increasing ``x``, and
  no sort is needed. ``B <= 16`` and at most 11 digits: ``x < 16**11 = 2**44``, well inside 64 bits.
* The stream holds ``x_0``, then ``x_i - x_(i-1) - 1 >= 0`` for each next code, each as an unsigned
  LEB128 varint (7 bits a byte, lowest first, the high bit set on all bytes but the last), and is
  compressed by zstd (``level``, default 3).

The bytes (all integers little-endian, :data:`CODES_HEADER` 32 bytes, then one zstd frame)::

    magic b"PGSC" | version 1 (1 byte) | rows, cols (1 byte each) | age (4) | B (1) | codes (8)
    | varint bytes (8) | CRC-32 of the 28 bytes before it and then of the varint bytes (4) | zstd frame

**Values** (:func:`encode_values`): the float64 values as they are (``precision="f64"``, exact) or
rounded to the nearest float32 (``"f32"``), little-endian, compressed by zstd::

    magic b"PGSV" | version 1 (1 byte) | bytes a value, 8 or 4 (1) | values (8)
    | CRC-32 of the 14 bytes before it and then of the raw bytes (4) | zstd frame

Decoding checks every field, the CRC, the zstd frame and the codes it rebuilds (each cell 0 a tile
or empty), and raises :class:`~plyground.errors.CorruptFileError` with a one-line message naming
what is wrong. The codes come back sorted by construction.

Measured by ``benchmarks/shard_codec.py`` on real layers (2026-12-02, a 2-core machine busy with
another job, ``/proc/cpuinfo``: "Intel(R) Xeon(R) Processor"; speeds in CPU time of one thread, which
varied by up to 1.5 times between runs there), bits per state, the 32-byte header included::

    layers                   states     Elias-Fano  varints  level 3    level 9    level 19
    4x3, ages 80, 90, 100    2.0-3.7 M  26.2-25.4   8.7      1.93-1.84  1.58-1.46  1.46-1.34
    4x3, every age to 100    47.9 M     26.3                 1.97
    3x3, every age           48.7 M     19.6                 3.62
    2x4, every age           5.0 M      17.9                 4.11

Raw codes take 64 bits; the paper's 4x3 afterstate codes 2.08 bytes (16.6 bits) each; a layered 4x4
solver reported about 1.5 bits a state with delta + varint + zstd. The choices:

* zstd level 3 by default. Over 4x3 ages 20 to 100 (9.4 M states), bits and compression speed:
  level 1 2.15 at 176 M codes/s, 3 1.91 at 117, 6 1.62 at 43, 9 1.55 at 28, 19 1.43 at 1.1;
  decompression 560-770 M codes/s at every level. With level 3, :func:`encode_codes` ran at 33-47 M
  codes/s and :func:`decode_codes` at 73-112 M codes/s on the large 4x3 layers (26-31 and 55-66 on the
  3x3 and 2x4 layers of 18,000-93,000 codes); level 6 or 9 save 15-20% for a writer that can wait.
* No long mode: 1.86 against 1.91 bits at level 3, 28% slower; the same size at level 19.
* Varints: 32-bit deltas, byte-shuffled, took 2.21 bits at level 3 on 4x3 age 100 (varints 1.84;
  measured once, outside the benchmark).
* Values stored plain: byte shuffling (byte 0 of every value first, ...) compressed worse on the
  largest 2x4 and 3x3 layers, f64 42-52 bits against 27-36 plain, f32 19-25 against 17-23: about
  half the values of a layer repeat, and zstd finds them as whole 8-byte matches. Every 3x3 value
  at f64: 26.2 bits; 2x4: 25.6.

>>> codes = np.array([0x11, 0x10001, 0x20000], dtype=np.uint64)  # 2x2 boards of age 4: 2 + 2, 2 + 2, 4
>>> data = encode_codes(codes, 2, 2, 4)
>>> header = codes_header(data)
>>> header.base, header.n, header.varint_bytes, len(data)
(3, 3, 3, 44)
>>> decode_codes(data, 2, 2, 4).tolist() == codes.tolist()
True
>>> decode_values(encode_values(np.array([0.5, 3.25])), 2).tolist()
[0.5, 3.25]
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

import numpy as np
import numpy.typing as npt
import zstandard

from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.shards import _codec_kernels as K

__all__ = [
    "CODES_HEADER",
    "CODES_MAGIC",
    "DEFAULT_LEVEL",
    "VALUES_HEADER",
    "VALUES_MAGIC",
    "VERSION",
    "CodesHeader",
    "Precision",
    "codes_header",
    "decode_codes",
    "decode_values",
    "encode_codes",
    "encode_values",
    "varints",
]

Codes = npt.NDArray[np.uint64]
Values = npt.NDArray[np.float64]
Precision = Literal["f64", "f32"]

CODES_MAGIC = b"PGSC"
VALUES_MAGIC = b"PGSV"
VERSION = 1
DEFAULT_LEVEL = 3
"""zstd's level by default: fast (see the module's measurements); up to 22 is smaller and slower to write."""
MAX_CELLS = 12
"""Boards of 2 to 4 rows and columns, at most 12 cells: as the strong solver's (``B**11 <= 2**44``)."""
MAX_TILE = 2**15

_CODES_FIELDS = struct.Struct("<4sBBBIBQQ")
_VALUES_FIELDS = struct.Struct("<4sBBQ")
_CRC = struct.Struct("<I")
CODES_HEADER = _CODES_FIELDS.size + _CRC.size
"""Bytes of the header of encoded codes (32)."""
VALUES_HEADER = _VALUES_FIELDS.size + _CRC.size
"""Bytes of the header of encoded values (18)."""
_WIDTHS: dict[str, int] = {"f64": 8, "f32": 4}
_DTYPES: dict[int, str] = {8: "<f8", 4: "<f4"}
_ZSTD_MAX_RATIO = 2**15
"""A zstd frame holds at most this many bytes for each of its own: a block of 4 bytes (an RLE block)
stands for at most 128 KiB. A header that claims more is corrupt (and is not allocated)."""


@dataclass(frozen=True)
class CodesHeader:
    """The fixed header of encoded codes (:func:`codes_header`).

    Attributes:
        rows: the board's rows.
        cols: its columns.
        age: the tile sum of every code.
        base: ``B``, one more than the largest exponent in cells 1..
        n: the number of codes.
        varint_bytes: the length of the varint stream before compression.
        checksum: the CRC-32 of the header's other fields and of the varint stream.
    """

    rows: int
    cols: int
    age: int
    base: int
    n: int
    varint_bytes: int
    checksum: int


def _is_int(value: object) -> TypeGuard[int | np.integer[Any]]:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _size_problem(rows: int, cols: int) -> str | None:
    if not (2 <= rows <= 4 and 2 <= cols <= 4 and rows * cols <= MAX_CELLS):
        return f"a shard's board has 2 to 4 rows and columns and at most {MAX_CELLS} cells, got {rows}x{cols}"
    return None


def _check_board(rows: object, cols: object, age: object) -> tuple[int, int, int]:
    """rows, cols and age as ints, checked: InvalidInputError otherwise."""
    if not (_is_int(rows) and _is_int(cols)):
        raise InvalidInputError(f"rows and cols must be integers, got {rows!r} and {cols!r}")
    r, c = int(rows), int(cols)
    problem = _size_problem(r, c)
    if problem is not None:
        raise InvalidInputError(problem)
    if not _is_int(age) or not 0 <= int(age) <= r * c * MAX_TILE:
        raise InvalidInputError(f"age must be an integer in 0..{r * c * MAX_TILE} for a {r}x{c} board, got {age!r}")
    return r, c, int(age)


def _check_level(level: object) -> int:
    if not _is_int(level) or not 1 <= int(level) <= zstandard.MAX_COMPRESSION_LEVEL:
        raise InvalidInputError(f"level must be a zstd level in 1..{zstandard.MAX_COMPRESSION_LEVEL}, got {level!r}")
    return int(level)


def _as_bytes(data: object) -> memoryview:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InvalidInputError(f"data must be bytes, got {type(data).__name__}")
    return memoryview(data).cast("B")


def _board_mask(rows: int, cols: int) -> int:
    return sum(((1 << (4 * cols)) - 1) << (16 * r) for r in range(rows))


def _tile_sum(code: int) -> int:
    return sum(1 << e for e in ((code >> (4 * k)) & 0xF for k in range(16)) if e)


def _as_codes(codes: object) -> Codes:
    if not isinstance(codes, np.ndarray):
        raise InvalidInputError(f"codes must be a numpy array of uint64, got {type(codes).__name__}")
    if codes.ndim != 1:
        raise InvalidInputError(f"codes must be a 1-D array, got shape {codes.shape}")
    if codes.dtype != np.uint64:
        raise InvalidInputError(f"codes must be uint64, got dtype {codes.dtype}")
    return np.ascontiguousarray(codes)


def _bad_code(codes: Codes, i: int, rows: int, cols: int, age: int) -> str:
    """Why ``codes[i]`` is refused (the first one :func:`K._scan` refuses)."""
    code = int(codes[i])
    if code & ~_board_mask(rows, cols):
        return f"codes[{i}] = {code:#x} has tiles outside a {rows}x{cols} board"
    if i > 0 and code <= int(codes[i - 1]):
        previous = int(codes[i - 1])
        return f"codes must be strictly increasing, got codes[{i}] = {code:#x} <= codes[{i - 1}] = {previous:#x}"
    return f"codes[{i}] = {code:#x} has tile sum {_tile_sum(code)}, not the age {age}"


def varints(codes: Codes, rows: int, cols: int, age: int) -> tuple[int, npt.NDArray[np.uint8]]:
    """The base ``B`` and the varint stream of ``codes``: what :func:`encode_codes` compresses.

    For size studies (``benchmarks/shard_codec.py`` tries other compressors on it). Arguments and
    errors as :func:`encode_codes`.

    >>> varints(np.array([0x11, 0x10001, 0x20000], dtype=np.uint64), 2, 2, 4)  # x = 1, 3, 6
    (3, array([1, 1, 2], dtype=uint8))
    """
    rows, cols, age = _check_board(rows, cols, age)
    return _varints(_as_codes(codes), rows, cols, age)


def _varints(codes: Codes, rows: int, cols: int, age: int) -> tuple[int, npt.NDArray[np.uint8]]:
    bad, largest = K._scan(codes, rows, cols, age)
    if bad >= 0:
        raise InvalidInputError(_bad_code(codes, bad, rows, cols, age))
    base = largest + 1
    stream = np.empty(K._varint_size(codes, rows, cols, base), dtype=np.uint8)
    K._write_varints(codes, rows, cols, base, stream)
    return base, stream


def encode_codes(codes: Codes, rows: int, cols: int, age: int, *, level: int = DEFAULT_LEVEL) -> bytes:
    """The compact bytes of the sorted codes of one age (the format is in the module's docstring).

    Args:
        codes: a 1-D ``uint64`` array of strictly increasing codes of ``rows``×``cols`` boards (every
            cell outside the board 0), each of tile sum ``age``; it may be empty.
        rows: the board's rows, 2 to 4.
        cols: its columns, 2 to 4, at most 12 cells in all.
        age: the tile sum of every code.
        level: zstd's compression level, 1 to 22.

    Raises:
        InvalidInputError: a bad argument; the message names the first bad code and why.
    """
    rows, cols, age = _check_board(rows, cols, age)
    level = _check_level(level)
    array = _as_codes(codes)
    base, stream = _varints(array, rows, cols, age)
    fields = _CODES_FIELDS.pack(CODES_MAGIC, VERSION, rows, cols, age, base, array.size, stream.size)
    checksum = zlib.crc32(stream.data, zlib.crc32(fields))
    payload = zstandard.ZstdCompressor(level=level).compress(stream.data)
    return fields + _CRC.pack(checksum) + payload


def _corrupt(what: str, problem: str) -> CorruptFileError:
    return CorruptFileError(f"corrupt shard {what}: {problem}")


def _first_line(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _decompress(payload: memoryview, size: int, what: str) -> bytes:
    """The ``size`` bytes of the zstd frame ``payload``; CorruptFileError when it is anything else."""
    try:
        declared = zstandard.frame_content_size(payload)
    except zstandard.ZstdError as error:
        raise _corrupt(what, f"no zstd frame after the header ({_first_line(error)})") from None
    if declared != size:
        held = "no size" if declared < 0 else f"{declared} bytes"
        raise _corrupt(what, f"its zstd frame announces {held}, its header {size} bytes")
    if size > _ZSTD_MAX_RATIO * len(payload):
        raise _corrupt(what, f"its header announces {size} bytes, more than {len(payload)} bytes of zstd can hold")
    try:
        content = zstandard.ZstdDecompressor().decompress(payload, max_output_size=size, allow_extra_data=False)
    except zstandard.ZstdError as error:
        raise _corrupt(what, f"its zstd frame cannot be read ({_first_line(error)})") from None
    if len(content) != size:  # pragma: no cover - zstd checks the size it announced
        raise _corrupt(what, f"its zstd frame holds {len(content)} bytes, its header {size}")
    return content


def _check_crc(what: str, fields: memoryview, content: bytes, checksum: int) -> None:
    found = zlib.crc32(content, zlib.crc32(fields))
    if found != checksum:
        raise _corrupt(what, f"checksum {found:#010x}, expected {checksum:#010x}")


def codes_header(data: bytes) -> CodesHeader:
    """The header of encoded codes, checked on its own (not against the rest of the bytes).

    Raises:
        CorruptFileError: too short, not encoded codes (magic), another version, or fields that
            cannot be (a board size, an age, a base or counts out of range).
        InvalidInputError: ``data`` is not bytes.
    """
    view = _as_bytes(data)
    if len(view) < CODES_HEADER:
        raise _corrupt("codes", f"{len(view)} bytes, shorter than the {CODES_HEADER}-byte header")
    magic, version, rows, cols, age, base, n, size = _CODES_FIELDS.unpack_from(view)
    (checksum,) = _CRC.unpack_from(view, _CODES_FIELDS.size)
    if magic != CODES_MAGIC:
        raise _corrupt("codes", f"magic {magic!r}, expected {CODES_MAGIC!r}")
    if version != VERSION:
        raise _corrupt("codes", f"format version {version}, expected {VERSION}")
    problem = _size_problem(rows, cols)
    if problem is not None:
        raise _corrupt("codes", problem)
    if age > rows * cols * MAX_TILE:
        raise _corrupt("codes", f"age {age} is past the largest of a {rows}x{cols} board")
    if not 1 <= base <= 16:
        raise _corrupt("codes", f"base {base}, expected 1..16")
    if n > base ** (rows * cols - 1):
        raise _corrupt("codes", f"{n} codes, more than the {base ** (rows * cols - 1)} numbers of base {base}")
    if not n <= size <= K.MAX_VARINT_BYTES * n:
        raise _corrupt("codes", f"{n} codes cannot take {size} varint bytes (1 to {K.MAX_VARINT_BYTES} each)")
    return CodesHeader(rows, cols, age, base, n, size, checksum)


def decode_codes(data: bytes, rows: int, cols: int, age: int) -> Codes:
    """The codes encoded by :func:`encode_codes`, as a new contiguous ``uint64`` array.

    Raises:
        CorruptFileError: ``data`` is not codes of a ``rows``×``cols`` board and of ``age`` as
            :func:`encode_codes` writes them: its header is cut or wrong (see :func:`codes_header`),
            holds another board or age, its zstd frame or checksum is wrong, or the stream does not
            decode to codes of that age (a one-line message says which).
        InvalidInputError: a bad argument.
    """
    rows, cols, age = _check_board(rows, cols, age)
    header = codes_header(data)
    if (header.rows, header.cols) != (rows, cols):
        raise _corrupt("codes", f"holds a {header.rows}x{header.cols} board, expected {rows}x{cols}")
    if header.age != age:
        raise _corrupt("codes", f"holds age {header.age}, expected {age}")
    view = _as_bytes(data)
    stream = _decompress(view[CODES_HEADER:], header.varint_bytes, "codes")
    _check_crc("codes", view[: _CODES_FIELDS.size], stream, header.checksum)
    out = np.empty(header.n, dtype=np.uint64)
    problem, index = K._decode(np.frombuffer(stream, dtype=np.uint8), rows, cols, age, header.base, out)
    if problem:
        raise _corrupt("codes", _stream_problem(problem, index, out, header))
    return out


def _stream_problem(problem: int, index: int, out: Codes, header: CodesHeader) -> str:
    digits = header.rows * header.cols - 1
    if problem == K.TRUNCATED:
        return f"the varint stream ends inside code {index} of {header.n}"
    if problem == K.LONG_VARINT:
        return f"the varint of code {index} runs past {K.MAX_VARINT_BYTES} bytes"
    if problem == K.PAST_RANGE:
        return f"code {index} has more than {digits} digits in base {header.base}"
    if problem == K.BAD_FIRST_CELL:
        first = header.age - _tile_sum(int(out[index]))
        return f"code {index} leaves {first} for its first cell, not 0 or a tile 2..{MAX_TILE}"
    return f"bytes are left after the {header.n} codes"


def _as_values(values: object) -> npt.NDArray[Any]:
    if not isinstance(values, np.ndarray):
        raise InvalidInputError(f"values must be a numpy array of float64, got {type(values).__name__}")
    if values.ndim != 1:
        raise InvalidInputError(f"values must be a 1-D array, got shape {values.shape}")
    if values.dtype.kind != "f":
        raise InvalidInputError(f"values must be floats (float64), got dtype {values.dtype}")
    return values


def _first_not_finite(values: npt.NDArray[Any]) -> int | None:
    bad = np.flatnonzero(~np.isfinite(values))
    return int(bad[0]) if bad.size else None


def encode_values(values: Values, *, precision: Precision = "f64", level: int = DEFAULT_LEVEL) -> bytes:
    """The compact bytes of a shard's values (the format is in the module's docstring).

    Args:
        values: a 1-D float array (float64; float32 and float16 are widened), every value finite.
        precision: ``"f64"`` keeps every value exactly, ``"f32"`` rounds each to the nearest float32.
        level: zstd's compression level, 1 to 22.

    Raises:
        InvalidInputError: a bad argument, a value that is not finite (or too large for float32).

    >>> data = encode_values(np.array([0.1, 2.0]), precision="f32")
    >>> decode_values(data, 2).tolist() == [float(np.float32(0.1)), 2.0]
    True
    """
    if not isinstance(precision, str) or precision not in _WIDTHS:
        raise InvalidInputError(f"precision must be 'f64' or 'f32', got {precision!r}")
    level = _check_level(level)
    array = _as_values(values)
    bad = _first_not_finite(array)
    if bad is not None:
        raise InvalidInputError(f"values must be finite, got values[{bad}] = {array[bad]}")
    width = _WIDTHS[precision]
    with np.errstate(over="ignore"):
        stored = np.ascontiguousarray(array, dtype=_DTYPES[width])
    bad = _first_not_finite(stored)
    if bad is not None:
        raise InvalidInputError(f"values[{bad}] = {array[bad]} is too large for float32")
    raw = stored.data.cast("B")
    fields = _VALUES_FIELDS.pack(VALUES_MAGIC, VERSION, width, stored.size)
    checksum = zlib.crc32(raw, zlib.crc32(fields))
    payload = zstandard.ZstdCompressor(level=level).compress(raw)
    return fields + _CRC.pack(checksum) + payload


def decode_values(data: bytes, n: int) -> Values:
    """The ``n`` values encoded by :func:`encode_values`, as a new float64 array.

    Raises:
        CorruptFileError: ``data`` is not ``n`` values as :func:`encode_values` writes them: its
            header is cut or wrong, holds another count, its zstd frame or checksum is wrong, or a
            value is not finite (a one-line message says which).
        InvalidInputError: a bad argument.
    """
    if not _is_int(n) or int(n) < 0:
        raise InvalidInputError(f"n must be a non-negative integer, got {n!r}")
    view = _as_bytes(data)
    if len(view) < VALUES_HEADER:
        raise _corrupt("values", f"{len(view)} bytes, shorter than the {VALUES_HEADER}-byte header")
    magic, version, width, count = _VALUES_FIELDS.unpack_from(view)
    (checksum,) = _CRC.unpack_from(view, _VALUES_FIELDS.size)
    if magic != VALUES_MAGIC:
        raise _corrupt("values", f"magic {magic!r}, expected {VALUES_MAGIC!r}")
    if version != VERSION:
        raise _corrupt("values", f"format version {version}, expected {VERSION}")
    if width not in _DTYPES:
        raise _corrupt("values", f"{width} bytes a value, expected 8 (f64) or 4 (f32)")
    if count != n:
        raise _corrupt("values", f"holds {count} values, expected {n}")
    raw = _decompress(view[VALUES_HEADER:], count * width, "values")
    _check_crc("values", view[: _VALUES_FIELDS.size], raw, checksum)
    out = np.frombuffer(raw, dtype=_DTYPES[width]).astype(np.float64)
    bad = _first_not_finite(out)
    if bad is not None:
        raise _corrupt("values", f"value {bad} is {out[bad]}")
    return out
