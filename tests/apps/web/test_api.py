"""The web lab's server: the JSON API and the autoplay WebSocket through starlette's TestClient, and ``plyground web``.

Moves are checked against the game library itself (``Board.move``, ``evaluate``); every
endpoint is fed hypothesis-generated junk and must answer a 4xx JSON error, never a 500.
The n-tuple evaluator is tried with a tiny network (two 3-cell tuples) trained here in a
fraction of a second: it checks the plumbing, not the strength.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import httpx2 as httpx  # the HTTP client starlette.testclient is built on (httpx2 since Starlette 1.2)
import pytest
from anyio.from_thread import start_blocking_portal
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.requests import Request
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from plyground.apps.cli.main import main
from plyground.apps.render import tile_colour
from plyground.apps.web.guard import LOOPBACK_HOSTS, allowed_hosts
from plyground.apps.web.server import Limits, create_app
from plyground.apps.web.sessions import Searches
from plyground.apps.web.validation import ApiError, read_json_object
from plyground.errors import install_command
from plyground.g2048 import Board, Decision, Expectimax, Game, evaluate
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.registry import SHIPPED_FILE
from plyground.kinrow import State
from plyground.kinrow.players import RandomPlayer
from tests.apps.cli.test_main import assert_one_line_error, run_cli

FAST = Limits(search_ms=30, kinrow_ms=30, kinrow_iterations=300, kinrow_depth=2)
LAB = "http://localhost:8048"  # a host name the lab answers (starlette's "testserver" is not one)
WS_X = "/ws/2048/games/x/autoplay"
HOSTS = LOOPBACK_HOSTS | {"testserver"}  # starlette's TestClient opens every WebSocket on ws://testserver
TINY_TUPLES = [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)]]


def tiny_network() -> NTupleNetwork:
    """A 4x4 network of two 3-cell tuples (8,192 weights) after 300 games of training: fast and light."""
    network = NTupleNetwork(4, 4, tuples=TINY_TUPLES, seed=0)
    network.learn(300, alpha=0.1)
    return network


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(limits=FAST, search_slots=2, hosts=HOSTS), base_url=LAB) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def network() -> NTupleNetwork:
    return tiny_network()


@pytest.fixture(scope="module")
def network_client(network: NTupleNetwork) -> Iterator[TestClient]:
    """A lab whose AI may also search with the tiny network."""
    with TestClient(
        create_app(limits=FAST, search_slots=2, network=network, network_name="net.npz", hosts=HOSTS), base_url=LAB
    ) as test_client:
        yield test_client


def new_2048(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/2048/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def new_kinrow(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/kinrow/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def first_seed(condition: Any, rows: int = 4, cols: int = 4) -> int:
    """The first seed whose starting board meets ``condition`` (the server's games start the same)."""
    return next(seed for seed in range(1000) if condition(Game(rows, cols, seed=seed).board))


def assert_error(response: httpx.Response, status: int | None = None) -> str:
    """A 4xx answer with a one-line JSON error; returns the message."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    if status is not None:
        assert response.status_code == status, response.text
    assert "Traceback" not in response.text
    error = response.json()["error"]
    assert isinstance(error, str) and error and "\n" not in error
    return error


def spawned(before: Board, after: list[list[int]]) -> tuple[int, int]:
    """The one cell where ``after`` differs from ``before``: it must hold a new 2 or 4 on an empty cell."""
    diffs = [(r, c) for r, row in enumerate(after) for c, value in enumerate(row) if value != before.to_rows()[r][c]]
    assert len(diffs) == 1, (before.to_rows(), after)
    r, c = diffs[0]
    assert before[r, c] == 0 and after[r][c] in (2, 4)
    return r, c


# -- 2048 ------------------------------------------------------------------------------


def test_new_2048_game_has_the_asked_size_two_tiles_and_its_seed(client: TestClient) -> None:
    game = new_2048(client, rows=3, cols=2, seed=11)
    assert (game["rows"], game["cols"], game["score"], game["moves"]) == (3, 2, 0, 0)
    assert [len(row) for row in game["board"]] == [2, 2, 2]
    assert sorted(v for row in game["board"] for v in row if v) in ([2, 2], [2, 4], [4, 4])
    assert game["board"] == Game(3, 2, seed=11).board.to_rows()
    assert game["legal"] == Board.from_rows(game["board"]).legal_moves()
    assert not game["can_undo"] and not game["over"]
    again = new_2048(client, rows=3, cols=2, seed=11)
    assert again["id"] != game["id"] and again["board"] == game["board"]


def test_moves_change_board_and_score_as_board_move_says(client: TestClient) -> None:
    game = new_2048(client, seed=5)
    score = 0
    for i in range(12):
        before = Board.from_rows(game["board"])
        direction = before.legal_moves()[i % len(before.legal_moves())]
        moved, points = before.move(direction)
        response = client.post(f"/api/2048/games/{game['id']}/move", json={"direction": direction})
        assert response.status_code == 200, response.text
        game = response.json()
        spawned(moved, game["board"])
        score += points
        assert (game["points"], game["score"], game["moves"]) == (points, score, i + 1)
    assert score > 0
    assert client.get(f"/api/2048/games/{game['id']}").json()["board"] == game["board"]


def test_undo_restores_the_board_and_score_and_then_has_nothing_to_undo(client: TestClient) -> None:
    game = new_2048(client, seed=2)
    path = f"/api/2048/games/{game['id']}"
    moved = client.post(f"{path}/move", json={"direction": game["legal"][0]}).json()
    assert moved["can_undo"]
    undone = client.post(f"{path}/undo").json()
    assert (undone["board"], undone["score"], undone["moves"]) == (game["board"], 0, 0)
    assert "nothing to undo" in assert_error(client.post(f"{path}/undo", json={}), 409)


def test_an_illegal_move_is_a_conflict_and_changes_nothing(client: TestClient) -> None:
    seed = first_seed(lambda board: len(board.legal_moves()) < 4)
    game = new_2048(client, seed=seed)
    illegal = next(d for d in ("up", "right", "down", "left") if d not in game["legal"])
    path = f"/api/2048/games/{game['id']}"
    assert "illegal move" in assert_error(client.post(f"{path}/move", json={"direction": illegal}), 409)
    assert client.get(path).json()["board"] == game["board"]
    assert "direction must be one of" in assert_error(client.post(f"{path}/move", json={"direction": "north"}), 422)


def test_hint_values_exactly_the_legal_moves_and_breaks_the_heuristic_down(client: TestClient) -> None:
    for seed in (first_seed(lambda b: len(b.legal_moves()) == 4), first_seed(lambda b: len(b.legal_moves()) == 2)):
        game = new_2048(client, seed=seed)
        hint = client.post(f"/api/2048/games/{game['id']}/hint", json={"time_ms": 20}).json()
        assert set(hint["values"]) == set(game["legal"])
        assert hint["best"] in hint["values"] and hint["values"][hint["best"]] == max(hint["values"].values())
        assert hint["unit"] == "heuristic units"  # the name and unit of ``plyground 2048 hint --json`` too
        assert hint["depth"] >= 1 and hint["nodes"] > 0 and hint["board"] == game["board"]
        contributions = hint["evaluation"]["contributions"]
        assert math.isclose(sum(contributions.values()), hint["evaluation"]["total"], rel_tol=1e-9, abs_tol=1e-9)
        expected = evaluate(Board.from_rows(game["board"]))
        assert contributions == pytest.approx(expected.contributions)
    assert "time_ms must be an integer from 1 to 30" in assert_error(
        client.post(f"/api/2048/games/{game['id']}/hint", json={"time_ms": 31}), 422
    )


def test_new_game_on_a_small_board_is_independent_of_the_others(client: TestClient) -> None:
    first, second = new_2048(client, seed=1), new_2048(client, rows=2, cols=3)
    client.post(f"/api/2048/games/{first['id']}/move", json={"direction": first["legal"][0]})
    assert client.get(f"/api/2048/games/{second['id']}").json()["board"] == second["board"]
    assert client.get(f"/api/2048/games/{first['id']}").json()["moves"] == 1


# -- autoplay ----------------------------------------------------------------------------


def receive_until_end(ws: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The move messages, then the first other message."""
    moves = []
    while True:
        message = ws.receive_json()
        if message["type"] != "move":
            return moves, message
        moves.append(message)


def test_autoplay_moves_until_stopped_and_takes_new_settings(client: TestClient) -> None:
    game = new_2048(client, seed=3)
    with client.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
        ws.send_json({"type": "start", "time_ms": 2})
        first = [ws.receive_json() for _ in range(4)]
        ws.send_json({"type": "settings", "time_ms": 3, "delay_ms": 0})
        ws.send_json({"type": "stop"})
        _, end = receive_until_end(ws)
    for i, message in enumerate(first):
        assert message["type"] == "move" and message["game"]["moves"] == i + 1
        assert message["move"] in ("up", "right", "down", "left")
        stats = message["stats"]
        assert stats["depth"] >= 1 and stats["nodes"] > 0 and stats["moves"] == i + 1 and stats["moves_per_second"] > 0
    assert end["type"] == "done" and end["reason"] == "stopped"
    state = client.get(f"/api/2048/games/{game['id']}").json()
    assert state["moves"] == end["game"]["moves"] >= 4 and not state["autoplaying"]


def test_autoplay_plays_a_small_board_to_the_end(client: TestClient) -> None:
    game = new_2048(client, rows=2, cols=2, seed=4)
    with client.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
        ws.send_json({"type": "start", "time_ms": 1})
        moves, end = receive_until_end(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert end == {"type": "done", "reason": "game over", "game": end["game"]}
    assert end["game"]["over"] and end["game"]["moves"] == len(moves) > 0
    assert closed.value.code == 1000


def test_a_game_autoplays_over_one_connection_at_most(client: TestClient) -> None:
    game = new_2048(client, seed=6)
    path = f"/ws/2048/games/{game['id']}/autoplay"
    with client.websocket_connect(path) as ws:
        ws.send_json({"type": "start", "time_ms": 2, "delay_ms": 50})
        assert ws.receive_json()["type"] == "move"
        with client.websocket_connect(path) as second:
            assert "already autoplaying" in second.receive_json()["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                second.receive_json()
            assert closed.value.code == 4409
    with client.websocket_connect(path) as ws:  # the first one has gone: free again
        ws.send_json({"type": "start", "time_ms": 2})
        assert ws.receive_json()["type"] == "move"


def expect_ws_error(ws: Any, code: int = 4400) -> str:
    """Skip move messages; the next must be an error, then the socket closes with ``code``."""
    _, message = receive_until_end(ws)
    assert message["type"] == "error" and isinstance(message["error"], str) and "Traceback" not in message["error"]
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == code
    return message["error"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "message",
    [
        "not json",
        "[1, 2]",
        "NaN",
        '{"type": "go"}',
        '{"type": "stop"}',
        '{"type": "start", "time_ms": 0}',
        '{"type": "start", "time_ms": 31}',
        '{"type": "start", "time_ms": true}',
        '{"type": "start", "time_ms": 1e999}',
        '{"type": "start", "delay_ms": -1}',
        '{"type": "start", "junk": 1}',
        "[" * 3000,
        "x" * 20_000,
        b"\x00\x01",
    ],
)
def test_a_bad_first_autoplay_message_gets_an_error_and_a_close(client: TestClient, message: str | bytes) -> None:
    game = new_2048(client, seed=7)
    with client.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
        if isinstance(message, bytes):
            ws.send_bytes(message)
        else:
            ws.send_text(message)
        expect_ws_error(ws)
    assert not client.get(f"/api/2048/games/{game['id']}").json()["autoplaying"]


@pytest.mark.parametrize(
    "message", ['{"type": "settings", "delay_ms": 5000}', '{"type": "start"}', "{", '{"type": "stop", "now": true}']
)
def test_a_bad_message_during_autoplay_stops_it_with_an_error(client: TestClient, message: str) -> None:
    game = new_2048(client, seed=8)
    with client.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
        ws.send_json({"type": "start", "time_ms": 2, "delay_ms": 20})
        assert ws.receive_json()["type"] == "move"
        ws.send_text(message)
        expect_ws_error(ws)


def test_autoplay_of_an_unknown_game_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws/2048/games/nope/autoplay") as ws:
        assert "no 2048 game" in expect_ws_error(ws, 4404)


# -- the n-tuple network as the AI's evaluator -------------------------------------------------


def test_the_evaluators_the_server_has(client: TestClient, network_client: TestClient) -> None:
    alone = client.get("/api/2048/evaluators")
    assert alone.status_code == 200
    assert alone.json() == {"evaluators": ["heuristic"], "default": "heuristic", "network": None, "tablebases": []}
    assert network_client.get("/api/2048/evaluators").json() == {
        "evaluators": ["heuristic", "network"],
        "default": "network",  # on boards of the network's size
        "network": {
            "kind": "network",
            "name": "n-tuple network",
            "label": "n-tuple network",
            "unit": "points",
            "rows": 4,
            "cols": 4,
            "file": "net.npz",
            "tuples": 2,
            "games": 300,
        },
        "tablebases": [],
    }
    assert_error(network_client.post("/api/2048/evaluators", json={}), 405)


def test_hint_with_the_network_values_every_legal_move(network_client: TestClient, network: NTupleNetwork) -> None:
    for seed in (first_seed(lambda b: len(b.legal_moves()) == 4), first_seed(lambda b: len(b.legal_moves()) == 2)):
        game = new_2048(network_client, seed=seed)
        path = f"/api/2048/games/{game['id']}/hint"
        hint = network_client.post(path, json={"time_ms": 20, "evaluator": "network"}).json()
        assert hint["evaluator"] == "network" and hint["evaluation"] is None and hint["board"] == game["board"]
        assert hint["searched"] is None  # a new game has no 16384 to downgrade
        assert set(hint["values"]) == set(hint["afterstates"]) == set(game["legal"])
        assert hint["best"] in hint["values"] and hint["values"][hint["best"]] == max(hint["values"].values())
        assert hint["unit"] == "points"
        assert hint["depth"] >= 1 and hint["nodes"] > 0
        board = Board.from_rows(game["board"])
        for move, parts in hint["afterstates"].items():
            after, points = board.move(move)
            assert parts["points"] == points and parts["value"] == pytest.approx(network.value(after))
            assert parts["total"] == pytest.approx(points + parts["value"])
        heuristic = network_client.post(path, json={"time_ms": 5, "evaluator": "heuristic"}).json()
        assert heuristic["evaluator"] == "heuristic" and heuristic["afterstates"] is None
        assert heuristic["evaluation"]["contributions"] == pytest.approx(evaluate(board).contributions)


def test_without_an_evaluator_the_network_plays_its_boards_and_the_heuristic_the_others(
    client: TestClient, network_client: TestClient
) -> None:
    for server, rows, expected in (
        (network_client, 4, "network"),
        (network_client, 3, "heuristic"),
        (client, 4, "heuristic"),
    ):
        game = new_2048(server, rows=rows, cols=rows, seed=2)
        hint = server.post(f"/api/2048/games/{game['id']}/hint", json={"time_ms": 5}).json()
        assert hint["evaluator"] == expected and hint["unit"] == (
            "points" if expected == "network" else "heuristic units"
        )
        with server.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
            ws.send_json({"type": "start", "time_ms": 2})
            first = ws.receive_json()
            ws.send_json({"type": "stop"})
            receive_until_end(ws)
        assert first["type"] == "move" and first["stats"]["evaluator"] == expected


@pytest.mark.parametrize("with_network", [False, True])
def test_the_heuristic_searches_with_the_heuristic_on_every_board(
    with_network: bool, network: NTupleNetwork, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``"heuristic"`` is the heuristic on 4x4 too, where ``Expectimax()`` alone would take the shipped network."""
    searched: list[str] = []
    choose = Expectimax.choose
    board = Board(0x0000001000201232)

    def recorded(self: Expectimax, searching: Board) -> Decision:
        if searching is board:  # not the searches of other tests' servers that are still shutting down
            searched.append(self.evaluator_for(board.rows, board.cols).kind)
        return choose(self, searching)

    monkeypatch.setattr(Expectimax, "choose", recorded)
    searches = Searches(1, network=network if with_network else None)
    try:
        with ThreadPoolExecutor(1) as pool:  # an event loop of its own, whatever runs in this thread
            for evaluator in searches.evaluators:
                pool.submit(anyio.run, searches.expectimax, board, 5, evaluator).result()
    finally:
        searches.close()
    assert searched == (["heuristic", "network"] if with_network else ["heuristic"])


def test_hint_with_the_network_where_it_cannot_play_is_a_one_line_error(
    client: TestClient, network_client: TestClient
) -> None:
    game = new_2048(client, seed=1)
    error = assert_error(client.post(f"/api/2048/games/{game['id']}/hint", json={"evaluator": "network"}), 422)
    assert "evaluator network needs a network, and this server has none" in error
    assert "plyground web --evaluator network, or ntuple:PATH" in error
    small = new_2048(network_client, rows=3, cols=3, seed=1)
    error = assert_error(network_client.post(f"/api/2048/games/{small['id']}/hint", json={"evaluator": "network"}), 422)
    assert "plays 4x4 boards, not 3x3 ones" in error
    path = f"/api/2048/games/{new_2048(network_client, seed=1)['id']}/hint"
    for bad in ("ntuple", "NETWORK", 1, ["network"]):
        assert "evaluator must be one of heuristic, network, got" in assert_error(
            network_client.post(path, json={"evaluator": bad}), 422
        )


def test_autoplay_with_the_network_plays_and_can_switch_to_the_heuristic(network_client: TestClient) -> None:
    game = new_2048(network_client, seed=3)
    with network_client.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
        ws.send_json({"type": "start", "time_ms": 2, "evaluator": "network"})
        first = [ws.receive_json() for _ in range(4)]
        ws.send_json({"type": "settings", "evaluator": "heuristic"})
        later = [ws.receive_json() for _ in range(40)]  # the setting holds from the next move on
        ws.send_json({"type": "stop"})
        _, end = receive_until_end(ws)
    for i, message in enumerate(first):
        assert message["type"] == "move" and message["game"]["moves"] == i + 1
        assert message["stats"]["evaluator"] == "network" and message["stats"]["depth"] >= 1
    assert later[-1]["type"] == "move" and later[-1]["stats"]["evaluator"] == "heuristic"
    assert end["type"] == "done" and end["game"]["moves"] >= 44


@pytest.mark.parametrize(
    ("rows", "messages", "part"),
    [
        (4, ['{"type": "start", "evaluator": "ntuple"}'], "evaluator must be one of heuristic, network"),
        (3, ['{"type": "start", "evaluator": "network"}'], "plays 4x4 boards, not 3x3 ones"),
        (
            3,
            ['{"type": "start", "time_ms": 2, "delay_ms": 50}', '{"type": "settings", "evaluator": "network"}'],
            "plays 4x4 boards, not 3x3 ones",
        ),
    ],
)
def test_autoplay_with_the_network_where_it_cannot_play_is_refused(
    network_client: TestClient, rows: int, messages: list[str], part: str
) -> None:
    game = new_2048(network_client, rows=rows, cols=rows, seed=5)
    with network_client.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
        for message in messages:
            ws.send_text(message)
        assert part in expect_ws_error(ws)
    assert not network_client.get(f"/api/2048/games/{game['id']}").json()["autoplaying"]


def test_autoplay_with_the_network_on_a_server_without_one_is_refused(client: TestClient) -> None:
    game = new_2048(client, seed=5)
    with client.websocket_connect(f"/ws/2048/games/{game['id']}/autoplay") as ws:
        ws.send_json({"type": "start", "evaluator": "network"})
        assert "evaluator network needs a network" in expect_ws_error(ws)


# -- k-in-a-row ------------------------------------------------------------------------------


def cells(game: dict[str, Any]) -> dict[tuple[int, int], str]:
    return {(r, c): v for r, row in enumerate(game["board"]) for c, v in enumerate(row) if v}


def test_kinrow_human_move_gets_the_ai_reply_and_the_mcts_heat_map(client: TestClient) -> None:
    game = new_kinrow(client, n=7, k=4, opponent="mcts", seed=1, iterations=300)
    assert (game["human"], game["to_move"], game["moves"], game["ai"], game["heatmap"]) == ("X", "X", 0, None, None)
    after = client.post(f"/api/kinrow/games/{game['id']}/play", json={"row": 3, "col": 3}).json()
    stones = cells(after)
    ai_move = tuple(after["ai"]["move"])
    assert stones == {(3, 3): "X", ai_move: "O"}
    assert after["last_move"] == list(ai_move) and after["to_move"] == "X" and after["winner"] is None
    heatmap = after["heatmap"]
    visits = heatmap["visits"]
    assert len(visits) == 7 and all(len(row) == 7 for row in visits)
    assert visits[3][3] == 0 and sum(map(sum, visits)) == heatmap["total"] > 0
    assert visits[ai_move[0]][ai_move[1]] == max(max(row) for row in visits)  # MCTS plays its most visited move
    assert 0 < after["ai"]["iterations"] <= 300 and heatmap["iterations"] == after["ai"]["iterations"]


def test_kinrow_ai_opens_when_it_moves_first(client: TestClient) -> None:
    for opponent in ("engine", "mcts", "alphabeta", "random"):
        game = new_kinrow(client, n=5, k=4, opponent=opponent, human_first=False, seed=2)
        assert game["human"] == "O" and game["to_move"] == "O" and game["moves"] == 1
        assert list(cells(game).values()) == ["X"] and game["last_move"] == game["ai"]["move"]
        assert (game["heatmap"] is not None) == (opponent == "mcts")
        assert ("depth" in game["ai"]) == (opponent in ("alphabeta", "engine"))
        assert (game["line"][:1] == [game["ai"]["move"]]) == (opponent == "engine")


def scripted_win_seed(n: int, k: int, line: list[tuple[int, int]]) -> int:
    """A seed with which the random opponent never takes a cell of ``line`` while the person plays it in order."""
    for seed in range(200):
        state, player = State(n, k), RandomPlayer(seed)
        for row, col in line:
            state.play(state.index(row, col))
            if state.is_over:
                return seed
            reply = player.choose(state)
            if state.coords(reply) in line:
                break
            state.play(reply)
    raise AssertionError("no seed found")


def test_kinrow_a_scripted_line_beats_the_random_player_and_ends_the_game(client: TestClient) -> None:
    line = [(2, 1), (2, 2), (2, 3), (2, 4)]
    game = new_kinrow(client, n=7, k=4, opponent="random", seed=scripted_win_seed(7, 4, line))
    path = f"/api/kinrow/games/{game['id']}/play"
    for row, col in line:
        game = client.post(path, json={"row": row, "col": col}).json()
    assert (game["result"], game["winner"], game["moves"]) == ("X", "human", 7)
    assert game["ai"] is None and game["heatmap"] is None
    assert "the game is over" in assert_error(client.post(path, json={"row": 0, "col": 0}), 409)


def test_kinrow_alphabeta_beats_a_careless_player(client: TestClient) -> None:
    game = new_kinrow(client, n=4, k=3, opponent="alphabeta", human_first=False)
    path = f"/api/kinrow/games/{game['id']}/play"
    while game["result"] is None:  # the person plays the first empty cell in reading order
        row, col = next((r, c) for r in range(4) for c in range(4) if not game["board"][r][c])
        game = client.post(path, json={"row": row, "col": col}).json()
    assert (game["result"], game["winner"]) == ("X", "ai")


def test_kinrow_undo_takes_back_the_persons_move_and_the_ais_reply(client: TestClient) -> None:
    game = new_kinrow(client, n=7, k=4, opponent="mcts", seed=5, iterations=300)
    play, undo = (f"/api/kinrow/games/{game['id']}/{action}" for action in ("play", "undo"))
    assert game["can_undo"] is False
    assert "nothing to undo" in assert_error(client.post(undo, json={}), 409)
    first = client.post(play, json={"row": 3, "col": 3}).json()
    row, col = next((r, c) for r in range(7) for c in range(7) if not first["board"][r][c])
    second = client.post(play, json={"row": row, "col": col}).json()
    assert second["moves"] == 4 and second["can_undo"] is True and second["heatmap"] is not None

    after = client.post(undo, json={}).json()
    assert (after["board"], after["moves"], after["last_move"], after["to_move"]) == (
        first["board"], 2, first["last_move"], "X",
    )  # fmt: skip
    assert (after["ai"], after["heatmap"], after["line"], after["can_undo"]) == (None, None, [], True)
    assert client.get(f"/api/kinrow/games/{game['id']}").json() == after
    after = client.post(undo, json={}).json()
    assert (after["moves"], after["last_move"], after["can_undo"]) == (0, None, False)
    assert not cells(after)
    assert "nothing to undo" in assert_error(client.post(undo, json={}), 409)
    assert client.post(play, json={"row": 3, "col": 3}).json()["moves"] == 2  # play goes on
    assert "unknown field 'steps'" in assert_error(client.post(undo, json={"steps": 2}), 422)


def test_kinrow_undo_keeps_the_ais_opening_move(client: TestClient) -> None:
    game = new_kinrow(client, n=5, k=4, opponent="random", human_first=False, seed=6)
    play, undo = (f"/api/kinrow/games/{game['id']}/{action}" for action in ("play", "undo"))
    assert (game["moves"], game["can_undo"]) == (1, False)
    assert "nothing to undo" in assert_error(client.post(undo, json={}), 409)
    row, col = next((r, c) for r in range(5) for c in range(5) if not game["board"][r][c])
    assert client.post(play, json={"row": row, "col": col}).json()["moves"] == 3
    after = client.post(undo, json={}).json()
    assert (after["board"], after["moves"], after["to_move"], after["can_undo"]) == (game["board"], 1, "O", False)


def test_kinrow_undo_of_the_winning_move_takes_back_that_move_alone(client: TestClient) -> None:
    line = [(2, 1), (2, 2), (2, 3), (2, 4)]
    game = new_kinrow(client, n=7, k=4, opponent="random", seed=scripted_win_seed(7, 4, line))
    play, undo = (f"/api/kinrow/games/{game['id']}/{action}" for action in ("play", "undo"))
    for row, col in line:
        game = client.post(play, json={"row": row, "col": col}).json()
    assert (game["winner"], game["moves"]) == ("human", 7)
    after = client.post(undo, json={}).json()  # no AI reply came after the winning move
    assert (after["moves"], after["result"], after["winner"], after["to_move"]) == (6, None, None, "X")
    assert cells(after) == {cell: stone for cell, stone in cells(game).items() if cell != (2, 4)}
    assert client.post(play, json={"row": 2, "col": 4}).json()["winner"] == "human"


def test_kinrow_bad_moves(client: TestClient) -> None:
    game = new_kinrow(client, n=5, k=3, opponent="random", seed=3)
    path = f"/api/kinrow/games/{game['id']}/play"
    after = client.post(path, json={"row": 0, "col": 0}).json()
    taken = next(iter(set(cells(after))))
    assert "is taken" in assert_error(client.post(path, json={"row": taken[0], "col": taken[1]}), 409)
    assert "row must be an integer from 0 to 4" in assert_error(client.post(path, json={"row": 5, "col": 0}), 422)
    assert "col must be an integer" in assert_error(client.post(path, json={"row": 1, "col": True}), 422)
    assert "missing field 'col'" in assert_error(client.post(path, json={"row": 1}), 422)
    assert client.get(f"/api/kinrow/games/{game['id']}").json()["board"] == after["board"]
    assert "k must be an integer from 3 to 5" in assert_error(client.post("/api/kinrow/games", json={"n": 5, "k": 6}))
    assert "opponent must be one of" in assert_error(client.post("/api/kinrow/games", json={"opponent": "human"}))


def test_kinrow_ai_budgets_are_the_milliseconds_asked_for() -> None:
    from plyground.apps.web.sessions import KinrowOptions, KinrowSession
    from plyground.kinrow.mcts import MCTS

    session = KinrowSession(State(5, 4), human=1, options=KinrowOptions("mcts", 30, 300, 2, 1))
    assert isinstance(session.player, MCTS) and session.player.time_ms == 30


def test_kinrow_games_are_independent(client: TestClient) -> None:
    first = new_kinrow(client, n=5, k=4, opponent="random", seed=4)
    second = new_kinrow(client, n=5, k=4, opponent="random", seed=4)
    client.post(f"/api/kinrow/games/{first['id']}/play", json={"row": 2, "col": 2})
    assert client.get(f"/api/kinrow/games/{second['id']}").json()["moves"] == 0
    assert client.get(f"/api/kinrow/games/{first['id']}").json()["moves"] == 2


# -- the API as a whole --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/2048/games/{id}"),
        ("POST", "/api/2048/games/{id}/move"),
        ("POST", "/api/2048/games/{id}/undo"),
        ("POST", "/api/2048/games/{id}/hint"),
        ("GET", "/api/kinrow/games/{id}"),
        ("POST", "/api/kinrow/games/{id}/play"),
        ("POST", "/api/kinrow/games/{id}/undo"),
    ],
)
def test_an_unknown_game_id_is_not_found(client: TestClient, method: str, path: str) -> None:
    response = client.request(method, path.format(id="no-such-game"), json={"direction": "up", "row": 0, "col": 0})
    assert "no-such-game" in assert_error(response, 404)


def test_the_least_recently_used_game_is_forgotten_past_the_cap() -> None:
    with TestClient(create_app(limits=Limits(games=2), hosts=HOSTS), base_url=LAB) as small:
        first, second = new_2048(small, seed=1), new_2048(small, seed=2)
        small.get(f"/api/2048/games/{first['id']}")  # now the second is the least recently used
        third = new_2048(small, seed=3)
        assert_error(small.get(f"/api/2048/games/{second['id']}"), 404)
        for game in (first, third):
            assert small.get(f"/api/2048/games/{game['id']}").status_code == 200


def test_transport_errors_are_json(client: TestClient) -> None:
    game = new_2048(client, seed=9)
    path = f"/api/2048/games/{game['id']}/move"
    assert "too large" in assert_error(client.post(path, content=b" " * 20_000), 413)
    assert "not valid JSON" in assert_error(client.post(path, content=b'{"direction": '), 400)
    assert "nested too deeply" in assert_error(client.post(path, content=b"[" * 5000), 400)
    assert "expected a JSON object" in assert_error(client.post(path, json=["up"]), 422)
    assert "unknown field 'speed'" in assert_error(client.post(path, json={"direction": "up", "speed": 1}), 422)
    assert "not found" in assert_error(client.get("/api/nothing/here"), 404)
    assert_error(client.get(path), 405)
    assert_error(client.get("/static/missing.js"), 404)


def test_requests_for_another_host_or_from_another_sites_page_are_refused(client: TestClient) -> None:
    # Another site's page can reach a server on 127.0.0.1: by a form or a WebSocket (its Origin
    # says so), or by a name of its own made to resolve to it (DNS rebinding: the Host says so).
    body = {"rows": 2}
    for host in ("evil.example", "evil.example:8048", "127.0.0.1.evil.example", ""):
        answer = client.post("/api/2048/games", json=body, headers={"Host": host})
        assert "answers requests for localhost or a loopback address" in assert_error(answer, 400), host
    for origin in ("http://evil.example", "http://localhost:9999", "null", "https://localhost:8048"):
        answer = client.post("/api/2048/games", json=body, headers={"Origin": origin})
        assert "cross-origin request refused" in assert_error(answer, 403), origin
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(WS_X, headers={"Origin": origin}):
            pass
        assert refused.value.code == 4403
    for host in ("localhost:8048", "127.0.0.1:8048", "[::1]:8048", "LOCALHOST:8048"):
        same = {"Host": host, "Origin": f"http://{host}"}
        assert client.post("/api/2048/games", json=body, headers=same).status_code == 201, host
    assert client.get("/", headers={"Host": "127.0.0.1"}).status_code == 200  # no Origin: curl, scripts


def test_a_lab_on_a_wildcard_address_answers_any_host_but_still_not_other_sites() -> None:
    assert allowed_hosts("0.0.0.0") is None and allowed_hosts("::") is None
    assert allowed_hosts("192.168.1.5") == LOOPBACK_HOSTS | {"192.168.1.5"}
    assert allowed_hosts("[::1]") == LOOPBACK_HOSTS
    with TestClient(create_app(limits=FAST, hosts=None), base_url="http://192.168.1.5:8048") as anywhere:
        assert (
            anywhere.post("/api/2048/games", json={}, headers={"Origin": "http://192.168.1.5:8048"}).status_code == 201
        )
        answer = anywhere.post("/api/2048/games", json={}, headers={"Origin": "http://evil.example"})
        assert_error(answer, 403)


def test_a_client_that_goes_away_mid_body_is_an_error_not_a_crash() -> None:
    async def scenario() -> None:
        messages = iter([{"type": "http.request", "body": b'{"ro', "more_body": True}, {"type": "http.disconnect"}])

        async def receive() -> dict[str, Any]:
            return next(messages)

        request = Request({"type": "http", "method": "POST", "headers": []}, receive)
        with pytest.raises(ApiError, match="went away before sending the whole body") as error:
            await read_json_object(request)
        assert error.value.status == 400

    with start_blocking_portal() as portal:  # its own thread and event loop, whatever runs in this one
        portal.call(scenario)


def test_the_page_its_files_and_the_shared_palette_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "plyground lab" in page.text
    for name in ("lab.js", "lab.css"):
        assert client.get(f"/static/{name}").status_code == 200
    css = client.get("/palette.css")
    assert css.headers["content-type"].startswith("text/css")
    for value in (0, 2, 64, 2048, 65536):
        assert f".tile.v{value} {{ background: rgb{tile_colour(value)};" in css.text


def test_concurrent_requests_on_one_game_are_applied_one_at_a_time() -> None:
    """Many requests at once on one game: each k-in-a-row play waits for the AI's reply to the one before."""

    async def scenario() -> tuple[list[httpx.Response], dict[str, Any], list[httpx.Response], dict[str, Any]]:
        app = create_app(limits=FAST)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LAB) as http:
            game = (await http.post("/api/2048/games", json={"seed": 12})).json()
            path = f"/api/2048/games/{game['id']}"
            calls = [http.post(f"{path}/move", json={"direction": d}) for d in ["left", "down", "right", "up"] * 5]
            calls += [http.post(f"{path}/hint", json={"time_ms": 5}) for _ in range(3)]
            moves = await asyncio.gather(*calls)
            final = (await http.get(path)).json()
            kinrow = (await http.post("/api/kinrow/games", json={"n": 9, "k": 5, "opponent": "mcts", "seed": 3})).json()
            kpath = f"/api/kinrow/games/{kinrow['id']}/play"
            plays = await asyncio.gather(*(http.post(kpath, json={"row": 0, "col": c}) for c in range(0, 8, 2)))
            result = moves, final, plays, (await http.get(f"/api/kinrow/games/{kinrow['id']}")).json()
        app.state.lab.searches.close()
        return result

    with start_blocking_portal() as portal:  # its own thread and event loop, whatever runs in this one
        moves, final, plays, kinrow = portal.call(scenario)
    assert all(r.status_code in (200, 409) for r in moves)
    made = [r.json() for r in moves[:20] if r.status_code == 200]
    assert sorted(m["moves"] for m in made) == list(range(1, len(made) + 1)) and final["moves"] == len(made)
    assert final["score"] == sum(m["points"] for m in made)
    assert all(r.status_code == 200 or "is taken" in r.json()["error"] for r in plays)  # never "the AI's turn"
    played = [r.json() for r in plays if r.status_code == 200]
    assert sorted(p["moves"] for p in played) == [2 * (i + 1) for i in range(len(played))] and len(played) >= 3
    assert kinrow["moves"] == 2 * len(played) and sum(v == "O" for row in kinrow["board"] for v in row) == len(played)


def test_a_long_search_does_not_hold_up_other_requests() -> None:
    """While a long hint runs, other games are moved and read: they are answered before it is."""

    async def scenario() -> tuple[bool, float, list[float]]:
        app = create_app(limits=Limits(search_ms=4000), search_slots=1)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LAB) as http:
            game = (await http.post("/api/2048/games", json={"seed": 5})).json()
            await http.post(f"/api/2048/games/{game['id']}/hint", json={"time_ms": 1})  # builds the tables
            for i in range(80):  # a full board: on an emptier one, the cut-off ends every depth to 30 in under 1 s
                direction = ("left", "down", "right", "up")[i % 4]
                await http.post(f"/api/2048/games/{game['id']}/move", json={"direction": direction})
            other = (await http.post("/api/2048/games", json={"seed": 6})).json()
            start = time.perf_counter()
            # 4 s: the search stops early when the next depth would not fit, but not before a third of it
            hint = asyncio.ensure_future(http.post(f"/api/2048/games/{game['id']}/hint", json={"time_ms": 4000}))
            await asyncio.sleep(0.1)  # the search is under way
            answered = []
            for direction in ("left", "right", "up", "down"):
                t0 = time.perf_counter()
                await http.post(f"/api/2048/games/{other['id']}/move", json={"direction": direction})
                await http.get(f"/api/2048/games/{other['id']}")
                answered.append(time.perf_counter() - t0)
            hint_pending = not hint.done()  # every other request answered while the search still ran
            response = await hint
            hint_done = time.perf_counter() - start
            assert response.status_code == 200 and response.json()["seconds"] >= 1.0  # a long search
        app.state.lab.searches.close()
        return hint_pending, hint_done, answered

    with start_blocking_portal() as portal:
        hint_pending, hint_done, answered = portal.call(scenario)
    assert hint_pending, (hint_done, answered)  # the others did not wait for it


# -- junk on every endpoint ------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**300), max_value=2**300)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=10,
)
FIELDS = [
    *("rows", "cols", "seed", "direction", "time_ms", "evaluator"),
    *("n", "k", "opponent", "human_first", "row", "col", "depth"),
]
BODIES = st.one_of(
    JSON_VALUES.map(lambda value: json.dumps(value).encode()),
    st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=4).map(lambda value: json.dumps(value).encode()),
    st.binary(max_size=40),
    st.sampled_from([b"NaN", b'{"n": Infinity}', b"9" * 5000, b"[" * 3000, b"\xff\xfe{}", b'{"rows": 1e999}']),
)


