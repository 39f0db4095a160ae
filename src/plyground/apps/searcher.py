"""The AI of a desktop game, searching in a thread of its own: :class:`Searcher`.

A window sends it boards with :meth:`Searcher.ask`; the thread searches each one with an
:class:`~plyground.g2048.Expectimax` (or, on a board that one of its endgame tables advises
on, takes the table's move unsearched) and posts an :class:`Answer` on a queue that the
window's own thread polls. The worker never calls the window, so it needs no GUI toolkit and
is tested without a display.

>>> from plyground.g2048 import Board, Expectimax
>>> searcher = Searcher(Expectimax(depth=1, workers=1))
>>> searcher.ask(Board.parse("2 4/0 0"))  # only "down" moves a tile
>>> answer = searcher.answers.get(timeout=60)
>>> answer.board == Board.parse("2 4/0 0"), answer.decision.move
(True, 'down')
>>> searcher.stop()
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plyground.g2048 import Board, Decision, Expectimax

if TYPE_CHECKING:
    from plyground.g2048.tablebase import Advice, Advisor

__all__ = ["Answer", "Searcher"]


@dataclass(frozen=True)
class Answer:
    """What a :class:`Searcher` posts: the board it searched and the decision, or why it failed.

    ``advice`` is the endgame table's advice when the move is a table's (the decision then has
    depth 0 and no values).
    """

    board: Board
    decision: Decision | None
    error: str = ""
    advice: Advice | None = None


class Searcher:
    """A worker thread that searches the boards it is sent and posts the decisions on :attr:`answers`.

    It never calls the window: the window reads :attr:`answers` from its own thread. :meth:`stop`
    makes the thread end after the search in progress (at most about the engine's time budget).

    Args:
        engine: the search to run.
        tablebases: endgame tables asked first (None: none): a board one advises on gets its move.
    """

    def __init__(self, engine: Expectimax, tablebases: Advisor | None = None) -> None:
        self.engine = engine
        self.tablebases = tablebases
        self.answers: queue.SimpleQueue[Answer] = queue.SimpleQueue()
        self._requests: queue.SimpleQueue[Board | None] = queue.SimpleQueue()
        self._stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="plyground-2048-ai", daemon=True)
        self.thread.start()

    def ask(self, board: Board) -> None:
        """Search ``board``; its :class:`Answer` arrives on :attr:`answers`."""
        self._requests.put(board)

    def stop(self) -> None:
        """Ask the thread to end; answers not yet posted are dropped."""
        self._stopped.set()
        self._requests.put(None)

    def _run(self) -> None:
        while not self._stopped.is_set():
            board = self._requests.get()
            if board is None:
                return
            try:
                advice = self.tablebases.advise(board) if self.tablebases is not None else None
                decision = Decision(advice.move) if advice is not None else self.engine.choose(board)
            except Exception as exc:  # shown by the window, which turns AI mode off
                self.answers.put(Answer(board, None, f"the AI failed: {exc}"))
                return
            if not self._stopped.is_set():
                self.answers.put(Answer(board, decision, advice=advice))
