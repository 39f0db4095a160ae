"""Slow, obviously-correct reference implementation of the Elias-Fano code.

Values are Python ints below 2**64, bit streams are lists of 0/1, and words are
Python ints: bit ``j`` of a stream is bit ``j % 64`` of word ``j // 64``.

With ``L`` low bits, value ``i`` of ``n`` contributes its ``L`` low bits, lowest
first, to the low stream, and sets bit ``(value >> L) + i`` of the high stream of
``n + (max >> L) + 1`` bits (an empty high stream for no values).
"""

from __future__ import annotations

WORD = 64
MAX_LOW_BITS = 63


def low_bits_for(values: list[int]) -> int:
    """The largest L with ``n * 2**L <= max + 1`` (0 if none, or no values), at most 63."""
    n = len(values)
    if n == 0:
        return 0
    universe = max(values) + 1
    low_bits = 0
    while n * 2 ** (low_bits + 1) <= universe:
        low_bits += 1
    return min(low_bits, MAX_LOW_BITS)


def to_words(bits: list[int]) -> list[int]:
    """Pack a bit stream into 64-bit words, the last one padded with zeros."""
    words = []
    for start in range(0, len(bits), WORD):
        chunk = bits[start : start + WORD]
        words.append(sum(bit << k for k, bit in enumerate(chunk)))
    return words


def to_bits(words: list[int]) -> list[int]:
    """Unpack 64-bit words into a bit stream (64 bits a word)."""
    return [(word >> k) & 1 for word in words for k in range(WORD)]


def encode(values: list[int], low_bits: int) -> tuple[list[int], list[int]]:
    """The (lows, highs) words of a non-decreasing list of values."""
    low_stream: list[int] = []
    for value in values:
        low_stream += [(value >> k) & 1 for k in range(low_bits)]
    high_stream = [0] * (len(values) + (max(values) >> low_bits) + 1) if values else []
    for i, value in enumerate(values):
        high_stream[(value >> low_bits) + i] = 1
    return to_words(low_stream), to_words(high_stream)


def decode(lows: list[int], highs: list[int], n: int, low_bits: int) -> list[int]:
    """The values back from their words."""
    low_stream = to_bits(lows)
    ones = [position for position, bit in enumerate(to_bits(highs)) if bit]
    values = []
    for i in range(n):
        low = sum(low_stream[i * low_bits + k] << k for k in range(low_bits))
        high = ones[i] - i
        values.append((high << low_bits) | low)
    return values
