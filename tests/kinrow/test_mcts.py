"""MCTS: tactics, determinism, sharing between symmetric positions, agreement with the numpy twin."""

from __future__ import annotations

import math
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import State, X
from plyground.kinrow import _mcts_kernels as M
from plyground.kinrow import _mcts_pattern_kernels as PM
from plyground.kinrow.alphabeta import AlphaBeta
from plyground.kinrow.mcts import MCTS, _Tree
from plyground.kinrow.memo import memoize, memoize_canonical
from plyground.kinrow.patterns import PatternBoard
from plyground.kinrow.rules import Rule
from tests.naive import mcts_patterns as naive_patterns
from tests.naive.mcts_kinrow import NaiveMCTS


@pytest.mark.kernel
@pytest.mark.parametrize(
    ("text", "k", "expected"),
    [
        ("XX./OO./...", 3, {2}),  # X wins at once
        ("X../OO./X..", 3, {5}),  # X blocks O's row
        ("XXX./OO../O.../....", 4, {3}),  # k = 4: the fourth X
        (".XXX.../......./OOO..../......./......./......./.......", 4, {0, 4}),  # either end wins
    ],
)
def test_takes_the_win_or_blocks_the_loss(text: str, k: int, expected: set[int]) -> None:
    state = State.parse(text, k)
    for symmetry in (True, False):
        assert MCTS(iterations=50, seed=3, symmetry=symmetry).choose(state) in expected


def test_makes_a_double_threat_and_defends_against_one() -> None:
    # X to move: blocking O's diagonal on 6 also threatens 3 and 7 at once, a won game.
    state = State.parse("X.O/.O./..X", 3)
    stats = MCTS(iterations=3000, seed=1).search(state)
    assert max(stats.visits, key=stats.visits.get) == 6 and stats.win_rates[6] > 0.9  # type: ignore[arg-type]
    # O to move against X in opposite corners: a corner lets X fork; only an edge holds the draw.
    state = State.parse("X../.O./..X", 3)
    stats = MCTS(iterations=5000, seed=1).search(state)
    assert max(stats.visits, key=stats.visits.get) in {1, 3, 5, 7}  # type: ignore[arg-type]


def test_tic_tac_toe_root_values_are_draws_with_enough_iterations() -> None:
    stats = MCTS(iterations=20000, seed=5).search(State(3, 3))
    best = max(stats.visits, key=stats.visits.get)  # type: ignore[arg-type]
    assert best == 4  # the centre
    assert 0.4 < stats.win_rates[best] < 0.7  # a draw scores 0.5


def test_same_seed_same_search_and_the_seed_matters() -> None:
    state = State.from_moves(7, 4, [24, 25])
    a = MCTS(iterations=2000, seed=11).search(state)
    b = MCTS(iterations=2000, seed=11).search(state)
    c = MCTS(iterations=2000, seed=12).search(state)
    assert a.visits == b.visits and a.win_rates == b.win_rates
    assert a.win_rates != c.win_rates


@pytest.mark.kernel
def test_symmetric_moves_share_statistics() -> None:
    stats = MCTS(iterations=3000, seed=2).search(State(4, 3))
    corners = {stats.visits[m] for m in (0, 3, 12, 15)}
    centre = {stats.visits[m] for m in (5, 6, 9, 10)}
    assert len(corners) == 1 and len(centre) == 1  # one table entry each
    assert len({(stats.visits[m], stats.win_rates[m]) for m in range(16)}) == 3  # corners, edges, centre
    plain = MCTS(iterations=3000, seed=2, symmetry=False).search(State(4, 3))
    assert len({(plain.visits[m], plain.win_rates[m]) for m in range(16)}) > 3
    assert stats.table_entries < plain.table_entries


def test_time_budget_is_kept_and_iterations_grow_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """By the search's clock (here one that moves 20 ms, a batch's aim, at each reading, whatever the machine's
    speed), a timed search stops at the first reading at or past its budget; a longer budget runs more iterations."""
    from plyground.kinrow import mcts as mcts_module
    from tests.kinrow.clocks import TickingClock

    clock = TickingClock(0.02)
    monkeypatch.setattr(mcts_module, "time", clock)
    state = State(9, 5)
    short = MCTS(time_ms=50, seed=1).search(state)
    long = MCTS(time_ms=300, seed=1).search(state)
    for stats, budget in ((short, 0.05), (long, 0.3)):
        assert budget <= stats.seconds <= budget + 3 * clock.tick  # the readings around the last batch
    assert long.iterations > 2 * short.iterations


