"""A game of 2048: board, score, spawns from a seeded generator, undo, and a replay record.

:class:`Game` is the user's side of the game on :class:`~plyground.g2048.state.State`, the
core protocol's 2048: a move is the state's action and the spawn that follows is its chance
action, drawn by :func:`~plyground.g2048.state.draw_spawn` from the game's seeded generator.

>>> game = Game(seed=7)
>>> points = game.step(game.board.legal_moves()[0])
>>> Replay.from_json(game.replay.to_json()).play().board == game.board
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from plyground.core.files import FileFormat, read_json, write_json
from plyground.core.seeding import make_rng, resolve_seed
from plyground.errors import (
    CorruptFileError,
    GameOverError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidInputError,
    NothingToUndoError,
)
from plyground.g2048.board import DEFAULT_P_FOUR, DIRECTIONS, Board, Direction, check_p_four, direction_index
from plyground.g2048.state import START_SPAWNS, State, draw_spawn

__all__ = ["WIN_TILE", "Game", "Replay", "Spawn", "replay_of"]

WIN_TILE = 2048
_T = TypeVar("_T")
REPLAY_FILE = FileFormat("plyground.g2048.replay", 1, "a 2048 replay", "replay")


@dataclass(frozen=True)
class Spawn:
    """A tile that appeared: ``tile`` (2 or 4) at ``(row, col)``."""

    row: int
    col: int
    tile: int

    def to_list(self) -> list[int]:
        return [self.row, self.col, self.tile]


@dataclass
class Replay:
    """Everything needed to replay a game exactly: the rules, the seed, every move and spawn.

    ``start`` holds the two starting spawns; ``moves`` holds each move with the spawn
    that followed it. :meth:`play` rebuilds the game, checking every step.
    """

    rows: int = 4
    cols: int = 4
    p_four: float = DEFAULT_P_FOUR
    seed: int = 0
    start: list[Spawn] = field(default_factory=list)
    moves: list[tuple[Direction, Spawn]] = field(default_factory=list)
    score: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return REPLAY_FILE.stamp(
            {
                "rows": self.rows,
                "cols": self.cols,
                "p_four": self.p_four,
                "seed": self.seed,
                "start": [spawn.to_list() for spawn in self.start],
                "moves": [[move, *spawn.to_list()] for move, spawn in self.moves],
                "score": self.score,
            }
        )

    def to_json(self) -> str:
        """The replay as JSON text."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> Replay:
        """Read a replay dictionary, checking its shape (not yet its moves: see :meth:`play`).

        Raises:
            CorruptFileError: a missing or malformed field, named in the message.
        """
        data = REPLAY_FILE.check(data)
        expected = {"format", "version", "rows", "cols", "p_four", "seed", "start", "moves", "score"}
        missing, unknown = sorted(expected - data.keys()), sorted(data.keys() - expected)
        if missing or unknown:
            raise CorruptFileError(f"bad replay fields: missing {missing}, unknown {unknown}")
        try:
            replay = cls(
                rows=_integer(data["rows"], "rows"),
                cols=_integer(data["cols"], "cols"),
                p_four=check_p_four(data["p_four"]),
                seed=resolve_seed(_integer(data["seed"], "seed")),
                start=[_spawn(item, "start") for item in _list(data["start"], "start")],
                moves=[_move(item, i) for i, item in enumerate(_list(data["moves"], "moves"))],
                score=_integer(data["score"], "score"),
            )
            Board.empty(replay.rows, replay.cols)
        except CorruptFileError:
            raise
        except InvalidInputError as exc:
            raise CorruptFileError(f"bad replay: {exc}") from None
        if len(replay.start) != 2:
            raise CorruptFileError(f"a replay starts with 2 spawns, this one has {len(replay.start)}")
        return replay

    @classmethod
    def from_json(cls, text: str) -> Replay:
        """Read a replay from JSON text.

        Raises:
            CorruptFileError: the text is not JSON or not a replay.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CorruptFileError(f"replay is not valid JSON (line {exc.lineno}, column {exc.colno})") from None
        return cls.from_dict(data)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the replay to ``path`` as compact JSON (a line per move), atomically."""
        write_json(path, self.to_dict(), compact=True)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Replay:
        """Read a replay file, compact or indented (see :meth:`from_dict` for the errors)."""
        return _load(path, cls.from_dict)

    def positions(self) -> list[tuple[Board, int]]:
        """Each board of the game with the score so far: the start, then the board after each move and spawn.

        Raises:
            CorruptFileError: as :meth:`play`.
        """
        out: list[tuple[Board, int]] = []
        self.play(on_step=lambda game: out.append((game.board, game.score)))
        return out

    def play(self, on_step: Callable[[Game], None] | None = None) -> Game:
        """Rebuild the game by applying every recorded move and spawn.

        ``on_step(game)`` is called on the start position and after each move.

        The generator of the returned game continues from the seed as if no move had
        been made; :class:`Game` save files keep the generator state to continue exactly.

        Raises:
            CorruptFileError: not two starting spawns, a spawn on an occupied cell or of a tile
                that ``p_four`` never spawns, an illegal move, or a score that does not match the moves.
        """
        if len(self.start) != 2:
            raise CorruptFileError(f"a replay starts with 2 spawns, this one has {len(self.start)}")
        try:
            game = Game(self.rows, self.cols, seed=self.seed, p_four=self.p_four, _start=self.start)
        except InvalidInputError as exc:
            raise CorruptFileError(f"replay start cannot be played: {exc}") from None
        if on_step is not None:
            on_step(game)
        for i, (move, spawn) in enumerate(self.moves):
            try:
                game._replay_move(move, spawn)
            except (IllegalMoveError, InvalidBoardError) as exc:
                raise CorruptFileError(f"replay move {i + 1} ({move}) cannot be played: {exc}") from None
            if on_step is not None:
                on_step(game)
        if game.score != self.score:
            raise CorruptFileError(f"replay records a score of {self.score} but its moves score {game.score}")
        return game


