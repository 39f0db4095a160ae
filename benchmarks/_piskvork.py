"""A Piskvork manager: one game of gomoku between two Gomocup brains, each a process on pipes.

Used by ``benchmarks/gomoku.py``. Each brain is started for its game and told, as Piskvork tells
it (https://plastovicka.github.io/protocl2en.htm)::

    START 15                        -> OK
    INFO timeout_turn 200           the time per move, in ms
    INFO timeout_match 0            the match clock (0: none) ...
    INFO time_left 2147483647       ... and what is left of it, again before each move with a clock
    INFO rule 0                     0 free-style, 1 exactly five, 4 renju
    BEGIN                           -> x,y   on an empty board, to the first player
    BOARD / x,y,1|2 ... / DONE      -> x,y   a brain's first move on a board with stones, in the
                                             order they were played (1 its own, 2 the opponent's)
    TURN x,y                        -> x,y   every later move: the opponent's last, then its own
    END                             when the game is over (a brain still running 3 s later is killed)

Coordinates are x,y = column,row from 0. ``MESSAGE``, ``DEBUG`` and ``SUGGEST`` lines and empty
lines are skipped. A brain loses the game when it answers anything but a move (``ERROR ...``,
garbage), a cell off the board or taken or forbidden (renju), when it has not answered
``timeout_turn + grace`` ms after the command was written, when its match clock runs out, or when it
exits. The game is judged by :class:`plyground.kinrow.State` under the rule of the match.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from plyground.errors import PlygroundError
from plyground.kinrow import State
from plyground.kinrow.board import DRAW, EMPTY, O, X
from plyground.kinrow.rules import Rule

K = 5
NO_CLOCK = 2_147_483_647
"""``INFO time_left`` without a match clock, as Piskvork sends it."""
END_GRACE_S = 3.0
SKIPPED = ("MESSAGE", "DEBUG", "SUGGEST")
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}
_MOVE = re.compile(r"\s*(\d{1,3})\s*,\s*(\d{1,3})\s*")


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


class SetupError(Exception):
    """A brain that cannot play at all (does not start, refuses the board): the match stops."""


def new_state(size: int, rule: int) -> State:
    """An empty board of ``size`` under ``rule`` (a Gomocup number: 0 free-style, 1 exactly five, 4 renju)."""
    return State(size, K, rule=Rule(rule))


@dataclass(frozen=True)
class Settings:
    """What the manager tells both brains, and how it judges them."""

    size: int = 15
    rule: int = 0
    time_ms: int = 1000
    white_ms: int | None = None
    """White's milliseconds per move, where they differ from black's ``time_ms`` (time odds)."""
    grace_ms: int = 1000
    match_ms: int = 0
    """The match clock of each brain for one game (0: none)."""
    max_moves: int = 0
    """Moves after the opening at which the game is drawn (0: until the board is full)."""
    start_ms: int = 120_000
    """How long a brain may take to start and answer START (a first run may compile)."""

    def ms(self, side: int) -> int:
        """The milliseconds per move of black (``side`` 0) or white (1)."""
        return self.white_ms if side == 1 and self.white_ms is not None else self.time_ms


@dataclass
class Move:
    """A move of a game: the cell and how long its brain took (None for a stone of the opening)."""

    x: int
    y: int
    ms: float | None = None


@dataclass
class Game:
    """A finished game: ``winner`` is ``"black"``, ``"white"`` or None (a draw)."""

    black: str
    white: str
    opening: list[tuple[int, int]]
    moves: list[Move] = field(default_factory=list)
    winner: str | None = None
    reason: str = ""

    def times(self, colour: str) -> list[float]:
        """The milliseconds of each move of ``colour`` (the opening's stones aside)."""
        first = len(self.opening)
        parity = 0 if colour == "black" else 1
        return [move.ms for i, move in enumerate(self.moves) if i >= first and i % 2 == parity and move.ms is not None]


class BrainProcess:
    """A brain started from ``command``; its stdout is read by a thread, its stderr kept in a temporary file."""

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
                start_new_session=True,  # Ctrl-C reaches the manager only, which ends the brains itself
            )
        except OSError as error:
            self._stderr.close()
            raise SetupError(f"cannot start {self.command[0]}: {error.strerror or error}") from None
        with _LIVE_LOCK:
            _LIVE.add(self)
        if _ABORTED.is_set():
            self.kill()
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        assert self._process.stdout is not None
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for raw in stream:
                self._lines.put(raw.decode("latin-1").replace("\0", "").strip())
        self._lines.put(None)

    def send(self, *lines: str) -> bool:
        """Write lines to the brain; False if it has gone."""
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write("".join(line + "\n" for line in lines).encode("ascii"))
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def drain(self) -> None:
        """Forget lines printed when nothing was asked (a brain's talk between moves)."""
        with contextlib.suppress(queue.Empty):
            while True:
                if self._lines.get_nowait() is None:
                    self._lines.put(None)  # the end stays seen
                    return

    def answer(self, timeout_s: float) -> str | None:
        """The next line that is not a message, or None at the end of its output; TimeoutError after ``timeout_s``."""
        deadline = time.perf_counter() + timeout_s
        while True:
            line = self.next_line(deadline - time.perf_counter())
            if line is None or (line and line.split()[0].upper() not in SKIPPED):
                return line

    def next_line(self, timeout_s: float) -> str | None:
        """The next line, messages included, or None at the end of its output; TimeoutError after ``timeout_s``."""
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
        """The exit status, waiting a moment for a brain whose output has ended."""
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
        """Send END, and kill the brain if it has not exited ``END_GRACE_S`` later."""
        if self._process.poll() is None:
            self.send("END")
            try:
                self._process.wait(timeout=END_GRACE_S)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self._process.stdin, self._process.stdout, self._stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        with _LIVE_LOCK:
            _LIVE.discard(self)

    def kill(self) -> None:
        """End the brain now (and what it started)."""
        with contextlib.suppress(OSError):
            os.killpg(self._process.pid, 9)
        with contextlib.suppress(OSError):
            self._process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)