@pytest.fixture(scope="module")
def games(client: TestClient) -> dict[str, str]:
    return {
        "2048": new_2048(client, seed=10)["id"],
        "kinrow": new_kinrow(client, n=19, k=5, opponent="random", seed=10)["id"],
    }


@pytest.mark.parametrize(
    "path",
    [
        "/api/2048/games",
        "/api/2048/games/{2048}/move",
        "/api/2048/games/{2048}/undo",
        "/api/2048/games/{2048}/hint",
        "/api/kinrow/games",
        "/api/kinrow/games/{kinrow}/play",
        "/api/kinrow/games/{kinrow}/undo",
    ],
)
@settings(max_examples=40, deadline=None)
@given(body=BODIES)
def test_junk_bodies_get_a_json_error_never_a_crash(
    client: TestClient, games: dict[str, str], path: str, body: bytes
) -> None:
    url = path.replace("{2048}", games["2048"]).replace("{kinrow}", games["kinrow"])
    response = client.post(url, content=body, headers={"content-type": "application/json"})
    assert response.status_code < 500 and "Traceback" not in response.text
    if response.status_code >= 400:
        assert_error(response)
    else:
        assert isinstance(response.json(), dict)


# -- plyground web ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run_web(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "plyground.apps.cli.main", "web", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "BROWSER": "true"},
        **kwargs,
    )


