"""The games the web lab keeps for its pages, and the AI searches it runs for them.

A page creates a game and gets back an id (``secrets.token_urlsafe``) that it holds in
memory; every later request names the game by that id. :class:`GameStore` keeps at most
``capacity`` games of one kind and forgets the least recently used one past that, so a
page left open long enough may find its game gone (a 404: the page starts a new one).

Each game has its own lock, so that two requests on one game cannot interleave:

* a 2048 game changes in a few microseconds, under a :class:`threading.Lock` that is never
  held across an ``await``; the autoplay loop searches a snapshot of the board without
  the lock and applies its move only if the game has not changed meanwhile (``version``);
* a k-in-a-row game holds an :class:`anyio.Lock` from the human move to the AI's reply,
  search included, so a second click waits for the reply and is checked against it.

:class:`Searches` runs every search in a worker thread (the numba kernels release the
GIL), at most ``slots`` at a time through one :class:`anyio.CapacityLimiter`, so that a
search never blocks the event loop and a burst of searches cannot take every core.
Budgets are capped by the routes (see :mod:`~plyground.apps.web.server`). A 2048 search
values its leaves by one of :data:`EVALUATORS`: the heuristic, or the n-tuple network the
server was started with (for boards of the network's size only). A server started with endgame
tables asks them first (:meth:`Searches.advise`): a board that a table advises on gets the
table's move.

A k-in-a-row game keeps one player, made by kind (:func:`~plyground.kinrow.players.make_player`),
whose tables (at most :data:`PLAYER_MEMORY` bytes: the engine allocates about 9.6 MB) are reused
from move to move. Only the :data:`KEPT_TABLES` players that moved last keep theirs between moves
(:class:`KeptTables`): an older one drops its tables, and allocates new ones on its next move,
so idle games hold no table and the players' tables take at most about 130 MB in all (plus one
per running search). A game that ends drops its tables at once. What a move was found by comes
from the player's :meth:`~plyground.kinrow.protocol.Player.report`, whatever its kind.
"""

from __future__ import annotations

import math
import os
import queue
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

import anyio
import anyio.to_thread

from plyground.apps.web.validation import ApiError, show
from plyground.errors import InvalidBoardError, NothingToUndoError
from plyground.g2048 import Board, Decision, Expectimax, Game
from plyground.g2048 import registry as g2048_kinds
from plyground.g2048.heuristic import Heuristic
from plyground.kinrow import DRAW, EMPTY, O, State, X, player_name, registry
from plyground.kinrow.players import Player, make_player
from plyground.kinrow.protocol import SearchReport

if TYPE_CHECKING:
    from plyground.g2048.evaluator import Evaluator
    from plyground.g2048.tablebase import Advice, Advisor

__all__ = [
    "DEFAULT_OPPONENT",
    "EVALUATORS",
    "HEURISTIC",
    "KEPT_TABLES",
    "MAX_GAMES",
    "NETWORK",
    "OPPONENTS",
    "PLAYER_MEMORY",
    "RULES",
    "GameStore",
    "KeptTables",
    "KinrowOptions",
    "KinrowReply",
    "KinrowSession",
    "Searches",
    "Session2048",
    "engine_line",
    "finite",
    "heatmap",
]

MAX_GAMES: Final = 500
"""The games of each kind the server keeps (the least recently used one is forgotten first)."""
OPPONENTS: Final = registry.OPPONENTS
"""The AIs a k-in-a-row game may be played against (``opponent`` of a new game)."""
DEFAULT_OPPONENT: Final = registry.OPPONENTS[0]
RULES: Final = ("freestyle", "standard", "renju")
"""The rules a k-in-a-row game may be played under (``rule`` of a new game)."""
HEURISTIC: Final = g2048_kinds.HEURISTIC
NETWORK: Final = g2048_kinds.NETWORK
EVALUATORS: Final = (HEURISTIC, NETWORK)
"""What values a 2048 search's leaves, by the kind of evaluator (:mod:`plyground.g2048.registry`): the heuristic,
or the server's network (when it has one)."""
ENGINE_TT_BITS: Final = 18
"""Transposition table of each pooled expectimax engine: 2**18 entries of 24 bytes."""
PLAYER_MEMORY: Final = 16 << 20
"""The bound on each k-in-a-row player's tables, in bytes (the engine allocates about 9.6 MB under it)."""
KEPT_TABLES: Final = 8
"""The k-in-a-row players that keep their tables between moves (those that moved last)."""

