"""The gomoku match script, with scripted brains (``tests/data/fake_gomocup_brain.py``).

The manager it drives, ``plyground.arena``, is tested in ``tests/arena/``. The script itself runs
end to end in ``test_scripts.py``; here it runs with fake brains, and its options are checked in-process.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
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
def gomoku() -> ModuleType:
    sys.modules.setdefault("_common", load_common())
    return _load("benchmarks_gomoku", "gomoku.py")


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
