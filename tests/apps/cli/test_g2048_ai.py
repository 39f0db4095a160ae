"""``plyground 2048 ai`` and ``hint``, and the rich views they print (small boards, shallow searches)."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from plyground.apps import aiview
from plyground.core.stats import reach_tiles
from plyground.g2048 import DIRECTIONS, Board, Game, Replay, default_weights, evaluate
from plyground.g2048 import autoplay as autoplay_module
from plyground.g2048.autoplay import GameResult, play_game, summarize
from plyground.g2048.expectimax import Decision, Expectimax
from plyground.g2048.heuristic import FEATURES, Heuristic
from tests.apps.cli.test_main import assert_one_line_error, run_cli

SMALL = ("--rows", "2", "--cols", "3", "--depth", "1")
HINT_BOARD = "2 2 0/0 4 0/0 0 8"
BAD_KEYS = '{"format": "plyground.g2048.weights", "version": 1, "weights": {"empty": 1}}'
HUGE = default_weights().to_json().replace('"empty": 540.0', '"empty": 1e308')  # finite, but overflows a sum
HELPS = [["2048", "--help"], ["2048", "ai", "--help"], ["2048", "hint", "--help"]]


def expected_games(seeds: range, depth: int = 1, rows: int = 2, cols: int = 3) -> dict[int, GameResult]:
    with Expectimax(depth=depth, workers=1) as ai:
        return {seed: play_game(ai, rows=rows, cols=cols, seed=seed) for seed in seeds}


def table_rows(out: str) -> dict[int, list[str]]:
    """The rows of the per-game table, by seed: [game, seed, score, max tile, moves, seconds, mean depth]."""
    rows = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
        if len(cells) == 7 and cells[0].isdigit():
            rows[int(cells[1])] = cells
    return rows


def test_ai_plays_seeded_games_and_prints_the_table_and_shares(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run_cli(capsys, "2048", "ai", "--games", "3", *SMALL, "--seed", "5", "--save", str(tmp_path))
    assert status == 0, err
    assert "Traceback" not in err
    for header in ("game", "seed", "score", "max tile", "moves", "seconds"):
        assert header in out
    expected = expected_games(range(5, 8))
    rows = table_rows(out)
    assert sorted(rows) == [5, 6, 7]
    for seed, result in expected.items():
        assert rows[seed][2:5] == [f"{result.score:,}", str(result.max_tile), f"{result.moves:,}"]
    summary = summarize(expected.values())
    assert summary.interval is not None
    text = " ".join(out.split())
    assert f"mean score {summary.mean_score:,.0f} (95% interval {summary.interval[0]:,.0f}" in text
    assert "median score" in out
    assert "reached" not in out  # a 2x3 board holds tiles up to 128: no tile of the reach list

    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == [f"2048-2x3-seed{seed}.json" for seed in (5, 6, 7)]
    for seed, result in expected.items():
        game = Replay.load(tmp_path / f"2048-2x3-seed{seed}.json").play()
        assert game.over and game.seed == seed
        assert (game.score, game.move_count) == (result.score, result.moves)


def test_one_game_without_a_terminal_prints_the_board_and_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "2048", "ai", *SMALL, "--seed", "9")
    assert status == 0
    result = expected_games(range(9, 10))[9]
    board = result.replay.play().board
    assert out.startswith("+----+")
    assert f"| {board[0, 0] or '.':>2} |" in out.splitlines()[1]
    assert table_rows(out)[9][2] == f"{result.score:,}"
    assert "one game: no interval" in out


def test_without_a_seed_each_game_gets_a_fresh_recorded_seed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run_cli(capsys, "2048", "ai", "--games", "2", *SMALL, "--save", str(tmp_path))
    assert status == 0
    seeds = sorted(table_rows(out))
    assert len(seeds) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(f"2048-2x3-seed{s}.json" for s in seeds)


def test_one_game_on_a_terminal_is_shown_live(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    status, out, _ = run_cli(capsys, "2048", "ai", "--rows", "3", "--cols", "3", "--depth", "2", "--seed", "4")
    assert status == 0
    result = expected_games(range(4, 5), depth=2, rows=3, cols=3)[4]
    text = " ".join(re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", out).split())
    assert f"score {result.score:,}, max tile {result.max_tile}, {result.moves:,} moves in" in text
    assert text.endswith("seed 4")
    assert "┌──────┬──────┬──────┐" in out  # the final board


def interrupting(after_games: int, *, moves: int | None = None) -> Callable[..., GameResult]:
    """A play_game that plays ``after_games`` games, then is interrupted (after ``moves`` moves of the next)."""
    real = play_game
    played = 0

    def play(ai: Expectimax, **kwargs: Any) -> GameResult:
        nonlocal played
        if played == after_games:
            if moves is not None:
                real(ai, max_moves=moves, **kwargs)
            raise KeyboardInterrupt
        played += 1
        return real(ai, **kwargs)

    return play


def test_ctrl_c_prints_the_finished_games_and_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(autoplay_module, "play_game", interrupting(2))
    status, out, err = run_cli(capsys, "2048", "ai", "--games", "5", *SMALL, "--seed", "5")
    assert status == 130
    assert "interrupted: 2 of 5 games finished" in err
    assert sorted(table_rows(out)) == [5, 6]
    assert "median score" in out  # the summary of the finished games (no reach row on 2x3)


def test_ctrl_c_before_any_game_ends(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(autoplay_module, "play_game", interrupting(0))
    status, out, err = run_cli(capsys, "2048", "ai", "--games", "2", *SMALL)
    assert status == 130
    assert "interrupted: 0 of 2 games finished" in err
    assert table_rows(out) == {}


def test_ctrl_c_in_the_live_view_shows_where_the_game_stood(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(autoplay_module, "play_game", interrupting(0, moves=3))
    status, out, err = run_cli(capsys, "2048", "ai", *SMALL)
    assert status == 130
    assert "interrupted after 3 moves" in err
    assert "┌──────┬──────┬──────┐" in out


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("make", "part"),
    [
        (lambda tmp: tmp / "missing.json", "does not exist"),
        (lambda tmp: write(tmp / "w.json", "{not json"), "is not valid JSON"),
        (lambda tmp: write(tmp / "w.json", BAD_KEYS), "missing"),
        (lambda tmp: write(tmp / "w.json", '{"format": "other"}'), "not a 2048 weights file"),
        (
            lambda tmp: write(tmp / "w.json", '{"format": "plyground.g2048.weights", "version": 2}'),
            "written by a newer plyground",
        ),
        (lambda tmp: tmp, "cannot read weights file"),
        (lambda tmp: write(tmp / "w.json", HUGE), "'empty' must be a finite number from -1,000,000,000 to"),
    ],
)
@pytest.mark.parametrize("command", [["ai", *SMALL], ["hint", HINT_BOARD, "--depth", "1"]])
def test_a_bad_weights_file_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: Callable[[Path], Path], part: str, command: list[str]
) -> None:
    path = make(tmp_path)
    status, out, err = run_cli(capsys, "2048", *command, "--weights", str(path))
    assert status == 2
    assert out == ""
    assert_one_line_error(err, part, str(path))
    assert err.count(str(path)) == 1  # named once: "error: w.json: w.json is not valid JSON" named it twice


def test_a_weights_file_is_used(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    weights = dataclasses.replace(default_weights(), empty=123.0, merges=0.0)
    weights.save(tmp_path / "w.json")
    status, out, _ = run_cli(
        capsys, "2048", "hint", HINT_BOARD, "--depth", "2", "--json", "--weights", str(tmp_path / "w.json")
    )
    assert status == 0
    data = json.loads(out)
    board = Board.parse(HINT_BOARD)
    assert data["evaluation"]["contributions"]["empty"] == 123.0 * len(board.empty_cells())
    with Expectimax(depth=2, evaluator=Heuristic(weights), workers=1) as ai:
        assert data["values"] == ai.choose(board).values
    status, out, _ = run_cli(capsys, "2048", "ai", *SMALL, "--seed", "1", "--weights", str(tmp_path / "w.json"))
    assert status == 0 and "one game" in out


def test_save_into_a_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "file", "")
    status, _, err = run_cli(capsys, "2048", "ai", *SMALL, "--save", str(path))
    assert status == 2
    assert_one_line_error(err, "is a file")


@pytest.mark.parametrize(
    ("args", "part"),
    [
        (["--games", "0"], "'--games'"),
        (["--depth", "0"], "'--depth'"),
        (["--rows", "5"], "'--rows'"),
        (["--p-four", "2"], "'--p-four'"),
        (["--workers", "0"], "'--workers'"),
        (["--time-ms", "0"], "'--time-ms': must be a number more than 0"),
        (["--time-ms", "-5"], "'--time-ms': must be a number more than 0"),
        (["--depth", "2", "--time-bank"], "--time-bank makes --time-ms a mean: give --time-ms"),
    ],
)
def test_ai_bad_options_are_one_line_errors(capsys: pytest.CaptureFixture[str], args: list[str], part: str) -> None:
    status, _, err = run_cli(capsys, "2048", "ai", *args)
    assert status == 2
    assert_one_line_error(err, part)


def test_hint_lists_the_moves_best_first_with_the_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "2048", "hint", HINT_BOARD, "--depth", "2")
    assert status == 0, err
    board = Board.parse(HINT_BOARD)
    with Expectimax(depth=2, workers=1) as ai:
        decision = ai.choose(board)
    ranked = sorted(decision.values, key=lambda move: (-decision.values[move], DIRECTIONS.index(move)))
    lines = out.splitlines()
    assert lines[0] == "+---+---+---+"
    assert f"best move: {decision.move}" in lines
    listed = [line.split()[0] for line in lines if line.startswith("  ") and line.split()[0] in DIRECTIONS]
    assert listed == ranked and ranked[0] == decision.move
    chosen = [line for line in lines if line.endswith("<- chosen")]
    assert len(chosen) == 1 and chosen[0].split()[0] == decision.move
    assert any(line.startswith("depth 2 completed: ") and " nodes, " in line for line in lines)
    evaluation = evaluate(board)
    for name in FEATURES:
        assert any(line.split()[:2] == [name, f"{evaluation.contributions[name]:,.1f}"] for line in lines), name
    assert any(line.split() == ["total", f"{evaluation.total:,.1f}"] for line in lines)


@pytest.mark.parametrize(("board", "depth"), [(HINT_BOARD, 2), ("2 0 0 0/0 4 0 0/0 0 0 0/2 0 0 8", 1), ("2 4/2 8", 3)])
def test_hint_json_matches_the_search(capsys: pytest.CaptureFixture[str], board: str, depth: int) -> None:
    args = ("--depth", str(depth), "--json", "--workers", "2", "--evaluator", "heuristic")
    status, out, _ = run_cli(capsys, "2048", "hint", board, *args)
    assert status == 0
    data = json.loads(out)
    parsed = Board.parse(board)
    with Expectimax(depth=depth, workers=1, evaluator=Heuristic()) as ai:
        decision = ai.choose(parsed)
    assert set(data) == {
        "board", "searched", "evaluator", "best", "unit", "depth", "move_depths", "values", "nodes",
        "tt_hits", "seconds", "evaluation",
    }  # fmt: skip
    assert data["move_depths"] == decision.move_depths == dict.fromkeys(decision.values, depth)
    assert data["evaluator"] == "heuristic" and data["unit"] == "heuristic units"
    assert data["searched"] is None  # the heuristic searches the board as it is
    assert data["board"] == parsed.to_text()
    assert data["best"] == decision.move and data["depth"] == decision.depth
    assert data["values"] == decision.values
    assert list(data["values"]) == sorted(decision.values, key=lambda m: (-decision.values[m], DIRECTIONS.index(m)))
    assert data["nodes"] > 0 and data["tt_hits"] >= 0 and data["seconds"] >= 0
    evaluation = evaluate(parsed)
    assert data["evaluation"]["total"] == pytest.approx(evaluation.total)
    assert data["evaluation"]["contributions"] == pytest.approx(evaluation.contributions)


def test_hint_marks_the_moves_that_a_depth_cut_short_finished() -> None:
    from plyground.apps.cli.g2048_hint import _hint_text

    values = {"up": 10.0, "right": 7.0, "down": 4.0}
    decision = Decision("up", values, depth=4, move_depths={"up": 5, "right": 5, "down": 4}, nodes=9, seconds=0.02)
    lines = _hint_text(decision, list(values.items()), "points", empty=False).splitlines()
    assert lines[2].split() == ["up", "10.0", "(depth", "5)", "<-", "chosen"]
    assert lines[3].split() == ["right", "7.0", "(depth", "5)"]
    assert lines[4].split() == ["down", "4.0"]
    assert lines[5].startswith("depth 4 completed (2 of the moves to depth 5): 9 nodes")


def test_hint_with_a_time_budget(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "2048", "hint", "2 0/0 2", "--time-ms", "20", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["best"] in DIRECTIONS and data["depth"] >= 1


def test_hint_on_a_finished_board(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "2048", "hint", "2 4/4 2", "--depth", "2")
    assert status == 0
    assert "no legal move: the game is over" in out
    assert "total" in out and "in heuristic units" in out
    status, out, _ = run_cli(capsys, "2048", "hint", "2 4/4 2", "--json")
    assert status == 0
    data = json.loads(out)
    assert "move" not in data and data["values"] == {} and data["depth"] == 0
    assert data["best"] is None


def test_hint_on_a_finished_4x4_board_with_the_network(capsys: pytest.CaptureFixture[str]) -> None:
    finished = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2"
    status, out, err = run_cli(capsys, "2048", "hint", finished, "--depth", "1")
    assert status == 0, err
    assert out.rstrip().endswith("no legal move: the game is over")
    assert "heuristic" not in out and "network value" not in out
    status, out, err = run_cli(capsys, "2048", "hint", finished, "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["evaluator"] == "network" and data["best"] is None and data["values"] == {}


def test_hint_on_an_empty_board_says_so_and_prints_no_negative_zero(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "2048", "hint", "0 0/0 0", "--depth", "1")
    assert status == 0, err
    assert "no legal move: the board is empty, no tile to move" in out
    assert "game over" not in out and "-0.0" not in out
    assert "heuristic value of the board, in heuristic units:" in out
    status, out, _ = run_cli(capsys, "2048", "hint", "0 0/0 0", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["best"] is None and "-0.0" not in out


def test_hint_names_the_unit_of_its_values(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "2048", "hint", HINT_BOARD, "--depth", "1")
    assert status == 0, err
    assert "  move    expected value, in heuristic units (not points)" in out.splitlines()


@pytest.mark.parametrize(("board", "part"), [("2 3/2 2", "invalid tile 3"), ("2 2 2 2 2/0 0 0 0 0", "not supported")])
@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_hint_on_a_bad_board_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], board: str, part: str, extra: list[str]
) -> None:
    status, out, err = run_cli(capsys, "2048", "hint", board, *extra)
    assert status == 2
    assert out == ""
    assert_one_line_error(err, part)


def test_the_help_lists_the_ai_commands(capsys: pytest.CaptureFixture[str]) -> None:
    # that the help does not import numba is checked with the other helps in test_cli.py
    printed = ""
    for args in HELPS:
        status, out, _ = run_cli(capsys, *args)
        assert status == 0
        printed += out
    for part in (" ai ", " hint ", "--games", "--time-ms", "--save", "--json"):
        assert part in printed, part


def render(renderable: Any) -> str:
    console = Console(width=100, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def test_the_live_view_shows_the_game_and_the_last_decision() -> None:
    view = aiview.LiveGame("2048 3x3")
    assert view.last is None
    assert "waiting for the first move" in render(view.renderable())
    game = Game(3, 3, seed=1)
    with Expectimax(depth=1, workers=1) as ai:
        decision = ai.choose(game.board)
    assert decision.move is not None
    game.step(decision.move)
    view.update(game, decision)
    text = render(view.renderable())
    assert "2048 3x3" in text
    for label in ("score", "moves", "max tile", "last move", "depth", "mean depth 1.00", "moves/s"):
        assert label in " ".join(text.split())
    assert decision.move in text
    assert view.last == (game.board, game.score, 1)
    with Expectimax(depth=2, workers=1) as ai:
        deeper = ai.choose(game.board)
    assert deeper.move is not None
    game.step(deeper.move)
    view.update(game, deeper)
    assert "mean depth 1.50" in " ".join(render(view.renderable()).split())  # (1 + 2) / 2 moves


def test_the_summary_view_of_one_game() -> None:
    replay = Replay(4, 4, seed=3)
    summary = summarize([GameResult(3, 1234, 2048, 100, 2.5, 3.0, replay)])
    text = render(aiview.summary_view(summary, title="title here"))
    assert "title here" in text
    assert "1,234 (one game: no interval)" in text
    assert "reached 2048" in text and "100% (1/1)" in text
    line = aiview.result_line(summary.results[0])
    assert line == "score 1,234, max tile 2048, 100 moves in 2.5 s (40 moves/s), mean depth 3.0, seed 3"


def test_tile_styles_cover_every_exponent() -> None:
    styles = {aiview.tile_style(e) for e in range(16)}
    assert len(styles) == 16


def test_the_summary_keeps_every_seed_whole_in_80_columns() -> None:
    results = [GameResult(2**63 - 1 - i, 1_234_567, 65536, 123_456, 12_345.67, 12.5, Replay()) for i in range(3)]
    console = Console(width=80, color_system=None)
    with console.capture() as capture:
        console.print(aiview.summary_view(summarize(results), title=None))
    text = capture.get()
    assert "…" not in text and all(len(line) <= 80 for line in text.splitlines())
    for result in results:
        assert str(result.seed) in text
    assert "1,234,567" in text and "123,456" in text and "12345.67" in text


def test_ai_prints_json_or_csv_for_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    expected = expected_games(range(5, 7))
    status, out, err = run_cli(capsys, "2048", "ai", "--games", "2", *SMALL, "--seed", "5", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["title"] == "2048 2x3, expectimax depth 1" and data["games"] == 2
    assert [game["seed"] for game in data["results"]] == [5, 6]
    assert [game["score"] for game in data["results"]] == [expected[seed].score for seed in (5, 6)]
    assert data["mean_score"] == summarize(expected.values()).mean_score
    assert set(data["reach"]) == {str(tile) for tile in reach_tiles(2, 3)}  # the tiles a 2x3 board can hold
    status, out, err = run_cli(capsys, "2048", "ai", "--games", "2", *SMALL, "--seed", "5", "--csv")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "game,seed,score,max_tile,moves,seconds,mean_depth,table_moves"
    assert [line.split(",")[:3] for line in lines[1:]] == [
        ["1", "5", str(expected[5].score)],
        ["2", "6", str(expected[6].score)],
    ]
    status, _, err = run_cli(capsys, "2048", "ai", *SMALL, "--json", "--csv")
    assert status == 2
    assert_one_line_error(err, "--json or --csv")


def test_a_long_title_is_printed_whole(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    status, out, err = run_cli(capsys, "2048", "ai", "--games", "2", *SMALL, "--seed", str(2**63 - 10))
    assert status == 0, err
    assert out.splitlines()[0] == "2048 2x3, expectimax depth 1"
    assert str(2**63 - 10) in out and str(2**63 - 9) in out and "…" not in out


def test_ai_with_a_time_bank_plays_at_its_budget_on_average(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.g2048 import expectimax

    real, banked = expectimax.next_bank, []

    def counted(*bank_args: float) -> float:
        banked.append(real(*bank_args))
        return banked[-1]

    monkeypatch.setattr(expectimax, "next_bank", counted)
    args = ("2048", "ai", "--games", "2", "--rows", "3", "--cols", "3", "--time-ms", "5", "--workers", "1")
    status, out, err = run_cli(capsys, *args, "--seed", "4", "--time-bank", "--evaluator", "heuristic", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert data["title"] == "2048 3x3, expectimax 5 ms/move (mean, time bank)"
    seconds = sum(game["seconds"] for game in data["results"])
    moves = sum(game["moves"] for game in data["results"])
    assert moves > 20 and 0.5 < 1000 * seconds / moves / 5 < 2  # the mean at the budget, within the bank's bounds
    assert len(banked) == moves  # the engine kept the bank: one update a move


def test_a_game_of_one_move_is_one_move() -> None:
    line = aiview.result_line(GameResult(7, 4, 4, 1, 0.5, 1.0, Replay(2, 2, seed=7)))
    assert "1 move in 0.5 s" in line and "1 moves" not in line
    assert "2 moves in" in aiview.result_line(GameResult(7, 8, 4, 2, 0.5, 1.0, Replay(2, 2, seed=7)))
