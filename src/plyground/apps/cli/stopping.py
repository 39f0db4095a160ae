"""A first Ctrl-C or SIGTERM that asks a long command to stop at its next safe point, and a second that interrupts."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

__all__ = ["Stop", "ctrl_c_stops"]


class Stop(threading.Event):
    """Set by the first Ctrl-C or SIGTERM; :attr:`signum` says which (the exit code is ``128 + signum``)."""

    signum = signal.SIGINT


@contextlib.contextmanager
def ctrl_c_stops(on_first: Callable[[], None] | None = None) -> Iterator[Stop]:
    """While inside, the first Ctrl-C or SIGTERM sets the event (and calls ``on_first``); a second one interrupts.

    The command checks the event where stopping loses nothing (between moves, after a checkpoint),
    so neither a library call cut in the middle nor a plain ``kill`` (as when a machine's session
    ends, before its processes are killed) loses work or prints a traceback.
    """
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop  # signals reach the main thread only
        return

    def handle(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.signum = signal.Signals(signum)
        stop.set()
        if on_first is not None:
            on_first()

    previous = {number: signal.signal(number, handle) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