S = TypeVar("S")


def finite(value: float) -> float | None:
    """``value`` when it is a finite number, else None (JSON has no infinities)."""
    return value if math.isfinite(value) else None


class GameStore(Generic[S]):
    """At most ``capacity`` games of one ``kind``, by id, forgetting the least recently used first.

    >>> store: GameStore[str] = GameStore("2048", capacity=2)
    >>> first = store.add("a"); second = store.add("b"); third = store.add("c")
    >>> len(store), store.get(third)
    (2, 'c')
    """

    def __init__(self, kind: str, capacity: int = MAX_GAMES) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity must be a positive integer, got {capacity!r}")
        self.kind = kind
        self.capacity = capacity
        self._games: OrderedDict[str, S] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: S) -> str:
        """Keep ``game`` under a new id and return the id."""
        game_id = secrets.token_urlsafe(16)
        with self._lock:
            self._games[game_id] = game
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)
        return game_id

    def get(self, game_id: str) -> S:
        """The game with ``game_id`` (now the most recently used).

        Raises:
            ApiError: 404, no such game (never created, or forgotten).
        """
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                raise ApiError(404, f"no {self.kind} game with id {show(game_id)}: start a new game")
            self._games.move_to_end(game_id)
            return game

    def __len__(self) -> int:
        return len(self._games)


# -- 2048 ---------------------------------------------------------------------


@dataclass(eq=False)
class Session2048:
    """A 2048 game of one page: the game, its lock, a change counter, whether it is autoplaying."""

    game: Game
    lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = 0
    autoplaying: bool = False

    def to_json(self, game_id: str) -> dict[str, Any]:
        """What a page needs to show the game."""
        with self.lock:
            game = self.game
            board = game.board
            return {
                "id": game_id,
                "rows": board.rows,
                "cols": board.cols,
                "board": board.to_rows(),
                "score": game.score,
                "moves": game.move_count,
                "max_tile": board.max_tile(),
                "legal": board.legal_moves(),
                "over": game.over,
                "won": game.won,
                "can_undo": game.move_count > 0,
                "seed": game.seed,
                "autoplaying": self.autoplaying,
            }

    def move(self, direction: str) -> int:
        """Play ``direction`` (checked by :meth:`Game.step`); return the points scored."""
        with self.lock:
            points = self.game.step(direction)
            self.version += 1
            return points

    def undo(self) -> None:
        """Take back the last move (see :meth:`Game.undo`)."""
        with self.lock:
            self.game.undo()
            self.version += 1

    def snapshot(self) -> tuple[Board, int]:
        """The board and the version it belongs to."""
        with self.lock:
            return self.game.board, self.version

    def play_if_unchanged(self, version: int, direction: str) -> int | None:
        """Play ``direction`` if the game is still at ``version``; return the points, None if it changed."""
        with self.lock:
            if self.version != version:
                return None
            points = self.game.step(direction)
            self.version += 1
            return points


# -- k-in-a-row ------------------------------------------------------------------


@dataclass(frozen=True)
class KinrowOptions:
    """The AI of a k-in-a-row game: its kind and its budget per move."""

    opponent: str
    time_ms: int
    iterations: int
    depth: int
    seed: int | None


