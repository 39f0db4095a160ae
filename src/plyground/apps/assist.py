"""Hints for a 2048 game played elsewhere (a phone, another site): the board once, then each new tile.

The person types the board once; plyground says the best move and each move's value; the
person plays it where the game is, then types the tile that appeared (``row column value``,
counted from 1, e.g. ``1 4 2``), and so on. Another move than the one suggested is typed before
the tile (``up 1 4 2``); a whole board (rows separated by ``/``) starts again from it; ``q`` or
the end of the input stops. Bad input gets one line saying why, and the same question again.

>>> from plyground.g2048 import Expectimax
>>> lines = iter(["2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0", "left 1 4 2", "q"])
>>> out = []
>>> with Expectimax(depth=1, workers=1) as ai:
...     summary = assist(ai, lambda prompt: next(lines, None), out.append)
>>> summary.moves, summary.score
(1, 4)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from plyground.apps.text import format_grid, values_line
from plyground.errors import InvalidBoardError, InvalidInputError
from plyground.g2048 import DIRECTIONS, Board, Expectimax

__all__ = ["AssistSummary", "ask_board", "assist", "read_tile"]

SHORT = {"u": "up", "r": "right", "d": "down", "l": "left"}
BOARD_PROMPT = "board (rows separated by '/', e.g. 2 0 0 0/0 0 4 0/0 0 0 0/0 0 0 0): "


@dataclass
class AssistSummary:
    """Moves played and points scored since the first board, and the largest tile of the board now."""

    moves: int = 0
    score: int = 0
    max_tile: int = 0

    def line(self) -> str:
        """One line for people."""
        moves = f"{self.moves:,} move{'' if self.moves == 1 else 's'}"
        return f"{moves}, {self.score:,} points scored, max tile {self.max_tile}"


def read_tile(text: str, board: Board, suggested: str) -> tuple[str, Board]:
    """The move played and the board after it and its new tile, from ``[MOVE] ROW COLUMN VALUE``.

    >>> move, after = read_tile("1 2 2", Board.parse("2 2/0 0"), "left")
    >>> move, after.to_rows()
    ('left', [[4, 2], [0, 0]])

    Raises:
        InvalidInputError: not in that form, an illegal move, a cell off the board or not empty
            after the move, or a tile other than 2 and 4.
    """
    words = text.lower().replace(",", " ").split()
    move = suggested
    if words and not words[0].lstrip("-").isdigit():
        word = words.pop(0)
        move = SHORT.get(word, word)
        if move not in DIRECTIONS:
            raise InvalidInputError(f"unknown move {word!r}: up, right, down or left (u, r, d, l)")
    if len(words) != 3 or not all(w.isdigit() for w in words):
        raise InvalidInputError("give the new tile as ROW COLUMN VALUE, e.g. 1 4 2 (or up 1 4 2 after another move)")
    row, col, value = map(int, words)
    if move not in board.legal_moves():
        raise InvalidInputError(f"{move} does not move any tile on this board")
    after, _ = board.move(move)
    if not (1 <= row <= board.rows and 1 <= col <= board.cols):
        raise InvalidInputError(f"row and column go from 1 to {board.rows} and 1 to {board.cols}, got {row} {col}")
    if value not in (2, 4):
        raise InvalidInputError(f"a new tile is a 2 or a 4, got {value}")
    if after[row - 1, col - 1]:
        raise InvalidInputError(f"row {row}, column {col} is not empty after {move}")
    return move, after.with_tile((row - 1, col - 1), value)


def ask_board(ask: Callable[[str], str | None], say: Callable[[str], None]) -> Board | None:
    """The first board, asked for until a line is one; None at the end of the input or on ``q``."""
    while True:
        text = ask(BOARD_PROMPT)
        if text is None or text.strip().lower() in ("q", "quit"):
            return None
        try:
            return Board.parse(text.strip())
        except (InvalidBoardError, InvalidInputError) as error:
            say(f"error: {error}")


def assist(
    ai: Expectimax,
    ask: Callable[[str], str | None],
    say: Callable[[str], None],
    board: Board | None = None,
) -> AssistSummary:
    """Run the exchange: ``ask(prompt)`` reads a line (None at the end of the input), ``say`` writes one.

    ``board`` is the first board; without it the first line read is.
    """
    summary = AssistSummary()
    board = board if board is not None else ask_board(ask, say)
    if board is None:
        return summary
    summary.max_tile = board.max_tile()
    while True:
        if board.is_terminal():
            say(format_grid(board.to_rows()))
            say("game over: no move is left")
            return summary
        decision = ai.choose(board)
        assert decision.move is not None
        say(format_grid(board.to_rows()))
        downgraded = decision.searched is not None
        say(f"best move: {decision.move}   "
            f"({values_line(decision.values.items(), ai.evaluator.unit, downgraded=downgraded)})")  # fmt: skip
        while True:
            text = ask(f"new tile after {decision.move} (ROW COLUMN VALUE; MOVE ROW COLUMN VALUE; a board; q): ")
            if text is None or text.strip().lower() in ("q", "quit"):
                return summary
            try:
                if "/" in text:
                    board = Board.parse(text.strip())
                    break
                move, after = read_tile(text, board, decision.move)
            except (InvalidBoardError, InvalidInputError) as error:
                say(f"error: {error}")
                continue
            summary.score += board.move(move)[1]
            summary.moves += 1
            board = after
            break
        summary.max_tile = board.max_tile()  # a whole board typed in starts again: its tiles count, not earlier ones
