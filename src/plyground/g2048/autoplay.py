"""The AI playing whole games of 2048, and statistics over many games.

A game is played by :func:`plyground.core.match.play_game` on a :class:`~plyground.g2048.state.State`
with the search as a :class:`~plyground.g2048.agent.SearchAgent`, its spawns drawn as
:class:`~plyground.g2048.game.Game` draws them (:func:`~plyground.g2048.state.draw_spawn`): a seed
gives the spawns a ``Game`` of that seed would after the same moves.

>>> from plyground.g2048.expectimax import Expectimax
>>> with Expectimax(depth=1, workers=1) as ai:
...     result = play_game(ai, rows=2, cols=2, seed=3)
>>> result.replay.play().score == result.score, result.moves == len(result.replay.moves)
(True, True)
>>> summarize([result]).interval is None  # one game: a mean, no interval
True
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plyground.core.match import play_game as play_game_of
from plyground.core.match import timed_choice
from plyground.core.seeding import resolve_seed
from plyground.core.stats import ScoreSummary, reach_tiles, summarize_scores
from plyground.errors import InvalidInputError
from plyground.g2048.agent import SearchAgent
from plyground.g2048.board import DEFAULT_P_FOUR
from plyground.g2048.expectimax import Decision, Expectimax
from plyground.g2048.game import Replay, replay_of
from plyground.g2048.heuristic import Weights
from plyground.g2048.registry import load_evaluator
from plyground.g2048.state import State, draw_spawn

if TYPE_CHECKING:
    from plyground.g2048.tablebase import Advisor

__all__ = ["GameResult", "GameSpec", "Summary", "play_game", "play_spec", "summarize"]


@dataclass(frozen=True)
class GameResult:
    """One game played by the AI.

    Attributes:
        seed: the seed of the game's spawns (drawn afresh when none was given).
        score: the final score.
        max_tile: the largest tile on the final board.
        moves: the moves played.
        seconds: the wall-clock time of the game.
        mean_depth: the mean completed search depth over the moves searched (0 without one).
        replay: the record of the game, which :meth:`Replay.play` replays exactly.
        table_moves: the moves played from endgame tables, unsearched.
    """

    seed: int
    score: int
    max_tile: int
    moves: int
    seconds: float
    mean_depth: float
    replay: Replay
    table_moves: int = 0


@dataclass(frozen=True)
class Summary(ScoreSummary):
    """The :class:`~plyground.core.stats.ScoreSummary` of games played by the AI, with the games.

    Attributes:
        results: the games, in the order given.
    """

    results: tuple[GameResult, ...] = ()


def play_game(
    ai: Expectimax,
    *,
    rows: int = 4,
    cols: int = 4,
    seed: int | None = None,
    p_four: float = DEFAULT_P_FOUR,
    max_moves: int | None = None,
    on_move: Callable[[State, Decision], None] | None = None,
    tablebases: Advisor | None = None,
    table_use: str = "play",
    stop_at: int | None = None,
) -> GameResult:
    """Play one game with ``ai`` until no move is legal (or ``max_moves`` moves, or the first ``stop_at`` tile).

    With ``tablebases``, a board an endgame table advises on is played as ``table_use`` says
    (see :class:`~plyground.g2048.agent.SearchAgent`).

    Each turn plays the move of ``ai.choose(board)``, then, once the tile has spawned, calls
    ``on_move(state, decision)`` (the :class:`~plyground.g2048.state.State`: its ``board``,
    ``score`` and ``move_count``). The game spawns a 4 with probability ``p_four``; the AI assumes
    its own ``ai.p_four``. The same seed and a fixed-depth AI give the same game. With ``stop_at``
    the game ends on the first board that holds a tile of at least ``stop_at`` (once its move's
    tile has spawned): the position where that tile was made.

    Raises:
        InvalidBoardError: an unsupported board size.
        InvalidInputError: a bad seed, ``p_four``, ``max_moves`` or ``stop_at``.
    """
    if stop_at is not None and (isinstance(stop_at, bool) or not isinstance(stop_at, int) or stop_at < 2):
        raise InvalidInputError(f"stop_at must be a tile (a whole number from 2) or None, got {stop_at!r}")
    state = State(rows, cols, p_four=p_four)
    game_seed = resolve_seed(seed)
    agent = SearchAgent(ai, tablebases, table_use=table_use)
    depths = tables = 0

    def spawned() -> None:  # the last move's tile is on the board
        nonlocal depths, tables
        if agent.last is not None:
            depths += agent.last.depth
            tables += agent.advice is not None
            if on_move is not None:
                on_move(state, agent.last)

    def ask(agent: SearchAgent, now: State) -> tuple[int, float]:
        spawned()
        return timed_choice(agent, now)

    start = time.perf_counter()
    until = None if stop_at is None else functools.partial(_holds_tile, stop_at)
    record = play_game_of(state, [agent], seed=game_seed, chance=draw_spawn, ask=ask, max_moves=max_moves, until=until)
    if record.seconds:
        spawned()
    seconds = time.perf_counter() - start
    moves = len(record.seconds)
    replay = replay_of(record.actions, rows=rows, cols=cols, p_four=state.p_four, seed=game_seed, score=state.score)
    return GameResult(
        seed=game_seed,
        score=state.score,
        max_tile=state.board.max_tile(),
        moves=moves,
        seconds=seconds,
        mean_depth=depths / (moves - tables) if moves > tables else 0.0,
        replay=replay,
        table_moves=tables,
    )


def _holds_tile(tile: int, state: State) -> bool:
    return state.board.max_tile() >= tile


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one AI game, for running many of them in other processes.

    With ``depth`` (and no ``time_ms``) the game depends only on these fields: the same
    spec gives the same game on any machine. ``time_ms`` searches as deep as the time allows.
    """

    seed: int
    rows: int = 4
    cols: int = 4
    time_ms: float | None = None
    depth: int | None = None
    p_four: float = DEFAULT_P_FOUR
    weights: Weights | None = None
    max_moves: int | None = None
    evaluator: str | None = None
    """The evaluator's name for :func:`~plyground.g2048.registry.load_evaluator`: None or
    ``"heuristic"`` (with ``weights``), or ``"ntuple:PATH"``, a network read once per process
    (give an absolute path when the games run on other machines)."""
    tablebases: str | None = None
    """The folder of the endgame tables to consult (those of ``p_four``; read once per process, memory-mapped),
    or None to search every move."""
    table_use: str = "play"
    """How the tables' advice is used: ``"play"`` or ``"guard"`` (see :class:`~plyground.g2048.agent.SearchAgent`)."""
    stop_at: int | None = None
    """End the game on the first board holding a tile of at least this value (None: play to the end)."""


