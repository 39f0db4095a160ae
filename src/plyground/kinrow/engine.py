"""plyground's k-in-a-row engine: threat-space solving, then principal-variation search over line patterns.

For each move, in this order (:attr:`Engine.last` says which step chose it):

1. ``forced`` - an immediate win, else the block of the opponent's five;
2. ``vcf`` - a win by continuous fours, if the threat solver finds one;
3. ``defence`` - when the *opponent* would have a VCF if it were to move, the moves that
   leave it one are set aside (unless every move does);
4. ``vct`` - a win by threes and fours, within a share of the time; if there is none, when
   the opponent would have a VCT, only the moves that stop it are searched (those the solver
   could check within a share of the time, or the ones it could not tell);
5. ``search`` - iterative deepening of a principal-variation alpha-beta search (see
   :mod:`plyground.kinrow._engine_kernels`) until the time is spent or the depth is reached.

The search keeps a transposition table from move to move; :meth:`Engine.set_memory`
bounds it. :meth:`Engine.stop` (from any thread) makes the search answer at once with
the best move of the deepest finished iteration.

>>> from plyground.kinrow import State
>>> engine = Engine(depth=4)
>>> state = State.parse("/".join(["." * 9] * 3 + ["..XXX....", "..OO.....", "....O...."] + ["." * 9] * 3), 5)
>>> state.name(engine.choose(state)), engine.last.kind  # X's open three becomes an open four: a VCF
('b4', 'vcf')
"""

from __future__ import annotations

import dataclasses
import functools
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import _engine_kernels as E
from plyground.kinrow import _threat_kernels as T
from plyground.kinrow._table_kernels import TABLE_DTYPE
from plyground.kinrow.board import State
from plyground.kinrow.budget import check_time_ms
from plyground.kinrow.evaluation import EVALUATIONS, EvaluationTables, FeatureWeights, evaluation_for
from plyground.kinrow.patterns import MAX_K, Pattern, PatternBoard
from plyground.kinrow.protocol import Player, SearchReport
from plyground.kinrow.root import RootThreats
from plyground.kinrow.rules import Rule

__all__ = ["DEFAULT_MEMORY", "PLAIN", "Engine", "EngineInfo", "EngineSettings"]

WIN_VALUE = E.WIN
"""A value of ``WIN_VALUE - p`` is a forced win in ``p`` plies (its negation a loss)."""
DECIDED = WIN_VALUE // 2
"""A value beyond this is a forced win, below its negation a loss."""
MAX_DEPTH = 60
DEFAULT_MEMORY = 64 << 20
"""Bytes of tables when no limit is set: a transposition table of 4 M entries of 16 bytes."""
MIN_MEMORY = 1 << 20
VCF_DEPTH = 17
"""Attacker moves a VCF may take, the five included."""
VCT_DEPTH = 7
DEFENCE_BUDGET = 20_000
"""Nodes of each VCT search that checks whether a move stops the opponent's VCT."""
VCT_SHARE = 0.15
"""Of the time per move, the share the VCT may take."""
WIDTH = 20
"""Moves searched at each node below the root (all of them at the root)."""
LEAF_VCF_DEPTH = 15
"""Attacker moves of the VCF tried at the search's leaves (at most: no more than the leaf's ply + 1)."""
MAX_VCF_DEPTH = 40
"""The most attacker moves a VCF at the leaves may take."""
MAX_QUIESCENCE = 40
"""The most plies of the threat quiescence at the leaves."""
LEAF_VCF_WIDTH = 3
"""Fours tried at each node of the quick VCF at the leaves, each on a line of the one before."""
THREAT_PLIES = 4
"""How far past its depth the search follows the defences against an open three."""
REDUCTIONS = {"none": E.NO_REDUCTION, "one": E.ONE_PLY, "log": E.LOGARITHMIC, "adjusted": E.ADJUSTED}
"""The late-move reductions of :attr:`EngineSettings.reduction`."""
PLAIN: Mapping[str, Any] = MappingProxyType({"prune": False, "futility": False, "reduction": "one", "distance": False})
"""The settings of a search without its selectivity, as it was before it had any (``--no-selective``)."""


_Tables = tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int8]]


