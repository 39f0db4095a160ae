"""Time budgets of the k-in-a-row players: milliseconds per move, checked in one place.

Budgets are given as ``time_ms`` (milliseconds, as everywhere in plyground). The old
spelling ``time_budget`` (seconds) is still accepted as a keyword alias; giving both is
an error.

>>> resolve_time_ms(250, None)
250.0
>>> resolve_time_ms(None, 1.5)  # the old spelling, in seconds
1500.0
>>> resolve_time_ms(None, None) is None
True
"""

from __future__ import annotations

import math

from plyground.errors import InvalidInputError

__all__ = ["MAX_TIME_MS", "check_time_ms", "resolve_time_ms"]

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


def resolve_time_ms(time_ms: object, time_budget: object) -> float | None:
    """The budget in milliseconds from ``time_ms``, or from ``time_budget`` (seconds, the old spelling).

    Raises:
        InvalidInputError: both are given, or the one given is out of range (see :func:`check_time_ms`).
    """
    if time_budget is None:
        return check_time_ms(time_ms)
    if time_ms is not None:
        raise InvalidInputError("give time_ms (milliseconds) or time_budget (seconds, the old spelling), not both")
    seconds = _in_range(time_budget, MAX_TIME_MS / 1000)
    if seconds is None:
        raise InvalidInputError(
            f"time_budget must be a positive number of seconds up to {MAX_TIME_MS / 1000:,.0f} (an hour), "
            f"got {time_budget!r}"
        )
    return seconds * 1000
