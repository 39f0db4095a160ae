"""The web lab's page in headless Chromium: keyboard play, undo, hint, autoplay, k-in-a-row, screenshots.

The server runs with uvicorn in a thread on a free port of 127.0.0.1 for the whole module
(a second one, with a tiny n-tuple network, for the tests of the evaluator selector); each
test opens its own browser context, so its pages hold their own games. The page's games are
read through ``window.plygroundLab`` and checked against the game library.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from plyground.apps.web.server import create_app
from plyground.g2048 import Board, Game
from tests.apps.web.test_api import scripted_win_seed, tiny_network

uvicorn = pytest.importorskip("uvicorn")

KEYS = {"up": "ArrowUp", "right": "ArrowRight", "down": "s", "left": "a"}  # arrows and WASD both


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a background thread; yield its URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture(scope="module")
def lab_url() -> Iterator[str]:
    """The URL of a web lab (the heuristic alone) served in a background thread."""
    with serving(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def network_lab_url() -> Iterator[str]:
    """The URL of a web lab whose AI may also search with a tiny 4x4 n-tuple network, named net.npz."""
    with serving(create_app(network=tiny_network(), network_name="net.npz")) as url:
        yield url


@pytest.fixture
def new_page(browser: Any, lab_url: str) -> Iterator[Callable[..., Any]]:
    """Opens the lab (``query`` appended to its URL, or to ``url``) in a fresh context; no page may raise a JS error."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(query: str = "", url: str | None = None) -> Any:
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto((url or lab_url) + query)
        page.wait_for_function("() => window.plygroundLab && window.plygroundLab.g2048.state !== null")
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors


