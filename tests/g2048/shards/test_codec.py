"""The shard codec: kernels against the slow twin in ``tests/naive/shard_codec.py``, round trips, errors.

The tests marked ``kernel`` run once more with ``NUMBA_DISABLE_JIT=1`` (``tests/test_kernels_without_jit.py``).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import zstandard
from hypothesis import example, given
from hypothesis import strategies as st

from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.shards import _codec_kernels as K
from plyground.g2048.shards.codec import (
    CodesHeader,
    codes_header,
    decode_codes,
    decode_values,
    encode_codes,
    encode_values,
    varints,
)
from tests.g2048.strategies import exponents
from tests.naive import shard_codec as naive

SIZES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3)]

# The header, restated here so that a change of the format shows as a failing test.
CODES_FIELDS = struct.Struct("<4sBBBIBQQ")
VALUES_FIELDS = struct.Struct("<4sBBQ")

Layer = tuple[int, int, int, list[int]]


def _apply(cells: list[int], splits: list[tuple[bool, int, int]]) -> list[int]:
    """Split a tile into two halves (into an empty cell) or merge two equal tiles: the tile sum stays."""
    cells = list(cells)
    for split, a, b in splits:
        a, b = a % len(cells), b % len(cells)
        if a == b:
            continue
        if split and cells[a] >= 2 and cells[b] == 0:
            cells[a] -= 1
            cells[b] = cells[a]
        elif not split and 1 <= cells[a] == cells[b] < 15:
            cells[a] += 1
            cells[b] = 0
    return cells


@st.composite
def layers(draw: st.DrawFn) -> Layer:
    """rows, cols, an age and strictly increasing codes of that age: rearrangements of one board, with
    tiles split and merged (often with 2**15 tiles, so the base goes up to 16)."""
    rows, cols = draw(st.sampled_from(SIZES))
    cells = draw(st.lists(exponents, min_size=rows * cols, max_size=rows * cols))
    codes = set()
    for _ in range(draw(st.integers(0, 40))):
        moved = _apply(
            draw(st.permutations(cells)),
            draw(st.lists(st.tuples(st.booleans(), st.integers(0, 11), st.integers(0, 11)), max_size=3)),
        )
        codes.add(naive.from_cells(moved, cols))
    age = naive.tile_sum(naive.from_cells(cells, cols), rows, cols)
    return rows, cols, age, sorted(codes)


def _array(values: list[int]) -> np.ndarray[Any, np.dtype[np.uint64]]:
    return np.array(values, dtype=np.uint64)


def _bytes(stream: bytes) -> np.ndarray[Any, np.dtype[np.uint8]]:
    return np.frombuffer(stream, dtype=np.uint8)


def random_layer(rows: int, cols: int, seed: int) -> tuple[int, np.ndarray[Any, Any]]:
    """The most common age among many boards, and the distinct boards of that age, sorted.

    Boards of 4 or 6 cells: every board of exponents up to 15 or 7; larger ones: 200,000 random boards,
    small exponents the most likely.
    """
    cells = rows * cols
    if cells <= 6:
        top = 16 if cells == 4 else 8
        grid = np.indices((top,) * cells).reshape(cells, -1).T.astype(np.uint64)
    else:
        weights = np.array([40, 20, 14, 10, 7, 4, 2, 1, 1, 0.5, 0.3, 0.1, 0.05, 0.03, 0.02, 0.01])
        grid = np.random.default_rng(seed).choice(16, size=(200_000, cells), p=weights / weights.sum())
        grid = grid.astype(np.uint64)
    shifts = np.array([16 * (k // cols) + 4 * (k % cols) for k in range(cells)], dtype=np.uint64)
    codes = np.bitwise_or.reduce(grid << shifts, axis=1)
    sums = np.where(grid > 0, np.uint64(1) << grid, 0).sum(axis=1)
    ages, counts = np.unique(sums, return_counts=True)
    age = int(ages[np.argmax(counts)])
    return age, np.unique(codes[sums == age])


# --------------------------------------------------------------------------
# The naive twin and the kernels
# --------------------------------------------------------------------------


def test_naive_twin_on_a_hand_checked_example() -> None:
    # 2x2, age 4: cells 1.. are (1, 0, 0), (0, 1, 0), (0, 2, 0); base 3: x = 1, 3, 6; deltas 1, 3-1-1, 6-3-1
    codes = [0x11, 0x10001, 0x20000]
    assert [naive.cells(c, 2, 2) for c in codes] == [[1, 1, 0, 0], [1, 0, 1, 0], [0, 0, 2, 0]]
    assert naive.encode(codes, 2, 2) == (3, bytes([1, 1, 2]))
    assert naive.decode(bytes([1, 1, 2]), 3, 2, 2, 4, 3) == codes
    assert naive.varint(0) == b"\x00" and naive.varint(127) == b"\x7f" and naive.varint(300) == b"\xac\x02"
    assert naive.read_varints(b"\xac\x02\x00") == [300, 0]
    assert naive.first_bad(codes, 2, 2, 4) is None
    assert naive.first_bad([0x11, 0x11], 2, 2, 4) == 1
    assert naive.first_bad([0x11, 0x1000], 2, 2, 4) == 1  # cell (0, 3) is off a 2x2 board
    assert naive.encode([], 3, 3) == (1, b"")


@pytest.mark.kernel
@given(layers())
@example((2, 2, 4, [0x2]))  # base 1: only cell 0 holds a tile
@example((4, 3, 2**15 * 12, [naive.from_cells([15] * 12, 3)]))  # base 16, the largest x
@example((3, 4, 0, [0]))
def test_kernels_match_naive(layer: Layer) -> None:
    rows, cols, age, codes = layer
    base, stream = naive.encode(codes, rows, cols)
    assert K._scan(_array(codes), rows, cols, age) == (-1, base - 1)
    assert K._varint_size(_array(codes), rows, cols, base) == len(stream)
    out = np.full(len(stream), 0xEE, dtype=np.uint8)
    K._write_varints(_array(codes), rows, cols, base, out)
    assert out.tobytes() == stream  # byte for byte
    decoded = np.full(len(codes), 12345, dtype=np.uint64)
    assert K._decode(_bytes(stream), rows, cols, age, base, decoded) == (0, -1)
    assert decoded.tolist() == codes == naive.decode(stream, len(codes), rows, cols, age, base)


@pytest.mark.kernel
@given(st.sampled_from(SIZES), st.integers(1, 16))
def test_byte_weights_match_naive(size: tuple[int, int], base: int) -> None:
    rows, cols = size
    weights = K._weights(rows, cols, base)
    for j in range(8):
        for v in (0, 1, 0x10, 0x21, 0xF0, 0xFF):
            assert weights[256 * j + v] == naive.mixed(v << (8 * j), rows, cols, base)
    assert K._mixed(np.uint64(0x10021), K._weights(2, 2, 3)) == naive.mixed(0x10021, 2, 2, 3) == 5


@pytest.mark.kernel
@given(st.sampled_from(SIZES), st.integers(1, 16), st.data())
def test_chunk_tables_match_naive(size: tuple[int, int], base: int, data: st.DataObject) -> None:
    rows, cols = size
    most = 1  # digits in a chunk: as many as the decoder takes, base**digits <= 4096, or fewer
    while most < rows * cols - 1 and base ** (most + 1) <= 4096:
        most += 1
    digits = data.draw(st.integers(1, most), "digits")
    cells, tiles = K._chunk_tables(rows, cols, base, digits)
    chunk = base**digits
    chunks = -(-(rows * cols - 1) // digits)
    assert cells.shape == (chunks * chunk,) and tiles.shape == (chunk,)
    for v in {0, chunk - 1, *data.draw(st.lists(st.integers(0, chunk - 1), max_size=20), "v")}:
        assert tiles[v] == sum(2**e for e in naive.digits_of(v, base, digits) if e)
        for j in range(chunks):
            assert int(cells[chunk * j + v]) == naive.chunk_code(v, j, digits, rows, cols, base)


@pytest.mark.kernel
@given(st.integers(0, 2**50), st.integers(1, 4096))
@example(2**50 - 1, 4095)
@example(4096 * 12345, 4096)
def test_divide_by_the_inverse(value: int, divisor: int) -> None:
    assert K._divide(value, divisor, 1.0 / divisor) == divmod(value, divisor)


@pytest.mark.kernel
@given(layers(), st.data())
def test_scan_finds_the_first_bad_code(layer: Layer, data: st.DataObject) -> None:
    rows, cols, age, codes = layer
    if codes:
        i = data.draw(st.integers(0, len(codes) - 1), "i")
        how = data.draw(st.sampled_from(["outside", "repeat", "swap", "tile"]), "how")
        if how == "outside" or (how == "repeat" and i == 0):
            codes[i] |= 1 << data.draw(st.sampled_from([b for b in range(64) if not _inside(b, rows, cols)]), "bit")
        elif how == "repeat":
            codes[i] = codes[i - 1]
        elif how == "swap" and i + 1 < len(codes):
            codes[i], codes[i + 1] = codes[i + 1], codes[i]
        else:  # another exponent in the last cell: another tile sum
            codes[i] ^= 1 << (16 * ((rows * cols - 1) // cols) + 4 * ((rows * cols - 1) % cols))
    expected = naive.first_bad(codes, rows, cols, age)
    bad, largest = K._scan(_array(codes), rows, cols, age)
    assert bad == (-1 if expected is None else expected)
    if expected is None:
        assert largest == naive.base_of(codes, rows, cols) - 1


def _inside(bit: int, rows: int, cols: int) -> bool:
    return bit // 16 < rows and bit % 16 // 4 < cols


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("stream", "n", "problem", "index"),
    [
        (b"", 1, K.TRUNCATED, 0),
        (b"\x01\x81", 2, K.TRUNCATED, 1),  # ends inside the second varint
        (b"\x01", 2, K.TRUNCATED, 1),  # ends before it
        (b"\x80" * 7 + b"\x00", 1, K.LONG_VARINT, 0),
        (b"\x01\x00\x00", 2, K.TRAILING, 2),  # x = 1 (2 + 2), 2 (4 in cell 1), then a byte too many
        (naive.varint(3**3), 1, K.PAST_RANGE, 0),  # 27 needs 4 digits: cells 1..3 hold 3
        (b"\x12\x08", 2, K.PAST_RANGE, 1),  # 18 (4 in cell 3), then 18 + 8 + 1 = 27
        (b"\x05", 1, K.BAD_FIRST_CELL, 0),  # 5: 4 in cell 1 and 2 in cell 2 leave -2
        (b"\x01\x03", 2, K.BAD_FIRST_CELL, 1),  # 1 + 3 + 1 = 5
    ],
)
def test_decode_reports_what_is_wrong(stream: bytes, n: int, problem: int, index: int) -> None:
    rows, cols, age, base = 2, 2, 4, 3  # x in base 3 has 3 digits: cells 1, 2 and 3
    out = np.zeros(n, dtype=np.uint64)
    assert K._decode(_bytes(stream), rows, cols, age, base, out) == (problem, index)
    with pytest.raises(ValueError):
        naive.decode(stream, n, rows, cols, age, base)


@pytest.mark.kernel
def test_every_tile_of_the_first_cell_decodes() -> None:
    for e in range(16):
        age = 2**15 + (2**e if e else 0)
        code = naive.from_cells([e, 15, 0, 0], 2)
        base, stream = naive.encode([code], 2, 2)
        out = np.zeros(1, dtype=np.uint64)
        assert K._decode(_bytes(stream), 2, 2, age, base, out) == (0, -1)
        assert int(out[0]) == code
    for age in (2**15 + 1, 2**15 + 3, 2**15 + 2**16):  # a 32768 in cell 1 leaves 1, 3, 65536 for cell 0
        out = np.zeros(1, dtype=np.uint64)
        assert K._decode(_bytes(naive.varint(15)), 2, 2, age, 16, out) == (K.BAD_FIRST_CELL, 0)
        assert int(out[0]) == 0xF0


@pytest.mark.kernel
@given(layers(), st.integers(1, 5))
def test_round_trip(layer: Layer, level: int) -> None:
    rows, cols, age, codes = layer
    data = encode_codes(_array(codes), rows, cols, age, level=level)
    decoded = decode_codes(data, rows, cols, age)
    assert decoded.dtype == np.uint64 and decoded.flags.c_contiguous and decoded.flags.writeable
    assert decoded.tolist() == codes
    base, stream = naive.encode(codes, rows, cols)
    assert codes_header(data) == CodesHeader(
        rows, cols, age, base, len(codes), len(stream), zlib.crc32(stream, zlib.crc32(data[: CODES_FIELDS.size]))
    )
    got_base, got_stream = varints(_array(codes), rows, cols, age)
    assert (got_base, got_stream.tobytes()) == (base, stream)


# --------------------------------------------------------------------------
# Round trips on large layers of every size
# --------------------------------------------------------------------------


SMALLEST_LAYER = {4: 50, 6: 1000, 8: 1000, 9: 1000, 12: 1000}


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_round_trip_of_a_large_layer_of_every_size(rows: int, cols: int) -> None:
    age, codes = random_layer(rows, cols, seed=rows * 10 + cols)
    data = encode_codes(codes, rows, cols, age)
    assert np.array_equal(decode_codes(data, rows, cols, age), codes)
    base, stream = varints(codes, rows, cols, age)
    assert (base, stream.tobytes()) == naive.encode(codes.tolist(), rows, cols)
    assert codes.size >= SMALLEST_LAYER[rows * cols]
    assert (stream >= 128).any() or rows * cols == 4  # varints of several bytes (2x2: x < 7**3, deltas below 128)


def test_the_largest_boards_round_trip() -> None:
    for rows, cols in SIZES:
        cells = rows * cols
        boards = [[0, *[15] * (cells - 1)], [15, 14, 14, *[15] * (cells - 3)], [*[15] * (cells - 1), 0]]
        codes = _array(sorted(naive.from_cells(board, cols) for board in boards))
        age = (cells - 1) * 2**15
        assert {naive.tile_sum(int(code), rows, cols) for code in codes} == {age}
        data = encode_codes(codes, rows, cols, age)
        assert codes_header(data).base == 16
        assert np.array_equal(decode_codes(data, rows, cols, age), codes)


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3)])
def test_round_trip_of_solved_layers(rows: int, cols: int, tmp_path: Path) -> None:
    from plyground.g2048.solver import solve

    solution = solve(rows, cols, directory=tmp_path / "solution")
    total = 0
    for counts in solution.counts():
        codes, values = solution.layer(counts.age)
        assert values is not None and not codes.flags.writeable  # read-only arrays are taken
        data = encode_codes(codes, rows, cols, counts.age)
        assert np.array_equal(decode_codes(data, rows, cols, counts.age), codes)
        assert np.array_equal(decode_values(encode_values(values), values.size), values)
        total += codes.size
    assert total == solution.totals().states


def test_an_empty_shard() -> None:
    empty = np.zeros(0, dtype=np.uint64)
    data = encode_codes(empty, 3, 3, 40)
    header = codes_header(data)
    assert (header.base, header.n, header.varint_bytes) == (1, 0, 0)
    out = decode_codes(data, 3, 3, 40)
    assert out.dtype == np.uint64 and out.size == 0
    values = decode_values(encode_values(np.zeros(0)), 0)
    assert values.dtype == np.float64 and values.size == 0


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------

GOOD = _array([0x11, 0x10001, 0x20000])  # 2x2, age 4


@pytest.mark.parametrize(
    ("codes", "rows", "cols", "age", "message"),
    [
        ([0x11], 2, 2, 4, "codes must be a numpy array of uint64, got list"),
        (GOOD.reshape(3, 1), 2, 2, 4, "codes must be a 1-D array, got shape (3, 1)"),
        (GOOD.astype(np.int64), 2, 2, 4, "codes must be uint64, got dtype int64"),
        (GOOD[::-1], 2, 2, 4, "codes must be strictly increasing, got codes[1] = 0x10001 <= codes[0] = 0x20000"),
        (_array([0x11, 0x11]), 2, 2, 4, "codes must be strictly increasing, got codes[1] = 0x11 <= codes[0] = 0x11"),
        (_array([0x11, 0x1001]), 2, 2, 4, "codes[1] = 0x1001 has tiles outside a 2x2 board"),
        (_array([0x11, 0x1000000000000]), 2, 2, 4, "codes[1] = 0x1000000000000 has tiles outside a 2x2 board"),
        (_array([0x11, 0x21]), 2, 2, 4, "codes[1] = 0x21 has tile sum 6, not the age 4"),
        (GOOD, 2, 2, 6, "codes[0] = 0x11 has tile sum 4, not the age 6"),
        (GOOD, 4, 4, 4, "a shard's board has 2 to 4 rows and columns and at most 12 cells, got 4x4"),
        (GOOD, 1, 4, 4, "a shard's board has 2 to 4 rows and columns and at most 12 cells, got 1x4"),
        (GOOD, 2, 5, 4, "a shard's board has 2 to 4 rows and columns and at most 12 cells, got 2x5"),
        (GOOD, 2.0, 2, 4, "rows and cols must be integers, got 2.0 and 2"),
        (GOOD, 2, True, 4, "rows and cols must be integers, got 2 and True"),
        (GOOD, 2, 2, -4, "age must be an integer in 0..131072 for a 2x2 board, got -4"),
        (GOOD, 2, 2, 131073, "age must be an integer in 0..131072 for a 2x2 board, got 131073"),
        (GOOD, 2, 2, "4", "age must be an integer in 0..131072 for a 2x2 board, got '4'"),
    ],
)
def test_bad_codes_are_refused(codes: Any, rows: Any, cols: Any, age: Any, message: str) -> None:
    for call in (encode_codes, varints):
        with pytest.raises(InvalidInputError) as raised:
            call(codes, rows, cols, age)
        assert str(raised.value) == message


def test_numpy_integers_are_taken_and_a_bad_level_is_refused() -> None:
    data = encode_codes(GOOD, np.int64(2), np.uint8(2), np.int32(4))
    assert np.array_equal(decode_codes(data, np.int64(2), 2, np.int64(4)), GOOD)
    for level in (0, 23, 3.0, None):
        with pytest.raises(InvalidInputError, match=r"^level must be a zstd level in 1\.\.22, got "):
            encode_codes(GOOD, 2, 2, 4, level=level)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=r"^data must be bytes, got str$"):
        decode_codes("data", 2, 2, 4)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=r"^a shard's board has 2 to 4 rows .* got 4x4$"):
        decode_codes(encode_codes(GOOD, 2, 2, 4), 4, 4, 4)
    assert np.array_equal(decode_codes(bytearray(VALID), 2, 2, 4), GOOD)
    assert np.array_equal(decode_codes(memoryview(VALID), 2, 2, 4), GOOD)


# --------------------------------------------------------------------------
# Corrupt codes
# --------------------------------------------------------------------------


def _codes_file(
    stream: bytes,
    n: int,
    *,
    rows: int = 2,
    cols: int = 2,
    age: int = 4,
    base: int = 3,
    magic: bytes = b"PGSC",
    version: int = 1,
    size: int | None = None,
    checksum: int | None = None,
) -> bytes:
    """Encoded codes around any stream, with a checksum that matches unless one is given."""
    fields = CODES_FIELDS.pack(magic, version, rows, cols, age, base, n, len(stream) if size is None else size)
    crc = zlib.crc32(stream, zlib.crc32(fields)) if checksum is None else checksum
    return fields + struct.pack("<I", crc) + zstandard.ZstdCompressor().compress(stream)


VALID = encode_codes(GOOD, 2, 2, 4)


def _replace(offset: int, new: bytes) -> Callable[[bytes], bytes]:
    return lambda data: data[:offset] + new + data[offset + len(new) :]


CORRUPTIONS: list[tuple[str, Callable[[bytes], bytes], str]] = [
    ("empty", lambda d: b"", "0 bytes, shorter than the 32-byte header"),
    ("cut-header", lambda d: d[:31], "31 bytes, shorter than the 32-byte header"),
    ("cut-frame", lambda d: d[:-3], "its zstd frame cannot be read"),
    ("no-frame", lambda d: d[:32], "no zstd frame after the header"),
    ("not-a-frame", lambda d: d[:32] + b"not zstd at all", "no zstd frame after the header"),
    ("extra-bytes", lambda d: d + b"\x00", "its zstd frame cannot be read"),
    ("magic", _replace(0, b"PGSV"), "magic b'PGSV', expected b'PGSC'"),
    ("version", _replace(4, b"\x02"), "format version 2, expected 1"),
    ("board", _replace(5, b"\x05"), "a shard's board has 2 to 4 rows and columns and at most 12 cells, got 5x2"),
    ("other-board", _replace(5, b"\x03"), "holds a 3x2 board, expected 2x2"),
    ("other-age", _replace(7, struct.pack("<I", 6)), "holds age 6, expected 4"),
    ("age-too-large", _replace(7, struct.pack("<I", 2**20)), "age 1048576 is past the largest of a 2x2 board"),
    ("base-0", _replace(11, b"\x00"), "base 0, expected 1..16"),
    ("base-17", _replace(11, b"\x11"), "base 17, expected 1..16"),
    ("other-base", _replace(11, b"\x04"), "checksum"),  # the header is part of the checksum
    ("too-many", _replace(12, struct.pack("<Q", 28)), "28 codes, more than the 27 numbers of base 3"),
    ("count-vs-bytes", _replace(12, struct.pack("<Q", 4)), "4 codes cannot take 3 varint bytes (1 to 7 each)"),
    ("bytes-vs-frame", _replace(20, struct.pack("<Q", 4)), "its zstd frame announces 3 bytes, its header 4 bytes"),
    ("huge", _replace(12, struct.pack("<QQ", 2**40, 2**42)), "1099511627776 codes, more than the 27 numbers of base 3"),
    ("checksum", _replace(28, b"\x00\x00\x00\x00"), "checksum 0x"),
]


@pytest.mark.parametrize(
    ("corrupt", "message"), [(c, m) for _, c, m in CORRUPTIONS], ids=[i for i, _, _ in CORRUPTIONS]
)
def test_corrupt_codes_are_refused(corrupt: Callable[[bytes], bytes], message: str) -> None:
    with pytest.raises(CorruptFileError) as raised:
        decode_codes(corrupt(VALID), 2, 2, 4)
    text = str(raised.value)
    assert text.startswith("corrupt shard codes: ") and message in text and "\n" not in text


@pytest.mark.parametrize(
    ("stream", "n", "age", "message"),
    [
        (b"\x01\x81", 2, 4, "the varint stream ends inside code 1 of 2"),
        (b"\x01\x80\x80\x80\x80\x80\x80\x80\x00", 2, 4, "the varint of code 1 runs past 7 bytes"),
        (b"\x1b", 1, 4, "code 0 has more than 3 digits in base 3"),  # 27
        (b"\x05", 1, 4, "code 0 leaves -2 for its first cell, not 0 or a tile 2..32768"),
        (b"\x01", 1, 8, "code 0 leaves 6 for its first cell, not 0 or a tile 2..32768"),
        (b"\x00\x00\x00\x00", 3, 4, "bytes are left after the 3 codes"),
    ],
)
def test_bad_streams_are_refused(stream: bytes, n: int, age: int, message: str) -> None:
    data = _codes_file(stream, n, age=age)
    with pytest.raises(CorruptFileError) as raised:
        decode_codes(data, 2, 2, age)
    assert str(raised.value) == f"corrupt shard codes: {message}"


def test_a_stream_written_by_hand_decodes() -> None:
    # x = 0 (a 4 in cell 0), 3 (2 in cells 0 and 2), 3 + 14 + 1 = 18 (a 4 in cell 3)
    assert decode_codes(_codes_file(b"\x00\x02\x0e", 3), 2, 2, 4).tolist() == [0x2, 0x10001, 0x200000]


def test_a_claimed_size_past_what_zstd_can_hold_is_not_allocated() -> None:
    # a zstd frame header (single segment, 8-byte content size) that claims 2**42 bytes, and one RLE block
    frame = b"\x28\xb5\x2f\xfd" + b"\xe0" + struct.pack("<Q", 2**42) + b"\x0b\x00\x00\x00"
    assert zstandard.frame_content_size(frame) == 2**42
    fields = CODES_FIELDS.pack(b"PGSC", 1, 4, 3, 2**15 * 12, 16, 2**40, 2**42)
    with pytest.raises(CorruptFileError, match=r"announces 4398046511104 bytes, more than 17 bytes of zstd can hold$"):
        decode_codes(fields + b"\x00" * 4 + frame, 4, 3, 2**15 * 12)


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------

finite = st.floats(allow_nan=False, allow_infinity=False)


@given(st.lists(finite, max_size=50), st.integers(1, 5))
def test_values_round_trip_exactly_at_f64(values: list[float], level: int) -> None:
    array = np.array(values, dtype=np.float64)
    data = encode_values(array, level=level)
    out = decode_values(data, len(values))
    assert out.dtype == np.float64 and out.flags.writeable
    assert out.tobytes() == array.tobytes()  # -0.0 too
    magic, version, width, n = VALUES_FIELDS.unpack_from(data)
    assert (magic, version, width, n) == (b"PGSV", 1, 8, len(values))


@given(st.lists(st.floats(-3e38, 3e38), max_size=50))
def test_values_round_to_float32(values: list[float]) -> None:
    array = np.array(values, dtype=np.float64)
    out = decode_values(encode_values(array, precision="f32"), len(values))
    assert out.dtype == np.float64
    assert out.tobytes() == array.astype(np.float32).astype(np.float64).tobytes()


def test_float32_values_are_widened_and_stored_values_are_little_endian() -> None:
    data = encode_values(np.array([1.5, -2.0], dtype=">f4"))
    assert decode_values(data, 2).tolist() == [1.5, -2.0]
    raw = zstandard.ZstdDecompressor().decompress(data[18:])
    assert raw == np.array([1.5, -2.0], dtype="<f8").tobytes()


@pytest.mark.parametrize(
    ("values", "kwargs", "message"),
    [
        ([1.0], {}, "values must be a numpy array of float64, got list"),
        (np.zeros((2, 2)), {}, "values must be a 1-D array, got shape (2, 2)"),
        (np.array([1, 2]), {}, "values must be floats (float64), got dtype int64"),
        (np.array([1.0, np.nan]), {}, "values must be finite, got values[1] = nan"),
        (np.array([-np.inf]), {"precision": "f32"}, "values must be finite, got values[0] = -inf"),
        (np.array([0.0, 1e39]), {"precision": "f32"}, "values[1] = 1e+39 is too large for float32"),
        (np.zeros(2), {"precision": "f16"}, "precision must be 'f64' or 'f32', got 'f16'"),
        (np.zeros(2), {"precision": None}, "precision must be 'f64' or 'f32', got None"),
        (np.zeros(2), {"level": 99}, "level must be a zstd level in 1..22, got 99"),
    ],
)
def test_bad_values_are_refused(values: Any, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        encode_values(values, **kwargs)
    assert str(raised.value) == message


def _values_file(raw: bytes, n: int, width: int = 8) -> bytes:
    fields = VALUES_FIELDS.pack(b"PGSV", 1, width, n)
    return fields + struct.pack("<I", zlib.crc32(raw, zlib.crc32(fields))) + zstandard.ZstdCompressor().compress(raw)


VALUES = encode_values(np.array([1.0, 2.5, 7.25]))

VALUE_CORRUPTIONS: list[tuple[str, Callable[[bytes], bytes], str]] = [
    ("cut-header", lambda d: d[:17], "17 bytes, shorter than the 18-byte header"),
    ("cut-frame", lambda d: d[:-2], "its zstd frame cannot be read"),
    ("no-frame", lambda d: d[:18], "no zstd frame after the header"),
    ("magic", _replace(0, b"PGSC"), "magic b'PGSC', expected b'PGSV'"),
    ("version", _replace(4, b"\x00"), "format version 0, expected 1"),
    ("width", _replace(5, b"\x02"), "2 bytes a value, expected 8 (f64) or 4 (f32)"),
    ("other-width", _replace(5, b"\x04"), "its zstd frame announces 24 bytes, its header 12 bytes"),
    ("count", _replace(6, struct.pack("<Q", 4)), "holds 4 values, expected 3"),
    ("checksum", _replace(14, b"\xff\xff\xff\xff"), "checksum 0x"),
    ("nan", lambda d: _values_file(np.array([1.0, np.nan, 2.0]).tobytes(), 3), "value 1 is nan"),
]


@pytest.mark.parametrize(
    ("corrupt", "message"), [(c, m) for _, c, m in VALUE_CORRUPTIONS], ids=[i for i, _, _ in VALUE_CORRUPTIONS]
)
def test_corrupt_values_are_refused(corrupt: Callable[[bytes], bytes], message: str) -> None:
    with pytest.raises(CorruptFileError) as raised:
        decode_values(corrupt(VALUES), 3)
    text = str(raised.value)
    assert text.startswith("corrupt shard values: ") and message in text and "\n" not in text


def test_a_bad_count_is_refused() -> None:
    for n in (-1, 2.0, True):
        with pytest.raises(InvalidInputError, match=r"^n must be a non-negative integer, got "):
            decode_values(VALUES, n)  # type: ignore[arg-type]
    assert decode_values(VALUES, np.int64(3)).tolist() == [1.0, 2.5, 7.25]