def test_time_ms_may_change_between_moves_and_is_checked() -> None:
    player = MCTS(time_ms=100)
    player.time_ms = 20
    assert player.time_ms == 20
    player.time_ms = None
    assert player.time_ms is None
    for bad in (0, -1, float("nan"), float("inf"), 3_600_001, "100", True):
        with pytest.raises(InvalidInputError, match=r"^time_ms must be a positive number of milliseconds[^\n]+$"):
            MCTS(time_ms=bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidInputError, match="time_ms"):
            player.time_ms = bad  # type: ignore[assignment]
    with pytest.raises(TypeError):
        MCTS(time_budget=0.1)  # type: ignore[call-arg]  # the old spelling in seconds is gone


def test_big_boards_and_long_searches_grow_the_arrays() -> None:
    stats = MCTS(iterations=20000, seed=4).search(State(15, 5))
    assert stats.iterations == 20000 and stats.nodes > 4096 * 4
    assert sum(stats.visits.values()) >= 20000 - 1


def test_agrees_with_the_numpy_twin() -> None:
    # Different random streams, the same algorithm: the same moves, and close values where both looked hard.
    for text, symmetry in (("X.O/.X./...", True), ("XO./.../...", False), ("X../.O./..X", True)):
        state = State.parse(text, 3)
        stats = MCTS(iterations=4000, seed=1, symmetry=symmetry).search(state)
        board = state.cells.reshape(3, 3).astype(np.int8)
        twin = NaiveMCTS(symmetry=symmetry, seed=1)
        visits = twin.search(board, 3, state.to_move, 4000)
        assert set(visits) == set(stats.visits)
        compared = 0
        for move, count in visits.items():
            if count >= 300 and stats.visits[move] >= 300:
                after = board.copy()
                after[divmod(move, 3)] = state.to_move
                rate = twin.wins[twin.key(after)] / twin.visits[twin.key(after)]
                assert abs(rate - stats.win_rates[move]) < 0.08, (text, move)
                compared += 1
        assert compared >= 1


def test_bad_arguments_and_finished_games_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="iterations"):
        MCTS(iterations=0)
    with pytest.raises(InvalidInputError, match="c must"):
        MCTS(c=-0.5)
    finished = State.parse("XXX/OO./...", 3)
    assert finished.result == X
    with pytest.raises(IllegalMoveError, match="over"):
        MCTS(iterations=10).choose(finished)


def test_memoize_by_position_and_by_class() -> None:
    calls: list[str] = []

    @memoize
    def plain(state: State) -> int:
        calls.append("plain")
        return len(state.history)

    @memoize_canonical
    def by_class(state: State) -> int:
        calls.append("class")
        return len(state.history)

    images = [State.from_moves(5, 4, [m, 12]) for m in (0, 4, 20, 24)]  # a corner and the centre, 4 ways
    assert [by_class(s) for s in images] == [2, 2, 2, 2] and calls.count("class") == 1
    assert [plain(s) for s in images] == [2, 2, 2, 2] and calls.count("plain") == 4
    assert by_class.cache_size() == 1 and plain.cache_size() == 4


def iterate(tree: _Tree, iterations: int, stop: np.ndarray) -> int:
    """One call of the search kernel on the arrays of ``tree`` (the plain policy)."""
    return int(
        M._iterate_plain(
            (tree.cells,), (tree.n, tree.state.k, 0), tree.hashes, tree.n, tree.state.to_move, iterations,
            tree.perm, tree.zob, math.sqrt(2), tree.symmetry, tree.node_move.shape[0], tree.arrays(),
            np.array([7], dtype=np.uint64), stop,
        )
    )  # fmt: skip


@pytest.mark.kernel
def test_the_kernel_stops_after_the_iteration_that_sees_the_stop_flag() -> None:
    tree = _Tree(State(7, 4), True)
    tree.make_room()
    assert iterate(tree, 50, np.ones(1, dtype=np.uint8)) == 1  # set before: one iteration, no more
    assert iterate(tree, 50, np.zeros(1, dtype=np.uint8)) == 50


def stop_later(player: MCTS | AlphaBeta, seconds: float) -> list[float]:
    """Call ``player.stop()`` from another thread after ``seconds``; the list gets the time it was called."""
    called: list[float] = []

    def stop() -> None:
        called.append(time.perf_counter())
        player.stop()

    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    return called


def test_stop_from_another_thread_ends_a_long_search_at_once() -> None:
    state = State.from_moves(15, 5, [112, 113])
    player = MCTS(iterations=10**9, seed=1)  # hours of work
    called = stop_later(player, 0.2)
    move = player.choose(state)
    returned = time.perf_counter()
    assert called and returned - called[0] < 30  # a few milliseconds; the search alone would run for hours
    assert move in state.legal_moves()
    assert player.last is not None and 1 <= player.last.iterations < 10**9
    player.iterations = 300  # the request was used up: the next search runs in full
    player.choose(state)
    assert player.last is not None and player.last.iterations == 300


