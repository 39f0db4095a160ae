"""Helper threads that join a caller's work while it runs, and never make it wait for one that does not come.

A search shares its work out by calling one kernel on several threads at once: each call
takes the next piece of work not taken yet (an atomic counter in the kernel's arrays) until
none is left, then returns. :meth:`Crew.run` makes those calls: on the calling thread, at
once, and on each helper thread that is free, as soon as the operating system runs it.

On a busy machine a helper may not run for milliseconds. A parallel loop that hands each
thread its share up front, and waits for every thread at its end (numba's ``prange`` over
OpenMP), then waits for that helper; here the caller takes the helper's share itself, and a
helper that starts after the work is done does nothing. A helper that took a piece of work
finishes it before :meth:`Crew.run` returns.

>>> import threading
>>> done = []
>>> CREW.run(lambda: done.append(threading.current_thread().name), helpers=0)
>>> done == [threading.current_thread().name]
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["CREW", "Crew"]

WAIT_SECONDS = 0.1
"""How often a caller waiting for helpers wakes up, so that a Ctrl-C is seen at once."""


@dataclass
class _Round:
    """One :meth:`Crew.run`: the work, how many helpers may still join, and how many are in it."""

    work: Callable[[], None]
    places: int
    running: int = 0
    finished: int = 0
    error: BaseException | None = None


class Crew:
    """A set of helper threads, started when first needed, that serves every caller of the process.

    The threads are daemons: they wait, taking no processor time, while there is nothing to join.
    """

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._open: list[_Round] = []
        self._threads: list[threading.Thread] = []

    @property
    def size(self) -> int:
        """How many helper threads have been started."""
        return len(self._threads)

    def run(
        self, work: Callable[[], None], helpers: int, *, join: bool = True, on_interrupt: Callable[[], object] = bool
    ) -> None:
        """Call ``work()`` on this thread (unless ``join`` is false) and on up to ``helpers`` helper threads.

        Returns when every call that started has returned. The helpers that join are those free
        at once or free before the work is all taken: before the calling thread's own call
        returns, or without ``join``, before a helper's call returns (for which it waits).
        ``work`` must be safe to call on several threads at once, and to call when its work is
        all taken (it then returns at once).

        An exception in a helper's call is raised here. A ``KeyboardInterrupt`` (or another
        exception) on this thread calls ``on_interrupt()`` (which should make the calls still
        running return soon), waits for them, and is raised again.
        """
        if not join and helpers < 1:
            raise ValueError("work that the calling thread does not join needs a helper")
        round_ = _Round(work, helpers)
        if helpers > 0:
            with self._lock:
                self._open.append(round_)
                while len(self._threads) < helpers:
                    thread = threading.Thread(target=self._serve, name=f"crew-{len(self._threads)}", daemon=True)
                    self._threads.append(thread)
                    thread.start()
                self._lock.notify_all()
        try:
            if join:
                work()
            else:
                with self._lock:
                    while round_.finished == 0:  # a call that returns has left no work untaken
                        self._lock.wait(WAIT_SECONDS)
        except BaseException:
            on_interrupt()
            raise
        finally:
            self._close(round_, on_interrupt)
        if round_.error is not None:
            raise round_.error

    def _close(self, round_: _Round, on_interrupt: Callable[[], object]) -> None:
        """Let no more helpers join ``round_``, and wait for those in it."""
        with self._lock:
            if round_ in self._open:
                self._open.remove(round_)
            interrupted: BaseException | None = None
            while round_.running:
                try:
                    self._lock.wait(WAIT_SECONDS)
                except BaseException as error:  # Ctrl-C while helpers finish: stop them, then raise
                    on_interrupt()
                    interrupted = error
            if interrupted is not None:
                raise interrupted

    def _serve(self) -> None:
        """A helper thread: join each open round that has a place left."""
        with self._lock:
            while True:
                round_ = next((r for r in self._open if r.places > 0), None)
                if round_ is None:
                    self._lock.wait()
                    continue
                round_.places -= 1
                round_.running += 1
                self._lock.release()
                try:
                    round_.work()
                except BaseException as error:
                    round_.error = error
                finally:
                    self._lock.acquire()
                    round_.running -= 1
                    round_.finished += 1
                    self._lock.notify_all()


CREW = Crew()
"""The crew of the process, shared by every search."""
