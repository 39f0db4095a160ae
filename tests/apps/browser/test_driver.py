"""Playing our own 2048 page in headless Chromium: whole games, --cdp, --hint, pages that break the rules, errors.

The page (``tests/data/web2048``, served by the ``game_site`` fixture) is written for these
tests; it keeps its game the way the original web game does but shares none of its code.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import ThreadingHTTPServer
from typing import Any, TypeVar

import pytest

from plyground.apps.browser import driver
from plyground.apps.browser.driver import BrowserError, Summary, draw_hint, open_page, play, read_page
from plyground.errors import DependencyNotInstalled
from plyground.g2048 import Board, Expectimax
from plyground.g2048.heuristic import Heuristic
from plyground.g2048.registry import load_evaluator
from tests.apps.browser.conftest import QuietHandler
from tests.apps.conftest import CHROMIUM, CHROMIUM_ARGS, missing

pytestmark = pytest.mark.slow
T = TypeVar("T")


def in_thread(job: Callable[[], T]) -> T:
    """Run ``job`` in a thread of its own: Playwright's sync API runs one instance per thread, and the
    session's ``browser`` fixture may hold this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(job).result()


@pytest.fixture
def unused_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page in a context of its own (its own localStorage)."""
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()


def saved_game(page: Any) -> dict[str, Any] | None:
    text = page.evaluate("() => localStorage.getItem('gameState')")
    return None if text is None else json.loads(text)


def run_browser(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """``plyground 2048 browser ARGS`` in a subprocess, headless."""
    return subprocess.run(
        [sys.executable, "-m", "plyground.apps.cli.main", "2048", "browser", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def one_line_error(done: subprocess.CompletedProcess[str], *parts: str) -> None:
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr
    assert lines[-1].startswith("error: "), done.stderr
    assert sum(line.startswith("error: ") for line in lines) == 1
    for part in parts:
        assert part in lines[-1], lines[-1]


@pytest.fixture
def debugged_chromium(tmp_path: Any) -> Iterator[str]:
    """A headless Chromium started with remote debugging, as a user would; yields its DevTools endpoint."""
    if not os.path.exists(CHROMIUM):
        missing(f"Chromium at {CHROMIUM} (apt install chromium)")
    process = subprocess.Popen(
        [CHROMIUM, "--headless=new", "--remote-debugging-port=0", f"--user-data-dir={tmp_path / 'profile'}",
         *CHROMIUM_ARGS, "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stderr is not None
    endpoint = None
    deadline = time.monotonic() + 30
    while endpoint is None and time.monotonic() < deadline:
        line = process.stderr.readline()
        if match := re.search(r"DevTools listening on ws://([\d.]+:\d+)/", line):
            endpoint = f"http://{match.group(1)}"
    try:
        if endpoint is None:
            pytest.fail("Chromium did not say where DevTools listens")
        yield endpoint
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_a_whole_game_to_game_over(page: Any, game_site: str) -> None:
    page.goto(game_site + "index.html?size=3&seed=7&fresh=1")
    boards: list[Board] = []
    with Expectimax(depth=2, workers=1, evaluator=Heuristic()) as ai:
        summary = play(page, ai, on_move=lambda board, done: boards.append(board))
    assert summary.stopped == "game over" and summary.moves == len(boards) > 20
    shown = read_page(page)
    assert shown is not None and shown.over and shown.source == "tiles"  # the saved game is removed at the end
    assert Board.from_rows([list(row) for row in shown.rows]).is_terminal()
    assert shown.score == summary.score > 0
    assert summary.max_tile == max(max(row) for row in shown.rows)


@pytest.mark.parametrize("keepsave", ["on", "off"])  # off: the saved game still waits until the next move
def test_keep_playing_after_2048(page: Any, game_site: str, keepsave: str) -> None:
    page.goto(
        game_site + f"index.html?seed=3&start=1024,1024,0,0/0,0,0,0/0,0,0,0/0,0,0,2&score=20000&keepsave={keepsave}"
    )
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        summary = play(page, ai, moves=4)
    state = saved_game(page)
    assert state is not None and state["won"] and state["keepPlaying"]
    assert summary.moves == 4 and summary.max_tile == 2048 and summary.score == state["score"] >= 22048


def test_a_page_that_saves_nothing_is_read_from_its_tiles(page: Any, game_site: str) -> None:
    page.goto(game_site + "index.html?seed=11&storage=off")
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        summary = play(page, ai, moves=30)
    shown = read_page(page)
    assert summary.moves == 30 and shown is not None and shown.source == "tiles" and shown.score == summary.score


def test_a_page_with_other_rules_stops_at_the_first_move(page: Any, game_site: str) -> None:
    page.goto(game_site + "index.html?seed=2&spawn=8&start=2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0")
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai, pytest.raises(BrowserError) as raised:
        play(page, ai)
    message = str(raised.value)
    assert message.startswith("move 1 (") and "a new 8 at row" in message and "other rules" in message


def test_a_page_changed_by_someone_else(page: Any, game_site: str) -> None:
    page.goto(game_site + "index.html?seed=2&start=2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0&score=100")
    page.evaluate(
        "() => { const s = JSON.parse(localStorage.getItem('gameState')); s.score = 5; "
        "localStorage.setItem('gameState', JSON.stringify(s)); }"
    )  # now the saved score is 5 while the page will count on from 100
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai, pytest.raises(BrowserError, match="score"):
        play(page, ai, moves=3)


def test_hints_are_drawn_and_no_key_is_pressed(page: Any, game_site: str) -> None:
    page.goto(game_site + "index.html?seed=5&start=2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,0")
    before = read_page(page)
    assert before is not None
    board = Board.from_rows([list(row) for row in before.rows])
    with Expectimax(depth=2, workers=1, evaluator=load_evaluator("network", reuse=True)) as ai:  # the shipped network
        decision = ai.choose(board)
        draw_hint(page, decision, ai.evaluator.unit)
    box = page.locator("#plyground-hint")
    assert box.get_attribute("data-best") == decision.move
    lines = page.locator(".plyground-hint-move")
    assert lines.count() == len(decision.values)
    assert {lines.nth(i).get_attribute("data-move") for i in range(lines.count())} == set(decision.values)
    assert "expected future score, in points" in box.inner_text()
    time.sleep(0.2)
    assert read_page(page) == before  # drawing pressed nothing


def test_the_command_plays_a_game_headless(game_site: str) -> None:
    done = run_browser(game_site + "index.html?size=3&seed=9", "--headless", "--depth", "1")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"game over: [\d,]+ points, max tile \d+, [\d,]+ moves in [\d.]+ s\n", done.stdout)


def test_the_command_attaches_over_cdp(debugged_chromium: str, game_site: str) -> None:
    url = game_site + "index.html?seed=4"
    done = run_browser(url, "--cdp", debugged_chromium, "--moves", "15", "--depth", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("stopped after 15 moves: ")
    # The browser is still there, its page showing the game plyground played.
    from playwright.sync_api import sync_playwright

    def look() -> dict[str, Any] | None:
        with sync_playwright() as playwright:
            browser = playwright.chromium.connect_over_cdp(debugged_chromium)
            pages = [p for context in browser.contexts for p in context.pages if p.url.startswith(url)]
            state = saved_game(pages[0]) if pages else None
            browser.close()
            return state

    state = in_thread(look)
    assert state is not None and state["score"] > 0


def test_hint_mode_over_cdp_waits_for_the_person(debugged_chromium: str, game_site: str) -> None:
    from playwright.sync_api import sync_playwright

    url = game_site + "index.html?seed=8&start=2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,0"

    def person_plays() -> tuple[str | None, bool, tuple[Any, Any], subprocess.CompletedProcess[str]]:
        with sync_playwright() as playwright:
            browser = playwright.chromium.connect_over_cdp(debugged_chromium)
            person = browser.contexts[0].new_page()
            person.goto(url)
            command = subprocess.Popen(
                [sys.executable, "-m", "plyground.apps.cli.main", "2048", "browser", url, "--cdp", debugged_chromium,
                 "--hint", "--moves", "1", "--depth", "2"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            try:
                person.wait_for_selector("#plyground-hint", timeout=120_000)
                best = person.locator("#plyground-hint").get_attribute("data-best")
                start = read_page(person)
                time.sleep(0.5)
                untouched = read_page(person) == start and command.poll() is None  # no key pressed; still watching
                person.keyboard.press("ArrowDown")
                out, err = command.communicate(timeout=120)
            finally:
                command.kill()
            end = read_page(person)
            browser.close()
        return best, untouched, (start, end), subprocess.CompletedProcess(command.args, command.returncode, out, err)

    best, untouched, (start, end), done = in_thread(person_plays)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("stopped after 1 move: ")
    assert best in ("up", "right", "down", "left") and untouched
    assert start is not None and end is not None and end.rows != start.rows


def stop_browser(command: subprocess.Popen[str], signum: int) -> tuple[str, str]:
    """Send ``signum`` as a terminal's Ctrl-C does (SIGINT: to the whole process group, Playwright's driver
    included) or as ``kill`` does (SIGTERM: to the command alone); its stdout and stderr once it ended."""
    try:
        if signum == signal.SIGINT:
            os.killpg(command.pid, signum)
        else:
            command.send_signal(signum)
        return command.communicate(timeout=60)
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.wait()


def start_browser(*args: str) -> subprocess.Popen[str]:
    """``plyground 2048 browser ARGS`` in a process group of its own, as a terminal's foreground job."""
    return subprocess.Popen(
        [sys.executable, "-m", "plyground.apps.cli.main", "2048", "browser", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("mode", "signum"), [("play", signal.SIGINT), ("play", signal.SIGTERM), ("hint", signal.SIGINT)]
)
def test_ctrl_c_or_kill_stops_between_moves_with_a_summary(game_site: str, mode: str, signum: int) -> None:
    extra = ["--delay", "0.05"] if mode == "play" else ["--hint"]
    command = start_browser(game_site + "index.html?seed=6", "--headless", "--depth", "1", *extra)
    assert command.stderr is not None
    started = "playing " if mode == "play" else "hints on "
    while not (line := command.stderr.readline()).startswith(started):  # the page is open, the game on
        assert line, "the command ended before playing"
    out, err = stop_browser(command, signum)
    assert command.returncode == 128 + signum, err
    found = re.search(r"^interrupted: [\d,]+ points, max tile \d+, ([\d,]+) moves? in [\d.]+ s$", err, re.M)
    assert found, err
    assert mode == "play" or found[1] == "0", err  # in hint mode nobody moved
    # Stopped between two moves, not inside a call to the browser: nothing else is printed.
    assert "Traceback" not in err and "Error" not in err and "exception" not in err and out == ""
    assert err.strip().splitlines()[-1] == found[0]


@pytest.fixture
def held_page() -> Iterator[tuple[str, threading.Event]]:
    """A page whose server answers only once the test lets it: its URL, and an event set when it is asked for."""
    asked, answer = threading.Event(), threading.Event()

    class Held(QuietHandler):
        def do_GET(self) -> None:
            asked.set()
            answer.wait(60)
            self.send_error(404)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Held)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/held.html", asked
    finally:
        answer.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_ctrl_c_while_the_page_opens_is_one_line(held_page: tuple[str, threading.Event]) -> None:
    url, asked = held_page
    command = start_browser(url, "--headless", "--depth", "1")
    assert asked.wait(240), "the browser never asked for the page"  # the command waits for it in page.goto
    out, err = stop_browser(command, signal.SIGINT)
    assert command.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err and "exception" not in err and out == ""
    assert err.strip().splitlines()[-1].startswith("interrupted"), err


