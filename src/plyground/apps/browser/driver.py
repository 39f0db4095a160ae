"""Playing a 2048 web page in Chromium through Playwright, or drawing hints on it.

:func:`open_page` starts Chromium on a URL, or attaches to a browser the user started with
remote debugging (the Chrome DevTools protocol); :func:`play` plays the page's game with an
:class:`~plyground.g2048.Expectimax`, checking after every move that the page did what
plyground's rules say (the move's result plus one new 2 or 4, and the same score); :func:`hint`
only watches the page and draws each move's value on it. Given endgame tables (an
:class:`~plyground.g2048.tablebase.Advisor`), both take the move of a table that advises on
the board: :func:`play` plays it unsearched, :func:`hint` draws it with its exact probability.
Every failure is a :class:`BrowserError` that says in one line what went wrong.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from plyground.apps.browser.page import SNAPSHOT_JS, PageBoard, read_snapshot, spawn_problem
from plyground.apps.text import counted, table_line, values_line
from plyground.errors import DependencyNotInstalled, InvalidBoardError, PlygroundError, install_command
from plyground.g2048 import Board, Decision, Expectimax

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from plyground.g2048.tablebase import Advice, Advisor

__all__ = [
    "CHROMIUM",
    "GAME_URL",
    "BrowserError",
    "Summary",
    "draw_hint",
    "hint",
    "open_page",
    "play",
    "read_page",
    "wait_for_board",
]

GAME_URL = "https://gabrielecirulli.github.io/2048/"
"""The original game's public address."""
CHROMIUM = "/usr/bin/chromium"
"""Where Debian puts Chromium; used when it is there and no other browser is named."""
KEYS = {"up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown", "left": "ArrowLeft"}
ARROWS = {"up": "↑", "right": "→", "down": "↓", "left": "←"}
BOARD_TIMEOUT_S = 10.0
"""How long a page may take to show a board once loaded."""
STEP_TIMEOUT_S = 3.0
"""How long a page may take to show a move's result and its new tile."""
POLL_S = 0.01


class BrowserError(PlygroundError):
    """The browser, the page or its game did not do what was expected (the message says what)."""


@dataclass
class Summary:
    """How a game in the browser went: the score, the largest tile, the moves played (``table_moves`` of them by
    endgame tables), the time, why it stopped."""

    score: int = 0
    max_tile: int = 0
    moves: int = 0
    seconds: float = 0.0
    stopped: str = ""
    table_moves: int = 0

    def line(self) -> str:
        """One line for people: ``game over: 2,340 points, max tile 256, 187 moves in 41.2 s``, and after the moves
        ``(12 from endgame tables)`` when tables played some."""
        tables = f" ({self.table_moves:,} from endgame tables)" if self.table_moves else ""
        return (
            f"{self.stopped}: {self.score:,} points, max tile {self.max_tile}, {counted(self.moves, 'move')}{tables} "
            f"in {self.seconds:.1f} s"
        )


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip() and not set(line.strip()) <= set("=")]
    return lines[0] if lines else type(error).__name__


def _playwright() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise DependencyNotInstalled(f"playing in a browser needs Playwright: {install_command('browser')}") from None
    return sync_playwright


def _launch(playwright: Any, chromium: str | None, headless: bool) -> Any:
    executable = chromium or (CHROMIUM if os.path.exists(CHROMIUM) else None)
    if chromium is not None and not os.path.exists(chromium):
        raise BrowserError(f"no browser at {chromium}")
    try:
        # Ctrl-C reaches the whole process group, Playwright's driver included: it must leave the
        # browser to this process, which stops between two moves and closes it (the browser has a
        # process group of its own, which the terminal's Ctrl-C does not reach)
        return playwright.chromium.launch(executable_path=executable, headless=headless, handle_sigint=False)
    except Exception as error:  # Playwright raises its own Error, with a long message
        if executable is None:
            raise BrowserError(
                "no Chromium found: install it (Debian and Ubuntu: sudo apt install chromium; or "
                "python -m playwright install chromium), or name one with --chromium PATH"
            ) from None
        raise BrowserError(f"cannot start Chromium ({executable}): {_first_line(error)}") from None


