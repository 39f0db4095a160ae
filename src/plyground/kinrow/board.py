"""k-in-a-row on an n×n board: the state of a game, with play and undo.

X moves first; under the default rule (free-style) a player who gets k *or more* stones
in a row, column or diagonal wins; a board without an empty cell left and without such a
line is a draw. :mod:`plyground.kinrow.rules` describes the other rules: standard (exactly
k) and renju (gomoku with forbidden points for X, :mod:`plyground.kinrow.renju`). Some
cells may be *blocked*: nobody plays there, and they end lines like the board's edge (a
rectangular board inside a square one, or a board with holes). Moves are cell numbers
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
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from plyground.core.game import TERMINAL, GameState
from plyground.core.symmetry import permutations
from plyground.errors import IllegalMoveError, InvalidBoardError, InvalidInputError, NothingToUndoError
from plyground.kinrow import _kernels as K
from plyground.kinrow import _renju_kernels as R
from plyground.kinrow.limits import MAX_N, MIN_N
from plyground.kinrow.rules import Rule, parse_rule

__all__ = ["BLOCKED", "COLUMNS", "DRAW", "EMPTY", "MAX_N", "MIN_N", "O", "State", "X", "player_name", "zobrist"]

EMPTY, X, O = 0, 1, 2  # noqa: E741 (O is the name of the second player)
BLOCKED = 3
"""The value of a blocked cell in :attr:`State.cells`."""
DRAW = 3
"""``State.result`` of a full board without a line (X and O for a win, None while the game goes on)."""
_SYMBOLS = {EMPTY: ".", X: "X", O: "O", BLOCKED: "#"}
COLUMNS = "abcdefghijklmnopqrst"
"""The column letters, ``a`` for column 0."""
FORBIDDEN_REASONS = {R.OVERLINE: "overline", R.DOUBLE_FOUR: "double-four", R.DOUBLE_THREE: "double-three"}
"""The words for renju's forbidden points, by the number the kernels give."""


def player_name(player: int) -> str:
    """``X`` or ``O`` (and ``draw`` for :data:`DRAW`)."""
    return {X: "X", O: "O", DRAW: "draw"}[player]


