"""The test 2048 page (``tests/data/web2048/``) in headless Chromium: rules, saved state, DOM, switches.

The page keeps its game the way the original web 2048 does: ``localStorage.gameState`` holds
``{grid: {size, cells}, score, over, won, keepPlaying}`` with ``cells[x][y]`` (outer index = column),
and the DOM shows tiles as ``.tile.tile-V.tile-position-X-Y`` (1-based) one animation frame later.
These tests read the page through those two channels, as a driver does; each test opens its own
browser context, so its localStorage starts empty.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

Board = list[list[int]]

NEXT_FRAME = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
SHOWN_TILES = """() => [...document.querySelectorAll('.tile-container .tile')].map(tile => {
    const position = tile.className.match(/tile-position-(\\d+)-(\\d+)/);
    return [+position[1] - 1, +position[2] - 1, +tile.className.match(/\\btile-(\\d+)\\b/)[1], tile.className];
})"""


@pytest.fixture
def open_game(browser: Any, game_site: str) -> Iterator[Callable[..., Any]]:
    """Opens ``index.html`` + ``query`` (or another ``path``) in a fresh context; no page may raise a JS error."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(query: str = "", path: str = "index.html") -> Any:
        context = browser.new_context()
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(game_site + path + query)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, errors


def saved_state(page: Any) -> dict[str, Any] | None:
    """The parsed ``localStorage.gameState``, or None when the key is absent."""
    text = page.evaluate("() => localStorage.getItem('gameState')")
    return None if text is None else json.loads(text)


def saved_board(state: dict[str, Any]) -> Board:
    """Rows (y) of columns (x) of a saved state; also checks each cell's recorded position."""
    cells = state["grid"]["cells"]
    size = state["grid"]["size"]
    assert len(cells) == size and all(len(column) == size for column in cells)
    for x, column in enumerate(cells):
        for y, cell in enumerate(column):
            assert cell is None or cell["position"] == {"x": x, "y": y}
    return [[cells[x][y]["value"] if cells[x][y] else 0 for x in range(size)] for y in range(size)]


def shown_board(page: Any, size: int = 4) -> Board:
    """The board the DOM shows after the next animation frame: the largest tile value per position."""
    page.evaluate(NEXT_FRAME)
    board = [[0] * size for _ in range(size)]
    for x, y, value, _ in page.evaluate(SHOWN_TILES):
        board[y][x] = max(board[y][x], value)
    return board


def shown_score(page: Any) -> int:
    """The first text node of ``.score-container`` (after it come the ``+points`` additions)."""
    page.evaluate(NEXT_FRAME)
    return int(page.evaluate("() => document.querySelector('.score-container').firstChild.nodeValue"))


def page_board(page: Any) -> Board:
    """The board from the page's read-only test helper."""
    return page.evaluate("() => window.__test2048.board()")  # type: ignore[no-any-return]


def one_spawn(before: Board, after: Board, values: tuple[int, ...] = (2, 4)) -> tuple[int, int]:
    """Checks ``after`` is ``before`` plus one tile of ``values`` on an empty cell; returns its (x, y)."""
    changed = [(x, y) for y, row in enumerate(before) for x, value in enumerate(row) if after[y][x] != value]
    assert len(changed) == 1, (before, after)
    x, y = changed[0]
    assert before[y][x] == 0 and after[y][x] in values
    return x, y


def start(rows: Board) -> str:
    """The ``?start=`` value of a board."""
    return "/".join(",".join(str(value) for value in row) for row in rows)


def test_a_move_slides_merges_spawns_one_tile_and_scores(open_game: Callable[..., Any]) -> None:
    rows = [[2, 2, 4, 0], [0, 4, 4, 4], [0, 0, 0, 0], [8, 0, 0, 8]]
    page = open_game(f"?seed=7&score=100&start={start(rows)}")
    state = saved_state(page)
    assert state is not None and saved_board(state) == rows and state["score"] == 100
    assert state["grid"]["size"] == 4 and not (state["over"] or state["won"] or state["keepPlaying"])
    assert shown_board(page) == rows and shown_score(page) == 100

    page.keyboard.press("ArrowLeft")
    state = saved_state(page)
    assert state is not None
    moved = [[4, 4, 0, 0], [8, 4, 0, 0], [0, 0, 0, 0], [16, 0, 0, 0]]
    new_x, new_y = one_spawn(moved, saved_board(state))
    assert state["score"] == 100 + 4 + 8 + 16
    assert shown_board(page) == saved_board(state) == page_board(page)
    assert shown_score(page) == 128
    assert page.text_content(".score-container") == "128+28"

    # a merged tile is drawn over its two sources (old values, not tile-merged); the new tile is tile-new
    tiles = page.evaluate(SHOWN_TILES)
    at_corner = sorted((value, "tile-merged" in classes) for x, y, value, classes in tiles if (x, y) == (0, 0))
    assert at_corner == [(2, False), (2, False), (4, True)]
    assert [(x, y) for x, y, _, classes in tiles if "tile-new" in classes] == [(new_x, new_y)]


