"""``plyground 2048 browser --tablebases``: the AI plays an endgame table's move on the page, and a hint names the
table and its exact probability."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plyground.apps.browser import driver
from plyground.apps.browser.driver import Summary, draw_hint, play, read_page
from plyground.apps.cli.options import load_tablebases
from plyground.g2048 import Board, Expectimax
from plyground.g2048.heuristic import Heuristic
from tests.apps.cli.test_main import assert_one_line_error, run_cli
from tests.apps.conftest import TABLE_BOARD, TABLE_FORMATION

pytestmark = pytest.mark.slow
START = "index.html?seed=3&start=" + TABLE_BOARD.replace(" ", ",")  # the test page, on the table's board


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page in a context of its own (its own localStorage)."""
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()


def test_play_takes_the_tables_move_unsearched(page: Any, game_site: str, tables_folder: Path) -> None:
    tables = load_tablebases(str(tables_folder), 0.1)
    assert tables is not None
    page.goto(game_site + START)
    searched: list[Board] = []
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        search = ai.choose
        ai.choose = lambda board: searched.append(board) or search(board)  # type: ignore[method-assign]
        boards: list[Board] = []
        summary = play(page, ai, moves=1, tablebases=tables, on_move=lambda board, done: boards.append(board))
    assert summary.moves == 1 and summary.table_moves == 1 and searched == []
    after, _ = Board.parse(TABLE_BOARD).move("up")  # the table's move: the 16 is built below the 16
    assert after.to_rows()[1][2] == 16 and boards[0].to_rows()[:2] == after.to_rows()[:2]
    assert summary.line().endswith(" 1 move (1 from endgame tables) in " + f"{summary.seconds:.1f} s")


def test_a_hint_names_the_table_and_its_probability(page: Any, game_site: str, tables_folder: Path) -> None:
    tables = load_tablebases(str(tables_folder), 0.1)
    page.goto(game_site + START)
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        watched = driver.hint(page, ai, stop=lambda: True, tablebases=tables)  # one hint, then stop
    assert watched.stopped == "interrupted"
    box = page.locator("#plyground-hint")
    assert box.get_attribute("data-best") == "up" and "(endgame table)" in box.inner_text()
    line = page.locator(".plyground-hint-table")
    assert line.get_attribute("data-probability") == "1"
    assert line.inner_text() == f"endgame table {TABLE_FORMATION} for 16: up, which builds the 16 with probability " \
        "1.000000 (exact), to merge into 256"  # fmt: skip
    assert page.locator(".plyground-hint-move").count() >= 2  # the search's values are still shown
    board = Board.parse("2 2 0/0 4 0/0 0 0")  # no table fits: no table line
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        draw_hint(page, ai.choose(board), ai.evaluator.unit, advice=tables.advise(board) if tables else None)
    assert page.locator(".plyground-hint-table").count() == 0 and "endgame" not in box.inner_text()
    assert read_page(page) is not None


def test_the_command_plays_the_tables_moves(game_site: str, tables_folder: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "plyground.apps.cli.main", "2048", "browser", game_site + START, "--headless",
         "--depth", "1", "--moves", "2", "--tablebases", str(tables_folder)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"stopped after 2 moves: [\d,]+ points, max tile \d+, 2 moves \([12] from endgame tables\) "
                        r"in [\d.]+ s\n", done.stdout), done.stdout  # fmt: skip
    assert "with 1 endgame table" in done.stderr


def test_a_folder_without_tables_is_refused_before_the_browser_starts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run_cli(capsys, "2048", "browser", "--headless", "--tablebases", str(tmp_path / "none"))
    assert status == 2 and out == ""
    assert_one_line_error(err, "no endgame table in")


def test_the_summary_counts_the_tables_moves() -> None:
    assert Summary(2, 16, 3, 1.0, "game over").line() == "game over: 2 points, max tile 16, 3 moves in 1.0 s"
    line = Summary(2, 16, 3, 1.0, "game over", table_moves=2).line()
    assert line == "game over: 2 points, max tile 16, 3 moves (2 from endgame tables) in 1.0 s"
