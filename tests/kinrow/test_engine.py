"""The engine: its kernels against the naive twins, tactics (fives, fours, threes, VCFs), time, stop and memory."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import State
from plyground.kinrow import _engine_kernels as E
from plyground.kinrow._table_kernels import TABLE_DTYPE
from plyground.kinrow.engine import WIN_VALUE, Engine, EngineSettings
from plyground.kinrow.evaluation import FITTED_MARGIN, evaluation_for
from plyground.kinrow.patterns import PatternBoard
from tests.naive import engine as naive


def search_arrays(
    board: PatternBoard,
    *,
    width: int = 400,
    leaf_vcf: int = 0,
    leaf_width: int = 0,
    threat_plies: int = 2,
    selective: tuple[int, int, int, int] = (0, 0, 0, 0),
    path: tuple[int, ...] = (),
    answers: bool = False,
    quiescence: int = 0,
    verify: bool = False,
) -> E.SearchArrays:
    """The search's arrays; ``selective``: reduce, prune, futility margin, distance (all off by default).

    ``leaf_vcf``, ``leaf_width``: the VCF at the leaves (none by default; width 0: the full one);
    ``answers``: the exact answers to threats as the moves where there is one; ``quiescence``: the
    plies of the threat quiescence at the leaves (0: none); ``verify``: wins and losses the table
    claims are searched again on the principal variation.
    """
    size = board.n * board.n
    evaluation = evaluation_for(board.k, board.rule)
    constants = (evaluation.tempo_x, evaluation.tempo_o, evaluation.hot)
    reduce, prune, margin, distance = selective
    params = [width, 1, leaf_vcf, threat_plies, reduce, 1, 0, board.n, *constants, prune, margin, distance, leaf_width,
              int(answers), quiescence, int(verify)]  # fmt: skip
    assert len(params) == E.PARAMS
    recent = np.full(E.PATH + E.MAX_PLY, -1, dtype=np.int32)
    recent[: len(path)] = path
    return E.SearchArrays(
        np.zeros(1 << 14, dtype=TABLE_DTYPE),
        np.full((E.MAX_PLY, 2), -1, dtype=np.int32), np.zeros(size, dtype=np.int32),
        np.zeros((E.MAX_PLY, size), dtype=np.int32), np.zeros((E.MAX_PLY, size), dtype=np.int32),
        np.zeros(size, dtype=np.uint8), np.zeros(1, dtype=np.uint8), np.zeros(4, dtype=np.int64),
        np.array(params, dtype=np.int64),
        np.zeros(1 << 12, dtype=TABLE_DTYPE),
        np.zeros(E.MAX_PLY + 64, dtype=np.int32), np.zeros(2, dtype=np.int64), recent, np.zeros(size, dtype=np.int32),
    )  # fmt: skip


@st.composite
def positions(draw: st.DrawFn, max_stones: int = 14) -> State:
    """A game in progress on a small board, reached by random moves near the centre."""
    n = draw(st.integers(5, 7))
    k = draw(st.integers(3, 5)) if n >= 5 else 3
    state = State(n, k)
    for move in draw(st.permutations(range(n * n)))[: draw(st.integers(1, max_stones))]:
        state.play(move)
        if state.is_over:
            state.undo()
            break
    return state


def engine_board(state: State) -> PatternBoard:
    """The pattern board as the engine builds it, with the evaluation's six rows of weights."""
    return PatternBoard(state, evaluation_for(state.k, state.rule).weights)


def twin(state: State) -> naive.Position:
    evaluation = evaluation_for(state.k, state.rule)
    return naive.Position(
        state.cells.tolist(), state.n, state.k, (False, False), evaluation.weights,
        (evaluation.tempo_x, evaluation.tempo_o), evaluation.hot,
    )  # fmt: skip


@pytest.mark.kernel
@given(positions())
@settings(max_examples=60, deadline=None)
def test_moves_and_evaluation_match_the_naive_twin(state: State) -> None:
    board = engine_board(state)
    arrays = search_arrays(board)
    position = twin(state)
    player = state.to_move
    count = int(E._generate(board.arrays(), arrays, player, 1))
    expected, forced = position.moves(player)
    assert (count < 0) == forced
    assert sorted(arrays.moves[1, : abs(count)].tolist()) == expected
    assert E._evaluate(board.arrays(), arrays.params, player) == position.evaluate(player)
    arrays = search_arrays(board, answers=True)
    count = int(E._generate(board.arrays(), arrays, player, 1))
    expected, forced = position.moves(player, answers=True)
    assert (count < 0) == forced
    assert sorted(arrays.moves[1, : abs(count)].tolist()) == expected
    assert board.cells.tolist() == state.cells.tolist()