class Game:
    """A game of 2048 on a ``rows`` × ``cols`` board.

    Two tiles are spawned at the start. :meth:`step` makes a move and spawns a tile
    (a 4 with probability ``p_four``, else a 2, on a uniformly chosen empty cell).
    Play goes on after 2048 (:attr:`won` turns true) until no move is legal.
    The same ``seed`` and moves give the same game; :attr:`replay` records it.
    The game is a :class:`~plyground.g2048.state.State` (see :attr:`state`) and the
    generator its spawns are drawn from.

    Raises:
        InvalidBoardError: an unsupported board size.
        InvalidInputError: a bad seed or ``p_four``.
    """

    def __init__(
        self,
        rows: int = 4,
        cols: int = 4,
        seed: int | None = None,
        p_four: float = DEFAULT_P_FOUR,
        *,
        _start: list[Spawn] | None = None,
    ) -> None:
        self._state = State(rows, cols, p_four=p_four)
        self._seed = resolve_seed(seed)
        self._rng = make_rng(self._seed)
        self._replay = Replay(rows, cols, self._state.p_four, self._seed)
        for i in range(START_SPAWNS):
            if _start is None:
                action = draw_spawn(self._state, self._rng)
                spawn = _spawn_of(action, cols)
                self._state.apply_action(action)
            else:
                spawn = _start[i]
                _place(self._state, spawn)
            self._replay.start.append(spawn)

    @property
    def state(self) -> State:
        """The game as a state of the core protocol (:mod:`plyground.core.game`): a copy, safe to change.

        Its history holds every action from the empty board: the two starting spawns, then each
        move and its spawn. Copying it costs nothing (states share their unchanging nodes).
        """
        return self._state.clone()

    @property
    def board(self) -> Board:
        """The current board."""
        return self._state.board

    @property
    def score(self) -> int:
        """The points scored so far (the sum of all merged tiles)."""
        return self._state.score

    @property
    def move_count(self) -> int:
        """The number of moves made (undone moves do not count)."""
        return self._state.move_count

    @property
    def seed(self) -> int:
        """The seed of the spawn generator."""
        return self._seed

    @property
    def p_four(self) -> float:
        """The probability that a spawned tile is a 4."""
        return self._state.p_four

    @property
    def won(self) -> bool:
        """A 2048 tile has been made (the game goes on)."""
        return self._state.board.max_tile() >= WIN_TILE

    @property
    def over(self) -> bool:
        """No move is legal."""
        return self._state.is_terminal()

    @property
    def replay(self) -> Replay:
        """The record of this game: a copy, safe to keep."""
        r = self._replay
        return Replay(r.rows, r.cols, r.p_four, r.seed, list(r.start), list(r.moves), self._state.score)

    def step(self, direction: Direction | str) -> int:
        """Move, spawn a tile, and return the points scored.

        Raises:
            UnknownDirectionError: not a direction name.
            GameOverError: the game is over.
            IllegalMoveError: the move changes nothing (nothing is spawned).
        """
        action = direction_index(direction)
        state = self._state
        score = state.score
        try:
            state.apply_action(action)
        except IllegalMoveError:  # asked only now: a legal move need not ask whether the game is over
            if state.is_terminal():
                raise GameOverError(f"the game is over (score {score}): no move is legal") from None
            legal = ", ".join(state.board.legal_moves())
            raise IllegalMoveError(f"illegal move {direction!r}: it changes nothing (legal: {legal})") from None
        spawn = draw_spawn(state, self._rng)
        state.apply_action(spawn)
        self._replay.moves.append((DIRECTIONS[action], _spawn_of(spawn, state.board.cols)))
        return state.score - score

    def _replay_move(self, direction: Direction | str, spawn: Spawn) -> None:
        """Play a recorded move and its spawn (no generator draw)."""
        action = direction_index(direction)
        state = self._state
        try:
            state.apply_action(action)
        except IllegalMoveError:
            raise IllegalMoveError(f"illegal move {direction!r} on {state.board.to_text()}") from None
        try:
            _place(state, spawn)
        except InvalidInputError:
            state.undo_action()
            raise
        self._replay.moves.append((DIRECTIONS[action], spawn))

    def undo(self) -> None:
        """Take back the last move: board and score return to what they were.

        The spawn generator is not rewound, so repeating the move may spawn elsewhere.

        Raises:
            NothingToUndoError: no move has been made.
        """
        if not self._state.move_count:
            raise NothingToUndoError("nothing to undo: no move has been made")
        self._state.undo_action()  # the spawn
        self._state.undo_action()  # the move
        self._replay.moves.pop()

    def to_dict(self) -> dict[str, Any]:
        """The game as a JSON-ready dictionary: its replay and the generator state."""
        return {"replay": self.replay.to_dict(), "rng": self._rng.bit_generator.state}

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Resume a game saved by :meth:`to_dict`: same board, score, undo history and generator.

        Raises:
            CorruptFileError: the data is not a saved game.
        """
        if not isinstance(data, dict) or set(data) != {"replay", "rng"}:
            raise CorruptFileError("a saved game is a JSON object with exactly the fields 'replay' and 'rng'")
        game = Replay.from_dict(data["replay"]).play()
        try:
            bit_generator = np.random.PCG64()
            bit_generator.state = data["rng"]
        except (TypeError, ValueError, KeyError, OverflowError) as exc:
            raise CorruptFileError(f"bad generator state in saved game: {exc}") from None
        game._rng = np.random.Generator(bit_generator)
        return game

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the game to ``path`` (atomically, compact JSON) so that :meth:`load` resumes it exactly."""
        write_json(path, self.to_dict(), compact=True)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Game:
        """Resume a game saved with :meth:`save`.

        Raises:
            FileNotFoundError: no file at ``path``.
            CorruptFileError: the file is not a valid saved game (one line, naming the file once).
        """
        return _load(path, cls.from_dict)

    def __repr__(self) -> str:
        board = self._state.board
        return (
            f"Game(rows={board.rows}, cols={board.cols}, seed={self._seed}, "
            f"p_four={self.p_four}, score={self.score}, moves={self.move_count}, board={board.to_text()!r})"
        )


