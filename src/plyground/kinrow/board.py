"""k-in-a-row on an n×n board: the state of a game, with play and undo.

X moves first; a player who gets k *or more* stones in a row, column or diagonal wins
(free-style); a full board without such a line is a draw. Moves are cell numbers
``row * n + col`` (row 0 at the top); :meth:`State.index` and :meth:`State.coords` convert.

>>> s = State(3, 3)
>>> for move in (4, 0, 2, 6, 3, 5, 1, 7, 8):
...     s.play(move)
>>> s.result == DRAW
True
>>> print(s)
   a b c
 1 O X X
 2 X X O
 3 O O X
"""

from __future__ import annotations

import functools
import re

import numpy as np
import numpy.typing as npt

from plyground.core.symmetry import permutations
from plyground.errors import IllegalMoveError, InvalidBoardError, InvalidInputError, NothingToUndoError
from plyground.kinrow import _kernels as K

__all__ = ["DRAW", "EMPTY", "MAX_N", "MIN_N", "O", "State", "X", "player_name", "zobrist"]

EMPTY, X, O = 0, 1, 2  # noqa: E741 (O is the name of the second player)
DRAW = 3
"""``State.result`` of a full board without a line (X and O for a win, None while the game goes on)."""
MIN_N, MAX_N = 3, 19
_SYMBOLS = {EMPTY: ".", X: "X", O: "O"}
_COLUMNS = "abcdefghijklmnopqrs"


def player_name(player: int) -> str:
    """``X`` or ``O`` (and ``draw`` for :data:`DRAW`)."""
    return {X: "X", O: "O", DRAW: "draw"}[player]


