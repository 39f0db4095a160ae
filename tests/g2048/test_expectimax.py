"""The expectimax search against the naive expectimax, and its promises: no lost move, determinism, time."""

from __future__ import annotations

import _thread
import itertools
import subprocess
import sys
import threading
import time
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import InvalidInputError
from plyground.g2048 import DIRECTIONS, Board, Game
from plyground.g2048 import _search_kernels as S
from plyground.g2048.expectimax import (
    BANK_DEBT,
    BANK_MOVES,
    Decision,
    Expectimax,
    next_bank,
    policy_depth,
    root_groups,
    transposition_tables,
)
from plyground.g2048.heuristic import Heuristic, Weights, default_weights, lost_value
from plyground.g2048.sharing import PAIR_SHARING
from tests.g2048.strategies import grids
from tests.naive import expectimax_2048 as naive

WEIGHTS = default_weights()
NAIVE_WEIGHTS = {k: v for k, v in WEIGHTS.to_dict().items() if k != "game_over"}


def _searchers() -> dict[int, Expectimax]:
    return {depth: Expectimax(evaluator=Heuristic(), depth=depth, workers=2, cutoff=0.0) for depth in (1, 2, 3)}


SEARCHERS = _searchers()


@st.composite
def positions(draw: st.DrawFn, max_cells: int) -> list[list[int]]:
    """A live position of any size with few empty cells, so that the naive search stays quick."""
    grid = draw(grids())
    empties = [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == 0]
    for r, c in empties[max_cells:]:
        grid[r][c] = 2 << draw(st.integers(0, 6))
    return grid


@pytest.mark.kernel
@settings(max_examples=40)
@given(positions(max_cells=4), st.sampled_from([1, 2]))
def test_search_equals_naive_expectimax(grid: list[list[int]], depth: int) -> None:
    board = Board.from_rows(grid)
    decision = SEARCHERS[depth].choose(board)
    lost = lost_value(WEIGHTS, board.rows, board.cols)
    expected = naive.root_values(grid, depth, NAIVE_WEIGHTS, 0.1, lost)
    assert list(decision.values) == list(expected)
    for move, value in expected.items():
        assert decision.values[move] == pytest.approx(value, rel=1e-9, abs=1e-6), move
    if expected:
        assert decision.values[decision.move] == max(decision.values.values())
    else:
        assert decision.move is None and decision.depth == 0


@settings(max_examples=10)
@given(positions(max_cells=2).filter(lambda g: len(g) * len(g[0]) <= 9))
def test_search_equals_naive_expectimax_depth_3(grid: list[list[int]]) -> None:
    board = Board.from_rows(grid)
    decision = SEARCHERS[3].choose(board)
    expected = naive.root_values(grid, 3, NAIVE_WEIGHTS, 0.1, lost_value(WEIGHTS, board.rows, board.cols))
    assert decision.values == pytest.approx(expected, rel=1e-9, abs=1e-6)


@pytest.mark.kernel
def test_lost_board_is_never_chosen() -> None:
    # "up" brings the 8 to the top-left corner, which the weights love, but every spawn then ends the game.
    corner = Weights(0, 0, 0, 0, 0, ((1000, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)))
    board = Board.parse("0 2 4/8 8 2")
    assert Expectimax(depth=1, evaluator=Heuristic(corner), workers=1).choose(board).move == "up"
    for depth in (2, 3):
        decision = Expectimax(depth=depth, evaluator=Heuristic(corner), workers=1).choose(board)
        assert decision.move != "up"
        assert decision.values["up"] < min(v for m, v in decision.values.items() if m != "up")


@settings(max_examples=30)
@given(positions(max_cells=3))
def test_moves_into_certain_loss_value_below_live_moves(grid: list[list[int]]) -> None:
    board = Board.from_rows(grid)
    decision = SEARCHERS[2].choose(board)
    lost = lost_value(WEIGHTS, board.rows, board.cols)
    doomed = {m for m in decision.values if all(o.board.is_terminal() for o in board.move(m)[0].spawn_outcomes())}
    for move in doomed:
        assert decision.values[move] == pytest.approx(lost)
    for move in set(decision.values) - doomed:
        assert decision.values[move] > lost
    if doomed != set(decision.values):
        assert decision.move not in doomed


