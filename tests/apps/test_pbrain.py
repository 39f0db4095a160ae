"""The Gomocup brain: a manager drives whole games in-process, sends malformed input, and runs it as a process."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable

import pytest

from plyground import __version__
from plyground.apps import pbrain_clock
from plyground.apps.pbrain import ABOUT, Brain, budget_from_timeout
from plyground.errors import InvalidInputError
from plyground.kinrow.board import O, State, X
from plyground.kinrow.budget import MAX_TIME_MS
from plyground.kinrow.players import FirstLegalPlayer, Player, RandomPlayer, make_player
from plyground.kinrow.protocol import SearchReport
from plyground.kinrow.rules import Rule


class Recorder(FirstLegalPlayer):
    """The first legal move; remembers the time budget it was asked with and its resets."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "recorder"
        self.budgets: list[float | None] = []  # milliseconds
        self.resets = 0

    def choose(self, state: State) -> int:
        self.budgets.append(self.time_ms)
        return super().choose(state)

    def reset(self) -> None:
        self.resets += 1


class FakeTimer(pbrain_clock.Timer):
    """A clock for the brain that moves only when nothing can happen before the next deadline.

    Players *park* on it while they wait for what only the clock or the brain can give: the
    end of a sleep (:meth:`sleep`, a player that cannot be stopped) or their ``stop()``
    (:meth:`park` until :meth:`release`). When the brain waits for a deadline and a player is
    parked, the clock jumps to the deadline or the end of the first sleep, whichever comes
    first; while no player is parked (one that has not started yet, or is finishing its
    move) the brain waits in real time, however long the machine takes. So the times the
    brain acts at are exact, on any machine under any load. :meth:`advance` moves the clock
    by hand.
    """

    PATIENCE_S = 60.0  # real seconds a wait may take before the test fails instead of hanging

    def __init__(self) -> None:
        self._now = 1000.0
        self._lock = threading.Lock()
        self._parked: dict[
            threading.Event, float | None
        ] = {}  # a parked player's event -> when it wakes (None: on release)

    def now(self) -> float:
        with self._lock:
            return self._now

    def _move_to(self, time_: float) -> None:
        """Set the clock (forward only) and wake the sleepers whose time has come; under the lock."""
        self._now = max(self._now, time_)
        for event, wake in list(self._parked.items()):
            if wake is not None and wake <= self._now:
                del self._parked[event]
                event.set()

    def wait(self, event: threading.Event, until: float | None) -> bool:
        give_up = time.monotonic() + self.PATIENCE_S
        while not event.is_set():
            with self._lock:
                if until is not None and self._now >= until:
                    return False
                wakes = [wake for wake in self._parked.values() if wake is not None]
                if self._parked and (until is not None or wakes):
                    self._move_to(min([*wakes, *([until] if until is not None else [])]))
                    continue
            if time.monotonic() > give_up:
                raise AssertionError("the brain waited a minute for a player that was neither parked nor done")
            event.wait(0.002)
        return True

    def sleep(self, seconds: float) -> None:
        """Park the calling player for ``seconds`` of this clock."""
        wake = threading.Event()
        with self._lock:
            self._parked[wake] = self._now + seconds
        assert wake.wait(self.PATIENCE_S), "a sleep on the fake clock never ended"

    def park(self, event: threading.Event) -> None:
        """Park the calling player until ``event`` is set by :meth:`release` (at once if it is set)."""
        with self._lock:
            if event.is_set():
                return
            self._parked[event] = None
        assert event.wait(self.PATIENCE_S), "a parked player was never released"

    def release(self, event: threading.Event) -> None:
        """Set ``event`` and unpark its player, in one step: the clock cannot jump in between."""
        with self._lock:
            self._parked.pop(event, None)
            event.set()

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._move_to(self._now + seconds)


class Manager:
    """A test client: sends one line at a time and returns the lines the brain answered.

    The brain's clock is a :class:`FakeTimer` unless ``timer`` says otherwise: a player that
    answers is never overruled, however slowly the machine runs it.
    """

    def __init__(
        self,
        make_player: Callable[[], Player] = FirstLegalPlayer,
        *,
        kind: str | None = None,
        timer: pbrain_clock.Timer | None = None,
        time_share: float = pbrain_clock.SAFETY_FRACTION,
    ) -> None:
        self.players: list[Player] = []

        def make() -> Player:
            player = make_player()
            self.players.append(player)
            return player

        self.out = io.StringIO()
        self.brain = Brain(make, io.StringIO(), self.out, kind=kind, timer=timer or FakeTimer(), time_share=time_share)
        self._read = 0

    def send(self, line: str, end: str = "\r\n") -> list[str]:
        self.brain.feed(line + end)
        text = self.out.getvalue()[self._read :]
        self._read += len(text)
        assert text == "" or text.endswith("\r\n"), repr(text)
        lines = text.split("\r\n")[:-1]
        assert all("\n" not in line and "\r" not in line for line in lines)
        assert not any("Traceback" in line for line in lines)
        return lines

    def move(self, line: str) -> tuple[int, int]:
        """Send a command answered by a move; return the move's x, y."""
        answer = self.send(line)
        assert len(answer) == 1 and re.fullmatch(r"\d+,\d+", answer[0]), answer
        x, y = map(int, answer[0].split(","))
        return x, y

    def error(self, line: str, *parts: str) -> None:
        """Send a command that must be answered by one ERROR line holding ``parts``."""
        answer = self.send(line)
        assert len(answer) == 1 and answer[0].startswith("ERROR "), answer
        for part in parts:
            assert part in answer[0], answer

    def board(self, *stones: str) -> list[str]:
        """Send BOARD, the stones and DONE; return the answer to DONE."""
        assert self.send("BOARD") == []
        for stone in stones:
            assert self.send(stone) == []
        return self.send("DONE")


def xy(state: State, move: int) -> str:
    row, col = state.coords(move)
    return f"{col},{row}"


def test_a_whole_game_until_someone_wins() -> None:
    manager = Manager(lambda: RandomPlayer(3))
    assert manager.send("START 9") == ["OK"]
    assert manager.send("INFO timeout_turn 1000") == []
    mirror = State(9, 5)
    opponent = RandomPlayer(4)
    x, y = manager.move("BEGIN")
    mirror.play(mirror.index(y, x))
    while mirror.result is None:
        move = opponent.choose(mirror)
        mirror.play(move)
        if mirror.result is not None:
            manager.error(f"TURN {xy(mirror, move)}", "the game is over", "the opponent has won")
            break
        x, y = manager.move(f"TURN {xy(mirror, move)}")
        reply = mirror.index(y, x)
        assert reply in mirror.legal_moves()
        mirror.play(reply)
    assert mirror.result in (X, O)
    brain_state = manager.brain.state
    assert brain_state is not None and brain_state.history == mirror.history
    if mirror.result == X:  # the brain won with its last move: the manager sends nothing more
        manager.error("TURN 0,0" if mirror.cells[0] == 0 else "TURN 8,8", "the game is over")

    assert manager.send("RESTART") == ["OK"]
    assert manager.brain.state is not None and manager.brain.state.history == ()
    assert manager.send("ABOUT") == [ABOUT]
    assert manager.send("END") == []
    assert manager.brain.ended


