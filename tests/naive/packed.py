"""The slow twin of ``g2048/_packed_kernels.py``: a packed body read one byte at a time, in plain Python."""

from __future__ import annotations


def unpack(data: bytes, index_length: int, count: int, step: float, size: int) -> dict[int, float] | None:
    """``{position: weight}`` of the packed body ``data`` (after its length), or None when it is malformed."""
    deltas: list[int] = []
    value, shift, i = 0, 0, 0
    while i < index_length:
        byte = data[i]
        i += 1
        value += (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            deltas.append(value)
            value, shift = 0, 0
        elif shift > 28:
            return None
    if shift or len(deltas) != count:
        return None
    weights: dict[int, float] = {}
    position = 0
    for k, delta in enumerate(deltas):
        if k > 0 and delta == 0:
            return None
        position += delta
        if position >= size:
            return None
        word = sum(data[index_length + plane * count + k] << (8 * plane) for plane in range(4))
        steps = word // 2 if word % 2 == 0 else -(word + 1) // 2
        if abs(steps) > 1 << 24:
            return None
        weights[position] = steps * step
    return weights