def _game_positions(n: int) -> list[Board]:
    game, boards = Game(seed=4), []
    for i in range(n * 10):
        legal = game.board.legal_moves()
        if not legal:
            break
        game.step(legal[i % len(legal)])
        if i % 10 == 0:
            boards.append(game.board)
    return boards


def test_decisions_are_deterministic_for_each_number_of_workers() -> None:
    boards = _game_positions(6)

    def run(workers: int, cells: int | None) -> list[Decision]:
        ai = Expectimax(evaluator=Heuristic(), depth=4, workers=workers, max_cells=cells, seed=5)
        return [ai.choose(b) for b in boards]

    runs = {(w, cells, repeat): run(w, cells) for repeat in (0, 1) for w in (1, 2, 4) for cells in (None, 3)}
    values = {key: [d.values for d in run] for key, run in runs.items()}
    for workers in (1, 2, 4):
        for cells in (None, 3):
            assert values[workers, cells, 0] == values[workers, cells, 1]  # the same settings, the same values
        assert values[workers, None, 0] != values[workers, 3, 0]  # sampling 3 cells is not the full search


def test_root_groups() -> None:
    up, right, down, left = range(4)
    four = Board(0x1000320145106789)  # every move legal, each leaving 5 empty cells
    assert root_groups(four, 1) == [(up, right, down, left)]
    assert root_groups(four, 2) == [(up, down), (right, left)]  # opposite moves share their boards
    assert root_groups(four, 4) == [(up,), (right,), (down,), (left,)]
    three = Board(0x0021013212348765)  # up leaves 4 empty cells, right 3, down 4
    assert root_groups(three, 2) == [(up,), (right, down)]  # 16 against 9 + 16: the most even split
    assert root_groups(three, 3) == [(up,), (right,), (down,)]
    vertical = Board.parse("2 4 2 4/0 0 0 0/0 0 0 0/4 2 4 2")
    assert root_groups(vertical, 2) == [(up,), (down,)]  # two jobs, even on one axis
    assert root_groups(Board.parse("2 4/4 2"), 2) == []


@given(grids())
def test_two_workers_split_the_moves_where_the_predicted_costs_are_most_even(grid: list[list[int]]) -> None:
    board = Board.from_rows(grid)
    legal = [DIRECTIONS.index(m) for m in board.legal_moves()]
    jobs = root_groups(board, 2)
    if len(legal) < 2:
        assert jobs == ([tuple(legal)] if legal else [])
        return
    assert len(jobs) == 2 and sorted(d for job in jobs for d in job) == legal
    assert all(list(job) == sorted(job) for job in jobs) and legal[0] in jobs[0]
    cost = {d: len(board.move(DIRECTIONS[d])[0].empty_cells()) ** 2 for d in legal}

    def job_cost(job: tuple[int, ...]) -> float:
        opposite = len(job) == 2 and abs(job[0] - job[1]) == 2
        return sum(cost[d] for d in job) - (PAIR_SHARING * min(cost[d] for d in job) if opposite else 0.0)

    splits = [
        (first, tuple(d for d in legal if d not in first))
        for size in range(1, len(legal))
        for first in itertools.combinations(legal, size)
        if legal[0] in first
    ]
    best = min(max(job_cost(job) for job in split) for split in splits)
    assert max(job_cost(job) for job in jobs) == best


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_the_moves_of_a_group_share_one_table(workers: int) -> None:
    """A decision's values are those of its groups' moves searched in turn, each group in a fresh table: the
    groups searched at once on several threads give what each gives searched alone on one."""
    board = Board(0x0001002301240567)  # four legal moves, boards that meet again a few moves on
    ai = Expectimax(evaluator=Heuristic(), depth=5, workers=workers, tt_bits=18)
    decision = ai.choose(board)
    search = ai.jobs_search(board, ai.evaluator)
    tts = np.zeros((1, 1 << 18), dtype=S.TT_DTYPE)
    tts["generation"] = -1
    counters, stop, found = np.zeros((1, 4), dtype=np.int64), np.zeros(1, dtype=np.uint8), np.zeros((1, 4))
    expected = {}
    for job in root_groups(board, workers):
        claim = np.zeros(1, dtype=np.int64)
        search(np.array([[*job, *[-1] * (4 - len(job))]], dtype=np.int64), 5, tts, counters, stop, found, claim)
        expected.update({DIRECTIONS[d]: found[0, k] for k, d in enumerate(job)})
    evaluations = counters[0, S.EVALUATIONS]  # the counts add up
    assert decision.values == expected
    assert decision.evaluations == evaluations


