"""Time budgets of the k-in-a-row players: milliseconds per move, checked in one place.

Budgets are given as ``time_ms`` (milliseconds, as everywhere in plyground).

>>> check_time_ms(250)
250.0
>>> check_time_ms(None) is None
True
"""

from __future__ import annotations

import math

from plyground.errors import InvalidInputError

__all__ = ["MAX_TIME_MS", "check_time_ms"]

MAX_TIME_MS = 3_600_000.0
"""The longest budget per move: an hour."""


def _in_range(value: object, high: float) -> float | None:
    """``value`` as a float when it is a finite number in (0, ``high``], else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and 0 < value <= high else None


def check_time_ms(time_ms: object, name: str = "time_ms") -> float | None:
    """``time_ms`` as a float (None stays None) when it is a finite number of milliseconds in (0, an hour].

    Raises:
        InvalidInputError: not a number, not finite, not positive or over :data:`MAX_TIME_MS`;
            the message names the parameter ``name``.
    """
    if time_ms is None:
        return None
    checked = _in_range(time_ms, MAX_TIME_MS)
    if checked is None:
        raise InvalidInputError(
            f"{name} must be a positive number of milliseconds up to {MAX_TIME_MS:,.0f} (an hour), got {time_ms!r}"
        )
    return checked
