"""``plyground kinrow``: play with a scripted person, self-play tables, the brain command, bad options."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from plyground.kinrow import players
from plyground.kinrow.board import State
from plyground.kinrow.players import PLAYER_KINDS, FirstLegalPlayer, Player, RandomPlayer
from plyground.kinrow.selfplay import MATCH_FORMAT, GameRecord, MatchSummary, match_json, play_match
from tests.apps.cli.test_main import assert_one_line_error, run_cli

BOARD_5 = ["   a b c d e", " 1 . . . . .", " 2 . . . . .", " 3 . . . . .", " 4 . . . . .", " 5 . . . . ."]


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str, *args: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return run_cli(capsys, "kinrow", "play", "--n", "5", "--k", "4", "--opponent", "first_legal", *args)


def test_the_person_wins_against_first_legal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = play(capsys, monkeypatch, "e2\ne3\ne4\ne5\n")
    assert status == 0, err
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == "k-in-a-row on 5x5, 4 in a row wins: you are X and move first; the AI (first_legal) is O."
    assert lines[2:8] == BOARD_5
    assert lines[8] == "your move (X): e2"
    assert "O (first_legal) plays a1 (0.00 s)" in lines
    assert "O (first_legal) plays c1 (0.00 s)" in lines
    assert lines[-7:] == [
        "   a b c d e",
        " 1 O O O . .",
        " 2 . . . . X",
        " 3 . . . . X",
        " 4 . . . . X",
        " 5 . . . . X",
        "X wins after 7 moves: you win!",
    ]


def test_the_ai_moves_first_and_wins(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = play(capsys, monkeypatch, "e5\ne4\ne3\n", "--first", "ai")
    assert status == 0
    assert "the AI (first_legal) is X" in out and "you are O and move second" in out
    assert out.splitlines()[-1] == "X (first_legal) wins after 7 moves."


def test_bad_moves_are_explained_and_asked_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = play(capsys, monkeypatch, "zz\nf1\na0\n5,0\na1\n\nc3\nc3\nhelp\nquit\n")
    assert status == 0
    assert "cannot read a move from 'zz': write it like c2 (column, row from 1) or 1,2 (row, column from 0)" in out
    assert "f1 is off the 5x5 board: its columns are a to e, its rows 1 to 5" in out  # in the notation typed
    assert "a0 is off the 5x5 board: its columns are a to e, its rows 1 to 5" in out
    assert "5,0 is off the 5x5 board: row and column are from 0 to 4" in out
    assert "a1 is taken" not in out  # a1 is empty when the person moves first...
    assert "c3 is taken" in out
    assert "'undo' to take back" in out
    assert out.splitlines()[-1] == "game left after 4 moves"


def test_undo_takes_back_a_pair_of_moves(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = play(capsys, monkeypatch, "undo\nc3\nundo\nd4\nquit\n")
    assert status == 0
    assert "nothing to undo: you have not moved yet" in out
    assert "took back your last move and the AI's reply" in out
    after_undo = out.split("took back your last move and the AI's reply\n", 1)[1].splitlines()
    assert after_undo[:6] == BOARD_5
    assert out.splitlines()[-1] == "game left after 2 moves"


def test_undo_keeps_the_ais_opening_move(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = play(capsys, monkeypatch, "u\nc3\nu\nq\n", "--first", "ai")
    assert status == 0
    assert out.count("nothing to undo") == 1
    assert "took back your last move and the AI's reply" in out
    assert out.splitlines()[-1] == "game left after 1 move"


def test_the_end_of_the_input_leaves_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = play(capsys, monkeypatch, "c3\n")
    assert status == 0
    assert err == ""
    assert out.splitlines()[-1] == "game left after 2 moves"


def test_ctrl_c_leaves_cleanly(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    status, _, err = run_cli(capsys, "kinrow", "play", "--n", "5", "--k", "4", "--opponent", "random", "--seed", "1")
    assert status == 130
    assert "interrupted: game left" in err and "Traceback" not in err


def test_a_failing_ai_is_a_one_line_error(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(FirstLegalPlayer):
        def choose(self, state: State) -> int:
            raise RuntimeError("lost")

    monkeypatch.setattr("plyground.kinrow.players.make_player", lambda kind, **options: Broken())
    status, _, err = play(capsys, monkeypatch, "c3\n")
    assert status == 1
    assert_one_line_error(err, "O (first_legal) failed on move 2: RuntimeError: lost")


def test_play_against_mcts(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("plyground.kinrow.mcts")
    monkeypatch.setattr(sys, "stdin", io.StringIO("a1\nb1\nc1\n"))
    status, out, _ = run_cli(
        capsys, "kinrow", "play", "--n", "5", "--k", "4", "--opponent", "mcts", "--n-iterations", "50", "--seed", "1"
    )
    assert status == 0
    assert "the AI (mcts) is O" in out
    assert "O (mcts) plays d1" in out  # blocks a1 b1 c1
    assert out.splitlines()[-1] == "game left after 6 moves"


# -- selfplay --------------------------------------------------------------------------------------


def table_rows(out: str) -> dict[str, list[str]]:
    """The rows of the results table, by player: [side, player, wins, draws, losses, games, ms/move]."""
    rows = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
        if len(cells) == 7 and cells[2].isdigit():
            rows[cells[1]] = cells
    return rows


def test_selfplay_prints_a_line_per_game_and_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--n", "5", "--k", "4", "--x", "random", "--o", "first_legal", "--games", "3", "--seed", "2"]
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *args)
    assert status == 0, err
    assert "Traceback" not in err

    def first_legal(seed: int) -> Player:
        return FirstLegalPlayer()

    expected = play_match(RandomPlayer, first_legal, 3, 5, 4, seed=2)
    game_lines = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(game_lines) == 3
    for i, (line, record) in enumerate(zip(game_lines, expected.games, strict=True)):
        assert line.startswith(
            f"game {i + 1}/3  seed {2 + i}  X random, O first_legal: {record.describe()}  (ms/move: X "
        )
    assert "k-in-a-row 5x5, 4 in a row: random vs first_legal" in out
    rows = table_rows(out)
    for side, player in (("X", expected.first), ("O", expected.second)):
        row = rows[player.name]
        assert row[0] == side
        assert row[2:6] == [str(player.wins), str(player.draws), str(player.losses), "3"]
        assert float(row[6].replace(",", "")) >= 0


def test_selfplay_quiet_prints_only_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--n", "4", "--k", "3", "--x", "first_legal", "--o", "random", "--games", "4", "--quiet", "--swap"]
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *args, "--seed", "0")
    assert status == 0
    assert err == ""
    assert not any(line.startswith("game ") for line in out.splitlines())
    rows = table_rows(out)
    assert rows["first_legal"][0] == "X then O" and rows["random"][0] == "O then X"
    assert rows["first_legal"][5] == rows["random"][5] == "4"
    assert "changing sides" in out and "X won" in out


def test_selfplay_same_seed_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["kinrow", "selfplay", "--n", "5", "--k", "4", "--x", "random", "--o", "random"]
    args += ["--games", "2", "--seed", "9"]
    outs = []
    for _ in range(2):
        status, out, _ = run_cli(capsys, *args)
        assert status == 0
        outs.append([line.split("  (ms/move")[0] for line in out.splitlines() if line.startswith("game ")])
    assert outs[0] == outs[1] and len(outs[0]) == 2


def test_selfplay_ctrl_c_prints_the_finished_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import plyground.core.match as match_module  # each game of a match is its play_game

    real = match_module.play_game
    played: list[int] = []

    def interrupting(*args: object, **kwargs: object) -> object:
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(match_module, "play_game", interrupting)
    args = ["--n", "4", "--k", "3", "--x", "random", "--o", "random", "--games", "5", "--seed", "1"]
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *args)
    assert status == 130
    assert "interrupted: 2 of 5 games finished" in err
    assert table_rows(out)["random"][5] == "2"


def test_selfplay_mcts_against_alphabeta(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("plyground.kinrow.mcts")
    pytest.importorskip("plyground.kinrow.alphabeta")
    args = ["--n", "4", "--k", "3", "--x", "mcts", "--o", "alphabeta", "--depth", "1", "--n-iterations", "50"]
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *args, "--games", "2", "--seed", "1", "--no-symmetry")
    assert status == 0, err
    rows = table_rows(out)
    assert rows["mcts"][0] == "X" and rows["alphabeta"][0] == "O"
    assert rows["mcts"][5] == "2"


def test_a_failing_player_in_selfplay_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken(FirstLegalPlayer):
        def __init__(self) -> None:
            super().__init__()
            self.name = "broken"

        def choose(self, state: State) -> int:
            return 99

    monkeypatch.setattr("plyground.kinrow.players.make_player", lambda kind, **options: Broken())
    status, _, err = run_cli(capsys, "kinrow", "selfplay", "--n", "3", "--k", "3", "--quiet")
    assert status == 1
    assert_one_line_error(err, "X (broken) chose 99 on move 1: not a cell of the 3x3 board")


SELFPLAY_ARGS = ["--n", "5", "--k", "4", "--x", "random", "--o", "first_legal", "--games", "4", "--seed", "2", "--swap"]


def expected_match() -> MatchSummary:
    def first_legal(seed: int) -> Player:
        return FirstLegalPlayer()

    return play_match(RandomPlayer, first_legal, 4, 5, 4, seed=2, swap=True)


def test_selfplay_ends_with_the_score_and_its_interval(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *SELFPLAY_ARGS, "--quiet")
    assert status == 0, err
    expected = expected_match()
    assert out.splitlines()[-1] == f"score of random against first_legal: {expected.score.text()}"


def test_selfplay_json_for_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *SELFPLAY_ARGS, "--json")
    assert status == 0, err
    (line,) = out.splitlines()  # one object, nothing else on stdout
    data = json.loads(line)
    expected = match_json(expected_match())
    assert data["title"] == "k-in-a-row 5x5, 4 in a row: random vs first_legal, changing sides"
    for key in ("n", "k", "rule", "swap", "games", "x_wins", "o_wins", "draws", "score"):
        assert data[key] == expected[key], key
    assert [data[side]["wins"] for side in ("first", "second")] == [expected[s]["wins"] for s in ("first", "second")]
    timeless = ("x_ms_per_move", "o_ms_per_move")
    assert [{k: v for k, v in game.items() if k not in timeless} for game in data["results"]] == [
        {k: v for k, v in game.items() if k not in timeless} for game in expected["results"]
    ]


def test_selfplay_csv_for_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *SELFPLAY_ARGS, "--csv")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    expected = match_json(expected_match())["results"]
    assert [(row["game"], row["seed"], row["x"], row["result"]) for row in rows] == [
        (str(game["game"]), str(game["seed"]), game["x"], game["result"]) for game in expected
    ]


def test_selfplay_saves_each_game_and_the_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "match"
    status, _, err = run_cli(capsys, "kinrow", "selfplay", *SELFPLAY_ARGS, "--quiet", "--save", str(folder))
    assert status == 0, err
    expected = expected_match()
    names = sorted(path.name for path in folder.iterdir())
    assert names == ["kinrow-5x5-match-seed2.json", *(f"kinrow-5x5-seed{seed}.json" for seed in (2, 3, 4, 5))]
    for game in expected.games:
        saved = GameRecord.load(folder / f"kinrow-5x5-seed{game.seed}.json")
        assert replace(saved, seconds=game.seconds) == game
    summary = MATCH_FORMAT.read(folder / "kinrow-5x5-match-seed2.json")
    assert summary["games"] == 4 and summary["score"] == expected.score.to_json()
    assert summary["title"].endswith("random vs first_legal, changing sides")


def test_selfplay_interrupted_saves_and_prints_the_finished_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import plyground.core.match as match_module  # each game of a match is its play_game

    real = match_module.play_game
    played: list[int] = []

    def interrupting(*args: object, **kwargs: object) -> object:
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(match_module, "play_game", interrupting)
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *SELFPLAY_ARGS, "--json", "--save", str(tmp_path))
    assert status == 130
    assert "interrupted: 2 of 4 games finished" in err
    assert json.loads(out)["games"] == 2
    assert MATCH_FORMAT.read(tmp_path / "kinrow-5x5-match-seed2.json")["games"] == 2
    assert len(list(tmp_path.glob("kinrow-5x5-seed*.json"))) == 2


def test_selfplay_refuses_a_save_folder_that_is_a_file_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *SELFPLAY_ARGS, "--save", str(blocker))
    assert status == 2 and out == ""
    assert_one_line_error(err, f"cannot save games in {blocker}: it is a file, not a folder")


# -- time budgets ---------------------------------------------------------------------------------


def recorded_budgets(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Makes every command's players first_legal, and records the ``time_ms`` each was made with."""
    budgets: list[object] = []

    def make(kind: str, **options: object) -> Player:
        budgets.append(options.get("time_ms"))
        return FirstLegalPlayer()

    monkeypatch.setattr("plyground.kinrow.players.make_player", make)
    return budgets


