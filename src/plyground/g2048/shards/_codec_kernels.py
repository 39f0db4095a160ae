"""Numba kernels of the shard codec: sorted codes of one age to a varint stream of mixed-radix deltas, and back.

A code's cells, in row-major order (cell ``k`` at bit ``16 * (k // cols) + 4 * (k % cols)``), hold
exponents ``e_k``. Cell 0 is left out (the age determines it); the others are read as the digits of
one number in base ``B``, cell 1 the least significant: ``x = sum over k >= 1 of e_k * B**(k - 1)``.
The stream holds ``x_0`` and then each ``x_i - x_(i-1) - 1``, every one an unsigned LEB128 varint
(7 bits a byte, lowest first, the high bit set on every byte but the last).

The wrapper (:mod:`plyground.g2048.shards.codec`) checks the input and the header and allocates;
the kernels do no validation beyond what decoding needs: :func:`_decode` reports a corrupt stream
by a problem number instead of raising. Every kernel has a slow twin in ``tests/naive/shard_codec.py``
(``_divide``'s is ``divmod``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from plyground._jit import kernel

# Input arrays may be read-only (a layer held read-only, bytes decompressed by zstd).
_CODES_IN = "Array(u8, 1, 'C', readonly=True)"
_BYTES_IN = "Array(uint8, 1, 'C', readonly=True)"

_NIBBLE = np.uint64(0xF)
MAX_VARINT_BYTES = 7
"""A varint of the stream has at most 7 bytes: every ``x`` is below ``16**11 = 2**44``, and 7 bytes hold 49 bits."""

# Problems :func:`_decode` reports (0: none).
TRUNCATED = 1
"""The stream ends inside, or before, the varint of a code."""
LONG_VARINT = 2
"""A varint runs past :data:`MAX_VARINT_BYTES` bytes."""
PAST_RANGE = 3
"""A code's ``x`` reaches ``B**(cells - 1)``: its digits do not fit the base."""
BAD_FIRST_CELL = 4
"""The age minus the tiles of cells 1.. is not 0 or a tile 2**1 .. 2**15."""
TRAILING = 5
"""Bytes are left after the last code."""

_TILE = np.array([0] + [2**e for e in range(1, 16)], dtype=np.int64)
"""The tile of each exponent, 0 for an empty cell."""

_PAIR_SUM = np.array([_TILE[v & 15] + _TILE[v >> 4] for v in range(256)], dtype=np.int64)
"""The tiles of the two cells of a byte of a code."""
_PAIR_SEEN = np.array([(1 << (v & 15)) | (1 << (v >> 4)) for v in range(256)], dtype=np.int64)
"""The exponents of the two cells of a byte, as bits (bit e for exponent e; bit 0 for an empty cell)."""

# 2 generates the units modulo 37 (its order is 36), so 2**e % 37 differs for every e in 0..35, and is never 0:
# _EXPONENT_OF[2**e % 37] == e for e in 1..15 (the bit scan of a power of two, Hacker's Delight 5-4), and
# _EXPONENT_OF[0] == 0 (an empty cell).
_EXPONENT_OF = np.zeros(37, dtype=np.int64)
for _e in range(1, 16):
    _EXPONENT_OF[2**_e % 37] = _e
del _e


@kernel(f"UniTuple(i8, 2)({_CODES_IN}, i8, i8, i8)")
def _scan(codes: npt.NDArray[np.uint64], rows: int, cols: int, age: int) -> tuple[int, int]:
    """(-1, the largest exponent of cells 1.. of all codes) when every code is a rows×cols board of tile
    sum ``age`` greater than the code before it; else (the index of the first code that is not, 0).

    [0x11, 0x20] on 2x2, age 4 -> (-1, 2); [0x11, 0x11] -> (1, 0) (repeated); [0x11, 0x30] -> (1, 0) (tile sum 8).
    """
    inside = np.uint64(0)
    for r in range(rows):
        inside |= ((np.uint64(1) << np.uint64(4 * cols)) - np.uint64(1)) << np.uint64(16 * r)
    outside = ~inside
    seen = 0
    previous = np.uint64(0)
    for i in range(codes.shape[0]):
        b = codes[i]
        if b & outside or (i > 0 and b <= previous):
            return i, 0
        total = _TILE[b & _NIBBLE]
        kept = b & ~_NIBBLE
        for j in range(8):  # a fixed count, unrolled; bytes past the board are 0
            pair = (kept >> np.uint64(8 * j)) & np.uint64(0xFF)
            total += _PAIR_SUM[pair]
            seen |= _PAIR_SEEN[pair]
        if total != age:
            return i, 0
        previous = b
    largest = 0
    for e in range(16):
        if seen >> e & 1:
            largest = e
    return -1, largest