@functools.cache
def zobrist(n: int) -> npt.NDArray[np.uint64]:
    """Random 64-bit keys of (cell, content) for the n×n board (fixed: the same in every run).

    Row ``i`` holds the keys of cell ``i`` for ``[unused, X, O, blocked]``; a board's key is
    the XOR of the keys of its stones and blocked cells.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([0x6B696E, n])))
    stones = rng.integers(1, 2**64 - 1, size=(n * n, 3), dtype=np.uint64, endpoint=True)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([0x6B696E, n, BLOCKED])))
    blocked = rng.integers(1, 2**64 - 1, size=(n * n, 1), dtype=np.uint64, endpoint=True)
    table = np.ascontiguousarray(np.hstack([stones, blocked]))
    table[:, EMPTY] = 0
    table.setflags(write=False)
    return table


class State:
    """A k-in-a-row position on an n×n board, with its history; :meth:`play` and :meth:`undo` change it.

    Args:
        n: board side, 3 to 20.
        k: stones in a row to win, 3 to n (5 under renju).
        rule: a :class:`~plyground.kinrow.rules.Rule` (or its name or number).
        blocked: cells that nobody may play (at least one cell must stay free).

    Raises:
        InvalidInputError: ``n``, ``k``, ``rule`` or a blocked cell out of range.
    """

    __slots__ = ("_cells", "_free", "_hashes", "_history", "_result", "blocked", "k", "n", "rule")

    def __init__(
        self, n: int = 3, k: int = 3, *, rule: Rule | str | int = Rule.FREESTYLE, blocked: Iterable[int] = ()
    ) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_N <= n <= MAX_N:
            raise InvalidInputError(f"n must be an integer from {MIN_N} to {MAX_N}, got {n!r}")
        if isinstance(k, bool) or not isinstance(k, int) or not 3 <= k <= n:
            raise InvalidInputError(f"k must be an integer from 3 to n = {n}, got {k!r}")
        self.rule = parse_rule(rule)
        if self.rule is Rule.RENJU and k != 5:
            raise InvalidInputError(f"renju is played with k = 5, got k = {k}")
        self.n, self.k = n, k
        self.blocked = _check_blocked(blocked, n)
        self._cells = np.zeros(n * n, dtype=np.int8)
        self._hashes = np.zeros(8, dtype=np.uint64)  # the key of the board under each symmetry
        self._free = n * n - len(self.blocked)  # cells that can hold a stone
        for cell in sorted(self.blocked):
            self._cells[cell] = BLOCKED
            self._hashes ^= zobrist(n)[permutations(n)[:, cell], BLOCKED]
        self._history: list[int] = []
        self._result: int | None = None

    # -- reading -----------------------------------------------------------

    @property
    def cells(self) -> npt.NDArray[np.int8]:
        """The n*n cells, row-major: 0 empty, 1 X, 2 O, 3 blocked (a read-only view)."""
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
        """A 64-bit hash of the position (Zobrist), for caches: equal positions have equal keys.

        Blocked cells are part of the position (the rule and k are not).
        """
        return int(self._hashes[0])

    @property
    def canonical_key(self) -> int:
        """A 64-bit hash shared by the 8 symmetric images of the position: the smallest of their keys.

        The images move the blocked cells too, so two positions share it only when one is an
        image of the other with its blocked cells: a symmetry that does not map the blocked
        cells onto themselves relates no two positions of one game.
        """
        return int(self._hashes.min())

    def legal_moves(self) -> list[int]:
        """The cells the player to move may play, in order: the empty ones, less X's forbidden points under renju.

        None once the game is over.
        """
        if self._result is not None:
            return []
        moves: list[int] = np.flatnonzero(self._cells == EMPTY).tolist()
        if self.rule is Rule.RENJU and self.to_move == X:
            forbidden = set(self.forbidden_moves())
            moves = [move for move in moves if move not in forbidden]
        return moves

    def forbidden_moves(self) -> list[int]:
        """The empty cells that X may not play under renju (see :mod:`plyground.kinrow.renju`), in order.

        Empty for the other rules, and when O is to move or the game is over.
        """
        if self.rule is not Rule.RENJU or self.to_move != X or self._result is not None:
            return []
        out = np.empty(self.n * self.n, dtype=np.int64)
        count = int(R._forbidden_moves(self._cells, self.n, out))
        moves: list[int] = out[:count].tolist()
        return moves

    def winning_moves(self, player: int | None = None) -> list[int]:
        """The empty cells where ``player`` (default: the player to move) would win at once under the rule.

        (A five is never a forbidden point: under renju these are X's legal wins.)
        """
        out = np.empty(self.n * self.n, dtype=np.int64)
        count = K._winning_moves_rule(self._cells, self.n, self.k, player or self.to_move, int(self.rule), out)
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
        if threats and self.rule is Rule.RENJU and self.to_move == X:
            forbidden = set(self.forbidden_moves())
            threats = [move for move in threats if move not in forbidden]  # a block X may not play is no block
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
        return f"{COLUMNS[col]}{row + 1}"

    def parse_move(self, text: str) -> int:
        """A move from text: ``c2`` (column letter, row number) or ``row,col`` from 0.

        Raises:
            IllegalMoveError: not a cell of the board.
        """
        text = text.strip().lower()
        size = f"the {self.n}x{self.n} board"
        match = re.fullmatch(r"([a-t])\s*(\d{1,2})", text)
        if match is not None:
            row, col = int(match[2]) - 1, COLUMNS.index(match[1])
            if not (0 <= row < self.n and 0 <= col < self.n):
                last = COLUMNS[self.n - 1]
                raise IllegalMoveError(f"{text} is off {size}: its columns are a to {last}, its rows 1 to {self.n}")
            return self.index(row, col)
        match = re.fullmatch(r"(\d{1,2})\s*[, ]\s*(\d{1,2})", text)
        if match is not None:
            row, col = int(match[1]), int(match[2])
            if not (0 <= row < self.n and 0 <= col < self.n):
                raise IllegalMoveError(f"{row},{col} is off {size}: row and column are from 0 to {self.n - 1}")
            return self.index(row, col)
        raise IllegalMoveError(
            f"cannot read a move from {text!r}: write it like c2 (column, row from 1) or 1,2 (row, column from 0)"
        )

    # -- changing ----------------------------------------------------------

    def play(self, move: int) -> None:
        """Put the stone of the player to move on cell ``move``.

        Raises:
            IllegalMoveError: the cell is off the board, taken or blocked, a forbidden point
                of X under renju (the message names the reason), or the game is over.
        """
        if self._result is not None:
            raise IllegalMoveError(f"the game is over ({player_name(self._result)}); no more moves")
        if isinstance(move, bool) or not isinstance(move, int | np.integer) or not 0 <= move < self.n * self.n:
            raise IllegalMoveError(f"move {move!r} is not a cell of the {self.n}x{self.n} board")
        move = int(move)
        if self._cells[move] == BLOCKED:
            raise IllegalMoveError(f"cell {self.name(move)} is blocked")
        if self._cells[move] != EMPTY:
            raise IllegalMoveError(f"cell {self.name(move)} is taken")
        player = self.to_move
        renju = self.rule is Rule.RENJU
        if renju and player == X:
            reason = int(R._forbidden(self._cells, self.n, move))
            if reason:
                raise IllegalMoveError(f"{self.name(move)} is forbidden to X under renju ({FORBIDDEN_REASONS[reason]})")
        self._place(move, player)
        self._history.append(move)
        self._result = self._outcome(move, player)

    def _place(self, move: int, player: int) -> None:
        self._cells[move] = player
        self._hashes ^= zobrist(self.n)[permutations(self.n)[:, move], player]

    def _outcome(self, move: int, player: int) -> int | None:
        """The result after ``player``'s stone on ``move``: a win, a draw (no cell X may play is left), or None."""
        if K._wins_at_rule(self._cells, self.n, self.k, move, player, int(self.rule)):
            return player
        if len(self._history) == self._free:
            return DRAW
        if self.rule is Rule.RENJU and player == O and R._first_allowed(self._cells, self.n) < 0:
            return DRAW  # every empty cell is forbidden to X
        return None

    def undo(self) -> int:
        """Take back the last move and return it.

        Raises:
            NothingToUndoError: no move has been played.
        """
        if not self._history:
            raise NothingToUndoError("no move to undo")
        move = self._history.pop()
        self._place(move, int(self._cells[move]))  # XOR takes the stone's key away
        self._cells[move] = EMPTY
        self._result = None
        return move

    def copy(self) -> State:
        """An independent copy (history included)."""
        other = State.__new__(State)
        other.n, other.k, other.rule, other.blocked, other._free = self.n, self.k, self.rule, self.blocked, self._free
        other._cells = self._cells.copy()
        other._hashes = self._hashes.copy()
        other._history = list(self._history)
        other._result = self._result
        return other

    # -- the game protocol (plyground.core.game.GameState) --------------------

    num_players = 2
    """X is player 0, O player 1; there is no chance."""

    @property
    def current_player(self) -> int:
        """0 when X is to move, 1 for O, :data:`~plyground.core.game.TERMINAL` once the game is over."""
        return TERMINAL if self._result is not None else self.to_move - 1

    def is_terminal(self) -> bool:
        """Whether the game is over (:attr:`is_over`)."""
        return self._result is not None

    def legal_actions(self) -> list[int]:
        """The cells the player to move may play (:meth:`legal_moves`)."""
        return self.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """None: k-in-a-row has no chance."""
        return []

    def apply_action(self, action: int) -> None:
        """Play cell ``action`` (:meth:`play`)."""
        self.play(action)

    def undo_action(self) -> None:
        """Take back the last move (:meth:`undo`)."""
        self.undo()

    def returns(self) -> list[float]:
        """X's and O's: 1 for the winner and -1 for the loser at the end, 0 for a draw and before."""
        if self._result == X:
            return [1.0, -1.0]
        if self._result == O:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def clone(self) -> State:
        """An independent copy (:meth:`copy`)."""
        return self.copy()

    # -- text --------------------------------------------------------------

    @classmethod
    def from_moves(
        cls,
        n: int,
        k: int,
        moves: list[int] | tuple[int, ...],
        *,
        rule: Rule | str | int = Rule.FREESTYLE,
        blocked: Iterable[int] = (),
    ) -> State:
        """The state after playing ``moves`` from the empty board (see :class:`State` for the options)."""
        state = cls(n, k, rule=rule, blocked=blocked)
        for move in moves:
            state.play(move)
        return state

    @classmethod
    def parse(cls, text: str, k: int, *, rule: Rule | str | int = Rule.FREESTYLE) -> State:
        """A position from rows of ``X``, ``O``, ``.`` and ``#`` (blocked), separated by ``/`` or newlines.

        The stones are placed X, O, X, ... in cell order, so the history is not the game's;
        X must have as many stones as O, or one more. Forbidden points are not checked.

        Raises:
            InvalidBoardError: not a square of 3 to 20 rows, a bad symbol, impossible stone
                counts, both players with a line, or ``k`` out of range.
            InvalidInputError: an unknown rule, or renju with k other than 5.
        """
        rows = [row.replace(" ", "") for row in re.split(r"[/\n]", text.strip()) if row.strip()]
        n = len(rows)
        if not MIN_N <= n <= MAX_N or any(len(row) != n for row in rows):
            raise InvalidBoardError(f"a board is a square of {MIN_N} to {MAX_N} rows of equal length, got {text!r}")
        if isinstance(k, bool) or not isinstance(k, int) or k > n or k < 3:
            raise InvalidBoardError(f"k must be from 3 to n = {n}, got {k!r}")
        symbols = "".join(rows).upper()
        bad = set(symbols) - set("XO.#")
        if bad:
            raise InvalidBoardError(f"a cell is X, O, '.' or '#' (blocked), got {''.join(sorted(bad))!r}")
        xs = [i for i, s in enumerate(symbols) if s == "X"]
        os_ = [i for i, s in enumerate(symbols) if s == "O"]
        if len(xs) - len(os_) not in (0, 1):
            raise InvalidBoardError(f"X has {len(xs)} stones and O {len(os_)}: X must have as many as O or one more")
        blocked = [i for i, s in enumerate(symbols) if s == "#"]
        if len(blocked) == n * n:
            raise InvalidBoardError("every cell is blocked: there is no board to play on")
        state = cls(n, k, rule=rule, blocked=blocked)
        for i, move in enumerate([m for pair in zip(xs, [*os_, -1], strict=False) for m in pair if m >= 0]):
            state._place(move, X if i % 2 == 0 else O)
            state._history.append(move)
        code = int(state.rule)
        x_wins = any(K._wins_at_rule(state._cells, n, k, m, X, code) for m in xs)
        o_wins = any(K._wins_at_rule(state._cells, n, k, m, O, code) for m in os_)
        if x_wins and o_wins:
            raise InvalidBoardError("both X and O have a line: not a position of a game")
        state._result = X if x_wins else O if o_wins else DRAW if len(state._history) == state._free else None
        return state

    def to_text(self) -> str:
        """The rows joined by ``/``: ``X.O/.X./...`` (``#`` for a blocked cell)."""
        return "/".join(
            "".join(_SYMBOLS[int(v)] for v in self._cells[r * self.n : (r + 1) * self.n]) for r in range(self.n)
        )

    def __str__(self) -> str:
        width = len(str(self.n))
        lines = [" " * (width + 2) + " ".join(COLUMNS[: self.n])]
        for r in range(self.n):
            row = " ".join(_SYMBOLS[int(v)] for v in self._cells[r * self.n : (r + 1) * self.n])
            lines.append(f"{r + 1:>{width + 1}} {row}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        rule = "" if self.rule is Rule.FREESTYLE else f", rule={self.rule.label}"
        return f"State(n={self.n}, k={self.k}{rule}, {self.to_text()!r})"


def _check_blocked(blocked: Iterable[int], n: int) -> frozenset[int]:
    """The blocked cells as a frozenset, each checked to be a cell of the n×n board, one cell at least left free."""
    if isinstance(blocked, str | bytes) or not isinstance(blocked, Iterable):
        raise InvalidInputError(f"blocked must be a collection of cell numbers, got {blocked!r}")
    cells: set[int] = set()
    for cell in blocked:
        if isinstance(cell, bool) or not isinstance(cell, int | np.integer) or not 0 <= cell < n * n:
            raise InvalidInputError(f"blocked cell {cell!r} is not a cell of the {n}x{n} board")
        cells.add(int(cell))
    if len(cells) == n * n:
        raise InvalidInputError("every cell is blocked: there is no board to play on")
    return frozenset(cells)


if TYPE_CHECKING:

    def _is_a_game_state(state: State) -> GameState:
        return state  # mypy checks that State follows the protocol
