"""The Piskvork manager: one game between two scripted brains (``tests/data/fake_gomocup_brain.py``).

The fake brain answers fixed moves, taken cells, garbage, late answers, bytes that are not UTF-8,
or exits, and logs what it was sent.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from plyground.arena import Game, Move, Settings, play_game, read_records, record_text
from plyground.arena.piskvork import NO_CLOCK
from plyground.errors import BrainError, CorruptFileError, InvalidInputError

FAKE = Path(__file__).resolve().parents[1] / "data" / "fake_gomocup_brain.py"


def fake(mode: str, log: Path | None = None) -> list[str]:
    return [sys.executable, str(FAKE), mode, *([str(log)] if log is not None else [])]


def settings(**changes: Any) -> Settings:
    return Settings(**{"size": 9, "time_ms": 2000, "grace_ms": 2000, "start_ms": 30_000, **changes})


def test_five_in_a_row_wins_and_the_moves_are_recorded() -> None:
    game = play_game(fake("row:0"), fake("row:8"), [], settings(), names=("A", "B"))
    assert (game.winner, game.reason) == ("black", "A (black) made five")
    assert [(move.x, move.y) for move in game.moves] == [(0, 0), (0, 8), (1, 0), (1, 8), (2, 0), (2, 8), (3, 0),
                                                          (3, 8), (4, 0)]  # fmt: skip
    assert len(game.times("black")) == 5 and len(game.times("white")) == 4
    assert all(ms is not None and ms >= 0 for ms in game.times("black"))


def test_the_brains_are_told_the_game_as_piskvork_tells_it(tmp_path: Path) -> None:
    black_log, white_log = tmp_path / "black.log", tmp_path / "white.log"
    opening = [(4, 4), (3, 3), (5, 5)]  # white to move
    game = play_game(fake("row:0", black_log), fake("row:8", white_log), opening, settings(max_moves=3, rule=0))
    assert game.winner is None and "move limit" in game.reason
    info = ["INFO timeout_turn 2000", "INFO timeout_match 0", f"INFO time_left {NO_CLOCK}", "INFO rule 0"]
    # White sees the opening as it was played (its own stone is 1), then hears black's moves by TURN.
    assert white_log.read_text().splitlines() == ["START 9", *info, "BOARD", "4,4,2", "3,3,1", "5,5,2", "DONE",
                                                  "TURN 0,0", "END"]  # fmt: skip
    # Black's first command shows the opening and white's first move.
    assert black_log.read_text().splitlines() == ["START 9", *info, "BOARD", "4,4,1", "3,3,2", "5,5,1", "0,8,2",
                                                  "DONE", "END"]  # fmt: skip


@pytest.mark.parametrize(
    ("mode", "opening", "reason"),
    [
        ("taken", [], "A (black) lost: illegal move 99,99: off the 9x9 board"),
        ("taken", [(4, 4)], "A (white) lost: illegal move 4,4: the cell is taken"),
        ("garbage", [], "A (black) lost: answered 'hello there', not a move"),
        ("crash", [], "A (black) lost: crashed (exit status 3: boom)"),
    ],
)
def test_a_bad_answer_loses(mode: str, opening: list[tuple[int, int]], reason: str) -> None:
    a_black = len(opening) % 2 == 0
    brains = (fake(mode), fake("row:8")) if a_black else (fake("row:8"), fake(mode))
    game = play_game(*brains, opening, settings(), names=("A", "B") if a_black else ("B", "A"))
    assert game.reason == reason
    assert game.winner == ("white" if a_black else "black")


def test_a_late_answer_loses_at_the_grace_limit() -> None:
    start = time.perf_counter()
    game = play_game(fake("slow:5000:0"), fake("row:8"), [], settings(time_ms=100, grace_ms=200), names=("A", "B"))
    assert (game.winner, game.reason) == ("white", "A (black) lost: no answer in 100 + 200 ms")
    assert time.perf_counter() - start < 4.5  # the slow brain was killed, not waited for


def test_time_odds_each_colour_is_told_and_held_to_its_own_time(tmp_path: Path) -> None:
    black_log, white_log = tmp_path / "black.log", tmp_path / "white.log"
    odds = settings(time_ms=2000, white_ms=100, grace_ms=300)
    game = play_game(fake("slow:150:0", black_log), fake("slow:600:8", white_log), [], odds, names=("A", "B"))
    # black's 150 ms are within its 2 s; white's 600 ms are past its 100 + 300 ms
    assert (game.winner, game.reason) == ("black", "B (white) lost: no answer in 100 + 300 ms")
    assert "INFO timeout_turn 2000" in black_log.read_text().splitlines()
    assert "INFO timeout_turn 100" in white_log.read_text().splitlines()
    assert '[TimeMs "2000/100"]' in record_text(game, 1, odds, {"black": "A", "white": "B"})


def test_the_match_clock_runs_out(tmp_path: Path) -> None:
    log = tmp_path / "black.log"
    game = play_game(fake("slow:60:0", log), fake("row:8"), [], settings(match_ms=150), names=("A", "B"))
    assert game.reason == "A (black) lost: out of time on the match clock (150 ms)"
    assert 2 <= len(game.times("white")) + 1 <= 3
    sent = log.read_text().splitlines()
    assert sent[sent.index("INFO time_left 150") + 1] == "INFO rule 0"  # at the start, then before each move
    assert any(line.startswith("INFO time_left ") and int(line.split()[-1]) < 150 for line in sent[6:])


def test_a_brain_that_refuses_the_board_stops_the_match() -> None:
    with pytest.raises(BrainError, match=r"B refused START 9: ERROR no thanks"):
        play_game(fake("row:0"), fake("refuse"), [], settings(), names=("A", "B"))
    with pytest.raises(BrainError, match=r"cannot start /no/such/brain"):
        play_game(["/no/such/brain"], fake("row:0"), [], settings())


def test_the_record_of_a_game() -> None:
    game = play_game(fake("row:0"), fake("row:8"), [(4, 4), (3, 3)], settings())
    text = record_text(game, 3, settings(), {"black": "first", "white": "second"})
    assert text.startswith('[Game "3"]\n[Black "first"]\n[White "second"]\n[Size "9"]\n[Rule "freestyle"]\n')
    assert '[Opening "4,4 3,3"]\n[Result "1-0"]\n[Termination "black (black) made five"]\n' in text
    assert "1. 4,4 {opening} 2. 3,3 {opening} 3. 0,0 {" in text and text.endswith("\n1-0\n\n")


OVERLINE_OPENING = [(0, 0), (8, 8), (1, 0), (8, 6), (3, 0), (6, 8), (4, 0), (8, 4), (5, 0), (6, 6)]
"""Black to move: its first free cell of row 0, 2,0, makes six in a row.

