"""A Gomocup brain: plyground's k-in-a-row players behind the Piskvork protocol on text streams.

The manager (Piskvork, a Gomocup tournament, a test) writes one command a line; the brain
answers with lines ending in CR LF (https://plastovicka.github.io/protocl2en.htm)::

    START 15          -> OK                 a new game on a 15x15 board (5 to 20; 3 and 4 too)
    RECTSTART 20,15   -> OK                 20 columns, 15 rows: a 20x20 board, the rest blocked
    BEGIN             -> 7,7                the brain moves first
    TURN 8,7          -> 7,8                the opponent's move, then the brain's
    BOARD             (then x,y,field lines: 1 own stone, 2 opponent's, 3 a blocked cell
    DONE              -> 6,6                of a continuous game) a whole new position
    TAKEBACK 7,8      -> OK                 take back the last stone
    RESTART           -> OK                 a new game on the same board
    INFO timeout_turn 5000                  milliseconds per move (no answer); also
                                            timeout_match, time_left, max_memory, rule
    ABOUT             -> name="plyground", version="...", ...
    END                                     the brain exits

Coordinates are ``x,y`` = column,row from 0. The game is gomoku (``k = min(5, size)``)
under the rule of ``INFO rule`` (a bit set: 1 exactly five, 2 continuous, 4 renju, 8 caro;
other bits are an error): renju if bit 4 is set, else exactly five (:attr:`Rule.STANDARD`)
if bit 1 or 8 is (caro is not supported: a ``MESSAGE`` says so), else free-style. The rule
applies from the next ``START`` or ``RESTART``, and at once to a game with no stone yet.

Every move arrives within ``INFO timeout_turn`` (0: as fast as possible) and the match's
``time_left``, whatever the player does (see :mod:`plyground.apps.pbrain_clock`), after
the player's report of its search in a ``MESSAGE``, where it has one. ``INFO max_memory``
(bytes, 0 = no limit) reaches the player's ``set_memory``, where it has one.

The brain reads its input while it thinks: ``END``, or the end of the input (the manager
closed the pipe), stops the search in progress at once. Every command before ``END`` is
still answered, in order (a search stopped this way answers the best move it has), and
the brain exits. An unknown command is answered ``UNKNOWN ...``, a malformed or impossible
one ``ERROR ...`` and changes nothing (a failed ``START`` keeps the game in progress); the
brain never stops on bad input and never prints a traceback.

Run it with ``plyground kinrow pbrain [--player KIND]`` or ``python -m plyground.apps.pbrain``
(players of :data:`DEFAULT_KIND`); drive it in-process with :class:`Brain` (:meth:`Brain.feed`
takes one line).
"""

from __future__ import annotations

import atexit
import gc
import io
import queue
import re
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from plyground import __version__
from plyground.apps.pbrain_clock import (
    ANSWER_MARGIN_MS,
    SAFETY_FRACTION,
    STOP_MARGIN_MS,
    Clock,
    Search,
    Timer,
    budget_from_timeout,
    fallback_move,
)
from plyground.apps.pbrain_player import search_report, stop_player
from plyground.errors import IllegalMoveError, PlygroundError
from plyground.kinrow.board import BLOCKED, EMPTY, MAX_N, MIN_N, O, State, X
from plyground.kinrow.limits import check_game
from plyground.kinrow.players import Player
from plyground.kinrow.rules import Rule

__all__ = ["ABOUT", "DEFAULT_KIND", "Brain", "budget_from_timeout", "main"]

ABOUT = f'name="plyground", version="{__version__}", author="plyground contributors", country="", www=""'
"""The answer to ``ABOUT``."""

DEFAULT_KIND = "engine"
"""The kind of player (:data:`~plyground.kinrow.players.PLAYER_KINDS`) behind the brain by default."""

_K = 5  # gomoku
_HALT_GRACE_S = 0.2  # after END, a player that does not stop is overruled this soon
_RULE_BITS = 1 | 2 | 4 | 8  # INFO rule: exactly five, continuous, renju, caro

_RULE_WORDS = {
    Rule.FREESTYLE: "free-style (five or more in a row wins)",
    Rule.STANDARD: "standard (exactly five in a row wins)",
    Rule.RENJU: "renju",
}

