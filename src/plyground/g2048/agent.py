"""The expectimax search as an agent of the core protocol, playing :class:`plyground.g2048.state.State`.

:class:`SearchAgent` chooses the action of the move its :class:`~plyground.g2048.expectimax.Expectimax`
finds (a direction's number, :data:`~plyground.g2048.board.DIRECTIONS`' order), takes its time
budget, and reports each search: the depth, nodes, evaluations and time as figures, and each
move's value under ``values`` (by action).

>>> from plyground.g2048.board import Board
>>> from plyground.g2048.heuristic import Heuristic
>>> from plyground.g2048.state import State
>>> with Expectimax(depth=2, workers=1, evaluator=Heuristic()) as search:
...     agent = SearchAgent(search)
...     action = agent.choose(State.from_board(Board.parse("2 2/0 4")))
>>> action, sorted(agent.report().figures)
(1, ['depth', 'evaluations', 'nodes', 'seconds', 'values'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plyground.core.agent import Agent, SearchReport
from plyground.errors import InvalidInputError
from plyground.g2048.board import DIRECTIONS
from plyground.g2048.expectimax import Decision, Expectimax
from plyground.g2048.state import State

if TYPE_CHECKING:
    from plyground.g2048.tablebase import Advice, Advisor

__all__ = ["TABLE_USES", "SearchAgent"]

TABLE_USES = ("play", "guard", "leaves")
"""How a :class:`SearchAgent` uses the endgame tables' advice (see there)."""


class SearchAgent(Agent[State]):
    """An agent that plays the moves of ``search`` (an :class:`~plyground.g2048.expectimax.Expectimax`).

    ``time_ms`` is the search's: changing it changes the search's budget. With ``tablebases``, a
    board that an endgame table advises on (:meth:`~plyground.g2048.tablebase.Advisor.advise`) is
    played as ``table_use`` says (:data:`TABLE_USES`):

    * ``"play"``: by the table's move, unsearched;
    * ``"guard"``: by the search's move, unless the table gives it a probability of building its
      tile lower than the table's best move's by more than ``margin``, when the table's move is
      played instead. A search's move that slides a frozen tile is left alone: the table knows
      nothing of it (measured: overruling those as if they could not succeed lost games);
    * ``"leaves"``: by the search's move, the search weighing the tables at its leaves: each leaf is
      worth the evaluator's value plus ``weight`` times a table's probability of building its
      target from it (:class:`~plyground.g2048.tablebase.TableLeaves`, set as the search's
      ``table_leaves``).

    With ``"play"`` or ``"guard"`` only advice whose best move has a probability of ``confidence`` or more is heeded.
    When the table's move is played, :attr:`advice` is that advice and :attr:`last` a decision of
    depth 0 with no values; else :attr:`advice` is None.
    """

    def __init__(
        self,
        search: Expectimax,
        tablebases: Advisor | None = None,
        *,
        table_use: str = "play",
        margin: float = 0.01,
        confidence: float = 0.0,
        weight: float | None = None,
    ) -> None:
        if table_use not in TABLE_USES:
            raise InvalidInputError(f"a table's use is one of {', '.join(TABLE_USES)}, got {table_use!r}")
        for name, value in (("margin", margin), ("confidence", confidence)):
            if not 0.0 <= value < 1.0:  # NaN fails too
                raise InvalidInputError(f"the {name} is a probability from 0 to below 1, got {value!r}")
        if weight is not None and table_use != "leaves":
            raise InvalidInputError(f"a weight is for table_use='leaves', not {table_use!r}")
        if table_use == "leaves" and tablebases is not None:
            from plyground.g2048.tablebase.leaves import DEFAULT_WEIGHT, TableLeaves

            search.table_leaves = TableLeaves(tablebases, DEFAULT_WEIGHT if weight is None else weight)
            tablebases = None  # the search asks them: the agent itself does not
        self.search = search
        self.tablebases = tablebases
        self.table_use, self.margin, self.confidence = table_use, margin, confidence
        suffix = f" + endgame tables ({table_use})" if tablebases or search.table_leaves else ""
        self.name = f"expectimax ({search.evaluator.label}){suffix}"
        self.last: Decision | None = None
        self.advice: Advice | None = None

    @property
    def time_ms(self) -> float | None:
        """The search's time budget per move in milliseconds (None: its fixed depth)."""
        return self.search.time_ms

    @time_ms.setter
    def time_ms(self, time_ms: float | None) -> None:
        self.search.time_ms = time_ms

    def choose(self, state: State) -> int:
        """The action of the move the search finds on ``state``'s board (the player to move), or the table's."""
        advice = self.tablebases.advise(state.board) if self.tablebases is not None else None
        if advice is not None and advice.probability < self.confidence:
            advice = None
        self.advice = None
        if advice is not None and self.table_use == "play":
            return self._play(advice)
        decision = self.search.choose(state.board)
        assert decision.move is not None  # the player has a move: the game is not over
        if advice is not None:  # a guard: the search's move stands unless the table sees it lose
            odds = advice.answer.moves.get(decision.move)  # None: it slides a frozen tile, which the table cannot judge
            if odds is not None and odds < advice.probability - self.margin:
                return self._play(advice)
        self.last = decision
        return DIRECTIONS.index(decision.move)

    def _play(self, advice: Advice) -> int:
        self.advice = advice
        self.last = Decision(advice.move)
        return DIRECTIONS.index(advice.move)

    def reset(self) -> None:
        """A new game: the search's tables are let go (the next search makes new ones)."""
        self.search.close()

    def prepare(self, state: State) -> None:
        """Build what searching boards of ``state``'s size needs, before a clock runs."""
        self.search.evaluator_for(state.board.rows, state.board.cols).prepare(state.board.rows, state.board.cols)

    def report(self) -> SearchReport:
        """The last search: its depth, nodes, evaluations and time, and each move's value by action."""
        last = self.last
        if last is None or last.move is None:
            return SearchReport()
        values = {DIRECTIONS.index(direction): value for direction, value in last.values.items()}
        figures = {"depth": last.depth, "nodes": last.nodes, "evaluations": last.evaluations, "seconds": last.seconds}
        return SearchReport(DIRECTIONS.index(last.move), figures={**figures, "values": values})