def test_plyground_web_serves_the_page_until_interrupted() -> None:
    port = free_port()
    process = run_web("--no-browser", "--port", str(port))
    try:
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 90
        while True:
            try:
                page = httpx.get(url, timeout=2)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.communicate()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        assert page.status_code == 200 and "plyground lab" in page.text
        assert httpx.post(f"{url}api/2048/games", json={"rows": 2}, timeout=10).status_code == 201
        rebound = httpx.post(f"{url}api/2048/games", json={}, headers={"Host": f"evil.example:{port}"}, timeout=10)
        assert rebound.status_code == 400 and "loopback" in rebound.json()["error"]
    finally:
        process.send_signal(2)  # Ctrl-C
        out, err = process.communicate(timeout=30)
    assert out.splitlines()[0] == f"plyground web lab: http://127.0.0.1:{port}/ (Ctrl-C to stop)"
    assert "Traceback" not in err


def test_plyground_web_on_a_port_in_use_fails_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        process = run_web("--no-browser", "--port", str(taken.getsockname()[1]))
        _, err = process.communicate(timeout=120)
    assert process.returncode == 1
    lines = err.strip().splitlines()
    assert lines[-1].startswith("error: cannot serve on 127.0.0.1:") and "already in use" in lines[-1]
    assert not [line for line in lines if not line.startswith(("error:", "Compiling"))] and "Traceback" not in err


