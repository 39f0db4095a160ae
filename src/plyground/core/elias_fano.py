"""Compact storage of sorted ``uint64`` codes by Elias-Fano encoding.

A non-decreasing array of ``n`` values below ``u`` takes about ``2 + log2(u / n)`` bits
per value, whatever their spread: each value keeps its ``L = floor(log2(u / n))`` low
bits verbatim, and its high part is coded in unary (see
:mod:`plyground.core._elias_fano_kernels` for the layout). Encoding and decoding are
linear and run at tens of millions of values per second.

>>> code = encode(np.array([3, 5, 5, 1000], dtype=np.uint64))
>>> code.n, code.low_bits, code.nbytes
(4, 7, 16)
>>> code.decode().tolist()
[3, 5, 5, 1000]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.core import _elias_fano_kernels as K
from plyground.errors import CorruptFileError, InvalidInputError

__all__ = ["EliasFano", "encode"]

MAX_LOW_BITS = 63
"""Low parts are at most 63 bits wide (a single value of 2**64 - 1 would otherwise get 64)."""

_ARRAY_KEYS = ("n", "low_bits", "lows", "highs")


def _low_bits_for(n: int, maximum: int) -> int:
    """The number of low bits ``L = floor(log2(u / n))`` for ``n`` values up to ``maximum`` (``u = maximum + 1``).

    0 when there are no values or when ``u < n``, at most :data:`MAX_LOW_BITS`.
    """
    if n <= 0:
        return 0
    ratio = (maximum + 1) // n  # floor(log2(u / n)) == floor(log2(floor(u / n))) when u >= n
    return min(max(ratio.bit_length() - 1, 0), MAX_LOW_BITS)


def _lows_words(n: int, low_bits: int) -> int:
    return (n * low_bits + 63) // 64


def _highs_words(n: int, high_max: int) -> int:
    """Words of a stream of ``n + high_max + 1`` bits (none at all for no values)."""
    return (n + high_max + 1 + 63) // 64 if n else 0


def _problem(n: object, low_bits: object, lows: object, highs: object) -> str | None:
    """What makes the four parts inconsistent, or None when they are a valid code."""
    for name, value in (("n", n), ("low_bits", low_bits)):
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{name} must be an int, got {type(value).__name__}"
    assert isinstance(n, int) and isinstance(low_bits, int)
    if n < 0:
        return f"n must be >= 0, got {n}"
    if not 0 <= low_bits <= MAX_LOW_BITS:
        return f"low_bits must be in 0..{MAX_LOW_BITS}, got {low_bits}"
    for name, words in (("lows", lows), ("highs", highs)):
        if not isinstance(words, np.ndarray):
            return f"'{name}' must be a numpy array, got {type(words).__name__}"
        if words.dtype != np.uint64 or words.ndim != 1:
            return f"'{name}' must be a 1-D uint64 array, got dtype {words.dtype} and shape {words.shape}"
    assert isinstance(lows, np.ndarray) and isinstance(highs, np.ndarray)
    expected = _lows_words(n, low_bits)
    if lows.size != expected:
        return f"'lows' has {lows.size} words, expected {expected} for n={n} and low_bits={low_bits}"
    spare = n * low_bits % 64
    if spare and int(lows[-1]) >> spare:
        return f"'lows' has bits set past the {n * low_bits} bits of n={n} low parts"
    if n == 0:
        return None if highs.size == 0 else f"'highs' has {highs.size} words, expected none for n=0"
    ones = int(K._count_ones(np.ascontiguousarray(highs)))
    if ones != n:
        return f"'highs' has {ones} set bits, expected one for each of the n={n} values"
    last = int(np.flatnonzero(highs)[-1])
    high_max = 64 * last + int(highs[last]).bit_length() - 1 - (n - 1)
    expected = _highs_words(n, high_max)
    if highs.size != expected:
        return f"'highs' has {highs.size} words, expected {expected} for its n={n} values"
    if high_max >> (64 - low_bits):
        return f"the largest value has high part {high_max}, too large for 64 bits with low_bits={low_bits}"
    return None


def _read_only(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    view = np.ascontiguousarray(words).view()
    view.flags.writeable = False
    return view


@dataclass(frozen=True, eq=False, repr=False)
class EliasFano:
    """The Elias-Fano code of a non-decreasing ``uint64`` array; made by :func:`encode`.

    Attributes:
        n: the number of values.
        low_bits: ``L``, the number of low bits of each value stored verbatim.
        lows: ``ceil(n * L / 64)`` words packing the low parts, ``L`` bits each, from bit 0.
        highs: the unary high parts: bit ``(value_i >> L) + i`` is set for value ``i``, in
            ``ceil((n + (max >> L) + 1) / 64)`` words (none when ``n == 0``).

    The arrays are read-only. Building one directly checks that the parts are
    consistent and raises :class:`~plyground.errors.InvalidInputError` if not.
    """

    n: int
    low_bits: int
    lows: npt.NDArray[np.uint64]
    highs: npt.NDArray[np.uint64]

    def __post_init__(self) -> None:
        problem = _problem(self.n, self.low_bits, self.lows, self.highs)
        if problem is not None:
            raise InvalidInputError(f"inconsistent Elias-Fano code: {problem}")
        object.__setattr__(self, "lows", _read_only(self.lows))
        object.__setattr__(self, "highs", _read_only(self.highs))

    def decode(self) -> npt.NDArray[np.uint64]:
        """The values, as a new ``uint64`` array."""
        out = np.empty(self.n, dtype=np.uint64)
        K._decode(self.lows, self.highs, self.low_bits, out)
        return out

    @property
    def nbytes(self) -> int:
        """Bytes held by the two word arrays."""
        return int(self.lows.nbytes + self.highs.nbytes)

    @property
    def bits_per_value(self) -> float:
        """Bits of the two word arrays per value (0.0 for no values)."""
        return 8 * self.nbytes / self.n if self.n else 0.0

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The code as named arrays for :func:`numpy.savez` (``n`` and ``low_bits`` as 0-d int64 arrays)."""
        return {
            "n": np.array(self.n, dtype=np.int64),
            "low_bits": np.array(self.low_bits, dtype=np.int64),
            "lows": self.lows,
            "highs": self.highs,
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, Any]) -> EliasFano:
        """The code from named arrays as made by :meth:`to_arrays` (for instance an opened ``.npz`` file).

        Raises:
            CorruptFileError: a key is missing or unexpected, an array has the wrong dtype,
                shape or length, or the arrays do not form a valid code (one-line message).
        """
        keys = set(arrays)
        missing = [key for key in _ARRAY_KEYS if key not in keys]
        if missing:
            raise CorruptFileError(f"corrupt Elias-Fano arrays: missing {', '.join(map(repr, missing))}")
        unexpected = sorted(keys - set(_ARRAY_KEYS))
        if unexpected:
            raise CorruptFileError(f"corrupt Elias-Fano arrays: unexpected {', '.join(map(repr, unexpected))}")
        scalars = []
        for name in ("n", "low_bits"):
            value = np.asarray(arrays[name])
            if value.ndim != 0 or value.dtype.kind not in "iu":
                raise CorruptFileError(
                    f"corrupt Elias-Fano arrays: '{name}' must be a 0-d integer array,"
                    f" got dtype {value.dtype} and shape {value.shape}"
                )
            scalars.append(int(value))
        try:
            return cls(scalars[0], scalars[1], arrays["lows"], arrays["highs"])
        except InvalidInputError as exc:
            raise CorruptFileError(
                str(exc).replace("inconsistent Elias-Fano code", "corrupt Elias-Fano arrays")
            ) from None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EliasFano):
            return NotImplemented
        return (
            self.n == other.n
            and self.low_bits == other.low_bits
            and np.array_equal(self.lows, other.lows)
            and np.array_equal(self.highs, other.highs)
        )

    def __repr__(self) -> str:
        return f"EliasFano(n={self.n}, low_bits={self.low_bits}, nbytes={self.nbytes})"


