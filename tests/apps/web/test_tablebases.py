"""``plyground web --tablebases``: the lab's 2048 hints and autoplay take an endgame table's move where one advises,
say so with its exact probability, in the JSON and on the page; bad values are one-line errors."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from plyground.apps.cli.options import load_tablebases
from plyground.apps.web.server import create_app
from plyground.g2048 import Board
from plyground.g2048.tablebase import Advisor
from tests.apps.cli.test_main import run_cli
from tests.apps.conftest import TABLE_BOARD, TABLE_FORMATION
from tests.apps.web.test_api import FAST, HOSTS, LAB, assert_web_fails_in_one_line, new_2048
from tests.g2048.positions import game_at

TABLE = {"formation": TABLE_FORMATION, "target": 16, "probability": 1.0, "chain": 256}


@pytest.fixture(scope="module")
def tables(tables_folder: Path) -> Advisor:
    advisor = load_tablebases(str(tables_folder), 0.1)
    assert advisor is not None
    return advisor


@pytest.fixture(scope="module")
def client(tables: Advisor) -> Iterator[TestClient]:
    """A lab whose 2048 AI asks the endgame table first."""
    with TestClient(create_app(limits=FAST, search_slots=2, hosts=HOSTS, tablebases=tables), base_url=LAB) as test:
        yield test


def put_on(app: Any, game_id: str, board: str) -> None:
    """Put the server's game ``game_id`` on ``board`` (play would take long to reach it)."""
    session = app.state.lab.games_2048.get(game_id)
    with session.lock:
        session.game = game_at(Board.parse(board), seed=1)
        session.version += 1


def test_a_hint_where_a_table_advises_is_the_tables_move_with_its_probability(client: TestClient) -> None:
    game = new_2048(client, rows=3, cols=3, seed=1)
    put_on(client.app, game["id"], TABLE_BOARD)
    hint = client.post(f"/api/2048/games/{game['id']}/hint", json={"time_ms": 10}).json()
    assert hint["best"] == "up" and {key: hint["table"][key] for key in TABLE} == TABLE
    assert hint["table"]["moves"]["up"] == 1.0 and set(hint["table"]["moves"]) <= set(hint["values"])
    assert hint["depth"] >= 1 and hint["board"] == Board.parse(TABLE_BOARD).to_rows()  # searched too: its values
    put_on(client.app, game["id"], "2 2 0/0 4 0/0 0 0")  # no table fits
    hint = client.post(f"/api/2048/games/{game['id']}/hint", json={"time_ms": 10}).json()
    assert hint["table"] is None and hint["best"] in hint["values"]


def test_autoplay_plays_the_tables_move_unsearched_and_says_so(client: TestClient) -> None:
    game = new_2048(client, rows=3, cols=3, seed=2)
    put_on(client.app, game["id"], TABLE_BOARD)
    with client.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
        ws.send_json({"type": "start", "time_ms": 2})
        first = ws.receive_json()
        ws.send_json({"type": "stop"})
        while ws.receive_json()["type"] != "done":
            pass
    assert first["move"] == "up" and first["game"]["board"][1][2] == 16  # the 16 built below the 16
    stats = first["stats"]
    assert (stats["depth"], stats["nodes"]) == (0, 0) and {key: stats["table"][key] for key in TABLE} == TABLE


def test_the_evaluators_list_the_tables(client: TestClient) -> None:
    answer = client.get("/api/2048/evaluators").json()
    assert answer["tablebases"] == [{"formation": TABLE_FORMATION, "target": 16, "p_four": 0.1}]


def test_a_lab_without_tables_says_no_table() -> None:
    with TestClient(create_app(limits=FAST, search_slots=1, hosts=HOSTS), base_url=LAB) as plain:
        game = new_2048(plain, rows=3, cols=3, seed=1)
        put_on(plain.app, game["id"], TABLE_BOARD)
        assert plain.post(f"/api/2048/games/{game['id']}/hint", json={"time_ms": 5}).json()["table"] is None
        assert plain.get("/api/2048/evaluators").json()["tablebases"] == []
        with plain.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
            ws.send_json({"type": "start", "time_ms": 2})
            first = ws.receive_json()
            ws.send_json({"type": "stop"})
            while ws.receive_json()["type"] != "done":
                pass
        assert first["stats"]["table"] is None and first["stats"]["depth"] >= 1