def _attach(playwright: Any, endpoint: str) -> Any:
    try:
        return playwright.chromium.connect_over_cdp(endpoint, timeout=10_000)
    except Exception as error:
        raise BrowserError(
            f"cannot attach to the browser at {endpoint}: {_first_line(error)} (start Chromium with "
            "--remote-debugging-port=9222 and give --cdp http://127.0.0.1:9222)"
        ) from None


def _goto(page: Page, url: str) -> None:
    try:
        page.goto(url, wait_until="load", timeout=30_000)
    except Exception as error:
        raise BrowserError(f"cannot open {url}: {_first_line(error)}") from None


def _find_page(browser: Any, url: str | None) -> Page:
    """The page of an attached browser that shows ``url`` (or a 2048 board), else a new one on ``url``."""
    pages: list[Page] = [page for context in browser.contexts for page in context.pages]
    if url is not None:
        wanted = url.rstrip("/")
        for shown in pages:
            if shown.url.rstrip("/") == wanted or shown.url.startswith(url):
                return shown
    else:
        for shown in pages:
            if read_page(shown) is not None:
                return shown
        if pages:
            return pages[0]
    context = browser.contexts[0] if browser.contexts else browser.new_context()
    page: Page = context.new_page()
    _goto(page, url or GAME_URL)
    return page


@contextlib.contextmanager
def open_page(
    url: str | None, *, cdp: str | None = None, chromium: str | None = None, headless: bool = False
) -> Iterator[Page]:
    """A page showing the game at ``url`` (default: :data:`GAME_URL`), closed (or let go) on leaving.

    With ``cdp`` (a DevTools endpoint such as ``http://127.0.0.1:9222``) it attaches to that browser
    and uses its page on ``url`` (or the first page that shows a board, else a new page); the
    browser stays open afterwards. Otherwise it starts Chromium (``chromium``, else
    :data:`CHROMIUM`, else Playwright's own), with a window unless ``headless``.

    Raises:
        DependencyNotInstalled: Playwright is not installed.
        BrowserError: no Chromium, a browser that refuses the connection, an unreachable page.
    """
    sync_playwright = _playwright()
    with sync_playwright() as playwright:
        if cdp is not None:
            browser = _attach(playwright, cdp)
            try:
                yield _find_page(browser, url)
            finally:
                with contextlib.suppress(Exception):
                    browser.close()  # over CDP: lets go of the browser, which the user keeps
            return
        browser = _launch(playwright, chromium, headless)
        try:
            page = browser.new_page(viewport={"width": 720, "height": 900})
            _goto(page, url or GAME_URL)
            yield page
        finally:
            with contextlib.suppress(Exception):
                browser.close()


def read_page(page: Page) -> PageBoard | None:
    """The page's game as it is now; None when it shows no 2048 board (or cannot be read)."""
    try:
        return read_snapshot(page.evaluate(SNAPSHOT_JS))
    except Exception as error:
        if "closed" in str(error).lower() or "disconnected" in str(error).lower():
            raise BrowserError("the page was closed") from None
        return None  # a page in the middle of navigating