def _as_codes(values: object) -> npt.NDArray[np.uint64]:
    """``values`` as a C-contiguous ``uint64`` array, checked to be 1-D, non-negative and non-decreasing."""
    if not isinstance(values, np.ndarray):
        raise InvalidInputError(f"values must be a numpy array of uint64 codes, got {type(values).__name__}")
    if values.ndim != 1:
        raise InvalidInputError(f"values must be a 1-D array, got shape {values.shape}")
    if values.dtype.kind not in "iu":
        raise InvalidInputError(f"values must be unsigned integers (uint64), got dtype {values.dtype}")
    if values.dtype.kind == "i" and values.size:
        first = int(np.argmin(values))
        if values[first] < 0:
            raise InvalidInputError(f"values must be non-negative, got values[{first}] = {values[first]}")
    codes = np.ascontiguousarray(values, dtype=np.uint64)
    drops = np.flatnonzero(codes[1:] < codes[:-1])
    if drops.size:
        i = int(drops[0]) + 1
        raise InvalidInputError(
            f"values must be non-decreasing, got values[{i}] = {codes[i]} < values[{i - 1}] = {codes[i - 1]}"
        )
    return codes


def encode(values: npt.NDArray[Any]) -> EliasFano:
    """The Elias-Fano code of a non-decreasing array of codes.

    Args:
        values: a 1-D array of ``uint64`` (or of other integers, all non-negative),
            sorted in non-decreasing order; duplicates and an empty array are fine.

    Returns:
        The code, with ``L = floor(log2((max + 1) / n))`` low bits (0 when that is
        negative or there are no values, at most 63).

    Raises:
        InvalidInputError: ``values`` is not a 1-D integer array, holds a negative
            value, or is not sorted (the message names the first offending position).

    >>> values = np.array([0, 7, 7, 2**40, 2**64 - 1], dtype=np.uint64)
    >>> code = encode(values)
    >>> code
    EliasFano(n=5, low_bits=61, nbytes=48)
    >>> np.array_equal(code.decode(), values)
    True
    >>> EliasFano.from_arrays(code.to_arrays()) == code
    True
    """
    codes = _as_codes(values)
    n = codes.size
    low_bits = _low_bits_for(n, int(codes[-1]) if n else 0)
    lows = np.zeros(_lows_words(n, low_bits), dtype=np.uint64)
    highs = np.zeros(_highs_words(n, int(codes[-1]) >> low_bits if n else 0), dtype=np.uint64)
    K._encode(codes, low_bits, lows, highs)
    return EliasFano(n, low_bits, lows, highs)