def test_one_table_for_every_move_saves_leaves() -> None:
    board = Board(0x0001002301240567)
    evaluations = {
        w: Expectimax(evaluator=Heuristic(), depth=5, workers=w, tt_bits=18).choose(board).evaluations
        for w in (1, 2, 4)
    }
    assert evaluations[1] < evaluations[2] < evaluations[4]


@pytest.mark.kernel
def test_sampling_seed_changes_the_sample() -> None:
    board = Board.parse("2 0 0 0/0 4 0 0/0 0 8 0/0 0 0 16")
    a = Expectimax(evaluator=Heuristic(), depth=3, workers=1, max_cells=2, seed=1).choose(board)
    b = Expectimax(evaluator=Heuristic(), depth=3, workers=1, max_cells=2, seed=2).choose(board)
    assert a.values != b.values
    assert Expectimax(evaluator=Heuristic(), depth=3, workers=1, max_cells=2, seed=1).choose(board).values == a.values


@pytest.mark.parametrize("time_ms", [5, 20, 60])
def test_time_budget_is_respected(time_ms: int) -> None:
    ai = Expectimax(evaluator=Heuristic(), time_ms=time_ms, workers=2)
    ai.choose(Board.parse("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0"))  # threads and tables ready
    boards = [Board(0x0021013212348765), Board(0x01200231456A789B), Board(0x0000000000001021), *_game_positions(4)]
    for board in boards:
        start = time.perf_counter()
        decision = ai.choose(board)
        elapsed = time.perf_counter() - start
        assert elapsed <= 2 * time_ms / 1000 + 0.05, (board, elapsed)
        assert decision.depth >= 1 and decision.move in board.legal_moves()
    ai.close()


@given(st.floats(-0.5, 4.0), st.floats(1.0, 1000.0), st.floats(0.0, 10.0))  # the bank and the time used, in budgets
def test_the_time_bank_keeps_the_mean_at_the_budget_within_its_bounds(bank: float, budget: float, used: float) -> None:
    after = next_bank(bank * budget, budget, used * budget)
    assert -BANK_DEBT * budget <= after <= BANK_MOVES * budget
    if -BANK_DEBT * budget <= bank * budget + budget - used * budget <= BANK_MOVES * budget:
        assert after == pytest.approx(bank * budget + budget - used * budget)  # what was left, or overrun, carries


def test_with_a_time_bank_moves_use_their_budget_on_average() -> None:
    boards = [Board(0x0021013212348765), Board(0x01200231456A789B), *_game_positions(12)]
    mean_ms = {}
    for bank in (False, True):
        with Expectimax(evaluator=Heuristic(), time_ms=20, workers=1, time_bank=bank) as ai:
            ai.choose(boards[0])  # tables ready
            ai.bank_ms = 0.0
            seconds = [ai.choose(board).seconds for board in boards * 3]
        mean_ms[bank] = 1000 * sum(seconds) / len(seconds)
        assert (ai.bank_ms != 0.0) == bank
    # Without it a move stops when its next depth would not finish (about 17 ms of 20 here); with it, what is
    # left goes to the next moves (about 19.8).
    assert abs(mean_ms[True] - 20) < abs(mean_ms[False] - 20) and abs(mean_ms[True] - 20) < 2, mean_ms
    with pytest.raises(InvalidInputError, match="time_bank needs a time budget"):
        Expectimax(depth=2, time_bank=True)


