"""The AI playing whole games of 2048, and statistics over many games.

>>> from plyground.g2048.expectimax import Expectimax
>>> with Expectimax(depth=1, workers=1) as ai:
...     result = play_game(ai, rows=2, cols=2, seed=3)
>>> result.replay.play().score == result.score, result.moves == len(result.replay.moves)
(True, True)
>>> summarize([result]).interval is None  # one game: a mean, no interval
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from plyground.core.stats import ScoreSummary, reach_tiles, summarize_scores
from plyground.errors import InvalidInputError
from plyground.g2048.board import DEFAULT_P_FOUR
from plyground.g2048.expectimax import Decision, Expectimax
from plyground.g2048.game import Game, Replay
from plyground.g2048.heuristic import Weights
from plyground.g2048.registry import load_evaluator

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
        mean_depth: the mean completed search depth over the moves (0 without a move).
        replay: the record of the game, which :meth:`Replay.play` replays exactly.
    """

    seed: int
    score: int
    max_tile: int
    moves: int
    seconds: float
    mean_depth: float
    replay: Replay


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
    on_move: Callable[[Game, Decision], None] | None = None,
) -> GameResult:
    """Play one game with ``ai`` until no move is legal (or ``max_moves`` moves).

    Each turn plays ``ai.choose(game.board).move``, then calls ``on_move(game, decision)``.
    The game spawns a 4 with probability ``p_four``; the AI assumes its own ``ai.p_four``.
    The same seed and a fixed-depth AI give the same game.

    Raises:
        InvalidBoardError: an unsupported board size.
        InvalidInputError: a bad seed, ``p_four`` or ``max_moves``.
    """
    if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 0):
        raise InvalidInputError(f"max_moves must be a non-negative integer or None, got {max_moves!r}")
    game = Game(rows, cols, seed=seed, p_four=p_four)
    start = time.perf_counter()
    depths = 0
    while not game.over and (max_moves is None or game.move_count < max_moves):
        decision = ai.choose(game.board)
        if decision.move is None:  # cannot happen on a live board; stop rather than loop
            break
        game.step(decision.move)
        depths += decision.depth
        if on_move is not None:
            on_move(game, decision)
    seconds = time.perf_counter() - start
    moves = game.move_count
    return GameResult(
        seed=game.seed,
        score=game.score,
        max_tile=game.board.max_tile(),
        moves=moves,
        seconds=seconds,
        mean_depth=depths / moves if moves else 0.0,
        replay=game.replay,
    )


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


def play_spec(spec: GameSpec) -> GameResult:
    """Play the game ``spec`` describes, with a one-thread expectimax (a job for ``run_many``).

    >>> spec = GameSpec(seed=3, rows=2, cols=2, depth=1)
    >>> first, again = play_spec(spec), play_spec(spec)
    >>> (first.score, first.replay) == (again.score, again.replay)
    True
    """
    evaluator = load_evaluator(spec.evaluator, weights=spec.weights, reuse=True)
    with Expectimax(time_ms=spec.time_ms, depth=spec.depth, workers=1, p_four=spec.p_four, evaluator=evaluator) as ai:
        return play_game(
            ai, rows=spec.rows, cols=spec.cols, seed=spec.seed, p_four=spec.p_four, max_moves=spec.max_moves
        )


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
