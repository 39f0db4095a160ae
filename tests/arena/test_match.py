"""The match runner: brains named once, seeded openings, each opening with both colours, the summary."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from plyground.arena import (
    Brain,
    Settings,
    game_json,
    openings_for,
    parse_brain,
    play_match,
    read_openings,
    schedule,
    summarize,
    wilson,
)
from plyground.errors import BrainError, BrainNotFoundError, InvalidInputError

FAKE = Path(__file__).resolve().parents[1] / "data" / "fake_gomocup_brain.py"


def fake(mode: str, log: Path | None = None) -> Brain:
    return parse_brain(f"{sys.executable} {FAKE} {mode}" + (f" {log}" if log is not None else ""), mode)


def test_wilson_interval() -> None:
    assert wilson(0, 0) is None
    interval = wilson(5, 10)
    assert interval is not None and (round(interval[0], 3), round(interval[1], 3)) == (0.237, 0.763)
    assert wilson(2, 2) == (pytest.approx(0.342, abs=1e-3), 1.0)
    assert wilson(0, 2) == (0.0, pytest.approx(0.658, abs=1e-3))


def test_openings_are_seeded_and_quiet() -> None:
    first = openings_for("random:3", 8, 15, 1)
    assert len(first) == 4 and first == openings_for("random:3", 8, 15, 1)
    assert first != openings_for("random:3", 8, 15, 2)
    assert all(len(set(o)) == 3 and all(5 <= x <= 9 and 5 <= y <= 9 for x, y in o) for o in first)
    assert openings_for("empty", 3, 15, 1) == [[], []]
    assert [number for number, _, _ in schedule(first, 3)] == [1, 2, 3]
    assert [a_black for _, _, a_black in schedule(first, 3)] == [True, False, True]
    assert [opening for _, opening, _ in schedule(first, 4)] == [first[0], first[0], first[1], first[1]]
    with pytest.raises(InvalidInputError, match="random:N needs N from 1 to 8"):
        openings_for("random:9", 2, 15, 1)


def test_a_bad_openings_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# three stones\n7,7 8,8 6,6\n\n7,7 7,7\n")
    with pytest.raises(InvalidInputError, match=r"openings.txt:4: 7,7 is off the 15x15 board, taken or after five"):
        read_openings(path, 15)
    path.write_text("7,7 8,8 6,6  # a comment\n1,1\n")
    assert read_openings(path, 15) == [[(7, 7), (8, 8), (6, 6)], [(1, 1)]]
    assert openings_for(str(path), 5, 15, 1) == [[(7, 7), (8, 8), (6, 6)], [(1, 1)], [(7, 7), (8, 8), (6, 6)]]
    path.write_text("7,7 x\n")
    with pytest.raises(InvalidInputError, match=r"openings.txt:1: 'x' is not x,y"):
        read_openings(path, 15)
    with pytest.raises(InvalidInputError, match="cannot read the openings /no/such/file"):
        read_openings(Path("/no/such/file"), 15)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("plyground:nobody", "A: unknown plyground player 'nobody'; the players are engine, mcts, "),
        ("plyground:human", "A: unknown plyground player 'human'"),
        ("/no/such/brain", "A: no executable brain '/no/such/brain'"),
        ("", "A: empty brain"),
        ("'plyground:random", 'A: No closing quotation in "\'plyground:random"'),
    ],
)
def test_bad_brains_are_named(spec: str, message: str) -> None:
    with pytest.raises(BrainNotFoundError) as raised:
        parse_brain(spec, "A")
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


def test_a_plyground_player_is_its_own_brain_with_its_options() -> None:
    brain = parse_brain("plyground:alphabeta --depth 3")
    assert brain.name == "plyground:alphabeta --depth 3"
    assert brain.command[1:] == ("-m", "plyground.apps.cli.main", "kinrow", "pbrain", "--player", "alphabeta",
                                 "--depth", "3")  # fmt: skip


def test_each_opening_is_played_with_both_colours(tmp_path: Path) -> None:
    """A plays row 0 and B row 8: the side with black makes five first, from each opening."""
    openings = [[(4, 4)], [(3, 3)]]  # white to move: the side with white makes five first
    seen = []
    result = play_match(
        fake("row:0"), fake("row:8"), openings, Settings(size=9, time_ms=2000), games=3, on_game=seen.append
    )
    assert not result.interrupted and [item.number for item in result.games] == [1, 2, 3]
    assert sorted(item.number for item in seen) == [1, 2, 3]
    assert [item.game.opening for item in result.games] == [[(4, 4)], [(4, 4)], [(3, 3)]]
    assert [item.a_black for item in result.games] == [True, False, True]
    assert [item.game.winner for item in result.games] == ["white", "white", "white"]
    assert [game_json(item)["result"] for item in result.games] == ["b", "a", "b"]
    assert result.games[1].players == {"black": "B", "white": "A"}
    summary = summarize(result.games)
    assert (summary["a_wins"], summary["draws"], summary["a_losses"]) == (1, 0, 2)
    assert summary["a_score"] == pytest.approx(1 / 3) and summary["endings"] == {"made five": 3}
    assert summary["mean_moves"] == 9 and summary["a_max_ms"] >= summary["a_mean_ms"] >= 0


def test_time_odds_follow_the_brain_not_the_colour(tmp_path: Path) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    result = play_match(
        fake("row:0", logs[0]), fake("row:8", logs[1]), [[]], Settings(size=9, time_ms=900), games=2, b_time_ms=700
    )
    assert [item.settings.time_ms for item in result.games] == [900, 700]  # black's
    assert [item.settings.white_ms for item in result.games] == [700, 900]
    assert logs[0].read_text().count("INFO timeout_turn 900") == 2
    assert logs[1].read_text().count("INFO timeout_turn 700") == 2


def test_a_brain_that_cannot_play_stops_the_match_and_parallel_games_run() -> None:
    with pytest.raises(BrainError, match="B refused START 9: ERROR no thanks"):
        play_match(fake("row:0"), fake("refuse"), [[], []], Settings(size=9), games=4, at_once=2)
    result = play_match(fake("row:0"), fake("garbage"), [[], []], Settings(size=9), games=4, at_once=2)
    assert summarize(result.games)["a_wins"] == 4 and summarize([])["a_score"] is None
