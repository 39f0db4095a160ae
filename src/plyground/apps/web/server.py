"""The web lab's server: a Starlette app with a small JSON API, a WebSocket for autoplay, and the page.

API design. Resources are games, created by ``POST`` on a collection and named by an
unguessable id that only the page that created them knows; actions on a game are
``POST`` on a sub-path and answer with the whole new state of the game, so a page
simply redraws from each answer. Every body is a JSON object whose fields are checked
by type and range, unknown fields included; every error is ``{"error": "<one line>"}``
with a 4xx status (400 not JSON, 404 unknown game or path, 405 wrong method, 409 a move
the game does not allow now, 413 body too large, 422 a bad field), never a traceback. A
last-resort handler logs anything unexpected and answers a bare 500. Before any route, a
request for another host name (400) or from another site's page (403) is refused: see
:mod:`~plyground.apps.web.guard`.

Evaluators. The 2048 AI values the leaves of its search with the heuristic, or with an
n-tuple network when the server was started with one (``plyground web`` starts with the
network shipped with plyground, ``--evaluator ntuple:PATH`` with another, ``--evaluator
heuristic`` with none; ``create_app(network=...)``). A hint or an autoplay asks for one with
``"evaluator": "network"`` or ``"heuristic"``: 422 when the server has no network, or when the
game is not of the network's size; without ``evaluator`` it gets the network on boards of its
size and the heuristic on the others. ``GET /api/2048/evaluators`` tells a page which
evaluators there are, and the ``default`` on boards of the network's size.

Endgame tables. A server started with tables (``plyground web --tablebases DIR|built``,
``create_app(tablebases=...)``; built for the lab's games, whose new tiles are 4s one time in
ten) asks them on every board of a hint or an autoplay: where a table advises, the hint's
``best`` is the table's move and its ``table`` says which table and the exact probability
(``{formation, target, probability, moves}``; null elsewhere), and autoplay plays the table's
move unsearched (its ``stats`` have depth 0 and the same ``table``). ``GET
/api/2048/evaluators`` lists the tables under ``tablebases``.

========  =================================  ===========================================
method    path                               body -> answer
========  =================================  ===========================================
GET       /                                  the page (static/index.html)
GET       /palette.css                       the 2048 tile colours of apps.render, as CSS
GET       /api/2048/evaluators               -> {evaluators, default, network,
                                             tablebases}: network is the network's JSON
                                             (kind, name, label, unit, rows, cols, file,
                                             tuples, games trained), or null;
                                             tablebases the endgame tables
                                             ({formation, target, p_four} each)
POST      /api/2048/games                    {rows?, cols?, seed?} -> 201 game
GET       /api/2048/games/{id}               -> game
POST      /api/2048/games/{id}/move          {direction} -> game + points (409 illegal)
POST      /api/2048/games/{id}/undo          {} -> game (409 nothing to undo)
POST      /api/2048/games/{id}/hint          {time_ms?, evaluator?} -> values of the
                                             legal moves, depth, nodes, and either the
                                             heuristic breakdown (evaluation) or each
                                             move's points + network value V
                                             (afterstates), the other null;
                                             searched: the downgraded board a
                                             network searched, or null; table: the
                                             endgame table's move, or null
WS        /ws/2048/games/{id}/autoplay       see :mod:`~plyground.apps.web.live`
POST      /api/kinrow/games                  {n?, k?, rule?, opponent?, human_first?,
                                             seed?, time_ms?, iterations?, depth?}
                                             -> 201 game
GET       /api/kinrow/games/{id}             -> game
POST      /api/kinrow/games/{id}/play        {row, col} -> game after the AI's reply,
                                             with the AI's search (ai), MCTS's heat map
                                             or the engine's line (409 a taken or
                                             forbidden cell)
POST      /api/kinrow/games/{id}/undo        {} -> game without the person's last
                                             move and the AI's reply (409 nothing
                                             to undo)
========  =================================  ===========================================

The k-in-a-row AI (``opponent``) is the engine (the default: threat solver and
alpha-beta over line patterns, k from 3 to 5, every rule), MCTS or alpha-beta
(free-style and standard) or a random player (every rule). A game's ``ai`` tells how
the AI chose its last move: ``forced`` (a win or a block), and for the engine ``kind``
(forced, vcf, vct or search), ``depth``, ``value`` with ``win_in`` / ``loss_in`` (plies to
a forced win or loss, else null), ``nodes`` and ``seconds``; ``line`` is then the
engine's principal variation or threat line, [row, col] cells from the move it played.
Under renju, ``forbidden`` lists X's forbidden points when X is to move. ``can_undo`` says
whether the person has a move to take back: undo takes back their last move with the AI's
reply to it (an AI that opened the game keeps its first move), and forgets the AI's last
search (``ai``, ``heatmap`` and ``line`` are emptied).

Caps keep one client from stalling the server (:class:`Limits`): 2048 searches take 1 to
1000 ms; the k-in-a-row AI 1 to 500 ms per move, MCTS at most 20,000 iterations, alpha-beta
at most depth 12, the engine's tables at most 16 MB each, kept between moves by the 8
games that moved last (see :mod:`~plyground.apps.web.sessions`); each kind of game keeps
at most 500 games. Every search runs in a worker thread, at most one per core at a time,
and a game autoplays over one connection at most.
"""