def state_2048(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.plygroundLab.g2048.state")  # type: ignore[no-any-return]


def shown_board(page: Any) -> list[list[int]]:
    """The 2048 board as the page draws it."""
    tiles = page.eval_on_selector_all(
        "#board-2048 .tile", "tiles => tiles.map(t => [+t.dataset.row, +t.dataset.col, +(t.textContent || 0)])"
    )
    rows = 1 + max(r for r, _, _ in tiles)
    cols = 1 + max(c for _, c, _ in tiles)
    board = [[0] * cols for _ in range(rows)]
    for r, c, value in tiles:
        board[r][c] = value
    return board


def first_seed(condition: Callable[[Board], bool]) -> int:
    return next(seed for seed in range(1000) if condition(Game(seed=seed).board))


def press(page: Any, direction: str, moves: int) -> dict[str, Any]:
    """Press the key of ``direction`` and wait for the game to have made ``moves`` moves."""
    page.keyboard.press(KEYS[direction])
    page.wait_for_function(f"() => window.plygroundLab.g2048.state.moves === {moves}")
    return state_2048(page)


def test_keyboard_play_moves_the_tiles_and_updates_the_score(new_page: Callable[[str], Any]) -> None:
    page = new_page("?seed=21")
    state, score = state_2048(page), 0
    assert shown_board(page) == state["board"] == Game(seed=21).board.to_rows()
    for i in range(10):
        before = Board.from_rows(state["board"])
        direction = before.legal_moves()[i % len(before.legal_moves())]
        moved, points = before.move(direction)
        state = press(page, direction, i + 1)
        board = shown_board(page)
        assert board == state["board"]
        changed = [(r, c) for r in range(4) for c in range(4) if board[r][c] != moved[r, c]]
        assert len(changed) == 1 and moved[changed[0]] == 0 and board[changed[0][0]][changed[0][1]] in (2, 4)
        score += points
        assert page.text_content("#score") == str(score)
    assert score > 0 and int(page.text_content("#best") or 0) >= score


def test_undo_takes_the_last_move_back(new_page: Callable[[str], Any]) -> None:
    page = new_page("?seed=22")
    start = state_2048(page)
    assert page.is_disabled("#undo")
    press(page, start["legal"][0], 1)
    assert shown_board(page) != start["board"]
    page.click("#undo")
    page.wait_for_function("() => window.plygroundLab.g2048.state.moves === 0")
    assert shown_board(page) == start["board"] and page.text_content("#score") == "0"
    assert page.is_disabled("#undo")


SWIPE = """([dx, dy]) => {
    const board = document.getElementById("board-2048");
    const touch = (x, y) => new Touch({identifier: 1, target: board, clientX: x, clientY: y});
    const fire = (type, t) => board.dispatchEvent(
        new TouchEvent(type, {changedTouches: [t], touches: type === "touchend" ? [] : [t], bubbles: true}));
    fire("touchstart", touch(200, 200));
    fire("touchend", touch(200 + dx, 200 + dy));
}"""


def test_a_swipe_moves_the_tiles_and_a_tap_does_not(new_page: Callable[[str], Any]) -> None:
    seed = first_seed(lambda board: len(board.legal_moves()) == 4)
    page = new_page(f"?seed={seed}")
    start = Board.from_rows(state_2048(page)["board"])
    page.evaluate(SWIPE, [5, -4])  # too short: a tap
    page.evaluate(SWIPE, [-120, 30])  # mostly leftwards
    page.wait_for_function("() => window.plygroundLab.g2048.state.moves >= 1")
    time.sleep(0.2)
    state = state_2048(page)
    assert state["moves"] == 1
    moved = start.move("left")[0].to_rows()
    assert sum(state["board"][r][c] != moved[r][c] for r in range(4) for c in range(4)) == 1  # the spawn


def test_hint_shows_the_four_values_and_the_heuristic_chart(new_page: Callable[[str], Any]) -> None:
    seed = first_seed(lambda board: len(board.legal_moves()) == 4)
    page = new_page(f"?seed={seed}")
    page.click("#hint")
    page.wait_for_selector("#hint-values .hint-value")
    values = page.eval_on_selector_all("#hint-values .hint-value", "items => items.map(i => i.dataset.direction)")
    assert values == ["up", "right", "down", "left"]
    assert page.locator("#hint-values .best").count() == 1
    bars = page.eval_on_selector_all("#hint-chart .bar", "bars => bars.map(b => b.dataset.feature)")
    assert bars == ["empty", "merges", "monotonicity", "smoothness", "rank_sum", "position"]
    assert page.locator("#hint-chart .bar.positive").count() >= 1
    assert page.locator("#evaluator-control").is_hidden()  # this server has no network


@pytest.fixture(scope="module")
def shipped_lab_url() -> Iterator[str]:
    """The URL of a web lab as ``plyground web`` serves it: its 4x4 AI with the network shipped with plyground."""
    from plyground.g2048.ntuple import NTupleNetwork
    from plyground.g2048.registry import load_evaluator

    network = load_evaluator("network")
    assert isinstance(network, NTupleNetwork) and network.path is not None
    with serving(create_app(network=network, network_name=network.path.name)) as url:
        yield url


def test_the_lab_as_served_hints_with_the_shipped_network(
    new_page: Callable[..., Any], shipped_lab_url: str, screenshot_path: Callable[[str], Path]
) -> None:
    page = new_page("?seed=5", url=shipped_lab_url)
    for moves in range(1, 9):  # a few moves: a board with some tiles
        press(page, state_2048(page)["legal"][0], moves)
    assert page.locator("#evaluator-control").is_visible() and page.input_value("#evaluator") == "network"
    page.click("#hint")
    page.wait_for_selector("#hint-chart .bar[data-direction]")
    assert (page.text_content("#hint-chart-title") or "").startswith("Network")
    path = screenshot_path("web-2048.png")
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_autoplay_reaches_256_and_shows_its_search(new_page: Callable[[str], Any]) -> None:
    page = new_page("?seed=23")
    page.fill("#budget", "5")
    page.eval_on_selector("#delay", "input => { input.value = '0'; input.dispatchEvent(new Event('input')); }")
    page.click("#autoplay")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#board-2048 .tile')].some(t => Number(t.textContent) >= 256)",
        timeout=90_000,
    )
    page.click("#autoplay")  # stop
    page.wait_for_function("() => window.plygroundLab.g2048.socket === null")
    assert int(page.text_content("#stat-depth") or 0) >= 1
    assert float((page.text_content("#stat-rate") or "0").replace(",", "")) > 0
    state = state_2048(page)
    assert state["max_tile"] >= 256 and int(page.text_content("#score") or 0) == state["score"] > 0


