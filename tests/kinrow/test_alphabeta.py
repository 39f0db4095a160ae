"""The alpha-beta player: kernels against their naive twins, search against plain minimax, tactics, errors.

The kernel tests run once more with ``NUMBA_DISABLE_JIT=1`` (see ``tests/test_kernels_without_jit.py``).
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import _alphabeta_kernels as A
from plyground.kinrow import _kernels as K
from plyground.kinrow import alphabeta
from plyground.kinrow._table_kernels import TABLE_DTYPE
from plyground.kinrow.alphabeta import WIN_VALUE, WON_VALUE, AlphaBeta
from plyground.kinrow.board import DRAW, O, State, X, zobrist
from plyground.kinrow.players import Player, make_player
from tests.naive import kinrow as naive

Board = tuple[list[int], int, int]  # cells, n, k

# -- strategies --------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn, min_n: int = 3, max_n: int = 20, fill: float = 0.5, blocked: float = 0.0) -> Board:
    """Any cells (not necessarily from a game) of an n×n board, with a k; about ``fill`` of them stones.

    Up to ``blocked`` of the cells are then blocked (3).
    """
    n = draw(st.integers(min_n, max_n))
    k = draw(st.integers(3, n))
    stones = draw(st.floats(0.0, fill))
    holes = draw(st.floats(0.0, blocked)) if blocked else 0.0
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))  # quicker to draw than n*n hypothesis integers
    cells = np.where(rng.random(n * n) < stones, rng.integers(1, 3, n * n), 0)
    cells = np.where(rng.random(n * n) < holes, 3, cells)
    return cells.tolist(), n, k


@st.composite
def positions(draw: st.DrawFn, sizes: tuple[int, ...], max_stones: int | None = None, min_stones: int = 0) -> State:
    """A live position of a game: random moves from the empty board (the last one taken back if it ended the game)."""
    n = draw(st.sampled_from(sizes))
    k = draw(st.integers(3, n))
    order = draw(st.permutations(range(n * n)))
    upper = min(n * n - 1, max_stones if max_stones is not None else n * n)
    count = draw(st.integers(min(min_stones, upper), upper))
    state = State(n, k)
    for move in order[:count]:
        if state.is_over:
            break
        state.play(move)
    if state.is_over:
        state.undo()
    return state


def _cells(cells: list[int]) -> np.ndarray:
    return np.array(cells, dtype=np.int8)


def _naive_value(state: State, depth: int, radius: int = 0) -> int:
    return naive.minimax(state.cells.tolist(), state.n, state.k, state.to_move, depth, radius)


def _table() -> np.ndarray:
    tt = np.zeros(1 << 10, dtype=TABLE_DTYPE)
    tt["depth"] = -1
    return tt


# -- kernels against their twins ---------------------------------------------


@pytest.mark.kernel
@given(boards(blocked=0.2), st.sampled_from([X, O]))
def test_evaluate_matches_naive(board: Board, player: int) -> None:
    cells, n, k = board
    assert int(A._evaluate(_cells(cells), n, k, player)) == naive.evaluate(cells, n, k, player)


@pytest.mark.kernel
@given(boards(blocked=0.2), st.sampled_from([X, O]), st.data())
def test_gain_is_the_change_of_the_evaluation(board: Board, player: int, data: st.DataObject) -> None:
    cells, n, k = board
    index = data.draw(st.integers(0, n * n - 1))
    cells[index] = 0
    after = list(cells)
    after[index] = player
    expected = naive.evaluate(after, n, k, player) - naive.evaluate(cells, n, k, player)
    assert int(A._gain(_cells(cells), n, k, index, player)) == expected


@pytest.mark.kernel
@given(boards(fill=0.9, blocked=0.1), st.sampled_from([X, O]), st.data())
def test_wins_at_matches_naive(board: Board, player: int, data: st.DataObject) -> None:
    cells, n, k = board
    index = data.draw(st.integers(0, n * n - 1))
    assert bool(K._wins_at(_cells(cells), n, k, index, player)) == naive.wins_at(cells, n, k, index, player)
    for rule in (0, 1, 4):
        expected = naive.wins_under(cells, n, k, index, player, rule)
        assert bool(K._wins_at_rule(_cells(cells), n, k, index, player, rule)) == expected


@pytest.mark.kernel
@given(boards(fill=0.1, blocked=0.3), st.integers(0, 3))
@example(([3, 3, 3, 2, 3, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0], 4, 3), 1)  # the only stone walled in: still a move
def test_candidates_match_naive(board: Board, radius: int) -> None:
    cells, n, _ = board
    near = np.zeros(n * n, dtype=np.int32)
    A._near_counts(_cells(cells), n, radius, near)
    out = np.zeros(n * n, dtype=np.int64)
    count = int(A._candidates(_cells(cells), n, radius, near, out))
    assert out[:count].tolist() == naive.candidates(cells, n, radius)


@pytest.mark.kernel
@pytest.mark.parametrize(("n", "k"), [(3, 3), (7, 5), (15, 15), (19, 16), (19, 19), (20, 15), (20, 20)])
def test_heuristic_extremes_match_naive_and_stay_below_a_win(n: int, k: int) -> None:
    full = [X] * (n * n)
    line = [X if i < k - 1 else O if i >= n * n - (k - 1) else 0 for i in range(n * n)]  # k - 1 X's, k - 1 O's
    for cells in (full, line):
        value = int(A._evaluate(_cells(cells), n, k, X))
        assert value == naive.evaluate(cells, n, k, X)
        assert abs(value) < A.WON


# -- the search against plain minimax ----------------------------------------

SHARED = AlphaBeta(depth=3, tt_bits=8)  # one small table for every example: entries of other positions collide


@pytest.mark.kernel
@settings(max_examples=60)
@given(positions((3, 4)), st.integers(1, 3))
def test_search_equals_plain_minimax(state: State, depth: int) -> None:
    move, value = AlphaBeta(depth=depth).search(state, depth)
    assert value == _naive_value(state, depth)
    assert state.cells[move] == 0
    _, shared_value = SHARED.search(state, depth)
    assert shared_value == value


@pytest.mark.kernel
@settings(max_examples=40)
@given(positions((3, 4), min_stones=9), st.data())
def test_deep_search_equals_plain_minimax(state: State, data: st.DataObject) -> None:
    # Deep enough for transpositions: the table gives values of positions reached by other move orders.
    empty = state.n * state.n - len(state.history)
    deepest = max(d for d in range(1, empty + 1) if math.perm(empty, d) <= 20_000)  # the naive search stays quick
    depth = data.draw(st.integers(min(4, deepest), deepest))
    value = AlphaBeta(depth=depth).search(state, depth)[1]
    assert value == _naive_value(state, depth)
    assert SHARED.search(state, depth)[1] == value


@pytest.mark.kernel
@settings(max_examples=30)
@given(positions((5, 6, 7), max_stones=5), st.integers(1, 2), st.data())
def test_kernel_search_near_stones_equals_plain_minimax(state: State, radius: int, data: st.DataObject) -> None:
    n, k = state.n, state.k
    moves = len(naive.candidates(state.cells.tolist(), n, radius))
    depth = data.draw(st.integers(1, 3 if math.perm(moves, min(3, moves)) <= 3_000 else 2))
    stats = np.zeros(3, dtype=np.int64)
    cells = np.array(state.cells)
    value = A._search(cells, n, k, 0, radius, state.to_move, zobrist(n), depth, _table(), np.zeros(1, np.uint8), stats)
    assert int(value) == _naive_value(state, depth, radius)
    assert cells.tolist() == state.cells.tolist()  # played and taken back
    assert int(stats[A.BEST]) in naive.candidates(state.cells.tolist(), n, radius)


@pytest.mark.kernel
@settings(max_examples=30)
@given(positions((7, 9, 15), max_stones=8), st.integers(1, 2), st.integers(1, 3))
def test_negamax_restores_the_board_and_the_near_counts(state: State, radius: int, depth: int) -> None:
    n, k, player = state.n, state.k, state.to_move
    cells = np.array(state.cells)
    near = np.zeros(n * n, dtype=np.int32)
    A._near_counts(cells, n, radius, near)
    before = near.copy()
    empty = n * n - len(state.history)
    value = A._evaluate(cells, n, k, player)
    stats = np.zeros(3, dtype=np.int64)
    A._negamax(
        cells, n, k, 0, radius, near, zobrist(n), np.uint64(state.key), empty, value, player, depth, 0,
        -A.INFINITY, A.INFINITY, _table(), np.zeros(1, np.uint8), stats,
    )  # fmt: skip
    assert cells.tolist() == state.cells.tolist()
    assert near.tolist() == before.tolist()
    assert stats[A.NODES] >= 1 and cells[stats[A.BEST]] == 0


# Positions found by a long random search where storing a bound as an exact value changes the result,
# with their values by ``naive.minimax`` (seconds each; the first is checked again below).
BOUND_SENSITIVE = [
    ("O.XX/..OO/..../OXX.", 4, 4, 0, -8),
    ("...../...../...../...../XX..O", 4, 5, 1, 13),
    ("...../...../..XO./...../....X", 4, 5, 1, 22),
]


@pytest.mark.kernel
@pytest.mark.parametrize(("text", "k", "depth", "radius", "expected"), BOUND_SENSITIVE)
def test_bounds_in_the_table_are_kept_apart_from_values(
    text: str, k: int, depth: int, radius: int, expected: int
) -> None:
    state = State.parse(text, k)
    cells, n = np.array(state.cells), state.n
    stats = np.zeros(3, dtype=np.int64)
    value = A._search(cells, n, k, 0, radius, state.to_move, zobrist(n), depth, _table(), np.zeros(1, np.uint8), stats)
    assert stats[A.TT_HITS] > 0
    assert int(value) == expected


def test_the_bound_sensitive_values_are_the_naive_ones() -> None:
    text, k, depth, radius, expected = BOUND_SENSITIVE[0]
    assert _naive_value(State.parse(text, k), depth, radius) == expected


@pytest.mark.kernel
@settings(max_examples=30)
@given(positions((3, 4), min_stones=6), st.integers(1, 2))
def test_deeper_entries_are_not_taken_for_shallower_values(state: State, depth: int) -> None:
    player = AlphaBeta(depth=4)
    player.search(state, depth + 2)
    assert player.search(state, depth)[1] == _naive_value(state, depth)


@pytest.mark.parametrize("moves", [(0, 4), (4, 1), (1, 7, 3), (0, 8, 2)])
def test_full_depth_search_equals_minimax_on_tic_tac_toe(moves: tuple[int, ...]) -> None:
    state = State.from_moves(3, 3, moves)
    depth = 9 - len(moves)
    assert AlphaBeta(depth=depth).search(state, depth)[1] == _naive_value(state, depth)


# -- tactics ------------------------------------------------------------------

SIZES = [(3, 3), (5, 4), (7, 5), (9, 5), (15, 5), (19, 6), (10, 10)]


def _parse(n: int, k: int, xs: list[int], os_: list[int]) -> State:
    symbols = ["X" if i in xs else "O" if i in os_ else "." for i in range(n * n)]
    return State.parse("/".join("".join(symbols[r * n : (r + 1) * n]) for r in range(n)), k)


def _quiet_stones(n: int, k: int, taken: list[int], count: int, player: int, avoid: list[int]) -> list[int]:
    """``count`` stones of ``player`` from the bottom-right corner on, leaving it no winning move."""
    stones: list[int] = []
    for cell in reversed(range(n * n)):
        if len(stones) == count:
            break
        if cell in taken or cell in avoid:
            continue
        cells = [player if i in [*stones, cell] else 3 - player if i in taken else 0 for i in range(n * n)]
        if not any(cells[i] == 0 and naive.wins_at(cells, n, k, i, player) for i in range(n * n)):
            stones.append(cell)
    return stones


def _line_position(n: int, k: int, *, to_win: int) -> State:
    """``to_win`` (X or O) has k - 1 stones in row n // 2 from column 0, the other player quiet stones; X to move."""
    line = [(n // 2) * n + c for c in range(k - 1)]
    quiet = _quiet_stones(n, k, line, len(line), O if to_win == X else X, avoid=[line[-1] + 1])
    return _parse(n, k, line, quiet) if to_win == X else _parse(n, k, quiet, line)


@pytest.mark.parametrize(("n", "k"), SIZES)
def test_win_in_one(n: int, k: int) -> None:
    state = _line_position(n, k, to_win=X)
    wins = state.winning_moves()
    assert wins and state.to_move == X
    for depth in (1, 2, 3):
        move, value = AlphaBeta(depth=depth).search(state, depth)
        assert move in wins and value == WIN_VALUE - 1
    assert AlphaBeta(depth=None, time_ms=20).choose(state) in wins


@pytest.mark.parametrize(("n", "k"), SIZES)
def test_block_in_one(n: int, k: int) -> None:
    state = _line_position(n, k, to_win=O)
    threats = state.winning_moves(O)
    assert state.to_move == X and not state.winning_moves() and threats == [(n // 2) * n + k - 1]
    for depth in (2, 3):
        move, value = AlphaBeta(depth=depth).search(state, depth)
        assert move in threats and value > -WON_VALUE
    assert AlphaBeta(depth=None, time_ms=20).choose(state) in threats


def _wins_against_every_reply(state: State, move: int) -> bool:
    """Whether after ``move`` every reply of the opponent leaves the mover an immediate win."""
    state = state.copy()
    state.play(move)
    for reply in state.legal_moves():
        state.play(reply)
        ok = state.result is None and bool(state.winning_moves())
        state.undo()
        if not ok:
            return False
    return True


# X to move can make two threats at once: an open three (k = 4) or open four (k = 5), or two crossing lines.
DOUBLE_THREATS = [
    ("......./......./......./..XX.../......./O.....O/.......", 4),
    ("...O.../...X.../...X.../OXX..../......./......./....O.O", 4),
    ("O......../........./........./........./...XXX.../........./........./........./O.......O", 5),
    ("O.............O" + "/..............." * 6 + "/......XXX......" + "/..............." * 6 + "/O..............", 5),
]


@pytest.mark.parametrize(("text", "k"), DOUBLE_THREATS)
def test_a_double_threat_is_made(text: str, k: int) -> None:
    state = State.parse(text, k)
    assert state.to_move == X and not state.winning_moves() and not state.winning_moves(O)
    move, value = AlphaBeta(depth=3).search(state, 3)
    assert value == WIN_VALUE - 3
    assert _wins_against_every_reply(state, move)
    timed = AlphaBeta(depth=None, time_ms=200).choose(state)
    assert _wins_against_every_reply(state, timed)


# O to move: X threatens a double threat next move (where its two lines cross, or an open three becoming an
# open four); O must prevent it.
FORKS_TO_PREVENT = [
    ("...O.../...X.../...X.../....XXO/.....OO/......./X......", 4),
    ("O......../........./........./........./...XXX.../........./........./........./........O", 5),
]


@pytest.mark.parametrize(("text", "k"), FORKS_TO_PREVENT)
def test_a_double_threat_is_prevented(text: str, k: int) -> None:
    state = State.parse(text, k)
    assert state.to_move == O and not state.winning_moves() and not state.winning_moves(X)
    careless = next(m for m in state.legal_moves() if m // state.n == 0 and m % state.n >= 5)
    after = state.copy()
    after.play(careless)
    assert AlphaBeta(depth=3).search(after, 3)[1] == WIN_VALUE - 3  # a far move loses to the double threat
    for player in (AlphaBeta(depth=4), AlphaBeta(depth=None, time_ms=300)):
        move = player.choose(state)
        after = state.copy()
        after.play(move)
        assert AlphaBeta(depth=3).search(after, 3)[1] < WON_VALUE, state.name(move)


def test_faster_wins_are_preferred() -> None:
    # X wins at once on c1, or later in other ways: the immediate win is worth most.
    state = State.parse("XX.../OO.../X..../O..../.....", 3)
    move, value = AlphaBeta(depth=3).search(state, 3)
    assert value == WIN_VALUE - 1 and move in state.winning_moves()


def test_slower_losses_are_preferred() -> None:
    # O to move must block X's four (or lose at once), then loses to X's open three 4 plies from now.
    state = State.parse("......O.O/OXXXX..../........./........./...XXX.../........./O......../........./O.......O", 5)
    assert state.to_move == O and state.winning_moves(X) == [14]
    move, value = AlphaBeta(depth=4).search(state, 4)
    assert (move, value) == (14, -(WIN_VALUE - 4))


# -- tic-tac-toe --------------------------------------------------------------


@pytest.mark.kernel
def test_tic_tac_toe_is_a_draw() -> None:
    player = AlphaBeta(depth=9)
    move, value = player.search(State(3, 3), 9)
    assert value == 0.0 and 0 <= move < 9
    assert player.last is not None and player.last.depth == 9


def test_two_alpha_beta_players_draw_tic_tac_toe() -> None:
    players = [AlphaBeta(depth=9), AlphaBeta(depth=9)]
    state = State(3, 3)
    while not state.is_over:
        state.play(players[len(state.history) % 2].choose(state))
    assert state.result == DRAW


# -- the player ---------------------------------------------------------------


@settings(max_examples=40)
@given(positions((3, 5, 8, 13, 19)), st.integers(1, 2))
def test_choose_returns_a_legal_move(state: State, depth: int) -> None:
    move = AlphaBeta(depth=depth).choose(state)
    assert move in state.legal_moves()


def test_depth_two_on_a_big_board_plays_legal_moves() -> None:
    # Speed is measured by benchmarks/kinrow.py, not here.
    state = State(15, 5)
    player = AlphaBeta(depth=2)
    player.choose(state)  # allocates the table
    for move in (112, 113, 98, 126, 127, 97, 128, 111, 96):
        state.play(move)
        assert player.choose(state) in state.legal_moves()
        assert player.last is not None and player.last.depth == 2


def test_time_budget_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth 1 always finishes; before depth 2 the search arms a stop at what is left of its budget, by its
    clock (here one that moves 1 ms at each reading), and a stop gives the deepest depth finished."""
    from tests.kinrow.clocks import Threading, TickingClock

    clock, threads = TickingClock(0.001), Threading()
    monkeypatch.setattr(alphabeta, "time", clock)
    monkeypatch.setattr(alphabeta, "threading", threads)  # its timers fire as soon as they are armed
    state = State.from_moves(15, 5, [112, 113, 98, 126, 127, 97, 128, 111])
    player = AlphaBeta(depth=None, time_ms=150)
    move = player.choose(state)
    assert threads.intervals == [pytest.approx(0.15 - clock.tick)]  # one reading since the search started
    assert move in state.legal_moves() and player.last is not None and player.last.depth == 1
    player.time_ms = 50  # a driver may change it between moves
    player.choose(state)
    assert threads.intervals[-1] == pytest.approx(0.05 - clock.tick)
    player.time_ms = 0.5  # spent before depth 2 begins: no stop is armed, depth 1 is played
    player.choose(state)
    assert len(threads.intervals) == 2 and player.last is not None and player.last.depth == 1


def test_a_depth_with_a_budget_stops_at_the_depth() -> None:
    state = State.from_moves(9, 5, [40, 41, 31])
    player = AlphaBeta(depth=3, time_ms=30_000)
    player.choose(state)
    assert player.last is not None and player.last.depth == 3


def test_same_position_same_move_and_reset() -> None:
    state = State.from_moves(9, 5, [40, 41, 31, 49])
    first, second = AlphaBeta(depth=3), AlphaBeta(depth=3)
    assert first.choose(state) == second.choose(state)
    assert first.search(state, 3) == second.search(state, 3)
    assert first.last is not None and first.last.tt_hits > 0  # the root was in the table
    first.reset()
    assert first.search(state, 3) == second.search(state, 3)


def test_forced_moves_come_first() -> None:
    state = State.parse("XX./OO./...", 3)
    player = AlphaBeta(depth=1)
    assert player.choose(state) == 2 and player.last is None


def test_the_factory_and_the_protocol() -> None:
    player = make_player("alphabeta", depth=3, time_ms=500)
    assert isinstance(player, AlphaBeta) and isinstance(player, Player)
    assert (player.name, player.depth, player.time_ms) == ("alphabeta", 3, 500)


def test_the_budget_is_named_in_milliseconds() -> None:
    player = AlphaBeta(depth=None, time_ms=1500)
    player.time_ms = 250
    assert player.time_ms == 250
    with pytest.raises(TypeError):
        AlphaBeta(2, 0.5)  # type: ignore[misc]  # a budget is named: its unit is in its name
    with pytest.raises(TypeError):
        AlphaBeta(depth=2, time_budget=0.5)  # type: ignore[call-arg]  # the old spelling in seconds is gone


@pytest.mark.parametrize(
    "kwargs",
    [
        {"depth": 0},
        {"depth": -1},
        {"depth": 2.5},
        {"depth": True},
        {"depth": "3"},
        {"depth": 65},
        {"depth": None},
        {"time_ms": 0},
        {"time_ms": -5},
        {"time_ms": float("nan")},
        {"time_ms": float("inf")},
        {"time_ms": 3_600_001},
        {"time_ms": "100"},
        {"time_ms": True},
        {"tt_bits": 7},
        {"tt_bits": 27},
        {"tt_bits": 12.0},
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError, match=r"^[^\n]+$"):
        AlphaBeta(**kwargs)  # type: ignore[arg-type]


def test_bad_settings_and_calls_are_refused() -> None:
    player = AlphaBeta(depth=2)
    with pytest.raises(InvalidInputError, match="time_ms must be a positive number of milliseconds"):
        player.time_ms = float("inf")
    with pytest.raises(InvalidInputError, match="depth"):
        player.depth = None  # no time budget either
    with pytest.raises(InvalidInputError, match="depth"):
        player.search(State(3, 3), 0)
    with pytest.raises(InvalidInputError, match="State"):
        player.choose("XX./OO./...")  # type: ignore[arg-type]
    timed = AlphaBeta(depth=None, time_ms=1000)
    with pytest.raises(InvalidInputError, match="time budget"):
        timed.time_ms = None
    over = State.from_moves(3, 3, [0, 3, 1, 4, 2])
    with pytest.raises(IllegalMoveError, match="over"):
        player.choose(over)
    with pytest.raises(IllegalMoveError, match="over"):
        player.search(over, 2)


@pytest.mark.kernel
def test_the_kernel_returns_at_once_when_the_stop_flag_is_set() -> None:
    state = State.from_moves(9, 5, [40, 41, 31])
    tt = np.zeros(1 << 12, dtype=TABLE_DTYPE)
    tt["depth"] = -1
    stats = np.zeros(3, dtype=np.int64)
    cells = np.array(state.cells)
    args = (cells, 9, 5, 0, 2, state.to_move, zobrist(9), 6, tt)
    A._search(*args, np.ones(1, dtype=np.uint8), stats)
    assert stats[A.NODES] == 1  # the root only: nothing searched, nothing stored
    assert (tt["depth"] == -1).all() and np.array_equal(cells, state.cells)
    A._search(*args, np.zeros(1, dtype=np.uint8), stats)
    assert stats[A.NODES] > 1000


def test_stop_from_another_thread_ends_a_long_search_at_once() -> None:
    from tests.kinrow.test_mcts import stop_later

    state = State.from_moves(15, 5, [112, 113, 98, 126])
    player = AlphaBeta(depth=None, time_ms=600_000)  # ten minutes
    called = stop_later(player, 0.3)
    move = player.choose(state)
    returned = time.perf_counter()
    assert called and returned - called[0] < 30  # a few milliseconds; the search alone would run ten minutes
    assert move in state.legal_moves()
    assert player.last is not None and player.last.depth >= 1 and player.last.seconds < 60


def test_stop_before_a_search_keeps_depth_1_and_is_used_up() -> None:
    state = State.from_moves(9, 5, [40, 41, 31])
    player = AlphaBeta(depth=8)
    player.stop()
    assert player.choose(state) in state.legal_moves()
    assert player.last is not None and player.last.depth == 1  # of its 8
    player.depth = 3
    player.choose(state)  # the request was used up
    assert player.last is not None and player.last.depth == 3
    player.stop()
    assert player.search(state, 3)[0] in state.legal_moves()
    assert player.last is not None and player.last.depth == 1
    assert player.search(state, 3) == AlphaBeta(depth=3).search(state, 3)


# -- rules and blocked cells ---------------------------------------------------


@pytest.mark.kernel
@settings(max_examples=40)
@given(positions((4, 5), max_stones=8), st.sampled_from([0, 1]), st.integers(0, 2**32), st.integers(1, 2))
def test_search_under_a_rule_with_blocked_cells_equals_plain_minimax(
    state: State, rule: int, seed: int, depth: int
) -> None:
    n, k = state.n, state.k
    rng = np.random.default_rng(seed)
    cells = np.array(state.cells)
    holes = [i for i in np.flatnonzero(cells == 0).tolist() if rng.random() < 0.2]
    cells[holes[: max(0, int(np.count_nonzero(cells == 0)) - 1)]] = 3  # one empty cell at least stays
    board = cells.tolist()
    if any(naive.wins_under(board, n, k, m, p, rule) and board[m] == p for m in range(n * n) for p in (X, O)):
        return  # a line already there (blocked cells can turn an overline into exactly k): not a live position
    stats = np.zeros(3, dtype=np.int64)
    value = A._search(cells, n, k, rule, 0, state.to_move, zobrist(n), depth, _table(), np.zeros(1, np.uint8), stats)
    assert int(value) == naive.minimax(board, n, k, state.to_move, depth, 0, 0, rule)
    assert cells.tolist() == board and board[int(stats[A.BEST])] == 0


def test_an_overline_is_no_win_under_standard() -> None:
    text = "XX.XX/OOO../...../...../....O"  # c1 gives X five: a win in free-style only; O threatens d2
    assert AlphaBeta(depth=2).choose(State.parse(text, 4)) == 2
    standard = State.parse(text, 4, rule="standard")
    assert AlphaBeta(depth=2).choose(standard) == 8
    assert AlphaBeta(depth=2).search(standard, 2)[0] == 8  # the search alone, without the forced-move shortcut


def test_blocked_cells_are_never_chosen_and_break_lines() -> None:
    state = State.parse("XX#X./OOO../...../...../.....", 4)  # c1 blocked: X has no win; O threatens d2
    assert AlphaBeta(depth=3).search(state, 3)[0] == 8
    state = State.parse("#..../.#.../..#../...../.....", 3)
    player = AlphaBeta(depth=2)
    while not state.is_over:
        move = player.choose(state)
        assert state.cells[move] == 0
        state.play(move)


def test_renju_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="alphabeta plays free-style and standard; use the engine player"):
        AlphaBeta(depth=2).choose(State(15, 5, rule="renju"))