@pytest.mark.kernel
@given(positions(max_stones=24).filter(lambda state: state.k == 5))
@settings(max_examples=60, deadline=None)
def test_the_symmetric_evaluation_is_the_negation_of_itself_for_the_other_player(state: State) -> None:
    """Whoever is to move, one player's value is the other's negated: it does not swing from ply to ply
    (gomoku, where there is a fit; the hand-made worth elsewhere is not symmetric)."""
    evaluation = evaluation_for(state.k, state.rule, "symmetric")
    board = PatternBoard(state, evaluation.weights)
    params = search_arrays(board).params.copy()
    params[E.TEMPO_X], params[E.TEMPO_O], params[E.HOT_BONUS] = evaluation.tempo_x, evaluation.tempo_o, evaluation.hot
    x_value, o_value = E._evaluate(board.arrays(), params, 1), E._evaluate(board.arrays(), params, 2)
    assert x_value == -o_value


def test_the_fitted_evaluation_swings_with_the_side_to_move_and_the_symmetric_one_does_not() -> None:
    """X's open three: worth much more to X with X to move (it makes an open four) than with O to move."""
    state = gomoku(["", "", "", "", "", "", "...XXX", "", "....O", ".....O", "O"])
    values = {}
    for kind in ("fitted", "symmetric"):
        evaluation = evaluation_for(5, state.rule, kind)
        board = PatternBoard(state, evaluation.weights)
        params = search_arrays(board).params.copy()
        params[E.TEMPO_X], params[E.TEMPO_O], params[E.HOT_BONUS] = (
            evaluation.tempo_x, evaluation.tempo_o, evaluation.hot,
        )  # fmt: skip
        values[kind] = (int(E._evaluate(board.arrays(), params, 1)), int(E._evaluate(board.arrays(), params, 2)))
    x_fitted, o_fitted = values["fitted"]
    assert x_fitted + o_fitted > 1000  # a logit or more: the side to move counts twice
    assert values["symmetric"][0] == -values["symmetric"][1] > 0


@pytest.mark.kernel
@given(positions(), st.data())
@settings(max_examples=60, deadline=None)
def test_order_scores_match_the_naive_twin(state: State, data: st.DataObject) -> None:
    """The order score of each move, with the discount of moves away from the last four."""
    size = state.n * state.n
    path = tuple(data.draw(st.lists(st.integers(-1, size - 1), min_size=E.PATH + 1, max_size=E.PATH + 1)))
    board = engine_board(state)
    arrays = search_arrays(board, selective=(0, 0, 0, 1), path=path)
    position = twin(state)
    player = state.to_move
    count = int(E._generate(board.arrays(), arrays, player, 1))
    got = {int(m): int(v) for m, v in zip(arrays.moves[1, : abs(count)], arrays.scores[1, : abs(count)], strict=True)}
    expected, forced = position.moves(player)
    if not forced and naive.near(position.cells, state.n, expected[0]):  # else the empty board's order
        assert got == {cell: position.order_score(player, cell, path, 1) for cell in expected}


@given(positions(max_stones=18), st.integers(1, 2), st.booleans(), st.booleans())
@settings(max_examples=25, deadline=None)
def test_the_search_equals_a_plain_minimax_over_the_same_moves(
    state: State, depth: int, answers: bool, verify: bool
) -> None:
    """With every move searched, no reduction and table values reused at their own depth only (and the exact
    answers to threats as the moves, or not; the table's wins searched again on the principal variation, or not)."""
    board = engine_board(state)
    arrays = search_arrays(board, answers=answers, verify=verify)
    value = E._negamax(board.arrays(), arrays, state.to_move, depth, 0, -E.INFINITY, E.INFINITY)
    assert value == naive.minimax(twin(state), state.to_move, depth, 0, threat_plies=2, answers=answers)
    assert board.cells.tolist() == state.cells.tolist()  # every move was taken back