MERGE_START = [[2, 2, 2, 2], [2, 2, 2, 0], [4, 0, 4, 8], [0, 0, 0, 0]]
MERGE_START_T = [list(column) for column in zip(*MERGE_START, strict=True)]  # the same lines as columns


@pytest.mark.parametrize(
    ("key", "rows", "moved"),
    [
        ("ArrowLeft", MERGE_START, [[4, 4, 0, 0], [4, 2, 0, 0], [8, 8, 0, 0], [0, 0, 0, 0]]),
        ("ArrowRight", MERGE_START, [[0, 0, 4, 4], [0, 0, 2, 4], [0, 0, 8, 8], [0, 0, 0, 0]]),
        ("ArrowUp", MERGE_START_T, [[4, 4, 8, 0], [4, 2, 8, 0], [0, 0, 0, 0], [0, 0, 0, 0]]),
        ("ArrowDown", MERGE_START_T, [[0, 0, 0, 0], [0, 0, 0, 0], [4, 2, 8, 0], [4, 4, 8, 0]]),
    ],
)
def test_merge_rules(open_game: Callable[..., Any], key: str, rows: Board, moved: Board) -> None:
    """Pairs nearest the wall merge first, once per move: [2,2,2,2] -> [4,4], [2,2,2] -> [4,2], [4,_,4,8] -> [8,8]."""
    page = open_game(f"?seed=11&start={start(rows)}")
    page.keyboard.press(key)
    state = saved_state(page)
    assert state is not None
    one_spawn(moved, saved_board(state))
    assert state["score"] == 4 + 4 + 4 + 8