def test_plyground_web_help_and_a_light_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--no-browser" in out and "--port" in out and "--host" in out and "--evaluator" in out
    probe = "import sys, plyground.apps.cli.main; print(sorted({'starlette', 'uvicorn', 'numba'} & set(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "[]"


def test_plyground_web_without_the_web_extra_says_what_to_install() -> None:
    script = (
        "import sys; sys.modules['uvicorn'] = None\n"
        "from plyground.apps.cli.main import main; sys.exit(main(['web', '--no-browser']))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == f"error: the web lab needs starlette and uvicorn: {install_command('web')}\n"


def assert_web_fails_in_one_line(err: str, *parts: str) -> None:
    """One error line, after any notes that kernels are being compiled (a first run)."""
    assert_one_line_error("\n".join(line for line in err.splitlines() if not line.startswith("Compiling")), *parts)


def test_plyground_web_with_a_missing_or_bad_network_fails_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "missing.npz"
    status, out, err = run_cli(capsys, "web", "--no-browser", "--evaluator", f"ntuple:{missing}")
    assert status == 2 and out == ""
    assert_web_fails_in_one_line(err, str(missing), "does not exist")
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(b"not a network at all")
    status, out, err = run_cli(capsys, "web", "--no-browser", "--evaluator", f"ntuple:{corrupt}")
    assert status == 2 and out == ""
    assert_web_fails_in_one_line(err, str(corrupt), "is not a readable n-tuple network file")
    for bad in ("networks", "ntuple:"):
        status, out, err = run_cli(capsys, "web", "--no-browser", "--evaluator", bad)
        assert status == 2 and out == ""
        assert_web_fails_in_one_line(err, "--evaluator must be 'network', 'heuristic' or 'ntuple:PATH'")


def test_plyground_web_serves_the_network_of_its_evaluator_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, network: NTupleNetwork
) -> None:
    path = tmp_path / "net.npz"
    network.save(path)
    served: list[dict[str, Any]] = []
    monkeypatch.setattr("plyground.apps.web.server.serve", lambda *args, **kwargs: served.append(kwargs))
    status, _, err = run_cli(capsys, "web", "--no-browser", "--evaluator", f"ntuple:{path}")
    assert status == 0, err
    [kwargs] = served
    assert kwargs["network_name"] == "net.npz" and kwargs["network"].tuples == network.tuples
    assert (kwargs["network"].weights == network.weights).all()
    status, _, err = run_cli(capsys, "web", "--no-browser")  # by default, the network shipped with plyground
    assert status == 0, err
    assert served[1]["network_name"] == SHIPPED_FILE and served[1]["network"].shape == (4, 4)
    status, _, err = run_cli(capsys, "web", "--no-browser", "--evaluator", "heuristic")
    assert status == 0, err
    assert served[2]["network"] is None and served[2]["network_name"] is None