Where an overline does not win, black's scripted brain goes on along row 0 (seven, eight... in a row)
while white fills row 8 from the left, 0,8 to 4,8: exactly five. That takes five more black moves, so
those games are played on 15x15 (on 9x9 black's row 0 would be full after 8,0).
"""


def test_six_in_a_row_wins_free_style() -> None:
    game = play_game(fake("row:0"), fake("row:8"), OVERLINE_OPENING, settings(), names=("A", "B"))
    assert (game.winner, game.reason, len(game.moves)) == ("black", "A (black) made five", 11)


@pytest.mark.parametrize(("rule", "winner", "reason"), [(1, "white", "B (white) made five"),
                                                         (4, "white", "A (black) lost: illegal move 2,0")])  # fmt: skip
def test_an_overline_under_the_standard_and_renju_rules(rule: int, winner: str, reason: str) -> None:
    game = play_game(fake("row:0"), fake("row:8"), OVERLINE_OPENING, settings(rule=rule, size=15), names=("A", "B"))
    assert game.winner == winner and game.reason.startswith(reason)
    if rule == 1:  # black's overlines of six to ten did not end the game; white's exact five did
        played = [(move.x, move.y) for move in game.moves[len(OVERLINE_OPENING) :]]
        assert played[0::2] == [(2, 0), (6, 0), (7, 0), (8, 0), (9, 0)]
        assert played[1::2] == [(0, 8), (1, 8), (2, 8), (3, 8), (4, 8)]


def test_bytes_that_are_not_utf8_and_a_byte_10_in_a_message_are_neither_moves_nor_crashes() -> None:
    """A depth of 10 written as a raw byte ends the line early: the rest of the message, ``0,0``, is no move."""
    game = play_game(fake("raw:0"), fake("raw:8"), [], settings(), names=("A", "B"))
    assert (game.winner, game.reason) == ("black", "A (black) made five")
    assert [(move.x, move.y) for move in game.moves] == [(0, 0), (0, 8), (1, 0), (1, 8), (2, 0), (2, 8), (3, 0),
                                                          (3, 8), (4, 0)]  # fmt: skip


def test_a_turn_waits_until_the_brain_that_just_answered_listens_again() -> None:
    """A brain deaf for a while after each answer (as Rapfi) misses a TURN sent at once, not one sent after it."""
    game = play_game(fake("busy:30:0"), fake("row:8"), [], settings(), names=("A", "B"))
    assert (game.winner, game.reason) == ("black", "A (black) made five")
    unsettled = settings(settle_ms=0, time_ms=200, grace_ms=200)
    game = play_game(fake("busy:1000:0"), fake("row:8"), [], unsettled, names=("A", "B"))
    assert (game.winner, game.reason) == ("white", "A (black) lost: no answer in 200 + 200 ms")
    assert len(game.moves) == 2


def test_a_brain_that_exits_instead_of_moving_loses() -> None:
    game = play_game(fake("row:0"), fake("quit"), [], settings(), names=("A", "B"))
    assert (game.winner, game.reason) == ("black", "B (white) lost: crashed (exit status 0)")


def test_a_brain_that_exits_before_start_stops_the_match() -> None:
    quitter = [sys.executable, "-c", "import sys; sys.exit(4)"]
    with pytest.raises(BrainError, match=r"^A exited before answering START 9 \(exit status 4\)$"):
        play_game(quitter, fake("row:0"), [], settings(), names=("A", "B"))


def test_a_closed_brain_leaves_the_next_brains_output_whole() -> None:
    """The reading thread alone closes a brain's output: a descriptor closed under it could be the next brain's
    pipe by the time it reads, and it would take that brain's first byte (``OK`` arriving as ``K``)."""
    from plyground.arena.brain import BrainProcess

    answers = []
    for _ in range(30):
        brain = BrainProcess(fake("row:0"))
        brain.send("START 9")
        answers.append(brain.answer(30))
        brain.close()
        assert not brain._reader.is_alive() and brain._process.stdout is not None and brain._process.stdout.closed
    assert answers == ["OK"] * 30


def test_a_bad_opening_or_setting_is_an_input_error() -> None:
    with pytest.raises(InvalidInputError, match="settle_ms must be at least 0, got -1"):
        settings(settle_ms=-1)
    with pytest.raises(InvalidInputError, match="opening stone 9,0 is off the 9x9 board"):
        play_game(fake("row:0"), fake("row:8"), [(9, 0)], settings())
    with pytest.raises(InvalidInputError, match="unknown Gomocup rule 2"):
        settings(rule=2)
    with pytest.raises(InvalidInputError, match="5x5 to 20x20, got 4"):
        settings(size=4)


def test_records_are_read_back() -> None:
    game = Game("A", "B", [(4, 4)], [Move(4, 4), Move(0, 8, 12.4), Move(0, 0, 3.0)], winner=None, reason="the end")
    text = record_text(game, 1, settings(white_ms=100), {"black": "first", "white": 'a "quoted" brain'})
    [record] = read_records(text + text.replace('[Game "1"]', '[Game "2"]'))[:1]
    assert record["moves"] == [(4, 4), (0, 8), (0, 0)]
    assert (record["Result"], record["TimeMs"], record["White"]) == ("1/2-1/2", "2000/100", "a 'quoted' brain")
    assert "2. 0,8 {12 ms}" in text
    with pytest.raises(CorruptFileError, match="not a game record"):
        read_records('[Black "x"]\n1. 7,7 {1 ms}')