@given(positions(max_stones=18), st.integers(0, 2), st.integers(1, 6))
@settings(max_examples=40, deadline=None)
def test_the_search_with_its_threat_quiescence_equals_a_plain_minimax(state: State, depth: int, plies: int) -> None:
    """The quiescence at the leaves (fours, the exact answers to an open three, standing pat) against its twin."""
    board = engine_board(state)
    arrays = search_arrays(board, quiescence=plies)
    value = E._negamax(board.arrays(), arrays, state.to_move, depth, 0, -E.INFINITY, E.INFINITY)
    assert value == naive.minimax(twin(state), state.to_move, depth, 0, threat_plies=2, quiescence=plies)
    assert board.cells.tolist() == state.cells.tolist()


FIXTURE = Path(__file__).resolve().parents[1] / "data" / "gomoku_threats.jsonl"


@pytest.mark.parametrize(
    ("selective", "leaf", "answers", "quiescence", "verify"),
    [((E.ONE_PLY, 0, 0, 0), (0, 0), False, 0, False), ((E.LOGARITHMIC, 1, FITTED_MARGIN, 1), (0, 0), False, 0, False),
     ((E.LOGARITHMIC, 1, FITTED_MARGIN, 1), (15, 3), False, 0, False),
     ((E.LOGARITHMIC, 1, FITTED_MARGIN, 1), (15, 3), True, 0, False),
     ((E.LOGARITHMIC, 1, FITTED_MARGIN, 1), (0, 0), True, 12, False),
     ((E.ADJUSTED, 1, FITTED_MARGIN, 1), (0, 0), True, 12, True)],
    ids=["plain", "selective", "selective, quick leaf VCF", "selective, quick leaf VCF, exact answers",
         "selective, exact answers, threat quiescence",
         "adjusted reductions, exact answers, threat quiescence, verified wins"],
)  # fmt: skip
def test_the_search_finds_every_labelled_win_in_time(
    selective: tuple[int, int, int, int], leaf: tuple[int, int], answers: bool, quiescence: int, verify: bool
) -> None:
    """Each VCF and VCT of the fixture (d attacker moves) is a win within 2d - 1 plies, pruning or not."""
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    wins = [row for row in rows if row["kind"] != "none"]
    assert len(wins) >= 90
    missed = []
    for row in wins:
        state = State.parse(row["board"], 5)
        board = engine_board(state)
        for depth in range(1, 2 * row["depth"]):
            arrays = search_arrays(
                board, width=20, threat_plies=4, selective=selective, leaf_vcf=leaf[0], leaf_width=leaf[1],
                answers=answers, quiescence=quiescence, verify=verify,
            )  # fmt: skip
            if E._negamax(board.arrays(), arrays, state.to_move, depth, 0, -E.INFINITY, E.INFINITY) >= E.WON:
                break
        else:
            missed.append(row["board"])
    assert missed == []


REDUCTIONS = {E.NO_REDUCTION: "none", E.ONE_PLY: "one", E.LOGARITHMIC: "log", E.ADJUSTED: "adjusted"}


@given(
    st.sampled_from(sorted(REDUCTIONS)), st.integers(0, 60), st.integers(1, 400), st.booleans(), st.booleans(),
    st.booleans(), st.booleans(), st.one_of(st.just(0), st.integers(0, 5_000)),
)  # fmt: skip
@settings(max_examples=400, deadline=None)
def test_the_reductions_match_the_naive_twin(
    mode: int, next_depth: int, i: int, principal: bool, quiet: bool, forced: bool, threatened: bool, history: int
) -> None:
    params = np.zeros(E.PARAMS, dtype=np.int64)
    params[E.REDUCE] = mode
    got = E._reduced(params, next_depth, i, principal, quiet, forced, threatened, history)
    assert got == naive.reduced(REDUCTIONS[mode], next_depth, i, principal, quiet, forced, threatened, history)
    if next_depth >= 1:
        assert 1 <= got <= next_depth


