"""The threat solver (VCF, VCT) on the labelled positions of ``tests/data/gomoku_threats.jsonl``.

The labels come from an independent brute force (``tests/naive/threats.py``: every defender
reply tried after a three). The VCF solver must agree exactly: a VCF within the label's depth,
none within one move less, none at all where the label has none; every line it gives is
replayed move by move. The VCT solver is the usual threat-space approximation: it must never
claim a win the brute force refutes, and its first move must be one of the winning ones.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import IllegalMoveError, InvalidInputError
from plyground.kinrow import State
from plyground.kinrow import _threat_kernels as T
from plyground.kinrow._table_kernels import TABLE_DTYPE
from plyground.kinrow.patterns import PatternBoard
from plyground.kinrow.threats import VcfSolver, find_vcf, find_vct
from tests.naive.quick_vcf import quick_vcf

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "gomoku_threats.jsonl"
VCT_FOUND_AT_LEAST = 30
"""Of the 40 positions won by a VCT of depth 3 (and no VCF), the solver finds 32 today."""


@functools.cache
def fixture() -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(line) for line in FIXTURE.read_text().splitlines())


def replay(state: State, line: list[int]) -> None:
    """Check that ``line`` is a win by threats: each attacker move makes five or threatens it, each reply is forced."""
    attacker = state.to_move
    state = state.copy()
    for i, move in enumerate(line):
        state.play(move)
        if state.is_over:
            assert state.result == attacker and i == len(line) - 1 and i % 2 == 0
            return
        if i % 2 == 0:
            threats = state.winning_moves(attacker)
            assert threats, f"attacker move {state.name(move)} threatens nothing"
            assert not state.winning_moves(), "the defender could make five"
            if i + 1 < len(line):
                assert line[i + 1] in threats, "the defender's reply is not the forced block"
    raise AssertionError("the line does not end with a five")


@pytest.mark.kernel
@pytest.mark.parametrize("row", [r for r in fixture() if r["kind"] == "vcf"], ids=lambda r: f"vcf{r['depth']}")
def test_vcf_depths_are_the_brute_forces(row: dict[str, Any]) -> None:
    state = State.parse(row["board"], 5)
    depth = row["vcf_depth"]
    line = find_vcf(state, max_depth=depth)
    assert line is not None
    assert state.name(line[0]) in row["moves"]
    assert (len(line) + 1) // 2 <= depth
    replay(state, line)
    if depth > 1:
        assert find_vcf(state, max_depth=depth - 1) is None


@pytest.mark.kernel
@pytest.mark.parametrize("kind", ["vct", "none"])
def test_no_vcf_where_the_brute_force_has_none(kind: str) -> None:
    for row in fixture():
        if row["kind"] == kind:
            assert find_vcf(State.parse(row["board"], 5), max_depth=row["vcf_limit"]) is None, row["board"]


@pytest.mark.kernel
def test_the_vct_never_claims_a_win_that_is_not_there() -> None:
    for row in fixture():
        if row["kind"] == "none":
            state = State.parse(row["board"], 5)
            assert find_vct(state, max_depth=row["vct_limit"], max_nodes=200_000) is None, row["board"]


def test_the_vct_finds_the_wins_by_threes_and_starts_them_right() -> None:
    found = 0
    rows = [row for row in fixture() if row["kind"] == "vct"]
    for row in rows:
        state = State.parse(row["board"], 5)
        line = find_vct(state, max_depth=row["vct_depth"], max_nodes=200_000)
        if line is not None:
            found += 1
            assert state.name(line[0]) in row["moves"], row["board"]
    assert len(rows) == 40 and found >= VCT_FOUND_AT_LEAST


@pytest.mark.kernel
def test_the_quick_vcf_wins_where_it_claims_and_finds_most_vcfs() -> None:
    """Its lines replay as wins; it claims none where there is no VCF; it finds the short VCFs and some long ones.

    The fixture's positions are random, their long VCFs often jump from line to line, which
    the quick VCF does not follow: at width 3 it finds every VCF of up to three moves (44)
    and 10 of the 34 longer ones today.
    """
    found = {True: 0, False: 0}
    rows = [row for row in fixture() if row["kind"] == "vcf"]
    for row in rows:
        state = State.parse(row["board"], 5)
        line = find_vcf(state, max_depth=row["vcf_depth"] + 2, width=3)
        if line is not None:
            found[row["vcf_depth"] <= 3] += 1
            replay(state, line)
    assert found[True] == sum(row["vcf_depth"] <= 3 for row in rows) == 44
    assert found[False] >= 8, f"the quick VCF found {found[False]} of the 34 longer VCFs"
    for row in fixture():
        if row["kind"] != "vcf":
            assert find_vcf(State.parse(row["board"], 5), max_depth=row["vcf_limit"], width=4) is None, row["board"]


@st.composite
def crowded(draw: st.DrawFn) -> tuple[State, int, int]:
    """A small board crowded with stones (so that fours abound), a depth and a width."""
    n = draw(st.integers(6, 9))
    k = draw(st.integers(4, 5))
    rule = draw(st.sampled_from(["freestyle", "standard"]))
    state = State(n, k, rule=rule)
    for move in draw(st.permutations(range(n * n)))[: draw(st.integers(6, n * n // 3))]:
        state.play(move)
        if state.is_over:
            state.undo()
    return state, draw(st.integers(1, 5)), draw(st.integers(1, 4))


@pytest.mark.kernel
@settings(max_examples=150, deadline=None)
@given(crowded())
def test_the_quick_vcf_equals_its_naive_twin(case: tuple[State, int, int]) -> None:
    state, depth, width = case
    exact = (state.rule.exact(1), state.rule.exact(2))
    expected = quick_vcf(list(state.cells), state.n, state.k, exact, state.to_move, depth, width)
    assert find_vcf(state, max_depth=depth, width=width) == expected


def test_bad_calls_are_refused() -> None:
    state = State(15, 5)
    for width in (0, 5, True, 2.0):
        with pytest.raises(InvalidInputError, match="width"):
            find_vcf(state, width=width)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="max_depth"):
        find_vcf(state, max_depth=0)
    with pytest.raises(InvalidInputError, match="max_nodes"):
        find_vct(state, max_nodes=0)
    with pytest.raises(InvalidInputError, match="renju"):
        find_vcf(State(15, 5, rule="renju"))
    with pytest.raises(InvalidInputError, match="k = 6"):
        find_vcf(State(15, 6))
    with pytest.raises(IllegalMoveError, match="over"):
        find_vcf(State.from_moves(5, 3, [0, 5, 1, 6, 2]))


@pytest.mark.kernel
def test_a_solver_finds_what_find_vcf_finds_and_counts_the_kernels_nodes() -> None:
    """One solver, its table kept between searches, finds the lines of fresh searches and counts the kernel's nodes."""
    solver = VcfSolver()
    rows = fixture()[::12]
    for row in rows:
        state = State.parse(row["board"], 5)
        for width in (None, 3):
            result = solver.solve(state, max_depth=row["vcf_limit"], width=width)
            assert result.line == find_vcf(state, max_depth=row["vcf_limit"], width=width), row["board"]
            board = PatternBoard(state)
            stats = np.zeros(2, dtype=np.int64)
            T._vcf(board.arrays(), np.zeros(1 << 18, TABLE_DTYPE), np.zeros(64, np.int32),
                   np.zeros(1, np.uint8), stats, state.to_move, row["vcf_limit"], 0, -1, width or 0)  # fmt: skip
            assert result.nodes == int(stats[T.NODES]) >= 1 and result.seconds >= 0.0
        assert (solver.solve(state, max_depth=row["vcf_limit"]).line is not None) == (row["vcf_depth"] is not None)
    assert any(row["vcf_depth"] is not None for row in rows) and any(row["vcf_depth"] is None for row in rows)


def test_a_solver_refuses_what_find_vcf_refuses() -> None:
    solver = VcfSolver()
    for width in (0, 5, True, 2.0):
        with pytest.raises(InvalidInputError, match=f"width must be None or an integer from 1 to 4, got {width!r}"):
            solver.solve(State(15, 5), width=width)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="max_depth must be an integer from 1 to 40, got 41"):
        solver.solve(State(15, 5), max_depth=41)
    with pytest.raises(InvalidInputError, match="expected a k-in-a-row State, got str"):
        solver.solve("x")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="over"):
        solver.solve(State.from_moves(5, 3, [0, 5, 1, 6, 2]))
