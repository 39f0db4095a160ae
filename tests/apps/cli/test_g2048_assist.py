"""``plyground 2048 assist``: hints for a game played elsewhere, driven through stdin."""

from __future__ import annotations

import io

import pytest

from plyground.apps.assist import assist, read_tile
from plyground.errors import InvalidInputError
from plyground.g2048 import Board, Expectimax
from plyground.g2048.heuristic import Heuristic
from tests.apps.cli.test_main import assert_one_line_error, run_cli

START = "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0"


def run_with_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str,
                   *args: str) -> tuple[int, str, str]:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return run_cli(capsys, "2048", "assist", "--depth", "1", "--evaluator", "heuristic", *args)


def test_a_game_played_elsewhere_is_followed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        first = ai.choose(Board.parse(START)).move
    status, out, err = run_with_input(
        capsys,
        monkeypatch,
        f"{START}\nleft 4 4 2\nright 1 1 4\n",
    )
    assert status == 0, err
    assert f"best move: {first}" in out
    assert "expected value, in heuristic units (not points)" in out
    assert out.strip().splitlines()[-1].startswith("2 moves, ")
    # After "left 4 4 2" the board is 4 . . . / . . . . / . . . . / . . . 2; then the suggested move and a 4.
    assert "| 4 | . | . | . |" in out


def test_bad_lines_are_said_and_asked_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = (
        "2 2 9 0/0 0 0 0/0 0 0 0/0 0 0 0\n" + START + "\n1 2\nsideways 1 1 2\nleft 1 1 2\nleft 1 4 8\nleft 9 9 2\nq\n"
    )
    status, out, err = run_with_input(capsys, monkeypatch, lines)
    assert status == 0, err
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert len(errors) == 6, out
    assert "give the new tile as ROW COLUMN VALUE" in errors[1]
    assert "unknown move 'sideways'" in errors[2]
    assert "row 1, column 1 is not empty after left" in errors[3]
    assert "a new tile is a 2 or a 4, got 8" in errors[4]
    assert "row and column go from 1 to 4" in errors[5]
    assert out.strip().splitlines()[-1] == "0 moves, 0 points scored, max tile 2"
    assert "Traceback" not in out + err


def test_a_whole_board_starts_again_and_game_over_stops(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    status, out, err = run_with_input(
        capsys,
        monkeypatch,
        f"{START}\n2 4/4 8\n",
    )
    assert status == 0, err
    assert "game over: no move is left" in out


def test_the_max_tile_is_the_board_s_after_a_whole_board_starts_again() -> None:
    lines = iter(["left 1 3 2", "2 0 0/0 0 0/0 0 0", "q"])
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        summary = assist(
            ai, lambda prompt: next(lines, None), lambda line: None, board=Board.parse("2 2 0/0 0 0/0 0 0")
        )
    assert (summary.moves, summary.score, summary.max_tile) == (1, 4, 2)
    assert summary.line() == "1 move, 4 points scored, max tile 2"


def test_the_board_option_and_the_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run_with_input(capsys, monkeypatch, "", "--board", "2 0 0/0 0 0/0 0 2")
    assert status == 0, err
    assert "best move:" in out and out.strip().splitlines()[-1] == "0 moves, 0 points scored, max tile 2"
    status, out, err = run_with_input(capsys, monkeypatch, "", "--board", "2 0 3/0 0 0/0 0 2")
    assert status == 2
    assert_one_line_error(err)


def test_with_the_network_a_downgraded_boards_values_say_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    late = "16384 8192 4096 64/2 4 8 16/0 0 0 0/0 0 0 2"  # 2048 missing: the search halves the three largest
    for board, label in [(late, "expected future score of the board searched (tiles above the largest missing one "
                                "halved), in points"), (START, "expected future score, in points: ")]:  # fmt: skip
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        status, out, err = run_cli(capsys, "2048", "assist", "--depth", "1", "--board", board)
        assert status == 0, err
        assert label in out


def test_read_tile() -> None:
    board = Board.parse("2 2 0/0 0 0/0 0 4")
    assert read_tile("r 3 1 4", board, "left")[1] == Board.parse("0 0 4/0 0 0/4 0 4")
    assert read_tile("1,3,2", board, "left")[1] == Board.parse("4 0 2/0 0 0/4 0 0")
    with pytest.raises(InvalidInputError, match="up does not move any tile"):
        read_tile("up 3 3 2", Board.parse("2 4/0 0"), "left")


def test_the_exchange_without_a_terminal() -> None:
    answers = iter([START, "left 1 4 2", "left 2 1 2"])
    said: list[str] = []
    with Expectimax(depth=1, workers=1) as ai:
        summary = assist(ai, lambda prompt: next(answers, None), said.append)
    assert (summary.moves, summary.score, summary.max_tile) == (2, 4, 4)
    assert sum(line.startswith("best move: ") for line in said) == 3