def test_the_adjusted_reduction_reduces_threats_and_proven_moves_less_and_quiet_new_moves_more() -> None:
    params = np.zeros(E.PARAMS, dtype=np.int64)
    params[E.REDUCE] = E.LOGARITHMIC
    log = E._reduced(params, 12, 20, False, True, False, False, 5)
    assert log == 12 - 5  # ln 13 * ln 21 / 1.7 = 4.59 plies (the node is 13 deep)
    params[E.REDUCE] = E.ADJUSTED
    assert E._reduced(params, 12, 20, False, True, False, False, 5) == log  # a quiet move that cut off, shallower
    assert E._reduced(params, 12, 20, False, True, False, False, 0) == log - 1  # one that never did
    assert E._reduced(params, 12, 20, False, False, False, False, 5) == log + 1  # a move that makes a three
    assert E._reduced(params, 12, 20, False, False, False, True, 5) == log + 2  # ... while the opponent threatens
    assert E._reduced(params, 12, 20, False, False, False, True, 144) == log + 3  # ... and cut off at this depth


def gomoku(rows: list[str]) -> State:
    """A 15x15 position from the rows given (the others empty), centred from the top-left."""
    lines = [row.ljust(15, ".") for row in rows] + ["." * 15] * (15 - len(rows))
    return State.parse("/".join(lines), 5)


def test_it_takes_a_five_and_blocks_a_four() -> None:
    engine = Engine(depth=3)
    state = gomoku(["", "", ".XXXX", ".OOO", "....O"])
    assert state.name(engine.choose(state)) in ("a3", "f3")
    assert engine.last is not None and engine.last.kind == "forced"
    state = gomoku(["", "", ".OOOO", ".XXX", "", "......X"])
    assert state.name(engine.choose(state)) in ("a3", "f3")


@pytest.mark.parametrize("others", ["OOO", "O.O.....O"])
def test_black_under_renju_makes_its_open_four(others: str) -> None:
    """Under renju black's wins are not left to the VCF solver: the search's root finds the open four itself."""
    rows = [others, "", "", "", "...XXX"]
    state = State.parse("/".join([row.ljust(9, ".") for row in rows] + ["." * 9] * 4), 5, rule="renju")
    engine = Engine(time_ms=30)
    move = engine.choose(state)
    assert engine.last is not None and engine.last.kind == "search" and engine.last.move == move
    assert state.name(move) in ("c5", "g5") and engine.last.value == WIN_VALUE - 3


def test_it_answers_an_open_three() -> None:
    """O's open three d5-f5: X, with no four to play, must take one of the cells that stop it."""
    state = gomoku(["", "", "", "", "...OOO", "", "..X.X", "....X"])
    engine = Engine(depth=4)
    assert state.name(engine.choose(state)) in ("c5", "g5", "b5", "h5")


def test_it_finds_a_vcf() -> None:
    """f3 makes two fours at once (row 3 and column f): a VCF the threat solver finds before any search."""
    state = gomoku(
        ["", "", ".OXXX", ".....X", ".....X", ".....X", ".....O", "", "", "O", "", ".O", "", "..O", "..............O"]
    )
    engine = Engine(depth=2)
    move = engine.choose(state)
    assert engine.last is not None and engine.last.kind == "vcf"
    assert state.name(move) == "f3"
    assert len(engine.last.pv) == 3 and {state.name(m) for m in engine.last.pv[1:]} == {"f2", "g3"}


COUNTER_ATTACK = [81, 98, 140, 82, 95, 66, 50, 67, 65, 80, 49, 97, 52, 51, 35]
"""A game of the engine (O) against the old alpha-beta: X threatens a VCT at the top of the board, and O wins
first with its fours h8 or j8 (three plies). At 1 s a move the engine used to check the defences in cell order,
ran out of its share of the time before reaching h8 and j8, searched only the moves checked, and lost."""


def test_the_defences_checked_first_are_our_fours_then_the_threat_line() -> None:
    state = State.from_moves(15, 5, COUNTER_ATTACK)
    board = PatternBoard(state)
    threat = [20, 5, 33, 17]
    cells = Engine._defences(board, 2, 1, threat)
    fours = {112, 114, 127, 130}  # h8, j8, h9, k9: O's fours
    assert set(cells[:4]) == fours and cells[4:8] == threat
    assert len(cells) == len(set(cells)) and all(state.cells[cell] == 0 for cell in cells)


def test_a_counter_attack_is_not_lost_to_the_defence_checks() -> None:
    state = State.from_moves(15, 5, COUNTER_ATTACK)
    engine = Engine(time_ms=1000)
    move = engine.choose(state)
    assert engine.last is not None and engine.last.value >= WIN_VALUE - 100, engine.last
    assert state.name(move) in ("h8", "j8")