def test_stop_before_a_search_ends_that_search_after_one_iteration() -> None:
    state = State.from_moves(9, 5, [40, 41])
    player = MCTS(iterations=10**9, seed=1)
    player.stop()
    assert player.choose(state) in state.legal_moves()
    assert player.last is not None and player.last.iterations == 1  # of its 10**9
    player.stop()  # the request is used up by a forced move too
    assert player.choose(State.parse("XX./OO./...", 3)) == 2
    player.iterations = 100
    assert player.search(state).iterations == 100


def test_rules_blocked_cells_and_renju() -> None:
    text = "XX.XX/OOO../...../...../....O"  # c1 gives X five: a win in free-style only; O threatens d2
    assert MCTS(iterations=200, seed=1).choose(State.parse(text, 4)) == 2
    standard = State.parse(text, 4, rule="standard")
    stats = MCTS(iterations=2000, seed=1).search(standard)
    assert stats.win_rates[2] < 0.5 and max(stats.visits, key=stats.visits.get) == 8  # type: ignore[arg-type]
    blocked = State.parse("XX#X./OOO../...../...../.....", 4)
    stats = MCTS(iterations=2000, seed=1).search(blocked)
    assert 2 not in stats.visits and max(stats.visits, key=stats.visits.get) == 8  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="mcts plays free-style and standard; use the engine player"):
        MCTS(iterations=10).choose(State(15, 5, rule="renju"))


@pytest.mark.kernel
def test_only_the_symmetries_of_the_blocked_cells_share_statistics() -> None:
    state = State(4, 3, blocked=[0])  # a1 blocked: only the transpose (the a1-d4 diagonal) keeps it in place
    stats = MCTS(iterations=3000, seed=2).search(state)
    assert 0 not in stats.visits and len(stats.visits) == 15
    for a, b in ((1, 4), (3, 12), (2, 8), (7, 13)):  # each cell and its transpose: one entry
        assert (stats.visits[a], stats.win_rates[a]) == (stats.visits[b], stats.win_rates[b])
    assert (stats.visits[3], stats.win_rates[3]) != (stats.visits[15], stats.win_rates[15])  # not images here
    assert len({(stats.visits[m], stats.win_rates[m]) for m in stats.visits}) > 3


@st.composite
def positions(draw: st.DrawFn, max_n: int = 9, max_stones: int = 30) -> State:
    """A game in progress on a small board: free-style or standard, k from 3 to 5, maybe blocked cells."""
    n = draw(st.integers(5, max_n))
    k = draw(st.integers(3, 5))
    rule = draw(st.sampled_from([Rule.FREESTYLE, Rule.STANDARD]))
    cells = draw(st.permutations(range(n * n)))
    blocked = cells[: draw(st.integers(0, 3))]
    state = State(n, k, rule=rule, blocked=blocked)
    for move in cells[len(blocked) : len(blocked) + draw(st.integers(0, max_stones))]:
        state.play(move)
        if state.result is not None:
            state.undo()
            break
    return state


def pattern_moves(board: PatternBoard, player: int) -> list[tuple[int, int]]:
    moves = np.zeros(board.n**2, dtype=np.int64)
    worth = np.zeros(board.n**2, dtype=np.int64)
    m = PM._candidates(board.arrays(), player, moves, worth)
    return list(zip(moves[:m].tolist(), worth[:m].tolist(), strict=True))


@pytest.mark.kernel
@given(positions(), st.sampled_from([1, 2]))
@settings(max_examples=80, deadline=None)
def test_pattern_moves_and_weights_match_the_twin(state: State, player: int) -> None:
    board = PatternBoard(state)
    assert pattern_moves(board, player) == naive_patterns.candidates(
        state.cells.tolist(), state.n, state.k, state.rule, player
    )


@pytest.mark.kernel
@given(positions(max_n=7), st.integers(0, 2**63))
@settings(max_examples=25, deadline=None)
def test_pattern_playouts_match_the_twin(state: State, seed: int) -> None:
    board = PatternBoard(state)
    rng = np.array([seed], dtype=np.uint64)
    moves = np.zeros(state.n**2, dtype=np.int64)
    worth = np.zeros(state.n**2, dtype=np.int64)
    result = PM._playout(board.arrays(), state.to_move, rng, moves, worth)
    cells = state.cells.tolist()
    stream = naive_patterns.Stream(seed)
    assert result == naive_patterns.playout(cells, state.n, state.k, state.rule, state.to_move, stream)
    assert board.cells.tolist() == cells and int(rng[0]) == stream.state