def test_a_move_that_changes_nothing_does_nothing(open_game: Callable[..., Any]) -> None:
    rows = [[2, 4, 8, 16], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    page = open_game(f"?seed=5&start={start(rows)}")
    before = page.evaluate("() => localStorage.getItem('gameState')")
    # no-op moves, held modifiers and other keys change nothing
    for key in ["ArrowLeft", "ArrowUp", "Shift+ArrowRight", "Control+ArrowDown", "Alt+ArrowDown", "d", "Enter"]:
        page.keyboard.press(key)
    assert page.evaluate("() => localStorage.getItem('gameState')") == before
    assert shown_board(page) == rows == page_board(page)
    assert page.locator(".tile-new").count() == 0
    page.keyboard.press("ArrowRight")  # a real move does change it
    state = saved_state(page)
    assert state is not None and saved_board(state) != rows


def test_spawn_switch_sets_the_value_of_every_new_tile(open_game: Callable[..., Any]) -> None:
    page = open_game("?seed=3&spawn=8")
    state = saved_state(page)
    assert state is not None
    assert sorted(value for row in saved_board(state) for value in row if value) == [8, 8]

    rows = [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    page = open_game(f"?seed=3&spawn=8&start={start(rows)}")
    for key, moved in [("ArrowLeft", [[4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0]])]:
        page.keyboard.press(key)
        state = saved_state(page)
        assert state is not None
        one_spawn(moved, saved_board(state), values=(8,))


def test_storage_off_writes_nothing_but_the_dom_shows_the_game(open_game: Callable[..., Any]) -> None:
    rows = [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    page = open_game(f"?storage=off&seed=5&start={start(rows)}")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => localStorage.length") == 0
    board = shown_board(page)
    one_spawn([[4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], board)
    assert board == page_board(page) and shown_score(page) == 4


def test_making_2048_wins_and_waits_for_keep_playing(open_game: Callable[..., Any]) -> None:
    rows = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    page = open_game(f"?seed=1&start={start(rows)}")
    page.keyboard.press("ArrowLeft")
    state = saved_state(page)
    assert state is not None and state["won"] and not state["keepPlaying"] and not state["over"]
    assert saved_board(state)[0][0] == 2048 and state["score"] == 2048
    message = page.locator(".game-message.game-won")
    message.wait_for(state="visible")
    assert "You win!" in message.inner_text()
    assert page.locator(".keep-playing-button").is_visible() and page.locator(".retry-button").is_visible()

    won = json.dumps(state)
    for key in ["ArrowDown", "ArrowRight"]:
        page.keyboard.press(key)
    assert json.dumps(saved_state(page)) == won

    page.click(".keep-playing-button")
    state = saved_state(page)
    assert state is not None and state["won"] and state["keepPlaying"]
    page.locator(".game-message.game-won").wait_for(state="detached")
    assert not page.locator(".keep-playing-button").is_visible()
    page.keyboard.press("ArrowDown")  # the 2048 in the top row falls
    state = saved_state(page)
    assert state is not None and saved_board(state)[0][0] != 2048


def test_the_last_move_ends_the_game(open_game: Callable[..., Any]) -> None:
    rows = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [16, 16, 8, 32]]
    page = open_game(f"?seed=1&spawn=4&start={start(rows)}")
    assert saved_state(page) is not None
    assert page.evaluate("() => localStorage.getItem('bestScore')") is None
    page.keyboard.press("ArrowRight")  # [16,16,8,32] -> [4 (new),32,8,32]: no move left
    assert saved_state(page) is None
    assert page.evaluate("() => localStorage.getItem('bestScore')") == "32"
    message = page.locator(".game-message.game-over")
    message.wait_for(state="visible")
    assert "Game over!" in message.inner_text()
    assert page.locator(".retry-button").is_visible() and not page.locator(".keep-playing-button").is_visible()
    final = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 32, 8, 32]]
    assert shown_board(page) == final and shown_score(page) == 32
    assert page.text_content(".best-container") == "32"

    page.click(".retry-button")  # a new game of two random tiles; the best score stays
    state = saved_state(page)
    assert state is not None and state["score"] == 0 and not state["over"]
    assert len([value for row in saved_board(state) for value in row if value]) == 2
    assert page.evaluate("() => localStorage.getItem('bestScore')") == "32"
    page.locator(".game-message.game-over").wait_for(state="detached")
    assert shown_board(page) == saved_board(state)


def history(page: Any, keys: list[str]) -> list[str | None]:
    """The saved state at the start and after each key."""
    states = [page.evaluate("() => localStorage.getItem('gameState')")]
    for key in keys:
        page.keyboard.press(key)
        states.append(page.evaluate("() => localStorage.getItem('gameState')"))
    return states


@pytest.mark.parametrize("query", ["?seed=1234", "?seed=1234&start=2,0,0,2/0,4,0,0/0,0,0,0/2,0,0,0"])
def test_the_same_seed_start_and_moves_give_the_same_game(open_game: Callable[..., Any], query: str) -> None:
    keys = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"] * 4
    first = history(open_game(query), keys)
    assert len(set(first)) > 8  # most moves changed the board
    assert history(open_game(query), keys) == first
    assert history(open_game(query.replace("1234", "1235")), keys) != first


@pytest.mark.parametrize("size", [2, 3, 4])
def test_size_switch(open_game: Callable[..., Any], size: int) -> None:
    page = open_game(f"?seed=2&size={size}" if size != 4 else "?seed=2")
    assert page.locator(".grid-container .grid-row").count() == size
    assert page.locator(".grid-container .grid-cell").count() == size * size
    state = saved_state(page)
    assert state is not None and state["grid"]["size"] == size
    board = saved_board(state)
    assert len([value for row in board for value in row if value]) == 2
    assert shown_board(page, size) == board


def test_a_saved_game_is_resumed_unless_fresh(open_game: Callable[..., Any], game_site: str) -> None:
    page = open_game("?seed=9&score=40&start=2,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0")
    page.keyboard.press("ArrowLeft")
    saved = saved_state(page)
    assert saved is not None and saved["score"] == 44
    page.goto(game_site + "index.html")  # same context: resumes
    assert saved_state(page) == saved
    assert shown_board(page) == saved_board(saved) and shown_score(page) == 44
    assert page.text_content(".best-container") == "44"

    page.goto(game_site + "index.html?fresh=1&seed=9")  # ignores the saved game
    state = saved_state(page)
    assert state is not None and state["score"] == 0 and state != saved
    assert len([value for row in saved_board(state) for value in row if value]) == 2

    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    page.click(".restart-button")
    state = saved_state(page)
    assert state is not None and state["score"] == 0
    assert len([value for row in saved_board(state) for value in row if value]) == 2


def test_the_blank_page_has_no_board(open_game: Callable[..., Any]) -> None:
    page = open_game(path="blank.html")
    assert "no game board" in page.inner_text("body")
    assert page.locator(".tile").count() == 0 and page.locator(".grid-container").count() == 0


def test_tiles_above_2048_are_super(open_game: Callable[..., Any]) -> None:
    page = open_game("?start=4096,2048/8,0")
    page.evaluate(NEXT_FRAME)
    classes = {value: tile_classes.split() for _, _, value, tile_classes in page.evaluate(SHOWN_TILES)}
    assert "tile-super" in classes[4096] and "tile-super" not in classes[2048]
    assert classes[4096][:3] == ["tile", "tile-4096", "tile-position-1-1"]