def test_stop_ends_a_long_search_at_once() -> None:
    state = gomoku(["", "", "", "", "", "", "", ".......X", "........O"])
    engine = Engine(depth=60)
    threading.Timer(0.3, engine.stop).start()
    start = time.perf_counter()
    move = engine.choose(state)
    assert time.perf_counter() - start < 60  # stopped: to depth 60 it would search for hours
    assert state.cells[move] == 0


def test_a_time_per_move_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search arms a stop at its budget, by its clock (here one that moves 1 ms at each reading), and a
    stop gives the deepest iteration finished; without a stop, it searches to its depth."""
    from plyground.kinrow import engine as engine_module
    from tests.kinrow.clocks import Threading, TickingClock

    state = gomoku(["", "", "", "", "", "", ".....O.X", ".......X", "........O"])
    deep = Engine(depth=3)
    deep.choose(state)
    assert deep.last is not None and deep.last.depth == 3 and deep.last.pv[0] == deep.last.move
    clock, threads = TickingClock(0.001), Threading()
    monkeypatch.setattr(engine_module, "time", clock)
    monkeypatch.setattr(engine_module, "threading", threads)  # its timers fire as soon as they are armed
    engine = Engine(time_ms=300)
    move = engine.choose(state)
    assert threads.intervals == [pytest.approx(0.3 - clock.tick)]  # one reading since the move began
    assert engine.last is not None and engine.last.move == move and state.cells[move] == 0
    assert engine.last.depth == 1 and engine.last.pv[0] == move  # depth 1 always finishes


def test_memory_bounds_the_tables() -> None:
    engine = Engine(depth=3, memory=1 << 20)
    engine.choose(gomoku(["", "", "", "", "", "", "", ".......X"]))
    assert engine._tables is not None
    used = sum(table.nbytes for table in engine._tables)
    assert used <= 1 << 20
    engine.set_memory(0)
    assert engine.memory > 1 << 20
    for bad in (-1, 10, 1.5, True):
        with pytest.raises(InvalidInputError):
            engine.set_memory(bad)  # type: ignore[arg-type]


def test_bad_settings_and_states_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="time per move, a depth"):
        Engine()
    with pytest.raises(InvalidInputError, match="depth"):
        Engine(depth=0)
    with pytest.raises(InvalidInputError, match="width"):
        Engine(depth=2, settings=EngineSettings(width=0))
    for name, value in (("leaf_width", 5), ("leaf_width", -1), ("leaf_vcf", 41), ("leaf_vcf", True)):
        with pytest.raises(InvalidInputError, match=name):
            Engine(depth=2, settings=EngineSettings(**{name: value}))
    with pytest.raises(InvalidInputError, match="k = 6"):
        Engine(depth=2).choose(State(9, 6))
    with pytest.raises(InvalidInputError, match="State"):
        Engine(depth=2).choose("X..")  # type: ignore[arg-type]
    state = State.from_moves(3, 3, [0, 3, 1, 4, 2])
    with pytest.raises(IllegalMoveError, match="over"):
        Engine(depth=2).choose(state)


def test_under_renju_x_never_plays_a_forbidden_point() -> None:
    """e5 would be X's double-three: the engine's X plays elsewhere, even though e5 is its most promising cell."""
    rows = ["O.......O", ".........", "....X....", "....X....", "..XX.....", ".........", ".........", ".........",
            "O.......O"]  # fmt: skip
    state = State.parse("/".join(rows), 5, rule="renju")
    assert state.parse_move("e5") in state.forbidden_moves()
    for depth in (1, 3):
        move = Engine(depth=depth).choose(state)
        assert move in state.legal_moves() and move != state.parse_move("e5")


def test_renju_games_have_no_forbidden_move() -> None:
    state = State(15, 5, rule="renju")
    x, o = Engine(time_ms=30), Engine(time_ms=30)
    while not state.is_over and len(state.history) < 40:
        state.play((x if state.to_move == 1 else o).choose(state))  # play() refuses a forbidden point


def test_an_overline_is_no_win_under_the_standard_rule() -> None:
    """X X X X . X on row 3: the gap makes six, which wins only under free-style; O's threat must be blocked instead."""
    rows = ["", "", "XXXX.X", "", "OOOO", ".O"]
    free = gomoku(rows)
    standard = State.parse(free.to_text(), 5, rule="standard")
    gap, block = free.parse_move("e3"), free.parse_move("e5")
    assert Engine(depth=2).choose(free) == gap
    assert Engine(depth=2).choose(standard) == block