@dataclass(frozen=True)
class EngineSettings:
    """How the engine searches (the defaults are the tuned ones).

    Attributes:
        width: moves searched at each node below the root (all of them at the root).
        vcf_depth: attacker moves a VCF may take at the root (the five included).
        vct_depth: attacker moves a VCT may take (the five included).
        vct_share: of the time per move, the share our VCT may take.
        defence_nodes: nodes of each VCT search that checks whether a move stops the
            opponent's VCT (0: no such check).
        leaf_vcf: attacker moves of the VCF tried at the search's leaves, the five included (0: none);
            at a leaf ``p`` plies deep, ``p + 1`` at most.
        leaf_width: the leaves' VCF is the quick one (:func:`plyground.kinrow.threats.find_vcf`
            with ``width``): the ``leaf_width`` most promising fours at each node, each on a line
            of the one before and making a three or another four; 0: the full VCF (every four).
        threat_plies: how far past its depth the search follows the defences against an open three.
        next_depth_share: no deeper iteration starts once this share of the time is spent (1: one
            starts whenever time is left, and the clock cuts it; an
            iteration cut by the clock still gives its best root move searched in full).
        defence_share: the share of the time after which no more moves are checked against
            the opponent's VCT (the unchecked ones are kept; those whose check ran out of nodes
            are kept when no move is shown to stop it). Our fours are checked first, then the
            cells of the opponent's threat line, then their neighbours. When the search finds
            that every kept move loses, it searches every move again.
        evaluation: ``fitted`` (gomoku's evaluation fitted to games, the hand-made one elsewhere),
            ``symmetric`` (the same fit averaged over the two sides to move) or ``hand`` (see
            :mod:`plyground.kinrow.evaluation`).
        root_vct: steps 3b and 4 at the root: our VCT, and the moves kept against the
            opponent's (off: the search alone judges threes; the VCFs of steps 2 and 3 stay).
        answers: when the opponent threatens a four-three or an open four, the search's moves are
            the exact answers to the threat and the player's fours (see
            :mod:`plyground.kinrow.defences`), not every cell that touches an open three (not
            under renju).
        quiescence: the search's leaves are a threat quiescence of up to this many plies (fours,
            and the exact answers to an open three; see :mod:`plyground.kinrow._leaf_kernels`)
            instead of the static value, the quick VCF and the threat plies; 0: none (not under renju).
        prune: move-count pruning: past the root's children, only the first few moves at each
            depth are searched (see :mod:`plyground.kinrow._engine_kernels`).
        futility: futility pruning and razoring near the leaves, with the evaluation's margin.
        reduction: the late-move reduction, ``log`` (``ln(depth) * ln(i + 1) / 1.7`` plies for the
            i-th move), ``adjusted`` (the same, a ply less for a move that makes or stops a three or
            a four, on a node where the opponent can make an open four, or for a move that cut off
            as deep before; a ply more for a quiet move that never cut off), ``one`` (a ply after
            the third quiet move) or ``none``.
        verify_wins: a win or loss the transposition table claims is searched again on the
            principal variation instead of being taken on trust.
        distance: order the moves away from the last four moves later.
    """

    width: int = WIDTH
    vcf_depth: int = VCF_DEPTH
    vct_depth: int = VCT_DEPTH
    vct_share: float = VCT_SHARE
    defence_nodes: int = DEFENCE_BUDGET
    leaf_vcf: int = LEAF_VCF_DEPTH
    leaf_width: int = LEAF_VCF_WIDTH
    threat_plies: int = THREAT_PLIES
    next_depth_share: float = 0.7
    defence_share: float = 0.3
    evaluation: str = "fitted"
    prune: bool = True
    futility: bool = True
    reduction: str = "log"
    distance: bool = True
    root_vct: bool = True
    answers: bool = False
    quiescence: int = 0
    verify_wins: bool = False


