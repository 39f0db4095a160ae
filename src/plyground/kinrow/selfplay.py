"""Games between two players: one game with its record, a seeded match with its summary.

The games are played by the one match layer of :mod:`plyground.core.match`; this module gives
them k-in-a-row's record (moves by name, the result in words, a file) and the summary of a
match between two players (the score with its interval, the Elo difference).

Every move is asked of a player on a copy of the position, timed and checked
(:func:`timed_choice`): a player that raises or returns a move that cannot be played
stops the game with a :class:`PlayerError` that names the player, the side and the
move, never with a silent forfeit.

>>> from plyground.kinrow.players import FirstLegalPlayer
>>> record = play_game(FirstLegalPlayer(), FirstLegalPlayer(), 3, 3)
>>> record.describe()
'X (first_legal) wins after 7 moves'
>>> [record.name(move) for move in record.moves]
['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3']

A match's summary says how strong the first player is against the second
(:attr:`MatchSummary.score`): its share of the points, draws counting half, with a 95%
interval, and the Elo difference that share implies.

>>> score_of(7, 1, 2).text()
'75.0% (95% interval 44.2% to 91.9%), Elo +191 (-40 to +422)'
"""

from __future__ import annotations

import csv
import io
import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from plyground.core import match
from plyground.core.files import FileFormat
from plyground.core.seeding import resolve_seed
from plyground.errors import CorruptFileError, ForbiddenMoveError, InvalidInputError, PlayerError
from plyground.kinrow.board import COLUMNS, DRAW, EMPTY, O, State, X, player_name
from plyground.kinrow.players import Player
from plyground.kinrow.rules import Rule, parse_rule

__all__ = [
    "GAME_FORMAT",
    "MATCH_FORMAT",
    "GameRecord",
    "MatchSummary",
    "PlayerError",
    "PlayerFactory",
    "Score",
    "SideSummary",
    "games_csv",
    "match_json",
    "play_game",
    "play_match",
    "score_of",
    "summarize",
    "timed_choice",
]

GAME_FORMAT = FileFormat("plyground.kinrow.game", 1, "a k-in-a-row game record", "game record")
"""The file of one game (:meth:`GameRecord.save`): the board, the rule, the players, the moves and their times."""
MATCH_FORMAT = FileFormat("plyground.kinrow.match", 1, "a k-in-a-row match summary", "match summary")
"""The file of a match's summary (:func:`match_json`): what ``kinrow selfplay --json`` prints."""
_RESULTS = {X: "X", O: "O", DRAW: "draw"}

