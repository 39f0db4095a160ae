"""A match between two Gomocup brains: many games, each opening played twice with the colours swapped.

Game ``i`` (from 1) plays opening ``(i - 1) // 2``: brain A has black in the odd games, white in the
even ones. Games are played ``at_once`` at a time on threads (each brain is a process of its own);
a game is reported to ``on_game`` as it ends. :func:`summarize` counts A's wins, draws and losses,
its score (a draw counts half) with a 95% Wilson interval, each side's times per move and why the
games ended.
"""

from __future__ import annotations

import math
import os
import statistics
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import IO, Any

from plyground.arena.brain import allow_starts, kill_all
from plyground.arena.brains import Brain
from plyground.arena.piskvork import Game, Settings, play_game
from plyground.arena.records import record_text
from plyground.errors import BrainError, InvalidInputError

__all__ = ["MatchGame", "MatchResult", "ending", "game_json", "play_match", "schedule", "summarize", "wilson"]

Opening = list[tuple[int, int]]


@dataclass(frozen=True)
class MatchGame:
    """A game of a match: its number (from 1), the game, whether A had black, and the settings it was played at."""

    number: int
    game: Game
    a_black: bool
    settings: Settings

    @property
    def players(self) -> dict[str, str]:
        """Which side had which colour: ``{"black": "A", "white": "B"}`` or the other way round."""
        return {"black": "A", "white": "B"} if self.a_black else {"black": "B", "white": "A"}

    def append_to(self, file: IO[str], a: str, b: str) -> None:
        """Write the game's record (:func:`~plyground.arena.records.record_text`, brains A and B named ``a`` and
        ``b``) at the end of ``file``, on disk before this returns."""
        names = {"A": a, "B": b}
        players = {colour: names[side] for colour, side in self.players.items()}
        file.write(record_text(self.game, self.number, self.settings, players))
        file.flush()
        os.fsync(file.fileno())


@dataclass
class MatchResult:
    """The games finished, in order, and whether the match was interrupted (Ctrl-C) before its end."""

    games: list[MatchGame] = field(default_factory=list)
    interrupted: bool = False