class _Lost(Exception):
    """The side to move loses: ``reason`` says why."""


def _start(brain: BrainProcess, name: str, settings: Settings, side: int) -> None:
    if not brain.send(f"START {settings.size}"):
        raise SetupError(f"{name} exited before START")
    try:
        line = brain.answer(settings.start_ms / 1000)
    except TimeoutError:
        raise SetupError(f"{name} did not answer START {settings.size} in {settings.start_ms} ms") from None
    if line is None:
        raise SetupError(f"{name} exited before answering START {settings.size} ({brain.exited()})")
    if line.upper() != "OK":
        raise SetupError(f"{name} refused START {settings.size}: {line[:200]}")
    brain.send(
        f"INFO timeout_turn {settings.ms(side)}",
        f"INFO timeout_match {settings.match_ms}",
        f"INFO time_left {settings.match_ms or NO_CLOCK}",
        f"INFO rule {settings.rule}",
    )


def _board_lines(state: State, colour: int) -> list[str]:
    """BOARD, the stones in the order played (1: ``colour``'s own, 2: the opponent's), DONE."""
    lines = ["BOARD"]
    for i, move in enumerate(state.history):
        row, col = state.coords(move)
        lines.append(f"{col},{row},{1 if (X if i % 2 == 0 else O) == colour else 2}")
    return [*lines, "DONE"]


def _judge_answer(state: State, line: str | None, brain: BrainProcess) -> int:
    """The cell of a brain's answer, or _Lost saying what is wrong with it."""
    if line is None:
        raise _Lost(f"crashed ({brain.exited()})")
    match = _MOVE.fullmatch(line)
    if match is None:
        raise _Lost(f"answered {line[:80]!r}, not a move")
    x, y = int(match[1]), int(match[2])
    if not (x < state.n and y < state.n):
        raise _Lost(f"illegal move {x},{y}: off the {state.n}x{state.n} board")
    move = state.index(y, x)
    if state.cells[move] != EMPTY:
        raise _Lost(f"illegal move {x},{y}: the cell is taken")
    return move


def play_game(
    black: Sequence[str],
    white: Sequence[str],
    opening: Sequence[tuple[int, int]],
    settings: Settings,
    *,
    names: tuple[str, str] = ("black", "white"),
) -> Game:
    """Play one game from ``opening`` (x,y stones, X first) between the brains run by these commands.

    Raises:
        SetupError: a brain does not start or refuses the board (the match cannot go on).
    """
    state = new_state(settings.size, settings.rule)
    game = Game(names[0], names[1], list(opening))
    for x, y in opening:
        state.play(state.index(y, x))
        game.moves.append(Move(x, y))
    brains: list[BrainProcess] = []
    try:
        for side, (command, name) in enumerate(zip((black, white), names, strict=True)):
            brains.append(BrainProcess(command))
            _start(brains[-1], name, settings, side)
        _play(state, game, brains, settings)
    finally:
        for brain in brains:
            brain.close()
    return game