def test_the_brain_moves_second_after_turn() -> None:
    manager = Manager()
    assert manager.send("START 15") == ["OK"]
    assert manager.move("TURN 7,7") == (0, 0)  # first legal: the top left corner
    assert manager.move("TURN 8,7") == (1, 0)
    state = manager.brain.state
    assert state is not None and state.k == 5
    assert [xy(state, m) for m in state.history] == ["7,7", "0,0", "8,7", "1,0"]


def test_small_boards_play_k_equal_to_the_size() -> None:
    manager = Manager()
    assert manager.send("START 3") == ["OK"]
    state = manager.brain.state
    assert state is not None and (state.n, state.k) == (3, 3)
    assert manager.send("START 4") == ["OK"]
    state = manager.brain.state
    assert state is not None and (state.n, state.k) == (4, 4)
    assert manager.send("START 19") == ["OK"]
    state = manager.brain.state
    assert state is not None and (state.n, state.k) == (19, 5)
    assert manager.send("RECTSTART 9,9") == ["OK"]


def test_board_sets_a_position_and_the_brain_moves() -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    # the brain (own = 1) and the opponent have two stones each: the brain is X and moves
    assert manager.board("4,4,1", "5,5,2", "4,5,1", "0,0,2") == ["1,0"]
    state = manager.brain.state
    assert state is not None
    assert [xy(state, m) for m in state.history] == ["4,4", "5,5", "4,5", "0,0", "1,0"]
    assert state.to_move == O
    # the opponent has one stone more: the brain is O
    assert manager.board("4,4,2", "0,0,1", "5,5,2") == ["1,0"]
    state = manager.brain.state
    assert state is not None and [xy(state, m) for m in state.history] == ["4,4", "0,0", "5,5", "1,0"]
    assert manager.move("TURN 8,8") == (2, 0)
    # an empty board: the brain moves first
    assert manager.board() == ["0,0"]


def test_takeback_takes_back_the_last_stones() -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    assert manager.move("BEGIN") == (0, 0)
    assert manager.move("TURN 4,4") == (1, 0)
    assert manager.send("TAKEBACK 1,0") == ["OK"]
    assert manager.send("TAKEBACK 4,4") == ["OK"]
    state = manager.brain.state
    assert state is not None and [xy(state, m) for m in state.history] == ["0,0"]
    assert manager.move("TURN 5,5") == (1, 0)
    manager.error("TAKEBACK 0,0", "only the last stone", "the last stone is 1,0")
    manager.error("TAKEBACK 8,8", "only the last stone")
    for stone in ("1,0", "5,5", "0,0"):
        assert manager.send(f"TAKEBACK {stone}") == ["OK"]
    manager.error("TAKEBACK 0,0", "no stone is on the board")
    assert manager.move("BEGIN") == (0, 0)


def test_info_timeout_turn_sets_the_time_budget_with_a_margin() -> None:
    manager = Manager(Recorder)
    assert manager.send("INFO timeout_turn 5000") == []  # before START: kept for the player to come
    assert manager.send("START 9") == ["OK"]
    player = manager.players[-1]
    assert player.time_ms == pytest.approx(3950)
    assert manager.send("INFO timeout_turn 2000") == []
    assert player.time_ms == pytest.approx(1550)
    manager.move("BEGIN")
    assert isinstance(player, Recorder) and player.budgets == [pytest.approx(1550)]
    assert manager.send("INFO timeout_match 100000") == []
    assert manager.send("INFO time_left 10000") == []
    assert player.time_ms == pytest.approx(400)  # 80% of the time left over 20 moves
    assert manager.send("INFO timeout_match 0") == []  # no match clock: time_left means nothing
    assert player.time_ms == pytest.approx(1550)
    assert manager.send("INFO timeout_turn 0") == []  # as fast as possible
    assert player.time_ms == pytest.approx(10)
    assert manager.send("START 9") == ["OK"]  # a new player gets the budget too
    assert manager.players[-1].time_ms == pytest.approx(10)


def test_a_brain_told_to_use_more_of_the_time_gives_its_player_more() -> None:
    manager = Manager(Recorder, time_share=0.9)
    assert manager.send("START 9") == ["OK"]
    assert manager.send("INFO timeout_turn 1000") == []
    assert manager.players[-1].time_ms == pytest.approx(850)  # 90%, less 50 ms for the answer
    assert manager.send("INFO timeout_match 100000") == []
    assert manager.send("INFO time_left 10000") == []
    assert manager.players[-1].time_ms == pytest.approx(450)  # 90% of the time left over 20 moves


def test_the_command_line_brain_shares_the_time_as_its_option_says() -> None:
    from typer.testing import CliRunner

    from plyground.apps.cli.main import app

    args = ["kinrow", "pbrain", "--player", "random", "--time-share", "0.99"]
    result = CliRunner().invoke(app, args, input="END\n")
    assert result.exit_code == 2 and "must be a number from 0.1 to 0.95, got 0.99" in " ".join(result.output.split())
    result = CliRunner().invoke(app, ["kinrow", "pbrain", "--player", "random", "--time-share", "0.9"], input="END\n")
    assert result.exit_code == 0, result.output
    import inspect

    from plyground.apps.cli import kinrow as cli

    default = inspect.signature(cli.pbrain).parameters["time_share"].default
    assert default == pbrain_clock.SAFETY_FRACTION  # the option's default is the brain's


def test_without_timeout_turn_the_player_keeps_its_own_budget() -> None:
    def make() -> Player:
        player = FirstLegalPlayer()
        player.time_ms = 7000.0
        return player

    manager = Manager(make)
    assert manager.send("START 9") == ["OK"]
    assert manager.send("INFO max_memory 83886080") == []
    assert manager.send("INFO timeout_match 100000") == []
    assert manager.players[-1].time_ms == 7000.0


def test_budget_from_timeout() -> None:
    assert budget_from_timeout(1000) == pytest.approx(750)  # milliseconds
    assert budget_from_timeout(30) == 10
    assert budget_from_timeout(5000, time_left_ms=1_000_000) == pytest.approx(3950)
    assert budget_from_timeout(5000, time_left_ms=0) == 10
    assert budget_from_timeout(10**12) == MAX_TIME_MS  # at most an hour


@pytest.mark.parametrize(
    ("value", "rule", "message"),
    [
        ("0", Rule.FREESTYLE, None),
        ("2", Rule.FREESTYLE, None),  # continuous: blocked cells come with BOARD
        ("1", Rule.STANDARD, None),
        ("3", Rule.STANDARD, None),
        ("4", Rule.RENJU, None),
        ("5", Rule.RENJU, None),
        ("8", Rule.STANDARD, "MESSAGE plyground does not support the caro rule: it plays standard (exactly five"),
        ("12", Rule.RENJU, "MESSAGE plyground does not support the caro rule: it plays renju"),
    ],
)
def test_info_rule_sets_the_rule_of_the_next_game_and_of_an_empty_one(
    value: str, rule: Rule, message: str | None
) -> None:
    manager = Manager()
    answer = manager.send(f"INFO rule {value}")  # before START
    if message is None:
        assert answer == []
    else:
        assert len(answer) == 1 and answer[0].startswith(message), answer
    assert manager.send("START 15") == ["OK"]
    assert manager.brain.state is not None and manager.brain.state.rule is rule
    assert manager.move("BEGIN") == (0, 0)
    manager.send("INFO rule 0")
    assert manager.brain.state is not None and manager.brain.state.rule is rule  # stones on the board: kept
    assert manager.send("RESTART") == ["OK"]
    assert manager.brain.state is not None and manager.brain.state.rule is Rule.FREESTYLE
    manager.send(f"INFO rule {value}")  # after START, on an empty board: at once
    assert manager.brain.state is not None and manager.brain.state.rule is rule


