"""The gomoku match script's manager and judge, with scripted brains (``tests/data/fake_gomocup_brain.py``).

``benchmarks/_piskvork.py`` plays each game between two brain processes; the fake brain answers
fixed moves, taken cells, garbage, late answers or exits, and logs what it was sent. The script
itself runs end to end in ``test_scripts.py``; here it runs once with fake brains, and its options
are checked in-process.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from tests.benchmarks import BENCHMARKS, load_common

FAKE = Path(__file__).resolve().parents[1] / "data" / "fake_gomocup_brain.py"


def _load(name: str, file: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def piskvork() -> ModuleType:
    return _load("_piskvork", "_piskvork.py")


@pytest.fixture(scope="module")
def gomoku(piskvork: ModuleType) -> ModuleType:
    sys.modules.setdefault("_common", load_common())
    return _load("benchmarks_gomoku", "gomoku.py")


def fake(mode: str, log: Path | None = None) -> list[str]:
    return [sys.executable, str(FAKE), mode, *([str(log)] if log is not None else [])]


def settings(piskvork: ModuleType, **changes: int) -> object:
    return piskvork.Settings(**{"size": 9, "time_ms": 2000, "grace_ms": 2000, "start_ms": 30_000, **changes})


def test_five_in_a_row_wins_and_the_moves_are_recorded(piskvork: ModuleType) -> None:
    game = piskvork.play_game(fake("row:0"), fake("row:8"), [], settings(piskvork), names=("A", "B"))
    assert (game.winner, game.reason) == ("black", "A (black) made five")
    assert [(move.x, move.y) for move in game.moves] == [(0, 0), (0, 8), (1, 0), (1, 8), (2, 0), (2, 8), (3, 0),
                                                          (3, 8), (4, 0)]  # fmt: skip
    assert len(game.times("black")) == 5 and len(game.times("white")) == 4
    assert all(ms is not None and ms >= 0 for ms in game.times("black"))


def test_the_brains_are_told_the_game_as_piskvork_tells_it(piskvork: ModuleType, tmp_path: Path) -> None:
    black_log, white_log = tmp_path / "black.log", tmp_path / "white.log"
    opening = [(4, 4), (3, 3), (5, 5)]  # white to move
    game = piskvork.play_game(
        fake("row:0", black_log), fake("row:8", white_log), opening, settings(piskvork, max_moves=3, rule=0)
    )
    assert game.winner is None and "move limit" in game.reason
    info = ["INFO timeout_turn 2000", "INFO timeout_match 0", f"INFO time_left {piskvork.NO_CLOCK}", "INFO rule 0"]
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
def test_a_bad_answer_loses(piskvork: ModuleType, mode: str, opening: list[tuple[int, int]], reason: str) -> None:
    a_black = len(opening) % 2 == 0
    brains = (fake(mode), fake("row:8")) if a_black else (fake("row:8"), fake(mode))
    game = piskvork.play_game(*brains, opening, settings(piskvork), names=("A", "B") if a_black else ("B", "A"))
    assert game.reason == reason
    assert game.winner == ("white" if a_black else "black")


def test_a_late_answer_loses_at_the_grace_limit(piskvork: ModuleType) -> None:
    start = time.perf_counter()
    game = piskvork.play_game(
        fake("slow:5000:0"), fake("row:8"), [], settings(piskvork, time_ms=100, grace_ms=200), names=("A", "B")
    )
    assert (game.winner, game.reason) == ("white", "A (black) lost: no answer in 100 + 200 ms")
    assert time.perf_counter() - start < 4.5  # the slow brain was killed, not waited for


def test_time_odds_each_colour_is_told_and_held_to_its_own_time(piskvork: ModuleType, tmp_path: Path) -> None:
    black_log, white_log = tmp_path / "black.log", tmp_path / "white.log"
    odds = settings(piskvork, time_ms=2000, white_ms=100, grace_ms=300)
    game = piskvork.play_game(fake("slow:150:0", black_log), fake("slow:600:8", white_log), [], odds, names=("A", "B"))
    # black's 150 ms are within its 2 s; white's 600 ms are past its 100 + 300 ms
    assert (game.winner, game.reason) == ("black", "B (white) lost: no answer in 100 + 300 ms")
    assert "INFO timeout_turn 2000" in black_log.read_text().splitlines()
    assert "INFO timeout_turn 100" in white_log.read_text().splitlines()
    assert '[TimeMs "2000/100"]' in piskvork.record_text(game, 1, odds, {"black": "A", "white": "B"})


def test_the_match_clock_runs_out(piskvork: ModuleType, tmp_path: Path) -> None:
    log = tmp_path / "black.log"
    game = piskvork.play_game(
        fake("slow:60:0", log), fake("row:8"), [], settings(piskvork, match_ms=150), names=("A", "B")
    )
    assert game.reason == "A (black) lost: out of time on the match clock (150 ms)"
    assert 2 <= len(game.times("white")) + 1 <= 3
    sent = log.read_text().splitlines()
    assert sent[sent.index("INFO time_left 150") + 1] == "INFO rule 0"  # at the start, then before each move
    assert any(line.startswith("INFO time_left ") and int(line.split()[-1]) < 150 for line in sent[6:])


def test_a_brain_that_refuses_the_board_stops_the_match(piskvork: ModuleType) -> None:
    with pytest.raises(piskvork.SetupError, match=r"B refused START 9: ERROR no thanks"):
        piskvork.play_game(fake("row:0"), fake("refuse"), [], settings(piskvork), names=("A", "B"))
    with pytest.raises(piskvork.SetupError, match=r"cannot start /no/such/brain"):
        piskvork.play_game(["/no/such/brain"], fake("row:0"), [], settings(piskvork))


def test_the_record_of_a_game(piskvork: ModuleType) -> None:
    game = piskvork.play_game(fake("row:0"), fake("row:8"), [(4, 4), (3, 3)], settings(piskvork))
    text = piskvork.record_text(game, 3, settings(piskvork), {"black": "first", "white": "second"})
    assert text.startswith('[Game "3"]\n[Black "first"]\n[White "second"]\n[Size "9"]\n[Rule "freestyle"]\n')
    assert '[Opening "4,4 3,3"]\n[Result "1-0"]\n[Termination "black (black) made five"]\n' in text
    assert "1. 4,4 {opening} 2. 3,3 {opening} 3. 0,0 {" in text and text.endswith("\n1-0\n\n")


def test_wilson_interval(gomoku: ModuleType) -> None:
    assert gomoku.wilson(0, 0) is None
    low, high = gomoku.wilson(5, 10)
    assert (round(low, 3), round(high, 3)) == (0.237, 0.763)
    assert gomoku.wilson(2, 2)[1] == 1.0 and gomoku.wilson(0, 2)[0] == 0.0


def test_openings_are_seeded_and_quiet(gomoku: ModuleType) -> None:
    first = gomoku.openings_for("random:3", 8, 15, 1)
    assert len(first) == 4 and first == gomoku.openings_for("random:3", 8, 15, 1)
    assert first != gomoku.openings_for("random:3", 8, 15, 2)
    assert all(len(set(o)) == 3 and all(5 <= x <= 9 and 5 <= y <= 9 for x, y in o) for o in first)
    assert gomoku.openings_for("empty", 3, 15, 1) == [[], []]
    assert [number for number, _, _ in gomoku.schedule(_Args(first, 3))] == [1, 2, 3]
    assert [a_black for _, _, a_black in gomoku.schedule(_Args(first, 3))] == [True, False, True]


class _Args:
    def __init__(self, openings: list[list[tuple[int, int]]], games: int) -> None:
        self.opening_list, self.games = openings, games


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "error: --games must be from 1 to 100,000, got 0"),
        (["--size", "4"], "error: --size must be from 5 to"),
        (["--time-ms", "0"], "error: --time-ms must be from 1 to"),
        (["--b-time-ms", "0"], "error: --b-time-ms must be from 1 to"),
        (["--rule", "gomoku"], "error: unknown rule 'gomoku'"),
        (["--openings", "random:x"], "error: --openings random:N needs N from 1 to 8 stones"),
        (["--openings", "/no/such/file"], "error: cannot read the openings /no/such/file"),
        (["--games-out", "/no/such/folder/games.txt"], "error: --games-out: no folder /no/such/folder"),
        (["--games", "many"], "error: argument --games: invalid int value: 'many'"),
    ],
)
def test_bad_options_are_one_line(
    gomoku: ModuleType, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        gomoku.parse_args(["plyground:random", "plyground:first_legal", *argv])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("brain", "message"),
    [
        ("plyground:nobody", "error: A: unknown plyground player 'nobody'; the players are "),
        ("/no/such/brain", "error: A: no executable brain '/no/such/brain'"),
        ("", "error: A: empty brain"),
        ("'plyground:random", 'error: A: No closing quotation in "\'plyground:random"'),
    ],
)
def test_bad_brains_are_one_line(
    gomoku: ModuleType, brain: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        gomoku.parse_args([brain, "plyground:random"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err


def test_a_bad_openings_file_names_the_line(gomoku: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# three stones\n7,7 8,8 6,6\n\n7,7 7,7\n")
    with pytest.raises(ValueError, match=r"openings.txt:4: 7,7 is off the 15x15 board, taken or after five"):
        gomoku.read_openings(path, 15)
    path.write_text("7,7 8,8 6,6  # a comment\n1,1\n")
    assert gomoku.read_openings(path, 15) == [[(7, 7), (8, 8), (6, 6)], [(1, 1)]]


def test_the_script_judges_scripted_brains(tmp_path: Path) -> None:
    bad = f"{sys.executable} {FAKE} taken"
    good = f"{sys.executable} {FAKE} row:0"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "gomoku.py"), bad, good, "--games", "2", "--size", "9", "--openings",
         "empty", "--time-ms", "1000", "--b-time-ms", "1500", "--games-out", str(tmp_path / "games.txt"),
         "--no-record"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout.splitlines()[-1])
    assert (line["a_wins"], line["draws"], line["a_losses"], line["a_score"]) == (0, 0, 2, 0.0)
    assert [game["reason"] for game in line["game_list"]] == [
        "A (black) lost: illegal move 99,99: off the 9x9 board",
        "A (white) lost: illegal move 0,0: the cell is taken",
    ]
    assert line["endings"] == {"illegal move": 2}
    record = (tmp_path / "games.txt").read_text()
    assert record.count('[Result "') == 2 and line["b_time_ms"] == 1500
    assert record.index('[TimeMs "1000/1500"]') < record.index('[TimeMs "1500/1000"]')  # A black, then A white
    assert "A scores 0.0%" in done.stdout


def test_the_script_stops_when_a_brain_cannot_play(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "gomoku.py"), f"{sys.executable} {FAKE} refuse", "plyground:random",
         "--games", "2", "--no-record"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == "error: A refused START 15: ERROR no thanks"


OVERLINE_OPENING = [(0, 0), (8, 8), (1, 0), (8, 6), (3, 0), (6, 8), (4, 0), (8, 4), (5, 0), (6, 6)]
"""Black to move: its first free cell of row 0, 2,0, makes six in a row.