def play_spec(spec: GameSpec) -> GameResult:
    """Play the game ``spec`` describes, with a one-thread expectimax (a job for ``run_many``).

    >>> spec = GameSpec(seed=3, rows=2, cols=2, depth=1)
    >>> first, again = play_spec(spec), play_spec(spec)
    >>> (first.score, first.replay) == (again.score, again.replay)
    True
    """
    evaluator = load_evaluator(spec.evaluator, weights=spec.weights, reuse=True)
    advisor = _advisor(spec.tablebases, spec.p_four) if spec.tablebases is not None else None
    with Expectimax(time_ms=spec.time_ms, depth=spec.depth, workers=1, p_four=spec.p_four, evaluator=evaluator) as ai:
        return play_game(
            ai, rows=spec.rows, cols=spec.cols, seed=spec.seed, p_four=spec.p_four, max_moves=spec.max_moves,
            tablebases=advisor, table_use=spec.table_use, stop_at=spec.stop_at,
        )  # fmt: skip


@functools.cache
def _advisor(folder: str, p_four: float) -> Advisor:
    """The endgame tables of ``folder`` for ``p_four``: read once per process."""
    from plyground.g2048.tablebase import Advisor

    return Advisor.load(folder, p_four=p_four)


def summarize(results: Iterable[GameResult]) -> Summary:
    """Mean and median score, the 95% interval of the mean, and the share reaching each tile the boards can hold.

    >>> from plyground.g2048.game import Replay
    >>> games = [GameResult(i, score, tile, 0, 0.0, 0.0, Replay()) for i, (score, tile) in
    ...          enumerate([(100, 4096), (200, 2048), (600, 8192)])]
    >>> summary = summarize(games)
    >>> summary.mean_score, summary.median_score, summary.reach[4096], summary.max_tile
    (300.0, 200.0, 0.6666666666666666, 8192)

    Raises:
        InvalidInputError: no game.
    """
    games = tuple(results)
    if not games:
        raise InvalidInputError("cannot summarize zero games")
    tiles = max((reach_tiles(game.replay.rows, game.replay.cols) for game in games), key=len)
    summary = summarize_scores([game.score for game in games], [game.max_tile for game in games], tiles=tiles)
    return Summary(**vars(summary), results=games)