from __future__ import annotations

import errno
import logging
import socket
import webbrowser
from collections.abc import AsyncIterator, Collection, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from plyground.apps.render import BACKGROUND, EMPTY_COLOUR, TILE_COLOURS, text_colour, tile_colour
from plyground.apps.text import counted, table_json
from plyground.apps.web.guard import LOOPBACK_HOSTS, SameOriginGuard, allowed_hosts
from plyground.apps.web.live import run_autoplay
from plyground.apps.web.sessions import (
    DEFAULT_OPPONENT,
    EVALUATORS,
    HEURISTIC,
    MAX_GAMES,
    NETWORK,
    OPPONENTS,
    RULES,
    GameStore,
    KinrowOptions,
    KinrowSession,
    Searches,
    Session2048,
    finite,
)
from plyground.apps.web.validation import MAX_BODY_BYTES, ApiError, Fields, read_json_object, show
from plyground.errors import IllegalMoveError, InvalidInputError, NothingToUndoError, PlygroundError
from plyground.g2048 import DIRECTIONS, Game
from plyground.kinrow import MAX_N, MIN_N, O, State, X
from plyground.kinrow.limits import check_game

if TYPE_CHECKING:
    from plyground.g2048.evaluator import Evaluator
    from plyground.g2048.tablebase import Advisor

__all__ = ["Lab", "Limits", "create_app", "palette_css", "serve", "url_of"]

log = logging.getLogger("plyground.web")

STATIC: Final = Path(__file__).parent / "static"
MAX_SEED: Final = 2**63 - 1
HINT_MS: Final = 200


@dataclass(frozen=True)
class Limits:
    """The caps that keep one client from stalling the server.

    Attributes:
        games: games kept of each kind; the least recently used one is forgotten first.
        search_ms: the largest 2048 search budget (hint and autoplay), in milliseconds.
        kinrow_ms: the largest k-in-a-row AI budget per move, in milliseconds.
        kinrow_iterations: the most MCTS iterations per move.
        kinrow_depth: the deepest alpha-beta search.
    """

    games: int = MAX_GAMES
    search_ms: int = 1000
    kinrow_ms: int = 500
    kinrow_iterations: int = 20_000
    kinrow_depth: int = 12


def palette_css() -> str:
    """The tile palette of :mod:`plyground.apps.render` as CSS: ``.tile.v<value>`` and two variables."""

    def rgb(colour: tuple[int, int, int]) -> str:
        return "rgb({}, {}, {})".format(*colour)

    lines = [
        "/* generated from plyground.apps.render: the one palette of the project */",
        f":root {{ --board: {rgb(BACKGROUND)}; --empty: {rgb(EMPTY_COLOUR)}; }}",
    ]
    for exponent in range(len(TILE_COLOURS)):
        value = 1 << exponent if exponent else 0
        lines.append(f".tile.v{value} {{ background: {rgb(tile_colour(value))}; color: {rgb(text_colour(value))}; }}")
    return "\n".join(lines) + "\n"


@contextmanager
def _game_rules() -> Iterator[None]:
    """Turn the games' own errors into API errors: 409 for a move not allowed now, 422 for a bad value."""
    try:
        yield
    except (IllegalMoveError, NothingToUndoError) as exc:
        raise ApiError(409, str(exc)) from None
    except InvalidInputError as exc:
        raise ApiError(422, str(exc)) from None