Where an overline does not win, black's scripted brain goes on along row 0 (seven, eight... in a row)
while white fills row 8 from the left, 0,8 to 4,8: exactly five. That takes five more black moves, so
those games are played on 15x15 (on 9x9 black's row 0 would be full after 8,0).
"""


def test_six_in_a_row_wins_free_style(piskvork: ModuleType) -> None:
    game = piskvork.play_game(fake("row:0"), fake("row:8"), OVERLINE_OPENING, settings(piskvork), names=("A", "B"))
    assert (game.winner, game.reason, len(game.moves)) == ("black", "A (black) made five", 11)


@pytest.mark.parametrize(("rule", "winner", "reason"), [(1, "white", "B (white) made five"),
                                                         (4, "white", "A (black) lost: illegal move 2,0")])  # fmt: skip
def test_an_overline_under_the_standard_and_renju_rules(
    piskvork: ModuleType, rule: int, winner: str, reason: str
) -> None:
    game = piskvork.play_game(
        fake("row:0"), fake("row:8"), OVERLINE_OPENING, settings(piskvork, rule=rule, size=15), names=("A", "B")
    )
    assert game.winner == winner and game.reason.startswith(reason)
    if rule == 1:  # black's overlines of six to ten did not end the game; white's exact five did
        played = [(move.x, move.y) for move in game.moves[len(OVERLINE_OPENING) :]]
        assert played[0::2] == [(2, 0), (6, 0), (7, 0), (8, 0), (9, 0)]
        assert played[1::2] == [(0, 8), (1, 8), (2, 8), (3, 8), (4, 8)]