def schedule(openings: Sequence[Opening], games: int) -> list[tuple[int, Opening, bool]]:
    """(game number, opening, A has black) of each game: each opening A black, then A white.

    >>> [(number, a_black) for number, _, a_black in schedule([[], []], 3)]
    [(1, True), (2, False), (3, True)]
    """
    if len(openings) * 2 < games:
        raise InvalidInputError(f"{games} games need {(games + 1) // 2} openings, got {len(openings)}")
    return [(i + 1, list(openings[i // 2]), i % 2 == 0) for i in range(games)]


def play_match(
    a: Brain,
    b: Brain,
    openings: Sequence[Opening],
    settings: Settings,
    *,
    games: int,
    b_time_ms: int | None = None,
    at_once: int = 1,
    on_game: Callable[[MatchGame], None] | None = None,
) -> MatchResult:
    """Play ``games`` games between brains ``a`` and ``b`` (see the module's docstring).

    ``settings.time_ms`` is A's time per move, ``b_time_ms`` B's where it differs (time odds);
    ``settings.white_ms`` is ignored. ``on_game`` is called, under a lock, as each game ends.

    A ``KeyboardInterrupt`` (Ctrl-C) in the calling thread kills every brain at once: the games in
    progress are dropped and the result, marked ``interrupted``, holds those finished.

    Raises:
        BrainError: a brain cannot play (it does not start or refuses the board); the games in
            progress end first, and no other starts.
    """
    if games < 1 or at_once < 1:
        raise InvalidInputError(f"a match needs a game and a thread, got {games} games on {at_once}")
    result = MatchResult()
    lock = threading.Lock()
    a_ms, b_ms = settings.time_ms, settings.time_ms if b_time_ms is None else b_time_ms

    def one(number: int, opening: Opening, a_black: bool) -> None:
        black, white = (a, b) if a_black else (b, a)
        black_ms, white_ms = (a_ms, b_ms) if a_black else (b_ms, a_ms)
        timed = replace(settings, time_ms=black_ms, white_ms=None if black_ms == white_ms else white_ms)
        names = ("A", "B") if a_black else ("B", "A")
        game = play_game(black.command, white.command, opening, timed, names=names)
        with lock:
            if result.interrupted:
                return  # ended by the kill
            finished = MatchGame(number, game, a_black, timed)
            result.games.append(finished)
            if on_game is not None:
                on_game(finished)

    allow_starts()
    failure: BrainError | None = None
    pool = ThreadPoolExecutor(max_workers=at_once)
    try:
        todo = iter(schedule(openings, games))
        running: set[Future[None]] = set()
        while True:
            while failure is None and len(running) < at_once and (job := next(todo, None)) is not None:
                running.add(pool.submit(one, *job))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                problem = future.exception()
                if isinstance(problem, BrainError):
                    failure = failure or problem
                elif problem is not None:
                    raise problem
    except KeyboardInterrupt:
        with lock:
            result.interrupted = True
        kill_all()
    finally:
        pool.shutdown(wait=not result.interrupted, cancel_futures=True)
    if failure is not None:
        raise failure
    result.games.sort(key=lambda item: item.number)
    return result


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson interval of a share ``score / games`` (a draw counts half); None without a game.

    >>> [round(v, 3) for v in wilson(5, 10)]
    [0.237, 0.763]
    """
    if games <= 0:
        return None
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


ENDINGS = ("made five", "no answer", "illegal move", "crashed", "not a move", "match clock", "full", "limit")
"""The kinds of endings :func:`ending` counts."""


def ending(reason: str) -> str:
    """The kind of an ending, for the counts: ``made five``, ``no answer``, ``illegal move``...

    >>> ending("B (white) lost: no answer in 100 + 200 ms")
    'no answer'
    """
    return next((kind for kind in ENDINGS if kind in reason), reason)


def summarize(games: Sequence[MatchGame]) -> dict[str, Any]:
    """The results of side A, and the times of both sides, as a JSON-ready dict.

    Keys: ``games_played``, ``a_wins``, ``draws``, ``a_losses``, ``a_score`` and ``a_score_95`` (None
    without a game), ``mean_moves`` (after the opening), ``a_mean_ms``, ``a_max_ms``, ``b_mean_ms``,
    ``b_max_ms`` (None without a move) and ``endings`` (the count of each :func:`ending`).
    """
    wins = sum(item.game.winner == ("black" if item.a_black else "white") for item in games)
    draws = sum(item.game.winner is None for item in games)
    score = wins + draws / 2
    times: dict[str, list[float]] = {"a": [], "b": []}
    for item in games:
        times["a"] += item.game.times("black" if item.a_black else "white")
        times["b"] += item.game.times("white" if item.a_black else "black")
    interval = wilson(score, len(games))
    out: dict[str, Any] = {
        "games_played": len(games),
        "a_wins": wins,
        "draws": draws,
        "a_losses": len(games) - wins - draws,
        "a_score": score / len(games) if games else None,
        "a_score_95": list(interval) if interval is not None else None,
        "mean_moves": (
            statistics.fmean(len(item.game.moves) - len(item.game.opening) for item in games) if games else None
        ),
    }
    for side, values in times.items():
        out[f"{side}_mean_ms"] = statistics.fmean(values) if values else None
        out[f"{side}_max_ms"] = max(values) if values else None
    out["endings"] = dict(Counter(ending(item.game.reason) for item in games))
    return out


def game_json(item: MatchGame) -> dict[str, Any]:
    """A game of a match in a JSON line: its number, opening, A's colour, result (``a``, ``b``, ``draw``), reason."""
    a = "black" if item.a_black else "white"
    result = "draw" if item.game.winner is None else ("a" if item.game.winner == a else "b")
    return {
        "game": item.number,
        "opening": [list(stone) for stone in item.game.opening],
        "a_colour": a,
        "result": result,
        "reason": item.game.reason,
        "moves": len(item.game.moves),
    }