class Lab:
    """The routes' state: the games of each kind and the searches.

    Args:
        limits: the caps on games and budgets.
        search_slots: searches running at once (default: one per core).
        network: a network that 2048 searches may use instead of the heuristic (``"evaluator": "network"``).
        network_name: what the page calls the network (default: the name of the file it was loaded from).
        heuristic: the heuristic of ``"evaluator": "heuristic"`` (default: the shipped weights).
        tablebases: endgame tables that hints and autoplay ask first (None: none).
    """

    def __init__(
        self,
        *,
        limits: Limits,
        search_slots: int | None = None,
        network: Evaluator | None = None,
        network_name: str | None = None,
        heuristic: Evaluator | None = None,
        tablebases: Advisor | None = None,
    ) -> None:
        self.limits = limits
        self.games_2048: GameStore[Session2048] = GameStore("2048", limits.games)
        self.games_kinrow: GameStore[KinrowSession] = GameStore("k-in-a-row", limits.games)
        self.searches = Searches(search_slots, network=network, heuristic=heuristic, tablebases=tablebases)
        if network_name is None and network is not None:
            network_name = network.to_json().get("file")
        self.network_name = network_name

    # -- 2048 ---------------------------------------------------------------

    async def create_2048(self, request: Request) -> Response:
        fields = Fields(await read_json_object(request), optional=("rows", "cols", "seed"))
        rows, cols = fields.integer("rows", 2, 4, default=4), fields.integer("cols", 2, 4, default=4)
        seed = fields.optional_integer("seed", 0, MAX_SEED)
        with _game_rules():
            session = Session2048(Game(rows, cols, seed=seed))
        game_id = self.games_2048.add(session)
        return JSONResponse(session.to_json(game_id), status_code=201)

    async def get_2048(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        return JSONResponse(self.games_2048.get(game_id).to_json(game_id))

    async def move_2048(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        session = self.games_2048.get(game_id)
        direction = Fields(await read_json_object(request), required=("direction",)).choice("direction", DIRECTIONS)
        with _game_rules():
            points = session.move(direction)
        return JSONResponse(session.to_json(game_id) | {"points": points})

    async def undo_2048(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        session = self.games_2048.get(game_id)
        Fields(await read_json_object(request))
        with _game_rules():
            session.undo()
        return JSONResponse(session.to_json(game_id))

    async def evaluators_2048(self, request: Request) -> Response:
        network = self.searches.evaluator(NETWORK)
        described = None
        if network is not None:
            described = network.to_json() | {"file": self.network_name}
        default = NETWORK if network is not None else HEURISTIC  # on boards of the network's size
        tables = self.searches.tablebases.tables if self.searches.tablebases is not None else []
        listed = [{"formation": t.formation.to_text(), "target": t.target, "p_four": t.p_four} for t in tables]
        evaluators = list(self.searches.evaluators)
        return JSONResponse({"evaluators": evaluators, "default": default, "network": described, "tablebases": listed})

    async def hint_2048(self, request: Request) -> Response:
        session = self.games_2048.get(request.path_params["game_id"])
        fields = Fields(await read_json_object(request), optional=("time_ms", "evaluator"))
        time_ms = fields.integer("time_ms", 1, self.limits.search_ms, default=min(HINT_MS, self.limits.search_ms))
        board, _ = session.snapshot()
        evaluator = fields.choice(
            "evaluator", EVALUATORS, default=self.searches.default_evaluator(board.rows, board.cols)
        )
        chosen = self.searches.check_evaluator(evaluator, board.rows, board.cols)  # 422 if it cannot play the board
        decision = await self.searches.expectimax(board, time_ms, evaluator)
        hint: dict[str, Any] = {
            "board": board.to_rows(),
            "searched": decision.searched.to_rows() if decision.searched is not None else None,
            "evaluator": evaluator,
            "values": {move: finite(value) for move, value in decision.values.items()},
            "best": decision.move,
            "unit": chosen.unit,
            "depth": decision.depth,
            "nodes": decision.nodes,
            "seconds": decision.seconds,
            "time_ms": time_ms,
        }
        hint |= await self.searches.explain(board, evaluator)  # evaluation or afterstates, the other None
        advice = await self.searches.advise(board)
        hint["table"] = table_json(advice) if advice is not None else None
        if advice is not None:
            hint["best"] = advice.move
        return JSONResponse(hint)

    async def autoplay(self, websocket: WebSocket) -> None:
        """The AI plays a 2048 game live over a WebSocket: see :mod:`~plyground.apps.web.live`."""
        await run_autoplay(websocket, self.games_2048, self.searches, max_ms=self.limits.search_ms)

    # -- k-in-a-row -------------------------------------------------------------

    async def create_kinrow(self, request: Request) -> Response:
        fields = Fields(
            await read_json_object(request),
            optional=("n", "k", "rule", "opponent", "human_first", "seed", "time_ms", "iterations", "depth"),
        )
        limits = self.limits
        n = fields.integer("n", MIN_N, MAX_N, default=7)
        k = fields.integer("k", 3, n, default=min(4, n))
        rule = fields.choice("rule", RULES, default="freestyle")
        options = KinrowOptions(
            opponent=fields.choice("opponent", OPPONENTS, default=DEFAULT_OPPONENT),
            time_ms=fields.integer("time_ms", 1, limits.kinrow_ms, default=min(300, limits.kinrow_ms)),
            iterations=fields.integer("iterations", 1, limits.kinrow_iterations, default=limits.kinrow_iterations),
            depth=fields.integer("depth", 1, limits.kinrow_depth, default=min(6, limits.kinrow_depth)),
            seed=fields.optional_integer("seed", 0, MAX_SEED),
        )
        human_first = fields.boolean("human_first", default=True)
        try:  # the checks of every front end: a game the opponent cannot play is refused before it starts
            check_game(n, k, rule, (options.opponent,), offered=OPPONENTS)
        except InvalidInputError as error:
            raise ApiError(422, str(error)) from None
        with _game_rules():
            session = KinrowSession(State(n, k, rule=rule), X if human_first else O, options)
        game_id = self.games_kinrow.add(session)
        async with session.lock:
            if not human_first:
                await self._ai_reply(session)
            return JSONResponse(session.to_json(game_id), status_code=201)

    async def get_kinrow(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        session = self.games_kinrow.get(game_id)
        async with session.lock:
            return JSONResponse(session.to_json(game_id))

    async def play_kinrow(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        session = self.games_kinrow.get(game_id)
        n = session.state.n
        fields = Fields(await read_json_object(request), required=("row", "col"))
        row, col = fields.integer("row", 0, n - 1), fields.integer("col", 0, n - 1)
        async with session.lock:
            state = session.state
            if state.is_over:
                raise ApiError(409, "the game is over: start a new game")
            if state.to_move != session.human:
                raise ApiError(409, "it is the AI's turn")
            move = state.index(row, col)
            if state.cells[move]:
                raise ApiError(409, f"cell {state.name(move)} (row {row}, col {col}) is taken")
            with _game_rules():
                state.play(move)
            session.last_ai = session.heatmap = None
            session.line = []
            if not state.is_over:
                try:
                    await self._ai_reply(session)
                except BaseException:  # cancelled, or a failure: the person's move goes too, so they can replay
                    state.undo()
                    raise
            return JSONResponse(session.to_json(game_id))

    async def undo_kinrow(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        session = self.games_kinrow.get(game_id)
        Fields(await read_json_object(request))
        async with session.lock:  # after the AI's reply in progress, if any
            with _game_rules():
                session.undo()
            return JSONResponse(session.to_json(game_id))

    async def _ai_reply(self, session: KinrowSession) -> None:
        """The AI moves in ``session`` (whose lock the caller holds)."""
        reply = await self.searches.kinrow(session)
        with _game_rules():
            session.state.play(reply.move)
        session.last_ai = {"move": list(session.state.coords(reply.move))} | reply.info
        session.heatmap = reply.heatmap
        session.line = reply.line


# -- the app ---------------------------------------------------------------------


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = f"not found: {show(request.url.path, 80)}" if exc.status_code == 404 else exc.detail
    return JSONResponse({"error": " ".join(message.split())}, status_code=exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    # One line: the server logs the traceback itself (Starlette hands it the exception after this answer).
    log.error("%s %s failed: %s", request.method, show(request.url.path, 80), type(exc).__name__)
    return JSONResponse({"error": "internal server error"}, status_code=500)


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def _palette(request: Request) -> Response:
    return Response(palette_css(), media_type="text/css")


def create_app(
    *,
    limits: Limits | None = None,
    search_slots: int | None = None,
    network: Evaluator | None = None,
    network_name: str | None = None,
    heuristic: Evaluator | None = None,
    hosts: Collection[str] | None = LOOPBACK_HOSTS,
    tablebases: Advisor | None = None,
) -> Starlette:
    """The web lab as an ASGI app (serve it with uvicorn, or test it with starlette's TestClient).

    Use the test client as a context manager (``with TestClient(create_app()) as client``)
    so that every request runs on one event loop and the shutdown closes the search threads.

    Args:
        limits: the caps on games and search budgets (default: :class:`Limits`).
        search_slots: AI searches running at once (default: one per core).
        network: a network that the 2048 AI may use instead of the heuristic
            (``"evaluator": "network"``), on boards of its size.
        network_name: what the page calls the network (its file's name, say).
        heuristic: the heuristic of ``"evaluator": "heuristic"`` (default: the shipped weights).
        hosts: the host names the lab answers requests for (None: any); a request from
            another site's page is refused whatever they are (see :mod:`~plyground.apps.web.guard`).
        tablebases: endgame tables that the 2048 AI asks first (None: none), built for the lab's
            games (a new tile is a 4 with probability 0.1).
    """
    lab = Lab(
        limits=limits or Limits(),
        search_slots=search_slots,
        network=network,
        network_name=network_name,
        heuristic=heuristic,
        tablebases=tablebases,
    )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            lab.searches.close()

    games, game = "/api/2048/games", "/api/2048/games/{game_id}"
    kinrow_games, kinrow_game = "/api/kinrow/games", "/api/kinrow/games/{game_id}"
    routes = [
        Route("/", _index),
        Route("/palette.css", _palette),
        Route("/api/2048/evaluators", lab.evaluators_2048),
        Route(games, lab.create_2048, methods=["POST"]),
        Route(game, lab.get_2048),
        Route(f"{game}/move", lab.move_2048, methods=["POST"]),
        Route(f"{game}/undo", lab.undo_2048, methods=["POST"]),
        Route(f"{game}/hint", lab.hint_2048, methods=["POST"]),
        WebSocketRoute("/ws/2048/games/{game_id}/autoplay", lab.autoplay),
        Route(kinrow_games, lab.create_kinrow, methods=["POST"]),
        Route(kinrow_game, lab.get_kinrow),
        Route(f"{kinrow_game}/play", lab.play_kinrow, methods=["POST"]),
        Route(f"{kinrow_game}/undo", lab.undo_kinrow, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {ApiError: _api_error, HTTPException: _http_error, Exception: _server_error}
    guard = [Middleware(SameOriginGuard, hosts=hosts)]
    app = Starlette(routes=routes, middleware=guard, exception_handlers=handlers, lifespan=lifespan)
    app.state.lab = lab
    return app


# -- serving -----------------------------------------------------------------------


def _listen_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening.

    Raises:
        PlygroundError: the address cannot be used (in use, not an address of this machine...).
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise PlygroundError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    family, kind, protocol, _, address = infos[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        reason = "the port is already in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc)).lower()
        raise PlygroundError(f"cannot serve on {host}:{port}: {reason}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    """The http URL of a listening socket (``[...]`` around an IPv6 address)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(
    host: str = "127.0.0.1",
    port: int = 8048,
    open_browser: bool = True,
    *,
    network: Evaluator | None = None,
    network_name: str | None = None,
    heuristic: Evaluator | None = None,
    tablebases: Advisor | None = None,
) -> None:
    """Serve the web lab on ``host:port`` until Ctrl-C; print its URL and open it in the browser.

    Args:
        host: the address to listen on.
        port: the port (0: any free port).
        open_browser: open the page in the browser.
        network: a network the page's 2048 AI may use (see :func:`create_app`).
        network_name: what the page calls the network.
        heuristic: the heuristic of the page's 2048 AI (default: the shipped weights).
        tablebases: endgame tables the page's 2048 AI asks first (see :func:`create_app`).

    Raises:
        PlygroundError: the address cannot be used (for example the port is taken).
    """
    import uvicorn

    sock = _listen_socket(host, port)
    url = url_of(sock)
    app = create_app(network=network, network_name=network_name, heuristic=heuristic, hosts=allowed_hosts(host),
                     tablebases=tablebases)  # fmt: skip
    config = uvicorn.Config(app, log_level="warning", access_log=False, ws_max_size=MAX_BODY_BYTES, lifespan="on")
    print(f"plyground web lab: {url} (Ctrl-C to stop)", flush=True)
    if network is not None:
        name = f"n-tuple network {network_name}" if network_name else network.label
        rows, cols = network.shape if network.shape is not None else ("any", "any")
        print(f"the AI may also use the {name} ({rows}x{cols} boards)", flush=True)
    if tablebases is not None:
        print(f"the AI plays by {counted(len(tablebases), 'endgame table')} where one advises", flush=True)
    if open_browser:
        webbrowser.open(url)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