_POINT = re.compile(r"(\d+)\s*,\s*(\d+)")
_BOARD_LINE = re.compile(r"(\d+)\s*,\s*(\d+)\s*,\s*(\d+)")
_HUGE = 10**12


def _number(digits: str) -> int:
    """The value of a string of digits, or a huge number for a very long one (never a slow conversion)."""
    return int(digits) if len(digits) <= 12 else _HUGE


class _ProtocolError(Exception):
    """A command that is malformed or cannot be done now; answered ``ERROR <message>``."""


class Brain:
    """The Piskvork protocol over text streams, with players made by ``make_player``.

    A new player is made for each ``START`` (and reset on ``RESTART`` and ``BOARD``); its
    ``time_ms`` follows ``INFO timeout_turn`` (and ``time_left``). :meth:`run` reads
    ``stdin`` to ``END`` or its end; :meth:`feed` handles one line, for drivers and tests.
    A player with a ``stop()`` method (the searching players have one) is stopped when
    ``END`` or the end of the input comes while it thinks, or when the manager's time
    limit nears; ``INFO max_memory`` reaches a player's ``set_memory(bytes)``, where it
    has one. ``kind`` (of :data:`~plyground.kinrow.limits.PLAYER_KINDS`): games and rules the
    player cannot play are refused up front. ``timer``: the clock of the time limits.
    ``time_share``: the share of ``timeout_turn`` the player may use (``budget_from_timeout``).

    >>> from plyground.kinrow.players import FirstLegalPlayer
    >>> answers = io.StringIO()
    >>> brain = Brain(FirstLegalPlayer, io.StringIO(), answers)
    >>> for line in ("START 15", "INFO timeout_turn 1000", "TURN 7,7"):
    ...     brain.feed(line)
    >>> answers.getvalue().split()
    ['OK', '0,0']
    """

    def __init__(
        self,
        make_player: Callable[[], Player],
        stdin: TextIO,
        stdout: TextIO,
        *,
        kind: str | None = None,
        timer: Timer | None = None,
        time_share: float = SAFETY_FRACTION,
    ) -> None:
        self._make_player = make_player
        self._kinds = () if kind is None else (kind,)
        self._timer = timer or Timer()
        self._in, self._out = stdin, stdout
        self._player: Player | None = None
        self._state: State | None = None
        self._me: int | None = None  # X or O once known
        self._rule = Rule.FREESTYLE  # INFO rule: for the next game (and the current one while it is empty)
        self._width = self._height = 0  # of the game's board: RECTSTART's rectangle, in the corner of a square
        self._outside: frozenset[int] = frozenset()  # the square's cells outside the rectangle: blocked
        self._board_lines: list[str] | None = None  # collecting the lines of BOARD
        self._clock = Clock(share=time_share)
        self._max_memory: int | None = None  # INFO max_memory, in bytes (0: no limit)
        self._search: Search | None = None  # the last search, which may still run if its player was overruled
        self._received = self._timer.now()  # when the line being handled was read: its move's clock starts there
        self._own_time_ms: float | None = None  # the player's own budget, used without INFO timeout_turn
        self._halting = threading.Event()  # END or the end of the input was read: every search stops at once
        self.ended = False

    @property
    def state(self) -> State | None:
        """The position of the game (None before a successful ``START``)."""
        return self._state

    # -- the loop ------------------------------------------------------------

    def run(self) -> None:
        """Answer commands from ``stdin`` until ``END`` or the end of the stream.

        A thread reads ``stdin`` meanwhile, so that ``END`` or the end of the stream stops
        a search in progress at once (see :meth:`halt`).
        """
        lines: queue.SimpleQueue[tuple[str, float] | None] = queue.SimpleQueue()
        threading.Thread(target=self._read, args=(lines,), name="pbrain-input", daemon=True).start()
        while not self.ended:
            item = lines.get()
            if item is None:
                return
            self.feed(*item)

    def _read(self, lines: queue.SimpleQueue[tuple[str, float] | None]) -> None:
        """Read ``stdin`` into ``lines`` up to ``END`` or its end, then put None and halt.

        Nothing after ``END`` is read: the brain exits there, and the thread ends even when
        the manager keeps the pipe open.
        """
        try:
            while True:
                try:
                    line = self._in.readline()
                except (OSError, ValueError):  # closed under us: the end of the input
                    line = ""
                if not line:
                    return
                lines.put((line, self._timer.now()))
                words = line.split()
                if words and words[0].upper() == "END":
                    return
        finally:
            self.halt()
            lines.put(None)

    def halt(self) -> None:
        """Stop the search in progress, and make every later one return at once (safe from any thread).

        Called when ``END`` or the end of the input is read; the commands read before are
        still answered, each search with the best move it has.
        """
        self._halting.set()  # first: a search that starts from now on is stopped in _move
        player, search = self._player, self._search
        if player is not None:
            stop_player(player)
        if search is not None:
            search.wake()

    def feed(self, line: str, received: float | None = None) -> None:
        """Handle one line from the manager (CR LF or LF, or none), writing any answer.

        ``received`` is the timer's ``now()`` when the line was read (default: now): a move
        it asks for must be answered within the manager's limit from then.
        """
        self._received = self._timer.now() if received is None else received
        text = line.strip()
        try:
            if self._board_lines is not None:
                self._board_line(text)
            elif text:
                self._command(text)
        except (_ProtocolError, PlygroundError) as exc:  # PlygroundError: a player that fails or cannot be made
            self._send(f"ERROR {exc}")
        except Exception as exc:  # a bug must not take the brain down in a tournament
            self._send(f"ERROR internal error: {type(exc).__name__}: {exc}")

    def _send(self, line: str) -> None:
        """Write one answer: on one line, in ASCII (what the manager sent is echoed escaped), ending in CR LF."""
        text = " ".join(line.split()).encode("ascii", "backslashreplace").decode("ascii")
        self._out.write(text + "\r\n")
        self._out.flush()

    def _command(self, text: str) -> None:
        word, _, rest = text.partition(" ")
        command = word.upper()
        rest = rest.strip()
        handlers: dict[str, Callable[[str], None]] = {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "BOARD": self._board,
            "TAKEBACK": self._takeback,
            "INFO": self._info,
            "ABOUT": lambda _: self._send(ABOUT),
            "END": self._end,
        }
        handler = handlers.get(command)
        if handler is None:
            if command == "DONE":
                raise _ProtocolError("DONE without BOARD")
            self._send(f"UNKNOWN command {word[:40]!r}")
            return
        handler(rest)

    # -- games ---------------------------------------------------------------

    def _start(self, rest: str) -> None:
        if not re.fullmatch(r"\d+", rest):
            raise _ProtocolError(f"START needs a board size, got {rest[:40]!r}")
        self._new_game(_number(rest), None, rest)

    def _rectstart(self, rest: str) -> None:
        match = _POINT.fullmatch(rest)
        if match is None:
            raise _ProtocolError(f"RECTSTART needs width,height, got {rest[:40]!r}")
        self._new_game(_number(match[1]), _number(match[2]), rest)

    def _new_game(self, width: int, height: int | None, text: str) -> None:
        """A new game and player on a ``width`` x ``height`` board (``height`` None: square); failing, keeps the old."""
        height = width if height is None else height
        for size in (width, height):
            if not MIN_N <= size <= MAX_N:
                shown = text if len(text) <= 20 else text[:20] + "..."
                raise _ProtocolError(f"unsupported size {shown}: plyground plays boards from {MIN_N} to {MAX_N}")
        n = max(width, height)
        check_game(n, min(_K, n), self._rule, self._kinds)  # renju on a board under 5, a player that cannot play it
        outside = frozenset(row * n + col for row in range(n) for col in range(n) if col >= width or row >= height)
        state = State(n, min(_K, n), rule=self._rule, blocked=outside)
        player = self._make_player()
        own_time_ms = player.time_ms
        player.time_ms = self._clock.budget_ms(own_time_ms)
        if self._max_memory is not None:
            player.set_memory(self._max_memory)
        player.prepare(state)
        self._player, self._own_time_ms, self._state, self._me = player, own_time_ms, state, None
        self._width, self._height, self._outside = width, height, outside
        self._send("OK")

    def _restart(self, rest: str) -> None:
        state = self._game()
        fresh = State(state.n, state.k, rule=self._rule, blocked=self._outside)
        player = self._player_now()
        player.reset()
        player.prepare(fresh)  # after INFO rule, the tables of the new rule: before OK, not in a move
        self._state, self._me = fresh, None
        self._send("OK")

    def _begin(self, rest: str) -> None:
        state = self._game()
        if state.history or state.blocked != self._outside:
            raise _ProtocolError("BEGIN on a board that is not empty (use BOARD)")
        self._me = X
        self._move()

    def _turn(self, rest: str) -> None:
        state = self._game()
        move = self._cell(rest, "TURN")
        if state.is_over:
            raise _ProtocolError(f"TURN {rest}: the game is over")
        if self._me is not None and state.to_move == self._me:
            raise _ProtocolError(f"TURN {rest}: it is the brain's turn, not the opponent's")
        self._check_empty(move, f"TURN {rest}")
        state.play(move)
        self._me = state.to_move
        if state.result is not None:
            raise _ProtocolError(f"the game is over after TURN {rest}: " + self._over(state))
        self._move()

    def _takeback(self, rest: str) -> None:
        state = self._game()
        move = self._cell(rest, "TAKEBACK")
        if not state.history or state.history[-1] != move:
            last = (
                f"the last stone is {self._point(state.history[-1])}" if state.history else "no stone is on the board"
            )
            raise _ProtocolError(f"TAKEBACK {rest}: only the last stone can be taken back; {last}")
        state.undo()
        self._send("OK")

    def _board(self, rest: str) -> None:
        self._board_lines = []

    def _board_line(self, text: str) -> None:
        lines = self._board_lines
        assert lines is not None
        upper = text.upper()
        if upper == "DONE":
            self._board_lines = None
            self._set_board(lines)
        elif upper == "END":
            self._board_lines = None
            self._end("")
        elif text:
            if _BOARD_LINE.fullmatch(text) is None:
                raise _ProtocolError(f"expected x,y,field or DONE after BOARD, got {text[:40]!r}")
            lines.append(text)

    def _set_board(self, lines: list[str]) -> None:
        old = self._game()
        cells: dict[int, int] = {}
        for text in lines:
            match = _BOARD_LINE.fullmatch(text)
            assert match is not None
            move = self._cell(f"{match[1]},{match[2]}", "BOARD")
            field = _number(match[3])
            if field not in (1, 2, 3):
                raise _ProtocolError(f"BOARD {text}: field must be 1 (own), 2 (opponent) or 3 (blocked)")
            if move in cells:
                raise _ProtocolError(f"BOARD {text}: the cell {self._point(move)} is given twice")
            cells[move] = field
        own = [move for move, field in cells.items() if field == 1]
        theirs = [move for move, field in cells.items() if field == 2]
        if len(own) == len(theirs):
            me, order = X, [m for pair in zip(own, theirs, strict=True) for m in pair]
        elif len(theirs) == len(own) + 1:
            me, order = O, [m for pair in zip(theirs, [*own, -1], strict=True) for m in pair if m >= 0]
        else:
            raise _ProtocolError(
                f"BOARD with {len(own)} own and {len(theirs)} opponent stones: with the brain to move, "
                "the opponent has as many stones or one more"
            )
        blocked = self._outside | {move for move, field in cells.items() if field == 3}
        state = State(old.n, old.k, rule=old.rule, blocked=blocked)
        try:
            for move in order:  # the stones in the order given, own and opponent's in turn
                state.play(move)
        except IllegalMoveError:  # that order ends the game early, or passes a forbidden point: the position as is
            symbols = {1: "XO"[me - X], 2: "OX"[me - X], 3: "#"}
            text = "".join(
                symbols[cells[cell]] if cell in cells else "#" if cell in blocked else "." for cell in range(old.n**2)
            )
            rows = "/".join(text[row * old.n : (row + 1) * old.n] for row in range(old.n))
            state = State.parse(rows, old.k, rule=old.rule)
        if state.is_over:
            winner = "a player has" if state.result in (X, O) else "the board is full, no one has"
            raise _ProtocolError(f"BOARD: the game is over on this board: {winner} {state.k} in a row")
        self._state, self._me = state, me
        self._player_now().reset()
        self._move()

    def _move(self) -> None:
        """Choose, play and send the brain's move, within the manager's limit from the line that asked for it.

        The player searches in a thread of its own; one still searching near the limit is
        stopped, and one that does not answer even then is overruled (see
        :mod:`plyground.apps.pbrain_clock`).
        """
        state, player = self._game(), self._player_now()
        free = state.legal_moves()
        if not free:
            raise _ProtocolError("no empty cell is left to play")
        limit = self._clock.limit_ms()
        stop_at = answer_at = None
        if limit is not None:
            stop_at = self._received + (limit - STOP_MARGIN_MS) / 1000
            answer_at = self._received + (limit - ANSWER_MARGIN_MS) / 1000
        move: int | None = None
        why = ""
        previous = self._search
        # A player overruled last time may still be searching: it gets until stop_at to finish.
        if (
            previous is not None
            and not previous.done.is_set()
            and not self._await(previous, self._timer.now(), stop_at)
        ):
            move, why = fallback_move(state), f"{player.name} is still searching the previous move"
        if move is None:
            search = self._search = Search(player, state, self._timer)
            if self._halting.is_set():
                stop_player(player)
            if self._await(search, stop_at, answer_at):
                if search.error is not None:
                    raise search.error
                assert search.move is not None
                move, why = search.move, ""
                self._report(player, move)
            else:
                move, why = fallback_move(state), f"{player.name} did not answer in time"
        if move not in free:  # a forbidden point under renju
            move, why = fallback_move(state), f"{player.name} chose {self._point(move)}, which cannot be played"
        if why:
            self._send(f"MESSAGE {why}: the brain plays {self._point(move)}")
        state.play(move)
        self._send(self._point(move))

    def _await(self, search: Search, stop_at: float | None, answer_at: float | None) -> bool:
        """Wait for ``search``: stop its player at ``stop_at`` (or on END), give up at ``answer_at``; return if done."""
        stopped = False
        while not search.done.is_set():
            now = self._timer.now()
            halting = self._halting.is_set()
            if not stopped and (halting or (stop_at is not None and now >= stop_at)):
                stop_player(search.player)
                stopped = True
                if halting:
                    answer_at = now + _HALT_GRACE_S if answer_at is None else min(answer_at, now + _HALT_GRACE_S)
            if answer_at is not None and now >= answer_at:
                return False
            search.wait(answer_at if stopped else stop_at)
        return True

    def _report(self, player: Player, move: int) -> None:
        """Send the player's report of its search as a ``MESSAGE``, where it has one (see :func:`search_report`)."""
        state = self._game()
        report = search_report(player, move, state.n * state.n, self._point)
        if report is not None:
            self._send("MESSAGE " + report)

    def _end(self, rest: str) -> None:
        self.ended = True

    # -- INFO ----------------------------------------------------------------

    def _info(self, rest: str) -> None:
        key, _, value = rest.partition(" ")
        key, value = key.lower(), value.strip()
        if not key:
            raise _ProtocolError("INFO needs a key and a value")
        if key in ("timeout_turn", "timeout_match", "time_left"):
            if not re.fullmatch(r"-?\d{1,12}", value):
                raise _ProtocolError(f"INFO {key} needs milliseconds, got {value[:40]!r}")
            number = int(value)
            if key in ("timeout_turn", "timeout_match") and number < 0:
                raise _ProtocolError(f"INFO {key} must not be negative, got {number}")
            if key == "timeout_turn":  # 0: play as fast as possible (the protocol's meaning)
                self._clock.timeout_turn = number
            elif key == "timeout_match":  # 0: no match clock
                self._clock.timeout_match = number
            else:
                self._clock.time_left = number
            self._apply_budget()
        elif key == "max_memory":
            if not re.fullmatch(r"\d{1,19}", value):
                raise _ProtocolError(f"INFO max_memory needs a number of bytes (0: no limit), got {value[:40]!r}")
            self._max_memory = int(value)
            if self._player is not None:
                self._player.set_memory(self._max_memory)
        elif key == "rule":
            if not re.fullmatch(r"\d{1,9}", value):
                raise _ProtocolError(f"INFO rule needs a number, got {value[:40]!r}")
            if int(value) & ~_RULE_BITS:
                raise _ProtocolError(
                    f"INFO rule {value}: the rule is a sum of 1 (exactly five), 2 (continuous), 4 (renju) and 8 (caro)"
                )
            self._set_rule(int(value))
        # game_type, evaluate, folder and any other key: accepted and ignored

    def _set_rule(self, bits: int) -> None:
        """``INFO rule``: 1 exactly five, 2 continuous, 4 renju, 8 caro (played as exactly five).

        A rule the player or the empty game in progress cannot take is refused, changing
        nothing; an empty game takes it at once, its player made ready now, not in a move.
        """
        rule = Rule.RENJU if bits & 4 else Rule.STANDARD if bits & (1 | 8) else Rule.FREESTYLE
        state = self._state
        fresh = None
        if state is not None and not state.history and state.rule is not rule:  # an empty game takes it now
            check_game(state.n, state.k, rule, self._kinds)
            fresh = State(state.n, state.k, rule=rule, blocked=state.blocked)
            self._player_now().prepare(fresh)
        else:  # the next game's board is not known yet (START checks it): whether the players play the rule
            check_game(MAX_N, _K, rule, self._kinds)
        if bits & 8:
            self._send(f"MESSAGE plyground does not support the caro rule: it plays {_RULE_WORDS[rule]}")
        self._rule = rule
        if fresh is not None:
            self._state = fresh

    def _apply_budget(self) -> None:
        if self._player is not None:
            self._player.time_ms = self._clock.budget_ms(self._own_time_ms)

    # -- helpers -------------------------------------------------------------

    def _game(self) -> State:
        if self._state is None:
            raise _ProtocolError("no game: send START first")
        return self._state

    def _player_now(self) -> Player:
        assert self._player is not None  # made with the state
        return self._player

    def _cell(self, text: str, command: str) -> int:
        state = self._game()
        match = _POINT.fullmatch(text.strip())
        if match is None:
            raise _ProtocolError(f"{command} needs x,y, got {text[:40]!r}")
        x, y = _number(match[1]), _number(match[2])
        if not (x < self._width and y < self._height):
            raise _ProtocolError(f"{command} {x},{y}: off the {self._width}x{self._height} board")
        return state.index(y, x)

    def _check_empty(self, move: int, what: str) -> None:
        state = self._game()
        if state.cells[move] == BLOCKED:
            raise _ProtocolError(f"{what}: the cell is taken (blocked)")
        if state.cells[move] != EMPTY:
            raise _ProtocolError(f"{what}: the cell is taken")

    def _point(self, move: int) -> str:
        row, col = self._game().coords(move)
        return f"{col},{row}"

    def _over(self, state: State) -> str:
        if state.result == self._me:
            return "the brain has won"
        if state.result in (X, O):
            return "the opponent has won"
        return "the board is full"


def main(
    make_player: Callable[[], Player] | None = None, *, kind: str | None = None, time_share: float = SAFETY_FRACTION
) -> int:
    """Run a brain on stdin and stdout (players of :data:`DEFAULT_KIND` by default); return the exit status.

    ``kind``, ``time_share``: as :class:`Brain`'s. The interpreter's last garbage collection, which made
    ``END`` to exit take seconds on a loaded machine, is skipped.
    """
    if make_player is None:
        from plyground.kinrow.players import make_player as make

        kind = DEFAULT_KIND

        def make_player() -> Player:
            return make(DEFAULT_KIND)

    stdin, stdout = sys.stdin, sys.stdout
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(errors="replace")  # garbage bytes are a malformed command, not a crash
    if isinstance(stdout, io.TextIOWrapper):
        stdout.reconfigure(newline="")  # the CR LF of each answer is written as is
    atexit.unregister(gc.freeze)  # once, however many brains run: before the interpreter's last collection,
    atexit.register(gc.freeze)  # which then has nothing to look at
    try:
        Brain(make_player, stdin, stdout, kind=kind, time_share=time_share).run()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the manager has gone
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