def test_kinrow_rules_and_boards_up_to_20(client: TestClient) -> None:
    game = new_kinrow(client, n=20, k=5, rule="standard", opponent="random", seed=1)
    assert game["n"] == 20 and game["rule"] == "standard" and game["forbidden"] == []
    assert new_kinrow(client, n=5, k=4)["rule"] == "freestyle"
    game = new_kinrow(client, n=9, k=5, rule="renju", opponent="random", seed=1)
    assert game["rule"] == "renju" and game["human"] == "X"
    path = "/api/kinrow/games"
    bad = [
        ({"n": 21}, "n must be"),
        ({"rule": "gomoku"}, "rule must be one of freestyle, standard, renju"),
        ({"rule": 4}, "rule must be one of"),
        ({"n": 9, "k": 4, "rule": "renju", "opponent": "random"}, "renju is played with k = 5, got k = 4"),
        ({"n": 9, "k": 5, "rule": "renju", "opponent": "mcts"}, "mcts plays free-style and standard"),
        ({"n": 9, "k": 5, "rule": "renju", "opponent": "alphabeta"}, "not renju: choose engine or random"),
        ({"n": 9, "k": 6}, "engine plays k from 3 to 5, got k = 6: choose alphabeta, mcts or random"),
    ]
    for body, message in bad:
        assert message in assert_error(client.post(path, json=body), 422)