def _play(state: State, game: Game, brains: list[BrainProcess], settings: Settings) -> None:
    informed = [False, False]
    clock = [float(settings.match_ms)] * 2
    played = 0
    while True:
        if state.result is not None:
            if state.result == DRAW:
                game.reason = "the board is full"
            else:
                game.winner = "black" if state.result == X else "white"
                game.reason = f"{game.black if state.result == X else game.white} ({game.winner}) made five"
            return
        if settings.max_moves and played >= settings.max_moves:
            game.reason = f"drawn at the move limit ({settings.max_moves} moves after the opening)"
            return
        side = 0 if state.to_move == X else 1
        brain = brains[side]
        brain.drain()
        lines = [] if not settings.match_ms else [f"INFO time_left {max(0, int(clock[side]))}"]
        if informed[side]:
            row, col = state.coords(state.history[-1])
            lines.append(f"TURN {col},{row}")
        else:
            lines += ["BEGIN"] if not state.history else _board_lines(state, state.to_move)
            informed[side] = True
        sent = brain.send(*lines)
        limit_s = (settings.ms(side) + settings.grace_ms) / 1000
        start = time.perf_counter()
        try:
            try:
                line = brain.answer(limit_s) if sent else None
            except TimeoutError:
                brain.kill()
                raise _Lost(f"no answer in {settings.ms(side)} + {settings.grace_ms} ms") from None
            ms = 1000 * (time.perf_counter() - start)
            move = _judge_answer(state, line, brain)
            if settings.match_ms:
                clock[side] -= ms
                if clock[side] < 0:
                    raise _Lost(f"out of time on the match clock ({settings.match_ms} ms)")
            try:
                state.play(move)
            except PlygroundError as error:  # a forbidden move under renju
                raise _Lost(f"illegal move {line}: {error}") from None
        except _Lost as lost:
            game.winner = "white" if side == 0 else "black"
            game.reason = (
                f"{game.black if side == 0 else game.white} ({'black' if side == 0 else 'white'}) lost: {lost}"
            )
            return
        row, col = state.coords(move)
        game.moves.append(Move(col, row, ms))
        played += 1


def record_text(game: Game, number: int, settings: Settings, players: dict[str, str]) -> str:
    """One game in a PGN-like text: tag lines, then the moves (x,y, with the ms each brain took)."""
    result = {"black": "1-0", "white": "0-1", None: "1/2-1/2"}[game.winner]
    tags = {
        "Game": str(number),
        "Black": players["black"],
        "White": players["white"],
        "Size": str(settings.size),
        "Rule": RULE_NAMES.get(settings.rule, str(settings.rule)),
        "TimeMs": str(settings.time_ms) if settings.white_ms is None else f"{settings.time_ms}/{settings.white_ms}",
        "Opening": " ".join(f"{x},{y}" for x, y in game.opening),
        "Result": result,
        "Termination": game.reason,
    }
    head = "".join(f'[{key} "{value.replace(chr(34), chr(39))}"]\n' for key, value in tags.items())
    words = [
        f"{i + 1}. {move.x},{move.y}" + (" {opening}" if move.ms is None else f" {{{move.ms:.0f} ms}}")
        for i, move in enumerate(game.moves)
    ]
    lines = [" ".join(words[i : i + 8]) for i in range(0, len(words), 8)]
    return head + "\n" + "\n".join([*lines, result]) + "\n\n"


def read_records(text: str) -> list[dict[str, Any]]:
    """The games of a :func:`record_text` file: each its tags (``Black``, ``Result``, ...) and ``moves`` as (x, y)."""
    games = []
    for block in re.split(r"\n(?=\[Game )", text.strip()):
        if not block.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', block, flags=re.MULTILINE))
        if "Game" not in tags:
            raise ValueError(f"not a game record: {block[:60]!r}")
        moves = [(int(x), int(y)) for x, y in re.findall(r"\b\d+\. (\d+),(\d+) \{", block)]
        games.append({**tags, "moves": moves})
    return games