def replay_of(actions: Sequence[int], *, rows: int, cols: int, p_four: float, seed: int, score: int) -> Replay:
    """The :class:`Replay` of a game played from an empty board by ``actions``.

    ``actions`` are a :class:`~plyground.g2048.state.State`'s from its start (its
    :attr:`~plyground.g2048.state.State.history`): the two spawns, then each move and its spawn.

    Raises:
        InvalidInputError: actions that are not a game's in that order.
    """
    if len(actions) < START_SPAWNS or (len(actions) - START_SPAWNS) % 2:
        raise InvalidInputError(f"a game's actions are two spawns, then moves and spawns: got {len(actions)} actions")
    start = [_spawn_of(action, cols) for action in actions[:START_SPAWNS]]
    pairs = actions[START_SPAWNS:]
    moves = [(DIRECTIONS[pairs[i]], _spawn_of(pairs[i + 1], cols)) for i in range(0, len(pairs), 2)]
    return Replay(rows, cols, p_four, seed, start, moves, score)


def _spawn_of(action: int, cols: int) -> Spawn:
    """The spawn of a chance action (see :mod:`plyground.g2048.state`) on a board of ``cols`` columns."""
    cell, four = divmod(action, 2)
    row, col = divmod(cell, cols)
    return Spawn(row, col, 4 if four else 2)