@dataclass(eq=False)
class KinrowSession:
    """A k-in-a-row game of one page: the position, which side the person plays, the AI and its last search."""

    state: State
    human: int
    options: KinrowOptions
    player: Player = field(init=False)
    lock: anyio.Lock = field(default_factory=anyio.Lock)
    last_ai: dict[str, Any] | None = None
    heatmap: dict[str, Any] | None = None
    line: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        options = self.options
        self.player = make_player(
            options.opponent, depth=options.depth, iterations=options.iterations, time_ms=options.time_ms,
            seed=options.seed,
        )  # fmt: skip
        self.player.set_memory(PLAYER_MEMORY)

    @property
    def ai(self) -> int:
        """The AI's side, X or O."""
        return O if self.human == X else X

    def to_json(self, game_id: str) -> dict[str, Any]:
        """What a page needs to show the game.

        ``heatmap`` is the AI's last MCTS search, when there was one; ``line`` the engine's
        principal variation or threat line after its last move ([row, col] cells from the
        move it played; empty for the other AIs).
        """
        state = self.state
        n = state.n
        symbols = {EMPTY: "", X: "X", O: "O", 3: "#"}
        cells = [symbols[int(cell)] for cell in state.cells]
        result = state.result
        winner = None if result is None else "draw" if result == DRAW else "human" if result == self.human else "ai"
        history = state.history
        return {
            "id": game_id,
            "n": n,
            "k": state.k,
            "rule": state.rule.label,
            "forbidden": [list(state.coords(move)) for move in state.forbidden_moves()],
            "opponent": self.options.opponent,
            "human": player_name(self.human),
            "to_move": player_name(state.to_move),
            "board": [cells[r * n : (r + 1) * n] for r in range(n)],
            "moves": len(history),
            "last_move": list(state.coords(history[-1])) if history else None,
            "result": None if result is None else player_name(result),
            "winner": winner,
            "ai": self.last_ai,
            "heatmap": self.heatmap,
            "line": self.line,
            "can_undo": self.human_moves > 0,
        }

    @property
    def human_moves(self) -> int:
        """The moves the person has played (X plays the first move, O the second)."""
        played = len(self.state.history)
        return (played + 1) // 2 if self.human == X else played // 2

    def undo(self) -> int:
        """Take back the person's last move and the AI's reply to it (none when that move ended the game).

        The AI's search of its last move is forgotten (``ai``, ``heatmap`` and ``line`` are
        emptied); an AI that opened the game keeps its first move. Returns the moves taken back.

        Raises:
            NothingToUndoError: the person has not moved yet.
        """
        if self.human_moves == 0:
            raise NothingToUndoError("nothing to undo: you have not played a move yet")
        state = self.state
        first = 0 if self.human == X else 1  # the person's moves are at first, first + 2, ... of the history
        last = len(state.history) - 1
        last -= (last - first) % 2  # the index of the person's last move
        taken = len(state.history) - last
        for _ in range(taken):
            state.undo()
        self.last_ai = self.heatmap = None
        self.line = []
        return taken


@dataclass(frozen=True)
class KinrowReply:
    """The AI's move in a k-in-a-row game and what its search found, as the page shows them.

    Attributes:
        move: the cell it plays.
        info: what the search did (``forced``, and the kind's own figures).
        heatmap: MCTS's visits per cell (MCTS only).
        line: the engine's principal variation or threat line, [row, col] cells from ``move``.
    """

    move: int
    info: dict[str, Any]
    heatmap: dict[str, Any] | None = None
    line: list[list[int]] = field(default_factory=list)