# -- plyground web --tablebases -------------------------------------------------------------------


def test_plyground_web_serves_the_tables_of_its_option(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tables_folder: Path
) -> None:
    served: list[dict[str, Any]] = []
    monkeypatch.setattr("plyground.apps.web.server.serve", lambda *args, **kwargs: served.append(kwargs))
    common = ("web", "--no-browser", "--evaluator", "heuristic")
    for option in (str(tables_folder), "none"):
        status, _, err = run_cli(capsys, *common, "--tablebases", option)
        assert status == 0, err
    status, _, err = run_cli(capsys, *common)
    assert status == 0, err
    with_tables, without, default = (kwargs["tablebases"] for kwargs in served)
    assert len(with_tables) == 1 and with_tables.tables[0].p_four == 0.1  # those of the lab's games
    assert without is None and default is None  # taken blindly, the tables measured weaker: none by default


def test_plyground_web_with_bad_tables_fails_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tables_folder: Path
) -> None:
    status, out, err = run_cli(capsys, "web", "--no-browser", "--tablebases", str(tmp_path / "none"))
    assert status == 2 and out == ""
    assert_web_fails_in_one_line(err, "no endgame table in", str(tmp_path / "none"))
    damaged = tmp_path / "damaged"
    shutil.copytree(tables_folder, damaged)
    for path in damaged.rglob("*"):
        if path.is_file():
            path.write_bytes(b"broken")
    status, out, err = run_cli(capsys, "web", "--no-browser", "--tablebases", str(damaged))
    assert status == 2 and out == ""
    assert_web_fails_in_one_line(err, str(damaged))


# -- the page ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tables: Advisor) -> Iterator[tuple[str, Any]]:
    """The URL and the app of a lab with the endgame table, served in a background thread."""
    pytest.importorskip("uvicorn")
    from tests.apps.web.test_browser import serving

    app = create_app(tablebases=tables)
    with serving(app) as url:
        yield url, app


def test_the_page_shows_the_tables_hint_and_autoplay_move(browser: Any, served: tuple[str, Any]) -> None:
    url, app = served
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url + "?seed=1")
        page.wait_for_function("() => window.plygroundLab && window.plygroundLab.g2048.state !== null")
        assert page.text_content("#tables-note") == f"The AI plays by 1 endgame table where one advises " \
            f"({TABLE_FORMATION} for 16)."  # fmt: skip
        page.select_option("#rows", "3")
        page.select_option("#cols", "3")
        page.wait_for_function(
            "() => { const s = window.plygroundLab.g2048.state; return s.rows === 3 && s.cols === 3; }"
        )
        game_id = page.evaluate("() => window.plygroundLab.g2048.state.id")
        put_on(app, game_id, TABLE_BOARD)
        page.click("#hint")
        page.wait_for_selector("#hint-table", state="visible")
        assert page.text_content("#hint-table") == f"Endgame table {TABLE_FORMATION} for 16: ↑ up, which builds the " \
            "16 with probability 1.000000 (exact), to merge into 256. The search's values:"  # fmt: skip
        assert page.get_attribute("#hint-values .best", "data-direction") == "up"

        page.eval_on_selector("#delay", "input => { input.value = '1000'; input.dispatchEvent(new Event('input')); }")
        page.click("#autoplay")  # its first move is the table's, shown for a second before the next
        page.wait_for_function("() => document.getElementById('stat-table').textContent !== '–'")
        assert page.text_content("#stat-table") == f"{TABLE_FORMATION} for 16, p 1.0000"
        page.click("#autoplay")  # stop
        page.wait_for_function("() => window.plygroundLab.g2048.socket === null")
    finally:
        context.close()
    assert not errors