def test_hint_and_autoplay_with_the_network_chosen_in_the_selector(
    new_page: Callable[..., Any], network_lab_url: str
) -> None:
    seed = first_seed(lambda board: len(board.legal_moves()) == 4)
    page = new_page(f"?seed={seed}", url=network_lab_url)
    # The server's network is chosen at first (the server's default on its boards).
    assert page.locator("#evaluator-control").is_visible() and page.input_value("#evaluator") == "network"
    assert page.text_content('#evaluator option[value="network"]') == "n-tuple network (net.npz, 4x4)"
    page.select_option("#evaluator", "heuristic")
    page.select_option("#evaluator", "network")
    page.click("#hint")
    page.wait_for_function("() => { const h = window.plygroundLab.g2048.hint; return h && h.evaluator === 'network'; }")
    hint = page.evaluate("() => window.plygroundLab.g2048.hint")
    assert set(hint["values"]) == set(hint["afterstates"]) == set(state_2048(page)["legal"])
    shown = page.eval_on_selector_all(
        "#hint-values .hint-value", "items => items.map(i => [i.dataset.direction, i.lastChild.textContent])"
    )
    assert [direction for direction, _ in shown] == ["up", "right", "down", "left"]
    for direction, text in shown:
        assert float(text.replace(",", "")) == pytest.approx(hint["values"][direction], abs=0.051)
    note = page.text_content("#hint-note") or ""
    assert "n-tuple network" in note and note.startswith("Expected future score of each move, in points")
    assert (page.text_content("#hint-chart-title") or "").startswith("Network")
    bars = page.eval_on_selector_all("#hint-chart .bar", "bars => bars.map(b => b.dataset.direction)")
    assert bars == ["up", "right", "down", "left"]

    page.fill("#budget", "2")
    page.eval_on_selector("#delay", "input => { input.value = '0'; input.dispatchEvent(new Event('input')); }")
    page.click("#autoplay")
    page.wait_for_function("() => window.plygroundLab.g2048.state.moves >= 5")
    page.click("#autoplay")  # stop
    page.wait_for_function("() => window.plygroundLab.g2048.socket === null")
    assert page.evaluate("() => window.plygroundLab.g2048.stats.evaluator") == "network"

    page.select_option("#rows", "3")  # a board the network does not play: the heuristic, and why
    page.wait_for_function("() => window.plygroundLab.g2048.state.rows === 3")
    assert page.is_disabled("#evaluator") and page.input_value("#evaluator") == "heuristic"
    assert "The network plays 4x4 boards only" in (page.text_content("#evaluator-note") or "")
    page.click("#hint")
    page.wait_for_selector("#hint-chart .bar[data-feature]")
    assert page.evaluate("() => window.plygroundLab.g2048.hint.evaluator") == "heuristic"
    page.select_option("#rows", "4")  # back on the network's size: the choice comes back
    page.wait_for_function("() => window.plygroundLab.g2048.state.rows === 4")
    assert not page.is_disabled("#evaluator") and page.input_value("#evaluator") == "network"
    assert page.locator("#evaluator-note").is_hidden()