@kernel("i8[::1](i8, i8, i8)")
def _weights(rows, cols, base):
    """The share of ``x`` of each byte of a code: ``out[256 * j + v]`` for byte ``j`` holding ``v`` (the cells
    at bits ``8j`` and ``8j + 4``), with weight ``base**(k - 1)`` for cell ``k >= 1``, 0 for cell 0 and for
    cells outside the board.

    2x2, base 3: byte 0 (cells 0 and 1) v=0x21 -> 2; byte 2 (cells 2 and 3) v=0x21 -> 1 * 3 + 2 * 9 = 21.
    """
    weight = np.zeros(16, dtype=np.int64)  # by nibble: cell (r, c) is nibble 4r + c
    power = 1
    for r in range(rows):
        for c in range(cols):
            if r > 0 or c > 0:
                weight[4 * r + c] = power
                power *= base
    out = np.zeros(8 * 256, dtype=np.int64)
    for j in range(8):
        for v in range(256):
            out[256 * j + v] = (v & 15) * weight[2 * j] + (v >> 4) * weight[2 * j + 1]
    return out


@kernel("i8(u8, i8[::1])", inline=True)
def _mixed(b, weights):
    """The digits of cells 1.. of code ``b`` as one number, by the byte weights of :func:`_weights`.

    0x10021 on 2x2, base 3 -> 2 + 1 * 3 = 5.
    """
    x = 0
    for j in range(8):  # a fixed count, unrolled; bytes past the board are 0, and so is their share
        x += weights[((b >> np.uint64(8 * j)) & np.uint64(0xFF)) + np.uint64(256 * j)]
    return x


@kernel(f"i8({_CODES_IN}, i8, i8, i8)")
def _varint_size(codes: npt.NDArray[np.uint64], rows: int, cols: int, base: int) -> int:
    """The bytes of the varint stream of ``codes`` in ``base``: [0x11, 0x20] on 2x2, base 3 -> 2 (x = 1 and 2)."""
    weights = _weights(rows, cols, base)
    total = 0
    previous = -1
    for i in range(codes.shape[0]):
        x = _mixed(codes[i], weights)
        delta = x - previous - 1
        total += 1
        while delta >= 128:
            delta >>= 7
            total += 1
        previous = x
    return total


@kernel(f"void({_CODES_IN}, i8, i8, i8, uint8[::1])")
def _write_varints(codes: npt.NDArray[np.uint64], rows: int, cols: int, base: int, out: npt.NDArray[np.uint8]) -> None:
    """Write the varint stream of ``codes`` in ``base`` to ``out``, of exactly :func:`_varint_size` bytes.

    [0x11, 0x20] on 2x2, base 3 -> [1, 0] (x = 1, then 2 - 1 - 1).
    """
    weights = _weights(rows, cols, base)
    j = 0
    previous = -1
    for i in range(codes.shape[0]):
        x = _mixed(codes[i], weights)
        delta = x - previous - 1
        while delta >= 128:
            out[j] = np.uint8((delta & 127) | 128)
            delta >>= 7
            j += 1
        out[j] = np.uint8(delta)
        j += 1
        previous = x