def test_blocked_cells_are_never_played_and_end_lines() -> None:
    """Blocked cells close both ends of X's four, so X has no five to make: it must answer O's open three."""
    rows = ["." * 9] * 2 + ["#XXXX#...", "...OOO...", "........."] + ["." * 9] * 3 + ["........O"]
    state = State.parse("/".join(rows), 5)
    assert state.to_move == 1 and not state.winning_moves()
    move = Engine(depth=3).choose(state)
    assert state.name(move) in ("c4", "g4", "b4", "h4")


def test_tic_tac_toe_is_never_lost() -> None:
    from plyground.kinrow.players import RandomPlayer

    for seed in range(6):
        state = State(3, 3)
        engine, other = Engine(depth=9), RandomPlayer(seed=seed)
        engine_side = 1 + seed % 2
        while not state.is_over:
            player = engine if state.to_move == engine_side else other
            state.play(player.choose(state))
        assert state.result in (engine_side, 3)


def test_prepare_builds_the_tables_of_the_board_and_rule() -> None:
    from plyground.kinrow.patterns import tables_for

    tables_for.cache_clear()
    engine = Engine(time_ms=100)
    engine.prepare(State(20, 5, rule="standard"))
    assert tables_for.cache_info().currsize >= 1 and engine._tables is None  # no table held before a move
    misses = tables_for.cache_info().misses
    engine.prepare(State(20, 5, rule="standard"))
    engine.prepare(State(20, 5, rule="renju"))
    assert tables_for.cache_info().misses == misses + 1
    with pytest.raises(InvalidInputError, match="k = 6"):
        engine.prepare(State(9, 6))


def test_a_failed_vcf_of_one_player_does_not_hide_the_other_players() -> None:
    """The solvers' tables keep failures per attacker: X finding nothing says nothing of O's open three."""
    from plyground.kinrow import _threat_kernels as T

    state = gomoku(["", "", "", "", "...OOO", "", "..X.X", "....X"])
    board = PatternBoard(state)
    table = np.zeros(1 << 12, dtype=TABLE_DTYPE)
    line, stats, never = np.zeros(64, dtype=np.int32), np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.uint8)
    for solver in ("vcf", "vct"):
        assert state.to_move == 1
        found = []
        for player in (1, 2):
            if solver == "vcf":
                found.append(T._vcf(board.arrays(), table, line, never, stats, player, 8, 0, -1, 0))
            else:
                found.append(T._vct(board.arrays(), table, line, never, stats, player, 4, 0, 100_000))
        assert found == [0, 1], solver


def test_a_vct_may_block_the_defenders_open_three_with_a_three() -> None:
    """O's open three i8-j7-k6 comes first, but X's h9 blocks it and makes an open three of its own.

    O's four l5/m4 is blocked by force, X's three still stands, and X's square wins.
    """
    from plyground.kinrow.threats import find_vct

    rows = ["..........O", ".........O", "........O", "........XX", "........XX", "..........O"]
    state = gomoku(["", "", "", "", "", *rows])
    assert state.to_move == 1
    line = find_vct(state, max_depth=6)
    assert line is not None and state.name(line[0]) == "h9"


def test_making_an_engine_builds_the_gomoku_tables_before_the_first_move() -> None:
    from plyground.kinrow import engine as engine_module
    from plyground.kinrow import patterns

    patterns.tables_for.cache_clear()
    engine_module._warm_up.cache_clear()
    Engine(time_ms=100)
    assert patterns.tables_for.cache_info().currsize >= 1