def bar_widths(page: Any) -> dict[str, float]:
    """The width of each move's bar in the hint chart, as a share of its track."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "#hint-chart .bar",
        "bars => Object.fromEntries(bars.map(b => [b.dataset.direction, parseFloat(b.style.width) / 100]))",
    )


def test_the_network_s_close_values_are_drawn_from_a_labelled_axis_below_them(new_page: Callable[..., Any]) -> None:
    page = new_page()
    show = "afterstates => window.plygroundLab.g2048.showAfterstates(afterstates)"
    close = {"up": 176_000.0, "left": 179_000.0, "down": 178_250.0}
    page.evaluate(show, {move: {"points": 0, "value": total, "total": total} for move, total in close.items()})
    widths = bar_widths(page)
    assert widths["left"] == pytest.approx(1.0, abs=0.02)  # the largest value fills its track
    assert widths["up"] == pytest.approx(0.2, abs=0.02)  # the axis: a quarter of the spread below the smallest
    assert widths["down"] == pytest.approx(0.8, abs=0.02)
    assert page.text_content("#hint-chart .axis-low") == "175,250"
    assert page.text_content("#hint-chart .axis-high") == "179,000"
    spread = {"up": -50.0, "left": 100.0}  # both signs: bars from a zero in the middle, and no axis row
    page.evaluate(show, {move: {"points": 0, "value": total, "total": total} for move, total in spread.items()})
    widths = bar_widths(page)
    assert widths == pytest.approx({"up": 0.25, "left": 0.5}, abs=0.02)
    assert page.locator("#hint-chart .axis").count() == 0


def test_a_budget_out_of_range_is_refused_with_a_message_not_changed(new_page: Callable[..., Any]) -> None:
    page = new_page()
    page.fill("#budget", "-5")
    page.dispatch_event("#budget", "change")
    page.click("#autoplay")
    assert page.is_visible("#budget-error")
    assert page.text_content("#budget-error") == "The budget (ms per move) is a whole number from 1 to 1000, not -5."
    assert page.get_attribute("#budget", "aria-invalid") == "true" and page.input_value("#budget") == "-5"
    assert page.evaluate("() => window.plygroundLab.g2048.socket") is None  # no autoplay with another budget
    assert state_2048(page)["moves"] == 0
    page.fill("#budget", "7")
    page.eval_on_selector("#delay", "input => { input.value = '0'; input.dispatchEvent(new Event('input')); }")
    assert page.is_hidden("#budget-error") and page.get_attribute("#budget", "aria-invalid") == "false"
    page.click("#autoplay")
    page.wait_for_function("() => window.plygroundLab.g2048.stats !== null && window.plygroundLab.g2048.stats")
    assert page.evaluate("() => window.plygroundLab.g2048.stats.time_ms") == 7
    page.click("#autoplay")
    page.wait_for_function("() => window.plygroundLab.g2048.socket === null")


def test_two_pages_play_independent_games(new_page: Callable[[str], Any]) -> None:
    first, second = new_page("?seed=24"), new_page("?seed=24")
    one, two = state_2048(first), state_2048(second)
    assert one["id"] != two["id"] and one["board"] == two["board"]
    press(first, one["legal"][0], 1)
    time.sleep(0.2)
    assert state_2048(second)["moves"] == 0 and shown_board(second) == two["board"]


def start_kinrow(
    page: Any, *, n: int, k: int, opponent: str, first: str = "human", ai_ms: int = 300, rule: str = "freestyle"
) -> None:
    page.click("#tab-kinrow")
    page.wait_for_function("() => window.plygroundLab.kinrow.state !== null && !window.plygroundLab.kinrow.busy")
    page.fill("#kinrow-n", str(n))
    page.fill("#kinrow-k", str(k))
    page.select_option("#opponent", opponent)
    page.select_option("#rule", rule)
    page.select_option("#first", first)
    page.fill("#ai-ms", str(ai_ms))
    page.click("#new-kinrow")
    page.wait_for_function(
        f"() => {{ const lab = window.plygroundLab.kinrow; return !lab.busy && lab.state.n === {n} "
        f"&& lab.state.opponent === '{opponent}'; }}"
    )


def test_kinrow_a_scripted_line_beats_the_random_player(new_page: Callable[[str], Any]) -> None:
    line = [(3, 1), (3, 2), (3, 3), (3, 4)]
    page = new_page(f"?seed={scripted_win_seed(7, 4, line)}")
    start_kinrow(page, n=7, k=4, opponent="random")
    for i, (row, col) in enumerate(line):
        page.click(f'#board-kinrow .cell[data-row="{row}"][data-col="{col}"]')
        moves = 2 * i + 1 if i == len(line) - 1 else 2 * i + 2
        page.wait_for_function(
            f"() => !window.plygroundLab.kinrow.busy && window.plygroundLab.kinrow.state.moves === {moves}"
        )
    assert page.text_content("#status-kinrow") == "You win!"
    stones = page.eval_on_selector_all("#board-kinrow .cell", "cells => cells.map(c => c.textContent)")
    assert stones.count("X") == 4 and stones.count("O") == 3
    assert page.locator("#board-kinrow .cell:not([disabled])").count() == 0  # the game is over


def test_kinrow_undo_takes_back_the_move_pair_by_button_and_key(new_page: Callable[[str], Any]) -> None:
    page = new_page("?seed=26")
    start_kinrow(page, n=7, k=4, opponent="random")
    assert page.is_disabled("#undo-kinrow")  # nothing to undo yet
    boards = []
    for moves in (2, 4):
        free = page.locator("#board-kinrow .cell:not([disabled])").first
        free.click()
        page.wait_for_function(
            f"() => !window.plygroundLab.kinrow.busy && window.plygroundLab.kinrow.state.moves === {moves}"
        )
        boards.append(page.evaluate("() => window.plygroundLab.kinrow.state.board"))
    assert not page.is_disabled("#undo-kinrow")
    page.click("#undo-kinrow")
    page.wait_for_function("() => !window.plygroundLab.kinrow.busy && window.plygroundLab.kinrow.state.moves === 2")
    assert page.evaluate("() => window.plygroundLab.kinrow.state.board") == boards[0]
    stones = page.eval_on_selector_all("#board-kinrow .cell", "cells => cells.map(c => c.textContent)")
    assert stones.count("X") == 1 and stones.count("O") == 1
    page.keyboard.press("u")
    page.wait_for_function("() => !window.plygroundLab.kinrow.busy && window.plygroundLab.kinrow.state.moves === 0")
    assert page.is_disabled("#undo-kinrow")
    assert page.text_content("#status-kinrow") == "Your move: you play X, 4 in a row wins."


def test_kinrow_mcts_reply_shows_its_visits_as_a_heat_map(
    new_page: Callable[[str], Any], screenshot_path: Callable[[str], Path]
) -> None:
    page = new_page("?seed=25")
    start_kinrow(page, n=9, k=5, opponent="mcts", ai_ms=150)
    page.click('#board-kinrow .cell[data-row="4"][data-col="4"]')
    page.wait_for_function("() => { const s = window.plygroundLab.kinrow.state; return s.moves === 2 && s.heatmap; }")
    page.wait_for_selector("#board-kinrow .cell .heat")
    heatmap = page.evaluate("() => window.plygroundLab.kinrow.state.heatmap")
    shown = page.eval_on_selector_all(
        "#board-kinrow .cell", "cells => cells.map(c => [+c.dataset.row, +c.dataset.col, +(c.dataset.visits || 0)])"
    )
    assert all(visits == heatmap["visits"][r][c] for r, c, visits in shown) and heatmap["total"] > 0
    shaded = page.locator("#board-kinrow .cell .heat").count()
    assert shaded == sum(1 for row in heatmap["visits"] for v in row if v > 0) > 1
    visits, r, c = max((v, r, c) for r, row in enumerate(heatmap["visits"]) for c, v in enumerate(row))
    title = page.get_attribute(f'#board-kinrow .cell[data-row="{r}"][data-col="{c}"]', "title") or ""
    assert title.startswith(f"{visits:,} visits (")
    assert "MCTS iterations" in (page.text_content("#ai-kinrow") or "")
    path = screenshot_path("web-kinrow.png")
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000
    page.uncheck("#show-heat")
    assert page.locator("#board-kinrow .cell .heat").count() == 0


def assert_engine_line_shown(page: Any) -> None:
    """The engine's line numbered 1, 2, 3... from its move, in the colours of O (the AI) and X, and its caption."""
    state = page.evaluate("() => window.plygroundLab.kinrow.state")
    line = state["line"]
    assert line and line[0] == state["ai"]["move"]
    numbered = page.eval_on_selector_all(
        "#board-kinrow .cell[data-pv]", "cells => cells.map(c => [+c.dataset.row, +c.dataset.col, +c.dataset.pv])"
    )
    assert sorted(numbered, key=lambda cell: cell[2]) == [[r, c, i + 1] for i, (r, c) in enumerate(line)]
    marks = page.eval_on_selector_all(".cell .pv", "marks => marks.map(m => [m.textContent, m.className])")
    assert sorted(int(text) for text, _ in marks) == list(range(1, len(line) + 1))
    for text, classes in marks:  # 1 is the AI's (O's) move, 2 the reply it expects of X, and so on
        assert ("o" if int(text) % 2 == 1 else "x") in classes.split()
    caption = page.text_content("#ai-kinrow") or ""
    assert caption.startswith(f"The engine played row {line[0][0] + 1}, column {line[0][1] + 1}: ")
    assert "positions in" in caption and caption.endswith(" ms.") == (len(line) == 1)
    if state["ai"]["kind"] == "search":
        assert f"search to depth {state['ai']['depth']}" in caption


