"""Slow, obviously-correct reference of the shard codec's varint stream (``plyground.g2048.shards.codec``).

Codes are Python ints in the bit form of ``g2048.py`` (cell (r, c) holds its exponent at bit
``16 * r + 4 * c``); cell ``k`` is cell ``(k // cols, k % cols)``. For the sorted codes of one age:

* ``base`` is one more than the largest exponent of cells 1.. over all codes (1 when there is none);
* each code's cells 1.. are the digits of ``x = sum of e_k * base**(k - 1)`` (cell 0 is left out:
  the age gives it);
* the stream is ``x_0``, then ``x_i - x_(i-1) - 1`` for each next code, each as an unsigned LEB128
  varint: 7 bits a byte, lowest first, the high bit set on every byte but the last.
"""

from __future__ import annotations

MAX_VARINT_BYTES = 7
"""Every x is below 16**11 = 2**44: 7 bytes of 7 bits hold it; a longer varint is corrupt."""


def cells(code: int, rows: int, cols: int) -> list[int]:
    """The exponents of the cells in row-major order: 0x10021 on 2x2 -> [1, 2, 1, 0]."""
    return [(code >> (16 * (k // cols) + 4 * (k % cols))) & 0xF for k in range(rows * cols)]


def from_cells(exponents: list[int], cols: int) -> int:
    """The code of row-major exponents."""
    return sum(e << (16 * (k // cols) + 4 * (k % cols)) for k, e in enumerate(exponents))


def tile_sum(code: int, rows: int, cols: int) -> int:
    """The sum of the tiles, 2**e for every non-empty cell."""
    return sum(2**e for e in cells(code, rows, cols) if e)


def base_of(codes: list[int], rows: int, cols: int) -> int:
    """One more than the largest exponent of cells 1.. of all codes."""
    return 1 + max((e for code in codes for e in cells(code, rows, cols)[1:]), default=0)


def mixed(code: int, rows: int, cols: int, base: int) -> int:
    """The digits of cells 1.. as one number in ``base``, cell 1 the lowest."""
    return sum(e * base ** (k - 1) for k, e in enumerate(cells(code, rows, cols)) if k >= 1)


def digits_of(value: int, base: int, count: int) -> list[int]:
    """The ``count`` lowest digits of ``value`` in ``base``, lowest first."""
    return [value // base**d % base for d in range(count)]


def chunk_code(value: int, chunk: int, digits: int, rows: int, cols: int, base: int) -> int:
    """The code whose cells ``digits * chunk + 1 ..`` hold the digits of ``value`` (those past the board dropped)."""
    exponents = [0] * (rows * cols)
    for d, e in enumerate(digits_of(value, base, digits)):
        if digits * chunk + d + 1 < rows * cols:
            exponents[digits * chunk + d + 1] = e
    return from_cells(exponents, cols)


def varint(value: int) -> bytes:
    """The unsigned LEB128 bytes of ``value``."""
    out = []
    while True:
        low, value = value % 128, value // 128
        if value == 0:
            out.append(low)
            return bytes(out)
        out.append(low + 128)


def encode(codes: list[int], rows: int, cols: int) -> tuple[int, bytes]:
    """The base and the varint stream of strictly increasing codes of one age."""
    base = base_of(codes, rows, cols)
    stream = b""
    previous = -1
    for code in codes:
        x = mixed(code, rows, cols, base)
        stream += varint(x - previous - 1)
        previous = x
    return base, stream


def read_varints(stream: bytes) -> list[int]:
    """The values of a stream of whole varints; ValueError when it ends inside one or one is too long."""
    values = []
    value = weight = 0
    for byte in stream:
        value += (byte % 128) * 2**weight
        weight += 7
        if byte < 128:
            values.append(value)
            value = weight = 0
        elif weight == 7 * MAX_VARINT_BYTES:
            raise ValueError(f"a varint runs past {MAX_VARINT_BYTES} bytes")
    if weight:
        raise ValueError("the stream ends inside a varint")
    return values


def decode(stream: bytes, n: int, rows: int, cols: int, age: int, base: int) -> list[int]:
    """The ``n`` codes of a stream; ValueError when it does not hold exactly ``n`` valid codes of ``age``."""
    deltas = read_varints(stream)
    if len(deltas) != n:
        raise ValueError(f"the stream holds {len(deltas)} varints, not {n}")
    codes = []
    x = -1
    for delta in deltas:
        x += delta + 1
        digits = []
        rest = x
        for _ in range(rows * cols - 1):
            digits.append(rest % base)
            rest //= base
        if rest:
            raise ValueError(f"{x} has more than {rows * cols - 1} digits in base {base}")
        first = age - sum(2**e for e in digits if e)
        if first == 0:
            e0 = 0
        elif first in [2**e for e in range(1, 16)]:
            e0 = [2**e for e in range(16)].index(first)
        else:
            raise ValueError(f"cell 0 would hold {first}")
        codes.append(from_cells([e0, *digits], cols))
    return codes


def first_bad(codes: list[int], rows: int, cols: int, age: int) -> int | None:
    """The index of the first code that is not a rows×cols board of tile sum ``age`` above the one before it."""
    board = sum(0xF << (16 * (k // cols) + 4 * (k % cols)) for k in range(rows * cols))
    for i, code in enumerate(codes):
        if code & ~board or (i > 0 and code <= codes[i - 1]) or tile_sum(code, rows, cols) != age:
            return i
    return None
