"""Elias-Fano codes: kernels against the slow twin in ``tests/naive/elias_fano.py``, the checks of the public API.

The kernel tests run once more with ``NUMBA_DISABLE_JIT=1`` (``tests/test_kernels_without_jit.py``).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from plyground.core import _elias_fano_kernels as K
from plyground.core.elias_fano import EliasFano, encode
from plyground.errors import CorruptFileError, InvalidInputError
from tests.naive import elias_fano as naive

MAX64 = 2**64 - 1


@st.composite
def sorted_values(draw: st.DrawFn) -> list[int]:
    """Non-decreasing values below 2**64: dense or sparse, from 0 or up to 2**64 - 1, often with duplicates."""
    bits = draw(st.integers(0, 64))
    low = draw(st.sampled_from([0, 0, MAX64 + 1 - 2**bits]))  # a universe from 0, or one that ends at 2**64 - 1
    element = st.integers(low, low + 2**bits - 1)
    if draw(st.booleans()):  # runs of equal values
        element = st.sampled_from(draw(st.lists(element, min_size=1, max_size=4)))
    return sorted(draw(st.lists(element, max_size=draw(st.sampled_from([3, 30, 200])))))


def _words(values: list[int]) -> np.ndarray[Any, np.dtype[np.uint64]]:
    return np.array(values, dtype=np.uint64)


def _ints(words: np.ndarray[Any, Any]) -> list[int]:
    return [int(w) for w in words]


# --------------------------------------------------------------------------
# Kernels against the naive twin
# --------------------------------------------------------------------------


def test_naive_twin_on_a_hand_checked_example() -> None:
    # lows 1, 0, 1; high parts 0, 1, 3 at bits 0 + 0, 1 + 1, 3 + 2 of a 3 + 3 + 1 bit stream
    assert naive.encode([1, 2, 7], 1) == ([0b101], [0b100101])
    assert naive.decode([0b101], [0b100101], 3, 1) == [1, 2, 7]
    assert naive.low_bits_for([1, 2, 7]) == 1  # 8 / 3 = 2.67
    assert naive.encode([], 5) == ([], [])


@pytest.mark.kernel
@given(sorted_values(), st.data())
@example([], None)
@example([0], None)
@example([MAX64], None)
@example([MAX64] * 3, None)
@example(list(range(64)), None)
def test_kernels_match_naive(values: list[int], data: st.DataObject | None) -> None:
    top = max(values, default=0).bit_length()
    low_bits = data.draw(st.integers(max(0, top - 10), 63), "low_bits") if data else naive.low_bits_for(values)
    lows, highs = naive.encode(values, low_bits)
    got_lows, got_highs = np.zeros(len(lows), dtype=np.uint64), np.zeros(len(highs), dtype=np.uint64)
    K._encode(_words(values), low_bits, got_lows, got_highs)
    assert (_ints(got_lows), _ints(got_highs)) == (lows, highs)
    out = np.full(len(values), 12345, dtype=np.uint64)
    K._decode(got_lows, got_highs, low_bits, out)
    assert _ints(out) == values == naive.decode(lows, highs, len(values), low_bits)


@pytest.mark.kernel
@given(st.lists(st.integers(0, MAX64), max_size=20))
def test_count_ones_matches_naive(words: list[int]) -> None:
    assert K._count_ones(_words(words)) == sum(naive.to_bits(words))


@pytest.mark.kernel
def test_every_bit_position_decodes() -> None:
    for bit in range(64):
        for value in (bit, 64 + bit):
            out = np.zeros(1, dtype=np.uint64)
            highs = _words(naive.encode([value], 0)[1])
            K._decode(np.zeros(0, dtype=np.uint64), highs, 0, out)
            assert int(out[0]) == value


@pytest.mark.kernel
@given(sorted_values())
@example([])
@example([0])
@example([MAX64])
@example([0, MAX64])
@example([5] * 100)
def test_encode_matches_naive_and_round_trips(values: list[int]) -> None:
    code = encode(_words(values))
    assert code.n == len(values)
    assert code.low_bits == naive.low_bits_for(values)
    assert (_ints(code.lows), _ints(code.highs)) == naive.encode(values, code.low_bits)
    decoded = code.decode()
    assert decoded.dtype == np.uint64 and _ints(decoded) == values
    assert code.nbytes == 8 * (code.lows.size + code.highs.size)
    assert code.bits_per_value == (8 * code.nbytes / len(values) if values else 0.0)
    again = EliasFano.from_arrays(code.to_arrays())
    assert again == code and _ints(again.decode()) == values


# --------------------------------------------------------------------------
# The public API
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "maximum", "low_bits"),
    [
        (1, 0, 0),
        (3, 7, 1),  # 8 / 3 = 2.67
        (4, 7, 1),  # 8 / 4 = 2
        (5, 7, 0),  # 8 / 5 = 1.6
        (10, 3, 0),  # u < n: duplicates
        (1, 2**63 - 1, 63),
        (1, MAX64, 63),  # 64 is capped
        (2, MAX64, 63),
        (3, MAX64, 62),
    ],
)
def test_low_bits_are_the_standard_choice(n: int, maximum: int, low_bits: int) -> None:
    values = [0] * (n - 1) + [maximum]
    assert naive.low_bits_for(values) == low_bits
    assert encode(_words(values)).low_bits == low_bits


def test_empty_code() -> None:
    code = encode(np.zeros(0, dtype=np.uint64))
    assert (code.n, code.low_bits, code.lows.size, code.highs.size) == (0, 0, 0, 0)
    assert code.nbytes == 0 and code.bits_per_value == 0.0
    assert code.decode().dtype == np.uint64 and code.decode().size == 0
    assert EliasFano.from_arrays(code.to_arrays()) == code


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.int8, np.int32, np.int64])
def test_other_non_negative_integers_are_converted(dtype: type[np.integer[Any]]) -> None:
    values = np.array([0, 1, 1, 100, 127], dtype=dtype)
    assert encode(values) == encode(values.astype(np.uint64))
    assert encode(values[::2]).decode().tolist() == [0, 1, 127]  # not contiguous
    assert encode(np.zeros(0, dtype=dtype)).n == 0


@pytest.mark.kernel
def test_read_only_input_and_arrays() -> None:
    values = np.arange(0, 3000, 7, dtype=np.uint64)
    values.flags.writeable = False
    code = encode(values)
    assert not code.lows.flags.writeable and not code.highs.flags.writeable
    assert np.array_equal(code.decode(), values)


def test_saved_and_loaded_with_numpy() -> None:
    code = encode(np.cumsum(np.arange(1000, dtype=np.uint64) % 37))
    buffer = io.BytesIO()
    np.savez(buffer, **code.to_arrays())
    buffer.seek(0)
    with np.load(buffer) as arrays:
        again = EliasFano.from_arrays(arrays)
    assert again == code
    assert np.array_equal(again.decode(), code.decode())
    assert code != encode(np.arange(1000, dtype=np.uint64)) and code != "code"
    assert repr(code) == f"EliasFano(n=1000, low_bits={code.low_bits}, nbytes={code.nbytes})"


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([1, 2, 3], "values must be a numpy array of uint64 codes, got list"),
        (np.zeros((2, 2), dtype=np.uint64), "values must be a 1-D array, got shape (2, 2)"),
        (np.uint64(3), "values must be a numpy array of uint64 codes, got uint64"),
        (np.array([1.0, 2.0]), "values must be unsigned integers (uint64), got dtype float64"),
        (np.array([True, False]), "values must be unsigned integers (uint64), got dtype bool"),
        (np.array(["a"]), "values must be unsigned integers (uint64), got dtype <U1"),
        (np.array([1, -5, 7]), "values must be non-negative, got values[1] = -5"),
        (np.array([1, 2, 2, 1], dtype=np.uint64), "values must be non-decreasing, got values[3] = 1 < values[2] = 2"),
        (
            np.array([MAX64, 0], dtype=np.uint64),
            f"values must be non-decreasing, got values[1] = 0 < values[0] = {MAX64}",
        ),
    ],
)
def test_invalid_values_are_refused(values: Any, message: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        encode(values)
    assert str(raised.value) == message


# --------------------------------------------------------------------------
# Corrupt arrays
# --------------------------------------------------------------------------

Arrays = dict[str, Any]


def _base() -> Arrays:
    """n=4, L=4: lows [0x7531], highs [0b10010101] (high parts 0, 1, 2, 4 at bits 0 + 0, 1 + 1, 2 + 2, 4 + 3)."""
    code = encode(_words([0x1, 0x13, 0x25, 0x47]))
    assert (code.n, code.low_bits, _ints(code.lows), _ints(code.highs)) == (4, 4, [0x7531], [0b10010101])
    return {key: np.array(value) for key, value in code.to_arrays().items()}


def _with(**changes: Any) -> Callable[[Arrays], Arrays]:
    return lambda arrays: {**arrays, **changes}


def _without(key: str) -> Callable[[Arrays], Arrays]:
    return lambda arrays: {k: v for k, v in arrays.items() if k != key}


CORRUPTIONS: list[tuple[str, Callable[[Arrays], Arrays], str]] = [
    ("missing-key", _without("highs"), "missing 'highs'"),
    ("unexpected-key", _with(extra=np.zeros(1)), "unexpected 'extra'"),
    ("n-not-0d", _with(n=np.array([4])), "'n' must be a 0-d integer array, got dtype int64 and shape (1,)"),
    ("n-float", _with(n=np.array(4.0)), "'n' must be a 0-d integer array, got dtype float64 and shape ()"),
    ("n-negative", _with(n=np.array(-1)), "n must be >= 0, got -1"),
    ("n-too-small", _with(n=np.array(3)), "'lows' has bits set past the 12 bits of n=3 low parts"),
    ("n-too-large", _with(n=np.array(17)), "'lows' has 1 words, expected 2 for n=17 and low_bits=4"),
    ("low-bits-64", _with(low_bits=np.array(64)), "low_bits must be in 0..63, got 64"),
    ("low-bits-wrong", _with(low_bits=np.array(2)), "'lows' has bits set past the 8 bits of n=4 low parts"),
    ("lows-int64", _with(lows=np.array([0x7531])), "'lows' must be a 1-D uint64 array, got dtype int64 and shape (1,)"),
    ("lows-2d", _with(lows=_words([[0x7531]])), "'lows' must be a 1-D uint64 array, got dtype uint64 and shape (1, 1)"),
    ("lows-list", _with(lows=[0x7531]), "'lows' must be a numpy array, got list"),
    ("lows-too-long", _with(lows=_words([0x7531, 0])), "'lows' has 2 words, expected 1 for n=4 and low_bits=4"),
    ("lows-too-short", _with(lows=_words([])), "'lows' has 0 words, expected 1 for n=4 and low_bits=4"),
    ("lows-spare-bits", _with(lows=_words([0x17531])), "'lows' has bits set past the 16 bits of n=4 low parts"),
    ("highs-big-endian", _with(highs=_words([0b10010101]).astype(">u8")), "'highs' must be a 1-D uint64 array"),
    ("highs-extra-word", _with(highs=_words([0b10010101, 0])), "'highs' has 2 words, expected 1 for its n=4 values"),
    ("highs-empty", _with(highs=_words([])), "'highs' has 0 set bits, expected one for each of the n=4 values"),
    ("highs-extra-bit", _with(highs=_words([0b10010111])), "'highs' has 5 set bits, expected one for each"),
    ("highs-missing-bit", _with(highs=_words([0b10010001])), "'highs' has 3 set bits, expected one for each"),
    ("highs-for-none", _with(n=np.array(0), lows=_words([])), "'highs' has 1 words, expected none for n=0"),
]


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("corrupt", "message"), [(c, m) for _, c, m in CORRUPTIONS], ids=[i for i, _, _ in CORRUPTIONS]
)
def test_corrupt_arrays_are_refused(corrupt: Callable[[Arrays], Arrays], message: str) -> None:
    with pytest.raises(CorruptFileError) as raised:
        EliasFano.from_arrays(corrupt(_base()))
    text = str(raised.value)
    assert text.startswith("corrupt Elias-Fano arrays: ") and message in text and "\n" not in text


@pytest.mark.kernel
def test_a_value_past_64_bits_is_refused() -> None:
    code = encode(_words([MAX64]))
    assert (code.low_bits, _ints(code.highs)) == (63, [0b10])  # high part 1
    arrays = {**code.to_arrays(), "highs": _words([0b100])}  # high part 2: 2 << 63 is past 64 bits
    with pytest.raises(CorruptFileError, match="high part 2, too large for 64 bits with low_bits=63"):
        EliasFano.from_arrays(arrays)


def test_an_inconsistent_code_cannot_be_built() -> None:
    with pytest.raises(InvalidInputError, match=r"^inconsistent Elias-Fano code: 'highs' has 1 set bits") as raised:
        EliasFano(2, 0, _words([]), _words([1]))
    assert type(raised.value) is InvalidInputError
    with pytest.raises(InvalidInputError, match="n must be an int, got float"):
        EliasFano(2.0, 0, _words([]), _words([3]))  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Size
# --------------------------------------------------------------------------


def test_sparse_36_bit_codes_take_about_2_plus_low_bits_per_value() -> None:
    universe = 2**36
    n = round(universe * 1e-5)
    values = np.sort(np.random.default_rng(20240601).integers(0, universe, n, dtype=np.uint64))
    code = encode(values)
    assert code.low_bits == 16 == math.floor(math.log2(int(values[-1] + 1) / n))
    # L low bits, n + u / 2**L unary bits (1 + 2**20 / 687195 = 2.53 per value), and two padded words
    assert 2 + code.low_bits <= code.bits_per_value <= 2 + math.log2(universe / n) + 1e-3
    assert code.bits_per_value == pytest.approx(2 + code.low_bits, abs=0.6)
    assert np.array_equal(code.decode(), values)
