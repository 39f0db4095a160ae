"""Games between two players: one game with its record, a seeded match with its summary.

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
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from plyground.core.seeding import resolve_seed
from plyground.errors import ForbiddenMoveError, InvalidInputError, PlayerError
from plyground.kinrow.board import COLUMNS, DRAW, EMPTY, O, State, X, player_name
from plyground.kinrow.players import Player
from plyground.kinrow.rules import Rule, parse_rule

__all__ = [
    "GameRecord",
    "MatchSummary",
    "PlayerError",
    "PlayerFactory",
    "SideSummary",
    "play_game",
    "play_match",
    "summarize",
    "timed_choice",
]

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
    x.reset()
    o.reset()
    seconds: list[float] = []
    while state.result is None:
        move, took = timed_choice(x if state.to_move == X else o, state)
        state.play(move)
        seconds.append(took)
        if on_move is not None:
            on_move(state, move, took)
    return GameRecord(n, k, x.name, o.name, state.history, tuple(seconds), state.result, rule=state.rule)


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
    records: list[GameRecord] = []
    for i in range(games):
        game_seed = base + i
        first, second = x_factory(game_seed), o_factory(game_seed)
        x, o = (second, first) if swap and i % 2 == 1 else (first, second)
        record = replace(play_game(x, o, n, k, rule=rule), seed=game_seed)
        records.append(record)
        if on_game is not None:
            on_game(i, record)
    return summarize(records, swap=swap)