@pytest.mark.parametrize("rule", ["0", "1"])
def test_an_overline_wins_only_under_free_style(rule: str) -> None:
    manager = Manager()
    assert manager.send(f"INFO rule {rule}") == []
    assert manager.send("START 15") == ["OK"]
    stones = [f"{x},5,2" for x in (0, 1, 2, 4, 5)] + [f"{x},9,1" for x in (0, 2, 4, 6, 8)]
    assert manager.board(*stones) == ["0,0"]
    if rule == "0":
        manager.error("TURN 3,5", "the game is over after TURN 3,5: the opponent has won")
    else:
        assert manager.move("TURN 3,5") == (1, 0)  # six in a row: no win under the standard rule


def test_renju_on_a_board_under_5_is_an_error() -> None:
    manager = Manager()
    assert manager.send("INFO rule 4") == []
    manager.error("START 4", "renju is played with k = 5")
    assert manager.send("START 5") == ["OK"]


@pytest.mark.parametrize(
    "line",
    [
        "INFO rule 0",
        "INFO rule 2",
        "INFO game_type 1",
        "INFO evaluate 3,4",
        "INFO folder C:\\data dir",
        "INFO max_memory 0",
        "INFO some_new_key 12",
        "info TIMEOUT_TURN 1000",
        "INFO time_left 5000",
    ],
)
def test_other_info_is_accepted_quietly(line: str) -> None:
    manager = Manager()
    assert manager.send(line) == []
    assert manager.send("START 9") == ["OK"]
    assert manager.send(line) == []


def test_about() -> None:
    manager = Manager()
    (line,) = manager.send("ABOUT")
    assert line.startswith(f'name="plyground", version="{__version__}", author="')
    assert re.fullmatch(r'(\w+="[^"]*", )*\w+="[^"]*"', line)
    for key in ("name", "version", "author", "country", "www"):
        assert f'{key}="' in line


def test_commands_are_case_insensitive_and_lf_is_accepted() -> None:
    manager = Manager()
    assert manager.send("start 9", end="\n") == ["OK"]
    assert manager.send("Begin", end="") == ["0,0"]
    assert manager.send("turn 4,4  ", end="\r\n") == ["1,0"]
    assert manager.send("TURN 5 , 5") == ["2,0"]


# -- malformed input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "part"),
    [
        ("TURN 3,3", "no game: send START first"),
        ("BEGIN", "no game"),
        ("RESTART", "no game"),
        ("TAKEBACK 1,1", "no game"),
        ("DONE", "DONE without BOARD"),
        ("START", "START needs a board size"),
        ("START abc", "START needs a board size"),
        ("START -1", "START needs a board size"),
        ("START 9.5", "START needs a board size"),
        ("START 0", "unsupported size 0"),
        ("START 2", "unsupported size 2"),
        ("START 21", "unsupported size 21: plyground plays boards from 3 to 20"),
        ("START " + "9" * 5000, "unsupported size 99999999999999999999..."),
        ("RECTSTART 10,21", "unsupported size 10,21"),
        ("RECTSTART 2,12", "unsupported size 2,12"),
        ("RECTSTART 21,21", "unsupported size 21"),
        ("RECTSTART 10", "RECTSTART needs width,height"),
        ("INFO", "INFO needs a key"),
        ("INFO timeout_turn", "INFO timeout_turn needs milliseconds"),
        ("INFO timeout_turn fast", "needs milliseconds"),
        ("INFO timeout_turn -5", "must not be negative"),
        ("INFO rule five", "INFO rule needs a number"),
        ("INFO max_memory -1", "INFO max_memory needs a number of bytes (0: no limit), got '-1'"),
        ("INFO max_memory lots", "INFO max_memory needs a number of bytes"),
        ("INFO max_memory", "INFO max_memory needs a number of bytes"),
    ],
)
def test_malformed_commands_are_errors_and_the_brain_keeps_working(line: str, part: str) -> None:
    manager = Manager()
    manager.error(line, part)
    assert manager.send("START 9") == ["OK"]
    assert manager.move("BEGIN") == (0, 0)


@pytest.mark.parametrize(
    ("line", "part"),
    [
        ("TURN 9,0", "TURN 9,0: off the 9x9 board"),
        ("TURN 0,9", "off the 9x9 board"),
        ("TURN 123456789012345678901234567890,1", "off the 9x9 board"),
        ("TURN -1,2", "TURN needs x,y"),
        ("TURN a,b", "TURN needs x,y"),
        ("TURN 3", "TURN needs x,y"),
        ("TURN", "TURN needs x,y"),
        ("TURN 1,2,3", "TURN needs x,y"),
        ("TURN 0,0", "TURN 0,0: the cell is taken"),  # the brain's stone
        ("TURN 4,4", "TURN 4,4: the cell is taken"),  # the opponent's
        ("TAKEBACK 0,0", "only the last stone"),
        ("TAKEBACK 99,0", "TAKEBACK 99,0: off the 9x9 board"),
        ("BEGIN", "BEGIN on a board that is not empty"),
    ],
)
def test_bad_moves_are_errors_and_the_game_goes_on(line: str, part: str) -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    assert manager.move("BEGIN") == (0, 0)
    assert manager.move("TURN 4,4") == (1, 0)
    manager.error(line, part)
    assert manager.move("TURN 5,5") == (2, 0)


@pytest.mark.parametrize("line", ["garbage", "HELLO world", "PLAY 1,1", "\x00\xff\u2603", "SWAP2BOARD", "MESSAGE hi"])
def test_unknown_commands_are_answered_unknown(line: str) -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    (answer,) = manager.send(line)
    assert answer.startswith("UNKNOWN ")
    assert manager.move("BEGIN") == (0, 0)


@pytest.mark.parametrize("line", ["", "   ", "\t", "\r"])
def test_empty_lines_are_ignored(line: str) -> None:
    manager = Manager()
    assert manager.send(line) == []
    assert manager.send("START 9") == ["OK"]
    assert manager.send(line) == []
    assert manager.move("BEGIN") == (0, 0)


def test_a_turn_out_of_turn_is_an_error() -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    assert manager.move("BEGIN") == (0, 0)
    assert manager.send("TAKEBACK 0,0") == ["OK"]  # the brain (X) is to move again
    manager.error("TURN 4,4", "it is the brain's turn")
    assert manager.move("BEGIN") == (0, 0)


