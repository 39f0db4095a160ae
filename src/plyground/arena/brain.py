"""A Gomocup brain as a process on pipes: start it, write it commands, read its answers, end it.

Its output is read as bytes by a thread of its own and decoded line by line with
``errors="replace"``: a brain that writes bytes that are not UTF-8 (a depth as a raw byte, a
name in a legacy code page) neither stops the manager nor confuses it. A brain that ends its
lines with CR LF (as Piskvork's brains do) may write a byte 10 inside a ``MESSAGE`` or
``DEBUG`` line: the line goes on to its CR LF, so what follows that byte is never taken for an
answer. Which answers count is :mod:`plyground.arena.piskvork`'s business.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import IO

from plyground.errors import BrainError

__all__ = ["END_GRACE_S", "SKIPPED", "BrainProcess", "allow_starts", "decode", "kill_all"]

END_GRACE_S = 3.0
"""How long a brain may take to exit after ``END`` before it is killed."""
READER_GRACE_S = 5.0
"""How long :meth:`BrainProcess.close` waits for the reading thread to see the end of the brain's output."""
SKIPPED = ("MESSAGE", "DEBUG", "SUGGEST")
"""The first words of the lines a brain writes for people, never answers."""

_LIVE: set[BrainProcess] = set()
_LIVE_LOCK = threading.Lock()
_ABORTED = threading.Event()


def kill_all() -> None:
    """Kill every brain running and every one started from now on (on Ctrl-C: the games then end at once)."""
    _ABORTED.set()
    with _LIVE_LOCK:
        brains = list(_LIVE)
    for brain in brains:
        brain.kill()


def allow_starts() -> None:
    """Let brains start again after :func:`kill_all` (a new match in the same process)."""
    _ABORTED.clear()


def _is_message(raw: bytes) -> bool:
    words = raw.split(None, 1)
    return bool(words) and words[0].upper().decode("ascii", "replace") in SKIPPED


def decode(raw: bytes) -> str:
    r"""A line of a brain as text: decoded with ``errors="replace"``, NULs dropped, spaces stripped.

    >>> decode(b"MESSAGE depth \xff nodes 5\r\n")
    'MESSAGE depth \ufffd nodes 5'
    """
    return raw.decode("utf-8", "replace").replace("\0", "").strip()


class BrainProcess:
    """A brain started from ``command`` (the executable, then its arguments).

    Its stdout is read by a thread, its stderr kept in a temporary file (:meth:`exited` quotes its
    last line). It runs in a session of its own: a Ctrl-C reaches the manager only, which ends the
    brains itself.

    Raises:
        BrainError: the command cannot be started (``cannot start PATH: ...``).
    """

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                bufsize=0,
                start_new_session=True,
            )
        except OSError as error:
            self._stderr.close()
            raise BrainError(f"cannot start {self.command[0]}: {error.strerror or error}") from None
        with _LIVE_LOCK:
            _LIVE.add(self)
        if _ABORTED.is_set():
            self.kill()
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        stdout = self._process.stdout
        if stdout is None:  # pragma: no cover (stdout=PIPE)
            raise BrainError(f"cannot read {self.command[0]}")
        self._reader = threading.Thread(target=self._read, args=(stdout,), daemon=True)
        self._reader.start()

    def _read(self, stream: IO[bytes]) -> None:
        """Read the brain's lines until the end of its output, then close the pipe.

        The pipe is closed here, by the only thread that reads it, never by another: a descriptor
        closed while this thread is about to read it could be the next brain's pipe by then, and
        this thread would take that brain's first bytes (its ``OK`` would arrive as ``K``).
        """
        crlf = False  # learnt from the brain's lines: then a bare LF inside a message is one of its bytes
        pending = b""
        try:
            with contextlib.suppress(OSError, ValueError):
                for raw in stream:
                    if not pending and raw.endswith(b"\r\n"):
                        crlf = True
                    pending += raw
                    if crlf and raw.endswith(b"\n") and not raw.endswith(b"\r\n") and _is_message(pending):
                        continue  # a byte 10 in a message: the line goes on
                    self._lines.put(decode(pending))
                    pending = b""
            if pending:
                self._lines.put(decode(pending))
            self._lines.put(None)
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    def send(self, *lines: str) -> bool:
        """Write lines to the brain, each ended by CR LF; False if it has gone."""
        stdin = self._process.stdin
        if stdin is None:  # pragma: no cover (stdin=PIPE)
            return False
        try:
            stdin.write("".join(line + "\r\n" for line in lines).encode("ascii"))
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def drain(self) -> None:
        """Forget lines written when nothing was asked (a brain's talk between moves)."""
        with contextlib.suppress(queue.Empty):
            while True:
                if self._lines.get_nowait() is None:
                    self._lines.put(None)  # the end stays seen
                    return

    def answer(self, timeout_s: float) -> str | None:
        """The next line that is neither empty nor a message, or None at the end of the output.

        Raises:
            TimeoutError: none came within ``timeout_s`` seconds.
        """
        deadline = time.perf_counter() + timeout_s
        while True:
            line = self.next_line(deadline - time.perf_counter())
            if line is None or (line and line.split()[0].upper() not in SKIPPED):
                return line

    def next_line(self, timeout_s: float) -> str | None:
        """The next line, messages included, or None at the end of the output.

        Raises:
            TimeoutError: none came within ``timeout_s`` seconds.
        """
        if timeout_s <= 0:
            raise TimeoutError
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty:
            raise TimeoutError from None
        if line is None:
            self._lines.put(None)
        return line

    def exit_status(self) -> int | None:
        """The exit status, waiting a moment for a brain whose output has ended (None: still running)."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self._process.wait(timeout=1.0)
        return None

    def exited(self) -> str:
        """``exit status N``, with the last line the brain wrote on stderr."""
        status = self.exit_status()
        last = ""
        with contextlib.suppress(OSError, ValueError):
            self._stderr.seek(max(0, self._stderr.seek(0, os.SEEK_END) - 2000))
            lines = [line.strip() for line in self._stderr.read().decode("utf-8", "replace").splitlines()]
            last = next((line for line in reversed(lines) if line), "")
        return f"exit status {status}" + (f": {last[:200]}" if last else "")

    def close(self) -> None:
        """Send ``END``, and kill the brain if it has not exited :data:`END_GRACE_S` later."""
        if self._process.poll() is None:
            self.send("END")
            try:
                self._process.wait(timeout=END_GRACE_S)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self._process.stdin, self._stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        self._reader.join(timeout=READER_GRACE_S)  # the reader closes the brain's output itself, at its end
        with _LIVE_LOCK:
            _LIVE.discard(self)

    def kill(self) -> None:
        """End the brain now, and what it started."""
        with contextlib.suppress(OSError):
            os.killpg(self._process.pid, 9)
        with contextlib.suppress(OSError):
            self._process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)
