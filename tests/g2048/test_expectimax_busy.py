"""Expectimax on a busy machine: a depth cut short keeps what it finished, shallow depths stay on the calling
thread, a search goes on without helpers, and ``Expectimax()`` plays with the evaluator the applications use."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from plyground.core.crew import CREW
from plyground.g2048 import DIRECTIONS, Board
from plyground.g2048.evaluator import Evaluator
from plyground.g2048.expectimax import Expectimax
from plyground.g2048.heuristic import Heuristic, default_weights
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.registry import NETWORK, load_evaluator
from plyground.g2048.sharing import (
    MIN_GROWTH,
    MIN_SPEEDUP,
    RATE_SECONDS,
    RETRY_EVERY,
    SHARED_DEPTH,
    SHARED_SECONDS,
    SHARED_SPEEDUP,
    Rates,
    shares_out,
)

BOARDS = [Board(0x1000320145106789), Board(0x0021013212348765), Board(0x0001002301240567), Board(0x01200231456A789B)]


class _OutOfTime(Expectimax):
    """A timed search with the heuristic whose depth ``cut`` runs out of time after the moves it keeps (by their
    place in the order searched), as a deadline does: their values stand, the others' are cut short."""

    def __init__(self, cut: int, keep: list[int], shift: float = 0.0) -> None:
        super().__init__(time_ms=60_000, workers=1, cutoff=0.0, evaluator=Heuristic())
        self.cut, self.keep, self.shift = cut, keep, shift
        self.orders: list[list[int]] = []

    def jobs_search(self, board: Board, evaluator: Evaluator, planned: Any = None) -> Any:
        search = super().jobs_search(board, evaluator, planned)

        def cut_short(moves: Any, depth: int, tts: Any, counters: Any, stop: Any, values: Any, claim: Any) -> None:
            search(moves, depth, tts, counters, stop, values, claim)
            if depth == self.cut:
                places = [(j, k) for j in range(moves.shape[0]) for k in range(moves.shape[1]) if moves[j, k] >= 0]
                self.orders.append([int(moves[j, k]) for j, k in places])
                for place, (j, k) in enumerate(places):
                    values[j, k] = values[j, k] + self.shift if place in self.keep else np.nan
                stop[0] = 1

        return cut_short


def _exact(board: Board, depth: int) -> dict[str, float]:
    """Every move's value at ``depth`` (no cut-off: the values do not depend on the order of the search)."""
    return Expectimax(depth=depth, workers=1, cutoff=0.0, evaluator=Heuristic()).choose(board).values


@pytest.mark.parametrize("board", BOARDS)
def test_a_depth_cut_short_keeps_the_best_moves_it_finished(board: Board) -> None:
    before, after = _exact(board, 2), _exact(board, 3)
    order = sorted(before, key=lambda m: (-before[m], DIRECTIONS.index(m)))  # the best first
    finished = order[:2]
    # Shifted up, the best finished move is worth the most of all: the finished moves keep their deeper values.
    shift = max(before.values()) - min(after[m] for m in finished) + 1.0
    ai = _OutOfTime(cut=3, keep=[0, 1], shift=shift)
    decision = ai.choose(board)
    assert [DIRECTIONS[d] for d in ai.orders[0]] == order
    assert decision.depth == 2
    assert decision.move_depths == {m: 3 if m in finished else 2 for m in before}
    assert decision.values == pytest.approx({m: after[m] + shift if m in finished else before[m] for m in before})
    assert decision.move == max(finished, key=lambda m: (after[m], -DIRECTIONS.index(m)))
    assert decision.move == max(decision.values, key=lambda m: (decision.values[m], -DIRECTIONS.index(m)))


@pytest.mark.parametrize(
    ("keep", "shift"),
    [([], 0.0), ([1, 2, 3], 0.0), ([0, 1], -1e6)],
    ids=["none finished", "all but the best", "the best finished worth less than another before"],
)
def test_a_depth_cut_short_that_says_no_more_leaves_the_depth_before(keep: list[int], shift: float) -> None:
    board = BOARDS[0]
    before = _exact(board, 2)
    decision = _OutOfTime(3, keep, shift).choose(board)
    assert decision.depth == 2 and set(decision.move_depths.values()) == {2}
    assert decision.values == pytest.approx(before)
    assert decision.move == max(before, key=lambda m: (before[m], -DIRECTIONS.index(m)))