def test_kinrow_renju_refuses_a_forbidden_point(client: TestClient) -> None:
    from plyground.kinrow import State

    game = new_kinrow(client, n=9, k=5, rule="renju", opponent="random", seed=3)
    play = f"/api/kinrow/games/{game['id']}/play"
    # X builds e3 e4 c5 d5 (the random O, seeded, stays out of the way); e5 is then a double-three.
    for name in ("e3", "e4", "c5", "d5"):
        row, col = State(9, 5).coords(State(9, 5).parse_move(name))
        response = client.post(play, json={"row": row, "col": col})
        assert response.status_code == 200, response.text
        game = response.json()
    assert [4, 4] in game["forbidden"]
    error = assert_error(client.post(play, json={"row": 4, "col": 4}), 409)
    assert error == "e5 is forbidden to X under renju (double-three)"


# -- the engine -----------------------------------------------------------------------------


def assert_engine_reply(game: dict[str, Any]) -> None:
    """The engine's figures, and its line: from the move it played, then distinct empty cells."""
    ai = game["ai"]
    assert ai["kind"] in ("forced", "vcf", "vct", "search") and ai["forced"] == (ai["kind"] == "forced")
    assert isinstance(ai["depth"], int) and isinstance(ai["value"], int) and ai["nodes"] >= 0 <= ai["seconds"]
    assert ai["win_in"] is None or ai["loss_in"] is None
    line = game["line"]
    assert line[0] == ai["move"] == game["last_move"]
    assert all(not game["board"][r][c] for r, c in line[1:]) and len({tuple(cell) for cell in line}) == len(line)