def test_a_first_search_spends_none_of_its_budget_on_what_it_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    # The transposition tables and the evaluator's tables or kernels are built before the clock starts: a
    # one-shot hint at 200 ms once spent it on them and searched one ply deep.
    ai = Expectimax(evaluator=Heuristic(), time_ms=100, workers=1)
    build_tables, prepare = ai._ensure_tables, ai.evaluator.prepare

    def slow_tables() -> object:
        if ai._tables is None:
            time.sleep(0.3)
        return build_tables()

    def slow_prepare(rows: int, cols: int) -> None:
        time.sleep(0.3)
        prepare(rows, cols)

    monkeypatch.setattr(ai, "_ensure_tables", slow_tables)
    monkeypatch.setattr(ai.evaluator, "prepare", slow_prepare)
    start = time.perf_counter()
    decision = ai.choose(Board(0x0021013212348765))
    assert time.perf_counter() - start >= 0.6  # both were built, by this first search
    assert decision.seconds < 0.3 and decision.depth >= 2


def test_a_network_loads_its_search_kernels_when_prepared() -> None:
    code = (
        "import sys; from plyground.g2048.ntuple.network import NTupleNetwork\n"
        "network = NTupleNetwork(2, 2, seed=1); kernels = 'plyground.g2048._ntuple_leaf_kernels'\n"
        "assert kernels not in sys.modules; network.prepare(2, 2); assert kernels in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_more_time_searches_deeper() -> None:
    board = Board(0x0021013212348765)
    quick = Expectimax(evaluator=Heuristic(), time_ms=2, workers=2).choose(board)
    slow = Expectimax(evaluator=Heuristic(), time_ms=200, workers=2).choose(board)
    assert slow.depth > quick.depth >= 1
    assert slow.nodes > quick.nodes > 0


def test_decision_fields() -> None:
    decision = Expectimax(evaluator=Heuristic(), depth=3, workers=2).choose(Board(0x0000001000201232))
    assert isinstance(decision, Decision)
    assert decision.depth == 3 and decision.nodes > decision.evaluations / 10 > 0 and decision.tt_hits > 0
    assert set(decision.values) == set(Board(0x0000001000201232).legal_moves())
    assert decision.move == max(decision.values, key=decision.values.__getitem__)
    assert decision.seconds > 0
    assert Expectimax(evaluator=Heuristic(), depth=2).choose(Board.parse("2 4/8 16")) == Decision(
        None, seconds=pytest.approx(0, abs=1)
    )


@pytest.mark.parametrize(("rows", "cols"), [(r, c) for r in range(2, 5) for c in range(2, 5)])
def test_every_board_size_plays_a_game(rows: int, cols: int) -> None:
    game = Game(rows, cols, seed=rows * 10 + cols)
    ai = Expectimax(evaluator=Heuristic(), depth=2, workers=1)
    while not game.over and game.move_count < 300:
        decision = ai.choose(game.board)
        assert decision.move in game.board.legal_moves()
        game.step(decision.move)
    assert game.move_count > 0


def test_policy_depth_grows_with_distinct_tiles() -> None:
    easy = Board.parse("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0")
    hard = Board.parse("2 4 8 16/32 64 128 256/512 1024 2048 4096/0 0 0 0")
    assert policy_depth(easy) < policy_depth(hard)
    assert policy_depth(Board.parse("2 4 8/16 32 64/128 256 512")) <= 6


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"time_ms": 0}, "time_ms"),
        ({"time_ms": float("inf")}, "time_ms"),
        ({"time_ms": float("nan")}, "time_ms"),
        ({"depth": 0}, "depth"),
        ({"depth": 99}, "depth"),
        ({"workers": 0}, "workers"),
        ({"cutoff": 2.0}, "cutoff"),
        ({"max_cells": 0}, "max_cells"),
        ({"tt_bits": 40}, "tt_bits"),
        ({"seed": -3}, "seed"),
        ({"p_four": 3}, "p_four"),
        ({"evaluator": "heuristic"}, "Evaluator object, got str"),
    ],
)
def test_bad_parameters(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        Expectimax(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="expected a Board"):
        Expectimax(evaluator=Heuristic(), depth=1).choose("2 2/0 0")  # type: ignore[arg-type]


def test_directions_order_breaks_ties() -> None:
    board = Board.parse("0 0/2 0")
    decision = Expectimax(evaluator=Heuristic(), depth=1, workers=1).choose(board)
    best = max(decision.values.values())
    assert decision.move == next(d for d in DIRECTIONS if decision.values.get(d) == best)


@pytest.mark.parametrize("settings", [{"depth": 9}, {"time_ms": 600_000}], ids=["fixed depth", "time budget"])
def test_ctrl_c_stops_a_long_search_at_once(settings: dict[str, int]) -> None:
    """A search that may be long runs on a helper thread, so that Ctrl-C stops it at once."""
    ai = Expectimax(evaluator=Heuristic(), workers=2, cutoff=0.0, **settings)  # no cut-off: a search of many minutes
    Expectimax(evaluator=Heuristic(), depth=1, workers=2).choose(
        Board(0x0021013212348765)
    )  # kernels loaded: only the stop is timed
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        ai.choose(Board(0x0021013212348765))
    ai.close()  # waits for the helper thread: its search must have stopped
    assert time.perf_counter() - start < 3.0


def test_searches_on_several_threads_at_once_give_what_each_gives_alone() -> None:
    """Parallel kernels started from several threads at once (a web server's requests, say) do not mix up."""
    boards = [Board(0x0021013212348765), Board(0x0001002301240567), Board(0x01200231456A789B)]
    alone = [Expectimax(evaluator=Heuristic(), depth=4, workers=2).choose(board).values for board in boards]
    together: dict[int, list[dict[str, float]]] = {}

    def play(index: int) -> None:
        ai = Expectimax(evaluator=Heuristic(), depth=4, workers=2)
        together[index] = [ai.choose(board).values for board in boards for _ in range(5)]

    threads = [threading.Thread(target=play, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(together[i] == [values for values in alone for _ in range(5)] for i in range(3))


def test_no_more_threads_than_root_moves() -> None:
    """A board has at most four root moves: more workers would only take memory (a table each)."""
    import threading

    before = threading.active_count()
    with Expectimax(evaluator=Heuristic(), depth=2, workers=1000) as ai:
        assert ai.workers == 4
        ai.choose(Board.parse("2 4 0 0/0 8 0 2/0 0 16 0/0 2 0 4"))
        assert threading.active_count() - before <= 4
    assert Expectimax(workers=2).workers == 2


def test_transposition_tables_are_fresh_tables_of_the_search() -> None:
    tables = transposition_tables(3, 10)
    assert tables.shape == (3, 1024) and tables.dtype == S.TT_DTYPE
    assert (tables["generation"] == -1).all() and not tables["key"].any() and not tables["depth"].any()
    board = Board.parse("2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2")
    heuristic = Heuristic()
    ai = Expectimax(depth=3, workers=1, tt_bits=10, evaluator=heuristic)
    heuristic.prepare(4, 4)
    legal = [DIRECTIONS.index(move) for move in board.legal_moves()]
    moves = np.full((1, 4), -1, dtype=np.int64)
    moves[0, : len(legal)] = legal
    found = np.zeros((1, 4), dtype=np.float64)
    search = ai.jobs_search(board, heuristic)
    search(moves, 3, tables[:1], np.zeros((1, 4), np.int64), np.zeros(1, np.uint8), found, np.zeros(1, np.int64))
    assert (tables["generation"][0] >= 0).any()
    assert {DIRECTIONS[d]: float(found[0, k]) for k, d in enumerate(legal)} == ai.choose(board).values


@pytest.mark.parametrize(
    ("jobs", "tt_bits", "message"),
    [
        (0, 10, "jobs must be an integer from 1 to 4, got 0"),
        (5, 10, "got 5"),
        (True, 10, "got True"),
        (1, 7, "tt_bits must be an integer from 8 to 24, got 7"),
        (1, 25, "got 25"),
        (1, 12.0, "got 12.0"),
    ],
)
def test_transposition_tables_refuse_bad_sizes(jobs: Any, tt_bits: Any, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        transposition_tables(jobs, tt_bits)
