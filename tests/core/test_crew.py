"""The crew: helpers join work in progress, and the caller never waits for a helper that does not come."""

from __future__ import annotations

import _thread
import threading

import pytest

from plyground.core.crew import Crew


class _Pieces:
    """Work shared out by taking the next piece under a lock, as the kernels do with an atomic add."""

    def __init__(self, count: int, hold: threading.Event | None = None) -> None:
        self.count = count
        self.hold = hold
        self.taken: list[tuple[int, str]] = []
        self.finished: list[int] = []
        self.calls: list[str] = []
        self._next = 0
        self._lock = threading.Lock()

    def work(self) -> None:
        name = threading.current_thread().name
        self.calls.append(name)
        while True:
            with self._lock:
                piece, self._next = self._next, self._next + 1
            if piece >= self.count:
                return
            self.taken.append((piece, name))
            if self.hold is not None:
                if name == "MainThread":
                    self.hold.wait(timeout=0.01)  # slow pieces: a helper has time to take one
                else:
                    self.hold.wait(timeout=30)  # a helper that the operating system does not run on
            self.finished.append(piece)


def test_the_caller_does_all_the_work_when_no_helper_is_free() -> None:
    crew = Crew()
    busy, release = threading.Event(), threading.Event()

    def occupy() -> None:
        busy.set()
        release.wait(timeout=30)

    blocker = threading.Thread(target=crew.run, args=(occupy, 1), kwargs={"join": False})
    blocker.start()
    assert busy.wait(timeout=30)  # the crew's only helper is taken
    pieces = _Pieces(5)
    crew.run(pieces.work, helpers=1)  # returns without the helper
    assert sorted(pieces.taken) == [(i, "MainThread") for i in range(5)]
    release.set()
    blocker.join(timeout=30)
    assert crew.size == 1


def test_a_helper_that_took_a_piece_is_waited_for() -> None:
    crew = Crew()
    hold = threading.Event()
    pieces = _Pieces(40, hold)
    timer = threading.Timer(0.2, hold.set)
    timer.start()
    crew.run(pieces.work, helpers=1)
    assert sorted(pieces.finished) == list(range(40))  # every piece once, the helper's finished too
    timer.join()


def test_a_helper_that_comes_late_takes_nothing_and_the_next_round_is_its_own() -> None:
    crew = Crew()
    first = _Pieces(3)
    crew.run(first.work, helpers=1)
    second = _Pieces(3)
    crew.run(second.work, helpers=1)
    assert sorted(p for p, _ in first.taken) == sorted(p for p, _ in second.taken) == [0, 1, 2]


def test_work_that_the_caller_does_not_join_runs_on_helpers() -> None:
    crew = Crew()
    pieces = _Pieces(6)
    crew.run(pieces.work, helpers=2, join=False)
    assert sorted(p for p, _ in pieces.taken) == list(range(6))
    assert "MainThread" not in {name for _, name in pieces.taken}
    with pytest.raises(ValueError, match="needs a helper"):
        crew.run(pieces.work, helpers=0, join=False)


def test_an_error_in_a_helper_is_raised_in_the_caller() -> None:
    crew = Crew()

    def fail() -> None:
        raise RuntimeError("in the helper")

    with pytest.raises(RuntimeError, match="in the helper"):
        crew.run(fail, helpers=1, join=False)
    pieces = _Pieces(2)
    crew.run(pieces.work, helpers=1)  # the crew goes on serving
    assert sorted(p for p, _ in pieces.taken) == [0, 1]


def test_ctrl_c_while_helpers_work_stops_them_and_is_raised() -> None:
    crew = Crew()
    stop = threading.Event()
    started = threading.Event()

    def long_work() -> None:
        started.set()
        stop.wait(timeout=30)

    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        crew.run(long_work, helpers=1, join=False, on_interrupt=stop.set)
    timer.join()
    assert started.is_set() and stop.is_set()