PlayerFactory = Callable[[int], Player]
"""Makes the player of one game from that game's seed."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game: the moves, the result and the seconds each move took.

    ``seconds[i]`` is the time of ``moves[i]``; X made the even moves, O the odd ones.
    ``seed`` is the seed the players were made with, when a match made them; ``rule`` the
    rule the game was played under.
    """

    n: int
    k: int
    x_name: str
    o_name: str
    moves: tuple[int, ...]
    seconds: tuple[float, ...]
    result: int
    seed: int | None = None
    rule: Rule = Rule.FREESTYLE

    @property
    def x_seconds(self) -> tuple[float, ...]:
        """The seconds of each of X's moves."""
        return self.seconds[0::2]

    @property
    def o_seconds(self) -> tuple[float, ...]:
        """The seconds of each of O's moves."""
        return self.seconds[1::2]

    def name(self, move: int) -> str:
        """A move of this board as text, like ``c2``."""
        row, col = divmod(move, self.n)
        return f"{COLUMNS[col]}{row + 1}"

    def state(self) -> State:
        """The final position, replayed from the moves."""
        return State.from_moves(self.n, self.k, self.moves, rule=self.rule)

    def describe(self) -> str:
        """The result in words: ``X (mcts) wins after 23 moves`` or ``draw after 81 moves``."""
        if self.result == DRAW:
            return f"draw after {len(self.moves)} moves"
        winner = self.x_name if self.result == X else self.o_name
        return f"{player_name(self.result)} ({winner}) wins after {len(self.moves)} moves"

    def to_json(self) -> dict[str, Any]:
        """The record as JSON data: moves by name (``e5``), ``result`` ``X``, ``O`` or ``draw``.

        >>> record = GameRecord(3, 3, "a", "b", (4, 0, 2, 6, 3, 5, 1, 7, 8), (0.5,) * 9, DRAW, seed=7)
        >>> record.to_json()["moves"][:3], GameRecord.from_json(record.to_json()) == record
        (['b2', 'a1', 'c1'], True)
        """
        return {
            "n": self.n,
            "k": self.k,
            "rule": self.rule.label,
            "x": self.x_name,
            "o": self.o_name,
            "seed": self.seed,
            "result": _RESULTS[self.result],
            "moves": [self.name(move) for move in self.moves],
            "seconds": list(self.seconds),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        """The record of :meth:`to_json`'s data, its moves replayed (a game that cannot have been played is refused).

        Raises:
            CorruptFileError: a field missing or of the wrong kind, a move that cannot be
                played, a result the moves do not give.
        """
        try:
            rule = parse_rule(data["rule"])
            state = State(data["n"], data["k"], rule=rule)
            for text in data["moves"]:
                state.play(state.parse_move(text))
            seconds = tuple(float(second) for second in data["seconds"])
            seed, x, o = data["seed"], str(data["x"]), str(data["o"])
            result = {name: value for value, name in _RESULTS.items()}[data["result"]]
        except (KeyError, TypeError, ValueError) as exc:  # ValueError: InvalidInputError, IllegalMoveError too
            raise CorruptFileError(f"not a game record: {exc}") from None
        if state.result != result or len(seconds) != len(state.history):
            raise CorruptFileError("not a game record: the moves do not give its result and times")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise CorruptFileError(f"not a game record: seed {seed!r}")
        return cls(state.n, state.k, x, o, state.history, seconds, result, seed, rule)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to ``path``, atomically (:data:`GAME_FORMAT`)."""
        GAME_FORMAT.write(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """The record saved in ``path``.

        Raises:
            CorruptFileError: not a game record of this format (one line, naming the file).
        """
        data = GAME_FORMAT.read(path)
        try:
            return cls.from_json(data)
        except CorruptFileError as exc:
            raise CorruptFileError(f"{path}: {exc}") from None


def timed_choice(player: Player, state: State) -> tuple[int, float]:
    """Ask ``player`` for its move in ``state`` (a game not over); return the move and the seconds it took.

    The player is given a copy of ``state``, so it cannot change the game it is asked about.

    Raises:
        PlayerError: the player raised an error, or chose a move that is not an empty cell,
            or (:class:`~plyground.errors.ForbiddenMoveError`) a forbidden point of X under renju.
    """
    side = player_name(state.to_move)
    number = len(state.history) + 1
    start = time.perf_counter()
    try:
        move = player.choose(state.copy())
    except Exception as exc:
        raise PlayerError(f"{side} ({player.name}) failed on move {number}: {type(exc).__name__}: {exc}") from exc
    seconds = time.perf_counter() - start
    cells = state.n * state.n
    if isinstance(move, bool) or not isinstance(move, int | np.integer) or not 0 <= move < cells:
        raise PlayerError(
            f"{side} ({player.name}) chose {move!r} on move {number}: not a cell of the {state.n}x{state.n} board"
        )
    if state.cells[int(move)] != EMPTY:
        what = "blocked" if int(move) in state.blocked else "taken"
        raise PlayerError(f"{side} ({player.name}) chose {state.name(int(move))} on move {number}: the cell is {what}")
    if state.rule is Rule.RENJU and state.to_move == X:
        from plyground.kinrow.renju import forbidden_reason

        reason = forbidden_reason(state, int(move))
        if reason is not None:
            name = state.name(int(move))
            message = f"{side} ({player.name}) chose {name} on move {number}: forbidden under renju ({reason})"
            raise ForbiddenMoveError(message, int(move))
    return int(move), seconds


def play_game(
    x: Player,
    o: Player,
    n: int,
    k: int,
    *,
    rule: Rule | str | int = Rule.FREESTYLE,
    on_move: Callable[[State, int, float], None] | None = None,
) -> GameRecord:
    """Play one game of k-in-a-row on an n×n board under ``rule``, ``x`` moving first.

    Both players are :meth:`~plyground.kinrow.players.Player.reset` first.
    ``on_move(state, move, seconds)`` is called after each move with the position it made.

    Raises:
        InvalidInputError: ``n``, ``k`` or ``rule`` out of range.
        PlayerError: a player raised an error or chose a move that cannot be played.
    """
    state = State(n, k, rule=rule)
    played = match.play_game(state, [x, o], seed=0, ask=timed_choice, on_move=on_move)
    assert state.result is not None
    return GameRecord(n, k, x.name, o.name, played.actions, played.seconds, state.result, rule=state.rule)


@dataclass(frozen=True)
class SideSummary:
    """How one player of a match did: wins, draws, losses, moves and the seconds they took."""

    name: str
    wins: int
    draws: int
    losses: int
    moves: int
    seconds: float

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def mean_seconds(self) -> float:
        """The mean seconds per move (NaN before any move)."""
        return self.seconds / self.moves if self.moves else math.nan


@dataclass(frozen=True)
class Score:
    """The first player's share of a match's points (a win 1, a draw 1/2), and the Elo difference it implies.

    The interval is Wilson's 95% interval of a share, draws counted as half a win each: it
    stays within 0 to 1 and is not empty after a clean sweep, and it is conservative when
    games are drawn (it takes each game for a win or a loss). The Elo difference of a share
    ``s`` is ``400 log10(s / (1 - s))``: infinite (None in JSON) for a share of 0 or 1.

    Attributes:
        rate: the share of the points, 0 to 1.
        interval: its 95% interval.
        elo: the Elo difference of ``rate``.
        elo_interval: the Elo differences of the interval's ends.
    """

    rate: float
    interval: tuple[float, float]
    elo: float
    elo_interval: tuple[float, float]

    def text(self) -> str:
        """``75.0% (95% interval 44.2% to 91.9%), Elo +191 (-40 to +422)``."""
        low, high = self.interval
        elo_low, elo_high = self.elo_interval
        return (
            f"{self.rate:.1%} (95% interval {low:.1%} to {high:.1%}), "
            f"Elo {_elo_text(self.elo)} ({_elo_text(elo_low)} to {_elo_text(elo_high)})"
        )

    def to_json(self) -> dict[str, Any]:
        """The score as JSON data (an infinite Elo difference is None)."""
        return {
            "rate": self.rate,
            "interval": list(self.interval),
            "elo": _finite(self.elo),
            "elo_interval": [_finite(value) for value in self.elo_interval],
        }


def _elo(share: float) -> float:
    if share <= 0:
        return -math.inf
    if share >= 1:
        return math.inf
    return 400 * math.log10(share / (1 - share))


def _elo_text(elo: float) -> str:
    return ("+" if elo > 0 else "-") + "inf" if math.isinf(elo) else f"{elo:+.0f}"


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def score_of(wins: int, draws: int, losses: int, confidence: float = 0.95) -> Score:
    """The :class:`Score` of a player with these results.

    Raises:
        InvalidInputError: a count that is not a non-negative integer, no game, or a
            confidence not strictly between 0 and 1.
    """
    for count in (wins, draws, losses):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidInputError(f"wins, draws and losses must be non-negative integers, got {count!r}")
    if not 0 < confidence < 1:
        raise InvalidInputError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    n = wins + draws + losses
    if n == 0:
        raise InvalidInputError("a score needs at least one game")
    rate = (wins + draws / 2) / n
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if rate == 0 else max(0.0, centre - half)
    high = 1.0 if rate == 1 else min(1.0, centre + half)
    return Score(rate, (low, high), _elo(rate), (_elo(low), _elo(high)))


@dataclass(frozen=True)
class MatchSummary:
    """The games of a match and how each player did.

    ``first`` is the player made by ``x_factory``, ``second`` the one made by ``o_factory``;
    without ``swap`` they play X and O in every game, with it they change sides after each game.
    """

    games: tuple[GameRecord, ...]
    first: SideSummary
    second: SideSummary
    swap: bool

    @property
    def x_wins(self) -> int:
        """Games won by the player with X, whoever it was."""
        return sum(game.result == X for game in self.games)

    @property
    def o_wins(self) -> int:
        """Games won by the player with O, whoever it was."""
        return sum(game.result == O for game in self.games)

    @property
    def draws(self) -> int:
        return sum(game.result == DRAW for game in self.games)

    @property
    def score(self) -> Score:
        """How the first player (``first``) scored against the second: see :class:`Score`."""
        return score_of(self.first.wins, self.first.draws, self.first.losses)


def summarize(games: Sequence[GameRecord], *, swap: bool = False) -> MatchSummary:
    """The summary of a match's games (``swap``: the players changed sides after each game).

    Raises:
        InvalidInputError: no games.
    """
    if not games:
        raise InvalidInputError("a match summary needs at least one game")
    sides = []
    for who, name in ((0, games[0].x_name), (1, games[0].o_name)):  # game 0 is never swapped
        wins = draws = losses = moves = 0
        seconds = 0.0
        for i, game in enumerate(games):
            side = X if (who == 0) != (swap and i % 2 == 1) else O
            wins += game.result == side
            draws += game.result == DRAW
            losses += game.result not in (side, DRAW)
            times = game.x_seconds if side == X else game.o_seconds
            moves += len(times)
            seconds += sum(times)
        sides.append(SideSummary(name, wins, draws, losses, moves, seconds))
    first, second = sides
    return MatchSummary(tuple(games), first, second, swap)


def play_match(
    x_factory: PlayerFactory,
    o_factory: PlayerFactory,
    games: int,
    n: int,
    k: int,
    *,
    seed: int | None = None,
    swap: bool = False,
    rule: Rule | str | int = Rule.FREESTYLE,
    on_game: Callable[[int, GameRecord], None] | None = None,
) -> MatchSummary:
    """Play ``games`` games between fresh players and summarize them.

    Game ``i`` (from 0) gets seed ``seed + i`` (``seed`` is drawn at random when None, so every
    record keeps the seed that replays it); both its players are made from that seed:
    ``x_factory(seed + i)`` plays X and ``o_factory(seed + i)`` plays O, or the other way round
    in odd games with ``swap``. ``on_game(i, record)`` is called after each game.

    Raises:
        InvalidInputError: ``games`` is not a positive integer, a bad seed, ``n``, ``k`` or ``rule`` out of range.
        PlayerError: a player raised an error or chose a move that cannot be played.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidInputError(f"games must be a positive integer, got {games!r}")
    base = resolve_seed(seed)
    rule = parse_rule(rule)
    State(n, k, rule=rule)  # check the board before making any player

    def players(i: int) -> list[Player]:
        first, second = x_factory(base + i), o_factory(base + i)
        return [second, first] if swap and i % 2 == 1 else [first, second]

    def record_of(played: match.GameRecord) -> GameRecord:
        x_name, o_name = played.players
        results: dict[tuple[float, ...], int] = {(1.0, -1.0): X, (-1.0, 1.0): O}
        result = results.get(played.returns, DRAW)
        return GameRecord(n, k, x_name, o_name, played.actions, played.seconds, result, played.seed, rule)

    def told(i: int, played: match.GameRecord) -> None:
        if on_game is not None:
            on_game(i, record_of(played))

    played = match.play_match(
        partial(State, n, k, rule=rule), players, games=games, seed=base, workers=1, ask=timed_choice, on_result=told
    )
    return summarize([record_of(game) for game in played], swap=swap)


def _ms_per_move(seconds: Sequence[float]) -> float | None:
    return 1000 * sum(seconds) / len(seconds) if seconds else None


def match_json(summary: MatchSummary) -> dict[str, Any]:
    """The match for scripts: each player's results, the first player's score, and every game.

    >>> summary = summarize([GameRecord(3, 3, "a", "b", (4, 0, 2, 6, 3, 5, 1, 7, 8), (0.5,) * 9, DRAW, seed=7)])
    >>> data = match_json(summary)
    >>> data["first"]["draws"], data["score"]["rate"], data["score"]["elo"], data["results"][0]["result"]
    (1, 0.5, 0.0, 'draw')
    """
    first_game = summary.games[0]
    return {
        "n": first_game.n,
        "k": first_game.k,
        "rule": first_game.rule.label,
        "swap": summary.swap,
        "games": len(summary.games),
        **{
            which: {
                "name": side.name,
                "wins": side.wins,
                "draws": side.draws,
                "losses": side.losses,
                "moves": side.moves,
                "ms_per_move": _finite(1000 * side.mean_seconds),
            }
            for which, side in (("first", summary.first), ("second", summary.second))
        },
        "x_wins": summary.x_wins,
        "o_wins": summary.o_wins,
        "draws": summary.draws,
        "score": summary.score.to_json(),
        "results": [
            {
                "game": i,
                "seed": game.seed,
                "x": game.x_name,
                "o": game.o_name,
                "result": _RESULTS[game.result],
                "moves": len(game.moves),
                "x_ms_per_move": _ms_per_move(game.x_seconds),
                "o_ms_per_move": _ms_per_move(game.o_seconds),
            }
            for i, game in enumerate(summary.games, start=1)
        ],
    }


def games_csv(summary: MatchSummary) -> str:
    """The games as CSV for scripts: a header, then one line per game (an empty field: no move).

    >>> moves, seconds = (4, 0, 2, 6, 3, 5, 1, 7, 8), (0.5, 0.25) * 4 + (0.5,)
    >>> print(games_csv(summarize([GameRecord(3, 3, "a", "b", moves, seconds, DRAW, seed=7)])), end="")
    game,seed,x,o,result,moves,x_ms_per_move,o_ms_per_move
    1,7,a,b,draw,9,500.0,250.0
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    rows = match_json(summary)["results"]
    writer.writerow(["game", "seed", "x", "o", "result", "moves", "x_ms_per_move", "o_ms_per_move"])
    for row in rows:
        writer.writerow(["" if value is None else value for value in row.values()])
    return buffer.getvalue()