def test_the_summary_counts_in_words() -> None:
    assert Summary(1234, 128, 1, 2.0, "game over").line() == "game over: 1,234 points, max tile 128, 1 move in 2.0 s"
    assert Summary(0, 2, 0, 0.0, "interrupted").line() == "interrupted: 0 points, max tile 2, 0 moves in 0.0 s"


def test_stop_ends_a_game_between_two_moves(page: Any, game_site: str) -> None:
    page.goto(game_site + "index.html?seed=12")
    boards: list[Board] = []
    with Expectimax(depth=1, workers=1, evaluator=Heuristic()) as ai:
        summary = play(page, ai, on_move=lambda board, done: boards.append(board), stop=lambda: len(boards) >= 5)
        assert summary.stopped == "interrupted" and summary.moves == 5
        shown = read_page(page)
        assert shown is not None and Board.from_rows([list(row) for row in shown.rows]) == boards[-1]
        watched = driver.hint(page, ai, stop=lambda: True)
    assert watched.stopped == "interrupted" and watched.moves == 0
    assert page.locator("#plyground-hint").count() == 1  # the position it saw got its hint first


def test_a_page_without_a_board(game_site: str) -> None:
    one_line_error(run_browser(game_site + "blank.html", "--headless", "--depth", "1"), "no 2048 board on")