@pytest.mark.kernel
@given(positions(max_n=6, max_stones=20), st.booleans(), st.integers(0, 2**63), st.integers(1, 40))
@settings(max_examples=15, deadline=None)
def test_the_pattern_search_matches_the_twin(state: State, symmetry: bool, seed: int, iterations: int) -> None:
    tree = _Tree(state, symmetry, patterns=True)
    tree.make_room()
    rng = np.array([seed], dtype=np.uint64)
    assert tree.run(iterations, 1.5, rng, np.zeros(1, dtype=np.uint8)) == iterations
    stats = tree.stats(iterations, 0.0)
    twin = naive_patterns.PatternMCTS(state.n, state.k, state.rule, 1.5, symmetry, naive_patterns.Stream(seed))
    expected = twin.search(state.cells.tolist(), state.to_move, iterations)
    assert stats.visits == {move: visits for move, (visits, _) in expected.items()}
    assert stats.win_rates == {move: wins / visits if visits else 0.0 for move, (visits, wins) in expected.items()}
    assert stats.table_entries == len(twin.stats) and int(rng[0]) == twin.stream.state


def test_patterns_are_on_for_gomoku_boards_and_refused_where_the_tables_cannot_see() -> None:
    player = MCTS(iterations=10)
    assert player.uses_patterns(State(15, 5)) and player.uses_patterns(State(9, 4))
    assert not player.uses_patterns(State(7, 4)) and not player.uses_patterns(State(9, 3))
    assert not player.uses_patterns(State(9, 6))
    assert MCTS(patterns=True).uses_patterns(State(3, 3)) and not MCTS(patterns=False).uses_patterns(State(15, 5))
    with pytest.raises(InvalidInputError, match="mcts patterns know lines of 3 to 5 stones, got k = 6"):
        MCTS(iterations=10, patterns=True).choose(State(9, 6))
    with pytest.raises(InvalidInputError, match="patterns must be True, False or None"):
        MCTS(patterns="yes")  # type: ignore[arg-type]
    assert MCTS(iterations=10).search(State(15, 5)).patterns
    assert not MCTS(iterations=10).search(State(7, 4)).patterns


def test_pattern_search_opens_in_the_centre_and_answers_threes() -> None:
    stats = MCTS(iterations=200, seed=1).search(State(15, 5))
    assert set(stats.visits) == {112}  # no stone yet: the centre
    # O's open three h8 i8 j8 on 15x15 (X to move): only the cells that stop it are children.
    state = State.from_moves(15, 5, [0, 7 * 15 + 7, 14, 7 * 15 + 8, 224, 7 * 15 + 9])
    stats = MCTS(iterations=2000, seed=1).search(state)
    assert set(stats.visits) == {7 * 15 + c for c in (5, 6, 10, 11)}  # the ends, and one further out
    plain = MCTS(iterations=2000, seed=1, patterns=False).search(state)
    assert len(plain.visits) == 225 - 6


def test_a_closed_three_leaves_the_reply_near_the_stones() -> None:
    # X's three f8 g8 h8 is closed by O on e8 and i8; O to move on 15x15: MCTS stays near the stones.
    row = 7 * 15
    state = State.from_moves(15, 5, [row + 5, row + 4, row + 6, row + 8, row + 7])
    move = MCTS(iterations=3000, seed=3).choose(state)
    r, c = divmod(move, 15)
    assert max(abs(r - 7), abs(c - 6)) <= 3


def test_seeded_pattern_searches_are_reproducible() -> None:
    state = State.from_moves(15, 5, [112, 113, 97])
    a = MCTS(iterations=3000, seed=11).search(state)
    b = MCTS(iterations=3000, seed=11).search(state)
    c = MCTS(iterations=3000, seed=12).search(state)
    assert a.patterns and a.visits == b.visits and a.win_rates == b.win_rates
    assert a.win_rates != c.win_rates


def test_make_player_and_the_command_line_choose_the_patterns() -> None:
    from typer.testing import CliRunner

    from plyground.apps.cli.main import app
    from plyground.kinrow.players import make_player

    gomoku = State(15, 5)
    assert make_player("mcts").uses_patterns(gomoku)  # type: ignore[attr-defined]
    assert not make_player("mcts", patterns=False).uses_patterns(gomoku)  # type: ignore[attr-defined]
    args = ["kinrow", "selfplay", "--n", "9", "--k", "5", "--x", "mcts", "--o", "random", "--games", "1", "--quiet"]
    for flag in ("--patterns", "--no-patterns"):
        result = CliRunner().invoke(app, [*args, flag, "--n-iterations", "50", "--seed", "1"])
        assert result.exit_code == 0, result.output
