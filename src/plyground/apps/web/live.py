"""2048 autoplay over a WebSocket: the server's AI plays a page's game live, move after move.

The protocol, on ``/ws/2048/games/{id}/autoplay``. Every message is a JSON object of text.

* The client's first message is ``{"type": "start", "time_ms"?: 1-1000, "delay_ms"?: 0-2000,
  "evaluator"?: "heuristic" | "network"}`` (search budget per move, pause between moves, what
  values the search's leaves; 20, 0 and, by default, the server's network on boards of its size,
  else the heuristic). ``"network"`` needs a server started with a network of the game's size.
* Then, at any time, ``{"type": "settings", "time_ms"?, "delay_ms"?, "evaluator"?}`` changes
  them from the next move on, and ``{"type": "stop"}`` stops; closing the socket stops too.
* After each move the server sends ``{"type": "move", "move", "game", "stats": {"depth",
  "nodes", "seconds", "time_ms", "evaluator", "moves", "moves_per_second", "table"}}``, where
  ``game`` is the game's whole state as the HTTP API gives it and ``table`` the endgame table
  whose move it was, unsearched (``{formation, target, probability, moves}``, with depth and
  nodes 0), or null for a searched move; at the end, ``{"type": "done", "reason":
  "game over" | "stopped", "game"}``, and it closes the socket (code 1000).
* A bad message gets ``{"type": "error", "error": "<one line>"}`` and close code 4400; an
  unknown game, 4404; a game that already autoplays over another socket, 4409.

Two tasks share the connection: the player searches (in a worker thread), moves and
reports; the listener reads the client's messages into a :class:`_Control` and cancels
the player when the client stops, leaves or sends a bad message. Only the player sends
while both run, and the ending is sent after both have finished.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect

from plyground.apps.text import table_json
from plyground.apps.web.sessions import EVALUATORS, HEURISTIC, GameStore, Searches, Session2048
from plyground.apps.web.validation import MAX_BODY_BYTES, ApiError, Fields, as_object, parse_json, show
from plyground.g2048 import Decision

__all__ = ["ALREADY_AUTOPLAYING", "BAD_MESSAGE", "MAX_DELAY_MS", "UNKNOWN_GAME", "run_autoplay"]

log = logging.getLogger("plyground.web")

DEFAULT_MS: Final = 20
MAX_DELAY_MS: Final = 2000
"""The longest pause between two moves, in milliseconds."""

# Close codes (4000-4999 are the application's).
BAD_MESSAGE: Final = 4400
UNKNOWN_GAME: Final = 4404
ALREADY_AUTOPLAYING: Final = 4409
INTERNAL_ERROR: Final = 1011


@dataclass
class _Control:
    """What the client asked for, shared by the listener and the player.

    ``check_evaluator`` raises an :class:`ApiError` for an evaluator that cannot play the game.
    """

    max_ms: int
    check_evaluator: Callable[[str], None]
    time_ms: int = DEFAULT_MS
    delay_ms: int = 0
    evaluator: str = HEURISTIC
    changed: anyio.Event = field(default_factory=anyio.Event)
    stopped: bool = False
    disconnected: bool = False
    error: str | None = None

    def update(self, message: dict[str, Any], *, first: bool) -> None:
        """Apply a client message: ``start`` (first only), ``settings`` or ``stop``.

        Raises:
            ApiError: a bad message (a ``time_ms`` over ``max_ms``, or a network that cannot play the game).
        """
        kind = message.get("type")
        expected = ("start",) if first else ("settings", "stop")
        if kind not in expected:
            raise ApiError(422, f"expected a message of type {' or '.join(expected)}, got type {show(kind)}")
        if kind == "stop":
            Fields(message, required=("type",))
            self.stopped = True
            return
        fields = Fields(message, required=("type",), optional=("time_ms", "delay_ms", "evaluator"))
        time_ms = fields.integer("time_ms", 1, self.max_ms, default=min(self.time_ms, self.max_ms))
        delay_ms = fields.integer("delay_ms", 0, MAX_DELAY_MS, default=self.delay_ms)
        evaluator = fields.choice("evaluator", EVALUATORS, default=self.evaluator)
        self.check_evaluator(evaluator)
        self.time_ms, self.delay_ms, self.evaluator = time_ms, delay_ms, evaluator
        self.changed.set()
        self.changed = anyio.Event()


async def run_autoplay(websocket: WebSocket, games: GameStore[Session2048], searches: Searches, *, max_ms: int) -> None:
    """Serve one autoplay connection (see the module's docstring) until the game ends or the client stops.

    Args:
        websocket: the connection, not yet accepted; its path names the game (``game_id``).
        games: the 2048 games.
        searches: where the moves are searched.
        max_ms: the largest search budget a client may ask for.
    """
    await websocket.accept()
    game_id = websocket.path_params["game_id"]
    try:
        session = games.get(game_id)
    except ApiError as exc:
        await _refuse(websocket, exc.message, UNKNOWN_GAME)
        return
    if session.autoplaying:
        await _refuse(websocket, "this game is already autoplaying in another connection", ALREADY_AUTOPLAYING)
        return
    session.autoplaying = True
    board, _ = session.snapshot()  # a game keeps its size

    def check_evaluator(evaluator: str) -> None:
        searches.check_evaluator(evaluator, board.rows, board.cols)

    try:
        control = _Control(max_ms, check_evaluator, evaluator=searches.default_evaluator(board.rows, board.cols))
        await _autoplay(websocket, session, game_id, searches, control)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("autoplay of 2048 game %s failed", game_id)
        await _refuse(websocket, "internal error", INTERNAL_ERROR)
    finally:
        session.autoplaying = False


async def _autoplay(
    websocket: WebSocket, session: Session2048, game_id: str, searches: Searches, control: _Control
) -> None:
    try:
        control.update(await _receive_object(websocket), first=True)
    except ApiError as exc:
        await _refuse(websocket, exc.message, BAD_MESSAGE)
        return
    reason = "stopped"
    async with anyio.create_task_group() as group:
        group.start_soon(_listen, websocket, control, group.cancel_scope)
        reason = await _play(websocket, session, game_id, searches, control)
        group.cancel_scope.cancel()
    if control.disconnected:
        return
    if control.error is not None:
        await _refuse(websocket, control.error, BAD_MESSAGE)
        return
    await websocket.send_json({"type": "done", "reason": reason, "game": session.to_json(game_id)})
    await websocket.close()


async def _play(websocket: WebSocket, session: Session2048, game_id: str, searches: Searches, control: _Control) -> str:
    """Search, move, report, pause; until the game is over (cancelled when the client stops or leaves)."""
    start, moves = time.perf_counter(), 0
    while True:
        board, version = session.snapshot()
        if board.is_terminal():
            return "game over"
        advice = await searches.advise(board)
        if advice is not None:
            decision = Decision(advice.move)  # the table's move, unsearched
        else:
            decision = await searches.expectimax(board, control.time_ms, control.evaluator)
        if decision.move is None or session.play_if_unchanged(version, decision.move) is None:
            continue  # a person moved meanwhile: search the new board
        moves += 1
        stats = {
            "depth": decision.depth,
            "nodes": decision.nodes,
            "seconds": decision.seconds,
            "time_ms": control.time_ms,
            "evaluator": control.evaluator,
            "moves": moves,
            "moves_per_second": moves / max(time.perf_counter() - start, 1e-9),
            "table": table_json(advice) if advice is not None else None,
        }
        try:
            message = {"type": "move", "move": decision.move, "game": session.to_json(game_id), "stats": stats}
            await websocket.send_json(message)
        except WebSocketDisconnect:
            control.disconnected = True
            return "stopped"
        await _pause(control)


async def _receive_object(websocket: WebSocket) -> dict[str, Any]:
    """The next message as a JSON object.

    Raises:
        WebSocketDisconnect: the client left.
        ApiError: the message is not a JSON object of text, or too large.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ApiError(400, "messages must be JSON text, not binary")
    if len(text) > MAX_BODY_BYTES:
        raise ApiError(413, f"message too large: at most {MAX_BODY_BYTES} characters")
    return as_object(parse_json(text))


async def _listen(websocket: WebSocket, control: _Control, scope: anyio.CancelScope) -> None:
    """Read the client's messages into ``control``; cancel ``scope`` when it stops, leaves or errs."""
    try:
        while not control.stopped:
            control.update(await _receive_object(websocket), first=False)
    except WebSocketDisconnect:
        control.disconnected = True
    except ApiError as exc:
        control.error = exc.message
    scope.cancel()


async def _pause(control: _Control) -> None:
    """Wait ``control.delay_ms``, starting again when the settings change; always give way once."""
    await anyio.sleep(0)
    while control.delay_ms:
        changed = control.changed
        with anyio.move_on_after(control.delay_ms / 1000):
            await changed.wait()
        if not changed.is_set():
            return


async def _refuse(websocket: WebSocket, message: str, code: int) -> None:
    """Send an error message and close with ``code``; a client already gone is no error."""
    try:
        await websocket.send_json({"type": "error", "error": message})
        await websocket.close(code)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
