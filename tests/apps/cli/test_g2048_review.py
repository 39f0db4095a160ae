"""``plyground 2048 review``: a saved game's last moves searched again, the costliest listed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from plyground.g2048.expectimax import Expectimax
from plyground.g2048.game import Game
from plyground.g2048.heuristic import Heuristic
from tests.apps.cli.test_main import assert_one_line_error, run_cli


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3x3 game played to its end by the heuristic searching 2 deep, saved."""
    game = Game(3, 3, seed=5)
    with Expectimax(depth=2, workers=1, evaluator=Heuristic()) as ai:
        while not game.over:
            decision = ai.choose(game.board)
            assert decision.move is not None
            game.step(decision.move)
    path = tmp_path_factory.mktemp("review") / "game.json"
    game.replay.save(path)
    return path


def review(capsys: pytest.CaptureFixture[str], replay: Path, *args: str) -> dict[str, Any]:
    status, out, err = run_cli(capsys, "2048", "review", str(replay), "--evaluator", "heuristic", "--json", *args)
    assert status == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def test_the_games_own_player_would_have_played_every_move_as_it_did(
    capsys: pytest.CaptureFixture[str], replay: Path
) -> None:
    line = review(capsys, replay, "--depth", "2", "--last", "25")
    assert (line["reviewed"], line["depth"], line["played_otherwise"], line["total_cost"]) == (25, 2, 0, 0.0)
    rows = line["rows"]
    assert isinstance(rows, list) and [row["number"] for row in rows] == list(
        range(int(line["moves"]) - 24, int(line["moves"]) + 1)
    )  # type: ignore[call-overload]


def test_another_search_lists_the_costliest_moves_first(capsys: pytest.CaptureFixture[str], replay: Path) -> None:
    line = review(capsys, replay, "--depth", "1", "--top", "3")
    costliest = line["costliest"]
    costs = [row["cost"] for row in costliest]
    assert 0 < len(costs) == min(3, line["played_otherwise"])
    assert costs == sorted(costs, reverse=True) and all(row["played"] != row["best"] for row in costliest)
    assert line["total_cost"] >= costs[0] > 0


def test_the_table_says_how_often_the_search_differs(capsys: pytest.CaptureFixture[str], replay: Path) -> None:
    status, out, err = run_cli(capsys, "2048", "review", str(replay), "--evaluator", "heuristic", "--depth", "2")
    assert status == 0, err
    assert "the search would have played otherwise 0 times in" in out and "costs sum to 0.0" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [(None, "no replay at"), ("{", ""), ('{"format": "plyground.g2048.replay"}', "")],
)
def test_a_missing_or_damaged_replay_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str | None, message: str
) -> None:
    path = tmp_path / "replay.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    status, out, err = run_cli(capsys, "2048", "review", str(path))
    assert status != 0 and out == ""
    assert_one_line_error(err, message)
