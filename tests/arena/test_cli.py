"""``plyground arena gomoku``: end to end with scripted brains and plyground's own, one-line errors, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plyground.apps.cli.main import main
from plyground.arena import read_records

FAKE = Path(__file__).resolve().parents[1] / "data" / "fake_gomocup_brain.py"
TIMEOUT_S = 300


def fake(mode: str) -> str:
    return f"{sys.executable} {FAKE} {mode}"


def plyground(*args: str, timeout: float = TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "plyground.apps.cli.main", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def test_two_scripted_brains_the_table_the_json_and_the_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.txt"
    args = ["arena", "gomoku", fake("taken"), fake("row:0"), "--games", "2", "--size", "9", "--openings", "empty"]
    assert main([*args, "--b-time-ms", "1500", "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "gomoku 9x9 freestyle, 1000/1500 ms/move, 2 games" in shown and "A scores 0.0%" in shown
    records = read_records(out.read_text())
    assert [(r["Game"], r["Result"], r["TimeMs"]) for r in records] == [("1", "0-1", "1000/1500"),
                                                                        ("2", "1-0", "1500/1000")]  # fmt: skip
    assert records[1]["Termination"] == "A (white) lost: illegal move 0,0: the cell is taken"
    assert main([*args, "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert (line["a_wins"], line["draws"], line["a_losses"], line["a_score"], line["interrupted"]) == (
        0,
        0,
        2,
        0.0,
        False,
    )
    assert [game["reason"] for game in line["game_list"]] == [
        "A (black) lost: illegal move 99,99: off the 9x9 board",
        "A (white) lost: illegal move 0,0: the cell is taken",
    ]
    assert line["endings"] == {"illegal move": 2} and line["rule"] == "freestyle"


def test_plyground_players_as_brains() -> None:
    done = plyground("arena", "gomoku", "plyground:random", "plyground:first_legal --seed 3", "--games", "2",
                     "--size", "9", "--time-ms", "50", "--max-moves", "30", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert (line["a"], line["b"], line["games_played"]) == ("plyground:random", "plyground:first_legal --seed 3", 2)
    assert [game["a_colour"] for game in line["game_list"]] == ["black", "white"]
    assert (
        line["game_list"][0]["opening"] == line["game_list"][1]["opening"] and len(line["game_list"][0]["opening"]) == 3
    )
    assert not any("lost" in game["reason"] for game in line["game_list"]), line["game_list"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/no/such/brain", "plyground:random"], "error: A: no executable brain '/no/such/brain'"),
        (["plyground:random", "plyground:nobody"], "error: B: unknown plyground player 'nobody'"),
        (["plyground:random", "plyground:random", "--rule", "gomoku"], "error: unknown rule 'gomoku'"),
        (["plyground:random", "plyground:random", "--games", "0"], "error: Invalid value for '--games'"),
        (["plyground:random", "plyground:random", "--size", "21"], "error: Invalid value for '--size'"),
        (["plyground:random", "plyground:random", "--openings", "random:x"], "error: --openings random:N needs N"),
        (
            ["plyground:random", "plyground:random", "--openings", "/no/file"],
            "error: cannot read the openings /no/file",
        ),
        (
            ["plyground:random", "plyground:random", "--out", "/no/such/dir/g.txt"],
            "error: --out: no folder /no/such/dir",
        ),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "gomoku", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err


def test_a_brain_that_cannot_play_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "gomoku", fake("refuse"), fake("row:0"), "--games", "2", "--size", "9"]) == 1
    assert capsys.readouterr().err == "error: A refused START 9: ERROR no thanks\n"


def test_ctrl_c_ends_at_once_with_the_games_finished(tmp_path: Path) -> None:
    out = tmp_path / "games.txt"
    brains = [fake("slow:100:0"), fake("slow:100:8")]
    options = ["--games", "6", "--size", "9", "--openings", "empty", "--out", str(out), "--json"]
    command = [sys.executable, "-m", "plyground.apps.cli.main", "arena", "gomoku", *brains, *options]
    match = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while "[Game " not in (out.read_text() if out.exists() else "") and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # within the second game
        match.send_signal(signal.SIGINT)
        stdout, stderr = match.communicate(timeout=30)
    finally:
        if match.poll() is None:
            os.kill(match.pid, signal.SIGKILL)
    assert match.returncode == 130, stderr
    line = json.loads(stdout)
    assert line["interrupted"] is True and 1 <= line["games_played"] < 6
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1] == f"interrupted: {line['games_played']} of 6 games finished"
    assert len(read_records(out.read_text())) == line["games_played"]  # every game finished is kept, whole