class KeptTables:
    """The players that keep their tables between moves: the ``capacity`` that moved last.

    A search :meth:`take` s its player and :meth:`give` s it back after its move; past
    ``capacity`` players kept, the least recently used one drops its tables
    (:meth:`~plyground.kinrow.protocol.Player.reset`: the next move allocates new ones). A player
    being searched with is never among them, so no search loses its table under it.

    >>> kept = KeptTables(1)
    >>> first, second = make_player("engine"), make_player("alphabeta")
    >>> kept.give(first); kept.give(second); kept.engines() == [second]
    True
    """

    def __init__(self, capacity: int = KEPT_TABLES) -> None:
        self.capacity = capacity
        self._kept: OrderedDict[int, Player] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, player: Player) -> None:
        """``player`` is about to search: it is no longer one that may drop its tables."""
        with self._lock:
            self._kept.pop(id(player), None)

    def give(self, player: Player, *, keep: bool = True) -> None:
        """``player`` has moved: keep its tables (the oldest kept past the capacity drop theirs), or drop them now."""
        dropped: list[Player] = []
        with self._lock:
            if keep:
                self._kept[id(player)] = player
                while len(self._kept) > self.capacity:
                    dropped.append(self._kept.popitem(last=False)[1])
            else:
                self._kept.pop(id(player), None)
                dropped.append(player)
        for old in dropped:
            old.reset()

    def engines(self) -> list[Player]:
        """The players keeping their tables, least recently used first."""
        with self._lock:
            return list(self._kept.values())


def heatmap(state: State, report: SearchReport) -> dict[str, Any] | None:
    """The visits of a search (``report.visits``) as rows of cells, with their total; None without visits."""
    if report.visits is None:
        return None
    grid = [[0] * state.n for _ in range(state.n)]
    for cell, visits in report.visits.items():
        row, col = state.coords(cell)
        grid[row][col] = round(visits)
    return {"visits": grid, "total": sum(map(sum, grid)), "iterations": report.figures.get("iterations")}


def engine_line(state: State, pv: tuple[int, ...]) -> list[list[int]]:
    """``pv`` as [row, col] cells, from the move just played (the last of ``state``) while it stays playable.

    The line stops at the first cell that is taken or comes twice (a table entry of another position).
    """
    if not pv or not state.history or pv[0] != state.history[-1]:
        return []
    cells, seen = [list(state.coords(pv[0]))], {pv[0]}
    for move in pv[1:]:
        if not 0 <= move < state.n * state.n or move in seen or state.cells[move]:
            break
        seen.add(move)
        cells.append(list(state.coords(move)))
    return cells


# -- searches ---------------------------------------------------------------------