@functools.cache
def zobrist(n: int) -> npt.NDArray[np.uint64]:
    """Random 64-bit keys of (cell, player) for the n×n board (fixed: the same in every run).

    Row ``i`` holds the keys of cell ``i`` for ``[unused, X, O]``; a board's key is the XOR
    of the keys of its stones.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([0x6B696E, n])))
    table = rng.integers(1, 2**64 - 1, size=(n * n, 3), dtype=np.uint64, endpoint=True)
    table[:, EMPTY] = 0
    table.setflags(write=False)
    return table


class State:
    """A k-in-a-row position on an n×n board, with its history; :meth:`play` and :meth:`undo` change it.

    Args:
        n: board side, 3 to 19.
        k: stones in a row to win, 3 to n.

    Raises:
        InvalidInputError: ``n`` or ``k`` out of range.
    """

    __slots__ = ("_cells", "_hashes", "_history", "_result", "k", "n")

    def __init__(self, n: int = 3, k: int = 3) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_N <= n <= MAX_N:
            raise InvalidInputError(f"n must be an integer from {MIN_N} to {MAX_N}, got {n!r}")
        if isinstance(k, bool) or not isinstance(k, int) or not 3 <= k <= n:
            raise InvalidInputError(f"k must be an integer from 3 to n = {n}, got {k!r}")
        self.n, self.k = n, k
        self._cells = np.zeros(n * n, dtype=np.int8)
        self._hashes = np.zeros(8, dtype=np.uint64)  # the key of the board under each symmetry
        self._history: list[int] = []
        self._result: int | None = None

    # -- reading -----------------------------------------------------------

    @property
    def cells(self) -> npt.NDArray[np.int8]:
        """The n*n cells, row-major: 0 empty, 1 X, 2 O (a read-only view)."""
        view = self._cells.view()
        view.setflags(write=False)
        return view

    @property
    def to_move(self) -> int:
        """X (1) or O (2): whose turn it is."""
        return X if len(self._history) % 2 == 0 else O

    @property
    def history(self) -> tuple[int, ...]:
        """The moves played so far."""
        return tuple(self._history)

    @property
    def result(self) -> int | None:
        """X or O when that player has won, DRAW on a full board without a line, None while the game goes on."""
        return self._result

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def key(self) -> int:
        """A 64-bit hash of the position (Zobrist), for caches: equal positions have equal keys."""
        return int(self._hashes[0])

    @property
    def canonical_key(self) -> int:
        """A 64-bit hash shared by the 8 symmetric images of the position: the smallest of their keys."""
        return int(self._hashes.min())

    def legal_moves(self) -> list[int]:
        """The empty cells, in order; none once the game is over."""
        if self._result is not None:
            return []
        moves: list[int] = np.flatnonzero(self._cells == EMPTY).tolist()
        return moves

    def winning_moves(self, player: int | None = None) -> list[int]:
        """The empty cells where ``player`` (default: the player to move) would win at once."""
        out = np.empty(self.n * self.n, dtype=np.int64)
        count = K._winning_moves(self._cells, self.n, self.k, player or self.to_move, out)
        moves: list[int] = out[:count].tolist()
        return moves

    def forced_move(self) -> int | None:
        """An immediate win of the player to move, else the block of the opponent's immediate win, else None.

        When the opponent threatens to win in two places the game is lost anyway; the first
        threat is blocked. Every AI plays this move before it searches.

        >>> State.parse("X../OO./X..", 3).forced_move()  # X blocks O's row
        5
        """
        wins = self.winning_moves()
        if wins:
            return wins[0]
        threats = self.winning_moves(O if self.to_move == X else X)
        return threats[0] if threats else None

    def index(self, row: int, col: int) -> int:
        """The move number of cell (row, col)."""
        if not (0 <= row < self.n and 0 <= col < self.n):
            raise IllegalMoveError(f"cell ({row}, {col}) is off the {self.n}x{self.n} board")
        return row * self.n + col

    def coords(self, move: int) -> tuple[int, int]:
        """The (row, col) of a move number."""
        return divmod(move, self.n)

    def name(self, move: int) -> str:
        """A move as text: column letter and row number, like ``c2``."""
        row, col = self.coords(move)
        return f"{_COLUMNS[col]}{row + 1}"

    def parse_move(self, text: str) -> int:
        """A move from text: ``c2`` (column letter, row number) or ``row,col`` from 0.

        Raises:
            IllegalMoveError: not a cell of the board.
        """
        text = text.strip().lower()
        match = re.fullmatch(r"([a-s])\s*(\d{1,2})", text)
        if match is not None:
            return self.index(int(match[2]) - 1, _COLUMNS.index(match[1]))
        match = re.fullmatch(r"(\d{1,2})\s*[, ]\s*(\d{1,2})", text)
        if match is not None:
            return self.index(int(match[1]), int(match[2]))
        raise IllegalMoveError(f"cannot read a move from {text!r}: write it like c2 (column, row) or 1,2 (row, col)")

    # -- changing ----------------------------------------------------------

    def play(self, move: int) -> None:
        """Put the stone of the player to move on cell ``move``.

        Raises:
            IllegalMoveError: the cell is off the board or taken, or the game is over.
        """
        if self._result is not None:
            raise IllegalMoveError(f"the game is over ({player_name(self._result)}); no more moves")
        if isinstance(move, bool) or not isinstance(move, int | np.integer) or not 0 <= move < self.n * self.n:
            raise IllegalMoveError(f"move {move!r} is not a cell of the {self.n}x{self.n} board")
        move = int(move)
        if self._cells[move] != EMPTY:
            raise IllegalMoveError(f"cell {self.name(move)} is taken")
        player = self.to_move
        self._cells[move] = player
        self._hashes ^= zobrist(self.n)[permutations(self.n)[:, move], player]
        self._history.append(move)
        if K._wins_at(self._cells, self.n, self.k, move, player):
            self._result = player
        elif len(self._history) == self.n * self.n:
            self._result = DRAW

    def undo(self) -> int:
        """Take back the last move and return it.

        Raises:
            NothingToUndoError: no move has been played.
        """
        if not self._history:
            raise NothingToUndoError("no move to undo")
        move = self._history.pop()
        player = int(self._cells[move])
        self._cells[move] = EMPTY
        self._hashes ^= zobrist(self.n)[permutations(self.n)[:, move], player]
        self._result = None
        return move

    def copy(self) -> State:
        """An independent copy (history included)."""
        other = State.__new__(State)
        other.n, other.k = self.n, self.k
        other._cells = self._cells.copy()
        other._hashes = self._hashes.copy()
        other._history = list(self._history)
        other._result = self._result
        return other

    # -- text --------------------------------------------------------------

    @classmethod
    def from_moves(cls, n: int, k: int, moves: list[int] | tuple[int, ...]) -> State:
        """The state after playing ``moves`` from the empty board."""
        state = cls(n, k)
        for move in moves:
            state.play(move)
        return state

    @classmethod
    def parse(cls, text: str, k: int) -> State:
        """A position from rows of ``X``, ``O`` and ``.`` (rows separated by ``/`` or newlines).

        The stones are placed X, O, X, ... in cell order, so the history is not the game's;
        X must have as many stones as O, or one more.

        Raises:
            InvalidBoardError: not a square of 3 to 19 rows, a bad symbol, impossible stone
                counts, or both players with a line.
        """
        rows = [row.replace(" ", "") for row in re.split(r"[/\n]", text.strip()) if row.strip()]
        n = len(rows)
        if not MIN_N <= n <= MAX_N or any(len(row) != n for row in rows):
            raise InvalidBoardError(f"a board is a square of {MIN_N} to {MAX_N} rows of equal length, got {text!r}")
        if k > n or k < 3:
            raise InvalidBoardError(f"k must be from 3 to n = {n}, got {k}")
        symbols = "".join(rows).upper()
        bad = set(symbols) - set("XO.")
        if bad:
            raise InvalidBoardError(f"a cell is X, O or '.', got {''.join(sorted(bad))!r}")
        xs = [i for i, s in enumerate(symbols) if s == "X"]
        os_ = [i for i, s in enumerate(symbols) if s == "O"]
        if len(xs) - len(os_) not in (0, 1):
            raise InvalidBoardError(f"X has {len(xs)} stones and O {len(os_)}: X must have as many as O or one more")
        state = cls(n, k)
        for i, move in enumerate([m for pair in zip(xs, [*os_, -1], strict=False) for m in pair if m >= 0]):
            state._cells[move] = X if i % 2 == 0 else O
            state._hashes ^= zobrist(n)[permutations(n)[:, move], X if i % 2 == 0 else O]
            state._history.append(move)
        x_wins = any(K._wins_at(state._cells, n, k, m, X) for m in xs)
        o_wins = any(K._wins_at(state._cells, n, k, m, O) for m in os_)
        if x_wins and o_wins:
            raise InvalidBoardError("both X and O have a line: not a position of a game")
        state._result = X if x_wins else O if o_wins else DRAW if len(state._history) == n * n else None
        return state

    def to_text(self) -> str:
        """The rows joined by ``/``: ``X.O/.X./...``."""
        return "/".join(
            "".join(_SYMBOLS[int(v)] for v in self._cells[r * self.n : (r + 1) * self.n]) for r in range(self.n)
        )

    def __str__(self) -> str:
        width = len(str(self.n))
        lines = [" " * (width + 2) + " ".join(_COLUMNS[: self.n])]
        for r in range(self.n):
            row = " ".join(_SYMBOLS[int(v)] for v in self._cells[r * self.n : (r + 1) * self.n])
            lines.append(f"{r + 1:>{width + 1}} {row}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"State(n={self.n}, k={self.k}, {self.to_text()!r})"