def wait_for_board(page: Page, timeout: float = BOARD_TIMEOUT_S) -> PageBoard:
    """The page's game once it shows one.

    Raises:
        BrowserError: no board within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while (found := read_page(page)) is None:
        if time.monotonic() > deadline:
            raise BrowserError(
                f"no 2048 board on {page.url}: neither a saved game (localStorage 'gameState') nor tiles "
                "(elements with classes 'tile tile-N tile-position-X-Y')"
            )
        time.sleep(0.1)
    return found


def _board(seen: PageBoard) -> Board:
    try:
        return Board.from_rows([list(row) for row in seen.rows])
    except InvalidBoardError as error:
        raise BrowserError(f"the page's board cannot be played here: {error}") from None


def _keep_playing(page: Page) -> PageBoard:
    """Click "keep playing" after 2048 (once the page shows it) and wait until its message is gone."""
    try:
        page.click(".keep-playing-button", timeout=5_000)
    except Exception as error:
        raise BrowserError(f"cannot click the page's 'keep playing' button: {_first_line(error)}") from None
    deadline = time.monotonic() + STEP_TIMEOUT_S
    while (seen := wait_for_board(page)).keep_playing_shown:
        if time.monotonic() > deadline:
            raise BrowserError("the page still shows its 'you win' message after 'keep playing' was clicked")
        time.sleep(POLL_S)
    return seen


def _after_move(page: Page, before: PageBoard, after: Board, score: int | None, move: str, number: int) -> PageBoard:
    """Wait until the page shows ``after`` plus one new 2 or 4 (and ``score``); say what differs if it does not."""
    expected = tuple(tuple(row) for row in after.to_rows())
    deadline = time.monotonic() + STEP_TIMEOUT_S
    problem = ""
    while time.monotonic() < deadline:
        seen = read_page(page)
        if seen is not None and seen.rows != before.rows:
            problem = spawn_problem(expected, seen.rows) or ""
            if not problem and score is not None and seen.score is not None and seen.score != score:
                problem = f"the page's score is {seen.score:,} where plyground counts {score:,}"
            if not problem:
                return seen
        time.sleep(POLL_S)
    if not problem:
        raise BrowserError(f"move {number} ({move}): the page did not take the move within {STEP_TIMEOUT_S:g} s")
    raise BrowserError(
        f"move {number} ({move}): the page differs from plyground's game: {problem} "
        "(a clone with other rules, or a page changed by someone else)"
    )


def play(
    page: Page,
    ai: Expectimax,
    *,
    moves: int | None = None,
    delay: float = 0.0,
    on_move: Callable[[Board, Summary], None] | None = None,
    summary: Summary | None = None,
    stop: Callable[[], bool] | None = None,
    tablebases: Advisor | None = None,
) -> Summary:
    """Play the page's game with ``ai`` until game over or ``moves`` moves; ``delay`` seconds between moves.

    Presses the arrow keys, waits until the page shows each move's result and its new tile,
    checks it against plyground's own move and score, and clicks "keep playing" after 2048.
    A board that one of ``tablebases`` advises on is played by the table's move, unsearched
    (counted in ``table_moves``).
    ``summary`` (filled in as the game goes, so a caller that is interrupted can still print it)
    is returned. Once ``stop()`` is true it stops between two moves, with ``stopped`` "interrupted".

    Raises:
        BrowserError: no board, or the page did something plyground's rules do not.
    """
    summary = summary if summary is not None else Summary()
    start = time.monotonic()
    seen = wait_for_board(page)
    board = _board(seen)
    score = seen.score
    summary.score, summary.max_tile = score or 0, board.max_tile()
    kept_playing = False  # a page waits once, after its first 2048
    while True:
        summary.seconds = time.monotonic() - start
        if seen.waiting and not kept_playing:
            seen = _keep_playing(page)
            kept_playing = True
        if seen.over or board.is_terminal():
            summary.stopped = "game over"
            return summary
        if moves is not None and summary.moves >= moves:
            summary.stopped = f"stopped after {moves:,} move{'s' if moves != 1 else ''}"
            return summary
        if stop is not None and stop():
            summary.stopped = "interrupted"
            return summary
        advice = tablebases.advise(board) if tablebases is not None else None
        move = advice.move if advice is not None else ai.choose(board).move
        assert move is not None  # the board is not terminal
        after, points = board.move(move)
        score = None if score is None else score + points
        page.keyboard.press(KEYS[move])
        seen = _after_move(page, seen, after, score, move, summary.moves + 1)
        board = _board(seen)
        summary.moves += 1
        summary.table_moves += advice is not None
        summary.score = score if score is not None else summary.score + points
        summary.max_tile = board.max_tile()
        if on_move is not None:
            on_move(board, summary)
        if delay > 0:
            time.sleep(delay)


_OVERLAY_JS = """(hint) => {
  let box = document.getElementById("plyground-hint");
  if (!box) {
    box = document.createElement("div");
    box.id = "plyground-hint";
    box.style.cssText = "position:fixed;top:12px;right:12px;z-index:2147483647;padding:10px 14px;" +
      "background:rgba(30,30,30,0.88);color:#fff;font:15px/1.45 sans-serif;border-radius:8px;" +
      "pointer-events:none;max-width:22em;box-shadow:0 2px 10px rgba(0,0,0,0.35)";
    document.body.appendChild(box);
  }
  box.textContent = "";
  box.dataset.best = hint.best || "";
  const title = document.createElement("div");
  title.style.cssText = "font-weight:bold;font-size:18px;margin-bottom:4px";
  title.textContent = hint.title;
  box.appendChild(title);
  if (hint.table) {
    const table = document.createElement("div");
    table.className = "plyground-hint-table";
    table.dataset.probability = String(hint.table.probability);
    table.style.cssText = "color:#ffd166;margin-bottom:4px";
    table.textContent = hint.table.text;
    box.appendChild(table);
  }
  for (const row of hint.rows) {
    const line = document.createElement("div");
    line.className = "plyground-hint-move";
    line.dataset.move = row.move;
    line.dataset.value = String(row.value);
    line.textContent = row.text;
    if (row.move === hint.best) line.style.cssText = "font-weight:bold;color:#ffd166";
    box.appendChild(line);
  }
  const unit = document.createElement("div");
  unit.style.cssText = "font-size:12px;opacity:0.8;margin-top:4px";
  unit.textContent = hint.unit;
  box.appendChild(unit);
}"""


def draw_hint(
    page: Page, decision: Decision, unit: str, *, downgraded: bool = False, advice: Advice | None = None
) -> None:
    """Draw (or redraw) the hint box on the page: the best move and each move's value, labelled with its unit
    (``downgraded``: the values of the board searched, see :func:`~plyground.apps.text.values_line`).

    With ``advice``, an endgame table's move, the box suggests the table's move and says so in a line
    with its exact probability, above the search's values.
    """
    ranked = sorted(decision.values.items(), key=lambda item: -item[1])
    best = advice.move if advice is not None else decision.move
    if best is None:
        title = "plyground: no move left"
    else:
        title = f"plyground: {ARROWS[best]} {best}" + (" (endgame table)" if advice is not None else "")
    table = None if advice is None else {"text": table_line(advice), "probability": advice.probability}
    hint = {
        "best": best,
        "title": title,
        "table": table,
        "rows": [{"move": m, "value": v, "text": f"{ARROWS[m]} {m}  {v:,.0f}"} for m, v in ranked],
        "unit": values_line([], unit, downgraded=downgraded).removesuffix(": ") + f" · depth {decision.depth}",
    }
    try:
        page.evaluate(_OVERLAY_JS, hint)
    except Exception as error:
        raise BrowserError(f"cannot draw on the page: {_first_line(error)}") from None


def hint(
    page: Page,
    ai: Expectimax,
    *,
    moves: int | None = None,
    on_hint: Callable[[Board, Decision], None] | None = None,
    summary: Summary | None = None,
    stop: Callable[[], bool] | None = None,
    tablebases: Advisor | None = None,
) -> Summary:
    """Watch the page's game and draw each position's hint on it; never press a key.

    On a board that one of ``tablebases`` advises on, the hint is the table's move, with its exact
    probability, beside the search's values.

    Stops at game over, once the person has made ``moves`` moves, or once ``stop()`` is true
    (``stopped`` "interrupted").

    Raises:
        BrowserError: no board, or the page was closed.
    """
    summary = summary if summary is not None else Summary()
    start = time.monotonic()
    seen = wait_for_board(page)
    shown: tuple[tuple[int, ...], ...] | None = None
    while True:
        summary.seconds = time.monotonic() - start
        if seen.rows != shown:
            board = _board(seen)
            if shown is not None:
                summary.moves += 1
            shown = seen.rows
            summary.score, summary.max_tile = seen.score or 0, board.max_tile()
            decision = ai.choose(board)
            advice = tablebases.advise(board) if tablebases is not None else None
            draw_hint(page, decision, ai.evaluator.unit, downgraded=decision.searched is not None, advice=advice)
            if on_hint is not None:
                on_hint(board, decision)
            if decision.move is None or seen.over:
                summary.stopped = "game over"
                return summary
            if moves is not None and summary.moves >= moves:
                summary.stopped = f"stopped after {moves:,} move{'s' if moves != 1 else ''}"
                return summary
        if stop is not None and stop():
            summary.stopped = "interrupted"
            return summary
        time.sleep(0.05)
        seen = wait_for_board(page)