@kernel("Tuple((u8[::1], i8[::1]))(i8, i8, i8, i8)")
def _chunk_tables(rows, cols, base, digits):
    """The cells of each chunk of ``digits`` digits in ``base``: ``cells[chunk * j + v]`` is the code of the
    cells ``digits * j + 1 ..`` holding the digits of ``v`` (lowest first), where ``chunk = base**digits``,
    for every chunk ``j`` of the board's cells 1..; ``tiles[v]`` is their tile sum.

    2x2, base 3, 2 digits: cells[5] = 0x10020 (v = 5: digits 2 and 1 in cells 1 and 2), tiles[5] = 6;
    cells[9 + 1] = 0x100000 (the second chunk: cell 3, and cell 4, past the board, stays 0).
    """
    chunk = base**digits
    kept = rows * cols - 1
    chunks = (kept + digits - 1) // digits
    cells = np.zeros(chunks * chunk, dtype=np.uint64)
    tiles = np.zeros(chunk, dtype=np.int64)
    for j in range(chunks):
        start = chunk * j
        below = 1  # base**t: the entries filled so far, those of the t lower digits
        for t in range(digits):
            k = digits * j + t + 1  # the cell of digit t (none past the board: the digit is 0 in any x)
            shift = np.uint64(16 * (k // cols) + 4 * (k % cols))
            for e in range(1, base):
                for rest in range(below):  # v = e * base**t + rest: digit t is e, the lower ones those of rest
                    v = e * below + rest
                    cells[start + v] = cells[start + rest]
                    if k <= kept:
                        cells[start + v] |= np.uint64(e) << shift
                    if j == 0:
                        tiles[v] = tiles[rest] + _TILE[e]
            below *= base
    return cells, tiles


@kernel("UniTuple(i8, 2)(i8, i8, f8)", inline=True)
def _divide(value, divisor, inverse):
    """(value // divisor, value % divisor) for ``0 <= value < 2**52`` and ``inverse == 1 / divisor``: 17, 5 -> (3, 2).

    The quotient in floating point is off by at most one (value is exact as a float and the product's
    relative error is below 2**-52), and the remainder tells which way.
    """
    quotient = np.int64(value * inverse)
    remainder = value - quotient * divisor
    if remainder < 0:
        quotient -= 1
        remainder += divisor
    elif remainder >= divisor:
        quotient += 1
        remainder -= divisor
    return quotient, remainder


_CHUNK_ENTRIES = 4096
"""Digits are decoded in chunks of ``c`` digits with ``base**c`` at most this: the two tables of the lowest chunk,
read for every code, take at most 64 KiB (and are read in order, as ``x`` grows)."""


@kernel(f"UniTuple(i8, 2)({_BYTES_IN}, i8, i8, i8, i8, u8[::1])")
def _decode(
    stream: npt.NDArray[np.uint8], rows: int, cols: int, age: int, base: int, out: npt.NDArray[np.uint64]
) -> tuple[int, int]:
    """Decode ``out.size`` codes from the varint stream in ``base`` (1 to 16); return (problem, index).

    ``problem`` is 0 or one of :data:`TRUNCATED`, :data:`LONG_VARINT`, :data:`PAST_RANGE`,
    :data:`BAD_FIRST_CELL` (then ``out[index]`` holds the code without its cell 0), :data:`TRAILING`;
    ``index`` is the code concerned (-1 for none, ``out.size`` for trailing bytes).

    ``x`` is split into its lowest chunk of ``c`` digits and the rest (``x = high * base**c + low``), each
    read from :func:`_chunk_tables`; the rest is decoded again only when ``x`` passes a multiple of
    ``base**c`` (for 4x3 layers, about one code in ten), so most codes cost a varint, an addition and
    one table look-up.

    [1, 0] on 2x2, age 4, base 3 -> (0, -1) and out = [0x11, 0x20].
    """
    kept = rows * cols - 1
    c = 1
    while c < kept and base ** (c + 1) <= _CHUNK_ENTRIES:
        c += 1
    cells, tiles = _chunk_tables(rows, cols, base, c)
    chunk = tiles.shape[0]
    inverse = 1.0 / chunk
    top = base**kept
    high_start = -chunk  # x of the first code with the current high part: none yet
    high_cells = np.uint64(0)  # the cells of the high part
    high_tiles = 0
    x = -1
    position = 0
    size = stream.shape[0]
    for i in range(out.shape[0]):
        delta = 0
        shift = 0
        while True:
            if position >= size:
                return TRUNCATED, i
            byte = np.int64(stream[position])
            position += 1
            delta |= (byte & 127) << shift
            if byte < 128:
                break
            shift += 7
            if shift >= 7 * MAX_VARINT_BYTES:
                return LONG_VARINT, i
        x += delta + 1
        if x >= top:
            return PAST_RANGE, i
        low = x - high_start
        if low >= chunk:
            rest, low = _divide(x, chunk, inverse)
            high_start = x - low
            high_cells = np.uint64(0)
            high_tiles = 0
            j = 1
            while rest > 0:
                rest, part = _divide(rest, chunk, inverse)
                high_cells |= cells[chunk * j + part]
                high_tiles += tiles[part]
                j += 1
        code = high_cells | cells[low]
        first = age - high_tiles - tiles[low]  # the tile of cell 0: 0 or 2 .. 32768
        if first < 0 or first > 32768 or first == 1 or first & (first - 1) != 0:
            out[i] = code
            return BAD_FIRST_CELL, i
        out[i] = code | np.uint64(_EXPONENT_OF[first % 37])
    if position != size:
        return TRAILING, out.shape[0]
    return 0, -1