def test_kinrow_the_engine_is_the_default_and_its_line_is_numbered_on_the_board(
    new_page: Callable[[str], Any], screenshot_path: Callable[[str], Path]
) -> None:
    page = new_page()
    page.click("#tab-kinrow")
    page.wait_for_function("() => window.plygroundLab.kinrow.state !== null && !window.plygroundLab.kinrow.busy")
    assert page.input_value("#opponent") == "engine"
    assert page.evaluate("() => window.plygroundLab.kinrow.state.opponent") == "engine"
    start_kinrow(page, n=9, k=5, opponent="engine", ai_ms=150)
    for moves, (row, col) in ((2, (4, 4)), (4, (5, 5))):
        state = page.evaluate("() => window.plygroundLab.kinrow.state")
        if state["board"][row][col]:
            row, col = 2, 2
        page.click(f'#board-kinrow .cell[data-row="{row}"][data-col="{col}"]')
        page.wait_for_function(
            f"() => window.plygroundLab.kinrow.state.moves === {moves} && !window.plygroundLab.kinrow.busy"
        )
        assert_engine_line_shown(page)
    path = screenshot_path("web-kinrow-engine.png")
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page.uncheck("#show-heat")
    assert page.locator("#board-kinrow .cell .pv").count() == 0


def test_kinrow_renju_shows_x_forbidden_points(new_page: Callable[[str], Any]) -> None:
    from plyground.kinrow import State

    page = new_page("?seed=3")  # the random O of test_api's renju test, which stays out of X's way
    start_kinrow(page, n=9, k=5, opponent="random", rule="renju")
    board = State(9, 5)
    for i, name in enumerate(("e3", "e4", "c5", "d5")):
        row, col = board.coords(board.parse_move(name))
        page.click(f'#board-kinrow .cell[data-row="{row}"][data-col="{col}"]')
        page.wait_for_function(
            f"() => !window.plygroundLab.kinrow.busy && window.plygroundLab.kinrow.state.moves === {2 * i + 2}"
        )
    forbidden = page.evaluate("() => window.plygroundLab.kinrow.state.forbidden")
    assert [4, 4] in forbidden
    crossed = page.eval_on_selector_all(
        "#board-kinrow .cell.forbidden", "cells => cells.map(c => [+c.dataset.row, +c.dataset.col])"
    )
    assert sorted(crossed) == sorted(forbidden)
    title = page.get_attribute('#board-kinrow .cell[data-row="4"][data-col="4"]', "title")
    assert title == "forbidden to X under renju"
    page.click('#board-kinrow .cell[data-row="4"][data-col="4"]')
    page.wait_for_function("() => document.querySelector('#status-kinrow').classList.contains('error')")
    assert page.text_content("#status-kinrow") == "e5 is forbidden to X under renju (double-three)"
    assert page.evaluate("() => window.plygroundLab.kinrow.state.moves") == 8