def test_shallow_depths_run_on_the_calling_thread() -> None:
    left = 1.0  # a second left: every depth below can finish
    assert not shares_out(1, [], left)  # nothing measured yet: the first depth takes microseconds
    assert not shares_out(2, [1e-5], left)
    assert shares_out(4, [SHARED_SECONDS / MIN_GROWTH], left)
    assert not shares_out(4, [SHARED_SECONDS / (2 * MIN_GROWTH)], left)
    assert shares_out(4, [SHARED_SECONDS / 100, SHARED_SECONDS / 10], left)  # grew tenfold: so will the next
    assert [shares_out(depth, [], None) for depth in (1, SHARED_DEPTH - 1, SHARED_DEPTH, 8)] == [
        False,
        False,
        True,
        True,
    ]


def test_a_depth_that_cannot_finish_even_shared_runs_on_one_thread_best_move_first() -> None:
    predicted = 0.01  # the last depth took 2.5 ms, and grows at least fourfold
    assert shares_out(5, [predicted / MIN_GROWTH], predicted / SHARED_SPEEDUP)  # two threads finish it just in time
    assert not shares_out(5, [predicted / MIN_GROWTH], 0.99 * predicted / SHARED_SPEEDUP)


def test_a_search_shares_out_only_where_it_measured_that_it_pays() -> None:
    rates = Rates()
    assert rates.speedup == SHARED_SPEEDUP and rates.pays  # nothing measured: the prior
    rates.record(False, 1_000_000, 0.1)  # ten million nodes a second alone
    rates.record(True, 10, RATE_SECONDS / 2)  # too short a depth to tell
    assert rates.speedup == SHARED_SPEEDUP
    rates.record(True, 1_600_000, 0.1)  # sixteen million shared out: it pays
    assert rates.speedup == pytest.approx(1.6) and rates.pays
    for _ in range(30):  # the machine got busy: shared out, barely faster than alone
        rates.record(True, 1_050_000, 0.1)
    assert rates.speedup < MIN_SPEEDUP and not rates.pays
    assert [rates.retry() for _ in range(2 * RETRY_EVERY)] == ([False] * (RETRY_EVERY - 1) + [True]) * 2
    assert not shares_out(5, [0.002], 0.006, speedup=1.0) and shares_out(5, [0.002], 0.006, speedup=1.6)


@pytest.mark.parametrize("depth", range(1, SHARED_DEPTH))
def test_below_the_shared_depth_two_workers_search_as_one(depth: int) -> None:
    for board in BOARDS:
        one = Expectimax(depth=depth, workers=1, evaluator=Heuristic()).choose(board)
        two = Expectimax(depth=depth, workers=2, evaluator=Heuristic()).choose(board)
        assert (two.values, two.nodes) == (one.values, one.nodes)


def test_a_search_with_no_free_helper_gives_what_it_gives_with_one() -> None:
    expected = [Expectimax(depth=5, workers=2, evaluator=Heuristic()).choose(board).values for board in BOARDS]
    release, taken = threading.Event(), threading.Semaphore(0)
    size = max(CREW.size, 3)

    def occupy() -> None:
        taken.release()
        release.wait(timeout=60)

    blocker = threading.Thread(target=CREW.run, args=(occupy, size), kwargs={"join": False})
    blocker.start()
    try:
        for _ in range(size):
            assert taken.acquire(timeout=60)  # every helper of the crew is busy elsewhere
        assert CREW.size == size
        alone = [Expectimax(depth=5, workers=2, evaluator=Heuristic()).choose(board).values for board in BOARDS]
    finally:
        release.set()
        blocker.join(timeout=60)
    assert alone == expected


def test_by_default_the_network_plays_4x4_and_the_heuristic_the_other_boards() -> None:
    ai = Expectimax(depth=2, workers=1)
    network = ai.evaluator_for(4, 4)
    assert isinstance(network, NTupleNetwork) and network is load_evaluator(NETWORK, reuse=True)  # read once
    assert Expectimax().evaluator_for(4, 4) is network
    assert isinstance(ai.evaluator_for(3, 3), Heuristic)
    board = Board.parse("2 2 0 4/0 4 8 16/0 0 0 32/0 0 2 64")
    assert (
        ai.choose(board).values
        == Expectimax(depth=2, workers=1, evaluator=load_evaluator(NETWORK, reuse=True)).choose(board).values
    )
    assert ai.evaluator is network
    small = Board.parse("2 2 0/0 4 0/0 0 8")
    assert ai.choose(small).values == Expectimax(depth=2, workers=1, evaluator=Heuristic()).choose(small).values
    assert isinstance(ai.evaluator, Heuristic)  # the board searched last
    heuristic = Heuristic(default_weights())
    assert Expectimax(depth=2, workers=1, evaluator=heuristic).evaluator_for(4, 4) is heuristic  # on every board
