"""A Piskvork manager: one game of gomoku between two Gomocup brains, each a process on pipes.

Each brain is started for its game and told, as Piskvork tells it
(https://plastovicka.github.io/protocl2en.htm)::

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

A brain is sent nothing for ``Settings.settle_ms`` (50) after its answer: some count themselves
thinking for a moment after writing their move and drop a command that comes then. Coordinates are
x,y = column,row from 0. ``MESSAGE``, ``DEBUG`` and ``SUGGEST`` lines and empty
lines are skipped. A brain *forfeits* the game (it loses, whatever the board says) when it answers
anything but a well-formed ``x,y`` line (``ERROR ...``, garbage), a cell off the board, taken or
forbidden (renju), when it has not answered ``timeout_turn + grace`` ms after the command was
written, when its match clock runs out, or when it exits. A brain that cannot play at all (it does
not start, or refuses ``START``) raises :class:`~plyground.errors.BrainError`: the match cannot go on.
The game is judged by :class:`plyground.kinrow.State` under the rule of the match.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from plyground.arena.brain import BrainProcess
from plyground.errors import BrainError, InvalidInputError, PlygroundError
from plyground.kinrow import State
from plyground.kinrow.board import DRAW, EMPTY, O, X
from plyground.kinrow.rules import Rule

__all__ = ["NO_CLOCK", "RULE_NAMES", "Game", "K", "Move", "Settings", "new_state", "play_game"]

K = 5
"""Stones in a row that win: gomoku."""
NO_CLOCK = 2_147_483_647
"""``INFO time_left`` without a match clock, as Piskvork sends it."""
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}
"""The Gomocup rule numbers the manager plays, and their names."""
_MOVE = re.compile(r"(\d{1,3})\s*,\s*(\d{1,3})")


def new_state(size: int, rule: int) -> State:
    """An empty board of ``size`` under ``rule`` (a Gomocup number: 0 free-style, 1 exactly five, 4 renju)."""
    return State(size, K, rule=Rule(rule))


@dataclass(frozen=True)
class Settings:
    """What the manager tells both brains, and how it judges them.

    Attributes:
        size: the side of the board.
        rule: the Gomocup rule number (:data:`RULE_NAMES`).
        time_ms: the milliseconds per move (``INFO timeout_turn``) of black, and of white unless ``white_ms``.
        white_ms: white's milliseconds per move, where they differ from black's (time odds).
        grace_ms: an answer later than the time per move + this forfeits.
        match_ms: the match clock of each brain for one game (0: none).
        max_moves: moves after the opening at which the game is drawn (0: until the board is full).
        start_ms: how long a brain may take to start and answer ``START`` (a first run may compile).
        settle_ms: a brain is sent nothing for this long after its answer. Some brains (Rapfi among
            them) count themselves thinking for a moment after writing their move, and drop a
            command that comes then: a ``TURN`` right after the answer would be lost, and the brain
            would forfeit for not answering it.
    """

    size: int = 15
    rule: int = 0
    time_ms: int = 1000
    white_ms: int | None = None
    grace_ms: int = 1000
    match_ms: int = 0
    max_moves: int = 0
    start_ms: int = 120_000
    settle_ms: int = 50

    def __post_init__(self) -> None:
        if self.rule not in RULE_NAMES:
            raise InvalidInputError(f"unknown Gomocup rule {self.rule}; the rules are 0, 1 and 4")
        if not 5 <= self.size <= 20:
            raise InvalidInputError(f"a gomoku board is 5x5 to 20x20, got {self.size}")
        if self.settle_ms < 0:
            raise InvalidInputError(f"settle_ms must be at least 0, got {self.settle_ms}")

    def ms(self, side: int) -> int:
        """The milliseconds per move of black (``side`` 0) or white (1)."""
        return self.white_ms if side == 1 and self.white_ms is not None else self.time_ms


@dataclass
class Move:
    """A move of a game: the cell (x = column, y = row) and how long its brain took (None for an opening stone)."""

    x: int
    y: int
    ms: float | None = None


@dataclass
class Game:
    """A finished game between the brains named ``black`` and ``white``.

    Attributes:
        opening: the stones placed before the brains played, x,y, black first.
        moves: every stone, the opening's first.
        winner: ``"black"``, ``"white"`` or None (a draw).
        reason: why the game ended, e.g. ``A (black) made five`` or ``B (white) lost: no answer in 100 + 200 ms``.
    """

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


class _Lost(Exception):
    """The side to move forfeits: the message says why."""


def _start(brain: BrainProcess, name: str, settings: Settings, side: int) -> None:
    if not brain.send(f"START {settings.size}"):
        raise BrainError(f"{name} exited before answering START {settings.size} ({brain.exited()})")
    try:
        line = brain.answer(settings.start_ms / 1000)
    except TimeoutError:
        raise BrainError(f"{name} did not answer START {settings.size} in {settings.start_ms} ms") from None
    if line is None:
        raise BrainError(f"{name} exited before answering START {settings.size} ({brain.exited()})")
    if line.upper() != "OK":
        raise BrainError(f"{name} refused START {settings.size}: {line[:200]}")
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
    """Play one game from ``opening`` (x,y stones, black first) between the brains run by these commands.

    ``names`` are how the game's reason names the brains.

    Raises:
        BrainError: a brain does not start or refuses the board (the match cannot go on).
        InvalidInputError: the opening is off the board, repeats a cell or ends the game.
    """
    state = new_state(settings.size, settings.rule)
    game = Game(names[0], names[1], list(opening))
    for x, y in opening:
        if not (0 <= x < settings.size and 0 <= y < settings.size) or state.is_over:
            raise InvalidInputError(f"opening stone {x},{y} is off the {settings.size}x{settings.size} board")
        state.play(state.index(y, x))
        game.moves.append(Move(x, y))
    if state.is_over:
        raise InvalidInputError("the game is over after the opening")
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


def _ask(state: State, brain: BrainProcess, side: int, settings: Settings, lines: list[str]) -> tuple[int, float]:
    """Send ``lines`` and judge the answer: the move and the milliseconds it took, or _Lost."""
    sent = brain.send(*lines)
    limit_s = (settings.ms(side) + settings.grace_ms) / 1000
    start = time.perf_counter()
    try:
        line = brain.answer(limit_s) if sent else None
    except TimeoutError:
        brain.kill()
        raise _Lost(f"no answer in {settings.ms(side)} + {settings.grace_ms} ms") from None
    ms = 1000 * (time.perf_counter() - start)
    return _judge_answer(state, line, brain), ms


def _play(state: State, game: Game, brains: list[BrainProcess], settings: Settings) -> None:
    informed = [False, False]
    clock = [float(settings.match_ms)] * 2
    answered = [float("-inf")] * 2  # when each brain's last answer was read
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
        time.sleep(max(0.0, answered[side] + settings.settle_ms / 1000 - time.perf_counter()))
        try:
            move, ms = _ask(state, brain, side, settings, lines)
            answered[side] = time.perf_counter()
            if settings.match_ms:
                clock[side] -= ms
                if clock[side] < 0:
                    raise _Lost(f"out of time on the match clock ({settings.match_ms} ms)")
            try:
                state.play(move)
            except PlygroundError as error:  # a forbidden move under renju
                row, col = state.coords(move)
                raise _Lost(f"illegal move {col},{row}: {error}") from None
        except _Lost as lost:
            game.winner = "white" if side == 0 else "black"
            colour = "black" if side == 0 else "white"
            game.reason = f"{game.black if side == 0 else game.white} ({colour}) lost: {lost}"
            return
        row, col = state.coords(move)
        game.moves.append(Move(col, row, ms))
        played += 1