@dataclass(frozen=True)
class EngineInfo:
    """What the engine did for its last move.

    Attributes:
        move: the move chosen.
        kind: ``forced``, ``vcf``, ``vct`` or ``search`` (see the module).
        value: the value for the player who moved (``WIN_VALUE - p``: a win in p plies).
        depth: the deepest search finished (0 when no search ran).
        nodes: positions searched, threat solvers included.
        seconds: wall-clock time.
        pv: the principal variation (or the winning line), starting with ``move``.
    """

    move: int
    kind: str
    value: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[int, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """How the move was found, its value, depth, nodes and time; ``win_in`` (``loss_in``): the plies
        to a forced win (loss) of the engine, when its value says so (else None)."""
        value = self.value
        return {
            "kind": self.kind,
            "depth": self.depth,
            "value": value,
            "win_in": WIN_VALUE - value if value > DECIDED else None,
            "loss_in": WIN_VALUE + value if value < -DECIDED else None,
            "nodes": self.nodes,
            "seconds": self.seconds,
        }


@functools.cache
def _warm_up() -> None:
    """Build the tables of gomoku on 15×15 under every rule once per process (about 0.2 s).

    An engine is made before its first move (a brain makes it on ``START``), so that no
    move's clock is spent building them, not even the first after the manager changes the
    rule (``INFO rule`` usually comes after ``START``, just before the first move).
    """
    for rule in Rule:
        PatternBoard(State(15, 5, rule=rule))
        for kind in EVALUATIONS:
            evaluation_for(5, rule, kind, None)  # as the search asks for it (a cache keyed by the arguments given)


def _check_depth(depth: object) -> int | None:
    if depth is None:
        return None
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise InvalidInputError(f"depth must be an integer from 1 to {MAX_DEPTH}, got {depth!r}")
    return depth


class Engine(Player):
    """The k-in-a-row engine (k from 3 to 5, any rule): threat solver and PVS alpha-beta over line patterns.

    Args:
        time_ms: milliseconds per move (finite, up to an hour), or None.
        depth: the deepest search in plies (None: as deep as the time allows).
        memory: bytes the tables may use (default :data:`DEFAULT_MEMORY`).
        width: moves searched at each node below the root.
        settings: how it searches (default :class:`EngineSettings`).
        weights: the weights of its fitted (or symmetric) evaluation of gomoku, instead of the
            shipped :data:`~plyground.kinrow.evaluation.FITTED` (tuning plays with others).

    Raises:
        InvalidInputError: a parameter out of range, neither a time nor a depth, or weights of
            other features.
    """

    name = "engine"

    def __init__(
        self,
        *,
        time_ms: float | None = None,
        depth: int | None = None,
        memory: int = DEFAULT_MEMORY,
        width: int | None = None,
        settings: EngineSettings | None = None,
        weights: FeatureWeights | None = None,
    ) -> None:
        self._time_ms = check_time_ms(time_ms)
        self._depth = _check_depth(depth)
        if self._time_ms is None and self._depth is None:
            raise InvalidInputError("the engine needs a time per move, a depth or both")
        settings = settings or EngineSettings()
        if width is not None:
            settings = dataclasses.replace(settings, width=width)
        if isinstance(settings.width, bool) or not isinstance(settings.width, int) or not 1 <= settings.width <= 400:
            raise InvalidInputError(f"width must be an integer from 1 to 400, got {settings.width!r}")
        for name, top in (("leaf_vcf", MAX_VCF_DEPTH), ("leaf_width", T.QUICK_WIDTH), ("quiescence", MAX_QUIESCENCE)):
            value = getattr(settings, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
                raise InvalidInputError(f"{name} must be an integer from 0 to {top}, got {value!r}")
        share = settings.next_depth_share
        if isinstance(share, bool) or not isinstance(share, int | float) or not 0 < share <= 1:
            raise InvalidInputError(f"next_depth_share must be a number above 0 and at most 1, got {share!r}")
        if settings.reduction not in REDUCTIONS:
            raise InvalidInputError(
                f"unknown reduction {settings.reduction!r}; the reductions are {', '.join(REDUCTIONS)}"
            )
        for flag in ("prune", "futility", "distance", "root_vct", "answers", "verify_wins"):
            if not isinstance(getattr(settings, flag), bool):
                raise InvalidInputError(f"{flag} must be true or false, got {getattr(settings, flag)!r}")
        if settings.evaluation not in EVALUATIONS:
            raise InvalidInputError(
                f"unknown evaluation {settings.evaluation!r}; the evaluations are {', '.join(EVALUATIONS)}"
            )
        if weights is not None:
            evaluation_for(5, Rule.FREESTYLE, settings.evaluation, weights)  # weights of other features fail here
        self.settings = settings
        self.weights = weights
        self.last: EngineInfo | None = None
        self._memory = DEFAULT_MEMORY
        self.set_memory(memory)
        self._tables: tuple[npt.NDArray[np.void], npt.NDArray[np.void]] | None = None  # the search's, the threats'
        self._generation = 0
        self._prepared: tuple[int, int, Rule, frozenset[int]] | None = None
        self._stopping = False
        self._running: npt.NDArray[np.uint8] | None = None
        _warm_up()

    # -- settings ------------------------------------------------------------

    @property
    def time_ms(self) -> float | None:
        """Milliseconds per move, or None (search to :attr:`depth`)."""
        return self._time_ms

    @time_ms.setter
    def time_ms(self, time_ms: float | None) -> None:
        time_ms = check_time_ms(time_ms)
        if time_ms is None and self._depth is None:
            raise InvalidInputError("an engine without a depth needs a time per move")
        self._time_ms = time_ms

    @property
    def depth(self) -> int | None:
        return self._depth

    def set_memory(self, memory: int) -> None:
        """Bound the tables to ``memory`` bytes (0: the default); they shrink or grow on the next move.

        Raises:
            InvalidInputError: not a whole number, negative, or under a megabyte.
        """
        if isinstance(memory, bool) or not isinstance(memory, int) or memory < 0:
            raise InvalidInputError(f"memory must be a whole number of bytes, got {memory!r}")
        if memory == 0:
            memory = DEFAULT_MEMORY
        if memory < MIN_MEMORY:
            raise InvalidInputError(f"the engine needs at least {MIN_MEMORY} bytes of tables, got {memory}")
        self._memory = memory
        self._tables = None

    @property
    def memory(self) -> int:
        """The bytes the tables may use."""
        return self._memory

    def report(self) -> SearchReport:
        """The last move's figures (:meth:`EngineInfo.to_json`) and its line (the principal variation)."""
        last = self.last
        if last is None:
            return SearchReport()
        return SearchReport(last.move, forced=last.kind == "forced", figures=last.to_json(), line=last.pv)

    def reset(self) -> None:
        """Forget the previous game (the tables are cleared)."""
        self._tables = None

    def stop(self) -> None:
        """Make the search in progress (or the next one) answer at once; safe from any thread."""
        self._stopping = True
        running = self._running
        if running is not None:
            running[0] = 1

    def prepare(self, state: State) -> None:
        """Get ready to play on ``state``'s board and rule: build the tables and run every kernel once.

        The first move would otherwise pay for this (a few tenths of a second); a driver with a
        clock (the Gomocup brain, the web lab) calls it when a game starts, outside the time of
        any move. Calling it again for the same board and rule does nothing.

        Raises:
            InvalidInputError: not a State, or k over 5.
        """
        if not isinstance(state, State):
            raise InvalidInputError(f"expected a k-in-a-row State, got {type(state).__name__}")
        if state.k > MAX_K:
            raise InvalidInputError(f"the engine plays lines of 3 to {MAX_K} stones, got k = {state.k}")
        board = (state.n, state.k, state.rule, state.blocked)
        if board == self._prepared:
            return
        trial = State(state.n, state.k, rule=state.rule, blocked=state.blocked)
        free = trial.legal_moves()
        if free:
            trial.play(free[len(free) // 2])
        if not trial.is_over:
            Engine(depth=2, memory=MIN_MEMORY, settings=self.settings).choose(trial)
        self._prepared = board

    # -- choosing ------------------------------------------------------------

    def _allocate(self) -> tuple[npt.NDArray[np.void], npt.NDArray[np.void]]:
        if self._tables is None:
            entry = TABLE_DTYPE.itemsize
            threat_entries = 1 << max(10, min(20, (self._memory // 8 // entry).bit_length() - 1))
            entries = 1 << max(10, ((self._memory - threat_entries * entry) // entry).bit_length() - 1)
            self._tables = (np.zeros(entries, dtype=TABLE_DTYPE), np.zeros(threat_entries, dtype=TABLE_DTYPE))
        return self._tables

    def choose(self, state: State) -> int:
        """The move to play in ``state`` (see the module for the steps); :attr:`last` says how it was found.

        Raises:
            InvalidInputError: not a State, or k over 5.
            IllegalMoveError: the game is over.
        """
        try:
            return self._choose(state)
        finally:
            self._stopping = False

    def _choose(self, state: State) -> int:
        if not isinstance(state, State):
            raise InvalidInputError(f"expected a k-in-a-row State, got {type(state).__name__}")
        if state.is_over:
            raise IllegalMoveError("the game is over: there is no move to choose")
        if state.k > MAX_K:
            raise InvalidInputError(f"the engine plays lines of 3 to {MAX_K} stones, got k = {state.k}")
        start = time.perf_counter()
        deadline = None if self._time_ms is None else start + self._time_ms / 1000
        forced = state.forced_move()
        if forced is not None:
            self.last = EngineInfo(forced, "forced", 0, 0, 0, time.perf_counter() - start, (forced,))
            return forced
        evaluation = evaluation_for(state.k, state.rule, self.settings.evaluation, self.weights)
        board = PatternBoard(state, evaluation.weights)
        me = state.to_move
        you = 3 - me
        tt, ft = self._allocate()
        stop = np.zeros(1, dtype=np.uint8)
        self._running = stop
        if self._stopping:
            stop[0] = 1
        timer: threading.Timer | None = None
        if deadline is not None:
            timer = threading.Timer(max(0.0, deadline - time.perf_counter()), stop.fill, args=(1,))
            timer.daemon = True
            timer.start()
        try:
            return self._think(state, board, evaluation, me, you, tt, ft, stop, start, deadline)
        finally:
            self._running = None
            if timer is not None:
                timer.cancel()

    @staticmethod
    def _defences(board: PatternBoard, me: int, you: int, threat: list[int]) -> list[int]:
        """Cells that may stop the opponent's threat line, in the order they are checked: our fours
        (counter-attacks), the line's cells in its order, then their neighbours."""
        n = board.n
        codes = board.pat[me - 1].reshape(-1, 4)
        fours = np.flatnonzero(((codes == Pattern.B4) | (codes == Pattern.F4)).any(axis=1) & (board.cells == 0))
        near = []
        for move in threat:
            r, c = divmod(move, n)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        near.append((r + dr) * n + c + dc)
        ordered = [*fours.tolist(), *threat, *near]
        return [cell for cell in dict.fromkeys(ordered) if board.cells[cell] == 0]

    def _think(
        self,
        state: State,
        board: PatternBoard,
        evaluation: EvaluationTables,
        me: int,
        you: int,
        tt: npt.NDArray[np.void],
        ft: npt.NDArray[np.void],
        stop: npt.NDArray[np.uint8],
        start: float,
        deadline: float | None,
    ) -> int:
        settings = self.settings
        renju = board.rule is Rule.RENJU
        longest = max(settings.vcf_depth, settings.vct_depth, settings.leaf_vcf)
        root = RootThreats(board, ft, stop, E.MAX_PLY + 2 * longest + 8)

        def finish(move: int, kind: str, value: int, depth: int, pv: tuple[int, ...]) -> int:
            self.last = EngineInfo(move, kind, value, depth, root.nodes, time.perf_counter() - start, pv)
            return move

        attack = not (renju and me == 1)  # the threat solver does not know forbidden moves: not for black in renju
        defend = not (renju and you == 1)
        # 2. our VCF
        pv = root.vcf(me, settings.vcf_depth) if attack else None
        if pv:
            return finish(pv[0], "vcf", WIN_VALUE - len(pv), 0, pv)
        # 3. the opponent's VCF: set aside the moves that leave it one
        ban = root.vcf_ban(me, you, settings.vcf_depth) if defend else np.zeros(state.n * state.n, dtype=np.uint8)
        # 3b. our VCT, within a share of the time (a win comes before any defence)
        if attack and settings.root_vct and not stop[0]:
            share = settings.vct_share
            budget = 200_000 if deadline is None else int(max(1_000, 2_000_000 * share * (deadline - start)))
            pv = root.vct(me, settings.vct_depth, budget)
            if pv:
                return finish(pv[0], "vct", WIN_VALUE - 2 * len(pv), 0, pv)
        # 4. the opponent's VCT: keep the moves that stop it, if any does
        defending = False
        if settings.root_vct and settings.defence_nodes > 0 and not ban.any() and defend and not stop[0]:
            give_up = None if deadline is None else start + settings.defence_share * (deadline - start)
            keep = root.vct_defence(
                me, you, settings.vct_depth, settings.defence_nodes,
                lambda threat: self._defences(board, me, you, threat), give_up,
            )  # fmt: skip
            if keep is not None:
                ban[(board.cells == 0)] = 1
                ban[keep] = 0
                defending = True
        # 5. the search
        best, value, finished = self._search(state, evaluation, me, tt, root, ban, defending, start, deadline)
        if not (0 <= best < state.n * state.n and board.cells[best] == 0):
            raise AssertionError(f"the engine chose {best}, not an empty cell of {state.to_text()}")
        pv_buffer = np.zeros(E.MAX_PLY, dtype=np.int32)
        length = int(E._principal_variation(root.arrays, tt, me, pv_buffer))
        pv = tuple(int(m) for m in pv_buffer[:length])
        if not pv or pv[0] != best:
            pv = (best,)
        return finish(best, "search", value, finished, pv)

    def _params(self, n: int, evaluation: EvaluationTables, renju: bool) -> npt.NDArray[np.int64]:
        """The search's settings, as its kernel reads them (``params``, by the names of its indices)."""
        settings = self.settings
        params = np.zeros(E.PARAMS, dtype=np.int64)
        for index, value in (
            (E.WIDTH, settings.width), (E.GENERATION, self._generation), (E.LEAF_VCF, settings.leaf_vcf),
            (E.THREAT_PLIES, settings.threat_plies), (E.REDUCE, REDUCTIONS[settings.reduction]), (E.SAME_DEPTH, 0),
            (E.RENJU, int(renju)), (E.BOARD_N, n), (E.TEMPO_X, evaluation.tempo_x),
            (E.TEMPO_O, evaluation.tempo_o), (E.HOT_BONUS, evaluation.hot), (E.PRUNE, int(settings.prune)),
            (E.FUTILITY, evaluation.margin if settings.futility else 0), (E.DISTANCE, int(settings.distance)),
            (E.LEAF_WIDTH, settings.leaf_width), (E.ANSWERS, int(settings.answers and not renju)),
            (E.QUIESCENCE, 0 if renju else settings.quiescence), (E.VERIFY, int(settings.verify_wins)),
        ):  # fmt: skip
            params[index] = value
        return params

    def _search(
        self,
        state: State,
        evaluation: EvaluationTables,
        me: int,
        tt: npt.NDArray[np.void],
        root: RootThreats,
        ban: npt.NDArray[np.uint8],
        defending: bool,
        start: float,
        deadline: float | None,
    ) -> tuple[int, int, int]:
        """Step 5, iterative deepening: the best move, its value and the depth finished (nodes go to ``root``)."""
        settings = self.settings
        board = root.board
        size = state.n * state.n
        self._generation += 1
        killers = np.full((E.MAX_PLY, 2), -1, dtype=np.int32)
        history = np.zeros(size, dtype=np.int32)
        path = np.full(E.PATH + E.MAX_PLY, -1, dtype=np.int32)
        recent = state.history[-E.PATH :]
        path[E.PATH - len(recent) : E.PATH] = recent
        moves = np.zeros((E.MAX_PLY, size), dtype=np.int32)
        scores = np.zeros((E.MAX_PLY, size), dtype=np.int32)
        stats = np.zeros(4, dtype=np.int64)
        params = self._params(state.n, evaluation, board.rule is Rule.RENJU)
        vstats = np.zeros(2, dtype=np.int64)
        never = np.zeros(1, dtype=np.uint8)
        scratch = np.zeros(size, dtype=np.int32)
        arrays = E.SearchArrays(tt, killers, history, moves, scores, ban, never, stats, params, root.table, root.line,
                                vstats, path, scratch)  # fmt: skip
        best, value, finished = -1, 0, 0
        max_depth = min(self._depth or MAX_DEPTH, int(np.count_nonzero(board.cells == 0)))
        depth = 0
        while depth < max_depth:
            depth += 1
            flag = never if depth == 1 else root.stop
            stats[:] = 0
            stats[E.BEST] = -1
            search = arrays._replace(stop=flag)
            result = int(E._negamax(root.arrays, search, me, depth, 0, -E.INFINITY, E.INFINITY))
            root.nodes += int(stats[E.NODES])
            if flag[0]:
                if int(stats[E.BEST]) >= 0:  # the best root move searched in full before the stop
                    best = int(stats[E.BEST])
                break
            best, value, finished = int(stats[E.BEST]), result, depth
            if result <= -E.WON and defending:
                # Every move kept against the opponent's VCT loses: the checks (a node budget, a
                # VCT that may miss our counter-attacks) were not proof. Search every move again.
                ban[:] = 0
                defending = False
                depth = 0
                continue
            if abs(result) >= E.WON:
                break
            if deadline is not None and time.perf_counter() - start > settings.next_depth_share * (deadline - start):
                break  # the next depth would not finish
        return best, value, finished
