"""The Gomocup brain's clock: how long a move may take, and a search that answers in time whatever the player does.

The manager sends ``INFO timeout_turn`` (milliseconds per move), ``timeout_match`` (the
whole game; 0 = no limit) and ``time_left`` (what is left of it); a move that arrives after
``timeout_turn``, or after ``time_left`` runs out, loses the game. So the brain

* gives its player a budget with a safety margin (:func:`budget_from_timeout`), and
* runs each search in a thread of its own (:class:`Search`), timed from the moment the
  manager's line was read: at the limit less :data:`STOP_MARGIN_MS` it stops the player
  (``stop()``), and at the limit less :data:`ANSWER_MARGIN_MS` it answers a move of its
  own (:func:`fallback_move`) if the player still has not.

What the brain does with its players beyond choosing a move is :mod:`plyground.apps.pbrain_player`.

The margins come from ``benchmarks/pbrain_latency.py``, which drives the brain process over
pipes on a loaded machine and records the worst latency from the manager's line to the
answer (see docs/kinrow.md, "The Gomocup brain").
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from plyground.errors import ForbiddenMoveError
from plyground.kinrow.board import State
from plyground.kinrow.budget import MAX_TIME_MS
from plyground.kinrow.players import Player
from plyground.kinrow.selfplay import timed_choice

__all__ = [
    "ANSWER_MARGIN_MS",
    "STOP_MARGIN_MS",
    "Clock",
    "Search",
    "Timer",
    "budget_from_timeout",
    "fallback_move",
]

SAFETY_FRACTION = 0.8
"""The part of the manager's time per move that the player's search may use (by default: ``--time-share``)..."""
MAX_SHARE = 0.95
"""The largest share a brain may be told to use: the rest is for the pipe and the stop."""
SAFETY_MS = 50.0
"""...less this, for the answer to reach the manager."""
MIN_MS = 10.0
"""The shortest budget (``INFO timeout_turn 0``: play as fast as possible)."""
MOVES_LEFT_GUESS = 20
"""With a match clock, a move gets at most the time left over this many moves."""
STOP_MARGIN_MS = 60.0
"""A search still running this long before the limit is stopped (it answers within milliseconds)."""
ANSWER_MARGIN_MS = 30.0
"""A player that has not answered this long before the limit is overruled: the brain answers a move of its own."""


def budget_from_timeout(timeout_turn_ms: int, time_left_ms: int | None = None, share: float = SAFETY_FRACTION) -> float:
    """The milliseconds a search may take when the manager allows ``timeout_turn_ms`` per move.

    Keeps a safety margin (``share``, 80% of the time by default, less 50 ms); ``0`` (play fast)
    gives 10 ms. With a match clock (``time_left_ms``), a move also gets at most 1/20 of the time
    left. At most an hour (:data:`~plyground.kinrow.budget.MAX_TIME_MS`).

    >>> budget_from_timeout(5000)
    3950.0
    >>> budget_from_timeout(5000, time_left_ms=20000)
    800.0
    >>> budget_from_timeout(0)
    10.0
    >>> budget_from_timeout(1000, share=0.9)
    850.0
    """
    budget = timeout_turn_ms * share - SAFETY_MS if timeout_turn_ms > 0 else 0.0
    if time_left_ms is not None:
        budget = min(budget, time_left_ms * share / MOVES_LEFT_GUESS)
    return round(min(max(MIN_MS, budget), MAX_TIME_MS), 3)


@dataclass
class Clock:
    """What the manager said of time: ``INFO timeout_turn``, ``timeout_match`` and ``time_left`` (ms).

    >>> clock = Clock(timeout_turn=1000, timeout_match=60000, time_left=500)
    >>> clock.limit_ms(), clock.budget_ms(None)
    (500, 20.0)
    >>> Clock(timeout_turn=1000, timeout_match=0, time_left=500).limit_ms()  # no match clock
    1000
    """

    timeout_turn: int | None = None
    timeout_match: int | None = None
    time_left: int | None = None
    share: float = SAFETY_FRACTION
    """The share of the time the player may use (see :func:`budget_from_timeout`)."""

    def _match_left(self) -> int | None:
        return max(0, self.time_left) if self.timeout_match and self.time_left is not None else None

    def limit_ms(self) -> int | None:
        """The longest a move may take, from the manager's line to the answer; None: no limit."""
        limits = [self.timeout_turn] if self.timeout_turn else []
        left = self._match_left()
        if left is not None:
            limits.append(left)
        return min(limits) if limits else None

    def budget_ms(self, own_ms: float | None) -> float | None:
        """The player's budget per move; ``own_ms`` (the player's own) when the manager gave no time."""
        left = self._match_left()
        if self.timeout_turn is None:
            if left is None:
                return own_ms
            budget = budget_from_timeout(int(MAX_TIME_MS), left, self.share)
            return budget if own_ms is None else min(own_ms, budget)
        return budget_from_timeout(self.timeout_turn, left, self.share)


def fallback_move(state: State) -> int:
    """A move the brain plays itself when its player does not answer in time: the forced move, else near the stones.

    The legal move closest to the last stones played (to the centre on an empty board).

    >>> fallback_move(State(9, 5))  # the centre
    40
    """
    forced = state.forced_move()
    if forced is not None:
        return forced
    moves = state.legal_moves()
    recent = state.history[-2:] or (state.index(state.n // 2, state.n // 2),)
    points = [state.coords(move) for move in recent]

    def distance(move: int) -> tuple[int, int]:
        row, col = state.coords(move)
        return min(max(abs(row - r), abs(col - c)) for r, c in points), move

    return min(moves, key=distance)


class Timer:
    """The brain's clock: what time it is, and waits until a time of that clock.

    This one reads ``time.perf_counter()``; tests give the brain one that moves only when
    they say, so that they check when the brain stops and overrules a player without
    depending on how fast the machine runs.
    """

    def now(self) -> float:
        """The time now, in seconds."""
        return time.perf_counter()

    def wait(self, event: threading.Event, until: float | None) -> bool:
        """Wait until ``event`` is set or :meth:`now` reaches ``until`` (None: no limit); return whether it is set."""
        return event.wait(None if until is None else max(0.0, until - self.now()))


class Search:
    """``timed_choice(player, state)`` in a thread of its own, which :meth:`wait` waits for until a deadline.

    :meth:`wake` makes a :meth:`wait` in progress return early (the brain does on ``END``).
    Deadlines are times of ``timer`` (by default a :class:`Timer`).
    """

    def __init__(self, player: Player, state: State, timer: Timer | None = None) -> None:
        self.player, self.state = player, state.copy()
        self._timer = timer or Timer()
        self.move: int | None = None
        self.error: Exception | None = None
        self.done = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pbrain-search", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.move, _ = timed_choice(self.player, self.state)
        except ForbiddenMoveError as exc:  # the brain overrules it with a legal move
            self.move = exc.move
        except Exception as exc:  # a PlayerError, or a bug: raised again where the move is awaited
            self.error = exc
        finally:
            self.done.set()
            self._wake.set()

    def wake(self) -> None:
        """Make the :meth:`wait` in progress return now (safe from any thread)."""
        self._wake.set()

    def wait(self, until: float | None) -> bool:
        """Wait until the search is done, :meth:`wake` is called, or the timer reaches ``until``.

        Returns:
            Whether the search is done.
        """
        self._timer.wait(self._wake, until)
        self._wake.clear()
        return self.done.is_set()