def test_kinrow_the_engine_is_the_default_and_shows_its_line(client: TestClient) -> None:
    game = new_kinrow(client, n=9, k=5)
    assert (game["opponent"], game["line"], game["ai"]) == ("engine", [], None)
    path = f"/api/kinrow/games/{game['id']}/play"
    for row, col in [(4, 4), (4, 5), (3, 3)]:
        response = client.post(path, json={"row": row, "col": col})
        assert response.status_code == 200, response.text
        game = response.json()
        if game["result"] is not None:
            break
        assert_engine_reply(game)
        assert game["heatmap"] is None and game["to_move"] == "X"
    assert client.get(f"/api/kinrow/games/{game['id']}").json()["line"] == game["line"]


def test_kinrow_the_engine_announces_its_win_and_wins(client: TestClient) -> None:
    from plyground.kinrow.engine import Engine

    game = new_kinrow(client, n=4, k=3, human_first=False)  # the first player wins 3 in a row on 4x4
    assert_engine_reply(game)
    assert game["ai"]["win_in"] is not None and game["ai"]["win_in"] % 2 == 1 and game["ai"]["loss_in"] is None
    lab = client.app.state.lab  # type: ignore[attr-defined]
    engine = lab.games_kinrow.get(game["id"]).player
    assert isinstance(engine, Engine) and engine in lab.searches.kept_tables.engines()
    path = f"/api/kinrow/games/{game['id']}/play"
    while game["result"] is None:  # the person plays the first empty cell in reading order
        row, col = next((r, c) for r in range(4) for c in range(4) if not game["board"][r][c])
        game = client.post(path, json={"row": row, "col": col}).json()
    assert (game["result"], game["winner"]) == ("X", "ai")
    assert engine not in lab.searches.kept_tables.engines()  # a finished game holds no table


