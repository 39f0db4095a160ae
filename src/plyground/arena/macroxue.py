"""macroxue/2048-ai as an agent: its program in server mode, asked for each move over a local socket.

macroxue/2048-ai (built by ``benchmarks/opponents/build_macroxue.sh`` in a folder outside this
repository, or a program that serves as it does, at a path the user gives) answers ``GET
/move?board=XXXXXXXXXXXXXXXX`` with one letter: ``u``, ``l``, ``r`` or ``d`` (``g``: no move). The board
is its 16 cells row by row, each the tile's exponent as a hexadecimal digit (0: empty; ``A`` … ``G`` for
1024 … 65536). :class:`MacroxueServer` starts it (``-S PORT -d DEPTH``, in its own folder, where its
first run saved its tables), waits until it listens and keeps one connection open;
:class:`MacroxueAgent` plays a :class:`~plyground.g2048.state.State` by its moves, so that it plays
plyground's games (the same rules and seeded spawns) move by move, as plyground's own agents do. One rule
differs: it merges two 32768s into 65536, where plyground's boards stop at 32768, so games are compared up to
32768 (a move of its that merges them is an error).
``benchmarks/conversion.py`` plays it from saved endgame positions.

>>> board_text(Board.parse("2 4 0 0/0 0 0 0/0 0 0 1024/0 0 0 32768"))
'12000000000A000F'
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from plyground.core.agent import Agent
from plyground.errors import PlayerError, PlygroundError
from plyground.g2048.board import DIRECTIONS, Board
from plyground.g2048.state import State

__all__ = ["LETTERS", "READY_SECONDS", "MacroxueAgent", "MacroxueServer", "board_text"]

LETTERS = {"u": "up", "l": "left", "r": "right", "d": "down"}
"""Its answers, by the letter it sends: the direction, or ``g`` for none."""
READY_SECONDS = 900.0
"""How long its start may take: a first run computes its tables (minutes), later runs load them."""


def board_text(board: Board) -> str:
    """``board`` (4×4) as the program reads it: each cell's exponent, row by row, a hexadecimal digit.

    Raises:
        PlygroundError: a board that is not 4×4.
    """
    if board.shape != (4, 4):
        raise PlygroundError(f"macroxue/2048-ai plays 4x4 boards only, not {board.rows}x{board.cols}")
    return "".join(f"{board.exponent(row, col):X}" for row in range(4) for col in range(4))


class MacroxueServer:
    """The program at ``path`` serving moves at search depth ``depth`` on a local port, until :meth:`close`.

    It runs in its own folder (its tables are read from there) with its output in ``log`` (unless given, a
    temporary file, removed when the server is closed).

    Raises:
        PlygroundError: no such program, it ended before it was ready, or it was not ready in
            ``ready_s`` seconds (its output's last line is named).
    """

    def __init__(self, path: str | Path, depth: int, *, ready_s: float = READY_SECONDS, log: Path | None = None):
        program = Path(path).expanduser().resolve()
        if not program.is_file():
            build = "benchmarks/opponents/build_macroxue.sh"
            raise PlygroundError(f"no macroxue/2048-ai program at {path}: build it with {build}")
        if not 1 <= depth <= 12:
            raise PlygroundError(f"macroxue/2048-ai's depth is 1 to 12, got {depth}")
        self.depth = depth
        self.port = _free_port()
        self._own_log = log is None
        if log is None:
            handle, name = tempfile.mkstemp(prefix="macroxue-", suffix=".log")
            os.close(handle)
            log = Path(name)
        self.log = log
        command = [str(program), "-S", str(self.port), "-d", str(depth)]
        with self.log.open("wb") as out:
            self._process = subprocess.Popen(
                command, cwd=program.parent, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent
            )
        atexit.register(self.close)
        self._socket: socket.socket | None = None
        self._lock = threading.Lock()
        try:
            self._socket = self._connect(ready_s)
        except BaseException:
            self.close()
            raise

    def _connect(self, ready_s: float) -> socket.socket:
        """A connection to the program, once it listens (its output is buffered: its ``Server ready`` may
        not be seen before it ends)."""
        deadline = time.monotonic() + ready_s
        while True:
            try:
                return socket.create_connection(("127.0.0.1", self.port), timeout=60.0)
            except OSError:
                pass
            if self._process.poll() is not None:
                code = self._process.returncode
                raise PlygroundError(f"macroxue/2048-ai ended (exit {code}) before it was ready: {self._last_line()}")
            if time.monotonic() > deadline:
                raise PlygroundError(f"macroxue/2048-ai was not ready in {ready_s:.0f} s: {self._last_line()}")
            time.sleep(0.05)

    def _last_line(self) -> str:
        lines = self.log.read_bytes().decode(errors="replace").replace("\r", "\n").split("\n")
        last = next((line.strip() for line in reversed(lines) if line.strip()), "no output")
        return last[-200:]

    def move(self, board: Board) -> str | None:
        """Its move on ``board``: a direction, or None where it sees none.

        Raises:
            PlygroundError: the connection closed or the answer is not one of its letters.
        """
        request = f"GET /move?board={board_text(board)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        with self._lock:
            if self._socket is None:
                raise PlygroundError("macroxue/2048-ai's server is closed")
            self._socket.sendall(request)
            answer = b""
            while b"\n\n" not in answer or answer.endswith(b"\n\n"):
                chunk = self._socket.recv(4096)
                if not chunk:
                    raise PlygroundError(f"macroxue/2048-ai closed the connection: {self._last_line()}")
                answer += chunk
        letter = answer.decode(errors="replace").rsplit("\n", 1)[-1].strip()
        if letter == "g":
            return None
        if letter not in LETTERS:
            raise PlygroundError(f"macroxue/2048-ai answered {letter!r}, not one of u, l, r, d, g")
        return LETTERS[letter]

    def close(self) -> None:
        """Close the connection and stop the program (idempotent)."""
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.close()
            self._socket = None
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._own_log:
            self.log.unlink(missing_ok=True)
        atexit.unregister(self.close)

    def __enter__(self) -> MacroxueServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MacroxueAgent(Agent[State]):
    """An agent playing ``server``'s moves (:class:`MacroxueServer`)."""

    advice = None
    """No endgame table of plyground's advises it (as :class:`~plyground.g2048.agent.SearchAgent`'s)."""

    def __init__(self, server: MacroxueServer) -> None:
        self.server = server
        self.name = f"macroxue/2048-ai (depth {server.depth})"
        self.time_ms: float | None = None

    def reset(self) -> None:
        """Nothing to forget: the program keeps no game of its own."""

    def choose(self, state: State) -> int:
        """The action of its move on ``state``'s board.

        Raises:
            PlayerError: it sees no move where the game has one, or its move does not change the board.
        """
        direction = self.server.move(state.board)
        if direction is None:
            raise PlayerError(f"{self.name} sees no move on a board with moves: {board_text(state.board)}")
        if direction not in state.board.legal_moves():
            board = board_text(state.board)
            why = " (plyground's boards hold tiles up to 32768: two never merge)" if board.count("F") > 1 else ""
            raise PlayerError(f"{self.name} chose {direction}, which does not change the board {board}{why}")
        return DIRECTIONS.index(direction)


def _die_with_parent() -> None:
    """In the program's process before it starts: end it when the process that started it ends (Linux).

    A worker process of a pool may end without running ``atexit``; the program would then serve forever.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _free_port() -> int:
    """A local port free at the time of asking (the program binds it itself)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