SELFPLAY_3 = ["selfplay", "--n", "3", "--k", "3", "--games", "1", "--quiet"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--time-ms", "250"], 250.0),
        (["--time-ms", "0.5"], 0.5),
        ([], None),  # the players' own defaults
    ],
)
def test_selfplay_budgets_are_milliseconds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str], expected: float | None
) -> None:
    budgets = recorded_budgets(monkeypatch)
    status, _, err = run_cli(capsys, "kinrow", *SELFPLAY_3, *args)
    assert status == 0 and err == ""
    assert budgets and set(budgets) == {expected}


def test_play_thinks_2000_ms_by_default(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    budgets = recorded_budgets(monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert run_cli(capsys, "kinrow", "play", "--n", "5", "--k", "4")[0] == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert run_cli(capsys, "kinrow", "play", "--n", "5", "--k", "4", "--time-ms", "300")[0] == 0
    assert budgets == [2000.0, 300.0]


@pytest.mark.parametrize("command", [["play"], ["selfplay"], ["pbrain"]])
def test_help_shows_time_ms_and_no_budget_in_seconds(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    status, out, _ = run_cli(capsys, "kinrow", *command, "--help")
    assert status == 0
    assert "--time-ms" in out and "--time-budget" not in out


# -- bad options and help -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "part"),
    [
        (["play", "--n", "2"], "'--n'"),
        (["play", "--n", "21"], "'--n'"),
        (["play", "--rule", "gomoku"], "unknown rule 'gomoku': the rules are freestyle (0), standard (1), renju (4)"),
        (["play", "--rule", "renju", "--n", "15", "--k", "4"], "renju is played with k = 5, got k = 4"),
        (
            ["play", "--rule", "renju", "--n", "15", "--k", "5", "--opponent", "mcts"],
            "mcts plays free-style and standard, not renju: choose engine, random or first_legal",
        ),
        (["selfplay", "--rule", "4", "--x", "random"], "alphabeta plays free-style and standard, not renju"),
        (["selfplay", "--rule", ""], "unknown rule ''"),
        (["play", "--k", "2"], "'--k'"),
        (["play", "--n", "5", "--k", "6"], "k must be an integer from 3 to n = 5, got 6"),
        (["play", "--n", "9", "--k", "7"], "engine plays k from 3 to 5, got k = 7: choose alphabeta, mcts, random"),
        (["play", "--n", "9", "--k", "6", "--opponent", "mcts", "--patterns"], "mcts with patterns plays k from 3"),
        (["selfplay", "--k", "6"], "engine plays k from 3 to 5, got k = 6"),
        (["selfplay", "--n", "20", "--k", "20", "--x", "random", "--o", "engine"], "engine plays k from 3 to 5"),
        (["play", "--opponent", "deep_blue"], "'--opponent'"),
        (["play", "--opponent", "human"], "'--opponent'"),
        (["play", "--first", "nobody"], "'--first'"),
        (["play", "--time-budget", "1.5"], "--time-budget"),  # the old budget in seconds is gone: --time-ms
        (["play", "--depth", "0"], "'--depth'"),
        (["play", "--n-iterations", "0"], "'--n-iterations'"),
        (["play", "--seed", "-1"], "'--seed'"),
        (["selfplay", "--games", "0"], "'--games'"),
        (["selfplay", "--x", "human"], "'--x'"),
        (["selfplay", "--o", "nobody"], "'--o'"),
        (["selfplay", "--n", "9", "--k", "10"], "k must be an integer from 3 to n = 9, got 10"),
        *(
            ([command, "--time-ms", value], "'--time-ms'")
            for command in ("play", "selfplay", "pbrain")
            for value in ("0", "-1", "nan", "inf", "-inf", "3600001", "1e400", "soon")
        ),
        (["selfplay", "--json", "--csv"], "give --json or --csv, not both"),
        (["selfplay", "--seed", str(2**63 - 2), "--games", "3"], "the last game's seed would pass 2**63-1"),
        (["pbrain", "--player", "random_walk"], "'--player'"),
        (["pbrain", "--n-iterations", "-3"], "'--n-iterations'"),
        (["pbrain", "--bogus"], "--bogus"),
        (["nope"], "nope"),
    ],
)
def test_bad_options_are_one_line_errors(capsys: pytest.CaptureFixture[str], args: list[str], part: str) -> None:
    status, out, err = run_cli(capsys, "kinrow", *args)
    assert status == 2
    assert out == ""
    assert_one_line_error(err, part)


def test_play_renju_refuses_a_forbidden_point_and_asks_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = "e3\ne4\nc5\nd5\ne5\ne1\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    args = ["--n", "15", "--k", "5", "--rule", "renju", "--opponent", "first_legal"]
    status, out, err = run_cli(capsys, "kinrow", "play", *args)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("k-in-a-row on 15x15, 5 in a row wins (renju: X has forbidden points): you are X")
    assert "e5 is forbidden to X under renju (double-three)" in lines
    assert lines[-1] == "game left after 10 moves"


def test_selfplay_under_the_standard_rule_on_a_20x20_board(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--n", "20", "--k", "5", "--rule", "standard", "--x", "random", "--o", "first_legal", "--games", "1"]
    status, out, err = run_cli(capsys, "kinrow", "selfplay", *args, "--seed", "3", "--quiet")
    assert status == 0, err
    assert "k-in-a-row 20x20, 5 in a row, standard: random vs first_legal" in out


@pytest.mark.parametrize("args", [["kinrow"], ["kinrow", "--help"]])
def test_kinrow_help_lists_its_commands(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    status, out, _ = run_cli(capsys, *args)
    assert status == 0
    for command in ("play", "selfplay", "pbrain"):
        assert command in out


def test_root_help_lists_kinrow(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "--help")
    assert status == 0
    assert "kinrow" in out


def test_help_does_not_import_numba_nor_the_game() -> None:
    script = (
        "import sys\n"
        "from plyground.apps.cli.main import main\n"
        "statuses = [main(args) for args in (['kinrow', '--help'], ['kinrow', 'play', '--help'],\n"
        "            ['kinrow', 'selfplay', '--help'], ['kinrow', 'pbrain', '--help'])]\n"
        "loaded = sorted(m for m in sys.modules if m == 'numba' or m.startswith(('numba.', 'plyground.kinrow',\n"
        "                'plyground.apps.pbrain')))\n"
        "print('LOADED', statuses, loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    # the package's lazy entry and its table of player kinds (whence the choices of --x, --o, --opponent): no game
    assert (
        result.stdout.strip().splitlines()[-1]
        == "LOADED [0, 0, 0, 0] ['plyground.kinrow', 'plyground.kinrow.registry']"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--n", "9", "--k", "7"],
        ["play", "--rule", "renju", "--k", "4"],
        ["selfplay", "--k", "6"],
        ["selfplay", "--rule", "renju", "--x", "mcts", "--o", "engine", "--k", "5"],
        ["pbrain", "--player", "nobody"],
    ],
)
def test_a_game_no_player_can_play_is_refused_before_any_kernel_is_loaded(args: list[str]) -> None:
    """On a first run the kernels take a minute to compile: a bad combination of options is refused first."""
    script = (
        "import sys\n"
        "from plyground.apps.cli.main import main\n"
        f"status = main({['kinrow', *args]!r})\n"
        "loaded = sorted(m for m in sys.modules if m == 'numba' or m.startswith('plyground.kinrow.'))\n"
        "print('LOADED', status, loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    loaded = "['plyground.kinrow.limits', 'plyground.kinrow.registry', 'plyground.kinrow.rules']"
    assert result.stdout.strip().splitlines()[-1] == f"LOADED 2 {loaded}"
    assert_one_line_error(result.stderr)


def test_pbrain_warm_up_readies_the_brain_and_exits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Unread(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise AssertionError("--warm-up reads no command")

    monkeypatch.setattr(sys, "stdin", Unread())
    status, out, err = run_cli(capsys, "kinrow", "pbrain", "--warm-up")
    assert status == 0, err
    (line,) = out.splitlines()
    assert re.fullmatch(r"the engine brain is ready for freestyle, standard and renju \(\d+\.\d s\)", line), line
    status, out, err = run_cli(capsys, "kinrow", "pbrain", "--warm-up", "--player", "alphabeta")
    assert status == 0, err
    assert re.fullmatch(r"the alphabeta brain is ready for freestyle and standard \(\d+\.\d s\)\n", out), out


def test_the_command_line_knows_the_longest_budget() -> None:
    from plyground.apps.cli import options
    from plyground.kinrow.budget import MAX_TIME_MS

    assert options.MAX_TIME_MS == MAX_TIME_MS  # spelled out there, so that parsing the options loads no game


@pytest.mark.parametrize("kind", [kind for kind in PLAYER_KINDS if kind != "human"])
def test_pbrain_plays_with_every_kind_of_player(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("START 20\nINFO timeout_turn 300\nTURN 10,10\nEND\n"))
    status, out, err = run_cli(capsys, "kinrow", "pbrain", "--player", kind.upper(), "--seed", "1", "--depth", "1")
    assert status == 0, err
    lines = out.split("\r\n")
    assert lines[0] == "OK" and re.fullmatch(r"\d+,\d+", lines[-2]), out


def test_pbrain_refuses_a_human_player(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "kinrow", "pbrain", "--player", "human")
    assert status == 2 and out == ""
    assert_one_line_error(err, "'--player'", "a person plays through the manager")


def test_pbrain_plays_the_brains_default_kind(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.apps import pbrain

    kinds: list[str] = []
    real = players.make_player

    def recording(kind: str, **options: Any) -> Player:
        kinds.append(kind)
        return real("first_legal")

    monkeypatch.setattr(players, "make_player", recording)
    monkeypatch.setattr(pbrain, "DEFAULT_KIND", "random")
    monkeypatch.setattr(sys, "stdin", io.StringIO("END\n"))
    assert run_cli(capsys, "kinrow", "pbrain")[0] == 0
    assert set(kinds) == {"random"}