def test_the_selectivity_can_be_turned_off_everywhere() -> None:
    from typer.testing import CliRunner

    from plyground.apps.cli.main import app
    from plyground.kinrow.engine import PLAIN
    from plyground.kinrow.players import make_player

    on = make_player("engine").settings  # type: ignore[attr-defined]
    assert (on.prune, on.futility, on.reduction, on.distance) == (True, True, "log", True)
    off = make_player("engine", selective=False, evaluation="hand").settings  # type: ignore[attr-defined]
    assert {name: getattr(off, name) for name in PLAIN} == PLAIN and off.evaluation == "hand"
    known = "none, one, log, adjusted"
    with pytest.raises(InvalidInputError, match=f"unknown reduction 'half'; the reductions are {known}"):
        Engine(depth=1, settings=EngineSettings(reduction="half"))
    with pytest.raises(InvalidInputError, match="prune must be true or false, got 1"):
        Engine(depth=1, settings=EngineSettings(prune=1))  # type: ignore[arg-type]
    args = ["kinrow", "selfplay", "--n", "9", "--k", "5", "--x", "engine", "--o", "random", "--games", "1", "--quiet"]
    result = CliRunner().invoke(app, [*args, "--no-selective", "--time-ms", "20", "--seed", "1"])
    assert result.exit_code == 0, result.output


def test_the_command_lines_choices_are_the_engines() -> None:
    """The CLI lists the evaluations and reductions without importing the engine (no numba at ``--help``): the
    same names."""
    from plyground.apps.cli.kinrow_engine import EvaluationKind, Reduction
    from plyground.kinrow.engine import EVALUATIONS, REDUCTIONS

    assert sorted(kind.value for kind in Reduction) == sorted(REDUCTIONS)
    assert sorted(kind.value for kind in EvaluationKind) == sorted(EVALUATIONS)


def test_the_root_vct_steps_can_be_turned_off() -> None:
    """X wins by a VCT (h9 first, see above): found at the root, or left to the search when the steps are off."""
    from plyground.kinrow.players import make_player

    rows = ["..........O", ".........O", "........O", "........XX", "........XX", "..........O"]
    state = gomoku(["", "", "", "", "", *rows])
    engine = Engine(depth=2)
    engine.choose(state)
    assert engine.last is not None and engine.last.kind == "vct"
    engine = Engine(depth=2, settings=EngineSettings(root_vct=False))
    engine.choose(state)
    assert engine.last is not None and engine.last.kind == "search"
    assert make_player("engine", root_vct=False).settings.root_vct is False  # type: ignore[attr-defined]
    assert make_player("engine").settings.root_vct is True  # type: ignore[attr-defined]
    assert make_player("engine", answers=True).settings.answers is True  # type: ignore[attr-defined]
    assert make_player("engine", quiescence=6).settings.quiescence == 6  # type: ignore[attr-defined]
    adjusted = make_player("engine", reduction="adjusted", verify_wins=True).settings  # type: ignore[attr-defined]
    assert (adjusted.reduction, adjusted.verify_wins) == ("adjusted", True)
    plain = make_player("engine", selective=False, reduction="log").settings  # type: ignore[attr-defined]
    assert (plain.reduction, plain.prune) == ("log", False)  # the reduction asked for wins over the plain one
    with pytest.raises(InvalidInputError, match="verify_wins must be true or false, got 1"):
        Engine(depth=1, settings=EngineSettings(verify_wins=1))  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="quiescence must be an integer from 0 to 40, got 41"):
        Engine(depth=1, settings=EngineSettings(quiescence=41))
    assert make_player("engine", next_depth_share=1.0).settings.next_depth_share == 1.0  # type: ignore[attr-defined]
    for share in (0, 1.5, float("nan"), True):
        with pytest.raises(InvalidInputError, match="next_depth_share must be a number above 0 and at most 1"):
            Engine(depth=1, settings=EngineSettings(next_depth_share=share))
    with pytest.raises(InvalidInputError, match="root_vct must be true or false, got 0"):
        Engine(depth=1, settings=EngineSettings(root_vct=0))  # type: ignore[arg-type]


def test_the_symmetric_evaluation_no_root_vct_exact_answers_and_the_search_options_play_from_the_command_line() -> None:
    from typer.testing import CliRunner

    from plyground.apps.cli.main import app

    args = ["kinrow", "selfplay", "--n", "9", "--k", "5", "--x", "engine", "--o", "random", "--games", "1", "--quiet"]
    options = [
        "--evaluation",
        "symmetric",
        "--no-root-vct",
        "--exact-answers",
        "--reduction",
        "adjusted",
        "--verify-wins",
        "--time-ms",
        "20",
        "--seed",
        "1",
        "--json",
    ]
    result = CliRunner().invoke(app, [*args, *options])
    assert result.exit_code == 0, result.output
    assert '"x_wins": 1' in result.output.replace(" ", "").replace('":', '": ')