class Searches:
    """Runs the AI searches in worker threads, at most ``slots`` at once (default: one per core).

    Expectimax engines (one worker thread each) are pooled by evaluator: a search takes an
    idle engine, sets its budget, and gives it back, so an evaluator's tables are built once
    per engine. The engines of an evaluator share it: a search only reads it.

    Args:
        slots: searches running at once (default: one per core).
        network: the evaluator that ``"network"`` names (None: the server has none).
        heuristic: the evaluator that ``"heuristic"`` names (default: the heuristic, shipped weights).
        tablebases: the endgame tables that :meth:`advise` asks (None: none), of the games' ``p_four``.
    """

    def __init__(
        self,
        slots: int | None = None,
        *,
        network: Evaluator | None = None,
        heuristic: Evaluator | None = None,
        tablebases: Advisor | None = None,
    ) -> None:
        self.slots = slots if slots is not None else max(1, os.cpu_count() or 1)
        self.limiter = anyio.CapacityLimiter(self.slots)
        self._by_name: dict[str, Evaluator] = {HEURISTIC: heuristic if heuristic is not None else Heuristic()}
        if network is not None:
            self._by_name[NETWORK] = network
        self._engines: dict[str, queue.SimpleQueue[Expectimax]] = {name: queue.SimpleQueue() for name in EVALUATORS}
        self.kept_tables = KeptTables()
        self.tablebases = tablebases

    @property
    def evaluators(self) -> tuple[str, ...]:
        """The evaluators this server can search with: the heuristic, and ``"network"`` when it has one."""
        return tuple(self._by_name)

    def evaluator(self, name: str) -> Evaluator | None:
        """The evaluator ``name`` (one of :data:`EVALUATORS`) names on this server (None: it has none)."""
        return self._by_name.get(name)

    def default_evaluator(self, rows: int, cols: int) -> str:
        """The evaluator of a request that names none: the network on boards it plays, else the heuristic."""
        network = self._by_name.get(NETWORK)
        return NETWORK if network is not None and network.shape in (None, (rows, cols)) else HEURISTIC

    def check_evaluator(self, name: str, rows: int, cols: int) -> Evaluator:
        """The evaluator ``name`` (one of :data:`EVALUATORS`), checked to search a ``rows`` x ``cols`` board.

        Raises:
            ApiError: 422, the server has no such evaluator (no network), or it plays boards of another size.
        """
        evaluator = self._by_name.get(name)
        if evaluator is None:
            raise ApiError(
                422,
                f"evaluator {name} needs a network, and this server has none "
                "(start it with: plyground web --evaluator network, or ntuple:PATH)",
            )
        try:
            evaluator.check_size(rows, cols)
        except InvalidBoardError as exc:
            raise ApiError(422, f"{exc}: use evaluator {HEURISTIC}") from None
        return evaluator

    async def expectimax(self, board: Board, time_ms: int, evaluator: str = HEURISTIC) -> Decision:
        """The expectimax decision for ``board`` within ``time_ms`` milliseconds, leaves valued by ``evaluator``.

        Raises:
            ApiError: 422, ``evaluator`` cannot search ``board`` (see :meth:`check_evaluator`).
        """
        self.check_evaluator(evaluator, board.rows, board.cols)
        return await anyio.to_thread.run_sync(self._expectimax, board, time_ms, evaluator, limiter=self.limiter)

    def _expectimax(self, board: Board, time_ms: int, evaluator: str) -> Decision:
        engines = self._engines[evaluator]
        try:
            engine = engines.get_nowait()
        except queue.Empty:
            engine = Expectimax(time_ms=time_ms, workers=1, tt_bits=ENGINE_TT_BITS, evaluator=self._by_name[evaluator])
        try:
            engine.time_ms = time_ms  # the engine is this thread's alone until it goes back to the pool
            return engine.choose(board)
        finally:
            engines.put(engine)

    async def advise(self, board: Board) -> Advice | None:
        """The move of the endgame table that advises on ``board`` (see
        :meth:`~plyground.g2048.tablebase.Advisor.advise`); None without tables, or when none does."""
        tables = self.tablebases
        if tables is None:
            return None
        return await anyio.to_thread.run_sync(tables.advise, board, limiter=self.limiter)

    async def explain(self, board: Board, evaluator: str) -> dict[str, Any]:
        """Why ``evaluator`` values ``board`` as it does: its explanation's JSON (``evaluation`` and
        ``afterstates``, see :meth:`~plyground.g2048.evaluator.Explanation.to_json`).

        Raises:
            ApiError: 422, ``evaluator`` cannot value ``board`` (see :meth:`check_evaluator`).
        """
        chosen = self.check_evaluator(evaluator, board.rows, board.cols)
        return await anyio.to_thread.run_sync(lambda: chosen.explain(board).to_json(), limiter=self.limiter)

    async def kinrow(self, session: KinrowSession) -> KinrowReply:
        """The AI's move in ``session`` (its game not over) and what its search found.

        The caller holds the session's lock: the position does not change during the search.
        """
        return await anyio.to_thread.run_sync(self._kinrow, session, limiter=self.limiter)

    def _kinrow(self, session: KinrowSession) -> KinrowReply:
        """The player's move, its figures, its visits as a heat map and its line (the move played on a copy)."""
        state, player = session.state, session.player
        self.kept_tables.take(player)
        over = True
        try:
            player.prepare(state)  # the first move of a board and rule: tables and kernels, outside its time
            move = player.choose(state)
            report = player.report()
            after = state.copy()
            after.play(move)
            over = after.is_over
            info = {"forced": report.forced, **report.figures}
            return KinrowReply(move, info, heatmap(state, report), engine_line(after, report.line))
        finally:
            self.kept_tables.give(player, keep=not over)

    def close(self) -> None:
        """Stop the pooled engines' threads."""
        for engines in self._engines.values():
            while True:
                try:
                    engines.get_nowait().close()
                except queue.Empty:
                    break
