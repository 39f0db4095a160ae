"""Clocks for the players' tests: time that moves only as the test says, so that no check depends on load.

A player reads ``time.perf_counter()`` and arms a ``threading.Timer`` at its deadline; a test
puts :class:`TickingClock` and :class:`RecordingTimer` in the player's module in their place
(``monkeypatch.setattr(module, "time", clock)``) and checks when the player stops by that clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class TickingClock:
    """A ``time`` module whose ``perf_counter()`` moves ``tick`` seconds at each reading."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick

    def perf_counter(self) -> float:
        self.now += self.tick
        return self.now


class RecordingTimer:
    """A ``threading.Timer`` that notes each interval it is armed with and fires at once when started."""

    intervals: list[float] = []  # noqa: RUF012 (shared on purpose: the test reads what the player armed)

    def __init__(self, interval: float, function: Callable[..., Any], args: tuple[Any, ...] = ()) -> None:
        self.interval, self.function, self.args = interval, function, args
        self.daemon = False

    def start(self) -> None:
        RecordingTimer.intervals.append(self.interval)
        self.function(*self.args)

    def cancel(self) -> None:
        pass


class Threading:
    """A ``threading`` module whose ``Timer`` is :class:`RecordingTimer` (a fresh record of intervals)."""

    def __init__(self) -> None:
        RecordingTimer.intervals = []
        self.Timer = RecordingTimer

    @property
    def intervals(self) -> list[float]:
        return RecordingTimer.intervals