def test_kinrow_the_engine_plays_renju_and_x_cannot_play_a_forbidden_point(client: TestClient) -> None:
    game = new_kinrow(client, n=9, k=5, rule="renju", human_first=False)  # the engine is X
    path = f"/api/kinrow/games/{game['id']}/play"
    for _ in range(4):
        assert_engine_reply(game)
        row, col = next((r, c) for r in range(9) for c in range(9) if not game["board"][r][c])
        response = client.post(path, json={"row": row, "col": col})
        assert response.status_code == 200, response.text
        game = response.json()
    game = new_kinrow(client, n=9, k=5, rule="renju")  # the person is X, the engine O
    state = State(9, 5, rule="renju")
    for name in ("e3", "a1", "e4", "i1", "c5", "a9", "d5", "i9"):  # e5 is now X's double-three
        state.play(state.parse_move(name))
    client.app.state.lab.games_kinrow.get(game["id"]).state = state  # type: ignore[attr-defined]
    path = f"/api/kinrow/games/{game['id']}/play"
    before = client.get(f"/api/kinrow/games/{game['id']}").json()
    assert [4, 4] in before["forbidden"]
    error = assert_error(client.post(path, json={"row": 4, "col": 4}), 409)
    assert error == "e5 is forbidden to X under renju (double-three)"
    assert client.get(f"/api/kinrow/games/{game['id']}").json() == before
    response = client.post(path, json={"row": 6, "col": 6})
    assert response.status_code == 200, response.text
    assert_engine_reply(response.json())


def test_kept_tables_drop_the_least_recently_used_engine_past_the_capacity() -> None:
    from plyground.apps.web.sessions import KeptTables
    from plyground.kinrow.engine import Engine

    class Counted(Engine):
        def reset(self) -> None:
            self.resets = getattr(self, "resets", 0) + 1
            super().reset()

    kept = KeptTables(2)
    first, second, third = Counted(depth=1), Counted(depth=1), Counted(depth=1)
    kept.give(first)
    kept.give(second)
    kept.take(first)  # searching: it may not drop its table meanwhile
    kept.give(third)
    assert kept.engines() == [second, third] and not hasattr(second, "resets")
    kept.give(first)
    assert kept.engines() == [third, first] and second.resets == 1
    kept.give(third, keep=False)
    assert kept.engines() == [first] and third.resets == 1