def test_an_unreachable_address(unused_port: int) -> None:
    one_line_error(run_browser(f"http://127.0.0.1:{unused_port}/", "--headless"), "cannot open http://127.0.0.1:")


def test_a_browser_endpoint_that_refuses(unused_port: int) -> None:
    done = run_browser("--cdp", f"http://127.0.0.1:{unused_port}")
    one_line_error(done, f"cannot attach to the browser at http://127.0.0.1:{unused_port}", "--remote-debugging-port")


def test_a_missing_browser(game_site: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    one_line_error(run_browser(game_site, "--headless", "--chromium", str(tmp_path / "none")), "no browser at")
    monkeypatch.setattr(driver, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "no-browsers"))

    def start() -> None:
        with open_page(game_site, headless=True):
            pass

    with pytest.raises(BrowserError, match=r"no Chromium found: install it \(.*apt install chromium"):
        in_thread(start)


def test_without_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    page = open_page(None, headless=True)
    with pytest.raises(DependencyNotInstalled, match=r"playing in a browser needs Playwright: .*pip install .*browser"):
        page.__enter__()


def test_the_summary_line() -> None:
    summary = Summary(score=12345, max_tile=1024, moves=678, seconds=9.87, stopped="game over")
    assert summary.line() == "game over: 12,345 points, max tile 1024, 678 moves in 9.9 s"