@pytest.mark.parametrize(
    ("stones", "part"),
    [
        (["1,1,4"], "field must be 1 (own), 2 (opponent) or 3 (blocked)"),
        (["1,1,0"], "field must be"),
        (["9,1,1"], "BOARD 9,1: off the 9x9 board"),
        (["1,1,1", "1,1,2"], "the cell 1,1 is given twice"),
        (["1,1,1"], "BOARD with 1 own and 0 opponent stones"),
        (["1,1,2", "2,2,2"], "BOARD with 0 own and 2 opponent stones"),
        ([f"{i},0,2" for i in range(5)] + [f"{i},2,1" for i in range(4)] + ["8,8,1"], "the game is over"),
    ],
)
def test_impossible_boards_are_errors_and_keep_the_old_position(stones: list[str], part: str) -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    assert manager.move("BEGIN") == (0, 0)
    answer = manager.board(*stones)
    assert len(answer) == 1 and answer[0].startswith("ERROR ") and part in answer[0], answer
    state = manager.brain.state
    assert state is not None and state.history == (0,)
    assert manager.move("TURN 4,4") == (1, 0)


def test_garbage_inside_board_is_an_error_and_the_rest_is_read() -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    assert manager.send("BOARD") == []
    assert manager.send("4,4,2") == []
    (answer,) = manager.send("bogus line")
    assert answer.startswith("ERROR expected x,y,field or DONE after BOARD")
    assert manager.send("") == []
    assert manager.send("done") == ["0,0"]
    state = manager.brain.state
    assert state is not None and [xy(state, m) for m in state.history] == ["4,4", "0,0"]


def test_board_before_start_is_read_to_done_then_refused() -> None:
    manager = Manager()
    assert manager.send("BOARD") == []
    assert manager.send("1,1,1") == []
    assert manager.send("2,2,2") == []
    manager.error("DONE", "no game: send START first")
    assert manager.send("START 9") == ["OK"]


def test_end_inside_board_ends_the_brain() -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    assert manager.send("BOARD") == []
    assert manager.send("END") == []
    assert manager.brain.ended


def test_blocked_cells_of_a_continuous_game_are_never_played() -> None:
    manager = Manager()
    assert manager.send("START 9") == ["OK"]
    assert manager.board("0,0,3", "1,0,3", "4,4,2") == ["2,0"]  # first legal would be 0,0
    manager.error("TURN 1,0", "TURN 1,0: the cell is taken")
    manager.error("BEGIN", "not empty")
    assert manager.move("TURN 5,5") == (3, 0)
    assert manager.send("RESTART") == ["OK"]
    assert manager.move("BEGIN") == (0, 0)  # a new game forgets them


def test_a_board_filled_by_the_opponent_is_reported() -> None:
    manager = Manager()
    assert manager.send("START 3") == ["OK"]
    for turn, reply in (("1,0", (0, 0)), ("0,1", (2, 0)), ("1,1", (2, 1)), ("0,2", (1, 2))):
        assert manager.move(f"TURN {turn}") == reply
    manager.error("TURN 2,2", "the game is over after TURN 2,2: the board is full")
    manager.error("TURN 2,2", "the game is over")


def test_the_brain_fills_the_board_then_takes_back() -> None:
    manager = Manager()
    assert manager.send("START 3") == ["OK"]
    # a 3x3 draw without its last cell (2,2): four stones each, so the brain is X and fills the board
    own = ["1,1,1", "2,0,1", "0,1,1", "1,0,1"]
    theirs = ["0,0,2", "0,2,2", "2,1,2", "1,2,2"]
    assert manager.board(*(stone for pair in zip(own, theirs, strict=True) for stone in pair)) == ["2,2"]
    state = manager.brain.state
    assert state is not None and state.is_over and len(state.history) == 9
    manager.error("TURN 2,2", "the game is over")
    assert manager.send("TAKEBACK 2,2") == ["OK"]
    assert manager.send("TAKEBACK 1,2") == ["OK"]
    assert manager.move("TURN 2,2") == (1, 2)  # the brain completes the middle column
    state = manager.brain.state
    assert state is not None and state.result == X


class Failing(Player):
    def __init__(self, answer: object = None) -> None:
        self.answer = answer
        self.name = "failing"
        self.time_ms: float | None = None

    def choose(self, state: State) -> int:
        if self.answer is None:
            raise RuntimeError("boom")
        return self.answer  # type: ignore[return-value]

    def reset(self) -> None:
        pass


@pytest.mark.parametrize(
    ("answer", "part"),
    [(None, "X (failing) failed on move 1: RuntimeError: boom"), (99, "chose 99 on move 1: not a cell")],
)
def test_a_failing_player_is_an_error_not_a_crash(answer: object, part: str) -> None:
    manager = Manager(lambda: Failing(answer))
    assert manager.send("START 5") == ["OK"]
    manager.error("BEGIN", part)
    state = manager.brain.state
    assert state is not None and state.history == ()
    assert manager.send("ABOUT") == [ABOUT]


def test_a_player_that_cannot_be_made_is_an_error() -> None:
    manager = Manager(lambda: make_player("nobody"))
    manager.error("START 9", "unknown player 'nobody'")
    manager.error("BEGIN", "no game")


def test_run_reads_to_end_and_stops() -> None:
    script = "START 9\r\nBEGIN\nTURN 4,4\r\n\r\nABOUT\nEND\r\nSTART 9\nBEGIN\n"
    out = io.StringIO()
    brain = Brain(FirstLegalPlayer, io.StringIO(script), out)
    brain.run()
    assert brain.ended
    assert out.getvalue() == f"OK\r\n0,0\r\n1,0\r\n{ABOUT}\r\n"


def test_run_stops_at_the_end_of_the_input() -> None:
    out = io.StringIO()
    Brain(FirstLegalPlayer, io.StringIO("START 5\nBEGIN"), out).run()
    assert out.getvalue() == "OK\r\n0,0\r\n"


def test_an_mcts_brain_completes_its_five() -> None:
    pytest.importorskip("plyground.kinrow.mcts")
    manager = Manager(lambda: make_player("mcts", iterations=200, seed=1))
    assert manager.send("START 9") == ["OK"]
    assert manager.send("INFO timeout_turn 2000") == []
    answer = manager.board("2,2,1", "0,8,2", "3,3,1", "8,0,2", "4,4,1", "8,7,2", "5,5,1", "7,8,2")
    assert answer in (["6,6"], ["1,1"])


