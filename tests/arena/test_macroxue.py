"""macroxue/2048-ai as an agent, against a stand-in of its server mode (``tests/data/fake_macroxue.py``)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plyground.arena.macroxue import MacroxueAgent, MacroxueServer, board_text
from plyground.core.match import play_game
from plyground.errors import PlayerError, PlygroundError
from plyground.g2048 import Board
from plyground.g2048.board import DIRECTIONS
from plyground.g2048.state import State, draw_spawn

FAKE = Path(__file__).resolve().parents[1] / "data" / "fake_macroxue.py"


@pytest.fixture
def program(tmp_path: Path) -> Path:
    """An executable that runs the stand-in, as the built program is run."""
    path = tmp_path / "2048"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n', encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _first_changing(board: Board) -> str:
    """What the stand-in answers: the first of up, left, right, down that changes ``board``."""
    return next(move for move in ("up", "left", "right", "down") if move in board.legal_moves())


def test_a_board_is_sent_as_its_exponents_row_by_row() -> None:
    board = Board.parse("2 4 0 0/0 0 0 8/0 0 0 1024/0 0 2048 32768")
    assert board_text(board) == "12000003000A00BF"  # 1200 0003 000A 00BF
    with pytest.raises(PlygroundError, match="4x4 boards only"):
        board_text(Board.parse("2 4/0 0"))


def test_the_agent_plays_a_game_by_the_programs_moves(program: Path) -> None:
    with MacroxueServer(program, depth=3) as server:
        agent = MacroxueAgent(server)
        assert agent.name == "macroxue/2048-ai (depth 3)"
        state = State.from_board(Board.parse("2 2 0 0/0 0 0 0/0 0 4 0/0 0 0 2"))
        seen: list[tuple[Board, int]] = []

        def ask(agent: MacroxueAgent, now: State) -> tuple[int, float]:
            action = agent.choose(now)
            seen.append((now.board, action))
            return action, 0.0

        play_game(state, [agent], seed=7, ask=ask, chance=draw_spawn, max_moves=40)
        assert len(seen) == 40
        assert all(DIRECTIONS[action] == _first_changing(board) for board, action in seen)
        assert server.move(Board.parse("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2")) is None  # no move: it says g
        assert server.log.is_file() and "Server ready" in server.log.read_text()
    assert server._process.poll() is not None and not server.log.exists()  # closed: stopped, its output removed


def test_its_answers_and_its_failures_are_one_line(program: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(PlygroundError, match="no macroxue/2048-ai program at"):
        MacroxueServer(program.parent / "missing", depth=3)
    with pytest.raises(PlygroundError, match="depth is 1 to 12"):
        MacroxueServer(program, depth=0)
    monkeypatch.setenv("FAKE_MACROXUE_EXIT", "Loading array from tuple_moves.10a ... No such file")
    with pytest.raises(PlygroundError, match=r"ended \(exit 3\) before it was ready: .*No such file"):
        MacroxueServer(program, depth=3)
    monkeypatch.delenv("FAKE_MACROXUE_EXIT")
    monkeypatch.setenv("FAKE_MACROXUE_ANSWER", "x")
    with MacroxueServer(program, depth=3) as server, pytest.raises(PlygroundError, match="answered 'x'"):
        server.move(Board.parse("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2"))
    monkeypatch.setenv("FAKE_MACROXUE_ANSWER", "l")  # left, where the tiles are already left
    with MacroxueServer(program, depth=3) as server, pytest.raises(PlayerError, match="chose left, which does not"):
        MacroxueAgent(server).choose(State.from_board(Board.parse("2 0 0 0/0 0 0 0/0 0 0 0/4 0 0 0")))
    with MacroxueServer(program, depth=3) as server, pytest.raises(PlayerError, match="tiles up to 32768: two never"):
        MacroxueAgent(server).choose(State.from_board(Board.parse("32768 32768 2 4/0 0 0 0/0 0 0 0/2 0 0 0")))
    monkeypatch.setenv("FAKE_MACROXUE_ANSWER", "g")
    with MacroxueServer(program, depth=3) as server, pytest.raises(PlayerError, match="sees no move"):
        MacroxueAgent(server).choose(State.from_board(Board.parse("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2")))


def test_the_program_ends_with_the_process_that_started_it(program: Path, tmp_path: Path) -> None:
    script = (
        "import sys, os\n"
        "from plyground.arena.macroxue import MacroxueServer\n"
        f"server = MacroxueServer({str(program)!r}, 3)\n"
        "print(server._process.pid, flush=True)\n"
        "os._exit(0)\n"  # no atexit: as a pool's worker may end
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    pid = int(done.stdout.split()[-1])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat_file:  # a zombie is dead: its parent is gone
        return stat_file.read().split()[2] != "Z"