def _place(state: State, spawn: Spawn) -> None:
    """Apply a recorded ``spawn`` to ``state``, at a chance node.

    Raises:
        InvalidBoardError: the cell is outside the board or taken, or the tile is not 2 or 4.
        IllegalMoveError: a tile that never spawns with the state's ``p_four``.
    """
    board = state.board
    row, col, tile = spawn.row, spawn.col, spawn.tile
    if 0 <= row < board.rows and 0 <= col < board.cols and tile in (2, 4):
        try:
            state.apply_action(2 * (row * board.cols + col) + (tile == 4))
            return
        except IllegalMoveError:
            pass
    board.with_tile((row, col), tile)  # it raises the error that says what is wrong with the spawn
    if tile not in (2, 4):
        raise InvalidBoardError(f"a spawned tile is 2 or 4, got {tile}")
    raise IllegalMoveError(f"a {tile} never spawns when p_four is {state.p_four}")


def _load(path: str | os.PathLike[str], read: Callable[[Any], _T]) -> _T:
    """``read(data)`` of the JSON file at ``path``; its errors name the path once."""
    data = read_json(path)  # its errors name the file already
    try:
        return read(data)
    except CorruptFileError as exc:
        raise CorruptFileError(f"{path}: {exc}") from None


def _integer(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptFileError(f"replay field {name!r} must be an integer, got {value!r}")
    return value


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise CorruptFileError(f"replay field {name!r} must be a list, got {type(value).__name__}")
    return value


def _spawn(item: Any, where: str) -> Spawn:
    if not (isinstance(item, list) and len(item) == 3 and all(isinstance(v, int) for v in item)):
        raise CorruptFileError(f"bad spawn {item!r} in {where}: expected [row, col, tile]")
    if item[2] not in (2, 4):
        raise CorruptFileError(f"bad spawn {item!r} in {where}: a spawned tile is 2 or 4")
    return Spawn(*item)


def _move(item: Any, index: int) -> tuple[Direction, Spawn]:
    if not (isinstance(item, list) and len(item) == 4 and isinstance(item[0], str)):
        raise CorruptFileError(f"bad move {index + 1}: {item!r}, expected [direction, row, col, tile]")
    try:
        d = direction_index(item[0])
    except InvalidInputError as exc:
        raise CorruptFileError(f"bad move {index + 1}: {exc}") from None
    return DIRECTIONS[d], _spawn(item[1:], f"move {index + 1}")