def test_the_brain_as_a_process() -> None:
    script = b"START 9\r\nINFO timeout_turn 60000\r\nBEGIN\r\nbogus\r\nTURN 9,9\nTURN 4,4\nABOUT\r\nEND\r\nBEGIN\r\n"
    result = subprocess.run(
        [sys.executable, "-m", "plyground.apps.cli.main", "kinrow", "pbrain", "--player", "first_legal"],
        input=script,
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    lines = result.stdout.split(b"\r\n")
    assert lines[-1] == b"" and all(b"\n" not in line and b"\r" not in line for line in lines)
    assert lines[:-1] == [
        b"OK",
        b"0,0",
        b"UNKNOWN command 'bogus'",
        b"ERROR TURN 9,9: off the 9x9 board",
        b"1,0",
        ABOUT.encode(),
    ]


def test_a_turn_written_right_after_an_answer_is_never_lost() -> None:
    """The manager answers each move at once, its TURN in one write with an INFO line: every one is read.

    A brain that waited on the pipe (select) while lines sat in its reader's buffer would miss the TURN
    that came with the INFO line, and the manager would wait for a move that never comes.
    """
    command = [sys.executable, "-m", "plyground.apps.cli.main", "kinrow", "pbrain", "--player", "first_legal"]
    brain = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert brain.stdin is not None and brain.stdout is not None
    answers, expected, taken = [], [], set()

    def first_empty() -> tuple[int, int]:
        return next((x, y) for y in range(15) for x in range(15) if (x, y) not in taken)

    try:
        brain.stdin.write(b"START 15\r\nINFO timeout_turn 1000\r\nINFO timeout_match 100000\r\nBEGIN\r\n")
        brain.stdin.flush()
        assert brain.stdout.readline() == b"OK\r\n"
        for turn in range(20):
            answers.append(brain.stdout.readline())
            expected.append("{},{}\r\n".format(*first_empty()).encode())
            taken.add(first_empty())
            x, y = first_empty()  # beside its stone: nobody makes five
            taken.add((x, y))
            brain.stdin.write(f"INFO time_left {90_000 - turn}\r\nTURN {x},{y}\r\n".encode())
            brain.stdin.flush()
        answers.append(brain.stdout.readline())
        expected.append("{},{}\r\n".format(*first_empty()).encode())
        brain.stdin.write(b"END\r\n")
        brain.stdin.close()
        assert brain.wait(timeout=60) == 0
    finally:
        if brain.poll() is None:
            brain.kill()
            brain.wait()
    assert answers == expected


# -- END and the end of the input stop a search at once ------------------------------------------


LONG_S = 300.0
"""How long the players of these tests think unless stopped: far longer than any check waits for them."""


class Thinker(FirstLegalPlayer):
    """Thinks until stopped (at most :data:`LONG_S`), then plays the first legal move; counts its searches.

    With a :class:`FakeTimer`, it parks on it while it thinks, and notes the fake time it was stopped at.
    """

    def __init__(self, timer: FakeTimer | None = None) -> None:
        super().__init__()
        self.name = "thinker"
        self.timer = timer
        self._stop = threading.Event()
        self.searches = 0
        self.seconds: list[float] = []  # real seconds each search took
        self.stopped_at: list[float] = []  # the fake time each search was stopped at

    def choose(self, state: State) -> int:
        self.searches += 1
        start = time.perf_counter()
        if self.timer is None:
            self._stop.wait(LONG_S)
        else:
            self.timer.park(self._stop)
            self.stopped_at.append(self.timer.now())
        self._stop.clear()  # the request is used up, as the searching players' is
        self.seconds.append(time.perf_counter() - start)
        return super().choose(state)

    def stop(self) -> None:
        if self.timer is None:
            self._stop.set()
        else:
            self.timer.release(self._stop)


class PipedBrain:
    """A brain running in a thread on a real pipe, as a manager drives it."""

    def __init__(self) -> None:
        self.players: list[Thinker] = []

        def make() -> Player:
            self.players.append(Thinker())
            return self.players[-1]

        read, write = os.pipe()
        self.writer = os.fdopen(write, "w")
        self.out = io.StringIO()
        self.brain = Brain(make, os.fdopen(read, "r"), self.out)
        self.thread = threading.Thread(target=self.brain.run, daemon=True)
        self.thread.start()

    def send(self, *lines: str) -> None:
        self.writer.write("".join(line + "\r\n" for line in lines))
        self.writer.flush()

    def wait_for_a_search(self) -> None:
        deadline = time.perf_counter() + 30
        while not (self.players and self.players[-1].searches) and time.perf_counter() < deadline:
            time.sleep(0.005)
        assert self.players and self.players[-1].searches

    def seconds_to_stop(self) -> float:
        start = time.perf_counter()
        self.thread.join(LONG_S / 10)
        assert not self.thread.is_alive()
        return time.perf_counter() - start


@pytest.mark.parametrize("ending", ["END", "END now", "end", "close"])
def test_end_or_a_closed_input_stops_the_search_in_progress_at_once(ending: str) -> None:
    piped = PipedBrain()
    piped.send("START 9", "TURN 4,4")  # no time limit: the thinker thinks until something stops it
    piped.wait_for_a_search()
    if ending == "close":
        piped.writer.close()
    else:
        piped.send(ending)
    assert piped.seconds_to_stop() < LONG_S / 10
    assert piped.out.getvalue() == "OK\r\n0,0\r\n"  # the move of the stopped search is still answered
    assert piped.players[0].seconds[0] < LONG_S / 10  # stopped, not thought out
    if ending != "close":
        assert piped.brain.ended


def test_commands_read_before_end_are_answered_and_their_searches_stop_at_once() -> None:
    piped = PipedBrain()
    piped.send("START 9", "TURN 4,4", "TURN 5,5", "ABOUT", "START 7", "BEGIN", "END", "ABOUT")
    assert piped.seconds_to_stop() < LONG_S / 10
    assert piped.out.getvalue() == f"OK\r\n0,0\r\n1,0\r\n{ABOUT}\r\nOK\r\n0,0\r\n"  # nothing after END
    assert [player.searches for player in piped.players] == [2, 1]


def test_the_input_thread_ends_at_end_though_the_manager_keeps_the_pipe_open() -> None:
    before = set(threading.enumerate())
    piped = PipedBrain()
    try:
        piped.send("START 9", "END")
        assert piped.seconds_to_stop() < LONG_S / 10
        readers = [thread for thread in set(threading.enumerate()) - before if thread.name == "pbrain-input"]
        for reader in readers:
            reader.join(LONG_S / 10)
        assert not [reader for reader in readers if reader.is_alive()]  # not left waiting for a line
    finally:
        piped.writer.close()


def test_without_end_the_search_runs_until_it_is_done() -> None:
    piped = PipedBrain()
    piped.send("START 9", "TURN 4,4")
    piped.wait_for_a_search()
    time.sleep(0.3)
    assert piped.out.getvalue() == "OK\r\n"  # still thinking
    piped.players[0].stop()  # its own time is up
    deadline = time.perf_counter() + 30
    while piped.out.getvalue() == "OK\r\n" and time.perf_counter() < deadline:
        time.sleep(0.005)
    assert piped.out.getvalue() == "OK\r\n0,0\r\n"
    piped.send("TURN 5,5")  # the next search is not stopped
    piped.wait_for_a_search()
    deadline = time.perf_counter() + 30
    while piped.players[0].searches < 2 and time.perf_counter() < deadline:
        time.sleep(0.005)
    time.sleep(0.2)
    assert piped.out.getvalue() == "OK\r\n0,0\r\n"
    piped.send("END")
    assert piped.seconds_to_stop() < LONG_S / 10
    assert piped.out.getvalue() == "OK\r\n0,0\r\n1,0\r\n"


@pytest.mark.parametrize("player", ["mcts", "alphabeta"])
@pytest.mark.parametrize("ending", ["END", "close"])
def test_the_brain_process_exits_at_once_on_end_while_thinking(player: str, ending: str) -> None:
    pytest.importorskip(f"plyground.kinrow.{player}")
    command = [sys.executable, "-m", "plyground.apps.cli.main", "kinrow", "pbrain", "--player", player]
    if player == "alphabeta":
        command += ["--depth", "30"]
    brain = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert brain.stdin is not None and brain.stdout is not None
    try:
        brain.stdin.write(b"START 15\r\n")
        brain.stdin.flush()
        assert brain.stdout.readline() == b"OK\r\n"  # started (and compiled, on a first run)
        brain.stdin.write(b"INFO timeout_turn 600000\r\nTURN 7,7\r\n")
        brain.stdin.flush()
        time.sleep(0.5)  # thinking: 479.95 s of its 600
        start = time.perf_counter()
        if ending == "END":
            brain.stdin.write(b"END\r\n")
            brain.stdin.flush()
        brain.stdin.close()  # after END, or instead of it
        status = brain.wait(timeout=240)
        seconds = time.perf_counter() - start
        answer = brain.stdout.read()
    finally:
        brain.kill()
        brain.wait()
    assert status == 0
    assert seconds < 120  # the search stops in milliseconds, not after its 480 s (exit: 0.05-0.5 s, more under load)
    # Its move; on a loaded machine a search that has not stopped within the grace is overruled, and says so.
    overruled = rb"MESSAGE \w+ did not answer in time: the brain plays \d+,\d+\r\n"
    assert re.fullmatch(rb"(" + overruled + rb")?\d+,\d+\r\n", answer), answer


# -- the manager's time limits are kept whatever the player does -----------------------------------


class Stubborn(FirstLegalPlayer):
    """Takes ``seconds`` on every move, whatever its budget, and cannot be stopped; counts its searches.

    With a :class:`FakeTimer` it sleeps on it; without, until :meth:`let_go` (at most ``seconds``).
    """

    def __init__(self, seconds: float = 1.0, timer: FakeTimer | None = None) -> None:
        super().__init__()
        self.name = "stubborn"
        self.sleep, self.timer = seconds, timer
        self.searches = 0
        self.finished = threading.Semaphore(0)  # released at the end of each search
        self._go = threading.Event()

    def choose(self, state: State) -> int:
        self.searches += 1
        if self.timer is None:
            self._go.wait(self.sleep)
        else:
            self.timer.sleep(self.sleep)
        self.finished.release()
        return super().choose(state)

    def let_go(self) -> None:
        self._go.set()


def timed(manager: Manager, timer: FakeTimer, line: str) -> tuple[list[str], float]:
    """The answer to ``line``, and the seconds of the fake clock it took."""
    start = timer.now()
    answer = manager.send(line)
    return answer, timer.now() - start


STOP_S = pbrain_clock.STOP_MARGIN_MS / 1000
ANSWER_S = pbrain_clock.ANSWER_MARGIN_MS / 1000


@pytest.mark.parametrize(
    ("info", "limit"),
    [
        (["INFO timeout_turn 300"], 0.3),
        (["INFO timeout_turn 1000"], 1.0),
        (["INFO timeout_turn 5000", "INFO timeout_match 100000", "INFO time_left 400"], 0.4),  # the match clock
    ],
)
def test_a_player_that_ignores_its_budget_is_stopped_within_the_limit(info: list[str], limit: float) -> None:
    timer = FakeTimer()
    manager = Manager(lambda: Thinker(timer), timer=timer)  # thinks until stopped
    assert manager.send("START 15") == ["OK"]
    for line in info:
        assert manager.send(line) == []
    for turn in ("7,7", "8,8"):
        answer, seconds = timed(manager, timer, f"TURN {turn}")
        assert len(answer) == 1 and re.fullmatch(r"\d+,\d+", answer[0]), answer  # its own move, stopped
        assert seconds == pytest.approx(limit - STOP_S)  # stopped at the limit less the margin, answered then
    player = manager.players[0]
    assert isinstance(player, Thinker) and player.searches == 2 and len(player.stopped_at) == 2


def test_the_limit_counts_from_when_the_line_was_read() -> None:
    timer = FakeTimer()
    manager = Manager(lambda: Thinker(timer), timer=timer)
    assert manager.send("START 15") == ["OK"]
    assert manager.send("INFO timeout_turn 500") == []
    read = timer.now()
    timer.advance(0.2)  # the line waited 0.2 s in the queue before the brain took it
    manager.brain.feed("TURN 7,7\r\n", received=read)
    player = manager.players[0]
    assert isinstance(player, Thinker) and player.stopped_at == [pytest.approx(read + 0.5 - STOP_S)]
    assert timer.now() == pytest.approx(read + 0.5 - STOP_S)  # answered 0.5 s less the margin after the reading
    assert manager.out.getvalue().endswith("OK\r\n0,0\r\n")


def test_a_player_that_cannot_be_stopped_is_overruled_within_the_limit() -> None:
    timer = FakeTimer()
    manager = Manager(lambda: Stubborn(1.0, timer), timer=timer)
    assert manager.send("START 15") == ["OK"]
    assert manager.send("INFO timeout_turn 300") == []
    answer, seconds = timed(manager, timer, "TURN 7,7")
    assert seconds == pytest.approx(0.3 - ANSWER_S)  # stopped in vain, then overruled
    assert answer == ["MESSAGE stubborn did not answer in time: the brain plays 6,6", "6,6"]  # next to 7,7
    answer, seconds = timed(manager, timer, "TURN 8,7")  # forced: block nothing yet; next to the last stones
    assert seconds == pytest.approx(0.3 - STOP_S)  # waited for the previous search as long as it could
    assert answer[0].startswith("MESSAGE stubborn is still searching the previous move: the brain plays ")
    player = manager.players[0]
    assert isinstance(player, Stubborn)
    timer.advance(1)  # its search ends, unheard
    assert player.finished.acquire(timeout=FakeTimer.PATIENCE_S)
    assert manager.send("INFO timeout_turn 5000") == []
    answer, seconds = timed(manager, timer, "TURN 0,14")
    assert answer == ["0,0"] and seconds == pytest.approx(1.0)  # its own move again, after its second
    state = manager.brain.state
    assert state is not None and len(state.history) == 6
    assert player.searches == 2  # never two searches at once


@pytest.mark.parametrize("stubborn", [False, True])
def test_end_while_thinking_is_answered_at_once(stubborn: bool) -> None:
    """END stops a player that would think for minutes, or overrules one that cannot be stopped."""
    players: list[Thinker | Stubborn] = []

    def make() -> Player:
        players.append(Stubborn(LONG_S) if stubborn else Thinker())
        return players[-1]

    out = io.StringIO()
    read, write = os.pipe()
    writer = os.fdopen(write, "w")
    brain = Brain(make, os.fdopen(read, "r"), out)
    thread = threading.Thread(target=brain.run, daemon=True)
    thread.start()
    try:
        writer.write(f"START 9\r\nINFO timeout_turn {1000 * LONG_S:.0f}\r\nTURN 4,4\r\n")
        writer.flush()
        deadline = time.monotonic() + 30
        while not (players and players[0].searches) and time.monotonic() < deadline:
            time.sleep(0.005)
        assert players and players[0].searches == 1
        start = time.perf_counter()
        writer.write("END\r\n")
        writer.flush()
        thread.join(30)
        assert not thread.is_alive()
        assert time.perf_counter() - start < LONG_S / 10  # not after the player's minutes
        # The stubborn player is overruled; the thinker answers its move, or is overruled if it is slow to.
        assert out.getvalue().split("\r\n")[-2] in (("3,3",) if stubborn else ("0,0", "3,3"))
    finally:
        writer.close()
        if stubborn:
            players[0].let_go()


# -- what the player says of its search, and its memory -------------------------------------------


class Reporter(FirstLegalPlayer):
    """The first legal move, with a report of a search (from ``last``) and a ``set_memory``."""

    def __init__(self, value: float = 123.0, kind: str | None = "search") -> None:
        super().__init__()
        self.name = "reporter"
        self.value, self.kind = value, kind
        self.memory: list[int] = []
        self.last: object = None

    def choose(self, state: State) -> int:
        move = super().choose(state)
        pv = (move, state.index(8, 8), state.index(0, 1))
        self.last = types.SimpleNamespace(
            move=move, value=self.value, depth=9, nodes=45678, seconds=0.25, pv=pv, kind=self.kind
        )
        return move

    def report(self) -> SearchReport:
        """What ``last`` holds, as the protocol's report."""
        last = vars(self.last) if self.last is not None else {}
        figures = {
            name: last[name] for name in ("depth", "value", "nodes", "seconds", "kind", "iterations") if name in last
        }
        return SearchReport(move=last.get("move"), figures=figures, line=tuple(last.get("pv", ())))

    def set_memory(self, max_memory: int) -> None:
        if max_memory == 1:
            raise InvalidInputError("1 byte is too little")
        self.memory.append(max_memory)


def test_the_search_report_is_a_message_before_the_move() -> None:
    manager = Manager(Reporter)
    assert manager.send("START 15") == ["OK"]
    assert manager.send("TURN 7,7") == [
        "MESSAGE depth 9 score 123 nodes 45678 kind search time 250ms pv 0,0 8,8 1,0",
        "0,0",
    ]
    manager = Manager(lambda: Reporter(-0.123456, None))
    assert manager.send("START 15") == ["OK"]
    assert manager.send("BEGIN") == ["MESSAGE depth 9 score -0.1235 nodes 45678 time 250ms pv 0,0 8,8 1,0", "0,0"]


def test_a_stale_or_missing_report_is_not_sent() -> None:
    manager = Manager(Reporter)
    assert manager.send("START 15") == ["OK"]
    player = manager.players[0]
    assert isinstance(player, Reporter)
    player.choose = lambda state: state.legal_moves()[0]  # type: ignore[method-assign]  # leaves last as it is
    player.last = types.SimpleNamespace(move=99, value=1, depth=1, pv=())  # about another move
    assert manager.send("TURN 7,7") == ["0,0"]
    player.last = types.SimpleNamespace(iterations=10, nodes=3)  # an MCTS-like report: no depth, no pv
    assert manager.send("TURN 7,8") == ["1,0"]


def test_max_memory_reaches_the_player_and_the_players_of_later_games() -> None:
    manager = Manager(Reporter)
    assert manager.send("INFO max_memory 83886080") == []  # before START: kept
    assert manager.send("START 15") == ["OK"]
    assert manager.send("INFO max_memory 0") == []  # no limit
    assert manager.send("START 9") == ["OK"]
    assert [player.memory for player in manager.players if isinstance(player, Reporter)] == [[83886080, 0], [0]]
    manager.error("INFO max_memory 1", "1 byte is too little")
    assert manager.send("BEGIN")[-1] == "0,0"


# -- board sizes, rectangles, blocked cells, renju ----------------------------------------------------


def test_start_20_and_rectangles_inside_a_square() -> None:
    manager = Manager()
    assert manager.send("START 20") == ["OK"]
    state = manager.brain.state
    assert state is not None and (state.n, state.k, state.blocked) == (20, 5, frozenset())
    assert manager.move("TURN 19,19") == (0, 0)
    assert manager.send("RECTSTART 6,20") == ["OK"]  # 6 columns (x), 20 rows (y)
    state = manager.brain.state
    assert state is not None and state.n == 20 and len(state.blocked) == 14 * 20
    assert all(state.coords(cell)[1] >= 6 for cell in state.blocked)
    assert manager.move("BEGIN") == (0, 0)
    assert [manager.move(f"TURN {x},0") for x in (1, 3)] == [(2, 0), (4, 0)]
    assert manager.move("TURN 5,0") == (0, 1)  # not 6,0: outside the rectangle
    manager.error("TURN 6,3", "TURN 6,3: off the 6x20 board")
    manager.error("TURN 0,20", "off the 6x20 board")
    assert manager.send("RESTART") == ["OK"]  # the same rectangle
    state = manager.brain.state
    assert state is not None and len(state.blocked) == 14 * 20 and state.history == ()
    assert manager.send("RECTSTART 20,7") == ["OK"]
    state = manager.brain.state
    assert state is not None and len(state.blocked) == 13 * 20
    assert all(state.coords(cell)[0] >= 7 for cell in state.blocked)
    assert manager.move("TURN 19,6") == (0, 0)
    manager.error("TURN 0,7", "TURN 0,7: off the 20x7 board")


def test_blocked_cells_of_board_are_the_states_and_add_to_the_rectangle() -> None:
    manager = Manager()
    assert manager.send("RECTSTART 10,9") == ["OK"]
    assert manager.board("0,0,3", "1,0,3", "4,4,2") == ["2,0"]
    state = manager.brain.state
    assert state is not None and state.n == 10
    assert state.blocked == {0, 1} | {row * 10 + col for row in range(10) for col in range(10) if row >= 9}
    manager.error("TURN 0,0", "TURN 0,0: the cell is taken (blocked)")


def test_renju_a_forbidden_point_of_the_brain_is_overruled_and_the_opponents_is_an_error() -> None:
    manager = Manager(lambda: Failing(7 * 15 + 7))  # always 7,7
    assert manager.send("INFO rule 4") == []
    assert manager.send("START 15") == ["OK"]
    # the brain is X: 7,7 would make two open threes (a double-three), forbidden to X
    own = ["5,7,1", "6,7,1", "7,5,1", "7,6,1"]
    theirs = ["0,0,2", "2,0,2", "0,2,2", "14,14,2"]
    answer = manager.board(*own, *theirs)
    assert (
        len(answer) == 2
        and answer[0] == f"MESSAGE failing chose 7,7, which cannot be played: the brain plays {answer[1]}"
    )
    state = manager.brain.state
    assert state is not None and xy(state, state.history[-1]) == answer[1] != "7,7"
    # now the opponent is X (BOARD with one stone more for the opponent): 7,7 is its forbidden point
    manager = Manager()
    assert manager.send("INFO rule 4") == []
    assert manager.send("START 15") == ["OK"]
    mine = ["0,0,1", "2,0,1", "0,2,1"]
    theirs = ["5,7,2", "6,7,2", "7,5,2", "7,6,2"]
    assert manager.board(*theirs, *mine) == ["1,0"]
    manager.error("TURN 7,7", "forbidden to X under renju (double-three)")
    assert manager.move("TURN 8,8") == (3, 0)


def tables_built() -> int:
    """How many pattern tables and evaluations this process has built so far."""
    from plyground.kinrow.evaluation import evaluation_for
    from plyground.kinrow.patterns import tables_for

    return tables_for.cache_info().misses + evaluation_for.cache_info().misses


def forget_the_tables() -> None:
    """Make the next engine build its tables again, as in a new process."""
    from plyground.kinrow import engine
    from plyground.kinrow.evaluation import evaluation_for
    from plyground.kinrow.patterns import tables_for

    tables_for.cache_clear()
    evaluation_for.cache_clear()
    engine._warm_up.cache_clear()


def test_the_engine_behind_the_brain_plays_20x20_with_its_tables_built_before_ok() -> None:
    """The default player: no table is built inside a move, and a search report comes before each move."""
    forget_the_tables()
    timer = FakeTimer()  # the engine never parks on it: the brain waits for each of its moves, however slow
    manager = Manager(lambda: make_player("engine"), kind="engine", timer=timer)
    manager.send("INFO timeout_turn 300")
    assert manager.send("START 20") == ["OK"]
    built = tables_built()
    taken: set[str] = set()
    theirs = iter(["11,11", "8,9", "12,8", "13,7", "9,12", "14,14", "5,5"])
    for turn in range(4):
        if turn == 0:
            command = "BEGIN"
        else:  # a free cell: the engine's timed replies may take any of them
            command = "TURN " + next(cell for cell in theirs if cell not in taken)
            taken.add(command.removeprefix("TURN "))
        answer = manager.send(command)
        assert len(answer) == 2 and answer[0].startswith("MESSAGE depth "), answer  # its own move, never overruled
        assert re.fullmatch(r"\d+,\d+", answer[-1]), answer
        assert answer[-1] not in taken
        taken.add(answer[-1])
    assert tables_built() == built
    state = manager.brain.state
    assert state is not None and state.n == 20 and len(state.history) == 7


@pytest.mark.parametrize("rule", ["1", "4"])
def test_a_rule_sent_after_start_builds_nothing_in_the_first_move(rule: str) -> None:
    """Piskvork sends INFO rule after START: the tables of every rule are ready at START, before OK."""
    forget_the_tables()
    manager = Manager(lambda: make_player("engine"), kind="engine", timer=FakeTimer())
    assert manager.send("START 15") == ["OK"]
    built = tables_built()
    assert manager.send("INFO timeout_turn 200") == []
    assert manager.send(f"INFO rule {rule}") == []
    assert manager.brain.state is not None and manager.brain.state.rule is Rule(int(rule))
    answer = manager.send("BEGIN")
    assert len(answer) == 2 and answer[0].startswith("MESSAGE depth ") and re.fullmatch(r"\d+,\d+", answer[1])
    assert tables_built() == built


class Preparing(Recorder):
    """A recorder with ``prepare``: remembers the rule of each position it was prepared for."""

    def __init__(self) -> None:
        super().__init__()
        self.prepared: list[Rule] = []

    def prepare(self, state: State) -> None:
        self.prepared.append(state.rule)


def test_a_rule_change_prepares_the_player_before_the_game_that_takes_it() -> None:
    manager = Manager(Preparing)
    assert manager.send("START 15") == ["OK"]
    player = manager.players[0]
    assert isinstance(player, Preparing) and player.prepared == [Rule.FREESTYLE]
    assert manager.send("INFO rule 1") == []  # an empty game: at once
    assert player.prepared == [Rule.FREESTYLE, Rule.STANDARD]
    assert manager.move("BEGIN") == (0, 0)
    assert manager.send("INFO rule 4") == []  # stones on the board: for the next game
    assert player.prepared == [Rule.FREESTYLE, Rule.STANDARD]
    assert manager.send("RESTART") == ["OK"]
    assert player.prepared == [Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU]  # before OK, not in the first move
    assert manager.brain.state is not None and manager.brain.state.rule is Rule.RENJU


# -- what is refused changes nothing ---------------------------------------------------------------


def test_a_failed_start_keeps_the_game_in_progress() -> None:
    players: list[Player] = []

    def make() -> Player:
        if players:
            raise InvalidInputError("no second player")
        players.append(FirstLegalPlayer())
        return players[-1]

    manager = Manager(make)
    assert manager.send("START 9") == ["OK"]
    assert manager.move("BEGIN") == (0, 0)
    assert manager.send("INFO rule 4") == []  # stones on the board: for the next game
    for line, part in [
        ("START 21", "unsupported size 21"),
        ("RECTSTART 30,9", "unsupported size 30,9"),
        ("START 4", "renju is played with k = 5, got k = 4"),
        ("START 15", "no second player"),
    ]:
        manager.error(line, part)
        state = manager.brain.state
        assert state is not None and (state.n, state.rule, state.history) == (9, Rule.FREESTYLE, (0,))
    assert manager.move("TURN 4,4") == (1, 0)  # the game goes on, with its player


@pytest.mark.parametrize("value", ["16", "99", "64", "123456789"])
def test_a_rule_outside_the_protocols_bits_is_an_error_and_changes_nothing(value: str) -> None:
    manager = Manager()
    assert manager.send("INFO rule 1") == []
    assert manager.send("START 15") == ["OK"]
    manager.error(f"INFO rule {value}", f"INFO rule {value}: the rule is a sum of 1 (exactly five)")
    assert manager.brain.state is not None and manager.brain.state.rule is Rule.STANDARD
    assert manager.send("RESTART") == ["OK"]
    assert manager.brain.state is not None and manager.brain.state.rule is Rule.STANDARD


@pytest.mark.parametrize("kind", ["mcts", "alphabeta"])
def test_a_rule_the_player_cannot_play_is_refused_up_front(kind: str) -> None:
    manager = Manager(kind=kind)
    manager.error("INFO rule 4", f"{kind} plays free-style and standard, not renju: choose engine, random")
    assert manager.send("START 15") == ["OK"]
    manager.error("INFO rule 5", "not renju")
    assert manager.brain.state is not None and manager.brain.state.rule is Rule.FREESTYLE
    assert manager.move("BEGIN") == (0, 0)
    manager.error("INFO rule 4", "not renju")  # for the next game: refused too
    assert manager.send("RESTART") == ["OK"]
    assert manager.brain.state is not None and manager.brain.state.rule is Rule.FREESTYLE


def test_renju_for_an_empty_game_under_5_is_refused_and_changes_nothing() -> None:
    manager = Manager()
    assert manager.send("START 4") == ["OK"]
    manager.error("INFO rule 4", "renju is played with k = 5, got k = 4")
    assert manager.brain.state is not None and manager.brain.state.rule is Rule.FREESTYLE
    assert manager.send("START 9") == ["OK"]
    assert manager.brain.state is not None and manager.brain.state.rule is Rule.FREESTYLE


def test_timeout_turn_0_means_as_fast_as_possible_and_negative_times_are_errors() -> None:
    manager = Manager(Recorder)
    assert manager.send("START 9") == ["OK"]
    assert manager.send("INFO timeout_turn 0") == []  # the protocol: 0 = play as fast as possible
    assert manager.players[0].time_ms == pytest.approx(pbrain_clock.MIN_MS)
    manager.error("INFO timeout_match -1", "INFO timeout_match must not be negative, got -1")
    manager.error("INFO timeout_turn -1", "INFO timeout_turn must not be negative, got -1")
    assert manager.players[0].time_ms == pytest.approx(pbrain_clock.MIN_MS)
